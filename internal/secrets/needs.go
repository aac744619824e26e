package secrets

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// needs is a cheap necessary condition for a gitleaks pattern to match in
// a window of text. A rule's keyword says where its pattern might match;
// the pattern's own shape says, far more cheaply than running it, where
// it cannot: Lob's keyword "lob" is in "global" and "blob", but its
// secret is "live_" or "test_" and then 35 hex digits. Go's regexp costs
// about as much to say "no match" over a window as to find one, and most
// windows hold none, so on real stores this was most of a first scan.
//
// A window passes when it holds one of the literals (if the pattern has
// any worth checking) and one of the runs (likewise): every match holds
// both, so a window lacking either holds no match.
type needs struct {
	exact  []string // literals as written, looked for in the text
	folded [][]byte // literals in ASCII lower case, looked for in the lowered text
	// foldKS: a folded literal holds k or s, which a case-insensitive
	// pattern also matches as the Kelvin sign or the long s; a window
	// holding either passes the literal test.
	foldKS bool
	runs   []run
}

// run is a stretch of at least n bytes, each one of the class's.
type run struct {
	in *[256]bool
	n  int
}

const (
	needMinLen = 3  // the shortest literal worth checking: a shorter one is in almost every window
	runMinLen  = 8  // the shortest run worth checking
	maxNeeds   = 16 // the most literals, or runs, of one condition
)

// lit is one literal of a condition.
type lit struct {
	s    string
	fold bool // ASCII lower case, matched ignoring ASCII case
}

// needsOf works out src's condition; nil when it has none worth checking
// (or src does not parse).
func needsOf(src string) *needs {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	n := &needs{}
	if ls := literalsOf(re); ls.ok && minLen(ls.set) >= needMinLen {
		for _, l := range ls.set {
			if l.fold {
				n.folded = append(n.folded, []byte(l.s))
				n.foldKS = n.foldKS || strings.ContainsAny(l.s, "ks")
			} else {
				n.exact = append(n.exact, l.s)
			}
		}
	}
	if rs, ok := runsOf(re); ok {
		n.runs = rs
	}
	if len(n.exact)+len(n.folded)+len(n.runs) == 0 {
		return nil
	}
	return n
}

// literals are literals one of which every match of a pattern holds
// (ok); whole: every match is one of them.
type literals struct {
	set       []lit
	ok, whole bool
}

// literalsOf is what re's matches are known to hold.
func literalsOf(re *syntax.Regexp) literals {
	switch re.Op {
	case syntax.OpLiteral:
		return literalOf(re)
	case syntax.OpCapture:
		return literalsOf(re.Sub[0])
	case syntax.OpPlus:
		ls := literalsOf(re.Sub[0])
		ls.whole = false
		return ls
	case syntax.OpRepeat:
		if re.Min >= 1 {
			ls := literalsOf(re.Sub[0])
			ls.whole = ls.whole && re.Min == 1 && re.Max == 1
			return ls
		}
	case syntax.OpConcat:
		return concatLiterals(re.Sub)
	case syntax.OpAlternate:
		out := literals{ok: true, whole: true}
		for _, sub := range re.Sub {
			ls := literalsOf(sub)
			if !ls.ok || len(out.set)+len(ls.set) > maxNeeds {
				return literals{}
			}
			out.set = append(out.set, ls.set...)
			out.whole = out.whole && ls.whole
		}
		return out
	}
	return literals{}
}

// concatLiterals is literalsOf a concatenation: every match holds a match
// of each part, and parts matched whole side by side join into longer
// literals ("A" then "KIA" or "SIA": "AKIA" or "ASIA"). Of what the parts
// give, the literals whose shortest is longest say the most.
func concatLiterals(parts []*syntax.Regexp) literals {
	var best, cur literals
	consider := func(ls literals) {
		if ls.ok && (!best.ok || minLen(ls.set) > minLen(best.set)) {
			best = ls
		}
	}
	all := true // every part so far matched whole, and joined into cur
	for _, p := range parts {
		ls := literalsOf(p)
		switch {
		case ls.ok && ls.whole && cur.ok && len(cur.set)*len(ls.set) <= maxNeeds:
			cur = literals{set: join(cur.set, ls.set), ok: true, whole: true}
		case ls.ok && ls.whole:
			consider(cur)
			all = all && !cur.ok
			cur = ls
		default:
			consider(cur)
			consider(ls)
			all, cur = false, literals{}
		}
	}
	consider(cur)
	if all && cur.ok && best.ok && minLen(best.set) == minLen(cur.set) {
		best.whole = true
	} else {
		best.whole = false
	}
	return best
}

// join is every literal of a followed by one of b. A literal folded
// either side is folded whole: lower-casing the exact side only weakens
// the test (a text holding "AKIA" holds "akia" once lowered).
func join(a, b []lit) []lit {
	var out []lit
	for _, x := range a {
		for _, y := range b {
			if x.fold || y.fold {
				out = append(out, lit{s: asciiLowerString(x.s) + asciiLowerString(y.s), fold: true})
			} else {
				out = append(out, lit{s: x.s + y.s})
			}
		}
	}
	return out
}

// literalOf is an OpLiteral's literal. A case-insensitive one is kept only
// when it is ASCII: an ASCII letter's case folds to ASCII letters alone,
// but for k and s (see foldKS).
func literalOf(re *syntax.Regexp) literals {
	s := string(re.Rune)
	if re.Flags&syntax.FoldCase == 0 {
		return literals{set: []lit{{s: s}}, ok: true, whole: true}
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return literals{}
		}
	}
	return literals{set: []lit{{s: asciiLowerString(s), fold: true}}, ok: true, whole: true}
}

func asciiLowerString(s string) string { return string(asciiLower(s)) }

func minLen(set []lit) int {
	m := -1
	for _, l := range set {
		if m < 0 || len(l.s) < m {
			m = len(l.s)
		}
	}
	return m
}

// runsOf returns runs one of which every match of re holds: a class
// repeated at least runMinLen times ("[a-f0-9]{35}") is a stretch of that
// many bytes of the class (a character outside ASCII counts as its bytes,
// each in the class: more bytes than characters only weakens the test).
func runsOf(re *syntax.Regexp) ([]run, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return runsOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= runMinLen && re.Sub[0].Op == syntax.OpCharClass {
			return []run{{in: classBytes(re.Sub[0].Rune), n: re.Min}}, true
		}
		if re.Min >= 1 {
			return runsOf(re.Sub[0])
		}
	case syntax.OpPlus:
		return runsOf(re.Sub[0])
	case syntax.OpConcat:
		var best []run
		for _, sub := range re.Sub {
			if rs, ok := runsOf(sub); ok && (best == nil || minRun(rs) > minRun(best)) {
				best = rs
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []run
		for _, sub := range re.Sub {
			rs, ok := runsOf(sub)
			if !ok || len(all)+len(rs) > maxNeeds {
				return nil, false
			}
			all = append(all, rs...)
		}
		return all, len(all) > 0
	}
	return nil, false
}

func minRun(rs []run) int {
	m := -1
	for _, r := range rs {
		if m < 0 || r.n < m {
			m = r.n
		}
	}
	return m
}

// classBytes is the bytes of a character class's characters: its ASCII
// members, and every byte of an encoded character outside ASCII when it
// has any member there.
func classBytes(ranges []rune) *[256]bool {
	var in [256]bool
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			in[r] = true
		}
		if hi >= utf8.RuneSelf {
			for b := utf8.RuneSelf; b < 256; b++ {
				in[b] = true
			}
		}
	}
	return &in
}

// kelvin and longS are the two letters outside ASCII that fold to ASCII
// letters (k and s).
var kelvin, longS = []byte("\u212a"), []byte("\u017f")

// in reports whether the window text[lo:hi] of sc could hold a match.
func (n *needs) in(sc *scanner, lo, hi int) bool {
	return n.hasLiteral(sc.text[lo:hi], sc.lowered()[lo:hi]) && n.hasRun(sc.text[lo:hi])
}

func (n *needs) hasLiteral(text string, lower []byte) bool {
	if len(n.exact)+len(n.folded) == 0 {
		return true
	}
	for _, l := range n.exact {
		if strings.Contains(text, l) {
			return true
		}
	}
	for _, l := range n.folded {
		if bytes.Contains(lower, l) {
			return true
		}
	}
	return n.foldKS && (bytes.Contains(lower, kelvin) || bytes.Contains(lower, longS))
}

func (n *needs) hasRun(text string) bool {
	if len(n.runs) == 0 {
		return true
	}
	for _, r := range n.runs {
		k := 0
		for i := 0; i < len(text); i++ {
			if !r.in[text[i]] {
				k = 0
			} else if k++; k >= r.n {
				return true
			}
		}
	}
	return false
}
