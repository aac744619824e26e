// Command memcompact keeps an AI agent's file-based memory small without
// making it forget. Run "memcompact help" for its verbs.
//
// It links neither the MCP server, the model summarizers' SDKs nor
// goldmark, whose initialisation would cost every run several
// milliseconds before main begins: it hands the command lines that need
// them to memcompact-full, installed beside it (package companion).
package main

import (
	"os"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/companion"
	"github.com/memcompact/memcompact/internal/entryfile"
	"github.com/memcompact/memcompact/internal/hookrun"
	"github.com/memcompact/memcompact/internal/mdblocks"
)

func main() {
	companion.Arrive()
	// Every run of this executable is a short one (the MCP server, the one
	// that lives long, is memcompact-full's): garbage is left until the
	// heap nears hookrun.MemoryLimit, not collected and thrown away at exit.
	hookrun.CollectLate(os.Getenv)
	mdblocks.Use(mdblocks.Companion(companion.Full))
	entryfile.Use(entryfile.Companion(companion.Full))
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
