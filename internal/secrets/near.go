package secrets

import (
	"regexp/syntax"
	"strings"
)

// Two of gitleaks' rules have keywords that occur everywhere ("key",
// "token", "ey") and patterns that are slow to run (the generic rule
// compiles to over 500 instructions). For them a necessary condition is
// checked at each keyword occurrence before any pattern runs, and the
// window is cut to what a match using that occurrence can cover. Both
// conditions are read off the patterns (gitleaks 8.30's config), and the
// differential test against gitleaks' own detector guards them.

// nearGeneric is generic-api-key's window:
//
//	(?i)[\w.-]{0,50}?(?:access|auth|…|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}
//	(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}
//	([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)
//
// A match holds a keyword followed, within 23 bytes of [ \t\w.-\s'"], by
// the first byte of an operator; it starts at most 50 bytes of [\w.-]
// before the keyword, and its value runs at most 150 bytes or to the end
// of a run of [a-z0-9+/=].
func nearGeneric(sc *scanner, k kwHit) (span, bool) { return nearAssignment(sc, k, 10) }

// semiGeneric reports whether a gitleaks pattern (src, parsed as re) has the generic rule's
// shape around its keyword — [\w.-]{0,50}?(?:keyword)(?:[ \t\w.-]{0,20})
// [\s'"]{0,3}(?:=|>|…) — with no other branch, as about a hundred of
// gitleaks' service rules do (sumologic, adafruit, cloudflare…): the
// generic rule's keyword test then holds for them too.
func semiGeneric(src string, re *syntax.Regexp, keywords []string) bool {
	if !strings.HasPrefix(src, `(?i)[\w.-]{0,50}?(?:`) && !strings.HasPrefix(src, `[\w.-]{0,50}?(?i:[\w.-]{0,50}?(?:`) {
		return false
	}
	if !strings.Contains(src, `(?:[ \t\w.-]{0,20})[\s'"]{0,3}`) || !strings.Contains(src, `(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`) {
		return false
	}
	if re.Op == syntax.OpAlternate {
		return false
	}
	// Every keyword must be the name before the operator (lob's keywords
	// "live_" and "test_" are in its value instead).
	const open = `{0,50}?(?:`
	i := strings.LastIndex(src[:strings.Index(src, `(?:[ \t\w.-]{0,20})`)], open)
	if i < 0 {
		return false
	}
	name := strings.ToLower(src[i+len(open) : strings.Index(src, `(?:[ \t\w.-]{0,20})`)])
	for _, k := range keywords {
		if !strings.Contains(name, k) {
			return false
		}
	}
	return true
}

// nearAssignment is the window of a generic-shaped rule around keyword k,
// when a value of at least minValue bytes (counting the operator's) may
// follow.
func nearAssignment(sc *scanner, k kwHit, minValue int) (span, bool) {
	text := sc.text
	i := k.end
	for ; i < len(text) && i-k.end <= 23; i++ {
		if isOperatorStart(text[i]) {
			break
		}
		if !isGenericGap(text[i]) {
			return span{}, false
		}
	}
	if i >= len(text) || !isOperatorStart(text[i]) || !genericGap(text[k.end:i]) {
		return span{}, false
	}
	// Then up to 8 bytes of operator, quotes, spaces and '=', and a value
	// of at least 10 bytes counting them.
	j := i
	for j < len(text) && j-i < 8 && strings.IndexByte("=>:|?,`'\" \t\r\n\f\v", text[j]) >= 0 {
		j++
	}
	v := j
	for v < len(text) && v-j < 10 && isValueByte(text[v]) {
		v++
	}
	if v-i < minValue {
		return span{}, false
	}
	lo := k.start
	for lo > 0 && k.start-lo < 100 && isWordish(text[lo-1]) {
		lo--
	}
	hi := min(len(text), i+3+5+150)
	for hi < len(text) && hi-i < maxReach && isValueByte(text[hi]) {
		hi++
	}
	return span{lo, min(len(text), hi+2)}, true
}

func isOperatorStart(c byte) bool {
	return c == '=' || c == '>' || c == ':' || c == '|' || c == '?' || c == ','
}

// isGenericGap: [ \t\w.-] or [\s'"], what may lie between keyword and
// operator.
func isGenericGap(c byte) bool {
	return isWordish(c) || isGenericQuote(c) || c == ' ' || c == '\t'
}

func isGenericQuote(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\'' || c == '"'
}

// genericGap reports whether gap splits into [ \t\w.-]{0,20}[\s'"]{0,3}.
func genericGap(gap string) bool {
	b := 0
	for b < 3 && b < len(gap) && isGenericQuote(gap[len(gap)-1-b]) {
		b++
	}
	a := gap[:len(gap)-b]
	if len(a) > 20 {
		return false
	}
	for i := 0; i < len(a); i++ {
		if c := a[i]; !(isWordish(c) || c == ' ' || c == '\t') {
			return false
		}
	}
	return true
}

// nearJWT is jwt's window: \b(ey[a-zA-Z0-9]{17,}\.ey…): "ey", at least 17
// letters or digits, then ".ey".
func nearJWT(sc *scanner, k kwHit) (span, bool) {
	text := sc.text
	i := k.end
	for i < len(text) && isAlnum(text[i]) && i-k.end < maxReach {
		i++
	}
	if i-k.end < 17 || i+3 > len(text) || text[i] != '.' || text[i+1] != 'e' || text[i+2] != 'y' {
		return span{}, false
	}
	hi := i + 3
	for hi < len(text) && hi-k.start < maxReach && (isValueByte(text[hi]) || text[hi] == '\\') {
		hi++
	}
	return span{max(0, k.start-1), min(len(text), hi+2)}, true
}

func isWordish(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == '-' }

func isValueByte(c byte) bool { return isWordish(c) || c == '+' || c == '/' || c == '=' }

// nearAssign is the window of a rule whose keyword ends a name that an
// assignment follows (password, key-name): after the keyword, only the
// bytes in skip, spaces and tabs may come before a ':' or '='. The window
// is the keyword's line.
func nearAssign(skip string) func(sc *scanner, k kwHit) (span, bool) {
	return func(sc *scanner, k kwHit) (span, bool) {
		text := sc.text
		i := k.end
		for i < len(text) && i-k.end < 16 && (text[i] == ' ' || text[i] == '\t' || strings.IndexByte(skip, text[i]) >= 0) {
			i++
		}
		if i >= len(text) || text[i] != ':' && text[i] != '=' {
			return span{}, false
		}
		n := sc.li.line(k.start)
		ls, le := sc.li.starts[n-1], sc.li.next(n)
		return span{max(ls, k.start-maxReach), min(le, i+maxReach)}, true
	}
}
