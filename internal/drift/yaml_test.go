package drift

// The tests read entry frontmatters beyond entryfile's own YAML with
// yaml.v3, as memcompact-full does.
import _ "github.com/memcompact/memcompact/internal/entryfile/yamlfm"
