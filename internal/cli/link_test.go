package cli_test

// The tests run the verbs with everything linked, as memcompact-full does
// (package fullbuild): the MCP server, the SDK summarizers, goldmark.
import _ "github.com/memcompact/memcompact/internal/fullbuild"
