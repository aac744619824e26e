package budget

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Unit is what a budget counts.
type Unit string

// Units of a budget. Lines and chars are measured with the textfile counting
// rule (chars are UTF-16 code units of the LF-normalized text).
const (
	Lines Unit = "lines"
	Chars Unit = "chars"
)

// Row is one row of the budgets table.
type Row struct {
	Line    int    // 1-based line of the row in the policy file
	Pattern string // the File cell: a root-relative path or glob
	Budget  int
	Unit    Unit
	Each    bool // the budget cell said "each"
	Newest  int  // entries kept verbatim
	Notes   string
}

// isGlob reports whether the row's File cell is a glob.
func (r *Row) isGlob() bool { return strings.ContainsAny(r.Pattern, "*?[") }

// BudgetText renders the budget cell: "500 lines", "300 lines each".
func (r *Row) BudgetText() string {
	s := fmt.Sprintf("%d %s", r.Budget, r.Unit)
	if r.Each {
		s += " each"
	}
	return s
}

// Policy is a parsed compaction policy.
type Policy struct {
	Path string
	Rows []Row

	raw     []string // every line with its terminator
	bom     bool
	eol     string // the line ending new lines get
	header  int    // index of the header line in raw
	lastRow int    // index of the last table line in raw
	cols    columns
}

// columns maps the header's column names to cell indexes (-1: absent).
type columns struct {
	n                           int
	file, budget, newest, notes int
}

// Error is a problem at one line of the policy.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ErrorList is every problem parse found, in line order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

var (
	budgetRE = lazyre.New(`(?i)^([0-9][0-9,_]*)\s*([a-z]+)(\s+each)?$`)
	newestRE = lazyre.New(`(?i)^(?:last\s+)?([0-9]+)(?:\s+entr(?:y|ies))?$`)
	delimRE  = lazyre.New(`^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$`)
)

// maxNumber bounds budgets and tier sizes so arithmetic on them cannot
// overflow; no memory file comes near it.
const maxNumber = 1 << 30

// parse parses the policy file's bytes. Errors are an ErrorList.
func parse(name string, raw []byte) (*Policy, error) {
	f := textfile.FromBytes(name, raw)
	p := &Policy{Path: name, raw: textfile.SplitKeep(f.Text), bom: f.HasBOM, eol: textfile.EOL(f.Text), header: -1}
	var errs ErrorList
	fail := func(line int, format string, a ...any) {
		errs = append(errs, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, a...)})
	}
	if !utf8.Valid(raw) {
		fail(1, "not valid UTF-8")
		return nil, errs
	}
	for i, l := range p.raw {
		if cols, ok := headerColumns(textfile.TrimEOL(l)); ok {
			p.header, p.cols = i, cols
			break
		}
	}
	if p.header < 0 {
		fail(1, "no budgets table: want a table whose header row is | File | Budget | Newest tier | Notes |")
		return nil, errs
	}
	hl := p.header + 1
	if p.cols.newest < 0 {
		fail(hl, "missing column: the budgets table has no Newest tier column")
	}
	if p.header+1 >= len(p.raw) || !delimRE().MatchString(strings.TrimSpace(textfile.TrimEOL(p.raw[p.header+1]))) {
		fail(hl+1, "the budgets table's header must be followed by a delimiter row |---|---|")
		return nil, errs
	}
	p.lastRow = p.header + 1
	seen := map[string]int{}
	for i := p.header + 2; i < len(p.raw); i++ {
		text := strings.TrimSpace(textfile.TrimEOL(p.raw[i]))
		if !strings.HasPrefix(text, "|") {
			break
		}
		p.lastRow = i
		ln := i + 1
		cells := splitCells(text)
		if len(cells) < p.cols.n {
			fail(ln, "missing column: the row has %d cells, the header %d", len(cells), p.cols.n)
			continue
		}
		r := Row{Line: ln}
		r.Pattern = strings.Trim(cells[p.cols.file], "`")
		if msg := checkPattern(r.Pattern); msg != "" {
			fail(ln, "%s", msg)
			continue
		}
		r.Pattern = path.Clean(r.Pattern)
		if first, dup := seen[r.Pattern]; dup {
			fail(ln, "duplicate row for %s (first at line %d)", r.Pattern, first)
			continue
		}
		seen[r.Pattern] = ln
		if err := parseBudget(cells[p.cols.budget], &r); err != nil {
			fail(ln, "%v", err)
			continue
		}
		if p.cols.newest >= 0 {
			m := newestRE().FindStringSubmatch(cells[p.cols.newest])
			if m == nil {
				fail(ln, "bad newest tier %q: want \"last N entries\"", cells[p.cols.newest])
				continue
			}
			n, err := strconv.Atoi(m[1])
			if err != nil || n > maxNumber {
				fail(ln, "bad newest tier %q: number out of range", cells[p.cols.newest])
				continue
			}
			r.Newest = n
		}
		if p.cols.notes >= 0 {
			r.Notes = cells[p.cols.notes]
		}
		p.Rows = append(p.Rows, r)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

// parseBudget fills r's budget, unit and each from a Budget cell.
func parseBudget(cell string, r *Row) error {
	m := budgetRE().FindStringSubmatch(cell)
	if m == nil {
		return fmt.Errorf("bad budget %q: want \"N lines\" or \"N chars\"", cell)
	}
	n, err := strconv.Atoi(strings.NewReplacer(",", "", "_", "").Replace(m[1]))
	if err != nil || n <= 0 || n > maxNumber {
		return fmt.Errorf("bad budget %q: the number must be between 1 and %d", cell, maxNumber)
	}
	u, ok := parseUnit(m[2])
	if !ok {
		return fmt.Errorf("bad unit %q in budget %q: want lines or chars", m[2], cell)
	}
	r.Budget, r.Unit, r.Each = n, u, m[3] != ""
	return nil
}

// parseUnit accepts "lines", "line", "chars", "char", "characters".
func parseUnit(s string) (Unit, bool) {
	switch strings.ToLower(s) {
	case "line", "lines":
		return Lines, true
	case "char", "chars", "character", "characters":
		return Chars, true
	}
	return "", false
}

// checkPattern returns why a File cell is unusable, or "".
func checkPattern(p string) string {
	switch {
	case p == "":
		return "missing column: the File cell is empty"
	case strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || (len(p) > 1 && p[1] == ':'):
		return fmt.Sprintf("bad file %q: use a path relative to the root, with / separators", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return fmt.Sprintf("bad file %q: the path leaves the root", p)
		}
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Sprintf("bad file %q: %v", p, err)
	}
	return ""
}

// headerColumns recognizes the budgets table's header row.
func headerColumns(line string) (columns, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "|") {
		return columns{}, false
	}
	cells := splitCells(t)
	c := columns{n: len(cells), file: -1, budget: -1, newest: -1, notes: -1}
	for i, cell := range cells {
		h := strings.ToLower(strings.Trim(cell, "*_ "))
		switch {
		case c.file < 0 && h == "file":
			c.file = i
		case c.budget < 0 && strings.HasPrefix(h, "budget"):
			c.budget = i
		case c.newest < 0 && strings.HasPrefix(h, "newest"):
			c.newest = i
		case c.notes < 0 && strings.HasPrefix(h, "note"):
			c.notes = i
		}
	}
	if c.file != 0 || c.budget < 0 {
		return columns{}, false
	}
	return c, true
}

// splitCells splits a table row into trimmed cells, honouring "\|" and
// optional outer pipes.
func splitCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			b.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// Lookup returns the row budgeting rel (a root-relative "/" path): the exact
// row, else the first matching glob row. Files under compaction/ are never
// budgeted.
func (p *Policy) Lookup(rel string) (*Row, bool) {
	rel = path.Clean(rel)
	if Excluded(rel) {
		return nil, false
	}
	for i := range p.Rows {
		if p.Rows[i].Pattern == rel {
			return &p.Rows[i], true
		}
	}
	for i := range p.Rows {
		if r := &p.Rows[i]; r.isGlob() {
			if ok, _ := path.Match(r.Pattern, rel); ok {
				return r, true
			}
		}
	}
	return nil, false
}

// Row returns the row whose File cell is exactly pattern.
func (p *Policy) Row(pattern string) (*Row, bool) {
	for i := range p.Rows {
		if p.Rows[i].Pattern == pattern {
			return &p.Rows[i], true
		}
	}
	return nil, false
}

// Excluded reports whether rel lies where compaction never reaches: the
// compaction/ folder itself (the policy and the snapshots).
func Excluded(rel string) bool {
	return rel == "compaction" || strings.HasPrefix(rel, "compaction/")
}
