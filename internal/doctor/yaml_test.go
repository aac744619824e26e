package doctor

// The tests read entry frontmatters beyond ccentry's own YAML with
// yaml.v3, as memcompact-full does.
import _ "github.com/memcompact/memcompact/internal/ccentry/yamlfm"
