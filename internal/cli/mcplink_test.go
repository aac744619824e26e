package cli

import (
	"context"

	"github.com/memcompact/memcompact/internal/claudehooks"
	"github.com/memcompact/memcompact/internal/mcpserver"
)

// The tests' "mcp" verb serves the MCP face, as cmd/memcompact links it.
func init() {
	LinkMCP(func(ctx context.Context, env *Env) error {
		h := &mcpserver.Host{Getenv: env.Getenv, LookupEnv: env.LookupEnv, Home: env.Home(), Today: env.Today, Now: env.Now}
		return mcpserver.Serve(ctx, mcpserver.New(h, Version), env.Stdin, env.Stdout)
	})
}

// The in-process tests' executable is the test binary, which must never
// be written into a hook or run as one: "hooks install" writes a stand-in
// path, and a dry run of a hook command answers as memcompact would.
func init() {
	Executable = func() (string, error) { return "/opt/memcompact/memcompact", nil }
	claudehooks.DefaultDryRun = func(context.Context, claudehooks.Hook, string) (string, error) { return Version, nil }
}
