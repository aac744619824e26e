package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/memcompact/memcompact/internal/companion"
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

// handOver runs the command line args in memcompact-full, which links what
// this run needed and this executable does not (why), and returns its exit
// code. With this process's own streams the process becomes
// memcompact-full (companion.Replace): an MCP client talks to it directly.
// An error is a refusal naming why nothing ran.
func handOver(env *Env, args []string, why error) (int, error) {
	bin, err := companion.Find(companion.Full)
	if err == nil && companion.Loop(companion.Full) {
		err = fmt.Errorf("%s handed this command back, so it is not memcompact-full", bin)
	}
	if err == nil {
		if env.Process {
			err = companion.Replace(bin, companion.Full, args)
		} else {
			var code int
			if code, err = companion.Run(bin, companion.Full, args, env.Stdin, env.Stdout, env.Stderr); err == nil {
				return code, nil
			}
		}
	}
	return 0, &exitError{Code: exitRefused, Err: fmt.Errorf("%v, and %v", why, err), Hints: []string{companion.InstallHint}}
}
