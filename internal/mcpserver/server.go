// Package mcpserver serves memcompact's instruments to an agent over the
// Model Context Protocol (stdio), as "memcompact mcp".
//
// Every tool is a thin face over a memcompact engine: its typed input
// becomes the engine's Request, the engine's Run answers with the request's
// context, and the tool returns as structuredContent an envelope (type
// Envelope) of the exit code, status, hints and stderr lines the CLI would
// give, with in "result" the very document 'memcompact VERB --json' prints
// for the same input. Claude Code hands the model only the structured
// content, so the verdict and the way forward travel in it. An agent
// therefore sees what a person sees at the command line, and no verdict can
// drift between the two faces. The exit code also rides in the result's
// _meta and in the second text content, with the stderr lines.
//
// A defects verdict is a successful call (the instrument worked); a usage
// error, including malformed tool arguments, is a tool error, so the agent
// corrects its call. A null argument counts as not given. Read-only tools
// carry the read-only annotation. The tools that change memory
// (compact_apply, sweep_apply, undo) require "confirm": true and otherwise
// report what they would do; sweep_plan writes only its plan file (and,
// asked to, proposed ledger rows), journal only the journal.
//
// There is one file per tool. Each declares its input type, whose json and
// jsonschema tags are the tool's documented input schema, and the types of
// the documents it may return, from which its output schema is derived.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
)

// Host is what the tools read of the process they serve in: the
// environment, the home directory and today's date, as the CLI reads them.
type Host struct {
	Getenv func(string) string
	// LookupEnv tells a variable set to "" from one not set, as Claude
	// Code does (see store.Options.LookupEnv); nil counts "" as unset.
	LookupEnv func(string) (string, bool)
	Home      string
	Today     func() time.Time
	Now       func() time.Time // the clock that names snapshots; nil for time.Now
}

func (h *Host) where() store.Where {
	w := store.Here(h.Getenv, h.Home)
	w.LookupEnv = h.LookupEnv
	return w
}

// New returns a server with every tool registered.
func New(h *Host, version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "memcompact", Version: version}, &mcp.ServerOptions{
		Instructions: "memcompact keeps an agent's file-based memory (MEMORY.md and its entry files) small without forgetting. " +
			"Start with doctor or check; every path argument defaults as the CLI's does (the current project's store). " +
			"Each result's structured content carries the exit code, status, hints and messages the CLI would give, and in result the CLI's --json output.",
	})
	for _, add := range tools {
		add(s, h)
	}
	return s
}

// tools is every tool's registration, one per file.
var tools []func(*mcp.Server, *Host)

// reply is one tool call's answer, as the CLI would give it: the --json
// document (nil when the verb prints none), the status, and what the CLI
// says on stderr.
type reply struct {
	doc      any
	status   outcome.Status
	messages []string
}

// failure is the reply of an engine error: the verb's own error document
// and the CLI's error and hint lines.
func failure(doc any, err error) reply {
	r := reply{doc: doc, status: outcome.StatusOf(err)}
	r.messages = append(r.messages, outcome.Line(outcome.KindError, outcome.MessageOf(err)))
	var e *outcome.Error
	if errors.As(err, &e) {
		for _, h := range e.Hints {
			r.messages = append(r.messages, outcome.Line(outcome.KindHint, h))
		}
	}
	return r
}

// genericFailure is the reply of a failure the CLI reports with its one
// error object.
func genericFailure(err error) reply {
	var hints []string
	var e *outcome.Error
	if errors.As(err, &e) {
		hints = e.Hints
	}
	return failure(jsonout.ErrorOf(outcome.StatusOf(err), outcome.MessageOf(err), hints), err)
}

// addTool registers a tool whose handler answers with a reply. Its input
// schema accepts null for every property (null counts as not given), and
// its output schema is the result envelope around the documents outs it
// may return. The arguments are checked here, before they reach the
// handler, so a wrong type is a tool error in plain words.
func addTool[In any](s *mcp.Server, t *mcp.Tool, outs []any, h func(context.Context, In) reply) {
	in := inputSchema[In]()
	t.InputSchema = in
	t.OutputSchema = envelopeSchema(outputSchema(outs...))
	s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var v In
		if err := decodeArgs(in, req.Params.Arguments, &v); err != nil {
			res, _, ferr := finish(t.Name, reply{status: outcome.Usage, messages: []string{outcome.Line(outcome.KindError, t.Name+": "+err.Error())}})
			return res, ferr
		}
		res, _, err := finish(t.Name, h(ctx, v))
		return res, err
	})
}

// Envelope is every tool's structuredContent: the exit code and status
// the CLI would give, its hints and stderr lines, and the document
// 'memcompact VERB --json' prints (absent when the verb prints none).
// Claude Code hands the model only the structured content, so the verdict
// and the way forward travel in it, not only in _meta and the text.
type Envelope struct {
	ExitCode int      `json:"exit_code"`
	Status   string   `json:"status"`
	Hints    []string `json:"hints"`
	Messages []string `json:"messages"`
	Result   any      `json:"result,omitempty"`
}

// finish shapes a reply as the tool's result: the envelope as structured
// content, the document as the CLI prints it, then the status and the
// CLI's stderr lines as text. A usage error is a tool error carrying the
// same result, so the agent sees what was wrong with its arguments.
func finish(tool string, r reply) (*mcp.CallToolResult, any, error) {
	word := r.status.String()
	res := &mcp.CallToolResult{Meta: mcp.Meta{"exit_code": int(r.status), "outcome": word}, IsError: r.status == outcome.Usage}
	var text bytes.Buffer
	var doc any
	if r.doc != nil {
		if raw, ok := r.doc.(json.RawMessage); ok {
			text.Write(raw)
			text.WriteByte('\n')
		} else if err := jsonout.Write(&text, r.doc); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", tool, err)
		}
		// The document as a client decodes it, so what is sent is what
		// the CLI prints whatever Go type built it.
		if err := json.Unmarshal(text.Bytes(), &doc); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", tool, err)
		}
	}
	status := fmt.Sprintf("exit %d (%s)", int(r.status), word)
	if len(r.messages) > 0 {
		status += "\n" + strings.Join(r.messages, "\n")
	}
	env := Envelope{ExitCode: int(r.status), Status: word, Hints: hintsOf(r.messages), Messages: r.messages, Result: doc}
	if env.Messages == nil {
		env.Messages = []string{}
	}
	first := text.String()
	if len(first) > textCopyLimit {
		first = fmt.Sprintf("the document (%d bytes) is in the structured content's result only: a second copy here would pass what clients read in one message", len(first))
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: first}, &mcp.TextContent{Text: status}}
	res.StructuredContent = env
	return res, env, nil
}

// textCopyLimit bounds the document's copy in the text content. Past it the
// copy is left out: the answer carries the document twice otherwise, and
// the official TypeScript SDK closes the connection on a message over
// 10 MiB (an inventory of some 30,000 pointers).
const textCopyLimit = 4 << 20

// hintsOf is the text of the CLI's hint lines among messages.
func hintsOf(messages []string) []string {
	hints := []string{}
	prefix := outcome.Line(outcome.KindHint, "")
	for _, m := range messages {
		if h, ok := strings.CutPrefix(m, prefix); ok {
			hints = append(hints, h)
		}
	}
	return hints
}

// envelopeSchema is the output schema of a tool whose documents doc
// describes: an object at the root, as every MCP client requires.
func envelopeSchema(doc *jsonschema.Schema) *jsonschema.Schema {
	strs := func(d string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: d}
	}
	doc.Description = "the document 'memcompact VERB --json' prints; absent when the verb prints none"
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"exit_code": {Type: "integer", Description: "the exit code the CLI would return: 0 ok, 1 defects, 2 refused, 3 usage"},
			"status":    {Type: "string", Description: "the exit code's word"},
			"hints":     strs("what to do next, as the CLI's hint lines say it"),
			"messages":  strs("memcompact's error, hint and warning lines, as the CLI prints them on stderr"),
			"result":    doc,
		},
		Required: []string{"exit_code", "status", "hints", "messages"},
	}
}

// readOnly and writes are the annotations of the two kinds of tools.
func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}
}

func writes(title string) *mcp.ToolAnnotations {
	f, t := false, true
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: &t, OpenWorldHint: &f}
}

// inputSchema is In's schema with null allowed for every property, so an
// agent that sends "index": null gets the default rather than an error.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: inputTypes()})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: input schema of %T: %v", *new(In), err))
	}
	for _, p := range s.Properties {
		if p.Type != "" {
			p.Types, p.Type = []string{p.Type, "null"}, ""
		}
	}
	return s
}

// inputTypes are the schemas of arguments whose values are a closed set
// (an enum), made anew for each tool: inputSchema edits what it is given.
func inputTypes() map[reflect.Type]*jsonschema.Schema {
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[Fallback](): {Type: "string", Enum: []any{string(FallbackBuiltin)},
			Description: "builtin: when the meaning check refuses your summary, let the built-in summarizer write the block instead of leaving the file as it was"},
	}
}

// outputSchema is the schema of any one of the documents outs (values of
// the documents' Go types): the tool's published output schema.
func outputSchema(outs ...any) *jsonschema.Schema {
	var all []*jsonschema.Schema
	for _, o := range outs {
		s, err := jsonschema.ForType(reflect.TypeOf(o), &jsonschema.ForOptions{TypeSchemas: rawSchemas})
		if err != nil {
			panic(fmt.Sprintf("mcpserver: output schema of %T: %v", o, err))
		}
		all = append(all, s)
	}
	if len(all) == 1 {
		return all[0]
	}
	return &jsonschema.Schema{AnyOf: all}
}

// rawSchemas lets a json.RawMessage field (a value echoed as it was read,
// whatever its JSON type) hold any JSON value, each type spelled out: a
// bare true schema is one that strict clients (the MCP Inspector's
// --strict) refuse as unportable.
var rawSchemas = map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): anyJSON()}

// anyJSON is the schema of any JSON value, one branch per type.
func anyJSON() *jsonschema.Schema {
	s := &jsonschema.Schema{Description: "the value as it was read, whatever its JSON type"}
	for _, t := range []string{"null", "boolean", "number", "string", "array", "object"} {
		s.AnyOf = append(s.AnyOf, &jsonschema.Schema{Type: t})
	}
	return s
}

// usageError is a tool argument the tool rejects itself.
func usageError(msg string) error { return &outcome.Error{Status: outcome.Usage, Msg: msg} }

// outcomeOf is the status an exit code stands for.
func outcomeOf(code int) outcome.Status { return outcome.Status(code) }
