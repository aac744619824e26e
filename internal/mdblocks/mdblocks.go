// Package mdblocks finds the top-level HTML blocks of a CommonMark
// document with goldmark's parser: Claude Code strips those that are
// comments from a memory index before it counts (package loadcut), so the
// load cut must see exactly the blocks a CommonMark parser sees.
package mdblocks

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Block is one top-level HTML block: Start is the offset of its first
// line's first byte, Stop the end of its last line (its closing line, for
// a block that has one).
type Block struct{ Start, Stop int }

// HTMLBlocks returns the top-level HTML blocks of src that have at least
// one line, in order. Any bytes are a document: an HTML comment that
// opens and never closes is a block that runs to the end, as CommonMark
// says, so there is no error to return.
func HTMLBlocks(src []byte) []Block {
	doc := markdownParser().Parse(text.NewReader(src))
	var out []Block
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.HTMLBlock)
		if !ok || h.Lines().Len() == 0 {
			continue
		}
		b := Block{Start: h.Lines().At(0).Start, Stop: h.Lines().At(h.Lines().Len() - 1).Stop}
		if h.HasClosure() {
			b.Stop = h.ClosureLine.Stop
		}
		out = append(out, b)
	}
	return out
}

// markdownParser is goldmark's default parser (goldmark.DefaultParser),
// built from its parser package directly: importing goldmark's root
// package would link its HTML renderer too, and this package only parses.
func markdownParser() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
}
