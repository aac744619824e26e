package check

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/textfile"
)

// FuzzJudge runs the whole check on arbitrary index bytes: it must never
// panic, must always produce a result that renders in both forms, and must
// report counts only on a clean-or-defects verdict.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{
		testHeader + "\n## E\n- [a](reference_a.md) — a hook\n",
		"<!-- memory-policy-stanza-begin: POLICY.md -->\nx\n<!-- memory-policy-stanza-end -->\n## E\n- [a](reference_a.md), [b](project_b.md) — one shared note for both\n",
		"\ufeff## E\r\n* [x](<y.MD#z> 'q')\r1. [](reference_.md) N/A\n",
		"<!-- memory-policy-stanza-begin: ../x -->\nx\n<!-- MEMORY-POLICY-STANZA-END -->\n## E\n- [a](reference_a.md)\n",
		"## E\n- [o [i](i.md) t](o.md)\n",
	} {
		f.Add([]byte(s))
	}
	refLines := textfile.Lines(testRef)
	missingDir := filepath.Join(f.TempDir(), "absent")
	f.Fuzz(func(t *testing.T, data []byte) {
		// No file is read but a declared policy file, and none exists here.
		opt := Options{IndexPath: filepath.Join(missingDir, "MEMORY.md"), Reference: Reference{Display: "ref"}, Today: testToday}
		r := judge(opt, textfile.FromBytes(opt.IndexPath, data).Text, refLines)
		switch r.Result {
		case Clean, Defects:
			if r.Refusal != nil || len(r.WithoutHook) > r.SubjectsTotal || r.EntriesMatchingKind > r.SubjectsTotal {
				t.Fatalf("inconsistent report %+v", r)
			}
			if r.Result == Clean && (!r.PolicyComplete || len(r.WithoutHook) > 0 || len(r.SharedNotes) > 0) {
				t.Fatalf("clean with defects: %+v", r)
			}
		case Refused:
			if r.Refusal == nil || r.Refusal.Reason == "" {
				t.Fatalf("refusal without a reason: %+v", r)
			}
		default:
			t.Fatalf("result %q", r.Result)
		}
		var b bytes.Buffer
		if err := WriteText(&b, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
	})
}
