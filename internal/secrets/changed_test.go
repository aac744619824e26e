package secrets

import (
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// scanChangedWant is ScanChanged's contract: Scan's findings whose secret
// lies at least partly in text[lo:hi] (none when the range is empty).
func scanChangedWant(text string, lo, hi int) []Finding {
	if lo >= hi {
		return nil
	}
	hits := scan(text, false)
	all := render(text, hits)
	var out []Finding
	for i, h := range hits {
		if h.start < hi && lo < h.end {
			out = append(out, all[i])
		}
	}
	return out
}

func checkChanged(t *testing.T, name, text string, lo, hi int) {
	t.Helper()
	got, want := ScanChanged(text, lo, hi), scanChangedWant(text, lo, hi)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s [%d:%d]: ScanChanged = %+v\nScan's findings there = %+v", name, lo, hi, got, want)
	}
}

// TestScanChangedIsScan proves ScanChanged reports exactly Scan's findings
// in the range, over a planted secret of every rule placed inside a real
// store's text and the real stores' own files, for ranges of every kind:
// one line, a few lines, part of a line, a secret cut in half, the whole.
func TestScanChangedIsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var real []string
	filepath.WalkDir(testshared.RealStores(t), func(path string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if f, err := textfile.Read(path); err == nil && len(f.Text) > 0 {
				real = append(real, f.Text)
			}
		}
		return nil
	})
	planted, _ := plantedRuleTexts(t, 2)
	ranges := func(text string, n int) [][2]int {
		out := [][2]int{{0, len(text)}}
		for range n {
			a := r.IntN(len(text) + 1)
			b := min(len(text), a+r.IntN(400))
			out = append(out, [2]int{a, b})
		}
		return out
	}
	texts := map[string]string{}
	for i, p := range planted {
		host := real[r.IntN(len(real))]
		at := r.IntN(len(host) + 1)
		if nl := strings.IndexByte(host[at:], '\n'); nl >= 0 {
			at += nl + 1
		} else {
			at = len(host)
		}
		texts["planted "+string(rune('a'+i%26))+p[:min(20, len(p))]] = host[:at] + p + host[at:]
	}
	for i, s := range real {
		texts["real "+string(rune('a'+i%26))] = s
	}
	for name, text := range texts {
		for _, rg := range ranges(text, 3) {
			checkChanged(t, name, text, rg[0], rg[1])
		}
		// The planted line itself, as an edit that adds it.
		if i := strings.Index(text, "- note for "); i >= 0 {
			checkChanged(t, name, text, i, i+strings.IndexByte(text[i:], '\n')+1)
		}
	}
	for _, s := range []string{"", "x", ghPAT, privKey, "## Secrets\n- staging: Xk9!mQ2#\n- prod: Zr8?pL3$\n"} {
		for lo := 0; lo <= len(s); lo += max(1, len(s)/7) {
			for hi := lo; hi <= len(s); hi += max(1, len(s)/5) {
				checkChanged(t, "seed", s, lo, hi)
			}
		}
	}
}

func FuzzScanChanged(f *testing.F) {
	for _, s := range []string{ghPAT, "API_KEY=abcd1234 and token: Zq8Lw3nRzq8Lw3nR", privKey, "### Credentials\n- staging: Xk9!mQ2#\n```\n## x\n```",
		"Authorization: Basic dXNlcjpwYXNz\npostgres://u:p4ss@h/db " + randTok} {
		f.Add(s, uint16(3), uint16(40))
	}
	f.Fuzz(func(t *testing.T, text string, a, b uint16) {
		lo, hi := int(a)%(len(text)+1), int(b)%(len(text)+1)
		if lo > hi {
			lo, hi = hi, lo
		}
		checkChanged(t, "fuzz", text, lo, hi)
	})
}
