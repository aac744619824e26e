package journal

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUndoLineIsQuotedForTheShell: the "To undo this:" command survives a
// store path with a space and an apostrophe, pasted into a shell.
func TestUndoLineIsQuotedForTheShell(t *testing.T) {
	r := &UndoResult{Status: "undone", Plan: &UndoPlan{Actions: []Action{{}}}, Safety: "20261101T0900", Store: "/tmp/Bob's memory"}
	var b bytes.Buffer
	r.WriteText(&b)
	want := `undone: 1 file(s) written. To undo this: memcompact undo --to 20261101T0900 --store '/tmp/Bob'\''s memory'` + "\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	if sh, err := exec.LookPath("sh"); err == nil {
		cmd := strings.TrimSuffix(strings.SplitN(b.String(), "To undo this: ", 2)[1], "\n")
		out, err := exec.Command(sh, "-c", `printf '%s\n' `+cmd).Output()
		if err != nil || !strings.Contains(string(out), "\n/tmp/Bob's memory\n") {
			t.Errorf("the shell reads it as %q, %v", out, err)
		}
	}
}

// TestPlanTitleNamesTheMode: the preview says what was asked.
func TestPlanTitleNamesTheMode(t *testing.T) {
	for _, c := range []struct{ mode, target, want string }{
		{"to", "", "bring the whole store back to snapshot S:\n"},
		{"removed-since", "", "bring back the entries removed since snapshot S, with their pointers:\n"},
		{"entry", "x.md", "bring back x.md as snapshot S had it, with its pointers:\n"},
		{"file", "x.md", "bring back x.md as snapshot S had it:\n"},
	} {
		var b bytes.Buffer
		(&UndoResult{Plan: &UndoPlan{Mode: c.mode, Target: c.target, Snapshot: "S"}}).WritePlanText(&b)
		if b.String() != c.want {
			t.Errorf("%s: %q, want %q", c.mode, b.String(), c.want)
		}
	}
}

// consolidatedFixture is a store, its first session start, and a
// consolidation: three entries deleted, one truncated, the index
// rewritten with its hooks reworded (one stripped).
func consolidatedFixture(t *testing.T) (*fixture, map[string]string) {
	t.Helper()
	f := newFixture(t, sampleStore())
	before := map[string]string{}
	for p := range sampleStore() {
		before[p] = f.read(p)
	}
	ctx := context.Background()
	if _, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: "s1", Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"project_auth.md", "reference_ci.md", "reference_release.md"} {
		os.Remove(filepath.Join(f.store, p))
	}
	f.write("project_billing.md", "Nightly export.\n")
	f.write(IndexName, "# Memory\n- [Testing](feedback_testing.md) — race detector, always\n- [Billing](project_billing.md)\n")
	return f, before
}

// TestNoteCommandReversesTheConsolidation: the session note offers the
// entries' undo and the whole store's; the latter, run as printed, puts
// every file back byte for byte (the truncated entry, the reworded hooks).
func TestNoteCommandReversesTheConsolidation(t *testing.T) {
	f, before := consolidatedFixture(t)
	notes, err := SessionStart(context.Background(), HookRequest{Store: f.store, DataDir: f.data, Session: "s2", Now: f.clk.now})
	if err != nil || len(notes) == 0 {
		t.Fatalf("notes %q, %v", notes, err)
	}
	note := notes[0]
	for _, want := range []string{"3 entries were deleted", "by something other than this session", "to bring back the deleted entries and their pointers: memcompact undo --removed-since ", "to put the whole store back as it was, also undoing 2 other file change(s) and 2 reworded or stripped hook(s) in MEMORY.md: memcompact undo --to "} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	i := strings.Index(note, "memcompact undo --to ")
	if i < 0 {
		t.Fatalf("no whole-store command in %q", note)
	}
	args := strings.Fields(note[i:])
	// memcompact undo --to ID --store STORE --yes
	if len(args) < 7 || args[2] != "--to" || args[4] != "--store" || args[6] != "--yes" {
		t.Fatalf("command %q", args)
	}
	if _, err := RunUndo(context.Background(), UndoRequest{Store: args[5], DataDir: f.data, To: args[3], Confirm: yes, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	for p, want := range before {
		if got := f.read(p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
}

// TestHistoryNamesRewordedHooks: history names each reworded and stripped
// hook, not only "changed MEMORY.md".
func TestHistoryNamesRewordedHooks(t *testing.T) {
	f, _ := consolidatedFixture(t)
	res, err := RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	res.WriteText(&b)
	for _, want := range []string{
		"MEMORY.md reworded the hook of feedback_testing.md: - [Testing](feedback_testing.md) — run the race detector before every push → - [Testing](feedback_testing.md) — race detector, always",
		"MEMORY.md stripped the hook of project_billing.md: - [Billing](project_billing.md) — exports run nightly at 02:00 UTC → - [Billing](project_billing.md)",
		"MEMORY.md dropped line 3: - [Auth](project_auth.md)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("history lacks %q:\n%s", want, b.String())
		}
	}
}

// TestUndoneDeletionIsNoLongerReported: once the entries are back,
// doctor's Recent and history report the deletion no more.
func TestUndoneDeletionIsNoLongerReported(t *testing.T) {
	f, _ := consolidatedFixture(t)
	ctx := context.Background()
	ws, _, _ := Recent(ctx, RecentRequest{Store: f.store, DataDir: f.data, Within: 1e18, Now: f.clk.now})
	if len(ws) == 0 {
		t.Fatal("no warning before the undo")
	}
	first, _ := mustJournal(t, f).latest()
	if _, err := RunUndo(ctx, UndoRequest{Store: f.store, DataDir: f.data, To: first.ID, Confirm: yes, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	ws, _, _ = Recent(ctx, RecentRequest{Store: f.store, DataDir: f.data, Within: 1e18, Now: f.clk.now})
	if len(ws) != 0 {
		t.Errorf("after the undo doctor still reports %+v", ws)
	}
	res, _ := RunHistory(ctx, HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	if len(res.Warnings) != 0 {
		t.Errorf("after the undo history still warns %+v", res.Warnings)
	}
}

// TestUndoOfAnUndoIsNamedAsSuch: entries an undo removed (undoing an
// earlier undo) are reported as the undo's doing, not another writer's.
func TestUndoOfAnUndoIsNamedAsSuch(t *testing.T) {
	f, _ := consolidatedFixture(t)
	ctx := context.Background()
	start := func(s string) []string {
		n, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: s, Now: f.clk.now})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	start("s2")
	ms, _, _ := mustJournal(t, f).manifests()
	r, err := RunUndo(ctx, UndoRequest{Store: f.store, DataDir: f.data, RemovedSince: ms[0].ID, Confirm: yes, Now: f.clk.now})
	if err != nil {
		t.Fatal(err)
	}
	start("s3")
	if _, err := RunUndo(ctx, UndoRequest{Store: f.store, DataDir: f.data, To: r.Safety, Confirm: yes, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	notes := start("s4")
	if len(notes) == 0 || !strings.Contains(notes[0], "by 'memcompact undo'") || strings.Contains(notes[0], "something other than this session") {
		t.Errorf("note %q, want the removal named as an undo's", notes)
	}
}

// TestSecretFileIsNamedUnprotected: a file kept out of the journal is
// named in the session note and history, and no warning offers an undo
// of it.
func TestSecretFileIsNamedUnprotected(t *testing.T) {
	files := sampleStore()
	files["project_keys.md"] = "PASSWORD=hunter2\n" + strings.Repeat("Notes about the staging keys. ", 20) + "\n"
	f := newFixture(t, files)
	ctx := context.Background()
	sec := func(b []byte) bool { return bytes.Contains(b, []byte("PASSWORD=")) }
	notes, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: "s1", Secret: sec, Now: f.clk.now})
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "project_keys.md (it holds a secret)") || !strings.Contains(notes[0], "no undo can bring them back") {
		t.Errorf("notes %q, %v; want project_keys.md named unprotected", notes, err)
	}
	f.write("project_keys.md", "PASSWORD=x\n")
	if _, err := SessionStart(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: "s2", Secret: sec, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	res, _ := RunHistory(ctx, HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	var b bytes.Buffer
	res.WriteText(&b)
	if !strings.Contains(b.String(), "unprotected: 1 file(s) are kept out of the journal") {
		t.Errorf("history does not name the unprotected file:\n%s", b.String())
	}
	for _, w := range res.Warnings {
		if w.Kind == "content-collapse" && (w.Undo != "" || !strings.Contains(w.Message, "no undo can bring them back")) {
			t.Errorf("the collapse of a secret file offers %q: %s", w.Undo, w.Message)
		}
	}
	if !strings.Contains(b.String(), "undo: none (the journal does not hold the bytes)") {
		t.Errorf("history offers an undo it cannot perform:\n%s", b.String())
	}
}

// TestControlCharactersInNamesAreEscaped: a newline in a file name cannot
// forge a line of history's or undo's text.
func TestControlCharactersInNamesAreEscaped(t *testing.T) {
	res := &HistoryResult{Steps: []Step{{Time: "2026-12-04T10:00:00Z", Changes: []Change{{Kind: "removed", Path: "evil\n  removed  MEMORY.md.md"}}}}}
	var b bytes.Buffer
	res.WriteText(&b)
	if strings.Contains(b.String(), "\n  removed  MEMORY.md.md") || !strings.Contains(b.String(), `"evil\n  removed  MEMORY.md.md"`) {
		t.Errorf("history:\n%s", b.String())
	}
	var u bytes.Buffer
	(&UndoResult{Plan: &UndoPlan{Mode: "to", Snapshot: "S", Actions: []Action{{Kind: "restore", Path: "a\rb.md"}}}}).WritePlanText(&u)
	if !strings.Contains(u.String(), `"a\rb.md"`) {
		t.Errorf("plan: %q", u.String())
	}
}
