package snapshot

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestNamingSequence(t *testing.T) {
	dir := t.TempDir()
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)
	now := time.Date(2026, 12, 2, 14, 30, 5, 0, time.Local)
	want := []string{
		"main-memory-2026-12-02.md",
		"main-memory-2026-12-02-143005.md",
		"main-memory-2026-12-02-143005-v2.md",
		"main-memory-2026-12-02-143005-v3.md",
	}
	for i, w := range want {
		p, err := Next(dir, "main/main-memory.md", today, now)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Take(dir, "main/main-memory.md", p, []byte{byte('a' + i)}, today, now)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(got) != w {
			t.Errorf("snapshot %d = %s, want %s", i, filepath.Base(got), w)
		}
	}
	// A name taken between Next and Take moves on to the next free one.
	p, _ := Next(dir, "main/main-memory.md", today, now)
	os.WriteFile(p, []byte("intruder"), 0o644)
	got, err := Take(dir, "main/main-memory.md", p, []byte("mine"), today, now)
	if err != nil || filepath.Base(got) != "main-memory-2026-12-02-143005-v5.md" {
		t.Errorf("Take after a race = %s, %v", got, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "intruder" {
		t.Error("an existing snapshot was overwritten")
	}
	l, err := List(dir, "main-memory")
	if err != nil || len(l) != 6 {
		t.Fatalf("List = %d, %v", len(l), err)
	}
	if l[0].Name != want[0] || l[2].Version != 2 || l[1].Date != "2026-12-02 14:30:05" {
		t.Errorf("List order/fields: %+v", l[:3])
	}
	if !Exists(dir, "x/main-memory.md") || Exists(dir, "main.md") {
		t.Error("Exists is wrong")
	}
}

func TestParseName(t *testing.T) {
	for name, base := range map[string]string{
		"notes-2026-01-01-2026-12-02.md":    "notes-2026-01-01",
		"a-b-2026-12-02-010203-v12.md":      "a-b",
		"x.txt-2026-12-02.md":               "x.txt",
		"main-memory-2026-13-02.md":         "",
		"main-memory.md":                    "",
		"main-memory-2026-12-02-1234.md":    "",
		"main-memory-2026-12-02.md.bak":     "",
		"relationship-memory-2026-12-02.md": "relationship-memory",
	} {
		b, _, _, _, ok := ParseName(name)
		if ok != (base != "") || b != base {
			t.Errorf("ParseName(%s) = %q, %v; want %q", name, b, ok, base)
		}
	}
	if Base("topic-diary/topics/docker.MD") != "docker" || Base("notes.txt") != "notes.txt" {
		t.Error("Base is wrong")
	}
}
