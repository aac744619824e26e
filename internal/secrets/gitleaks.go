package secrets

import (
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The gitleaks rule set is gitleaks' own default configuration
// (config/gitleaks.toml in the pinned module), turned into a Go table
// (gitleaks_rules.go) by TestGeneratedRules, which fails when the table
// and the module's TOML differ and rewrites it with -update. Not the
// detect package: it drags in git, archive and reporting code and compiles
// every rule up front (about 130 ms per process, paid by every hook call).
// Not the TOML at run time either: parsing it costs a few milliseconds on
// every hook call, and importing gitleaks' config package runs its
// dependencies' init (viper, zerolog, go-version) in every verb. Each rule
// is compiled on first need.

// glSpec mirrors the parts of gitleaks' configuration format that the
// default rule set uses.
type glSpec struct {
	Allowlist  *glAllowSpec  `toml:"allowlist"` // the older singular form
	Allowlists []glAllowSpec `toml:"allowlists"`
	Rules      []glRuleSpec  `toml:"rules"`
}

type glAllowSpec struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
	TargetRules []string `toml:"targetRules"`
}

type glRuleSpec struct {
	ID          string        `toml:"id"`
	Regex       string        `toml:"regex"`
	SecretGroup int           `toml:"secretGroup"`
	Entropy     float64       `toml:"entropy"`
	Keywords    []string      `toml:"keywords"`
	Path        string        `toml:"path"`
	SkipReport  bool          `toml:"skipReport"`
	Allowlist   *glAllowSpec  `toml:"allowlist"`
	Allowlists  []glAllowSpec `toml:"allowlists"`
	Required    []struct {
		ID          string `toml:"id"`
		WithinLines *int   `toml:"withinLines"`
	} `toml:"required"`
}

// glRule is one content rule, compiled lazily.
type glRule struct {
	id          string
	src         string
	secretGroup int
	entropy     float64
	keywords    []string // lower case
	allow       []*allowlist
	generic     bool

	// shape is the pattern's shape as the rules' generator measured it
	// (gitleaksShapes); nil to measure it on first need.
	shape *ruleShape

	once sync.Once
	re   *regexp.Regexp // nil if the pattern does not compile in Go
	need *needs         // what every match holds, when that can be told
}

// ruleShape is what the scan needs to know of a rule's pattern before it
// runs it: how far a match reaches from its keyword (patternReach),
// whether every keyword is spelled in it (spelledIn), and whether it has
// the generic rule's shape (semiGeneric).
type ruleShape struct {
	lines, width int
	inMatch      bool
	semiGeneric  bool
}

// shapeOf measures the shape of the pattern src with the (lower-case)
// keywords. The generator writes it for every gitleaks rule beside the
// table (gitleaksShapes): parsing a pattern costs a scan some 90,000
// instructions, and a memory file names the keywords of a dozen rules.
func shapeOf(src string, keywords []string) ruleShape {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return ruleShape{lines: manyLines, width: maxReach}
	}
	lines, width := patternReach(re)
	return ruleShape{lines: lines, width: width, inMatch: spelledIn(re, keywords), semiGeneric: semiGeneric(src, re, keywords)}
}

func (r *glRule) regexp() *regexp.Regexp {
	r.once.Do(func() {
		// gitleaks' patterns are written for Go's regexp; one that does not
		// compile is skipped rather than failing every scan.
		r.re, _ = regexp.Compile(r.src)
		if r.re != nil {
			r.need = needsOf(r.src)
		}
	})
	return r.re
}

// allowlist is one gitleaks allowlist, compiled lazily: most scans find
// nothing, and then no allowlist is ever consulted.
type allowlist struct {
	and         bool
	target      string // "", "match" or "line"
	srcs        []string
	stopwords   []string // lower case
	hasPaths    bool     // path and commit conditions can never hold for text
	targetRules map[string]bool

	once    sync.Once
	regexes []*regexp.Regexp
}

func newAllowlist(s glAllowSpec) *allowlist {
	a := &allowlist{
		and:      strings.EqualFold(s.Condition, "AND") || s.Condition == "&&",
		target:   s.RegexTarget,
		srcs:     s.Regexes,
		hasPaths: len(s.Paths) > 0 || len(s.Commits) > 0,
	}
	if a.target == "secret" {
		a.target = ""
	}
	// gitleaks' stop words are lower case already: the table is used as
	// it is, not copied word by word (1,400 words, every process).
	a.stopwords = s.StopWords
	copied := false
	for i, w := range s.StopWords {
		if lw := strings.ToLower(w); lw != w {
			if !copied {
				a.stopwords, copied = slices.Clone(s.StopWords), true
			}
			a.stopwords[i] = lw
		}
	}
	if len(s.TargetRules) > 0 {
		a.targetRules = map[string]bool{}
		for _, id := range s.TargetRules {
			a.targetRules[id] = true
		}
	}
	return a
}

// compiled returns the allowlist's regexes joined into one alternation:
// one match call per finding instead of one per regex, with the same
// answer ("does any match").
func (a *allowlist) compiled() []*regexp.Regexp {
	a.once.Do(func() {
		var ok []string
		for _, src := range a.srcs {
			if _, err := regexp.Compile(src); err == nil {
				ok = append(ok, "(?:"+src+")")
			}
		}
		if len(ok) > 0 {
			a.regexes = []*regexp.Regexp{regexp.MustCompile(strings.Join(ok, "|"))}
		}
	})
	return a.regexes
}

// allows reports whether the allowlist excuses a finding, as gitleaks'
// checkFindingAllowed does. Path and commit conditions name files and
// commits, which text does not have: under "OR" they are ignored, under
// "AND" they fail the allowlist.
func (a *allowlist) allows(rule, secret, match, line string) bool {
	if a.targetRules != nil && !a.targetRules[rule] {
		return false
	}
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	regexOK := false
	if target != "" {
		for _, re := range a.compiled() {
			if re.MatchString(target) {
				regexOK = true
				break
			}
		}
	}
	stopOK := false
	if secret != "" && len(a.stopwords) > 0 {
		lower := strings.ToLower(secret)
		for _, w := range a.stopwords {
			if strings.Contains(lower, w) {
				stopOK = true
				break
			}
		}
	}
	if !a.and {
		return regexOK || stopOK
	}
	if a.hasPaths {
		return false
	}
	ok := len(a.srcs) > 0 || len(a.stopwords) > 0
	if len(a.srcs) > 0 {
		ok = ok && regexOK
	}
	if len(a.stopwords) > 0 {
		ok = ok && stopOK
	}
	return ok
}

// ruleSet is the parsed default configuration.
type ruleSet struct {
	rules  []*glRule
	global []*allowlist
}

var (
	rulesOnce sync.Once
	rules     *ruleSet
)

// gitleaksRules builds the rule set from gitleaksSpec once.
func gitleaksRules() *ruleSet {
	rulesOnce.Do(func() { rules = buildRuleSet(&gitleaksSpec) })
	return rules
}

// applies reports whether a rule of the configuration judges text: path
// rules judge file names, and composite rules need their companions
// within some lines; the default set uses neither for content a memory
// file would hold, so both are skipped rather than half-implemented.
func (s *glRuleSpec) applies() bool {
	return s.Regex != "" && s.Path == "" && !s.SkipReport && len(s.Required) == 0
}

// buildRuleSet makes the rule set of a configuration.
func buildRuleSet(spec *glSpec) *ruleSet {
	rs := &ruleSet{}
	if spec.Allowlist != nil {
		rs.global = append(rs.global, newAllowlist(*spec.Allowlist))
	}
	for _, a := range spec.Allowlists {
		rs.global = append(rs.global, newAllowlist(a))
	}
	measured := spec == &gitleaksSpec && len(gitleaksShapes) == len(spec.Rules)
	for i, s := range spec.Rules {
		if !s.applies() {
			continue
		}
		r := &glRule{
			id:          s.ID,
			src:         s.Regex,
			secretGroup: s.SecretGroup,
			entropy:     s.Entropy,
			generic:     strings.Contains(strings.ToLower(s.ID), "generic"),
		}
		if measured {
			r.shape = &gitleaksShapes[i]
		}
		for _, k := range s.Keywords {
			r.keywords = append(r.keywords, strings.ToLower(k))
		}
		if s.Allowlist != nil {
			r.allow = append(r.allow, newAllowlist(*s.Allowlist))
		}
		for _, a := range s.Allowlists {
			r.allow = append(r.allow, newAllowlist(a))
		}
		rs.rules = append(rs.rules, r)
	}
	return rs
}

// spelledIn reports whether each keyword is written out in the pattern
// (in any letter case), so that a match holds it: "sk_live" in stripe's,
// "live_" in lob's (live|test)_. "airtable" is not in its rule's pattern
// \b(pat[[:alnum:]]{14}\.…): that keyword only has to be near.
func spelledIn(re *syntax.Regexp, keywords []string) bool {
	if len(keywords) == 0 {
		return false
	}
	spelled := strings.ToLower(strings.Join(literalRuns(re), "\x00"))
	for _, k := range keywords {
		if !strings.Contains(spelled, k) {
			return false
		}
	}
	return true
}

// literalRuns returns strings some match of re holds contiguously: its
// literals, and the spellings of runs of literals and alternations of
// literals ((live|test)_ gives live_ and test_).
func literalRuns(re *syntax.Regexp) []string {
	var out []string
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}
	case syntax.OpConcat:
		var run []string
		flush := func() {
			out = append(out, run...)
			run = nil
		}
		for _, sub := range re.Sub {
			p := spellings(sub)
			if p == nil {
				flush()
				out = append(out, literalRuns(sub)...)
				continue
			}
			if run == nil {
				run = p
				continue
			}
			var next []string
			for _, a := range run {
				for _, b := range p {
					next = append(next, a+b)
				}
			}
			if len(next) > 64 {
				flush()
				run = p
				continue
			}
			run = next
		}
		flush()
	default:
		for _, sub := range re.Sub {
			out = append(out, literalRuns(sub)...)
		}
	}
	return out
}

// spellings returns every string re matches when it is a literal or an
// alternation or concatenation of them (at most 64), else nil.
func spellings(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}
	case syntax.OpCapture:
		return spellings(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			p := spellings(sub)
			if p == nil {
				return nil
			}
			out = append(out, p...)
		}
		return out
	case syntax.OpCharClass:
		// A one-letter class of a case-folded literal ([Ss]).
		if len(re.Rune) == 4 && re.Rune[0] == re.Rune[1] && re.Rune[2] == re.Rune[3] && unicode.SimpleFold(re.Rune[0]) == re.Rune[2] {
			return []string{string(re.Rune[0])}
		}
	}
	return nil
}

// gitleaksAllowSignature marks a line its author declared not secret.
const gitleaksAllowSignature = "gitleaks:allow"

// gitleaksRuleSet wraps each gitleaks rule as a keyword-gated rule.
func gitleaksRuleSet() []*rule {
	rs := gitleaksRules()
	out := make([]*rule, 0, len(rs.rules))
	for _, g := range rs.rules {
		// How far a pattern reaches, and whether it has the generic
		// shape, is worked out the first time its keywords occur: most
		// rules never see theirs.
		prep := func(r *rule) {
			sh := g.shape
			if sh == nil {
				m := shapeOf(g.src, g.keywords)
				sh = &m
			}
			r.lines, r.width, r.inMatch = sh.lines, sh.width, sh.inMatch
			switch {
			case g.id == "generic-api-key":
				r.near = nearGeneric
			case g.id == "jwt":
				r.near = nearJWT
			case sh.semiGeneric:
				r.near = func(sc *scanner, k kwHit) (span, bool) { return nearAssignment(sc, k, 1) }
			}
		}
		out = append(out, &rule{id: g.id, keywords: g.keywords, run: g.run, prep: prep})
	}
	return out
}

// run applies one gitleaks rule to text[lo:hi] the way gitleaks' detector
// applies it to a whole fragment: the match trimmed of line breaks, the
// "gitleaks:allow" signature on its lines, the secret group, the entropy
// threshold, then the global and the rule's allowlists.
func (r *glRule) run(sc *scanner, lo, hi int, first bool) []hit {
	re := r.regexp()
	if re == nil || r.need != nil && !r.need.in(sc, lo, hi) {
		return nil
	}
	text := sc.text
	global := gitleaksRules().global
	var hits []hit
	for _, m := range re.FindAllStringIndex(text[lo:hi], -1) {
		m0, m1 := lo+m[0], lo+m[1]
		match := strings.Trim(text[m0:m1], "\n")
		start := m0 + strings.Index(text[m0:m1], match)
		line := matchLines(sc.li, start, start+len(match))
		if strings.Contains(line, gitleaksAllowSignature) {
			continue
		}
		secret, off := secretOf(re, r.secretGroup, match)
		if r.entropy != 0 && shannon(secret) <= r.entropy {
			continue
		}
		if allowed(global, r.id, secret, match, line) || allowed(r.allow, r.id, secret, match, line) {
			continue
		}
		rank := rankSpecific
		if r.generic {
			rank = rankGeneric
		}
		hits = append(hits, hit{rule: r.id, start: start + off, end: start + off + len(secret), rank: rank})
		if first {
			return hits
		}
	}
	return hits
}

func allowed(lists []*allowlist, rule, secret, match, line string) bool {
	for _, a := range lists {
		if a.allows(rule, secret, match, line) {
			return true
		}
	}
	return false
}

// secretOf returns the secret part of a match and its offset in it: the
// rule's secret group, or else the first non-empty group, or else the
// whole match (gitleaks re-matches the trimmed match to find the groups).
func secretOf(re *regexp.Regexp, group int, match string) (string, int) {
	idx := re.FindStringSubmatchIndex(match)
	groups := len(idx) / 2
	if groups < 2 {
		return match, 0
	}
	if group > 0 {
		if group >= groups || idx[2*group] < 0 {
			return match, 0
		}
		return match[idx[2*group]:idx[2*group+1]], idx[2*group]
	}
	for g := 1; g < groups; g++ {
		if idx[2*g] >= 0 && idx[2*g+1] > idx[2*g] {
			return match[idx[2*g]:idx[2*g+1]], idx[2*g]
		}
	}
	return match, 0
}

// matchLines returns the whole lines a match spans, which gitleaks'
// "line" allowlists are applied to; on a long line, only maxReach bytes
// either side of the match, so judging many matches on a 20 MB line does
// not read the line once per match.
func matchLines(li *lineIndex, start, end int) string {
	first := li.line(start)
	last := li.line(max(end-1, start))
	ls, _ := li.bounds(first)
	_, le := li.bounds(last)
	if le-ls > longLine {
		ls, le = max(ls, start-maxReach), min(le, end+maxReach)
	}
	return li.text[ls:le]
}

// shannon is the Shannon entropy of s in bits per character, computed as
// gitleaks computes it (character frequencies over the byte length), so
// its thresholds mean the same here.
func shannon(s string) float64 {
	if s == "" {
		return 0
	}
	var ascii [128]int
	var other map[rune]int
	for _, r := range s {
		if r < 128 {
			ascii[r]++
			continue
		}
		if other == nil {
			other = map[rune]int{}
		}
		other[r]++
	}
	inv := 1 / float64(len(s))
	e := 0.0
	term := func(c int) {
		if c > 0 {
			f := float64(c) * inv
			e -= f * math.Log2(f)
		}
	}
	for _, c := range ascii {
		term(c)
	}
	for _, c := range other {
		term(c)
	}
	return e
}
