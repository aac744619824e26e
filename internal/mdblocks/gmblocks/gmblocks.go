// Package gmblocks is mdblocks' finder on goldmark's CommonMark parser.
// Importing it registers it (mdblocks.Use); memcompact's faces import it,
// and so does every test that cuts an index holding a comment.
package gmblocks

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/memcompact/memcompact/internal/mdblocks"
)

func init() { mdblocks.Use(HTMLBlocks) }

// HTMLBlocks parses src with goldmark's default parser and returns its
// top-level HTML blocks that have at least one line.
func HTMLBlocks(src []byte) ([]mdblocks.Block, error) {
	doc := markdownParser().Parse(text.NewReader(src))
	var out []mdblocks.Block
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.HTMLBlock)
		if !ok || h.Lines().Len() == 0 {
			continue
		}
		b := mdblocks.Block{Start: h.Lines().At(0).Start, Stop: h.Lines().At(h.Lines().Len() - 1).Stop}
		if h.HasClosure() {
			b.Stop = h.ClosureLine.Stop
		}
		out = append(out, b)
	}
	return out, nil
}

// markdownParser is goldmark's default parser (goldmark.DefaultParser),
// built from its parser package directly: importing goldmark's root
// package would link its HTML renderer, whose package initialisation every
// run of memcompact would pay for, and this package only parses.
func markdownParser() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
}
