package sweepact

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
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
