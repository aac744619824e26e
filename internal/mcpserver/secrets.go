package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/secrets"
)

// SecretsInput is the input of the secrets tool.
type SecretsInput struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or directories to scan; default: the current project's store and the user's CLAUDE.md"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "secrets",
			Description: "Find secrets in memory files (gitleaks' rules, *_KEY/_TOKEN/_SECRET/_PASSWORD/_CREDENTIAL assignments, " +
				"high-entropy tokens), each as file:line, rule and a redacted excerpt; a secret is never returned in full. " +
				"Result: the JSON of 'memcompact secrets --json'. Exit 0 none, 1 secrets found.",
			Annotations: readOnly("Find secrets in memory"),
		}, []any{secrets.JSONReport{}, secrets.JSONError{}}, func(ctx context.Context, in SecretsInput) reply {
			res, err := secrets.Run(ctx, secrets.Request{Paths: in.Paths, Where: h.where()})
			var warnings []string
			for _, w := range res.Warnings {
				warnings = append(warnings, outcome.Line(outcome.KindWarning, w))
			}
			if err != nil {
				r := failure(secrets.ErrorJSON(err), err)
				r.messages = append(warnings, r.messages...)
				return r
			}
			for _, sk := range res.Skipped {
				warnings = append(warnings, outcome.Line(outcome.KindWarning, "skipped "+sk.Path+": "+sk.Reason))
			}
			for _, e := range res.Errors {
				warnings = append(warnings, outcome.Line(outcome.KindError, e.Path+": "+e.Error))
			}
			return reply{doc: res.JSONReport(), status: res.Status(), messages: warnings}
		})
	})
}
