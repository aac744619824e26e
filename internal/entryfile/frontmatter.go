package entryfile

import "gopkg.in/yaml.v3"

// Fields is what an entry's frontmatter block decodes to, exactly as
// yaml.v3 decodes it into the struct of Claude Code's fields
// (frontmatter): Valid is false when yaml.v3 refuses the block (a syntax error,
// a duplicate key, a value of the wrong type), and then the rest is
// empty. Name and Description are as decoded, untrimmed. Unreadable is
// set only by the second reading (secondReading): why Claude Code cannot
// read the block as YAML at all.
type Fields struct {
	Valid       bool
	Name        string
	Description string
	Type        string
	Pinned      bool
	Unreadable  string
}

// frontmatter is the fields of Claude Code's frontmatter that memcompact
// reads, as yaml.v3 decodes them. Its types are part of the answer: a bool
// field takes YAML 1.1's yes and no too, and a value of another type makes
// the block invalid.
type frontmatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Metadata    struct {
		Type   string `yaml:"type"`
		Pinned bool   `yaml:"pinned"`
	} `yaml:"metadata"`
}

// decodeYAML decodes one block with yaml.v3: the reading of every block
// the own decoder is unsure of. A block yaml.v3 refuses is an invalid
// Fields, never an error: an entry's frontmatter is data, not a command.
func decodeYAML(block string) Fields {
	var fm frontmatter
	if yaml.Unmarshal([]byte(block), &fm) != nil {
		return Fields{}
	}
	return Fields{Valid: true, Name: fm.Name, Description: fm.Description, Type: fm.Metadata.Type, Pinned: fm.Metadata.Pinned}
}

// own is decodeOwn; tests turn it off.
var own = decodeOwn

// decodeAll decodes blocks, each with the own decoder when it is sure
// and with yaml.v3 otherwise, and a block that is not YAML a second time
// as Claude Code does (secondReading). The own decoder reads the YAML Claude Code
// writes about fifteen times faster than yaml.v3 does (BenchmarkDecode),
// which a session start on a store never seen before pays for every
// entry; FuzzFrontmatter holds it to yaml.v3's answer.
func decodeAll(blocks []string) []Fields {
	out := make([]Fields, len(blocks))
	for i, b := range blocks {
		f, sure := own(b)
		if !sure {
			f = decodeYAML(b)
		}
		out[i] = secondReading(b, f)
	}
	return out
}

// fieldsOf is what yaml.v3 makes of the subset's document root when it
// decodes it into the frontmatter struct: a mapping's keys name fields
// (name, description, metadata: type, pinned; any other key is skipped,
// its value unread), and any type error or duplicate key makes the whole
// block invalid.
func fieldsOf(root *node) Fields {
	f := Fields{Valid: true}
	if root.kind == nullNode {
		return f
	}
	ok := decodeStruct(root, func(key string, v *node) bool {
		switch key {
		case "name":
			return decodeString(v, &f.Name)
		case "description":
			return decodeString(v, &f.Description)
		case "metadata":
			return decodeMetadata(v, &f)
		}
		return true
	})
	if !ok {
		return Fields{}
	}
	return f
}

// decodeStruct decodes the mapping m into a struct whose field keys set
// decodes; false is a type error. yaml.v3 refuses a mapping with a
// duplicate key (the same text twice) before it decodes any of it.
func decodeStruct(m *node, set func(key string, v *node) bool) bool {
	seen := make(map[string]bool, len(m.keys))
	for _, k := range m.keys {
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	ok := true
	for i, k := range m.keys {
		ok = set(k, m.vals[i]) && ok
	}
	return ok
}

// decodeMetadata decodes the metadata key's value: nothing, or a mapping
// of type and pinned.
func decodeMetadata(v *node, f *Fields) bool {
	switch {
	case isNull(v):
		return true
	case v.kind != mapNode:
		return false
	}
	return decodeStruct(v, func(key string, v *node) bool {
		switch key {
		case "type":
			return decodeString(v, &f.Type)
		case "pinned":
			return decodeBool(v, &f.Pinned)
		}
		return true
	})
}

// isNull reports whether v is YAML's null: no value, or a plain "~",
// "null", "Null" or "NULL". yaml.v3 leaves a field it is decoded into as
// it was.
func isNull(v *node) bool {
	switch v.kind {
	case nullNode:
		return true
	case plainNode:
		switch v.text {
		case "~", "null", "Null", "NULL":
			return true
		}
	}
	return false
}

// decodeString decodes v into a string field: any scalar's text, or
// nothing for null; a mapping or sequence is a type error.
func decodeString(v *node, dst *string) bool {
	switch {
	case isNull(v):
		return true
	case v.kind == plainNode || v.kind == quotedNode:
		*dst = v.text
		return true
	}
	return false
}

// decodeBool decodes v into a bool field as yaml.v3 does: a plain
// true/false (in YAML 1.2's three spellings), or — the YAML 1.1
// compatibility yaml.v3 keeps for a typed bool — y, yes, on, n, no, off
// in their spellings, quoted or not. Anything else is a type error, a
// quoted "true" included.
func decodeBool(v *node, dst *bool) bool {
	if isNull(v) {
		return true
	}
	if v.kind == plainNode {
		switch v.text {
		case "true", "True", "TRUE":
			*dst = true
			return true
		case "false", "False", "FALSE":
			*dst = false
			return true
		}
	}
	if v.kind != plainNode && v.kind != quotedNode {
		return false
	}
	switch v.text {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON":
		*dst = true
		return true
	case "n", "N", "no", "No", "NO", "off", "Off", "OFF":
		*dst = false
		return true
	}
	return false
}
