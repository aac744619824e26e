package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/cli"
	"github.com/memcompact/memcompact/internal/store"
	"github.com/memcompact/memcompact/internal/testshared"
)

// The benchmarks below are the rows of the speed table in BENCHMARKS.md,
// each measured twice: BenchmarkProcess execs the built binary, as Claude
// Code runs a hook (start-up, every package's init, the verb, exit), and
// BenchmarkInProcess calls cli.Run in a warm process, which shows the
// verb's own work. They run on copies of two real stores from the shared
// corpus and skip when it is absent. They never assert a time (speed lives
// in BENCHMARKS.md); they do fail when a run exits with a status its row
// does not expect or reports an internal error, so they cannot rot.
//
//	go test ./cmd/memcompact -run '^$' -bench . -benchtime 20x

// benchStore is the store the session, doctor, secrets and pre-write rows
// use: the largest real store in the corpus by file count (31 files,
// 142 KB), an index well past Claude Code's load cut.
const benchStore = "Warrenpoobear__claude-memory"

// checkStore holds the index the check row reads.
const checkStore = "1000ssam__claude-config"

// benchRow is one command of the table.
type benchRow struct {
	name  string
	args  []string
	stdin []byte
	codes []int // the exit statuses the row accepts
	// cold runs each iteration with empty data and cache directories (no
	// journal, no cached results), as the first session on a machine;
	// otherwise the row runs after one untimed run filled them.
	cold bool
}

// benchFixture is a temporary home with the two stores laid out where
// Claude Code keeps them, and the rows to run there.
type benchFixture struct {
	dir  string
	mem  string // the session store (benchStore), where Claude Code keeps it
	ssam string // the check store (checkStore)
	env  map[string]string
	rows []benchRow
	made time.Time // when the stores were copied
	// colds counts the cold runs, each given directories no run used
	// before (a row's twin, run by the other executable, included).
	colds atomic.Int64
}

// settle waits, once, until the fixture's files were written more than
// two seconds ago, as a store is between two sessions: the caches trust a
// file on its stat alone only once it has settled (package filecache), so
// an unchanged row measured straight after the copy would measure the
// fall-back instead.
func (f *benchFixture) settle() {
	time.Sleep(time.Until(f.made.Add(2100 * time.Millisecond)))
}

func newBenchFixture(b *testing.B) *benchFixture {
	b.Helper()
	corpus := testshared.RealStores(b)
	dir := b.TempDir()
	proj := filepath.Join(dir, "proj")
	cfg := filepath.Join(dir, "cfg")
	mem := filepath.Join(cfg, "projects", store.ProjectDirName(store.ProjectRoot(proj)), "memory")
	ssam := filepath.Join(dir, "ssam")
	outside := filepath.Join(dir, "outside", "notes.txt")
	copyDir(b, filepath.Join(corpus, benchStore), mem)
	copyDir(b, filepath.Join(corpus, checkStore), ssam)
	// A generated store of 1,000 pointers, each with its entry file, for
	// the session-start row on a large store (issue 12).
	proj1000 := filepath.Join(dir, "proj1000")
	writeGenStore(b, filepath.Join(cfg, "projects", store.ProjectDirName(store.ProjectRoot(proj1000)), "memory"), 1000)
	for _, d := range []string{proj, proj1000, filepath.Join(dir, "home"), filepath.Dir(outside)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(outside, []byte("not memory\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	index := filepath.Join(mem, "MEMORY.md")
	raw, err := os.ReadFile(index)
	if err != nil {
		b.Fatal(err)
	}
	// The Edit appends a few words to the index's first pointer line, the
	// commonest memory write: the guard judges the whole index around it.
	var pointer string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, "- [") {
			pointer = strings.TrimRight(l, "\r")
			break
		}
	}
	if pointer == "" {
		b.Fatalf("%s has no pointer line to edit", index)
	}
	hook := func(v map[string]any) []byte {
		v["session_id"] = "bench"
		if _, ok := v["cwd"]; !ok {
			v["cwd"] = proj
		}
		out, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	f := &benchFixture{
		dir: dir, mem: mem, ssam: ssam, made: time.Now(),
		env: map[string]string{
			"HOME": filepath.Join(dir, "home"), "CLAUDE_CONFIG_DIR": cfg,
			"MEMCOMPACT_TODAY": "2026-12-02", "TZ": "UTC", "PATH": os.Getenv("PATH"),
		},
	}
	sessionStart := hook(map[string]any{"hook_event_name": "SessionStart", "source": "startup"})
	f.rows = []benchRow{
		{name: "version", args: []string{"version"}, codes: []int{0}},
		{name: "check-1000ssam", args: []string{"check", filepath.Join(ssam, "MEMORY.md")}, codes: []int{0, 1}},
		{name: "session-start-cold", args: []string{"hook", "session-start"}, stdin: sessionStart, codes: []int{0}, cold: true},
		{name: "session-start-unchanged", args: []string{"hook", "session-start"}, stdin: sessionStart, codes: []int{0}},
		{name: "session-start-unchanged-1000", args: []string{"hook", "session-start"}, codes: []int{0},
			stdin: hook(map[string]any{"hook_event_name": "SessionStart", "source": "startup", "cwd": proj1000})},
		{name: "doctor-cold", args: []string{"doctor", index}, codes: []int{0, 1}, cold: true},
		{name: "doctor", args: []string{"doctor", index}, codes: []int{0, 1}},
		{name: "secrets-cold", args: []string{"secrets", mem}, codes: []int{0, 1}, cold: true},
		{name: "secrets", args: []string{"secrets", mem}, codes: []int{0, 1}},
		{name: "pre-write-outside", args: []string{"hook", "pre-write"}, codes: []int{0}, stdin: hook(map[string]any{
			"hook_event_name": "PreToolUse", "tool_name": "Write",
			"tool_input": map[string]any{"file_path": outside, "content": "still not memory\n"}})},
		{name: "pre-write-index-edit", args: []string{"hook", "pre-write"}, codes: []int{0}, stdin: hook(map[string]any{
			"hook_event_name": "PreToolUse", "tool_name": "Edit",
			"tool_input": map[string]any{"file_path": index, "old_string": pointer, "new_string": pointer + " (reviewed)"}})},
	}
	return f
}

// dirs returns the data and cache directories of a run: fresh ones for a
// cold row, the shared warm ones otherwise.
func (f *benchFixture) dirs(r benchRow) (data, cache string) {
	if r.cold {
		d := filepath.Join(f.dir, "cold", fmt.Sprintf("%s-%d", r.name, f.colds.Add(1)))
		return filepath.Join(d, "data"), filepath.Join(d, "cache")
	}
	return filepath.Join(f.dir, "warm", "data"), filepath.Join(f.dir, "warm", "cache")
}

func (f *benchFixture) environ(r benchRow) map[string]string {
	env := maps.Clone(f.env)
	env["XDG_DATA_HOME"], env["XDG_CACHE_HOME"] = f.dirs(r)
	return env
}

// checkRun fails the benchmark when a run exited with a status the row
// does not accept or said it hit an internal error.
func checkRun(b *testing.B, r benchRow, code int, stdout, stderr []byte) {
	b.Helper()
	if !slices.Contains(r.codes, code) || bytes.Contains(stderr, []byte("internal error")) {
		b.Fatalf("%s: exit %d (want one of %v)\nstdout: %s\nstderr: %s", r.name, code, r.codes, stdout, stderr)
	}
}

// BenchmarkProcess runs each row as its own process, the way a hook runs:
// the figure includes start-up. /bin/true is the baseline the table's
// targets are measured above. It builds memcompact from this checkout, or
// runs $MEMCOMPACT_BENCH_BIN when set, so two builds can be compared on the
// same rows.
func BenchmarkProcess(b *testing.B) {
	f := newBenchFixture(b)
	bin := os.Getenv("MEMCOMPACT_BENCH_BIN")
	if bin == "" {
		bin = testshared.Install(b, filepath.Join(f.dir, "bin"))
	}
	if t, err := exec.LookPath("true"); err == nil {
		b.Run("true", func(b *testing.B) {
			for b.Loop() {
				if err := exec.Command(t).Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, r := range f.rows {
		b.Run(r.name, func(b *testing.B) { f.runProcess(b, r, bin) })
	}
}

// runOnce runs row r once with the executable bin and checks its exit.
func (f *benchFixture) runOnce(b *testing.B, r benchRow, bin string) {
	cmd := exec.Command(bin, r.args...)
	for k, v := range f.environ(r) {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Dir = filepath.Join(f.dir, "proj")
	cmd.Stdin = bytes.NewReader(r.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		b.Fatalf("%s: %v", r.name, err)
	}
	checkRun(b, r, code, stdout.Bytes(), stderr.Bytes())
}

// runProcess times row r run by the executable bin.
func (f *benchFixture) runProcess(b *testing.B, r benchRow, bin string) {
	run := func() {
		cmd := exec.Command(bin, r.args...)
		for k, v := range f.environ(r) {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Dir = filepath.Join(f.dir, "proj")
		cmd.Stdin = bytes.NewReader(r.stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if err != nil && code < 0 {
			b.Fatalf("%s: %v", r.name, err)
		}
		checkRun(b, r, code, stdout.Bytes(), stderr.Bytes())
	}
	if !r.cold {
		f.settle()
		run() // fill the journal and the cache, untimed
	}
	for b.Loop() {
		run()
	}
}

// BenchmarkInProcess runs each row through cli.Run in this process: the
// verb's own work, with start-up and one-time pattern compilation paid
// once for all iterations.
func BenchmarkInProcess(b *testing.B) {
	f := newBenchFixture(b)
	// The caches find their directory in the process environment
	// (os.UserCacheDir), not in Env: each run sets it to its row's.
	b.Setenv("XDG_CACHE_HOME", "")
	for _, r := range f.rows {
		b.Run(r.name, func(b *testing.B) {
			var stdout, stderr bytes.Buffer
			run := func() {
				env := f.environ(r)
				os.Setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
				stdout.Reset()
				stderr.Reset()
				code := cli.Run(&cli.Env{
					Stdin: bytes.NewReader(r.stdin), Stdout: &stdout, Stderr: &stderr,
					Getenv: func(k string) string { return env[k] }, Now: time.Now,
				}, r.args)
				checkRun(b, r, code, stdout.Bytes(), stderr.Bytes())
			}
			if !r.cold {
				f.settle()
			}
			run() // untimed: fills the warm directories, compiles patterns
			for b.Loop() {
				run()
			}
		})
	}
}

// copyDir copies the regular files of src into dst, writable, so a run
// may write to the copy (the corpus itself is read-only).
func copyDir(b *testing.B, src, dst string) {
	b.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// writeGenStore lays out a store of n pointers under one heading, each
// with its entry file: an index far past Claude Code's load cut.
func writeGenStore(b *testing.B, mem string, n int) {
	b.Helper()
	if err := os.MkdirAll(mem, 0o755); err != nil {
		b.Fatal(err)
	}
	var ix strings.Builder
	ix.WriteString("# Memory\n\n## Feedback\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&ix, "- [Lesson %d](feedback_l%d.md) — what lesson %d teaches about retries\n", i, i, i)
		if err := os.WriteFile(filepath.Join(mem, fmt.Sprintf("feedback_l%d.md", i)), []byte("---\nname: l\n---\nRetry three times, then back off.\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(ix.String()), 0o644); err != nil {
		b.Fatal(err)
	}
}

// row is the fixture's row named name.
func (f *benchFixture) row(b *testing.B, name string) benchRow {
	for _, r := range f.rows {
		if r.name == name {
			return r
		}
	}
	b.Fatalf("no row %s", name)
	return benchRow{}
}

// floorSource is the machine's floor: a Go program that reads the files
// it is given (as cat does, every byte) and prints a line. Run with no
// files it is the language's start-up; with a store's files, start-up
// plus reading every byte of the store.
const floorSource = `package main

import (
	"io"
	"os"
)

func main() {
	for _, p := range os.Args[1:] {
		if f, err := os.Open(p); err == nil {
			io.Copy(io.Discard, f)
			f.Close()
		}
	}
	os.Stdout.WriteString("floor\n")
}
`

// buildFloor builds the floor program into dir.
func buildFloor(b *testing.B, dir string) string {
	b.Helper()
	src := filepath.Join(dir, "floor")
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	for name, text := range map[string]string{"main.go": floorSource, "go.mod": "module floor\n\ngo 1.26\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	exe := testshared.Exe(src, "floor")
	cmd := exec.Command("go", "build", "-o", exe, ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the floor program: %v\n%s", err, out)
	}
	return exe
}

// buildLinkedFloor builds the floor program linking what memcompact must
// link (issue 22: goldmark, yaml.v3, the MCP SDK, the official Anthropic
// and OpenAI SDKs, and the rest of the third-party packages memcompact's
// own packages import), each imported for its side effects only. Its
// start-up is what those packages cost before memcompact runs a line:
// their init functions, and the runtime's work for a binary their size.
// It is built in a module of its own whose go.mod and go.sum are
// memcompact's, so it links the same versions.
func buildLinkedFloor(b *testing.B, dir string) string {
	b.Helper()
	root := moduleRoot(b)
	const module = "github.com/memcompact/memcompact"
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./cmd/memcompact")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("listing memcompact's imports: %v", err)
	}
	// The third-party packages the executable's own packages import.
	imports := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], module) {
			continue
		}
		for _, p := range f[1:] {
			if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") && !strings.HasPrefix(p, module) {
				imports[p] = true
			}
		}
	}
	src := filepath.Join(dir, "linked-floor")
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"io\"\n\t\"os\"\n\n")
	for _, p := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&main, "\t_ %q\n", p)
	}
	main.WriteString(")\n" + floorSource[strings.Index(floorSource, "func main()"):])
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		b.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		b.Fatal(err)
	}
	mod = bytes.Replace(mod, []byte("module "+module), []byte("module linkedfloor"), 1)
	for name, text := range map[string][]byte{"main.go": []byte(main.String()), "go.mod": mod, "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(src, name), text, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	exe := testshared.Exe(src, "linked-floor")
	// Built as memcompact is built for users (testshared.Install): static.
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir = src
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the linked floor: %v\n%s", err, out)
	}
	return exe
}

// moduleRoot is the directory of memcompact's go.mod.
func moduleRoot(b *testing.B) string {
	b.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		b.Fatalf("finding memcompact's go.mod: %v", err)
	}
	return filepath.Dir(string(bytes.TrimSpace(out)))
}

// filesUnder lists the regular files under dir.
func filesUnder(b *testing.B, dir string) []string {
	b.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// startupRow is one row of the start-up table: a process to run, and the
// floor row it is measured against with its target ratio (none for a
// floor itself).
type startupRow struct {
	name   string
	run    func() // one run of the process, checked
	floor  string
	target float64
	// linked is the floor's twin linking what memcompact must link
	// (buildLinkedFloor): the ratio to it is memcompact's own share.
	linked string
}

// BenchmarkStartup is the top table of BENCHMARKS.md: each row run as its
// own process, interleaved round by round with the machine's floors (a Go
// program that prints a line; that program reading every byte of the
// store, or of the index; and the same three linking the third-party
// packages memcompact must link), so that a loaded machine slows a row and
// its floor alike. It reports each row's median wall time and its ratio to
// its floor's median in the same run; it asserts no time (the targets are
// in the table, and in the log's last column).
//
//	go test ./cmd/memcompact -run '^$' -bench Startup -benchtime 15x
func BenchmarkStartup(b *testing.B) {
	f := newBenchFixture(b)
	bin := os.Getenv("MEMCOMPACT_BENCH_BIN")
	if bin == "" {
		bin = testshared.Install(b, filepath.Join(f.dir, "bin"))
	}
	floor := buildFloor(b, f.dir)
	linked := buildLinkedFloor(b, f.dir)
	exe := func(name string, args ...string) func() {
		return func() {
			out, err := exec.Command(name, args...).Output()
			if err != nil || len(out) == 0 {
				b.Fatalf("%s: %v", name, err)
			}
		}
	}
	mc := func(name string) func() {
		r := f.row(b, name)
		return func() { f.runOnce(b, r, bin) }
	}
	storeFiles := filesUnder(b, f.mem)
	index := filepath.Join(f.ssam, "MEMORY.md")
	rows := []startupRow{
		{name: "go-floor", run: exe(floor)},
		{name: "read-floor-store", run: exe(floor, storeFiles...)},
		{name: "read-floor-index", run: exe(floor, index)},
		{name: "linked-floor", run: exe(linked)},
		{name: "linked-read-floor-store", run: exe(linked, storeFiles...)},
		{name: "linked-read-floor-index", run: exe(linked, index)},
		{name: "version", run: mc("version"), floor: "go-floor", target: 2, linked: "linked-floor"},
		{name: "session-start-unchanged", run: mc("session-start-unchanged"), floor: "read-floor-store", target: 1.5, linked: "linked-read-floor-store"},
		{name: "session-start-never-seen", run: mc("session-start-cold"), floor: "read-floor-store", target: 4, linked: "linked-read-floor-store"},
		{name: "pre-write-index-edit", run: mc("pre-write-index-edit"), floor: "read-floor-store", target: 1.5, linked: "linked-read-floor-store"},
		{name: "check-19k-index", run: mc("check-1000ssam"), floor: "read-floor-index", target: 1.3, linked: "linked-read-floor-index"},
	}
	// One untimed run of each fills the warm directories; then the store
	// settles, as between two sessions.
	for _, r := range rows {
		r.run()
	}
	f.settle()
	times := make(map[string][]time.Duration, len(rows))
	for i := 0; b.Loop(); i++ {
		// Each round in another order, so no row always follows another.
		for j := range rows {
			r := rows[(i+j)%len(rows)]
			t0 := time.Now()
			r.run()
			times[r.name] = append(times[r.name], time.Since(t0))
		}
	}
	med := map[string]float64{}
	for name, ts := range times {
		slices.Sort(ts)
		med[name] = float64(ts[len(ts)/2].Microseconds()) / 1000
	}
	// The floors go on one line: testing keeps ten lines of a
	// benchmark's log.
	var floors []string
	for _, r := range rows {
		b.ReportMetric(med[r.name], r.name+"-ms")
		if r.floor == "" {
			floors = append(floors, fmt.Sprintf("%s %.2f ms", r.name, med[r.name]))
		}
	}
	b.Logf("floors: %s", strings.Join(floors, ", "))
	b.Logf("| row | median ms | floor | floor ms | × floor | target | linked floor ms | × linked floor |")
	for _, r := range rows {
		if r.floor == "" {
			continue
		}
		ratio, own := med[r.name]/med[r.floor], med[r.name]/med[r.linked]
		b.ReportMetric(ratio, r.name+"-x")
		b.ReportMetric(own, r.name+"-x-linked")
		b.Logf("| %s | %.2f | %s | %.2f | %.2f | ≤ %.1f× | %.2f | %.2f |", r.name, med[r.name], r.floor, med[r.floor], ratio, r.target, med[r.linked], own)
	}
}
