// Package fullbuild links into an executable what memcompact-full has and
// memcompact leaves out (package companion says why): the MCP server, the
// model summarizers' SDKs, goldmark's Markdown parser and yaml.v3.
// Importing it is
// the whole of its use:
//
//	import _ "github.com/memcompact/memcompact/internal/fullbuild"
//
// makes "memcompact mcp" serve instead of handing over (cli.LinkMCP), the
// anthropic and openai summarizers reachable (package summarize/sdk), and
// the load cut read comments with goldmark (package mdblocks/gmblocks), and
// entry frontmatters beyond entryfile's own YAML read with yaml.v3 (package
// entryfile/yamlfm).
package fullbuild

import (
	"context"

	"github.com/memcompact/memcompact/internal/cli"
	_ "github.com/memcompact/memcompact/internal/entryfile/yamlfm"
	"github.com/memcompact/memcompact/internal/mcpserver"
	_ "github.com/memcompact/memcompact/internal/mdblocks/gmblocks"
	_ "github.com/memcompact/memcompact/internal/summarize/sdk"
)

func init() { cli.LinkMCP(serve) }

// serve is the MCP server on env's standard streams, seeing the world as
// the command line does.
func serve(ctx context.Context, env *cli.Env) error {
	h := &mcpserver.Host{Getenv: env.Getenv, LookupEnv: env.LookupEnv, Home: env.Home(), Today: env.Today, Now: env.Now}
	return mcpserver.Serve(ctx, mcpserver.New(h, cli.Version), env.Stdin, env.Stdout)
}
