package entryfile

import (
	"errors"
	"fmt"

	"github.com/memcompact/memcompact/internal/companion"
)

// Fields is what an entry's frontmatter block decodes to, exactly as
// yaml.v3 decodes it into the struct of Claude Code's fields (package
// yamlfm): Valid is false when yaml.v3 refuses the block (a syntax error,
// a duplicate key, a value of the wrong type), and then the rest is
// empty. Name and Description are as decoded, untrimmed.
type Fields struct {
	Valid       bool
	Name        string
	Description string
	Type        string
	Pinned      bool
}

// Decoder decodes the frontmatter blocks the own decoder is unsure of:
// all those of one read in one call (an exec, for Companion), one Fields
// each, in order.
type Decoder func(blocks []string) ([]Fields, error)

// fallback is the registered Decoder.
var fallback companion.Linked[Decoder]

// Use makes d the decoder of the blocks the own decoder is unsure of.
// memcompact-full registers yaml.v3's (package yamlfm, which registers
// itself when imported); memcompact and memcompact-hook register
// Companion, which asks memcompact-full.
func Use(d Decoder) { fallback.Set(d) }

// ErrNoDecoder is the error of a read that met a frontmatter the own
// decoder is unsure of in a program that registered no fallback: a broken
// build, never a guess.
var ErrNoDecoder = errors.New("entryfile: no YAML decoder is linked (import internal/entryfile/yamlfm, or Use Companion)")

// decodeFallback decodes blocks with the registered fallback.
func decodeFallback(blocks []string) ([]Fields, error) {
	d := fallback.Get()
	if d == nil {
		return nil, ErrNoDecoder
	}
	out, err := d(blocks)
	if err == nil && len(out) != len(blocks) {
		err = fmt.Errorf("entryfile: the YAML decoder answered %d blocks for %d", len(out), len(blocks))
	}
	return out, err
}

// own is decodeOwn; tests turn it off.
var own = decodeOwn

// decodeAll decodes blocks, the frontmatters of the files named: each
// with the own decoder when it is sure, the others with the fallback, in
// one call. The error names the files the fallback was asked about.
func decodeAll(names, blocks []string) ([]Fields, error) {
	out := make([]Fields, len(blocks))
	var unsure []int
	for i, b := range blocks {
		f, sure := own(b)
		if !sure {
			unsure = append(unsure, i)
		}
		out[i] = f
	}
	if len(unsure) == 0 {
		return out, nil
	}
	ask := make([]string, len(unsure))
	for j, i := range unsure {
		ask[j] = blocks[i]
	}
	got, err := decodeFallback(ask)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", someOf(names, unsure), err)
	}
	for j, i := range unsure {
		out[i] = got[j]
	}
	return out, nil
}

// someOf names the files at the indexes picked: the first, and how many
// more.
func someOf(names []string, picked []int) string {
	s := names[picked[0]]
	switch n := len(picked) - 1; n {
	case 0:
		return s
	case 1:
		return s + " (and 1 other entry)"
	default:
		return fmt.Sprintf("%s (and %d other entries)", s, n)
	}
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
