package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/memcompact/memcompact/internal/mcpserver"
)

func init() {
	register(&command{
		name:  "mcp",
		usage: "mcp",
		short: "serve memcompact's instruments to an agent over MCP (stdio)",
		long: `mcp runs a Model Context Protocol server on standard input and output.
Its tools are memcompact's verbs with typed inputs: check, load, drift,
secrets, budgets, inventory, gate_deferral, gate_exit, gate_admission,
gate_reconcile, partition, measure, doctor, compact_plan and compact_apply.
Each returns as its structured content the verb's --json output, the
same document the command line prints, under a published output schema;
the exit code and outcome ride in the result's _meta. compact_apply
is the only tool that writes; it requires "confirm": true and otherwise
reports what it would do.

Register it with Claude Code:
  claude mcp add memcompact -- memcompact mcp

Exit codes: 0 when its input ends, 2 if the transport fails, 3 for any
argument. Each tool's own exit code is in its result (exit_code).`,
		run: runMCP,
	})
}

func runMCP(env *Env, args []string) error {
	fs := newFlagSet("mcp")
	pos, err := parseFlags(env, fs, "mcp", args)
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
