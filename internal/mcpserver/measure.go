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
				"or validate a destination-measurement record. Give path or validate. Result: the JSON of 'memcompact measure --json'.",
			Annotations: readOnly("Measure a memory surface"),
		}, []any{measure.Measurement{}, measure.Verdict{}, measure.UsageJSON{}, jsonout.Error{}}, func(ctx context.Context, in MeasureInput) reply {
			req := measure.Request{Path: in.Path, AsOf: in.AsOf, Validate: in.Validate, Today: h.Today(), Home: h.Home}
			if req.Validate != "" {
				req.Path = "" // validate wins, as the tool has always read it
			}
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
			case outcome.ReasonOf(err) == measure.ReasonNoFile:
				return reply{status: outcome.Usage, messages: []string{"RESULT: usage-error", "reason: " + outcome.MessageOf(err)}}
			}
			return reply{doc: measure.ErrorJSON(err), status: outcome.Usage}
		})
	})
}
