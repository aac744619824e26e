package summarize_test

// The tests reach the APIs through the official SDKs, as memcompact-full
// does: importing package sdk links them (summarize.LinkAPI).
import _ "github.com/memcompact/memcompact/internal/summarize/sdk"
