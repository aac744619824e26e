package check

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/recall"
)

const testRef = `# reference
<!-- policy-canonical-begin -->
**Test policy: the rules this store's index is compacted by.**

Every pointer line names one entry and says what that entry teaches.
Kinds: ` + "`reference_`, `project_`" + `.
<!-- policy-canonical-end -->
<!-- stanza-canonical-begin -->
The policy file named above holds the rules; read it before compacting.
<!-- stanza-canonical-end -->
`

var testToday = time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)

const testHeader = "**Test policy: the rules this store's index is compacted by.**\n\nEvery pointer line names one entry and says what that entry teaches.\nKinds: `reference_`, `project_`.\n"

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t *testing.T, dir string) *Report {
	t.Helper()
	return Evaluate(Options{
		IndexPath: filepath.Join(dir, "MEMORY.md"),
		Reference: Reference{Display: "ref", Text: testRef},
		Today:     testToday,
	})
}

// TestCRLFAndBOM: line ends, a BOM and trailing blanks change neither the
// verdict nor the lines; the BOM is not measured, and CRLF counts as one.
func TestCRLFAndBOM(t *testing.T) {
	lf := testHeader + "\n## E\n\n- [a](reference_a.md) — a hook\n"
	crlf := "\ufeff" + strings.ReplaceAll(strings.ReplaceAll(lf, "\n", "  \r\n"), "## E  ", "## E")
	cr := strings.ReplaceAll(lf, "\n", "\r")
	for name, text := range map[string]string{"lf": lf, "crlf+bom": crlf, "cr": cr} {
		r := run(t, writeFiles(t, map[string]string{"MEMORY.md": text}))
		if r.Result != Clean {
			t.Errorf("%s: %s %+v", name, r.Result, r)
		}
	}
	a := run(t, writeFiles(t, map[string]string{"MEMORY.md": lf}))
	b := run(t, writeFiles(t, map[string]string{"MEMORY.md": cr}))
	if a.Size.Measured != b.Size.Measured || a.Size.Measured != len([]rune(lf)) {
		t.Errorf("measured %d and %d, want %d", a.Size.Measured, b.Size.Measured, len([]rune(lf)))
	}
}

// TestBadInput: no panic and a named verdict for inputs that are not
// memory indexes.
func TestBadInput(t *testing.T) {
	inputs := map[string]string{
		"empty":          "",
		"only headings":  "## a\n## b\n",
		"binary":         "\x00\x01\xff\xfe## E\n- [a](reference_a.md)\x00\n",
		"invalid utf-8":  testHeader + "\n## E\n- [a\xff](reference_\xc3.md) \xe2\x80 hook\n",
		"huge line":      "## E\n- [a](reference_a.md) " + strings.Repeat("word [x] ", 200000) + "\n",
		"brackets only":  "## E\n- " + strings.Repeat("[", 50000) + strings.Repeat("](", 50000) + "\n",
		"nul in heading": "##\x00\n- [a](reference_a.md)\n",
	}
	for name, text := range inputs {
		r := run(t, writeFiles(t, map[string]string{"MEMORY.md": text}))
		if r.Result == "" || r.ExitCode() < 0 {
			t.Errorf("%s: no result", name)
		}
	}
	dir := writeFiles(t, map[string]string{"MEMORY.md/x": "x"})
	if r := run(t, dir); r.Result != UsageError || r.Reason != "index not found at '"+filepath.Join(dir, "MEMORY.md")+"'" {
		t.Errorf("directory index: %+v", r)
	}
	if r := Evaluate(Options{IndexPath: "", Today: testToday}); r.Result != UsageError {
		t.Errorf("empty path: %+v", r)
	}
}

// TestSymlinks: a symlinked index and policy file are followed.
func TestSymlinks(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"real/MEMORY.md": "<!-- memory-policy-stanza-begin: POLICY.md -->\nThe policy file named above holds the rules; read it before compacting.\n<!-- memory-policy-stanza-end -->\n\n## E\n- [a](reference_a.md) — a hook\n",
		"real/p.md":      "<!-- policy-canonical-begin -->\n" + testHeader + "<!-- policy-canonical-end -->\n",
	})
	if err := os.Symlink("p.md", filepath.Join(dir, "real", "POLICY.md")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink("real/MEMORY.md", filepath.Join(dir, "MEMORY.md")); err != nil {
		t.Skip(err)
	}
	// The index's directory is the link's: the policy file is looked for
	// beside the path as given, so the half-migrated state is reported.
	if r := run(t, dir); r.Shape != ShapeSplitIncomplete {
		t.Errorf("via link: %s %s", r.Result, r.Shape)
	}
	if r := run(t, filepath.Join(dir, "real")); r.Result != Clean {
		t.Errorf("direct: %s %+v", r.Result, r.Refusal)
	}
}

// TestJSONShape decodes the JSON of every path and compares the key order
// and types with the contract.
func TestJSONShape(t *testing.T) {
	keysOf := func(r *Report) []string {
		var b bytes.Buffer
		if err := WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
		var keys []string
		depth := 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' || v == '[' {
					depth++
				} else {
					depth--
				}
			case string:
				if depth == 1 && dec.More() {
					keys = append(keys, v)
					if _, err := dec.Token(); err != nil { // skip the value if scalar
						t.Fatal(err)
					}
				}
			}
		}
		return keys
	}
	usage := &Report{Result: UsageError, Index: "x", Reason: "index not found at 'x'"}
	if got := keysOf(usage); !reflect.DeepEqual(got, []string{"result", "index", "reason"}) {
		t.Errorf("usage keys %q", got)
	}
	refused := refuse("x", RefNoHeading, "index structure not recognized", "one")
	var m map[string]any
	var b bytes.Buffer
	WriteJSON(&b, refused)
	json.Unmarshal(b.Bytes(), &m)
	if d, ok := m["detail"].([]any); !ok || len(d) != 1 {
		t.Errorf("one detail must be an array: %s", b.String())
	}
	if _, ok := m["size"]; ok {
		t.Error("a refusal has no size")
	}

	r := run(t, writeFiles(t, map[string]string{"MEMORY.md": "# t\n\n## E\n- [Alpha](reference_alpha.md)\n- [x](x.md), [c](project_c.md) — the two share this one long note\n"}))
	b.Reset()
	WriteJSON(&b, r)
	m = nil
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"result": "defects", "store_shape": "legacy", "policy_file": "", "policy_status": "in-index header - absent",
		"policy_explanation": []any{}, "kind_prefixes": []any{"project_", "reference_"}, "kind_prefix_source": "reference copy",
		"entries_matching_kind": 2.0, "entries_not_matching_kind": 1.0, "subjects_total": 3.0,
		"policy_present": false, "policy_complete": false, "policy_divergence": "", "header_present": false,
		"header_complete": false, "header_before_first_pointer": true, "header_divergence": "",
		"subjects_without_hook": 2.0, "unattributed_shared_notes": 1.0,
		"without_hook": []any{
			map[string]any{"line": 4.0, "target": "reference_alpha.md", "link_text": "Alpha", "reason": recall.ReasonBareTitle},
			map[string]any{"line": 5.0, "target": "x.md", "link_text": "x", "reason": recall.ReasonBareTitle},
		},
		"shared_notes": []any{map[string]any{"line": 5.0, "position": "trailing", "subjects": []any{"x.md", "project_c.md"}, "note": "the two share this one long note"}},
		"size": map[string]any{
			"state": "not-evaluated", "cause": "budget inputs are read only from a split store's policy file, and this store has none",
			"unit": "characters", "measured": float64(r.Size.Measured), "budget": nil, "fraction": nil, "observation_value": nil,
			"observation_date": nil, "observation_method": nil, "staleness_bound_days": nil, "observation_age_days": nil,
			"stale": false, "ignored_keys": []any{},
		},
	}
	for k, v := range want {
		if !reflect.DeepEqual(m[k], v) {
			t.Errorf("%s = %#v, want %#v", k, m[k], v)
		}
	}
	wantKeys := []string{"result", "index", "reference", "excluded_from_comparison", "store_shape", "policy_file", "policy_status",
		"policy_explanation", "kind_prefixes", "kind_prefix_source", "entries_matching_kind", "entries_not_matching_kind",
		"subjects_total", "policy_present", "policy_complete", "policy_divergence", "header_present", "header_complete",
		"header_before_first_pointer", "header_divergence", "size", "subjects_without_hook", "unattributed_shared_notes",
		"without_hook", "shared_notes"}
	var order []string
	dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		order = append(order, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	if !reflect.DeepEqual(order, wantKeys) {
		t.Errorf("key order\n got %q\nwant %q", order, wantKeys)
	}
	if len(m) != len(wantKeys) {
		t.Errorf("%d keys, want %d", len(m), len(wantKeys))
	}
}

// TestBOMBeforeDeclaration: a BOM is dropped before the declaration test,
// so a split store saved with one is still split.
func TestBOMBeforeDeclaration(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"MEMORY.md": "\ufeff<!-- memory-policy-stanza-begin: POLICY.md -->\r\nThe policy file named above holds the rules; read it before compacting.\r\n<!-- memory-policy-stanza-end -->\r\n\r\n## E\r\n- [a](reference_a.md) — a hook\r\n",
		"POLICY.md": "\ufeff<!-- policy-canonical-begin -->\r\n" + strings.ReplaceAll(testHeader, "\n", "\r\n") + "<!-- policy-canonical-end -->\r\n",
	})
	r := run(t, dir)
	if r.Result != Clean || r.Shape != ShapeSplit {
		t.Errorf("%s %s %q", r.Result, r.Shape, r.PolicyDivergence)
	}
}
