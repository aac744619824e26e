package cli

// The robustness battery's bad inputs and the verbs it runs (see
// robust_test.go).

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"
)

// badKind is one kind of bad input. A content kind rewrites the good bytes;
// a file kind replaces the file itself (and does not apply to streams).
type badKind struct {
	name    string
	content func(good []byte) []byte
	file    func(t testing.TB, f *fixture, path string, good []byte)
	heavy   bool // megabytes: run on each verb's main spelling, in its first two positions
}

// hangAfter is how long a case may run before it counts as hung (a FIFO
// that blocks an open, a loop). It is a guard, not a speed test: speed is
// measured by benchmarks, and a loaded CI machine must not fail here.
const hangAfter = 2 * time.Minute

var (
	hugeLine = sync.OnceValue(func() []byte {
		// A 10 MB single line, no terminator, with a link in it.
		var b bytes.Buffer
		b.WriteString("- [huge](huge.md) — ")
		for b.Len() < 10<<20 {
			b.WriteString("a hook that never ends ")
		}
		return b.Bytes()
	})
	manyLines = sync.OnceValue(func() []byte {
		var b bytes.Buffer
		b.WriteString("# Memory\n\n## Many\n")
		for i := 0; b.Len() < 1<<20; i++ {
			fmt.Fprintf(&b, "- [subject %d](subject_%d.md) — lesson number %d is kept\n", i, i, i)
		}
		return b.Bytes()
	})
	binaryBytes = sync.OnceValue(func() []byte {
		r := rand.New(rand.NewSource(1))
		b := make([]byte, 8192)
		r.Read(b)
		b[0], b[100], b[4000] = 0, 0, 0
		return b
	})
)

func insertAt(good []byte, frac int, ins string) []byte {
	i := len(good) * frac / 4
	// keep multi-byte runes whole: move to a line start
	if j := bytes.LastIndexByte(good[:i], '\n'); j >= 0 {
		i = j + 1
	}
	return slices.Concat(good[:i], []byte(ins), good[i:])
}

var badKinds = []badKind{
	{name: "crlf", content: func(g []byte) []byte { return bytes.ReplaceAll(g, []byte("\n"), []byte("\r\n")) }},
	{name: "lone-cr", content: func(g []byte) []byte { return bytes.ReplaceAll(g, []byte("\n"), []byte("\r")) }},
	{name: "bom", content: func(g []byte) []byte { return slices.Concat([]byte("\xef\xbb\xbf"), g) }},
	{name: "bom-crlf", content: func(g []byte) []byte {
		return slices.Concat([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(g, []byte("\n"), []byte("\r\n")))
	}},
	{name: "utf16le", content: func(g []byte) []byte {
		u := utf16.Encode([]rune(string(g)))
		b := []byte{0xff, 0xfe}
		for _, c := range u {
			b = append(b, byte(c), byte(c>>8))
		}
		return b
	}},
	{name: "invalid-utf8", content: func(g []byte) []byte { return insertAt(g, 2, "bad \xff\xfe\xc3( bytes \xed\xa0\x80 here\n") }},
	{name: "nul", content: func(g []byte) []byte { return insertAt(g, 2, "nul \x00 byte\x00\n") }},
	{name: "binary", content: func([]byte) []byte { return binaryBytes() }},
	{name: "empty", content: func([]byte) []byte { return nil }},
	{name: "blank", content: func([]byte) []byte { return []byte(" \n\n\t\r\n") }},
	{name: "headings-only", content: func([]byte) []byte { return []byte("# Memory\n\n## How to work\n\n## Where things are\n### Deeper\n") }},
	{name: "huge-line", heavy: true, content: func([]byte) []byte { return hugeLine() }},
	{name: "many-lines", heavy: true, content: func([]byte) []byte { return manyLines() }},
	{name: "missing", file: func(t testing.TB, f *fixture, p string, _ []byte) { must(t, os.Remove(p)) }},
	{name: "directory", file: func(t testing.TB, f *fixture, p string, good []byte) {
		must(t, os.Remove(p))
		must(t, os.Mkdir(p, 0o755))
		must(t, os.WriteFile(filepath.Join(p, "inside.md"), good, 0o644))
	}},
	{name: "symlink", file: func(t testing.TB, f *fixture, p string, good []byte) {
		target := filepath.Join(f.dir, "elsewhere", filepath.Base(p))
		must(t, os.MkdirAll(filepath.Dir(target), 0o755))
		must(t, os.WriteFile(target, good, 0o644))
		must(t, os.Remove(p))
		must(t, os.Symlink(target, p))
	}},
	{name: "dangling-symlink", file: func(t testing.TB, f *fixture, p string, _ []byte) {
		must(t, os.Remove(p))
		must(t, os.Symlink(filepath.Join(f.dir, "nowhere", "gone.md"), p))
	}},
	{name: "symlink-loop", file: func(t testing.TB, f *fixture, p string, _ []byte) {
		must(t, os.Remove(p))
		must(t, os.Symlink(p+".loop", p))
		must(t, os.Symlink(p, p+".loop"))
	}},
	{name: "unreadable", file: func(t testing.TB, f *fixture, p string, _ []byte) {
		// Tests run as root, so chmod 000 blocks nothing. /proc/self/mem
		// opens as a regular empty file and fails every read at offset 0
		// (EIO): a file that stats fine and cannot be read.
		if _, err := os.Stat("/proc/self/mem"); err != nil {
			t.Skip("no /proc/self/mem to stand in for an unreadable file")
		}
		must(t, os.Remove(p))
		must(t, os.Symlink("/proc/self/mem", p))
	}},
	{name: "fifo", file: func(t testing.TB, f *fixture, p string, _ []byte) {
		must(t, os.Remove(p))
		must(t, syscall.Mkfifo(p, 0o644))
	}},
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// verbCase is one invocation of a verb.
type verbCase struct {
	name   string
	args   func(f *fixture) []string
	setup  func(t testing.TB, f *fixture) // lays out what this case needs, before the bad input
	stdin  func(f *fixture) []byte
	reads  []string // the positions it reads
	codes  []int    // the exit codes it documents
	writes bool     // it may write (only when it does not refuse)
	// cwd: the verb reads the working directory (a default store or
	// root), so the case runs in the fixture's project, not in parallel.
	cwd bool
	// variant: another spelling of a verb already in the table (--json,
	// aliases); the heavy kinds (10 MB line, 1 MB of lines) are left out.
	variant bool
}

func preWriteInput(f *fixture, tool string) []byte {
	index, _ := os.ReadFile(f.p(pIndex))
	var in string
	switch tool {
	case "Write":
		// drops a pointer with no exit on the record: denied
		var kept []string
		for _, l := range strings.SplitAfter(string(index), "\n") {
			if !strings.Contains(l, "reference_release.md") {
				kept = append(kept, l)
			}
		}
		in = fmt.Sprintf(`{"file_path":%q,"content":%q}`, f.p(pIndex), strings.Join(kept, ""))
	case "Edit":
		// adds a subject with no recall hook: denied
		in = fmt.Sprintf(`{"file_path":%q,"old_string":"## Settled","new_string":"## Settled\n- [feedback new](feedback_new.md)"}`, f.p(pIndex))
	}
	return fmt.Appendf(nil, `{"session_id":"s1","transcript_path":"","cwd":%q,"hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s}`, f.proj, tool, in)
}

var (
	storeAll = []string{pIndex, pEntry, pLedger, pSlate, pArchive, pPolicy}
	codes0   = []int{0}
	codesAll = []int{0, 1, 2, 3}
)

var verbCases = []verbCase{
	{name: "check", args: func(f *fixture) []string { return []string{"check", "--reference", f.p(pReference), f.p(pIndex)} },
		reads: []string{pIndex, pPolicy, pReference}, codes: codesAll},
	{name: "check-json", variant: true, args: func(f *fixture) []string {
		return []string{"check", "--json", "-PolicyReferencePath", f.p(pReference), "-IndexPath", f.p(pIndex)}
	},
		reads: []string{pIndex, pPolicy, pReference}, codes: codesAll},
	{name: "check-default", variant: true, cwd: true, args: func(f *fixture) []string { return []string{"check", f.p(pIndex)} },
		reads: []string{pIndex, pPolicy}, codes: codesAll},
	{name: "load", args: func(f *fixture) []string { return []string{"load", f.p(pIndex)} },
		reads: []string{pIndex}, codes: []int{0, 1, 2, 3}},
	{name: "load-json", variant: true, args: func(f *fixture) []string { return []string{"load", "--json", f.p(pIndex)} },
		reads: []string{pIndex}, codes: []int{0, 1, 2, 3}},
	{name: "load-default", variant: true, cwd: true, args: func(f *fixture) []string { return []string{"load"} },
		reads: []string{pIndex}, codes: []int{0, 1, 2, 3}},
	{name: "drift-default", variant: true, cwd: true, args: func(f *fixture) []string { return []string{"drift", "--json"} },
		reads: []string{pIndex, pEntry, pLedger, pPolicy}, codes: codesAll},
	{name: "doctor-default", variant: true, cwd: true, args: func(f *fixture) []string { return []string{"doctor"} },
		reads: storeAll, codes: codesAll},
	{name: "drift", args: func(f *fixture) []string { return []string{"drift", f.storeDir} },
		reads: []string{pIndex, pEntry, pLedger, pPolicy}, codes: codesAll},
	{name: "secrets", args: func(f *fixture) []string { return []string{"secrets", f.storeDir, f.p(pDest)} },
		reads: append(slices.Clone(storeAll), pDest), codes: codesAll},
	{name: "secrets-default", variant: true, cwd: true, args: func(f *fixture) []string { return []string{"secrets", "--json"} },
		reads: storeAll, codes: codesAll},
	{name: "doctor", args: func(f *fixture) []string { return []string{"doctor", "--reference", f.p(pReference), f.p(pIndex)} },
		reads: append(slices.Clone(storeAll), pReference), codes: codesAll},
	{name: "doctor-json", variant: true, args: func(f *fixture) []string { return []string{"doctor", "--json", f.p(pIndex)} },
		reads: storeAll, codes: codesAll},
	{name: "doctor-all", args: func(f *fixture) []string { return []string{"doctor", "--all"} },
		reads: storeAll, codes: codesAll},
	{name: "measure", args: func(f *fixture) []string { return []string{"measure", f.p(pDest)} },
		reads: []string{pDest}, codes: []int{0, 2, 3}},
	{name: "measure-json", variant: true, args: func(f *fixture) []string {
		return []string{"measure", "-Path", f.p(pIndex), "-Json", "-AsOf", "2026-12-01"}
	},
		reads: []string{pIndex}, codes: []int{0, 2, 3}},
	{name: "measure-validate", args: func(f *fixture) []string { return []string{"measure", "--validate", f.record} },
		reads: []string{pRecordArg}, codes: []int{0, 1, 2, 3}},
	{name: "measure-validate-json", variant: true, args: func(f *fixture) []string { return []string{"measure", "-Validate", f.record, "-Json"} },
		reads: []string{pRecordArg}, codes: []int{0, 1, 2, 3}},
	{name: "inventory", args: func(f *fixture) []string { return []string{"inventory", f.p(pIndex), "--as-of", "2026-12-02"} },
		reads: storeAll, codes: []int{0, 2, 3}},
	{name: "inventory-out", variant: true, args: func(f *fixture) []string {
		return []string{"inventory", f.p(pIndex), "--out", filepath.Join(f.dir, "out", "inv2.json")}
	}, reads: storeAll, codes: []int{0, 2, 3}, writes: true},
	{name: "gate-deferral", args: func(f *fixture) []string {
		return []string{"gate", "deferral", f.p(pIndex), "--identity", "feedback_testing@2026-10-21"}
	}, reads: []string{pIndex, pLedger, pSlate}, codes: codesAll},
	{name: "gate-exit", args: func(f *fixture) []string {
		return []string{"gate", "-Gate", "exit", "-IndexPath", f.p(pIndex), "-Identity", "reference_release@2026-08-03", "-Disposition", "promote",
			"-DestinationPath", f.p(pDest), "-LessonProbe", "table tests", "-DestinationLanded", "-Json"}
	}, reads: []string{pIndex, pLedger, pSlate, pDest}, codes: codesAll},
	{name: "gate-admission", args: func(f *fixture) []string {
		return []string{"gate", "admission", f.p(pIndex), "--identity", "feedback_testing@2026-10-21", "--admission-rule-landed-on", "2026-06-01"}
	}, reads: []string{pIndex, pLedger, pSlate}, codes: codesAll},
	{name: "gate-reconcile", args: func(f *fixture) []string {
		return []string{"gate", "reconcile", f.p(pIndex), "--entry", f.p(pEntry), "--json"}
	}, reads: []string{pIndex, pEntry, pLedger, pSlate}, codes: codesAll},
	{name: "partition", args: func(f *fixture) []string {
		return []string{"partition", "--inventory", f.p(pArtifact), f.p(pIndex), "--strict", "--as-of", "2026-12-02"}
	}, reads: []string{pArtifact, pIndex, pEntry, pLedger, pSlate, pArchive}, codes: codesAll},
	{name: "partition-json", variant: true, args: func(f *fixture) []string {
		return []string{"partition", "-InventoryPath", f.p(pArtifact), "-IndexPath", f.p(pIndex), "-Json"}
	}, reads: []string{pArtifact, pIndex, pLedger, pSlate, pArchive}, codes: codesAll},
	{name: "init", args: func(f *fixture) []string { return []string{"init", f.root} },
		reads: []string{pCPolicy, pMaster, pMemFile}, codes: []int{0, 2, 3}, writes: true},
	{name: "budgets", args: func(f *fixture) []string { return []string{"budgets", "--root", f.root} },
		reads: []string{pCPolicy, pMemFile}, codes: []int{0, 1, 2, 3}},
	{name: "budgets-json", variant: true, args: func(f *fixture) []string { return []string{"budgets", f.root, "--json"} },
		reads: []string{pCPolicy, pMemFile}, codes: []int{0, 1, 2, 3}},
	{name: "set-budget", args: func(f *fixture) []string {
		return []string{"set-budget", f.p(pMemFile), "30 lines", "--root", f.root}
	}, reads: []string{pCPolicy}, codes: []int{0, 2, 3}, writes: true},
	{name: "set-budget-new-row", variant: true, args: func(f *fixture) []string {
		return []string{"set-budget", filepath.Join(f.root, "main", "other.md"), "400", "chars", "--newest", "3", "--root", f.root, "--json"}
	}, reads: []string{pCPolicy}, codes: []int{0, 2, 3}, writes: true},
	{name: "compact", args: func(f *fixture) []string { return []string{"compact", f.p(pMemFile), "--yes", "--root", f.root} },
		reads: []string{pCPolicy, pMemFile, pSnapshot}, codes: codesAll, writes: true},
	{name: "compact-all-json", variant: true, args: func(f *fixture) []string { return []string{"compact", "--all", "--yes", "--root", f.root, "--json"} },
		reads: []string{pCPolicy, pMemFile}, codes: codesAll, writes: true},
	{name: "compact-dry-run", variant: true, args: func(f *fixture) []string { return []string{"compact", "--dry-run", "--root", f.root} },
		reads: []string{pCPolicy, pMemFile, pSnapshot}, codes: codesAll},
	{name: "compact-plan", variant: true, args: func(f *fixture) []string { return []string{"compact", f.p(pMemFile), "--plan", "--root", f.root} },
		reads: []string{pCPolicy, pMemFile}, codes: codesAll},
	{name: "compact-summary", variant: true, args: func(f *fixture) []string {
		return []string{"compact", f.p(pMemFile), "--summary", f.p(pSummary), "--yes", "--root", f.root}
	}, reads: []string{pCPolicy, pMemFile, pSummary}, codes: codesAll, writes: true},
	{name: "compact-entry-heading", variant: true, args: func(f *fixture) []string {
		return []string{"compact", f.p(pMemFile), "--entry-heading", "^- 2026", "--yes", "--root", f.root}
	}, reads: []string{pCPolicy, pMemFile}, codes: codesAll, writes: true},
	{name: "save-entry", args: func(f *fixture) []string {
		return []string{"save", f.p(pMemFile), "--entry", f.p(pNewEntry), "--yes", "--root", f.root}
	}, reads: []string{pCPolicy, pMemFile, pNewEntry}, codes: codesAll, writes: true},
	{name: "save-stdin", variant: true, args: func(f *fixture) []string { return []string{"save", f.p(pMemFile), "--yes", "--root", f.root, "--json"} },
		stdin: func(*fixture) []byte { return []byte(robustNewEntry) },
		reads: []string{pCPolicy, pMemFile, pStdin}, codes: codesAll, writes: true},
	{name: "restore", args: func(f *fixture) []string { return []string{"restore", f.p(pSnapshot), "--yes", "--root", f.root} },
		reads: []string{pCPolicy, pMemFile, pSnapshot}, codes: []int{0, 2, 3}, writes: true},
	{name: "restore-by-name", variant: true, args: func(f *fixture) []string {
		return []string{"restore", "main-memory-2026-12-01.md", "--to", f.p(pMemFile), "--yes", "--root", f.root, "--json"}
	}, reads: []string{pCPolicy, pMemFile, pSnapshot}, codes: []int{0, 2, 3}, writes: true},
	{name: "snapshots", args: func(f *fixture) []string { return []string{"snapshots", "--root", f.root} },
		reads: []string{pCPolicy, pSnapshot}, codes: []int{0, 2, 3}},
	{name: "snapshots-file-json", variant: true, args: func(f *fixture) []string {
		return []string{"snapshots", f.p(pMemFile), "--root", f.root, "--json"}
	}, reads: []string{pCPolicy, pSnapshot}, codes: []int{0, 2, 3}},
	{name: "reference", args: func(*fixture) []string { return []string{"reference", "--policy"} }, codes: codes0},
	{name: "hook-pre-write", args: func(*fixture) []string { return []string{"hook", "pre-write"} },
		stdin: func(f *fixture) []byte { return preWriteInput(f, "Write") },
		reads: []string{pStdin, pIndex, pLedger, pPolicy, pCPolicy}, codes: codes0},
	{name: "hook-pre-write-edit", variant: true, args: func(*fixture) []string { return []string{"hook", "pre-write"} },
		stdin: func(f *fixture) []byte { return preWriteInput(f, "Edit") },
		reads: []string{pStdin, pIndex, pLedger, pPolicy}, codes: codes0},
	{name: "hook-session-start", args: func(*fixture) []string { return []string{"hook", "session-start"} },
		stdin: func(f *fixture) []byte {
			return fmt.Appendf(nil, `{"session_id":"s1","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, f.proj)
		},
		reads: []string{pStdin, pIndex, pEntry, pLedger, pPolicy}, codes: codes0},
	{name: "hooks-install", args: func(f *fixture) []string { return []string{"hooks", "install", "--settings", f.p(pSettings)} },
		reads: []string{pSettings}, codes: []int{0, 2, 3}, writes: true},
	{name: "hooks-install-user-json", variant: true, args: func(f *fixture) []string {
		return []string{"hooks", "install", "--user", "--json", "--bin", "/o/memcompact"}
	},
		reads: []string{pSettings}, codes: []int{0, 2, 3}, writes: true},
	{name: "hooks-uninstall", variant: true, args: func(f *fixture) []string { return []string{"hooks", "uninstall", "--settings", f.p(pSettings)} },
		reads: []string{pSettings}, codes: []int{0, 2, 3}, writes: true},
}
