package textfile

import "time"

// ParseDate parses exactly yyyy-MM-dd: ASCII digits, a two-digit month and
// day, a real calendar date ("2026-02-30" is refused), year 1 or later. It
// is the one date rule of every file memcompact reads (policy files, budget
// tables, record files), so a date one verb accepts no other refuses. The
// result is midnight UTC.
func ParseDate(s string) (time.Time, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	num := func(t string) (int, bool) {
		n := 0
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return 0, false
			}
			n = n*10 + int(t[i]-'0')
		}
		return n, true
	}
	y, ok1 := num(s[0:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	if !ok1 || !ok2 || !ok3 || y < 1 || m < 1 || m > 12 || d < 1 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{}, false
	}
	return t, true
}

// ParseLocalDate is ParseDate's rule for a date the user types (a flag,
// MEMCOMPACT_TODAY): the same digits, meaning midnight of that day in local
// time.
func ParseLocalDate(s string) (time.Time, bool) {
	t, ok := ParseDate(s)
	if !ok {
		return time.Time{}, false
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.Local), true
}
