package cli

import (
	"context"
	"os"
	"os/signal"
)

func init() {
	register("mcp", runMCP)
}

// MCPServer serves the MCP protocol on env's standard streams until ctx
// ends or its input does (package mcpserver, as cmd/memcompact links it).
type MCPServer func(ctx context.Context, env *Env) error

// mcpServer is the server; the executable's main sets it (LinkMCP),
// because a face never imports the other face.
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
		return refusef("the MCP server is not linked into this program")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := mcpServer(ctx, env); err != nil && ctx.Err() == nil {
		return refusef("mcp: %v", err)
	}
	return nil
}
