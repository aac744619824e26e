package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateShapes = flag.Bool("update-json-shapes", false, "rewrite testdata/json-shapes.txt from the verbs' output")

// TestJSONShapes decodes every --json output of the verb table (robust_test.go)
// and pins its shape: each field's path and JSON type, and the exit code.
// People and agents parse these objects, so a renamed, dropped, retyped or
// added field must be a deliberate change to testdata/json-shapes.txt (run
// with -update-json-shapes after checking the diff), never an accident.
func TestJSONShapes(t *testing.T) {
	var got strings.Builder
	for _, vc := range append(slices.Clone(verbCases), jsonErrorCases...) {
		f := newFixture(t)
		args := vc.args(f)
		alwaysJSON := args[0] == "inventory" || args[0] == "hook"
		if !alwaysJSON && !slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(strings.TrimLeft(a, "-"), "json") }) {
			continue
		}
		if vc.stdin != nil {
			f.stdin = vc.stdin(f)
		}
		f.record = "x-destination_observation: 2026-08-08 | 2548 | characters | ~/.claude/CLAUDE.md | wc -m"
		t.Run(vc.name, func(t *testing.T) {
			if vc.cwd {
				t.Chdir(f.proj)
			}
			args = vc.args(f)
			env, out, errb := f.env(f.stdin)
			code := Run(env, args)
			var v any
			if err := json.Unmarshal(out.Bytes(), &v); err != nil {
				t.Errorf("%s: exit %d, stdout is not one JSON value: %v\nstdout: %s\nstderr: %s", vc.name, code, err, clip(out.String()), clip(errb.String()))
				return
			}
			paths := map[string]bool{}
			jsonPaths("", v, paths)
			keys := make([]string, 0, len(paths))
			for k := range paths {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			fmt.Fprintf(&got, "%s exit %d\n", vc.name, code)
			for _, k := range keys {
				fmt.Fprintf(&got, "  %s\n", k)
			}
		})
	}
	golden := filepath.Join("testdata", "json-shapes.txt")
	if *updateShapes {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		var d []string
		for _, l := range wl {
			if !slices.Contains(gl, l) {
				d = append(d, "- "+l)
			}
		}
		for _, l := range gl {
			if !slices.Contains(wl, l) {
				d = append(d, "+ "+l)
			}
		}
		t.Errorf("JSON shapes changed (- expected, + got); if deliberate, rerun with -update-json-shapes:\n%s", strings.Join(d, "\n"))
	}
}

// jsonErrorCases are the failure paths whose JSON is parsed too: the
// error objects of usage errors and refusals.
var jsonErrorCases = []verbCase{
	{name: "check-json-usage", args: func(f *fixture) []string { return []string{"check", "--json", filepath.Join(f.dir, "nosuch.md")} }},
	{name: "load-json-usage", args: func(f *fixture) []string { return []string{"load", "--json", filepath.Join(f.dir, "nosuch.md")} }},
	{name: "drift-json-usage", args: func(f *fixture) []string { return []string{"drift", "--json", "a", "b"} }},
	{name: "doctor-json-usage", args: func(f *fixture) []string { return []string{"doctor", "--json", filepath.Join(f.dir, "nosuch.md")} }},
	{name: "secrets-json-usage", args: func(f *fixture) []string { return []string{"secrets", "--json", filepath.Join(f.dir, "nosuch.md")} }},
	{name: "measure-json-usage", args: func(f *fixture) []string { return []string{"measure", "--json", "--as-of", "2026-13-01", f.p(pDest)} }},
	{name: "gate-json-usage", args: func(f *fixture) []string { return []string{"gate", "--json"} }},
	{name: "budgets-json-usage", args: func(f *fixture) []string { return []string{"budgets", "--json", "a", "b"} }},
	{name: "compact-json-refused", args: func(f *fixture) []string {
		return []string{"compact", "--json", filepath.Join(f.root, "main", "none.md"), "--root", f.root}
	}},
	{name: "restore-json-refused", args: func(f *fixture) []string {
		return []string{"restore", "--json", "nosuch-2026-12-01.md", "--root", f.root}
	}},
	{name: "hooks-json-usage", args: func(f *fixture) []string { return []string{"hooks", "--json"} }},
}

// jsonPaths records the path and type of every value in v: "a.b[].c:string".
// Array elements share one path, so the shape does not depend on how many
// there are.
func jsonPaths(prefix string, v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		out[prefix+":object"] = true
		for k, e := range x {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			jsonPaths(p, e, out)
		}
	case []any:
		out[prefix+":array"] = true
		for _, e := range x {
			jsonPaths(prefix+"[]", e, out)
		}
	case string:
		out[prefix+":string"] = true
	case float64:
		out[prefix+":number"] = true
	case bool:
		out[prefix+":bool"] = true
	case nil:
		out[prefix+":null"] = true
	}
}
