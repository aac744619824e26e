package cli

// The robustness battery: every verb, run in-process, against every kind of
// bad input in every file position it reads. The standard it enforces is the
// founders': bad input gets a clear error and nothing is lost. For each case
// it asserts that
//
//   - nothing panics (Run's recovery, and the hooks' own, print "internal
//     error"; that string must never appear, and a case that shows it is
//     re-run without any recovery so the failure carries the stack),
//   - the exit code is one the verb documents,
//   - a non-zero exit says why, on stdout or stderr,
//   - a read-only verb leaves every file byte-identical, and a writing verb
//     that refuses (exit 2 or 3) writes nothing either.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fsState is every file under a directory: kind, target or content digest.
func fsState(t testing.TB, dir string) map[string]string {
	t.Helper()
	st := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			st[rel] = "symlink " + target
		case d.IsDir():
			st[rel] = "dir"
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			st[rel] = "file " + hex.EncodeToString(sum[:8])
		default:
			st[rel] = "special " + d.Type().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func diffState(before, after map[string]string) []string {
	var d []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			d = append(d, "removed "+k)
		} else if w != v {
			d = append(d, "changed "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			d = append(d, "added "+k)
		}
	}
	slices.Sort(d)
	return d
}

// applyBad puts kind at pos in f (or into its stdin or record argument).
// It reports false when the kind does not apply to the position.
func applyBad(t testing.TB, f *fixture, kind badKind, pos string) bool {
	switch pos {
	case pStdin:
		if kind.content == nil {
			return false
		}
		f.stdin = kind.content(f.stdin)
		return true
	case pRecordArg:
		if kind.content == nil {
			return false
		}
		f.record = string(kind.content([]byte(f.record)))
		return true
	}
	p := f.p(pos)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if kind.content != nil {
		must(t, os.WriteFile(p, kind.content(good), 0o644))
	} else {
		kind.file(t, f, p, good)
	}
	return true
}

// robustRun runs one case through Run and checks the standard. It returns
// the exit code.
func robustRun(t *testing.T, vc verbCase, kind *badKind, pos string) {
	t.Helper()
	f := newFixture(t)
	if vc.setup != nil {
		vc.setup(t, f)
	}
	if vc.stdin != nil {
		f.stdin = vc.stdin(f)
	}
	f.record = "x-destination_observation: 2026-08-08 | 2548 | characters | ~/.claude/CLAUDE.md | wc -m"
	if kind != nil && !applyBad(t, f, *kind, pos) {
		t.Skip("does not apply")
	}
	if vc.cwd {
		t.Chdir(f.proj)
	} else {
		t.Parallel()
	}
	args := vc.args(f)
	before := fsState(t, f.dir)
	env, out, errb := f.env(f.stdin)

	type result struct{ code int }
	done := make(chan result, 1)
	go func() { done <- result{Run(env, args)} }()
	var code int
	select {
	case r := <-done:
		code = r.code
	case <-time.After(hangAfter):
		// A FIFO blocks an open for reading until a writer comes: let one
		// come, so the verb ends and the failure is reported.
		if kind != nil && kind.name == "fifo" {
			if w, err := os.OpenFile(f.p(pos), os.O_WRONLY, 0); err == nil {
				w.Close()
			}
		}
		<-done
		t.Fatalf("%v ran past %v: it hung", args, hangAfter)
	}
	stdout, stderr := out.String(), errb.String()
	t.Logf("exit %d\nstdout: %.300s\nstderr: %.300s", code, stdout, stderr)
	if strings.Contains(stderr, "internal error") || strings.Contains(stdout, "internal error") {
		// Re-run on a fresh fixture without any recovery, for the stack.
		g := newFixture(t)
		if vc.setup != nil {
			vc.setup(t, g)
		}
		if vc.stdin != nil {
			g.stdin = vc.stdin(g)
		}
		g.record = f.record
		if kind != nil {
			applyBad(t, g, *kind, pos)
		}
		if vc.cwd {
			t.Chdir(g.proj)
		}
		genv, _, _ := g.env(g.stdin)
		_, p, stack := runBare(genv, vc.args(g))
		t.Fatalf("%v: internal error\nstderr: %s\npanic: %v\n%s", args, clip(stderr), p, stack)
	}
	if !slices.Contains(vc.codes, code) {
		t.Errorf("%v: exit %d, want one of %v\nstdout: %s\nstderr: %s", args, code, vc.codes, clip(stdout), clip(stderr))
	}
	if code != 0 && strings.TrimSpace(stdout+stderr) == "" {
		t.Errorf("%v: exit %d with no word of why", args, code)
	}
	// The verbs that promise one JSON object on every path, refusals
	// included, keep that promise whatever the input. (The sweep verbs
	// print usage errors as text, as the reference scripts do, and the
	// others put refusals on stderr only.)
	if jsonAlways[args[0]] && slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "--json") || strings.EqualFold(a, "-json") }) {
		var v any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Errorf("%v: exit %d, and stdout is not one JSON value: %v\nstdout: %s\nstderr: %s", args, code, err, clip(stdout), clip(stderr))
		}
	}
	if kind != nil && kind.name == "symlink" && pos != pStdin && pos != pRecordArg {
		// A write goes through the link (dotfiles are often links into a
		// repository); replacing the link with a file would cut it loose.
		if fi, err := os.Lstat(f.p(pos)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%v: %s is no longer a symlink (%v)", args, f.p(pos), err)
		}
	}
	after := fsState(t, f.dir)
	d := diffState(before, after)
	if strings.HasPrefix(vc.name, "save") && code == exitRefused {
		// A refused save keeps the entry in compaction/unsaved/ (a new
		// file there, nothing else), so that it is not lost.
		d = slices.DeleteFunc(d, func(c string) bool {
			return strings.HasPrefix(c, "added ") && strings.Contains(c, "compaction/unsaved")
		})
	}
	if len(d) > 0 && (!vc.writes || code >= exitRefused) {
		t.Errorf("%v: exit %d, and files changed: %v\nstdout: %s\nstderr: %s", args, code, d, clip(stdout), clip(stderr))
	}
}

var jsonAlways = map[string]bool{
	"check": true, "load": true,
	"init": true, "budgets": true, "set-budget": true, "compact": true, "save": true, "restore": true, "snapshots": true,
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "…"
	}
	return s
}

// TestRobustBaseline runs every verb on the good fixture: the battery's
// cases mean something only if the verb works when nothing is wrong.
func TestRobustBaseline(t *testing.T) {
	for _, vc := range verbCases {
		t.Run(vc.name, func(t *testing.T) { robustRun(t, vc, nil, "") })
	}
}

// TestRobustBadInput is the battery: verbs × positions × kinds.
func TestRobustBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("the robustness battery is long; run without -short")
	}
	for _, vc := range verbCases {
		for j, pos := range vc.reads {
			for i := range badKinds {
				kind := &badKinds[i]
				if kind.heavy && (vc.variant || j >= 2) {
					continue // megabytes cost time: main spellings, first two positions
				}
				t.Run(vc.name+"/"+pos+"/"+kind.name, func(t *testing.T) { robustRun(t, vc, kind, pos) })
			}
		}
	}
}

// TestRobustRegressions pins the exact outcome of cases the battery found
// wrong, beyond the battery's general checks.
func TestRobustRegressions(t *testing.T) {
	type check func(t *testing.T, f *fixture, code int, stdout, stderr string)
	cases := []struct {
		name  string
		setup func(t *testing.T, f *fixture)
		args  func(f *fixture) []string
		stdin []byte
		code  int
		check check
	}{{
		// init appended its note to the policy, then failed on
		// master-memory.md: a refusal that had already written.
		name:  "init-unreadable-master-writes-nothing",
		setup: func(t *testing.T, f *fixture) { applyBad(t, f, kindNamed("directory"), pMaster) },
		args:  func(f *fixture) []string { return []string{"init", f.root} },
		code:  exitRefused,
		check: func(t *testing.T, f *fixture, _ int, _, stderr string) {
			if b, _ := os.ReadFile(f.p(pCPolicy)); string(b) != robustCPolicy {
				t.Errorf("the policy changed:\n%s", b)
			}
			if !strings.Contains(stderr, "master-memory.md") {
				t.Errorf("stderr does not name master-memory.md: %s", stderr)
			}
		},
	}, {
		// A read error named its path twice: "read P: read P: input/output error".
		name:  "load-unreadable-names-path-once",
		setup: func(t *testing.T, f *fixture) { applyBad(t, f, kindNamed("unreadable"), pIndex) },
		args:  func(f *fixture) []string { return []string{"load", f.p(pIndex)} },
		code:  exitRefused,
		check: func(t *testing.T, f *fixture, _ int, _, stderr string) {
			if n := strings.Count(stderr, f.p(pIndex)); n != 1 {
				t.Errorf("the path appears %d times, want 1: %s", n, stderr)
			}
		},
	}, {
		// save appended binary bytes (U+FFFD and NULs) to a memory file.
		name: "save-binary-entry-refused",
		args: func(f *fixture) []string {
			return []string{"save", filepath.Join(f.root, "main", "notes.md"), "--root", f.root}
		},
		stdin: []byte("- 2026-12-02: \x00\x01\xff\xfe binary\n"),
		code:  exitUsage,
		check: func(t *testing.T, f *fixture, _ int, _, stderr string) {
			if !strings.Contains(stderr, "not text") {
				t.Errorf("stderr does not say the entry is not text: %s", stderr)
			}
			if _, err := os.Lstat(filepath.Join(f.root, "main", "notes.md")); err == nil {
				t.Error("notes.md was created")
			}
		},
	}, {
		name:  "save-invalid-utf8-entry-file-refused",
		setup: func(t *testing.T, f *fixture) { applyBad(t, f, kindNamed("invalid-utf8"), pNewEntry) },
		args: func(f *fixture) []string {
			return []string{"save", f.p(pMemFile), "--entry", f.p(pNewEntry), "--yes", "--root", f.root}
		},
		code: exitUsage,
		check: func(t *testing.T, f *fixture, _ int, _, stderr string) {
			if !strings.Contains(stderr, "not UTF-8 text") {
				t.Errorf("stderr: %s", stderr)
			}
		},
	}, {
		// An entry larger than the whole budget was planned against a
		// negative budget ("34/-29 lines"); now it is saved, over budget.
		name: "save-entry-larger-than-budget",
		setup: func(t *testing.T, f *fixture) {
			must(t, os.WriteFile(f.p(pNewEntry), []byte(strings.Repeat("- 2026-12-02: a line of a long entry\n", 60)), 0o644))
		},
		args: func(f *fixture) []string {
			return []string{"save", f.p(pMemFile), "--entry", f.p(pNewEntry), "--yes", "--root", f.root}
		},
		code: exitDefects,
		check: func(t *testing.T, f *fixture, _ int, stdout, stderr string) {
			// The entry is saved anyway (a save never drops it), and the
			// file reported over budget.
			b, _ := os.ReadFile(f.p(pMemFile))
			if !strings.HasSuffix(string(b), "- 2026-12-02: a line of a long entry\n") || !strings.Contains(stdout, "over budget") {
				t.Errorf("the entry was not saved over budget:\n%s%s", stdout, stderr)
			}
			if strings.Contains(stdout+stderr, "/-") {
				t.Errorf("a negative budget is shown: %s%s", stdout, stderr)
			}
		},
	}, {
		// The rewrite re-reads the file just before replacing it: an edit
		// made meanwhile (here by the summarizer) survives, and the entry
		// is not saved.
		name: "save-refuses-file-changed-underneath",
		args: func(f *fixture) []string {
			script := filepath.Join(f.dir, "edit-meanwhile.sh")
			must(t, os.WriteFile(script, []byte("awk '/^- /{if(l)print l; l=$0; next} /^  /{sub(/^ +/,\"\"); l=l\" \"$0} END{if(l)print l}'\n[ -e \"$0.done\" ] || { echo '- edited by another session' >> "+f.p(pMemFile)+"; touch \"$0.done\"; }\n"+
				"printf -- '- 2026-01-01 to 2026-01-05: retries 1 attempts 2 attempts 3 attempts 4 attempts 5 attempts, job-1 job-2 job-3 job-4 job-5 config/job-1.yaml config/job-2.yaml config/job-3.yaml config/job-4.yaml config/job-5.yaml 2026-01-01 2026-01-02 2026-01-03 2026-01-04 2026-01-05\\n'\n"), 0o755))
			return []string{"save", f.p(pMemFile), "--entry", f.p(pNewEntry), "--yes", "--root", f.root, "--summarizer", "sh " + script}
		},
		code: exitRefused,
		check: func(t *testing.T, f *fixture, _ int, stdout, stderr string) {
			b, _ := os.ReadFile(f.p(pMemFile))
			if string(b) != robustMainMemory(12)+"- edited by another session\n" {
				t.Errorf("the concurrent edit was not kept as made:\n%s", b)
			}
			if !strings.Contains(stdout+stderr, "changed on disk") {
				t.Errorf("no word of the change:\n%s%s", stdout, stderr)
			}
			// The entry is not lost: it waits in compaction/unsaved/, and
			// the message says where.
			got, _ := filepath.Glob(filepath.Join(f.root, "compaction", "unsaved", "*.md"))
			if len(got) != 1 || !strings.Contains(stdout, "compaction/unsaved/") {
				t.Errorf("the entry was not kept in compaction/unsaved/ (%v):\n%s", got, stdout)
			} else if b, _ := os.ReadFile(got[0]); len(b) == 0 {
				t.Errorf("the unsaved entry is empty")
			}
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.setup != nil {
				c.setup(t, f)
			}
			env, out, errb := f.env(c.stdin)
			code := Run(env, c.args(f))
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errb)
			}
			c.check(t, f, code, out.String(), errb.String())
		})
	}
}

func kindNamed(name string) badKind {
	for _, k := range badKinds {
		if k.name == name {
			return k
		}
	}
	panic("no bad kind " + name)
}
