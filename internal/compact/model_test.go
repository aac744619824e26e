package compact

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/summarize"
	"github.com/memcompact/memcompact/internal/testshared"
)

const secretEntry = "## 2025-12-31 10:00 — Staging access\n- AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n\n---\n\n" +
	"## 2025-12-31 11:00 — Editor\n- Sam prefers tabs in Go files, because gofmt does.\n\n---\n\n"

// modelRoot is runRoot's diary with a secret entry in its oldest tier.
func modelRoot(t *testing.T, extra map[string]string) string {
	d := diary(10, "\n")
	i := strings.Index(d, "## 2026-")
	files := map[string]string{budget.PolicyRel: runPolicy, "topics/tools.md": d[:i] + secretEntry + d[i:]}
	for k, v := range extra {
		files[k] = v
	}
	return testshared.Tree(t, files)
}

// fakeMessages is a fake of the Anthropic summarizer (the real one, over
// the official SDK, is the executable's and is tested there): it records
// every request, the model's name and every turn's text, and answers each
// with text, or with the error a rejected key gets. Each fake has a base URL of its own, which keyEnv's
// API reads to find it, so a settings file can name it too.
type fakeMessages struct {
	URL    string
	status int
	text   string
	mu     sync.Mutex
	bodies []string
}

var (
	fakesMu sync.Mutex
	fakes   = map[string]*fakeMessages{}
)

func newFakeMessages(t *testing.T, status int, text string) *fakeMessages {
	fakesMu.Lock()
	defer fakesMu.Unlock()
	f := &fakeMessages{URL: fmt.Sprintf("http://127.0.0.1:9/fake-%d", len(fakes)), status: status, text: text}
	fakes[f.URL] = f
	return f
}

func (f *fakeMessages) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.bodies...)
}

// api is a summarize.APIFunc making this fake's model, whatever the base
// URL says.
func (f *fakeMessages) api(c summarize.Config, _ func(string) string) (summarize.Model, error) {
	return fakeModel{f, c}, nil
}

// fakeAPI is a summarize.APIFunc making the model of the fake at c's base
// URL; there is none at a real API's URL, and asking one is an error.
func fakeAPI(c summarize.Config, getenv func(string) string) (summarize.Model, error) {
	fakesMu.Lock()
	f := fakes[c.BaseURL]
	fakesMu.Unlock()
	if f == nil {
		return fakeModel{nil, c}, nil
	}
	return f.api(c, getenv)
}

type fakeModel struct {
	f *fakeMessages
	c summarize.Config
}

func (m fakeModel) Name() string { return fmt.Sprintf("%s %s at %s", m.c.Kind, m.c.Model, m.c.BaseURL) }

func (m fakeModel) Complete(_ context.Context, turns []summarize.Turn) (string, error) {
	if m.f == nil {
		return "", fmt.Errorf("a test sent to %s", m.c.BaseURL)
	}
	body := fmt.Sprintf(`"model":%q`, m.c.Model)
	for _, tn := range turns {
		body += "\n" + tn.Role + ": " + tn.Text
	}
	m.f.mu.Lock()
	m.f.bodies = append(m.f.bodies, body)
	m.f.mu.Unlock()
	if m.f.status != 200 {
		return "", fmt.Errorf("%s: the API key was not accepted (%d): %s", m.Name(), m.f.status,
			`{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
	}
	return m.f.text, nil
}

func keyEnv(base string) *summarize.Env {
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": base}
	return &summarize.Env{Getenv: func(k string) string { return env[k] }, API: fakeAPI}
}

func modelRequest(root string, s Summarizing) Request {
	return Request{Root: root, Files: []string{filepath.Join(root, "topics", "tools.md")}, Timeout: summarize.DefaultTimeout,
		Confirmed: true, Today: today, Now: now, Summarizing: s}
}

// TestModelNeverSeesSecretsOrPlan: --plan with a model summarizer sends
// nothing and shows what would be sent; a real run sends the tier without
// the secret entry, and the repair round names what is missing.
func TestModelNeverSeesSecretsOrPlan(t *testing.T) {
	root := modelRoot(t, nil)
	f := newFakeMessages(t, 200, "- We were tuning jobs.")
	s := Summarizing{Summarizer: string(summarize.Anthropic), Env: keyEnv(f.URL)}

	req := modelRequest(root, s)
	req.Plan = true
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Files[0]
	if rep.Status != StatusPlanned || rep.Prompt != summarize.Instructions || !strings.Contains(rep.Preview, "Note 1") || !strings.Contains(rep.SendsTo, f.URL) {
		t.Fatalf("plan report: status %s, sends to %q, preview %.200q", rep.Status, rep.SendsTo, rep.Preview)
	}
	if strings.Contains(rep.Preview, "wJalrXUtnFEMI") || len(f.got()) != 0 {
		t.Fatalf("the plan leaked: %d requests", len(f.got()))
	}

	res, err = Run(context.Background(), modelRequest(root, s))
	if err != nil {
		t.Fatal(err)
	}
	rep = res.Files[0]
	got := f.got()
	if len(got) != 2 {
		t.Fatalf("%d requests, want 2 (the repair round): %s", len(got), rep.Message)
	}
	for _, b := range got {
		if strings.Contains(b, "wJalrXUtnFEMI") || strings.Contains(b, "Staging access") {
			t.Fatalf("a request holds the secret entry: %.300s", b)
		}
	}
	if !strings.Contains(got[0], "Must keep") || !strings.Contains(got[1], "not complete yet") || !strings.Contains(got[1], "Sam prefers tabs in Go files, because gofmt does.") {
		t.Errorf("the repair request does not name what is missing: %.500s", got[1])
	}
	if rep.Model == nil || !rep.Model.Repaired || len(rep.Model.Appended) != 1 || rep.Model.Appended[0] != "Sam prefers tabs in Go files, because gofmt does." {
		t.Fatalf("model run %+v (%s)", rep.Model, rep.Message)
	}
	if rep.Status != StatusCompacted && rep.Status != StatusShortfall {
		t.Errorf("status %s: %s", rep.Status, rep.Message)
	}
}

// TestModelRemoteNeedsConsent: a remote API gets no text unless allowed by
// flag, answer or settings file; the question comes when a file's tier is
// about to be sent, and a refusal refuses that file (nothing sent or
// written).
func TestModelRemoteNeedsConsent(t *testing.T) {
	root := modelRoot(t, nil)
	before, _ := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
	asked := ""
	s := Summarizing{Summarizer: string(summarize.Anthropic), BaseURL: "https://api.anthropic.com",
		Env: keyEnv(""), ConfirmRemote: func(where string) bool { asked = where; return false }}
	refused := func(what string, s Summarizing) {
		t.Helper()
		res, err := Run(context.Background(), modelRequest(root, s))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		rep := res.Files[0]
		if rep.Status != StatusRefused || rep.Reason != ReasonRemoteNotAllowed || res.Outcome != outcome.Refused || !strings.Contains(rep.Message, "nothing was sent or written") {
			t.Fatalf("%s: %s %s (%v): %s", what, rep.Status, rep.Reason, res.Outcome, rep.Message)
		}
	}
	refused("answered no", s)
	if !strings.Contains(asked, "https://api.anthropic.com/v1/messages") {
		t.Errorf("asked %q", asked)
	}
	s.ConfirmRemote = nil
	refused("no way to ask", s)
	after, _ := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
	if string(after) != string(before) || snapshotExists(root) {
		t.Error("a refused run wrote")
	}
	// Claude Code sends to Anthropic: remote too.
	env := keyEnv("")
	env.LookPath = func(string) (string, error) { return "/usr/local/bin/claude", nil }
	refused("claude", Summarizing{Summarizer: string(summarize.Claude), Env: env})
}

// TestModelConsentAskedWhenSending: nothing over budget asks nothing; two
// files to distill ask once, when the first is about to be sent, and the
// answer holds for both.
func TestModelConsentAskedWhenSending(t *testing.T) {
	f := newFakeMessages(t, 200, "- We were tuning jobs.")
	d := diary(10, "\n")
	small := d[:strings.Index(d, "## 2026-")] + "## 2026-01-01 10:00 — One\n- Kept short.\n"
	root := testshared.Tree(t, map[string]string{budget.PolicyRel: runPolicy, "topics/tools.md": d, "topics/small.md": small})
	// A non-loopback base URL is remote; the fake answers for it.
	env := keyEnv("https://api.anthropic.com")
	env.API = f.api
	asks := 0
	s := Summarizing{Summarizer: string(summarize.Anthropic), Env: env,
		ConfirmRemote: func(string) bool { asks++; return true }}
	req := modelRequest(root, s)
	req.Files = []string{filepath.Join(root, "topics", "small.md")}
	if _, err := Run(context.Background(), req); err != nil || asks != 0 {
		t.Fatalf("within budget: asked %d times, err %v", asks, err)
	}
	req.Files = nil // every over-budget file: tools.md only
	if res, err := Run(context.Background(), req); err != nil || asks != 1 || len(f.got()) == 0 {
		t.Fatalf("over budget: asked %d times, %d requests, err %v", asks, len(f.got()), err)
	} else if rep := res.Files[0]; rep.File != "topics/tools.md" || rep.Status == StatusRefused {
		t.Fatalf("%s: %s: %s", rep.File, rep.Status, rep.Message)
	}
}

// TestModelErrorLeavesFile: a 401 aborts the file's compaction with the
// server's words; nothing is written.
func TestModelErrorLeavesFile(t *testing.T) {
	root := modelRoot(t, nil)
	before, _ := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
	f := newFakeMessages(t, 401, "")
	res, err := Run(context.Background(), modelRequest(root, Summarizing{Summarizer: string(summarize.Anthropic), Env: keyEnv(f.URL)}))
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Files[0]
	if rep.Status != StatusAborted || !strings.Contains(rep.Message, "API key was not accepted (401)") || !strings.Contains(rep.Message, "invalid x-api-key") {
		t.Fatalf("%s: %s", rep.Status, rep.Message)
	}
	after, _ := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
	if string(after) != string(before) || snapshotExists(root) {
		t.Error("an aborted run wrote")
	}
}

// TestSettingsFile: compaction/summarizer.toml chooses the summarizer when
// no flag does; a loopback server needs no consent.
func TestSettingsFile(t *testing.T) {
	f := newFakeMessages(t, 200, "- We were tuning jobs.")
	root := modelRoot(t, map[string]string{summarize.ConfigRel: "summarizer = \"anthropic\"\nmodel = \"claude-local\"\nbase_url = \"" + f.URL + "\"\n"})
	res, err := Run(context.Background(), modelRequest(root, Summarizing{Env: keyEnv("")}))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.got()) == 0 || !strings.Contains(f.got()[0], `"model":"claude-local"`) {
		t.Fatalf("the settings file's model was not used: %d requests", len(f.got()))
	}
	if !strings.Contains(res.Files[0].Summarizer, "claude-local") {
		t.Errorf("summarizer %q", res.Files[0].Summarizer)
	}
	// --summarizer builtin wins over the file.
	n := len(f.got())
	res, err = Run(context.Background(), modelRequest(root, Summarizing{Summarizer: string(summarize.Builtin), Env: keyEnv("")}))
	if err != nil || len(f.got()) != n || res.Files[0].Summarizer != "builtin" {
		t.Fatalf("builtin over the file: %v, %d more requests, summarizer %q", err, len(f.got())-n, res.Files[0].Summarizer)
	}
	// A bad settings file is a refusal naming its line.
	os.WriteFile(filepath.Join(root, filepath.FromSlash(summarize.ConfigRel)), []byte("summariser = \"claude\"\n"), 0o644)
	if _, err := Run(context.Background(), modelRequest(root, Summarizing{})); outcome.ReasonOf(err) != ReasonSummarizerUnavailable || !strings.Contains(err.Error(), "summarizer.toml:1") {
		t.Fatalf("err %v", err)
	}
}

// TestModelTooLong: bullets that would leave the file over its budget are
// sent back once, saying by how much; if the model cannot shorten them,
// the compaction ends as a shortfall with nothing written.
func TestModelTooLong(t *testing.T) {
	root := modelRoot(t, nil)
	var long strings.Builder
	for i := 0; i < 150; i++ {
		long.WriteString("- We were tuning jobs, " + string([]byte{byte('a' + i/26), byte('a' + i%26)}) + ".\n")
	}
	f := newFakeMessages(t, 200, long.String())
	res, err := Run(context.Background(), modelRequest(root, Summarizing{Summarizer: string(summarize.Anthropic), Env: keyEnv(f.URL)}))
	if err != nil {
		t.Fatal(err)
	}
	got := f.got()
	if len(got) != 2 || !strings.Contains(got[1], "They are too long: with them the file would be about") {
		t.Fatalf("%d requests; the last: %.400s", len(got), got[len(got)-1])
	}
	if rep := res.Files[0]; rep.Status != StatusShortfall || snapshotExists(root) {
		t.Errorf("status %s: %s", rep.Status, rep.Message)
	}
}

// TestModelUnfaithfulRefused: a model summary that flips a negation is
// sent back once naming the fault; still flipped, the compaction aborts
// with nothing written and the built-in summarizer offered.
func TestModelUnfaithfulRefused(t *testing.T) {
	root := modelRoot(t, nil)
	before, err := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeMessages(t, 200, "- We were not tuning jobs.")
	res, err := Run(context.Background(), modelRequest(root, Summarizing{Summarizer: string(summarize.Anthropic), Env: keyEnv(f.URL)}))
	if err != nil {
		t.Fatal(err)
	}
	got := f.got()
	if len(got) != 2 || !strings.Contains(got[1], "do not say what the entries say") || !strings.Contains(got[1], "flips the entry") {
		t.Fatalf("%d requests; the last: %.600s", len(got), got[len(got)-1])
	}
	rep := res.Files[0]
	if rep.Status != StatusAborted || !strings.Contains(rep.Message, "entries do not say") || !strings.Contains(rep.Message, "--summarizer builtin") || snapshotExists(root) {
		t.Errorf("status %s: %s", rep.Status, rep.Message)
	}
	after, _ := os.ReadFile(filepath.Join(root, "topics", "tools.md"))
	if string(after) != string(before) {
		t.Error("the file changed")
	}
}

// TestModelUnfaithfulFallsBack: with Fallback "builtin" the refused
// summary is replaced by the built-in summarizer's, and the report says
// which refusal it replaced.
func TestModelUnfaithfulFallsBack(t *testing.T) {
	root := modelRoot(t, nil)
	f := newFakeMessages(t, 200, "- We were not tuning jobs.")
	res, err := Run(context.Background(), modelRequest(root, Summarizing{Summarizer: string(summarize.Anthropic), Env: keyEnv(f.URL), Fallback: "builtin"}))
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Files[0]
	if rep.Status != StatusCompacted || !strings.Contains(rep.FellBack, "entries do not say") || !snapshotExists(root) {
		t.Fatalf("status %s (fell back: %q): %s", rep.Status, rep.FellBack, rep.Message)
	}
	if len(f.got()) != 2 {
		t.Errorf("%d requests, want 2 (the summary and its repair round)", len(f.got()))
	}
}
