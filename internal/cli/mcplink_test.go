package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/mcpserver"
)

// The tests' "mcp" verb serves the MCP face, as cmd/memcompact links it.
func init() {
	LinkMCP(func(ctx context.Context, env *Env) error {
		h := &mcpserver.Host{Getenv: env.Getenv, LookupEnv: env.LookupEnv, Home: env.Home(), Today: env.Today, Now: env.Now}
		return mcpserver.Serve(ctx, mcpserver.New(h, Version), env.Stdin, env.Stdout)
	})
}
