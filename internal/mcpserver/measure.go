package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MeasureInput is the input of the measure tool.
type MeasureInput struct {
	Path     string `json:"path,omitempty" jsonschema:"the file to measure by the counting rule (UTF-16 code units after CRLF/CR to LF), e.g. ~/.claude/CLAUDE.md"`
	AsOf     string `json:"as_of,omitempty" jsonschema:"the date to stamp the measurement with, yyyy-MM-dd; default today"`
	Validate string `json:"validate,omitempty" jsonschema:"instead of measuring, validate this destination-measurement record: date | value | unit | surface | method"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, run Runner) {
		mcp.AddTool(s, &mcp.Tool{
			Name: "measure",
			Description: "Measure a file by memcompact's counting rule (the size a memory surface has in a model's context), " +
				"or validate a destination-measurement record. Give path or validate. Result: the JSON of 'memcompact measure --json'.",
			Annotations: readOnly("Measure a memory surface"),
		}, func(ctx context.Context, _ *mcp.CallToolRequest, in MeasureInput) (*mcp.CallToolResult, any, error) {
			args := []string{"measure", "--json"}
			args = opt(args, "as-of", in.AsOf)
			if in.Validate != "" {
				return call(ctx, run, append(args, "--validate", in.Validate), nil)
			}
			return call(ctx, run, positional(args, in.Path), nil)
		})
	})
}
