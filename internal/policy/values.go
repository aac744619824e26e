package policy

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Defaults and the one unit the size axis accepts.
const (
	DefaultFraction      = 0.80
	DefaultStalenessDays = 30
	Unit                 = "characters"
	// ForwardPrefix starts a key a later version may write: ignored and
	// reported, never an error.
	ForwardPrefix = "x-"
)

// Observation is one limit_observation row.
type Observation struct {
	Line   int       // 1-based line in the policy file
	Date   time.Time // the observed day, midnight UTC
	Value  int       // the observed limit
	Unit   string    // always Unit
	Method string    // fields 4..n re-joined with " | "
}

// ValueError is one line of the record the parser could not accept.
type ValueError struct {
	Line int    // 1-based line in the policy file (0: the record as a whole)
	Msg  string // the contract's wording
}

func (e ValueError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d: %s", e.Line, e.Msg)
}

// Values is a store's values record.
type Values struct {
	// Present reports whether either values marker appears in the file.
	// A present record that says nothing usable is a could-not-verify
	// verdict, never "records nothing".
	Present bool
	// Fraction and Staleness are the recorded scalars; Has* reports
	// whether each was recorded (validly).
	Fraction     float64
	HasFraction  bool
	Staleness    int
	HasStaleness bool
	Observations []Observation
	Errors       []ValueError
	Ignored      []string // x- keys, lower-cased, in file order, repeats included
	RegionBegin  int      // 0-based index of the first begin marker, or -1
	RegionEnd    int      // 0-based index of the end marker after it, or -1
}

// Freshest returns the observation with the latest date (the last in file
// order among equals), and false when there is none.
func (v *Values) Freshest() (Observation, bool) {
	if len(v.Observations) == 0 {
		return Observation{}, false
	}
	best := v.Observations[0]
	for _, o := range v.Observations[1:] {
		if !o.Date.Before(best.Date) {
			best = o
		}
	}
	return best, true
}

// ParseValues reads the values record from the lines of a policy file.
// today is the local date (a future observation is an error).
func ParseValues(lines []string, today time.Time) Values {
	r := ReadRegion(lines, ValuesBegin, ValuesEnd)
	v := Values{RegionBegin: r.Begin, RegionEnd: r.End}
	if !r.Appears() {
		return v
	}
	v.Present = true
	if !r.Declared() || r.Duplicated() {
		v.Errors = append(v.Errors, ValueError{Msg: fmt.Sprintf(
			"the policy file carries %d '%s' and %d '%s' marker(s); exactly one of each, in that order, is expected, so which values apply is ambiguous",
			r.BeginCount, ValuesBegin, r.EndCount, ValuesEnd)})
	}
	seen := map[string]bool{}
	todayDate := civil(today)
	for i, raw := range r.Block {
		v.parseLine(r.BlockStart+i+1, index.TrimSpace(raw), seen, todayDate)
	}
	return v
}

func (v *Values) parseLine(num int, line string, seen map[string]bool, today time.Time) {
	fail := func(format string, a ...any) {
		v.Errors = append(v.Errors, ValueError{Line: num, Msg: fmt.Sprintf(format, a...)})
	}
	if line == "" || strings.HasPrefix(line, "```") || strings.HasPrefix(line, "<!--") || strings.HasPrefix(line, "#") {
		return
	}
	colon := strings.IndexByte(line, ':')
	if colon < 1 {
		fail("not a 'key: value' line: '%s'", line)
		return
	}
	key := lowerInvariant(index.TrimSpace(line[:colon]))
	value := index.TrimSpace(line[colon+1:])
	forward := strings.HasPrefix(key, ForwardPrefix)
	if key != "limit_observation" && !forward {
		if seen[key] {
			fail("'%s' is recorded more than once; it is not a repeatable key, so which value applies is ambiguous", key)
			return
		}
		seen[key] = true
	}
	switch {
	case key == "budget_fraction":
		f, ok := ParseDecimal(value)
		if !ok || math.IsInf(f, 0) || math.IsNaN(f) || f <= 0 || f > 1 {
			fail("budget_fraction must be a finite number greater than 0 and at most 1; found '%s'", value)
			return
		}
		v.Fraction, v.HasFraction = f, true
	case key == "staleness_bound_days":
		n, ok := ParseInt32(value)
		if !ok || n <= 0 {
			fail("staleness_bound_days must be a positive whole number of days; found '%s'", value)
			return
		}
		v.Staleness, v.HasStaleness = n, true
	case key == "limit_observation":
		o, msg := parseObservation(value, today)
		if msg != "" {
			fail("%s", msg)
			return
		}
		o.Line = num
		v.Observations = append(v.Observations, o)
	case forward:
		v.Ignored = append(v.Ignored, key)
	default:
		fail("unrecognized key '%s'", key)
	}
}

func parseObservation(value string, today time.Time) (Observation, string) {
	fields := strings.Split(value, "|")
	for i := range fields {
		fields[i] = index.TrimSpace(fields[i])
	}
	var method string
	if len(fields) >= 4 {
		method = strings.Join(fields[3:], " | ")
	}
	if len(fields) < 4 || index.TrimSpace(method) == "" {
		return Observation{}, fmt.Sprintf("limit_observation must read 'date | value | unit | method' with a non-blank method; found '%s'", value)
	}
	date, ok := textfile.ParseDate(fields[0])
	if !ok {
		return Observation{}, fmt.Sprintf("limit_observation date must be yyyy-MM-dd; found '%s'", fields[0])
	}
	if date.After(today) {
		return Observation{}, fmt.Sprintf("limit_observation is dated %s, in the future; the freshest observation governs, so a future date would outrank every later one that is honest", fields[0])
	}
	n, ok := ParseInt32(fields[1])
	if !ok || n <= 0 {
		return Observation{}, fmt.Sprintf("limit_observation value must be a positive whole number; found '%s'", fields[1])
	}
	if fields[2] != Unit {
		return Observation{}, fmt.Sprintf("limit_observation unit must be '%s'; found '%s' - this check does not convert between units", Unit, fields[2])
	}
	return Observation{Date: date, Value: n, Unit: Unit, Method: method}, ""
}

// civil returns t's calendar day as midnight UTC, so that day arithmetic
// never meets a daylight-saving shift.
func civil(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// AgeDays returns the whole days from the observed day to today.
func AgeDays(observed, today time.Time) int {
	return int(civil(today).Sub(civil(observed)).Hours() / 24)
}

// ParseInt32 parses an invariant-culture integer the way .NET's
// NumberStyles.Integer does: optional surrounding ASCII blanks (tab through
// carriage return, and space), an optional leading sign, ASCII digits, and
// a value that fits in 32 bits. "24,978" is not an integer.
func ParseInt32(s string) (int, bool) {
	s = strings.Trim(s, "\t\n\v\f\r ")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
		if n > 1<<31 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0, false
	}
	return int(n), true
}

// ParseDecimal parses an invariant-culture floating-point number the way
// .NET's NumberStyles.Float does: optional surrounding ASCII blanks, an
// optional sign, digits with at most one decimal point, an optional
// exponent; or one of the symbols NaN, Infinity, -Infinity. No thousands
// separators, no hexadecimal, no underscores (all of which Go's ParseFloat
// would accept).
func ParseDecimal(s string) (float64, bool) {
	s = strings.Trim(s, "\t\n\v\f\r ")
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	switch {
	case strings.EqualFold(s, "NaN"):
		return math.NaN(), true
	case strings.EqualFold(body, "Infinity") || body == "∞":
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	i, digits := 0, 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
		digits++
	}
	if i < len(body) && body[i] == '.' {
		i++
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		exp := 0
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return 0, false
		}
	}
	if i != len(body) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return 0, false
	}
	return f, true
}

// lowerInvariant lower-cases s with simple (one-to-one) case mapping, as
// .NET's ToLowerInvariant does.
func lowerInvariant(s string) string { return LowerInvariant(s) }

// LowerInvariant lower-cases s the way .NET's ToLowerInvariant does: simple
// (one-to-one) case mapping, except that U+0130 (capital I with dot above)
// has no invariant lower case there and is kept, where Go would give 'i'.
func LowerInvariant(s string) string { return strings.Map(LowerInvariantRune, s) }

// LowerInvariantRune is LowerInvariant for one rune.
func LowerInvariantRune(r rune) rune {
	if r == '\u0130' {
		return r
	}
	return unicode.ToLower(r)
}
