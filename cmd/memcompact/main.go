// Command memcompact keeps an AI agent's file-based memory small without
// making it forget. Run "memcompact help" for its verbs.
package main

import (
	"os"

	"github.com/memcompact/memcompact/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
