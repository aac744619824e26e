// Command memcompact keeps an AI agent's file-based memory small without
// making it forget. Run "memcompact help" for its verbs.
//
// It is the one executable: every verb, the Claude Code hooks and the MCP
// server ("memcompact mcp") are this program.
package main

import (
	"context"
	"os"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/hookrun"
	"github.com/memcompact/memcompact/internal/mcpserver"
	"github.com/memcompact/memcompact/internal/summarize"
)

// The command line's "mcp" verb serves the MCP face; the two faces never
// import each other, so the executable joins them here. It also links the
// official SDKs' summarizers, which only the executable carries (see
// apimodel.go).
func init() {
	cli.LinkMCP(serveMCP)
	summarize.LinkAPI(newAPIModel)
}

func main() {
	// Every run but the MCP server's is a short one: garbage is left until
	// the heap nears hookrun.MemoryLimit, not collected and thrown away at
	// exit. The server lives as long as its client, so it collects.
	if len(os.Args) < 2 || os.Args[1] != "mcp" {
		hookrun.CollectLate(os.Getenv)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// serveMCP is the MCP server on env's standard streams, seeing the world
// as the command line does.
func serveMCP(ctx context.Context, env *cli.Env) error {
	h := &mcpserver.Host{Getenv: env.Getenv, LookupEnv: env.LookupEnv, Home: env.Home(), Today: env.Today, Now: env.Now}
	return mcpserver.Serve(ctx, mcpserver.New(h, cli.Version), env.Stdin, env.Stdout)
}
