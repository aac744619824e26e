package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/memcompact/memcompact/internal/outcome"
)

func init() {
	register("mcp", runMCP)
}

// MCPServer serves the MCP protocol on env's standard streams until ctx
// ends or its input does (package mcpserver, as memcompact-full links it).
type MCPServer func(ctx context.Context, env *Env) error

// mcpServer is the linked server; nil in memcompact, which hands "mcp" to
// memcompact-full (handOver): the MCP SDK's start-up is not paid by every
// other verb.
var mcpServer MCPServer

// LinkMCP makes s the server "memcompact mcp" runs.
func LinkMCP(s MCPServer) { mcpServer = s }

func runMCP(env *Env, args []string) error {
	fs := newFlagSet("mcp")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("mcp takes no arguments")
	}
	if mcpServer == nil {
		return refusef("the MCP server is %w (memcompact-full links the MCP SDK)", outcome.ErrNotLinked)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := mcpServer(ctx, env); err != nil && ctx.Err() == nil {
		return refusef("mcp: %v", err)
	}
	return nil
}
