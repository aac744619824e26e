package distill

import (
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The word lists live in words/*.txt, one file per language, so that a
// language can be added or corrected without touching code. Each file
// holds phrases under [section] lines; a phrase is compared with Key's
// normalized text: whole words for alphabetic scripts, a substring for
// Chinese, Japanese and Korean (which do not separate words, or attach
// particles to them).
//
//go:embed words/*.txt
var wordFiles embed.FS

// class is a section of the word lists.
type class string

const (
	classFiller   class = "filler"   // a unit that is only this is filler
	classChatter  class = "chatter"  // social talk and session bookkeeping
	classKeep     class = "keep"     // preference, correction, decision, rule: must stay live
	classResult   class = "result"   // a fix, a cause, a lesson, a confirmed outcome
	classReason   class = "reason"   // a unit that begins so gives the reason for the one before
	classNegation class = "negation" // words that turn a statement into its opposite
	classWeak     class = "weak"     // sub-headings of one-off context
	classSkip     class = "skip"     // sub-headings of search aids, never knowledge
	// classPriority marks a statement that must never leave the live file
	// silently: health and safety.
	classPriority class = "priority"
	// classPerson marks a person's attribute that needs no context to be
	// one (a birthday, a spouse, where someone works): also priority.
	classPerson class = "person"
	// classAttribute marks what is a person's attribute only when a person
	// is the subject (children, age, role, likes, a phone number): priority
	// in a people file, or when the sentence's subject is a named person.
	classAttribute class = "attribute"
	// classReversal marks a statement that replaces an earlier one of the
	// same subject ("… on Sundays instead").
	classReversal class = "reversal"
)

var classes = []class{classFiller, classChatter, classKeep, classResult, classReason, classNegation, classWeak, classSkip, classPriority, classPerson, classAttribute, classReversal}

// lexicon is every language's phrases, by class.
type lexicon struct {
	whole map[class]map[string]bool // every normalized phrase, for equality
	words map[class]map[string]bool // alphabetic phrases, matched on word boundaries
	maxN  map[class]int             // the most words in an alphabetic phrase
	maxB  map[class]int             // the most bytes in an alphabetic phrase
	cjk   map[class][]string        // CJK phrases, matched anywhere, longest first
}

// lex is loaded on first use, so that verbs that never distill do not
// pay for it at start-up.
var lex = func() func() *lexicon { return sync.OnceValue(mustLoad) }()

func mustLoad() *lexicon {
	l, err := loadLexicon()
	if err != nil {
		panic(err) // the embedded lists are part of the binary; a test covers them
	}
	return l
}

func loadLexicon() (*lexicon, error) {
	files, err := wordFiles.ReadDir("words")
	if err != nil {
		return nil, err
	}
	l := &lexicon{whole: map[class]map[string]bool{}, words: map[class]map[string]bool{}, maxN: map[class]int{}, maxB: map[class]int{}, cjk: map[class][]string{}}
	for _, f := range files {
		raw, err := wordFiles.ReadFile("words/" + f.Name())
		if err != nil {
			return nil, err
		}
		var cur class
		for i, line := range strings.Split(string(raw), "\n") {
			t := strings.TrimSpace(line)
			switch {
			case t == "" || strings.HasPrefix(t, "#"):
				continue
			case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]"):
				cur = class(t[1 : len(t)-1])
				if !knownClass(cur) {
					return nil, fmt.Errorf("words/%s:%d: unknown section %s", f.Name(), i+1, t)
				}
				continue
			case cur == "":
				return nil, fmt.Errorf("words/%s:%d: phrase before any [section]", f.Name(), i+1)
			}
			k := Key(t)
			if k == "" {
				return nil, fmt.Errorf("words/%s:%d: %q has no letters", f.Name(), i+1, t)
			}
			if l.whole[cur] == nil {
				l.whole[cur], l.words[cur] = map[string]bool{}, map[string]bool{}
			}
			l.whole[cur][k] = true
			if hasCJK(k) {
				l.cjk[cur] = append(l.cjk[cur], k)
				continue
			}
			l.words[cur][k] = true
			l.maxN[cur] = max(l.maxN[cur], strings.Count(k, " ")+1)
			l.maxB[cur] = max(l.maxB[cur], len(k))
		}
	}
	for c := range l.cjk {
		sort.Slice(l.cjk[c], func(i, j int) bool { return len(l.cjk[c][i]) > len(l.cjk[c][j]) })
	}
	return l, nil
}

// match returns the spans [start, end) of k that are phrases of class c:
// alphabetic phrases on word boundaries, longest first at each word; CJK
// phrases anywhere. all false stops at the first.
func match(k string, c class, all bool) [][2]int {
	var out [][2]int
	if ws := lex().words[c]; len(ws) > 0 {
		var starts, ends []int
		in := false
		for i := 0; i < len(k); i++ {
			if k[i] == ' ' {
				if in {
					ends, in = append(ends, i), false
				}
			} else if !in {
				starts, in = append(starts, i), true
			}
		}
		if in {
			ends = append(ends, len(k))
		}
		maxB := lex().maxB[c]
		for i := 0; i < len(starts); i++ {
			for n := min(lex().maxN[c], len(starts)-i); n >= 1; n-- {
				// A span longer than every phrase is not looked up: hashing
				// a long word (a 20 MB blob) for nothing is what it saves.
				if ends[i+n-1]-starts[i] <= maxB && ws[k[starts[i]:ends[i+n-1]]] {
					out = append(out, [2]int{starts[i], ends[i+n-1]})
					if !all {
						return out
					}
					i += n - 1
					break
				}
			}
		}
	}
	if cj := lex().cjk[c]; len(cj) > 0 && hasCJK(k) {
		for _, p := range cj {
			for from := 0; ; {
				j := strings.Index(k[from:], p)
				if j < 0 {
					break
				}
				out = append(out, [2]int{from + j, from + j + len(p)})
				if !all {
					return out
				}
				from += j + len(p)
			}
		}
	}
	return out
}

// blank replaces the phrases of class c in k by spaces and collapses them.
func blank(k string, c class) string {
	spans := match(k, c, true)
	if len(spans) == 0 {
		return k
	}
	b := []byte(k)
	for _, s := range spans {
		for i := s[0]; i < s[1]; i++ {
			b[i] = ' '
		}
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

func knownClass(c class) bool {
	for _, k := range classes {
		if k == c {
			return true
		}
	}
	return false
}

// has reports whether the normalized text k holds a phrase of class c.
func has(k string, c class) bool { return len(match(k, c, false)) > 0 }

// is reports whether the normalized text k is exactly a phrase of class c.
func is(k string, c class) bool { return lex().whole[c][k] }

// hasCJK reports whether s holds a Han, Hiragana, Katakana or Hangul letter.
// Every such letter is at U+1100 or above, so its UTF-8 form starts with a
// byte of 0xE1 or more: the bytes before one (ASCII, two-byte letters,
// continuation bytes) are skipped without decoding, which keeps a long
// ASCII line cheap.
func hasCJK(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < 0xE1 {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
		i += n
	}
	return false
}

// subjectKey is k without its negation words: two statements with the
// same subject key but different keys say opposite things.
func subjectKey(k string) string { return blank(k, classNegation) }
