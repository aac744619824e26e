package secrets

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// checkSectionsNamed holds scanSections, which asks whether a list item's
// title names secrets only on lines where the keyword pass found a
// section word (or that are not ASCII), to the same pass asking on every
// line.
func checkSectionsNamed(t *testing.T, name, text string) {
	t.Helper()
	rules, kp := allRules()
	pos := kp.positions(text, len(rules))
	var words []kwHit
	for i, r := range rules {
		if r.run == nil {
			words = pos[i]
		}
	}
	sc := newScanner(text)
	var every []kwHit // a word at the end of every line: each line asks
	for _, l := range linesOf(text, 0, len(text)) {
		every = append(every, kwHit{l.lo, max(l.hi, l.lo+1)})
	}
	got, want := sc.scanSections(false, words), sc.scanSections(false, every)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: scanSections = %v, asking on every line = %v", name, got, want)
	}
}

func TestSectionsAskOnlyNamedLines(t *testing.T) {
	filepath.WalkDir(testshared.RealStores(t), func(path string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if f, err := textfile.Read(path); err == nil {
				checkSectionsNamed(t, path, f.Text)
			}
		}
		return nil
	})
	for _, s := range sectionSeeds {
		checkSectionsNamed(t, "seed", s)
	}
}

var sectionSeeds = []string{
	"- **Secrets for prod**: Xk9!mQ2#vL\n  - staging: Zr8?pL3$\n- next\n",
	"* API \u212Aeys (staging): Xk9!mQ2#vL Tr0ub4dor&3\n",
	"1. \u0130ogins: Tr0ub4dor&3\n",
	"- 2026-01-03 — Credentials: x9Km2Qp7\r\n- Tokens:\r  t0K3nV4lu3x\n",
	"## Secrets\n- staging: Xk9!mQ2#\n```\n## x\n```\n- PASSWORDS: Tr0ub4dor&3\n",
}

func FuzzSectionsNamed(f *testing.F) {
	for _, s := range sectionSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkSectionsNamed(t, "fuzz", text)
	})
}
