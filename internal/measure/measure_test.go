package measure

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMeasure(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name    string
		content string
		want    int
	}{
		{"empty", "", 0},
		{"ascii", "abc\n", 4},
		{"crlf is one", "a\r\nb\r\n", 4},
		{"lone cr is one", "a\rb", 3},
		{"bom not counted", "\uFEFFab", 2},
		{"em dash is one", "a—b", 3},
		{"non-BMP is two", "🚀", 2},
		{"invalid byte is one", "a\xffb", 3},
	}
	asOf := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".md")
			if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := Measure(p, asOf, dir)
			if err != nil {
				t.Fatal(err)
			}
			if m.Value != c.want || m.Date != "2026-12-02" || m.Unit != "characters" || m.Method != Method {
				t.Errorf("got %+v, want value %d", m, c.want)
			}
			if want := "~/" + filepath.Base(p); m.Surface != want {
				t.Errorf("surface %q, want %q", m.Surface, want)
			}
			if v := Validate(m.Row()); !v.Conforming() {
				t.Errorf("own row %q does not validate: %v", m.Row(), v.Problems)
			}
		})
	}
	if _, err := Measure(dir, asOf, dir); err == nil {
		t.Error("measuring a directory did not fail")
	}
	if _, err := Measure(filepath.Join(dir, "missing"), asOf, dir); err == nil {
		t.Error("measuring a missing file did not fail")
	}
}

func TestSurface(t *testing.T) {
	cases := []struct{ abs, home, want string }{
		{"/h/al/.claude/CLAUDE.md", "/h/al", "~/.claude/CLAUDE.md"},
		{"/h/al/.claude/CLAUDE.md", "/h/al/", "~/.claude/CLAUDE.md"},
		{"/H/AL/x.md", "/h/al", "~/x.md"},
		{"/h/alice/x.md", "/h/al", "/h/alice/x.md"},
		{"/srv/x.md", "/h/al", "/srv/x.md"},
		{"/srv/x.md", "", "/srv/x.md"},
		{`C:\Users\al\x.md`, `C:\Users\al`, "~/x.md"},
		{`D:\data\x.md`, `C:\Users\al`, "D:/data/x.md"},
		{"/h/al", "/h/al", "~"},
	}
	for _, c := range cases {
		if got := Surface(c.abs, c.home); got != c.want {
			t.Errorf("Surface(%q, %q) = %q, want %q", c.abs, c.home, got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		record   string
		problems []string
	}{
		{"2026-08-08 | 2548 | characters | ~/.claude/CLAUDE.md | Measure-MemorySurface.ps1", nil},
		{"x-destination_observation: 2026-08-08 | 2548 | characters | ~/.claude/CLAUDE.md | m", nil},
		{"   x-destination_observation:2026-08-08|0|characters|~/a|m", nil},
		{"2026-08-08 | +12 | characters | ~/a | m", nil},
		{"2026-08-08 | -0 | characters | ~/a | m", nil},
		{"2026-08-08 | 1 | characters | ~/a | m | with | pipes", nil},
		{"2026-08-08 | 1 | characters | ~/a |  | tail", nil}, // method is fields 5.. rejoined
		{"", []string{"expected 5 pipe-separated fields (date | value | unit | surface | method); found 1"}},
		{"a | b | c | d", []string{"expected 5 pipe-separated fields (date | value | unit | surface | method); found 4"}},
		{"X-destination_observation: 2026-08-08 | 1 | characters | ~/a | m", []string{"date must be a real date in yyyy-MM-dd form; found 'X-destination_observation: 2026-08-08'"}},
		{"2026-02-30 | 1 | characters | ~/a | m", []string{"date must be a real date in yyyy-MM-dd form; found '2026-02-30'"}},
		{"2026-8-08 | 1 | characters | ~/a | m", []string{"date must be a real date in yyyy-MM-dd form; found '2026-8-08'"}},
		{"0000-01-01 | 1 | characters | ~/a | m", []string{"date must be a real date in yyyy-MM-dd form; found '0000-01-01'"}},
		{"2026-08-08 | 24,978 | characters | ~/a | m", []string{"value must be a whole number of characters; found '24,978'"}},
		{"2026-08-08 | -1 | characters | ~/a | m", []string{"value must be a whole number of characters; found '-1'"}},
		{"2026-08-08 | 2147483648 | characters | ~/a | m", []string{"value must be a whole number of characters; found '2147483648'"}},
		{"2026-08-08 | 1.5 | characters | ~/a | m", []string{"value must be a whole number of characters; found '1.5'"}},
		{"2026-08-08 | 1 | Characters | ~/a | m", []string{"unit must be 'characters' - the store's own counting rule; found 'Characters'"}},
		{"2026-08-08 | 1 | characters |  | m", []string{"surface must name the file measured"}},
		{"2026-08-08 | 1 | characters | ~/a | ", []string{"method must state how the measurement reproduces"}},
		{"bad | x | bytes |  | ", []string{
			"date must be a real date in yyyy-MM-dd form; found 'bad'",
			"value must be a whole number of characters; found 'x'",
			"unit must be 'characters' - the store's own counting rule; found 'bytes'",
			"surface must name the file measured",
			"method must state how the measurement reproduces",
		}},
	}
	for _, c := range cases {
		v := Validate(c.record)
		if strings.Join(v.Problems, "\n") != strings.Join(c.problems, "\n") {
			t.Errorf("Validate(%q) problems:\n%s\nwant:\n%s", c.record, strings.Join(v.Problems, "\n"), strings.Join(c.problems, "\n"))
		}
		wantResult := "conforming"
		if len(c.problems) > 0 {
			wantResult = "non-conforming"
		}
		if v.Result != wantResult || v.Problems == nil {
			t.Errorf("Validate(%q) = %+v, want result %s and a non-nil list", c.record, v, wantResult)
		}
	}
}

// FuzzValidate feeds arbitrary records to the parser: it must never panic,
// must always give a verdict consistent with its problem list, and a record
// it accepts must keep being accepted with the key prefix added.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		"2026-08-08 | 2548 | characters | ~/.claude/CLAUDE.md | Measure-MemorySurface.ps1",
		"x-destination_observation: 2026-08-08 | 0 | characters | ~/a | m | n",
		"a | b", "", "||||", "\xff|\xfe|characters|x|y", "2026-02-29 | +1 | characters | s | m",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, record string) {
		v := Validate(record)
		if v.Conforming() != (v.Result == "conforming") || (v.Result != "conforming" && v.Result != "non-conforming") {
			t.Fatalf("inconsistent verdict %+v", v)
		}
		if v.Conforming() {
			if w := Validate(RecordKey + " " + record); !w.Conforming() && !strings.HasPrefix(strings.TrimLeft(record, " \t"), RecordKey) {
				t.Fatalf("%q conforms but not with its key: %v", record, w.Problems)
			}
		}
	})
}
