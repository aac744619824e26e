package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode"
)

// ScanValues is Scan that also returns the distinct secret values found,
// for a caller that must look for them elsewhere (compaction checks that
// none comes back from a summarizer in any disguise; see Encoded). The
// values are secrets: keep them in memory, never print or store them.
func ScanValues(text string) ([]Finding, []string) {
	hits := scan(text, false)
	seen := map[string]bool{}
	var vals []string
	for _, h := range hits {
		if v := text[h.start:h.end]; !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	return render(text, hits), vals
}

// minEncoded is the shortest secret Encoded looks for: a shorter one
// would turn up by chance in ordinary text, encoded or not.
const minEncoded = 6

// Encoded looks in text for each of values as it is and in the encodings
// a model could cheaply put it in: hexadecimal (either case), base64
// (standard and URL alphabets, padded or not, at each of the three byte
// alignments it can have inside a longer encoded text), reversed, and
// spaced out (any whitespace between its characters). Each value found is
// one finding named "encoded-secret (<encoding>)"; the excerpt never shows
// the value.
func Encoded(text string, values []string) []Finding {
	if len(values) == 0 || text == "" {
		return nil
	}
	li := newLineIndex(text)
	squeezed, at := squeeze(text)
	var out []Finding
	for _, v := range values {
		if len(v) < minEncoded {
			continue
		}
		found := false
		for _, f := range forms(v) {
			if i := strings.Index(text, f.s); i >= 0 {
				out = append(out, encodedFinding(text, li, i, f.name))
				found = true
				break
			}
		}
		if s := squeezeString(v); !found && len(s) >= minEncoded {
			if i := strings.Index(squeezed, s); i >= 0 {
				out = append(out, encodedFinding(text, li, at[i], "spaced"))
			}
		}
	}
	return out
}

type form struct{ name, s string }

// forms lists the strings v can appear as.
func forms(v string) []form {
	fs := []form{{"plain", v}, {"hex", hex.EncodeToString([]byte(v))}, {"hex", strings.ToUpper(hex.EncodeToString([]byte(v)))}, {"reversed", reverse(v)}}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		// Inside a longer text, v starts at byte 0, 1 or 2 of a 3-byte
		// group; the groups wholly inside v encode the same either way.
		for skip := 0; skip < 3 && len(v)-skip >= 3; skip++ {
			body := v[skip:]
			body = body[:len(body)/3*3]
			if e := enc.EncodeToString([]byte(body)); len(e) >= 8 {
				fs = append(fs, form{"base64", e})
			}
		}
	}
	return fs
}

func encodedFinding(text string, li *lineIndex, i int, how string) Finding {
	n := li.line(i)
	ls, _ := li.bounds(n)
	ctx := tail(clean(text[max(ls, i-16*maxContext):i]), maxContext)
	return Finding{Line: n, Rule: "encoded-secret (" + how + ")", Excerpt: ctx + "…****"}
}

// squeeze drops whitespace from text and maps each kept byte back to its
// offset.
func squeeze(text string) (string, []int) {
	var b strings.Builder
	var at []int
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			b.WriteByte(c)
			at = append(at, i)
		}
	}
	return b.String(), at
}

func squeezeString(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}
