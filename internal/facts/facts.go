// Package facts extracts the facts a compaction must not lose from a piece
// of Markdown, and checks that a summary still holds them.
//
// A fact is a short literal string that a faithful summary has to keep
// character for character, because changing it changes what the memory
// says. Extract finds, line by line (a fact never spans lines):
//
//   - code: the content of an inline code span (`docker ps -a`), and every
//     non-blank line inside a fenced code block;
//   - url: http:// and https:// addresses, trailing punctuation trimmed;
//   - command: the rest of a line that starts with "$ " (a shell prompt);
//   - path: a token starting with /, ~ or . and holding a "/" (./run,
//     ~/.claude, /etc/hosts), one with two or more "/" (a/b/c), one whose
//     last segment has a dot (docs/a.md) or that ends in "/" (src/) — so
//     and/or, n/a and I/O are not paths — or a file name with a known
//     extension (settings.json, main.go);
//   - version: 1.2, v2.0.1, 1.16.0-rc1 (two or more dot-separated numbers);
//   - date: YYYY-MM-DD;
//   - quantity: a number with a unit (30 s, 500 lines, 8 GB, 95%, $20);
//   - setting: KEY=value, and "key: value" where the key is one word
//     (optionally **bold**) and the value at most four words.
//
// Code spans and URLs are found first and masked, so a path inside a URL or
// a version inside a code span is not counted twice. A run of more than
// MaxToken bytes without a space (base64, minified code) is a blob, not a
// path, version, date, quantity or setting: it is skipped, which keeps the
// work linear on a 20 MB line. Duplicates are
// dropped; the order is the order of first appearance.
//
// Holds checks presence: a fact is held by a text when the text contains it
// after runs of whitespace are collapsed to one space on both sides. The
// check is deliberately literal: a summary that rewrites "port: 3000" as
// "port 3000" has lost the fact as written, and the compaction says so.
package facts

import (
	"index/suffixarray"
	"strings"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Kind is a kind of fact.
type Kind string

// Kinds of fact.
const (
	Code     Kind = "code"
	URL      Kind = "url"
	Command  Kind = "command"
	Path     Kind = "path"
	Version  Kind = "version"
	Date     Kind = "date"
	Quantity Kind = "quantity"
	Setting  Kind = "setting"
)

// Fact is one fact.
type Fact struct {
	Kind Kind   `json:"kind"`
	Text string `json:"text"`
	Line int    `json:"line"` // 1-based line in the text it was extracted from
}

var (
	urlRE      = lazyre.New(`https?://[^\s<>()\[\]"'` + "`" + `]+`)
	fenceRE    = lazyre.New("^ {0,3}(`{3,}|~{3,})")
	promptRE   = lazyre.New(`^\s*(?:[-*+]\s+)?\$ (\S.*)$`)
	pathRE     = lazyre.New(`(?:^|[\s(\["'])((?:~|\.{1,2})?/?(?:[\w.@+-]+/)+[\w.@+-]*|[\w@+-][\w.@+-]*\.(?:` + extensions + `))(?:$|[\s)\]"',;:!?]|\.(?:\s|$))`)
	versionRE  = lazyre.New(`\bv?\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?\b`)
	dateRE     = lazyre.New(`\b\d{4}-\d{2}-\d{2}\b`)
	quantityRE = lazyre.New(`(?i)(?:\$\d[\d,]*(?:\.\d+)?|\b\d[\d,]*(?:\.\d+)?(?:\s?(?:%|°[cf])|\s?(?:` + units + `)\b))`)
	settingRE  = lazyre.New(`\b[A-Za-z_][A-Za-z0-9_.-]*=[^\s,;]+`)
	keyValueRE = lazyre.New(`^\s*(?:[-*+]\s+|\d+[.)]\s+)?((?:\*\*[A-Za-z][\w .-]{0,30}\*\*|[A-Za-z_][\w.-]{0,40}):\s+(\S+(?:\s+\S+){0,3}))\s*$`)
)

const extensions = `md|go|mod|sum|py|js|mjs|cjs|ts|tsx|jsx|json|jsonl|yaml|yml|toml|ini|cfg|conf|env|txt|csv|log|sh|bash|zsh|ps1|psm1|bat|cmd|rs|c|h|cc|cpp|hpp|java|kt|swift|rb|php|html|css|scss|sql|xml|lock|gradle|tf|lua|vue|svelte|ipynb|pdf|png|jpg|svg|zip|gz|tar|exe|dll|so|dylib|plist|service|dockerfile`

const units = `ms|msec|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|b|bytes?|kb|kib|mb|mib|gb|gib|tb|tib|k|m|lines?|chars?|characters?|tokens?|words?|entries|entry|files?|px|em|rem|pt|x|rpm|fps|hz|khz|mhz|ghz|usd|eur|gbp|cores?|threads?|retries|attempts|steps?|items?|rows?|commits?|tests?`

// Extract returns the facts of text.
func Extract(text string) []Fact {
	var out []Fact
	seen := map[Fact]bool{}
	add := func(k Kind, s string, line int) {
		s = strings.TrimSpace(s)
		if s == "" {
			return
		}
		key := Fact{Kind: k, Text: s}
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, Fact{Kind: k, Text: s, Line: line})
	}
	var fence string
	for i, line := range textfile.Lines(text) {
		ln := i + 1
		if fence != "" {
			if m := fenceRE().FindStringSubmatch(line); m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(line[len(m[0]):]) == "" {
				fence = ""
				continue
			}
			add(Code, line, ln)
			continue
		}
		if m := fenceRE().FindStringSubmatch(line); m != nil && !(m[1][0] == '`' && strings.Contains(line[len(m[0]):], "`")) {
			fence = m[1]
			continue
		}
		lineFacts(line, ln, add)
	}
	return out
}

// lineFacts extracts the facts of one line outside code fences.
func lineFacts(line string, ln int, add func(Kind, string, int)) {
	// Cheap byte tests first: most lines hold no fact, and the regular
	// expressions are the cost of a compaction.
	hasDigit := strings.ContainsAny(line, "0123456789")
	if strings.Contains(line, "$ ") {
		if m := promptRE().FindStringSubmatch(line); m != nil {
			add(Command, m[1], ln)
		}
	}
	if strings.IndexByte(line, ':') >= 0 {
		if m := keyValueRE().FindStringSubmatch(line); m != nil {
			add(Setting, m[1], ln)
		}
	}
	masked := []byte(line)
	mask := func(loc []int) {
		for j := loc[0]; j < loc[1]; j++ {
			masked[j] = ' '
		}
	}
	if strings.IndexByte(line, '`') < 0 && !hasDigit && !strings.ContainsAny(line, "/.=:$") {
		return
	}
	for _, sp := range codeSpans(line) {
		add(Code, line[sp[2]:sp[3]], ln)
		mask(sp[:2])
	}
	for _, loc := range urlIndexes(line, masked) {
		u := strings.TrimRight(line[loc[0]:loc[1]], ".,;:!?*_")
		add(URL, u, ln)
		mask(loc)
	}
	rest := dropBlobs(string(masked))
	if strings.IndexByte(rest, '=') >= 0 {
		for _, m := range settingRE().FindAllString(rest, -1) {
			add(Setting, m, ln)
		}
	}
	var paths [][]string
	if strings.ContainsAny(rest, "/.") {
		paths = pathRE().FindAllStringSubmatch(rest, -1)
	}
	for _, m := range paths {
		p := strings.TrimRight(m[1], ".")
		if p == "/" || p == "" || strings.Trim(p, "./~") == "" || !pathLike(p) {
			continue
		}
		add(Path, p, ln)
	}
	if !hasDigit {
		return
	}
	for _, m := range dateRE().FindAllString(rest, -1) {
		add(Date, m, ln)
	}
	for _, loc := range versionRE().FindAllStringIndex(rest, -1) {
		v := rest[loc[0]:loc[1]]
		// A date's parts are not a version.
		if dateRE().MatchString(rest[max(0, loc[0]-5):min(len(rest), loc[1]+6)]) && !strings.Contains(v, ".") {
			continue
		}
		add(Version, v, ln)
	}
	for _, m := range quantityRE().FindAllString(rest, -1) {
		add(Quantity, m, ln)
	}
}

// pathLike tells a path from a slashed pair of words: and/or, n/a, I/O and
// read/write are not paths, ./run, ~/x, /etc/hosts, a/b/c and docs/a.md are.
func pathLike(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, ".") || strings.Count(p, "/") >= 2 || !strings.Contains(p, "/") {
		return true
	}
	return strings.Contains(p[strings.LastIndexByte(p, '/'):], ".") || strings.HasSuffix(p, "/")
}

// codeSpans finds inline code spans: a run of n backticks up to the next
// run of exactly n. Each result is {start, end, contentStart, contentEnd}.
func codeSpans(line string) [][4]int {
	var out [][4]int
	run := func(i int) int {
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		return j - i
	}
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := run(i)
		closed := false
		for j := i + n; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			m := run(j)
			if m == n {
				out = append(out, [4]int{i, j + m, i + n, j})
				i, closed = j+m, true
				break
			}
			j += m
		}
		if !closed {
			i += n
		}
	}
	return out
}

// urlIndexes finds URLs in the masked line, skipping the search when the
// line cannot hold one.
func urlIndexes(line string, masked []byte) [][]int {
	if !strings.Contains(line, "://") {
		return nil
	}
	return urlRE().FindAllStringIndex(string(masked), -1)
}

// Normalize collapses every run of whitespace to one space and trims.
func Normalize(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Holds reports whether text contains fact (whitespace-normalized).
func Holds(text string, f Fact) bool {
	return strings.Contains(Normalize(text), Normalize(f.Text))
}

// Missing returns the facts that text does not hold.
func Missing(fs []Fact, text string) []Fact {
	norm := Normalize(text)
	contains := func(sub string) bool { return strings.Contains(norm, sub) }
	if len(fs) > 64 && len(norm) > 64<<10 {
		// Many facts against a large text: one scan per fact would make
		// verifying a big file quadratic; a suffix array answers each
		// fact in logarithmic time.
		idx := suffixarray.New([]byte(norm))
		contains = func(sub string) bool { return sub == "" || len(idx.Lookup([]byte(sub), 1)) > 0 }
	}
	var out []Fact
	for _, f := range fs {
		if !contains(Normalize(f.Text)) {
			out = append(out, f)
		}
	}
	return out
}

// MaxToken is the longest run of non-space bytes still searched for paths,
// versions, dates, quantities and settings: longer than any path a system
// accepts (PATH_MAX is 4096).
const MaxToken = 4096

// dropBlobs replaces every run of more than MaxToken non-space bytes in s
// with one space. The pattern searches that follow then scan only text a
// fact can be in; their cost on a long unbroken run (each position tried
// against every alternative) was minutes for a 20 MB base64 line.
func dropBlobs(s string) string {
	var b strings.Builder
	start, last := -1, 0
	flush := func(end int) {
		if start >= 0 && end-start > MaxToken {
			if b.Len() == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[last:start])
			b.WriteByte(' ')
			last = end
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			flush(i)
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(s))
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
