// Package userenv reads, from a process's environment, the two facts about
// its user that every face passes to the engines the same way: the home
// directory and today's date. The command line, the hooks and the MCP
// server read them here, so each judges the same store and the same day.
package userenv

import (
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

// Home returns the user's home directory ($HOME, else %USERPROFILE%), or
// "" if neither is set.
func Home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	return getenv("USERPROFILE")
}

// Today returns the local date at midnight of now(), or the date
// MEMCOMPACT_TODAY=YYYY-MM-DD names, so tests and reproducible runs can
// pin "today". A MEMCOMPACT_TODAY that is not such a date is ignored.
func Today(getenv func(string) string, now func() time.Time) time.Time {
	if s := getenv("MEMCOMPACT_TODAY"); s != "" {
		if t, ok := textfile.ParseLocalDate(s); ok {
			return t
		}
	}
	n := now()
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.Local)
}
