package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SecretsInput is the input of the secrets tool.
type SecretsInput struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or directories to scan; default: the current project's store and the user's CLAUDE.md"`
}

func init() {
	tools = append(tools, func(s *mcp.Server, run Runner) {
		mcp.AddTool(s, &mcp.Tool{
			Name: "secrets",
			Description: "Find secrets in memory files (gitleaks' rules, *_KEY/_TOKEN/_SECRET/_PASSWORD/_CREDENTIAL assignments, " +
				"high-entropy tokens), each as file:line, rule and a redacted excerpt; a secret is never returned in full. " +
				"Result: the JSON of 'memcompact secrets --json'. Exit 0 none, 1 secrets found.",
			Annotations: readOnly("Find secrets in memory"),
		}, func(ctx context.Context, _ *mcp.CallToolRequest, in SecretsInput) (*mcp.CallToolResult, any, error) {
			return call(ctx, run, positional([]string{"secrets", "--json"}, in.Paths...), nil)
		})
	})
}
