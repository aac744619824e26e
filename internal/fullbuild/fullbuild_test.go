package fullbuild

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/mdblocks"
	"github.com/memcompact/memcompact/internal/summarize"
)

// TestLinksEverything: importing fullbuild makes the MCP server answer
// (an initialize request), the API summarizers reachable and the load cut
// parse with goldmark, none of them handed over.
func TestLinksEverything(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: time.Now}
	if code := cli.Run(env, []string{"mcp"}); code != 0 || !strings.Contains(out.String(), `"serverInfo"`) {
		t.Errorf("mcp: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	c, _ := summarize.Config{Kind: summarize.OpenAI, BaseURL: "http://127.0.0.1:1/v1", Model: "m"}.Resolve(func(string) string { return "" })
	if _, err := summarize.New(c, summarize.Env{Getenv: func(string) string { return "" }}); err != nil {
		t.Errorf("the openai summarizer is not linked: %v", err)
	}
	blocks, err := mdblocks.HTMLBlocks([]byte("x\n\n<!-- a -->\n"))
	if err != nil || len(blocks) != 1 {
		t.Errorf("goldmark's parser: %v, %v", blocks, err)
	}
}
