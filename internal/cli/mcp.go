package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/memcompact/memcompact/internal/mcpserver"
)

func init() {
	register("mcp", runMCP)
}

func runMCP(env *Env, args []string) error {
	fs := newFlagSet("mcp")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("mcp takes no arguments")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	server := mcpserver.New(&mcpserver.Host{Getenv: env.Getenv, LookupEnv: env.LookupEnv, Home: env.Home(), Today: env.Today, Now: env.Now}, Version)
	if err := mcpserver.Serve(ctx, server, env.Stdin, env.Stdout); err != nil && ctx.Err() == nil {
		return refusef("mcp: %v", err)
	}
	return nil
}
