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
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/memcompact/memcompact/internal/store"
)

// Positions: the files (and streams) a verb reads.
const (
	pIndex     = "index"      // the store's MEMORY.md
	pEntry     = "entry"      // one entry file of the store
	pLedger    = "ledger"     // LEDGER.md
	pSlate     = "slate"      // SLATE.md
	pArchive   = "archive"    // ARCHIVE.md
	pPolicy    = "policy"     // the store's POLICY.md (split policy)
	pReference = "reference"  // a --reference copy
	pCPolicy   = "cpolicy"    // compaction/compaction-policy.md
	pMemFile   = "memfile"    // a budgeted memory file
	pMaster    = "master"     // master-memory.md (init)
	pSnapshot  = "snapshot"   // a snapshot under compaction/snapshots/
	pSettings  = "settings"   // a Claude Code settings.json
	pArtifact  = "artifact"   // the inventory's enumeration artifact
	pDest      = "dest"       // a gate exit destination / a measured file
	pNewEntry  = "new-entry"  // save --entry FILE
	pSummary   = "summary"    // compact --summary FILE
	pStdin     = "stdin"      // standard input (hook JSON, save's entry)
	pRecordArg = "record-arg" // measure --validate's RECORD argument
)

// fixture is one fresh copy of a store, a memory root and their neighbours.
type fixture struct {
	dir      string // the test's temporary directory
	home     string
	cfg      string // the Claude config dir
	proj     string // the project (session cwd) whose store is storeDir
	storeDir string
	root     string // the MemoryCore memory root
	paths    map[string]string
	stdin    []byte // set per verb
	record   string // measure --validate's argument
}

func (f *fixture) p(pos string) string { return f.paths[pos] }

// Good contents. The store is examples/store plus record files of our own.
const (
	robustLedger = `# Ledger

<!-- memory-ledger-begin -->
2026-11-02 | executed | remove-obsolete | reference_old_proxy@2026-03-01 | the proxy was decommissioned | none (accepted recall loss)
2026-11-20 | proposed | promote | feedback_testing@2026-10-21 | belongs in the guide | docs/guide.md (open)
`
	robustSlate = `# Slate

<!-- memory-slate-begin -->
2026-10-21 | feedback_testing@2026-10-21 | critical | no | ordinary
2026-08-03 | reference_release@2026-08-03 | critical | yes | a wrong tag is expensive
2026-11-20 | feedback_testing@2026-10-21 | deferral | 1 | until 2026-12-20 - first deferral
`
	robustArchive = `# Archive

- [Old proxy](reference_old_proxy.md) — the proxy was decommissioned in November
`
	robustGuide = `# Guide
Prefer table tests with named cases, including a CRLF case.
`
	robustCPolicy = `# Compaction Policy

| File | Budget | Newest tier | Notes |
|------|--------|-------------|-------|
| main/main-memory.md | 40 lines | last 2 entries | |
| notes/*.md | 3 lines each | last 1 entry | |
`
	robustMaster = `# Master Memory

- main/main-memory.md holds what I know about the user.
`
	robustSettings = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"]},
  "hooks": {
    "SessionStart": [{"hooks": [{"type": "command", "command": "memcompact hook session-start"}]}],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo guard", "timeout": 5}]},
      {"matcher": "Write|Edit|MultiEdit", "hooks": [{"type": "command", "command": "memcompact hook pre-write", "timeout": 10}]}
    ]
  },
  "env": {"A": "1"}
}
`
	robustNewEntry = "- 2026-12-02: Session 13 notes: retries stay at 3 for job-13.\n"
)

// robustSummary is an agent's summary of the oldest tier: every fact kept.
var robustSummary = func() string {
	var b strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "- 2026-01-%02d: Session %d: retries at %d attempts for job-%d; config/job-%d.yaml.\n", i, i, i, i, i)
	}
	return b.String()
}()

func robustMainMemory(sessions int) string {
	var b strings.Builder
	b.WriteString("# Main Memory\n*What I know about the user and the work.*\n\n## Memories\n\n")
	for i := 1; i <= sessions; i++ {
		fmt.Fprintf(&b, "- 2026-01-%02d: Session %d notes about the billing service.\n  We decided to keep retries at %d attempts for job-%d.\n  The config file is config/job-%d.yaml.\n", i, i, i, i, i)
	}
	return b.String()
}

// template is the fixture's files (relative path → content), read once.
var template = sync.OnceValues(func() (map[string][]byte, error) {
	files := map[string][]byte{}
	ents, err := os.ReadDir(filepath.Join("..", "..", "examples", "store"))
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", "store", e.Name()))
		if err != nil {
			return nil, err
		}
		files["STORE/"+e.Name()] = b
	}
	files["STORE/LEDGER.md"] = []byte(robustLedger)
	files["STORE/SLATE.md"] = []byte(robustSlate)
	files["STORE/ARCHIVE.md"] = []byte(robustArchive)
	files["guide.md"] = []byte(robustGuide)
	files["root/compaction/compaction-policy.md"] = []byte(robustCPolicy)
	files["root/main/main-memory.md"] = []byte(robustMainMemory(12))
	files["root/master-memory.md"] = []byte(robustMaster)
	files["root/compaction/snapshots/main-memory-2026-12-01.md"] = []byte(robustMainMemory(10))
	files["home/.claude/settings.json"] = []byte(robustSettings)
	files["entry.txt"] = []byte(robustNewEntry)
	files["summary.md"] = []byte(robustSummary)
	files["proj/README.md"] = []byte("a project\n")
	return files, nil
})

// generated holds what verbs make of the good fixture, made once: the
// built-in reference copy and the inventory's artifact (whose paths name
// the store it was made in, rewritten for each fixture).
var generated = sync.OnceValues(func() (gen struct {
	reference, artifact []byte
	storeDir            string
}, err error) {
	dir, err := os.MkdirTemp("", "robust-template")
	if err != nil {
		return gen, err
	}
	defer os.RemoveAll(dir)
	f, err := layOut(dir)
	if err != nil {
		return gen, err
	}
	for _, args := range [][]string{{"reference"}, {"inventory", f.p(pIndex), "--as-of", "2026-12-02"}} {
		env, out, errb := f.env(nil)
		if code := Run(env, args); code != ExitClean {
			return gen, fmt.Errorf("setup %v: exit %d\n%s%s", args, code, out, errb)
		}
		if args[0] == "reference" {
			gen.reference = out.Bytes()
		} else {
			gen.artifact = out.Bytes()
		}
	}
	gen.storeDir = f.storeDir
	return gen, nil
})

// newFixture lays out a fresh fixture in a new temporary directory.
func newFixture(t testing.TB) *fixture {
	t.Helper()
	if _, err := template(); err != nil {
		t.Skipf("the example store is not readable from the package directory: %v", err)
	}
	f, err := layOut(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(f.p(pReference), gen.reference, 0o644))
	must(t, os.WriteFile(f.p(pArtifact), bytes.ReplaceAll(gen.artifact, []byte(gen.storeDir), []byte(f.storeDir)), 0o644))
	return f
}

// layOut writes the fixture's files into dir.
func layOut(dir string) (*fixture, error) {
	files, err := template()
	if err != nil {
		return nil, err
	}
	f := &fixture{dir: dir, home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj"), root: filepath.Join(dir, "root")}
	f.cfg = filepath.Join(f.home, ".claude")
	f.storeDir = filepath.Join(f.cfg, "projects", store.ProjectDirName(store.ProjectRoot(f.proj)), "memory")
	for rel, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if after, ok := strings.CutPrefix(rel, "STORE/"); ok {
			p = filepath.Join(f.storeDir, after)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
	}
	f.paths = map[string]string{
		pIndex:     filepath.Join(f.storeDir, "MEMORY.md"),
		pEntry:     filepath.Join(f.storeDir, "feedback_testing.md"),
		pLedger:    filepath.Join(f.storeDir, "LEDGER.md"),
		pSlate:     filepath.Join(f.storeDir, "SLATE.md"),
		pArchive:   filepath.Join(f.storeDir, "ARCHIVE.md"),
		pPolicy:    filepath.Join(f.storeDir, "POLICY.md"),
		pReference: filepath.Join(dir, "ref.md"),
		pCPolicy:   filepath.Join(f.root, "compaction", "compaction-policy.md"),
		pMemFile:   filepath.Join(f.root, "main", "main-memory.md"),
		pMaster:    filepath.Join(f.root, "master-memory.md"),
		pSnapshot:  filepath.Join(f.root, "compaction", "snapshots", "main-memory-2026-12-01.md"),
		pSettings:  filepath.Join(f.cfg, "settings.json"),
		pArtifact:  filepath.Join(dir, "inv.json"),
		pDest:      filepath.Join(dir, "guide.md"),
		pNewEntry:  filepath.Join(dir, "entry.txt"),
		pSummary:   filepath.Join(dir, "summary.md"),
	}
	return f, nil
}

// env is a test Env: HOME and the config dir inside the fixture, today
// fixed, no reference override, nothing read from the real environment.
func (f *fixture) env(stdin []byte) (*Env, *bytes.Buffer, *bytes.Buffer) {
	vars := map[string]string{
		"HOME":                 f.home,
		"CLAUDE_CONFIG_DIR":    f.cfg,
		"MEMCOMPACT_TODAY":     "2026-12-02",
		"MEMCOMPACT_REFERENCE": "",
		"TZ":                   "UTC",
		// The hooks journal the store in the data directory: a write
		// outside the fixture, which must stay byte for byte as it was.
		"MEMCOMPACT_DATA_DIR": filepath.Dir(f.home) + "-journal",
	}
	var out, errb bytes.Buffer
	return &Env{
		Stdin:  bytes.NewReader(stdin),
		Stdout: &out,
		Stderr: &errb,
		Getenv: func(k string) string { return vars[k] },
		Now:    func() time.Time { return time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC) },
	}, &out, &errb
}

// runBare runs a verb exactly as Run does, but with no recovery: a panic
// is caught here only to hand the test its stack.
func runBare(env *Env, args []string) (code int, panicked any, stack string) {
	defer func() {
		if r := recover(); r != nil {
			panicked, stack = r, string(debug.Stack())
		}
	}()
	c, ok := commands[args[0]]
	if !ok {
		return report(env, Usagef("unknown verb %q", args[0])), nil, ""
	}
	return report(env, c.run(env, args[1:])), nil, ""
}

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
	if d := diffState(before, after); len(d) > 0 && (!vc.writes || code >= ExitRefused) {
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
		code:  ExitRefused,
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
		code:  ExitRefused,
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
		code:  ExitUsage,
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
		code: ExitUsage,
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
		code: ExitDefects,
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
		code: ExitRefused,
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
