// Package yamlfm is entryfile's fallback decoder on gopkg.in/yaml.v3, for
// the frontmatters entryfile's own decoder is unsure of. Importing it
// registers it (entryfile.Use); memcompact-full imports it (package
// fullbuild), and so does every test that reads such a frontmatter.
// memcompact and memcompact-hook do not: yaml.v3's package initialisation
// alone would cost every run 0.1–0.3 ms, for the few stores
// that write YAML beyond the own decoder's; they ask memcompact-full
// (entryfile.Companion), and so get the very same answer from the very same
// decoder.
package yamlfm

import (
	"gopkg.in/yaml.v3"

	"github.com/memcompact/memcompact/internal/entryfile"
)

func init() { entryfile.Use(Decode) }

// frontmatter is the fields of Claude Code's frontmatter that memcompact
// reads. Its types are part of the answer: a bool field takes YAML 1.1's
// yes and no too, and a value of another type makes the block invalid.
type frontmatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Metadata    struct {
		Type   string `yaml:"type"`
		Pinned bool   `yaml:"pinned"`
	} `yaml:"metadata"`
}

// Decode decodes each block with yaml.v3. It never fails: a block yaml.v3
// refuses is an invalid Fields.
func Decode(blocks []string) ([]entryfile.Fields, error) {
	out := make([]entryfile.Fields, len(blocks))
	for i, b := range blocks {
		out[i] = decodeOne(b)
	}
	return out, nil
}

// decodeOne decodes one block.
func decodeOne(block string) entryfile.Fields {
	var fm frontmatter
	if yaml.Unmarshal([]byte(block), &fm) != nil {
		return entryfile.Fields{}
	}
	return entryfile.Fields{Valid: true, Name: fm.Name, Description: fm.Description, Type: fm.Metadata.Type, Pinned: fm.Metadata.Pinned}
}
