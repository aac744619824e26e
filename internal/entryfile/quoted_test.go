package entryfile

import (
	"strings"
	"testing"
)

// TestClaudeQuoted: the second reading quotes a plain value holding a
// character YAML reads as syntax, as Claude Code does, and nothing else.
func TestClaudeQuoted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"description: Build tips: run make", `description: "Build tips: run make"`},
		{"description: Spawn with { shell: true }", `description: "Spawn with { shell: true }"`},
		{"description: `data-tauri-drag-region` only", "description: \"`data-tauri-drag-region` only\""},
		{`description: a \ b "c": d`, `description: "a \\ b \"c\": d"`},
		{"description: 50% off # note", `description: "50% off # note"`},
		{`description: "already: quoted"`, `description: "already: quoted"`},
		{`description: 'single: quoted'`, `description: 'single: quoted'`},
		{"tags: [a, b]", "tags: [a, b]"},                                       // a list stays a list
		{"tags: [a, b: c]", "tags: [a, b: c]"},                                 // a flow list with a pair is still a list
		{"tags: [a, {b]", `tags: "[a, {b]"`},                                   // not a list: quoted
		{`description: "start" means pull`, `description: "start" means pull`}, // nothing special: left as it is
		{"name: plain words", "name: plain words"},
		{"  nested: a: b", "  nested: a: b"}, // only a key at the margin
		{"\tname: a\n\t\ttype: b", "  name: a\n    type: b"},
		{"name: a\r\ndescription: b: c\r", "name: a\r\ndescription: \"b: c\""},
	} {
		if got := claudeQuoted(c.in); got != c.want {
			t.Errorf("claudeQuoted(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestSecondReading: an entry whose frontmatter is not YAML is read as
// Claude Code reads it the second time; one that fails again has no
// fields and says why, at its line of the file. The blocks are those of
// real stores' entries.
func TestSecondReading(t *testing.T) {
	for _, c := range []struct {
		name, text  string
		description string // "" when the frontmatter cannot be read
		unreadable  string
	}{
		{"colon in prose", "---\nname: wifi\ndescription: Three source types: User provided / Derived\ntype: project\n---\nbody\n",
			"Three source types: User provided / Derived", ""},
		{"backtick", "---\nname: tauri\ndescription: `data-tauri-drag-region` only applies to the element under the cursor\n---\n",
			"`data-tauri-drag-region` only applies to the element under the cursor", ""},
		{"braces", "---\nname: node\ndescription: Check the docs before { shell: true }\ntype: feedback\n---\n",
			"Check the docs before { shell: true }", ""},
		{"a quoted word, then more", "---\nname: start\ndescription: \"start\" command means git pull\ntype: feedback\n---\n",
			"", "line 3: did not find expected key"},
		{"a quoted name, then more", "---\nname: \"통과\" 한마디 = 커밋\ndescription: 자동 실행\n---\n",
			"", "line 2: did not find expected key"},
		{"valid YAML, wrong type", "---\nname: a\ndescription: b\nmetadata:\n  pinned: maybe\n---\n", "", ""},
		{"no frontmatter", "just a body\n", "", ""},
	} {
		e := Parse("x.md", c.text)
		if e.Description != c.description || e.Frontmatter != (c.description != "") {
			t.Errorf("%s: description %q (frontmatter %v), want %q", c.name, e.Description, e.Frontmatter, c.description)
		}
		if e.Unreadable != c.unreadable {
			t.Errorf("%s: unreadable %q, want %q", c.name, e.Unreadable, c.unreadable)
		}
	}
}

// FuzzSecondReading: for any block, the second reading keeps the block's
// lines (a reason's line number names the file's line), and deciding it
// never panics; a block that reads as YAML is never called unreadable.
func FuzzSecondReading(f *testing.F) {
	for _, s := range []string{"name: a\ndescription: b", "description: a: b\n\tname: {x", "name: [a, {b]", "name: \"a\" b\r\n",
		"metadata:\n  type: x\n\tpinned: true", "- a\n- b: c", "description: `x` # y", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, block string) {
		q := claudeQuoted(block)
		if strings.Count(q, "\n") != strings.Count(block, "\n") {
			t.Fatalf("claudeQuoted changed the number of lines: %q → %q", block, q)
		}
		why := secondReading(block, decodeYAML(block)).Unreadable
		if syntaxError(block) == nil && why != "" {
			t.Fatalf("a block yaml.v3 reads is called unreadable: %q (%s)", block, why)
		}
		if syntaxError(block) != nil && syntaxError(q) != nil && why == "" {
			t.Fatalf("a block no reading takes as YAML is not called unreadable: %q", block)
		}
	})
}
