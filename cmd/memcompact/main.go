// Command memcompact keeps an AI agent's file-based memory small without
// making it forget. Run "memcompact help" for its verbs.
package main

import (
	"os"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/hookrun"
)

func main() {
	if isHook(os.Args[1:]) {
		hookrun.CollectLate(os.Getenv)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// isHook reports whether this run is a hook, which should not collect
// garbage (hookrun.CollectLate).
func isHook(args []string) bool { return len(args) > 0 && args[0] == "hook" }
