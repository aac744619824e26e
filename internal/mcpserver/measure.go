package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/measure"
	"github.com/memcompact/memcompact/internal/outcome"
)

// MeasureInput is the input of the measure tool.
type MeasureInput struct {
	Path     string `json:"path,omitempty" jsonschema:"the file to measure by the counting rule (UTF-16 code units after CRLF/CR to LF), e.g. ~/.claude/CLAUDE.md"`
	AsOf     string `json:"as_of,omitempty" jsonschema:"the date to stamp the measurement with, yyyy-MM-dd; default today"`
	Validate string `json:"validate,omitempty" jsonschema:"instead of measuring, validate this destination-measurement record: date | value | unit | surface | method"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "measure",
			Description: "Measure a file by memcompact's counting rule (the size a memory surface has in a model's context), " +
				"or validate a destination-measurement record. Give path or validate, not both. Result: the JSON of 'memcompact measure --json'.",
			Annotations: readOnly("Measure a memory surface"),
		}, []any{measure.Measurement{}, measure.Verdict{}, measure.UsageJSON{}, jsonout.Error{}}, func(ctx context.Context, in MeasureInput) reply {
			req := measure.Request{Path: in.Path, AsOf: in.AsOf, Validate: in.Validate, Today: h.Today(), Home: h.Home}
			res, err := measure.Run(ctx, req)
			switch {
			case err == nil:
				r := reply{doc: res.JSON(), status: res.Status()}
				if res.Verdict != nil {
					for _, n := range res.Verdict.Notes {
						r.messages = append(r.messages, outcome.Line(outcome.KindWarning, n))
					}
				}
				return r
			case outcome.StatusOf(err) != outcome.Usage:
				return genericFailure(err)
			}
			// The CLI prints a missing file's refusal as the reference's
			// text, even with --json; here it is the JSON usage document
			// and the error line, as for every other usage error.
			return reply{doc: measure.ErrorJSON(err), status: outcome.Usage, messages: []string{outcome.Line(outcome.KindError, outcome.MessageOf(err))}}
		})
	})
}
