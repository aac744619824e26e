package entryfile

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/memcompact/memcompact/internal/lazyre"
)

// Claude Code reads a frontmatter block that is not YAML a second time,
// with each plain value that holds a character YAML gives a meaning to
// put in double quotes (a model writes "description: Build tips: run
// make" or "{ shell: true }" as prose, not as YAML), and with the tabs
// that open a line made two spaces each. Only when that reading fails
// too does it take the entry to have no frontmatter, and recall sees no
// name or description for it.
var (
	plainPair   = lazyre.New(`^([a-zA-Z_-]+):\s+(\S.*)$`)
	yamlMeta    = lazyre.New("[{}\\[\\]*&#!|>%@`]|: ")
	leadingTabs = lazyre.New(`(?m)^\t+`)
	yamlLine    = lazyre.New(`^yaml: line \d+: `)
)

// claudeQuoted is block as Claude Code rewrites it for its second
// reading.
func claudeQuoted(block string) string {
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		m := plainPair().FindStringSubmatch(strings.TrimSuffix(l, "\r"))
		if m == nil {
			continue
		}
		key, v := m[1], m[2]
		switch {
		case len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\''):
			continue // quoted already
		case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") && isYAMLList(v):
			continue
		case !yamlMeta().MatchString(v):
			continue
		}
		lines[i] = key + `: "` + strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `"`, `\"`) + `"`
	}
	return leadingTabs().ReplaceAllStringFunc(strings.Join(lines, "\n"), func(tabs string) string {
		return strings.Repeat("  ", len(tabs))
	})
}

// isYAMLList reports whether v reads as a YAML list.
func isYAMLList(v string) bool {
	var list []any
	return yaml.Unmarshal([]byte(v), &list) == nil
}

// syntaxError is yaml.v3's refusal of block as YAML at all (not as the
// frontmatter's types), or nil.
func syntaxError(block string) error {
	var n yaml.Node
	return yaml.Unmarshal([]byte(block), &n)
}

// secondReading is what Claude Code makes of a block yaml.v3 refused as
// YAML (not as the frontmatter's types: such a block it reads once): the
// block as claudeQuoted rewrites it, decoded. When that is not YAML
// either, the entry has no fields, and Unreadable says why, at the line
// of the entry file where the reading first fails (the block starts on
// the file's second line).
func secondReading(block string, f Fields) Fields {
	if f.Valid {
		return f
	}
	err := syntaxError(block)
	if err == nil {
		return f
	}
	q := claudeQuoted(block)
	if q != block {
		if f = decodeYAML(q); f.Valid {
			return f
		}
		if err = syntaxError(q); err == nil {
			return f
		}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		msg = err.Error()[len(m[0]):]
	}
	if n := firstFailing(q); n > 0 {
		msg = fmt.Sprintf("line %d: %s", n+1, msg)
	}
	f.Unreadable = msg
	return f
}

// firstFailing is the number of the block's first line (from 1) at which
// its lines so far stop reading as YAML, or 0. yaml.v3's own line numbers
// name where the construct it was reading began, not where it failed.
func firstFailing(block string) int {
	lines := strings.Split(block, "\n")
	for k := 1; k <= len(lines) && k <= maxProbeLines; k++ {
		if syntaxError(strings.Join(lines[:k], "\n")) != nil {
			return k
		}
	}
	return 0
}

// maxProbeLines bounds firstFailing's reads: a frontmatter is a few lines.
const maxProbeLines = 64
