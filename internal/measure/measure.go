// Package measure applies the store's counting rule to any file, such as a
// promotion destination (a user's CLAUDE.md is loaded by every session and
// has a limit of its own), and validates the record a measurement is
// written down as.
//
// A measurement record is one line of five pipe-separated fields,
//
//	x-destination_observation: 2026-12-02 | 2548 | characters | ~/.claude/CLAUDE.md | METHOD
//
// date (yyyy-MM-dd), value (a whole number of characters), unit (exactly
// "characters"), surface (the file, home-relative) and method (how the
// number reproduces; a '|' inside it is part of it). The leading
// "x-destination_observation:" is the key the row carries in a store's
// values region, where an older checker ignores it; Validate accepts the
// row with or without it.
//
// The output matches agent-orchestra's Measure-MemorySurface.ps1 field for
// field, method string included, so records written by either validate
// with either.
package measure

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Unit is the only unit a measurement is recorded in.
const Unit = "characters"

// Method is the method field of a measurement. It names the reference
// script because records are exchanged with it: a record memcompact writes
// is byte-identical to the one the script writes for the same file.
const Method = "Measure-MemorySurface.ps1 (UTF-8 decoded, CRLF and lone CR normalized to LF, length in UTF-16 code units)"

// RecordKey prefixes a measurement row in a store's values region.
const RecordKey = "x-destination_observation:"

// Measurement is one measured surface. Its JSON form is the reference
// script's, field for field.
type Measurement struct {
	Date    string `json:"date"`
	Value   int    `json:"value"`
	Unit    string `json:"unit"`
	Surface string `json:"surface"`
	Method  string `json:"method"`
}

// Row is the measurement as the values-region row it is recorded as.
func (m Measurement) Row() string {
	return fmt.Sprintf("%s %s | %d | %s | %s | %s", RecordKey, m.Date, m.Value, m.Unit, m.Surface, m.Method)
}

// Measure reads path (through textfile) and measures it as of asOf. The
// surface is path made absolute and written home-relative.
func Measure(path string, asOf time.Time, home string) (Measurement, error) {
	f, err := textfile.Read(path)
	if err != nil {
		return Measurement{}, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return Measurement{
		Date:    asOf.Format("2006-01-02"),
		Value:   textfile.Units(f.Text),
		Unit:    Unit,
		Surface: Surface(abs, home),
		Method:  Method,
	}, nil
}

// Surface writes an absolute path home-relative: "~" and the remainder
// when it lies under home (letter case ignored, as on the filesystems the
// reference runs on), with every '\' turned into '/'. Unlike the reference,
// the home prefix must end at a path separator, so with home /h/al the file
// /h/alice/x.md stays as it is instead of becoming "~ice/x.md".
func Surface(abs, home string) string {
	home = strings.TrimRight(home, `/\`)
	if home != "" && len(abs) >= len(home) && strings.EqualFold(abs[:len(home)], home) {
		rest := abs[len(home):]
		if rest == "" || rest[0] == '/' || rest[0] == '\\' {
			abs = "~" + rest
		}
	}
	return strings.ReplaceAll(abs, `\`, "/")
}

// Verdict is the result of validating a record.
type Verdict struct {
	Result   string   `json:"result"` // "conforming" or "non-conforming"
	Problems []string `json:"problems"`
	// Notes are observations that do not make a record non-conforming:
	// the reference accepts them, so memcompact only points them out.
	Notes []string `json:"-"`
}

// Conforming reports whether the record had no problem.
func (v Verdict) Conforming() bool { return len(v.Problems) == 0 }

// Validate checks a measurement record and lists every problem, in field
// order. It never fails: any string gets a verdict.
func Validate(record string) Verdict {
	body := record
	if t := strings.TrimLeftFunc(body, unicode.IsSpace); strings.HasPrefix(t, RecordKey) {
		body = t[len(RecordKey):]
	}
	fields := strings.Split(body, "|")
	for i := range fields {
		fields[i] = index.TrimSpace(fields[i])
	}
	problems := []string{}
	if len(fields) < 5 {
		problems = append(problems, fmt.Sprintf("expected 5 pipe-separated fields (date | value | unit | surface | method); found %d", len(fields)))
		return verdict(problems)
	}
	if _, ok := textfile.ParseDate(fields[0]); !ok {
		problems = append(problems, fmt.Sprintf("date must be a real date in yyyy-MM-dd form; found '%s'", fields[0]))
	}
	if n, ok := parseInt32(fields[1]); !ok || n < 0 {
		problems = append(problems, fmt.Sprintf("value must be a whole number of %s; found '%s'", Unit, fields[1]))
	}
	if fields[2] != Unit {
		problems = append(problems, fmt.Sprintf("unit must be '%s' - the store's own counting rule; found '%s'", Unit, fields[2]))
	}
	if fields[3] == "" {
		problems = append(problems, "surface must name the file measured")
	}
	if index.TrimSpace(strings.Join(fields[4:], " | ")) == "" {
		problems = append(problems, "method must state how the measurement reproduces")
	}
	v := verdict(problems)
	// A surface is written home-relative ("~/...") so that a record made
	// on one machine names the same file on another. The reference does
	// not enforce it, so neither the verdict nor the exit code depends on
	// it; the note tells the owner.
	if s := fields[3]; s != "" && s != "~" && !strings.HasPrefix(s, "~/") {
		v.Notes = append(v.Notes, fmt.Sprintf("the surface '%s' is not written home-relative ('~/...'), as 'memcompact measure' writes it; the record will not name the same file on another machine", s))
	}
	return v
}

func verdict(problems []string) Verdict {
	if len(problems) == 0 {
		return Verdict{Result: "conforming", Problems: problems}
	}
	return Verdict{Result: "non-conforming", Problems: problems}
}

// parseInt32 parses a whole number the way .NET's int.TryParse does with
// the invariant culture and NumberStyles.Integer: optional surrounding
// white space, one optional sign, ASCII digits, and a value that fits in 32
// bits. "24,978" and "1e3" are not numbers.
func parseInt32(s string) (int64, bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	if s == "" {
		return 0, false
	}
	neg := false
	switch s[0] {
	case '+':
		s = s[1:]
	case '-':
		neg, s = true, s[1:]
	}
	if s == "" {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		n = -n
	}
	if n > 1<<31-1 || n < -(1<<31) {
		return 0, false
	}
	return n, true
}
