package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/store"

	"github.com/memcompact/memcompact/internal/testshared"
)

// TestClaudeCode is the differential test against the real Claude Code
// client: for every variant below it starts `claude -p` against a fake
// Messages API on 127.0.0.1, reads back the memory text and the store
// Claude Code put into its request, and requires `memcompact load --json
// --text`, run with the same environment and working directory, to
// predict both exactly.
//
// It runs only when MEMCOMPACT_CLAUDE_CODE names a claude executable;
// .ci/run installs the pinned @anthropic-ai/claude-code from npm into a
// cache directory and sets it. See docs/development.md, "Claude Code fidelity".
func TestClaudeCode(t *testing.T) {
	claude := realClaude(t, "the differential test against the real Claude Code client is skipped")
	// The memcompact a user installs.
	memcompact := testshared.Install(t, t.TempDir())
	api := newFakeAPI()
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close) // not defer: the parallel subtests run after this function returns

	sem := make(chan struct{}, 3) // 2 cores: three clients at a time is enough
	for _, v := range claudeVariants() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			defer func() { <-sem }()
			sc := newScratch(t)
			if v.setup != nil {
				v.setup(t, sc)
			}
			if v.index != nil {
				writeFile(t, filepath.Join(sc.defaultStore(t), "MEMORY.md"), v.index())
			}
			base := srv.URL + "/v/" + v.name
			env := append(sc.environ(), "ANTHROPIC_BASE_URL="+base)
			sent := runClaude(t, claude, sc.cwd, env, sc.claudeArgs, api, "/v/"+v.name+"/")
			got := runLoad(t, memcompact, sc.cwd, env, sc.loadArgs)
			compare(t, sent, got)
		})
	}
}

// claudeVariant is one store the two must agree on. index, when set, is
// the MEMORY.md written to the default store; setup may write more.
type claudeVariant struct {
	name  string
	index func() string
	setup func(t *testing.T, sc *scratch)
}

func claudeVariants() []claudeVariant {
	pointers := func(n, width int, eol string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			line := fmt.Sprintf("- [entry %d](feedback_%04d.md) — hook", i, i)
			for len([]rune(line)) < width {
				line += "x"
			}
			b.WriteString(line + eol)
		}
		return b.String()
	}
	text := func(s string) func() string { return func() string { return s } }
	vs := []claudeVariant{
		{name: "plain", index: text("# Memory\n\n## Feedback\n" + pointers(5, 40, "\n"))},
		{name: "frontmatter", index: text("---\nname: memory\ndescription: the index\n---\n# Memory\n" + pointers(199, 30, "\n"))},
		{name: "leading-rule", index: text("---\n# Memory\n" + pointers(10, 30, "\n") + "\n---\n\n## Later\n" + pointers(3, 30, "\n"))},
		{name: "rule-closed-by-table", index: text("---\n" + pointers(3, 30, "\n") + "| a | b |\n|---|---|\n| 1 | 2 |\n" + pointers(2, 30, "\n"))},
		{name: "comments", index: text("# Memory\n<!-- one line per entry -->\n\n<!--\n- [old](old.md) — retired\n-->\n" +
			"- [a](a.md) — a <!-- inline -->\n- [b](b.md) — b\n  <!-- inside the item -->\n<!-- x --> tail text\n\n```\n<!-- fenced -->\n```\n<!-- unclosed\n- [c](c.md)\n")},
		{name: "comments-at-the-line-limit", index: text("<!-- policy: one pointer per line -->\n" + pointers(200, 30, "\n") + "<!-- end -->\n")},
		{name: "crlf", index: text(strings.ReplaceAll("# Memory\n"+pointers(201, 30, "\n"), "\n", "\r\n"))},
		{name: "crlf-with-comment", index: text(strings.ReplaceAll("# Memory\n<!-- c -->\n"+pointers(201, 30, "\n"), "\n", "\r\n"))},
		{name: "lone-cr", index: text("# Memory\r- [a](a.md)\r- [b](b.md)\n- [c](c.md)\n")},
		{name: "bom", index: text("\uFEFF# Memory\n" + pointers(3, 30, "\n"))},
		{name: "bom-frontmatter", index: text("\uFEFF---\nname: x\n---\n" + pointers(3, 30, "\n"))},
		{name: "clean-up", index: text("# Memory\u200b\n- [a](a.md) — tab\tand bell\x07\n- [b](b.md) — sep\u2028line\u2029para\n- [c](c.md) — zwj a\u200db, vs \u2764\ufe0f, private \ue000, soft\u00adhyphen\n")},
		{name: "non-bmp-hard-cut", index: text(strings.Repeat("a", 24999) + "🚀🚀" + strings.Repeat("b", 100))},
		{name: "non-bmp-lines", index: text("# Memory\n" + strings.Repeat("- [🚀](r.md) — 🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀\n", 400))},
		{name: "long-lines", index: text("# Memory\n" + pointers(150, 240, "\n"))},
		{name: "lines-200", index: text(pointers(200, 30, "\n"))},
		{name: "lines-201", index: text(pointers(201, 30, "\n"))},
		{name: "units-25000", index: func() string {
			s := pointers(100, 249, "\n")
			return s[:len(s)-1] + strings.Repeat("z", 25000-jsUnits(s)+1)
		}},
		{name: "units-25001", index: func() string {
			s := pointers(100, 249, "\n")
			return s[:len(s)-1] + strings.Repeat("z", 25000-jsUnits(s)+2)
		}},
		{name: "blank-ends", index: text("\n\n  \n# Memory\n" + pointers(3, 30, "\n") + "\n\n\t\n")},
		// Tag openers Claude Code escapes, and look-alikes it does not.
		{name: "tags", index: text("# Memory\n- [a](a.md) — keep <system-reminder>x</system-reminder> out\n" +
			"- [b](b.md) — < tick> <Command_Name> <\\system-reminder> <foo> <br/> <!-- system-reminder -->\n" +
			"- [c](c.md) — <channel id=\"1\" source=\"x\"> <channel> <" + "antml" + ":x> <antml x>\n" +
			"- [d](d.md) — \uFF1Csystem-reminder\uFF1E \u2039tick\u203A <systém-reminder> <system\u2014reminder> <sys\u200dtem-reminder>\n")},
		{name: "tags-cut", index: text("# Memory\n" + pointers(3, 30, "\n") + "<task-notification>\n" + pointers(197, 30, "\n") + "</task-notification>\n")},
		{name: "tags-in-warning", index: text(pointers(200, 30, "\n") + "- [z](z.md) — <system-reminder> and ＜tick＞ past the cut\n")},
		{name: "over-4mib", index: func() string { return "# Memory\n" + pointers(3, 30, "\n") + strings.Repeat("y", 4<<20) }},
	}
	// Where the store is.
	vs = append(vs,
		claudeVariant{name: "store-project-settings", setup: func(t *testing.T, sc *scratch) {
			sc.settings(t, filepath.Join(sc.cwd, ".claude", "settings.json"), "~/shared-mem")
			sc.candidates(t, filepath.Join(sc.home, "shared-mem"))
		}},
		claudeVariant{name: "store-relative-rejected", setup: func(t *testing.T, sc *scratch) {
			sc.settings(t, filepath.Join(sc.cwd, ".claude", "settings.json"), "rel-mem")
			sc.settings(t, filepath.Join(sc.config, "settings.json"), "~/user-mem")
			sc.candidates(t, filepath.Join(sc.cwd, "rel-mem"), filepath.Join(sc.home, "user-mem"))
		}},
		claudeVariant{name: "store-empty-stops", setup: func(t *testing.T, sc *scratch) {
			sc.settings(t, filepath.Join(sc.cwd, ".claude", "settings.local.json"), "")
			sc.settings(t, filepath.Join(sc.config, "settings.json"), "~/user-mem")
			sc.candidates(t, filepath.Join(sc.home, "user-mem"))
		}},
		claudeVariant{name: "store-user-settings", setup: func(t *testing.T, sc *scratch) {
			sc.settings(t, filepath.Join(sc.config, "settings.json"), "~/user-mem")
			sc.candidates(t, filepath.Join(sc.home, "user-mem"))
		}},
		claudeVariant{name: "store-flag-settings", setup: func(t *testing.T, sc *scratch) {
			flag := filepath.Join(sc.root, "flag.json")
			sc.settings(t, flag, "~/flag-mem")
			sc.settings(t, filepath.Join(sc.cwd, ".claude", "settings.json"), "~/shared-mem")
			sc.claudeArgs = append(sc.claudeArgs, "--settings", flag)
			sc.loadArgs = append(sc.loadArgs, "--settings", flag)
			sc.candidates(t, filepath.Join(sc.home, "flag-mem"), filepath.Join(sc.home, "shared-mem"))
		}},
		claudeVariant{name: "store-tilde-escape-rejected", setup: func(t *testing.T, sc *scratch) {
			sc.settings(t, filepath.Join(sc.config, "settings.json"), "~/../outside-mem")
			sc.candidates(t, filepath.Join(sc.root, "outside-mem"))
		}},
		claudeVariant{name: "store-cowork-override", setup: func(t *testing.T, sc *scratch) {
			sc.env["CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"] = filepath.Join(sc.root, "cowork-mem")
			sc.settings(t, filepath.Join(sc.config, "settings.json"), "~/user-mem")
			sc.candidates(t, filepath.Join(sc.root, "cowork-mem"), filepath.Join(sc.home, "user-mem"))
		}},
		claudeVariant{name: "store-cowork-override-tilde", setup: func(t *testing.T, sc *scratch) {
			sc.env["CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"] = "~/cowork-mem"
			sc.candidates(t, filepath.Join(sc.home, "cowork-mem"))
		}},
		claudeVariant{name: "store-remote-dir", setup: func(t *testing.T, sc *scratch) {
			sc.env["CLAUDE_CODE_REMOTE_MEMORY_DIR"] = filepath.Join(sc.root, "remote")
		}},
		claudeVariant{name: "store-config-dir-verbatim", setup: func(t *testing.T, sc *scratch) {
			sc.env["CLAUDE_CONFIG_DIR"] = sc.config + "/"
		}},
		claudeVariant{name: "store-config-dir-empty", setup: func(t *testing.T, sc *scratch) {
			// set but empty: Claude Code uses "" as the config dir, so the
			// store is relative to the working directory
			sc.env["CLAUDE_CONFIG_DIR"] = ""
			sc.candidates(t, filepath.Join(sc.cwd, "projects", store.ProjectDirName(sc.cwd), "memory"))
		}},
		claudeVariant{name: "store-config-dir-empty-settings", setup: func(t *testing.T, sc *scratch) {
			sc.env["CLAUDE_CONFIG_DIR"] = ""
			sc.settings(t, filepath.Join(sc.cwd, "settings.json"), "~/cwd-settings-mem")
			sc.settings(t, filepath.Join(sc.config, "settings.json"), "~/user-mem")
			sc.candidates(t, filepath.Join(sc.cwd, "projects", store.ProjectDirName(sc.cwd), "memory"),
				filepath.Join(sc.home, "cwd-settings-mem"), filepath.Join(sc.home, "user-mem"))
		}},
		claudeVariant{name: "index-content-env", setup: func(t *testing.T, sc *scratch) {
			sc.candidates(t)
			sc.env["CLAUDE_COWORK_MEMORY_INDEX_CONTENT"] = "---\nname: env\n---\n# From the environment\n<!-- block -->\n- [a](a.md) — <system-reminder>\n\n"
		}},
		claudeVariant{name: "index-content-env-cut", setup: func(t *testing.T, sc *scratch) {
			sc.candidates(t)
			var b strings.Builder
			for i := 1; i <= 201; i++ {
				fmt.Fprintf(&b, "- [e%d](e%d.md) — from the environment\n", i, i)
			}
			sc.env["CLAUDE_COWORK_MEMORY_INDEX_CONTENT"] = b.String()
		}},
		claudeVariant{name: "index-content-env-empty", setup: func(t *testing.T, sc *scratch) {
			sc.candidates(t)
			sc.env["CLAUDE_COWORK_MEMORY_INDEX_CONTENT"] = ""
		}},
		claudeVariant{name: "store-nfc", setup: func(t *testing.T, sc *scratch) {
			// a decomposed é in autoMemoryDirectory: Claude Code uses the
			// composed (NFC) path, a different directory on Linux
			sc.settings(t, filepath.Join(sc.config, "settings.json"), "~/cafe\u0301-mem")
			sc.candidates(t, filepath.Join(sc.home, "cafe\u0301-mem"), filepath.Join(sc.home, "caf\u00e9-mem"))
		}},
		claudeVariant{name: "store-project-dir-name", setup: func(t *testing.T, sc *scratch) {
			sc.env["CLAUDE_CODE_PROJECT_DIR_NAME"] = "named_project"
			sc.candidates(t, filepath.Join(sc.config, "projects", "named_project", "memory"))
		}},
		claudeVariant{name: "store-long-path", setup: func(t *testing.T, sc *scratch) {
			sc.cwd = filepath.Join(sc.cwd, strings.Repeat("a", 120), strings.Repeat("bé", 40), "c🚀d")
			mkdirAll(t, sc.cwd)
			// A neighbour sharing the first 200 characters must not be taken.
			name := store.ProjectDirName(canonicalPath(t, sc.cwd))
			sc.candidates(t, filepath.Join(sc.config, "projects", name[:200]+"-neighbour", "memory"))
		}},
		claudeVariant{name: "store-worktree", setup: func(t *testing.T, sc *scratch) {
			main, wt := sc.worktree(t, true)
			sc.cwd = wt
			sc.candidates(t, sc.storeOf(t, main), sc.storeOf(t, wt))
		}},
		claudeVariant{name: "store-copied-worktree", setup: func(t *testing.T, sc *scratch) {
			main, wt := sc.worktree(t, false)
			sc.cwd = wt
			sc.candidates(t, sc.storeOf(t, main), sc.storeOf(t, wt))
		}},
		claudeVariant{name: "store-settings-from-subdirectory", setup: func(t *testing.T, sc *scratch) {
			// Settings at the repository root, Claude Code started below it.
			mkdirAll(t, filepath.Join(sc.cwd, ".git"))
			sc.settings(t, filepath.Join(sc.cwd, ".claude", "settings.json"), "~/root-shared-mem")
			sc.settings(t, filepath.Join(sc.cwd, ".claude", "settings.local.json"), "~/root-local-mem")
			sub := filepath.Join(sc.cwd, "pkg")
			mkdirAll(t, sub)
			sc.candidates(t, filepath.Join(sc.home, "root-shared-mem"), filepath.Join(sc.home, "root-local-mem"))
			sc.cwd = sub
		}},
		claudeVariant{name: "store-shared-settings-from-subdirectory", setup: func(t *testing.T, sc *scratch) {
			mkdirAll(t, filepath.Join(sc.cwd, ".git"))
			sc.settings(t, filepath.Join(sc.cwd, ".claude", "settings.json"), "~/root-shared-mem")
			sub := filepath.Join(sc.cwd, "pkg")
			sc.settings(t, filepath.Join(sub, ".claude", "settings.json"), "~/sub-shared-mem")
			sc.candidates(t, filepath.Join(sc.home, "root-shared-mem"), filepath.Join(sc.home, "sub-shared-mem"))
			sc.cwd = sub
		}},
		claudeVariant{name: "store-subdirectory", setup: func(t *testing.T, sc *scratch) {
			mkdirAll(t, filepath.Join(sc.cwd, ".git"))
			sub := filepath.Join(sc.cwd, "pkg", "deep")
			mkdirAll(t, sub)
			sc.candidates(t, sc.storeOf(t, sc.cwd), sc.storeOf(t, sub))
			sc.cwd = sub
		}},
	)
	return vs
}

// jsUnits is the UTF-16 length of s.
func jsUnits(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// scratch is one variant's world: a home, a config dir, a project.
type scratch struct {
	root, home, config, cwd string
	env                     map[string]string
	claudeArgs, loadArgs    []string
	candidate               int
}

// realClaude is the real Claude Code executable that
// MEMCOMPACT_CLAUDE_CODE names; without it the test is skipped, saying
// what is not tried.
func realClaude(t *testing.T, what string) string {
	t.Helper()
	claude := os.Getenv("MEMCOMPACT_CLAUDE_CODE")
	if claude == "" {
		t.Skipf("MEMCOMPACT_CLAUDE_CODE is not set: %s (.ci/run installs the client and sets it)", what)
	}
	return claude
}

func newScratch(t *testing.T) *scratch {
	root := canonicalPath(t, t.TempDir())
	sc := &scratch{root: root, home: filepath.Join(root, "home"), config: filepath.Join(root, "home", ".claude"), cwd: filepath.Join(root, "proj")}
	mkdirAll(t, sc.config)
	mkdirAll(t, sc.cwd)
	sc.env = map[string]string{"CLAUDE_CONFIG_DIR": sc.config}
	return sc
}

// environ is a minimal environment: nothing of the machine's own Claude
// Code configuration leaks in.
func (sc *scratch) environ() []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + sc.home,
		"ANTHROPIC_API_KEY=test-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"MEMCOMPACT_TODAY=2026-12-02",
	}
	for k, v := range sc.env {
		env = append(env, k+"="+v)
	}
	return env
}

// defaultStore is where this variant's default store is by memcompact's
// own reckoning; if that is wrong, Claude Code loads nothing from it and
// the comparison fails.
func (sc *scratch) defaultStore(t *testing.T) string {
	return sc.storeOf(t, sc.cwd)
}

func (sc *scratch) storeOf(t *testing.T, dir string) string {
	return filepath.Join(sc.config, "projects", store.ProjectDirName(canonicalPath(t, dir)), "memory")
}

// candidates writes a distinct MEMORY.md into the default store and each
// dir, so whichever Claude Code loads, the comparison sees which.
func (sc *scratch) candidates(t *testing.T, dirs ...string) {
	for _, d := range append([]string{sc.defaultStore(t)}, dirs...) {
		sc.candidate++
		writeFile(t, filepath.Join(d, "MEMORY.md"), fmt.Sprintf("# Memory\n- [store %d](s%d.md) — %s\n", sc.candidate, sc.candidate, d))
	}
}

func (sc *scratch) settings(t *testing.T, path, value string) {
	b, _ := json.Marshal(map[string]string{"autoMemoryDirectory": value})
	writeFile(t, path, string(b))
}

// worktree lays out a repository and a linked worktree as git makes them;
// valid false makes the worktree a copy whose back-pointer names another.
func (sc *scratch) worktree(t *testing.T, valid bool) (main, wt string) {
	main = filepath.Join(sc.root, "repo")
	wt = filepath.Join(sc.root, "wt")
	gitDir := filepath.Join(main, ".git", "worktrees", "wt")
	mkdirAll(t, gitDir)
	writeFile(t, filepath.Join(main, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(gitDir, "HEAD"), "ref: refs/heads/wt\n")
	writeFile(t, filepath.Join(gitDir, "commondir"), "../..\n")
	back := filepath.Join(wt, ".git")
	if !valid {
		back = filepath.Join(sc.root, "original-wt", ".git")
	}
	writeFile(t, filepath.Join(gitDir, "gitdir"), back+"\n")
	writeFile(t, filepath.Join(wt, ".git"), "gitdir: "+gitDir+"\n")
	return main, wt
}

// claudeTimeout bounds one claude run; a healthy one takes seconds.
var claudeTimeout = 90 * time.Second

// sent is what Claude Code put into its first request.
type sent struct {
	memoryDir string // from the system prompt: the store it uses
	indexPath string // from "Contents of PATH", empty when no index loaded
	text      string // the memory text
}

var (
	memoryDirRE = regexp.MustCompile("persistent file-based memory at `([^`]*)`")
	contentsRE  = regexp.MustCompile(`(?s)Contents of (.*?) \(user's auto-memory, persists across conversations\):\n\n(.*)\n</system-reminder>`)
)

func runClaude(t *testing.T, claude, cwd string, env, args []string, api *fakeAPI, prefix string) sent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, append([]string{"-p", "Say ok."}, args...)...)
	cmd.Dir, cmd.Env = cwd, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude -p: %v\n%s\nrequests seen: %s", err, out, api.paths())
	}
	req := api.first(prefix)
	if req == nil {
		t.Fatalf("claude sent no Messages request; it said:\n%s", out)
	}
	var s sent
	if m := memoryDirRE.FindStringSubmatch(req.system()); m != nil {
		s.memoryDir = strings.TrimRight(m[1], `/\`)
	}
	for _, txt := range req.userTexts() {
		if m := contentsRE.FindStringSubmatch(txt); m != nil {
			s.indexPath, s.text = m[1], m[2]
		}
	}
	// With CLAUDE_CONFIG_DIR set but empty, Claude Code names paths
	// relative to its working directory; memcompact names them absolute.
	for _, p := range []*string{&s.memoryDir, &s.indexPath} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(cwd, *p)
		}
	}
	return s
}

// loaded is what memcompact predicts.
type loaded struct {
	Index      string  `json:"index"`
	LoadedText *string `json:"loaded_text"`
	TooLarge   bool    `json:"too_large"`
	Store      *struct {
		Dir string `json:"dir"`
	} `json:"store"`
	code int
	raw  string
}

func runLoad(t *testing.T, memcompact, cwd string, env, args []string) loaded {
	t.Helper()
	cmd := exec.Command(memcompact, append([]string{"load", "--json", "--text"}, args...)...)
	cmd.Dir, cmd.Env = cwd, env
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, io.Discard
	err := cmd.Run()
	var l loaded
	l.raw = stdout.String()
	if ee, ok := err.(*exec.ExitError); ok {
		l.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &l); jerr != nil {
		t.Fatalf("memcompact load --json: %v\n%s", jerr, stdout.String())
	}
	return l
}

// compare requires memcompact's prediction to be exactly what was sent.
func compare(t *testing.T, s sent, l loaded) {
	t.Helper()
	if s.memoryDir == "" {
		t.Fatalf("the system prompt names no memory directory")
	}
	if l.Store == nil || l.Store.Dir != s.memoryDir {
		t.Errorf("store: Claude Code uses %s, memcompact says %+v\n%s", s.memoryDir, l.Store, l.raw)
	}
	predicted := ""
	if l.LoadedText != nil {
		predicted = *l.LoadedText
	}
	if s.indexPath == "" {
		if predicted != "" {
			t.Errorf("Claude Code loaded no index; memcompact predicts %d characters from %s", len(predicted), l.Index)
		}
		return
	}
	if l.Index != s.indexPath {
		t.Errorf("index: Claude Code loaded %s, memcompact says %s", s.indexPath, l.Index)
	}
	if predicted != s.text {
		t.Errorf("text differs at %s\nClaude Code: %q\nmemcompact:  %q", firstDiff(s.text, predicted), clip(s.text), clip(predicted))
	}
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("byte %d (Claude Code %q…, memcompact %q…)", i, clip(a[i:]), clip(b[i:]))
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:60] + "…" + s[len(s)-60:]
	}
	return s
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	mkdirAll(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdirAll(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func canonicalPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
