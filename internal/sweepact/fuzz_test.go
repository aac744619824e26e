package sweepact

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadPlan: a plan file edited into anything is refused or read, never
// a panic; a plan read is valid, and writing it back reads back the same.
func FuzzReadPlan(f *testing.F) {
	valid := &Plan{SchemaVersion: PlanVersion, Kind: PlanKind, Index: "MEMORY.md", IndexSHA256: "ab", PlannedOn: "2026-12-02",
		Notes: []string{}, Subjects: []Subject{{Identity: "x@2026-01-01", Name: "x", Population: "pointer", Disposition: "demote",
			Decision: Pending, Reason: "r", Evidence: []string{}, Critical: "no"},
			{Identity: "y@unknown", Name: "y", Population: "pointer", Disposition: "dedupe-into", Into: "x@2026-01-01", Decision: Accepted, Reason: "r", Evidence: []string{}}}}
	f.Add(EncodePlan(valid))
	f.Add([]byte(`{"schema_version":1,"kind":"memcompact-sweep-plan","index":"i","index_sha256":"d","planned_on":"2026-12-02","subjects":[{"identity":"a@unknown","disposition":"vanish","decision":"pending"}]}`))
	f.Add([]byte(`{"schema_version":1,"kind":"memcompact-sweep-plan","index":"i","index_sha256":"d","planned_on":"2026-12-02","subjects":[{"identity":"a@unknown","disposition":"keep","decision":"pending"},{"identity":"a@unknown","disposition":"keep","decision":"pending"}]}`))
	f.Add([]byte("not json"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "plan.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		pl, err := ReadPlan(path)
		if err != nil {
			return
		}
		if err := validatePlan(pl); err != nil {
			t.Fatalf("ReadPlan accepted a plan validatePlan refuses: %v", err)
		}
		once := EncodePlan(pl)
		if err := os.WriteFile(path, once, 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := ReadPlan(path)
		if err != nil {
			t.Fatalf("a plan written back does not read: %v\n%s", err, once)
		}
		if twice := EncodePlan(back); !bytes.Equal(once, twice) {
			t.Fatalf("the plan does not round-trip:\n%s\n%s", once, twice)
		}
	})
}

// FuzzRebuildLine: for any pointer line, keeping every segment gives the
// line back byte for byte, each single segment kept carries exactly its
// own subject, and a cut's archive comment reads back as written.
func FuzzRebuildLine(f *testing.F) {
	for _, s := range []string{
		"- **[T](x.md)** — hook",
		"- **[A](a.md)** — ha; **[B](b.md)** — hb/",
		"1. `[A](a.md)` — run `x` / [B](<b c.md>) — v2.",
		"  * Lead: [A](a%20b.md), [B](b.md) | [C](c.md) · end",
		"- [A](a.md)[B](b.md)",
		"- [A](a.md) --> <!-- x --> [B](b.md) ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !utf8.ValidString(line) || strings.ContainsAny(line, "\r\n") {
			return // an index line is decoded text (textfile), one line
		}
		subs := parseLine(line)
		if len(subs) == 0 {
			return
		}
		if got := rebuildLine(line, subs, func(int) bool { return true }); got != line {
			t.Fatalf("every segment kept: %q, want %q", got, line)
		}
		for n := range subs {
			one := rebuildLine(line, subs, func(k int) bool { return k == n })
			got := parseLine(one)
			if len(got) != 1 || got[0].Target != subs[n].Target {
				t.Fatalf("segment %d of %q kept alone is %q: subjects %+v", n, line, one, got)
			}
			c := Cut{Slot: Slot{3, n}, Segment: one, Orig: line, Section: "## S", Prev: 2, PrevText: line}
			meta := encodeCutMeta(c, "abc")
			if strings.Contains(meta[:len(meta)-len(metaSuffix)], "-->") || strings.ContainsAny(meta, "\r\n") {
				t.Fatalf("the comment closes early or breaks the line: %q", meta)
			}
			am := readArchiveMeta([]string{one, meta})
			if len(am.cuts) != 1 || am.cuts[0].Orig != line || am.cuts[0].PrevText != line || am.cuts[0].N != n {
				t.Fatalf("the archive comment does not read back: %q → %+v", meta, am.cuts)
			}
		}
	})
}
