// Package mdblocks finds the top-level HTML blocks of a CommonMark
// document, which Claude Code strips from a memory index when they are
// comments (package loadcut), through whichever parser the executable
// links.
//
// memcompact-full links goldmark's (package gmblocks, which registers
// itself when imported). memcompact and memcompact-hook do not: goldmark's
// package initialisation alone would cost every run 1.6 M instructions and
// about 0.6 ms, for the few indexes that hold a comment at all. They
// register Companion instead, which asks memcompact-full (Serve, behind
// ServeArg) and so gets the very same answer from the very same parser.
package mdblocks

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/companion"
)

// Block is one top-level HTML block: Start is the offset of its first
// line's first byte, Stop the end of its last line (its closing line, for
// a block that has one).
type Block struct{ Start, Stop int }

// Finder finds the blocks of src.
type Finder func(src []byte) ([]Block, error)

// finder is the registered Finder.
var finder companion.Linked[Finder]

// Use makes f the finder HTMLBlocks runs.
func Use(f Finder) { finder.Set(f) }

// ErrNoParser is HTMLBlocks' error in a program that registered no
// finder: a program that cuts indexes must link gmblocks or use Companion.
var ErrNoParser = errors.New("mdblocks: no Markdown parser is linked (import internal/mdblocks/gmblocks, or Use Companion)")

// HTMLBlocks returns the top-level HTML blocks of src, in order.
func HTMLBlocks(src []byte) ([]Block, error) {
	f := finder.Get()
	if f == nil {
		return nil, ErrNoParser
	}
	return f(src)
}

// ServeArg is the one argument on which memcompact runs Serve instead of a
// verb. It is not a verb: only memcompact-hook calls it.
const ServeArg = "__markdown-html-blocks"

// Serve reads a document from r and writes its blocks to w, one "START
// STOP" line each.
func Serve(r io.Reader, w io.Writer) error {
	src, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	blocks, err := HTMLBlocks(src)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, b := range blocks {
		fmt.Fprintf(bw, "%d %d\n", b.Start, b.Stop)
	}
	return bw.Flush()
}

// Companion is the finder of an executable that does not link goldmark
// (memcompact, memcompact-hook): it asks the first of the executables
// named that package companion finds installed with it (memcompact-full
// links goldmark), so that only an index holding "<!--" costs one more
// process. None answering is a companion.ErrUnavailable that says what to mend.
func Companion(names ...string) Finder {
	return func(src []byte) (blocks []Block, err error) {
		err = companion.Ask(names, ServeArg, src, func(out []byte) (err error) {
			blocks, err = parseBlocks(out, len(src))
			return err
		})
		if err != nil {
			return nil, companion.Unavailablef("the Markdown parser is not available: an index holding an HTML comment is read with memcompact-full's parser, and %v", err)
		}
		return blocks, nil
	}
}

// parseBlocks reads Serve's answer for a document of n bytes: ordered,
// non-overlapping blocks inside it, or an error.
func parseBlocks(out []byte, n int) ([]Block, error) {
	var blocks []Block
	prev := 0
	for line := range strings.Lines(string(out)) {
		a, b, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		start, err1 := strconv.Atoi(a)
		stop, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || start < prev || stop < start || stop > n {
			return nil, fmt.Errorf("mdblocks: unreadable answer line %q", line)
		}
		blocks = append(blocks, Block{start, stop})
		prev = stop
	}
	return blocks, nil
}
