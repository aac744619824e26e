package records

import (
	"fmt"
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

// Date is a calendar date with no time of day and no zone: the record
// files, like the reference, reason in whole days only.
type Date struct {
	Y int
	M time.Month
	D int
}

// ParseDate parses exactly yyyy-MM-dd naming a real calendar date, by
// textfile.ParseDate's rule; "2026-02-30" is refused.
func ParseDate(s string) (Date, bool) {
	t, ok := textfile.ParseDate(s)
	if !ok {
		return Date{}, false
	}
	return DateOf(t), true
}

// DateOf is the calendar date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// MaxDate is later than every date; as an as-of date it allows any date.
var MaxDate = Date{9999, 12, 31}

// String formats d as yyyy-MM-dd.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Y, int(d.M), d.D) }

// IsZero reports whether d is the zero Date (no date).
func (d Date) IsZero() bool { return d == Date{} }

// Compare returns -1, 0 or +1 as d is before, equal to or after e.
func (d Date) Compare(e Date) int {
	a, b := d.key(), e.key()
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// After reports whether d is later than e.
func (d Date) After(e Date) bool { return d.key() > e.key() }

// Before reports whether d is earlier than e.
func (d Date) Before(e Date) bool { return d.key() < e.key() }

func (d Date) key() int { return d.Y*10000 + int(d.M)*100 + d.D }

// checkDate parses a date field, refusing a date after asOf. The messages
// are the reference's, with label naming the field.
func checkDate(text string, asOf Date, label string) (Date, string) {
	d, ok := ParseDate(text)
	if !ok {
		return Date{}, fmt.Sprintf("%s must be a real date in yyyy-MM-dd form; found '%s'", label, text)
	}
	if d.After(asOf) {
		return Date{}, fmt.Sprintf("%s is dated %s, in the future; the freshest row governs and the record is append-only, so a future date would outrank every honest row appended after it", label, text)
	}
	return d, ""
}
