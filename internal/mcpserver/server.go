// Package mcpserver serves memcompact's instruments to an agent over the
// Model Context Protocol (stdio), as "memcompact mcp".
//
// Every tool is a thin adapter over a memcompact verb: its typed input
// becomes the verb's flags, the verb runs in-process with --json, and the
// tool returns the verb's JSON unchanged. An agent therefore sees exactly
// what a person sees at the command line — the same engine, the same
// result objects, the same exit codes — and no verdict can drift between
// the two front ends. The structured result of every tool is
//
//	{
//	  "exit_code": 1,            // the verb's exit code: 0 clean, 1 defects, 2 refused, 3 usage error
//	  "outcome": "defects",      // the same, as a word
//	  "result": {...},           // the verb's --json output, as the CLI prints it
//	  "messages": ["..."]        // what the verb said on stderr (warnings, errors, hints)
//	}
//
// A defects verdict is a successful call (the instrument worked); a usage
// error, including malformed tool arguments, is a tool error, so the agent
// corrects its call. Read-only tools carry the read-only annotation. The
// one tool that writes (compact_apply) requires "confirm": true and
// otherwise reports what it would do.
//
// There is one file per tool. Each declares its input type, whose json and
// jsonschema tags are the tool's documented input schema.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Outcome is what one in-process run of a verb produced.
type Outcome struct {
	Stdout []byte
	Stderr []byte
	Code   int
}

// Runner runs memcompact with args (no program name) in-process, with
// stdin as its standard input. The CLI passes one in, so this package does
// not import the CLI (which imports it for the mcp verb).
type Runner func(ctx context.Context, args []string, stdin []byte) Outcome

// Result is the structured content of every tool call.
type Result struct {
	ExitCode int             `json:"exit_code"`
	Outcome  string          `json:"outcome"`
	Result   json.RawMessage `json:"result,omitempty"`
	Text     string          `json:"text,omitempty"` // the verb's stdout, when it is not JSON
	Messages []string        `json:"messages,omitempty"`
}

// Outcome words for exit codes.
var outcomes = []string{"clean", "defects", "refused", "usage-error"}

// New returns a server with every tool registered.
func New(run Runner, version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "memcompact", Version: version}, &mcp.ServerOptions{
		Instructions: "memcompact keeps an agent's file-based memory (MEMORY.md and its entry files) small without forgetting. " +
			"Start with doctor or check; every path argument defaults as the CLI's does (the current project's store). " +
			"Results are the CLI's --json output under \"result\", with the exit code beside it.",
	})
	for _, add := range tools {
		add(s, run)
	}
	return s
}

// tools is every tool's registration, one per file.
var tools []func(*mcp.Server, Runner)

// readOnly and writes are the annotations of the two kinds of tools.
func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}
}

func writes(title string) *mcp.ToolAnnotations {
	f, t := false, true
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: &t, OpenWorldHint: &f}
}

// call runs a verb and shapes its outcome as the tool's result. A usage
// error (exit 3) is returned as a tool error carrying the same result, so
// the agent sees what was wrong with its arguments.
func call(ctx context.Context, run Runner, args []string, stdin []byte) (*mcp.CallToolResult, any, error) {
	o := run(ctx, args, stdin)
	r := Result{ExitCode: o.Code, Outcome: "unknown"}
	if o.Code >= 0 && o.Code < len(outcomes) {
		r.Outcome = outcomes[o.Code]
	}
	out := bytes.TrimSpace(o.Stdout)
	if len(out) > 0 {
		if json.Valid(out) {
			r.Result = json.RawMessage(out)
		} else {
			r.Text = string(out)
		}
	}
	for _, l := range strings.Split(strings.TrimRight(string(o.Stderr), "\n"), "\n") {
		if l != "" {
			r.Messages = append(r.Messages, l)
		}
	}
	if o.Code == 3 {
		res := &mcp.CallToolResult{IsError: true}
		b, _ := json.Marshal(r)
		res.Content = []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("memcompact %s: usage error: %s", args[0], string(b))}}
		return res, nil, nil
	}
	// The text content is the verb's stdout byte for byte (the structured
	// copy is re-encoded by the SDK, which does not keep key order), then
	// the exit code and anything said on stderr.
	status := fmt.Sprintf("exit %d (%s)", r.ExitCode, r.Outcome)
	if len(r.Messages) > 0 {
		status += "\n" + strings.Join(r.Messages, "\n")
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(o.Stdout)}, &mcp.TextContent{Text: status}}}
	return res, r, nil
}

// opt appends "--flag value" when value is set.
func opt(args []string, flag, value string) []string {
	if strings.TrimSpace(value) == "" {
		return args
	}
	// "--flag=value" keeps a value that starts with '-' from being read
	// as a flag.
	return append(args, "--"+flag+"="+value)
}

// optBool appends "--flag" when b is true.
func optBool(args []string, flag string, b bool) []string {
	if !b {
		return args
	}
	return append(args, "--"+flag)
}

// tempFile writes data to a new temporary file named by pattern (as
// os.CreateTemp takes it) and returns its name, for a tool whose verb reads
// a file the agent gave as a value. The caller removes it.
func tempFile(pattern string, data []byte) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", werr
	}
	return f.Name(), nil
}

// positional appends "--" and the values, so a path starting with '-' is
// never read as a flag.
func positional(args []string, values ...string) []string {
	var vs []string
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return args
	}
	return append(append(args, "--"), vs...)
}
