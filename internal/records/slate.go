package records

import (
	"fmt"
	"strconv"

	"github.com/memcompact/memcompact/internal/lazyre"
)

// Slate tracks and their vocabularies.
const (
	TrackCritical = "critical" // yes | no
	TrackDeferral = "deferral" // running count ≥ 1, detail "until <yyyy-MM-dd> …"
	TrackLanding  = "landing"  // none | in-flight (vehicle in detail) | landed
)

// ws is the whitespace class of .NET regular expressions, so that the
// "until" pattern matches the lines the reference's does.
const ws = `\t\n\v\f\r \x{85}\p{Z}`

var untilRE = lazyre.New(`until[` + ws + `]+([^` + ws + `]+)`)

// SlateRow is one record line of SLATE.md, well-formed or not.
type SlateRow struct {
	Num       int    // record number in file order
	Line      int    // 1-based line of the file
	Raw       string // the line, trimmed
	Date      Date
	Identity  string // the life key as written
	Name      string
	Track     string
	Value     string // as written (for a deferral, its digits)
	Count     int    // a deferral's running count
	Until     Date   // a deferral's until date
	Detail    string
	Malformed bool
	Why       string
}

// ParseSlateRow parses one slate row, numbered num, as of asOf. A row that
// does not parse comes back Malformed with the reason.
func ParseSlateRow(text string, num int, asOf Date) *SlateRow {
	r := &SlateRow{Num: num, Raw: trim(text)}
	bad := func(why string) *SlateRow {
		r.Malformed, r.Why = true, why
		return r
	}
	f := splitFields(text)
	if len(f) != 5 {
		return bad(fmt.Sprintf("expected exactly 5 pipe-separated fields (date | identity | track | value | detail); found %d. No field may contain a pipe.", len(f)))
	}
	d, why := checkDate(f[0], asOf, "a slate row date")
	if why != "" {
		return bad(why)
	}
	r.Date = d
	id, why := ParseIdentity(f[1], asOf)
	if why != "" {
		return bad(why)
	}
	if IsReservedName(id.Name) {
		return bad(fmt.Sprintf("'%s' is reserved for the sweep's own records and may not name an entry", id.Name))
	}
	r.Identity, r.Name = f[1], id.Name
	switch f[2] {
	case TrackCritical, TrackDeferral, TrackLanding:
	default:
		return bad(fmt.Sprintf("track must be one of critical, deferral, landing; found '%s'", f[2]))
	}
	r.Track, r.Detail = f[2], f[4]
	switch r.Track {
	case TrackCritical:
		if f[3] != "yes" && f[3] != "no" {
			return bad(fmt.Sprintf("a critical row's value must be one of yes, no - lower case, exactly; found '%s'", f[3]))
		}
		r.Value = f[3]
		if r.Detail == "" {
			return bad("a critical row must say why the two-part test does or does not hold")
		}
	case TrackDeferral:
		n, ok := parseCount(f[3])
		if !ok || n < 1 {
			return bad(fmt.Sprintf("a deferral's value is its running count, a positive whole number; found '%s'", f[3]))
		}
		r.Value, r.Count = f[3], n
		m := untilRE().FindStringSubmatch(r.Detail)
		if m == nil {
			return bad(fmt.Sprintf("a deferral must carry 'until <yyyy-MM-dd>' in its detail; found '%s'", r.Detail))
		}
		u, why := checkDate(m[1], MaxDate, "a deferral's until date")
		if why != "" {
			return bad(why)
		}
		r.Until = u
	case TrackLanding:
		switch f[3] {
		case "none", "in-flight", "landed":
		default:
			return bad(fmt.Sprintf("a landing row's value must be one of none, in-flight, landed; found '%s'", f[3]))
		}
		r.Value = f[3]
		if r.Value == "in-flight" && r.Detail == "" {
			return bad("an in-flight landing must name its vehicle in the detail field")
		}
	}
	return r
}

// parseCount parses a whole number the way .NET's int.TryParse does with
// the invariant culture: an optional sign, ASCII digits, a 32-bit range.
func parseCount(s string) (int, bool) {
	t := s
	if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if t == "" {
		return 0, false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// Slate is SLATE.md read and folded to its current state.
type Slate struct {
	Region    *Region
	Rows      []*SlateRow // every record line, in file order
	Malformed []*SlateRow

	current map[trackKey]*SlateRow
}

type trackKey struct{ identity, track string }

// ReadSlate reads and folds the slate at path as of asOf. A missing file
// (or a directory) reads as an absent, empty, trustworthy slate; a file
// that exists but cannot be read is an error wrapping ErrUnreadable.
func ReadSlate(path string, asOf Date) (*Slate, error) {
	reg, err := ReadRegion(path, SlateMarker)
	if err != nil {
		return nil, err
	}
	return FoldSlate(reg, asOf), nil
}

// ParseSlate parses and folds decoded slate text.
func ParseSlate(path, text string, asOf Date) *Slate {
	return FoldSlate(ParseRegion(path, text, SlateMarker), asOf)
}

// FoldSlate parses a slate region's rows and folds them: the current row per
// (identity, track) is the latest by date; a same-date row later in the
// file replaces an earlier one; an earlier-dated row never does, wherever
// it sits. The three tracks are independent.
func FoldSlate(reg *Region, asOf Date) *Slate {
	s := &Slate{Region: reg, current: map[trackKey]*SlateRow{}}
	for _, ln := range reg.Lines {
		r := ParseSlateRow(ln.Text, ln.Num, asOf)
		r.Line = ln.Line
		s.Rows = append(s.Rows, r)
		if r.Malformed {
			s.Malformed = append(s.Malformed, r)
			continue
		}
		k := trackKey{r.Identity, r.Track}
		if held, ok := s.current[k]; !ok || r.Date.Compare(held.Date) >= 0 {
			s.current[k] = r
		}
	}
	return s
}

// State is the region's state.
func (s *Slate) State() string { return s.Region.State }

// Path is the slate's path as given.
func (s *Slate) Path() string { return s.Region.Path }

// Trustworthy reports whether the slate was read whole: not duplicated and
// no malformed row. An absent or unmarked slate is trustworthy (and empty).
// A row can fail before its identity parses, so an unreadable row cannot
// always be attributed to an entry; every gate therefore refuses on an
// untrustworthy slate as a whole.
func (s *Slate) Trustworthy() bool {
	return s.Region.State != StateDuplicated && len(s.Malformed) == 0
}

// Current returns the current row of a track for a life key, or nil. An
// identity with no current critical row is unassessed, not ordinary.
func (s *Slate) Current(identity, track string) *SlateRow {
	return s.current[trackKey{identity, track}]
}
