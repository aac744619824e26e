package budget

import (
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// Bytes returns the policy file as parsed, byte for byte (valid UTF-8 in).
func (p *Policy) Bytes() []byte {
	var b strings.Builder
	if p.bom {
		b.WriteString(textfile.BOM)
	}
	for _, l := range p.raw {
		b.WriteString(l)
	}
	return []byte(b.String())
}

// Change says what Set did.
type Change struct {
	Added bool   // a new row was appended to the table
	Old   *Row   // the row before, when one was updated
	New   Row    // the row after (Line is its line in the new file)
	Data  []byte // the whole new policy file
}

// Set updates the row whose File cell is exactly pattern, or appends one.
// newest < 0 keeps the row's newest tier; a new row then inherits it from
// the glob row that budgets pattern today, else gets DefaultNewest. Every
// other line is kept byte for byte.
func (p *Policy) Set(pattern string, n int, unit Unit, newest int) (*Change, error) {
	if msg := checkPattern(pattern); msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	if n <= 0 || n > maxNumber {
		return nil, fmt.Errorf("bad budget %d: the number must be between 1 and %d", n, maxNumber)
	}
	if newest > maxNumber {
		return nil, fmt.Errorf("bad newest tier %d: out of range", newest)
	}
	ch := &Change{}
	lines := append([]string(nil), p.raw...)
	if old, ok := p.Row(pattern); ok {
		o := *old
		ch.Old = &o
		r := o
		r.Budget, r.Unit = n, unit
		if newest >= 0 {
			r.Newest = newest
		}
		i := old.Line - 1
		eol := lines[i][len(textfile.TrimEOL(lines[i])):]
		cells := splitCells(strings.TrimSpace(textfile.TrimEOL(lines[i])))
		cells[p.cols.budget] = r.BudgetText()
		if p.cols.newest >= 0 {
			cells[p.cols.newest] = newestText(r.Newest)
		}
		lines[i] = formatRow(cells) + eol
		ch.New = r
	} else {
		r := Row{Pattern: pattern, Budget: n, Unit: unit, Newest: DefaultNewest}
		if g, ok := p.Lookup(pattern); ok {
			r.Newest = g.Newest
		}
		if newest >= 0 {
			r.Newest = newest
		}
		r.Each = r.isGlob()
		cells := make([]string, p.cols.n)
		cells[p.cols.file] = pattern
		cells[p.cols.budget] = r.BudgetText()
		if p.cols.newest >= 0 {
			cells[p.cols.newest] = newestText(r.Newest)
		}
		at := p.lastRow
		if !strings.HasSuffix(lines[at], "\n") && !strings.HasSuffix(lines[at], "\r") {
			lines[at] += p.eol
		}
		lines = append(lines[:at+1], append([]string{formatRow(cells) + p.eol}, lines[at+1:]...)...)
		r.Line = at + 2
		ch.Added, ch.New = true, r
	}
	var b strings.Builder
	if p.bom {
		b.WriteString(textfile.BOM)
	}
	for _, l := range lines {
		b.WriteString(l)
	}
	ch.Data = []byte(b.String())
	return ch, nil
}

func newestText(n int) string {
	if n == 1 {
		return "last 1 entry"
	}
	return fmt.Sprintf("last %d entries", n)
}

// formatRow renders cells as a table row, escaping pipes inside cells.
func formatRow(cells []string) string {
	esc := make([]string, len(cells))
	for i, c := range cells {
		esc[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return "| " + strings.Join(esc, " | ") + " |"
}
