package cli

// The robustness battery's fixture: a memory root, a store and the files
// every verb reads, laid out once and copied per case (see robust_test.go).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

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
		if code := Run(env, args); code != exitClean {
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
		return report(env, usagef("unknown verb %q", args[0])), nil, ""
	}
	return report(env, c.run(env, args[1:])), nil, ""
}
