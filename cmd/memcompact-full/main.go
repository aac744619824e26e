// Command memcompact-full is memcompact with everything linked in: the
// MCP server, the model summarizers' SDKs and goldmark's Markdown parser.
// It runs every verb exactly as memcompact does; memcompact hands it the
// command lines that need what it alone links ("memcompact mcp",
// "memcompact compact --summarizer anthropic", an index holding an HTML
// comment), so that memcompact's own start-up stays about a millisecond.
// Install the two together (package companion):
//
//	go install github.com/memcompact/memcompact/cmd/...@latest
package main

import (
	"os"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/companion"
	_ "github.com/memcompact/memcompact/internal/fullbuild"
)

func main() {
	companion.Arrive()
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
