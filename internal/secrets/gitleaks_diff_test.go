package secrets

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/memcompact/memcompact/internal/secrets/secretstest"
	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// sample generates a string the pattern re matches (most of the time:
// anchors and word boundaries are not planned for, so callers check).
func sample(re *syntax.Regexp, r *rand.Rand) string {
	var b strings.Builder
	var gen func(re *syntax.Regexp)
	reps := func(lo, hi int) int {
		if hi < 0 || hi > lo+3 {
			hi = lo + 3
		}
		return lo + r.IntN(hi-lo+1)
	}
	gen = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			for _, c := range re.Rune {
				if re.Flags&syntax.FoldCase != 0 && r.IntN(2) == 0 {
					c = unicode.ToUpper(c)
				}
				b.WriteRune(c)
			}
		case syntax.OpCharClass:
			b.WriteRune(classRune(re.Rune, r))
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('.') // most often an unescaped dot meant as one
		case syntax.OpCapture:
			gen(re.Sub[0])
		case syntax.OpStar:
			for range reps(0, -1) {
				gen(re.Sub[0])
			}
		case syntax.OpPlus:
			for range reps(1, -1) {
				gen(re.Sub[0])
			}
		case syntax.OpQuest:
			if r.IntN(2) == 0 {
				gen(re.Sub[0])
			}
		case syntax.OpRepeat:
			for range reps(re.Min, re.Max) {
				gen(re.Sub[0])
			}
		case syntax.OpConcat:
			for _, s := range re.Sub {
				gen(s)
			}
		case syntax.OpAlternate:
			gen(re.Sub[r.IntN(len(re.Sub))])
		}
	}
	gen(re)
	return b.String()
}

// classRune picks a printable ASCII rune of a class when it has one, so
// samples read like text (no line breaks, no control characters).
func classRune(ranges []rune, r *rand.Rand) rune {
	var ok []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		for c := max(ranges[i], 0x21); c <= min(ranges[i+1], 0x7e); c++ {
			ok = append(ok, c)
		}
	}
	if len(ok) == 0 {
		return ranges[0]
	}
	return ok[r.IntN(len(ok))]
}

// plantedRuleTexts returns, for every gitleaks rule this package applies,
// up to n texts in which the rule's pattern matches, each a line of
// context with the sample in it.
func plantedRuleTexts(t *testing.T, n int) (texts []string, rulesCovered int) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, g := range gitleaksRules().rules {
		re := g.regexp()
		p, err := syntax.Parse(g.src, syntax.Perl)
		if re == nil || err != nil {
			continue
		}
		got := 0
		for try := 0; try < 40*n && got < n; try++ {
			s := sample(p, r)
			text := "- note for " + g.id + ": " + s + "\n- done\n"
			if len(g.keywords) > 0 && !hasAny(strings.ToLower(s), g.keywords) {
				// The keyword on the line: a rule runs on the lines its
				// keywords are on (gitleaks: anywhere in the text).
				text = "- " + g.keywords[0] + " " + g.id + ": " + s + "\n- done\n"
			}
			if re.MatchString(text) {
				texts = append(texts, text)
				got++
			}
		}
		if got > 0 {
			rulesCovered++
		}
	}
	return texts, rulesCovered
}

// TestGitleaksDifferential proves the keyword-gated, windowed scan finds
// exactly what gitleaks' own detector finds — same rule, same secret, as
// often — over a planted corpus of samples of every rule, the real stores,
// and a corpus of ordinary text (hashes, UUIDs, URLs with queries, base64).
// Rules this package does not apply to text (path rules, composite rules
// that need a companion finding) are left out of the comparison.
func TestGitleaksDifferential(t *testing.T) {
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	d.MaxDecodeDepth = 0
	ours := map[string]bool{}
	for _, g := range gitleaksRules().rules {
		ours[g.id] = true
	}

	planted, covered := plantedRuleTexts(t, 4)
	var ordinary []string
	for _, s := range secretstest.Lookalikes(5, 600) {
		ordinary = append(ordinary, s.Text)
	}
	ordinary = append(ordinary, memoryText(64<<10), base64Text(64<<10, true))
	var real []string
	root := testshared.RealStores(t)
	filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if f, err := textfile.Read(path); err == nil {
				real = append(real, f.Text)
			}
		}
		return nil
	})

	for _, c := range []struct {
		name  string
		texts []string
	}{{"planted", planted}, {"ordinary", ordinary}, {"real stores", real}} {
		findings, diffs := 0, 0
		for _, text := range c.texts {
			want := map[string]int{}
			for _, f := range d.DetectString(text) {
				if ours[f.RuleID] {
					want[f.RuleID+":"+f.Secret]++
				}
			}
			got := map[string]int{}
			for _, h := range scanGitleaksOnly(text) {
				got[h.rule+":"+text[h.start:h.end]]++
			}
			findings += len(want)
			if diff := mapDiff(want, got); diff != "" {
				diffs++
				if diffs <= 10 {
					t.Errorf("%s: findings differ (-gitleaks +ours):\n%s", c.name, diff)
				}
			}
		}
		t.Logf("%s: %d texts, %d gitleaks findings, %d texts differ", c.name, len(c.texts), findings, diffs)
	}
	if covered < len(ours)*9/10 || len(planted) < 500 {
		t.Errorf("planted corpus covers %d of %d rules with %d texts", covered, len(ours), len(planted))
	}
	t.Logf("planted corpus: %d texts covering %d of %d rules", len(planted), covered, len(ours))
}

func mapDiff(want, got map[string]int) string {
	var lines []string
	for k, n := range want {
		if got[k] != n {
			lines = append(lines, fmt.Sprintf("- %s (%d)", redactKey(k), n))
		}
	}
	for k, n := range got {
		if want[k] != n {
			lines = append(lines, fmt.Sprintf("+ %s (%d)", redactKey(k), n))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

var keyRE = regexp.MustCompile(`^([^:]*:)(.{0,6})`)

func redactKey(k string) string { return keyRE.ReplaceAllString(k, "$1$2…") }

func hasAny(s string, subs []string) bool {
	for _, k := range subs {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}
