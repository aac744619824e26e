package userenv

import (
	"testing"
	"time"
)

func TestHome(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/h", "USERPROFILE": `C:\u`}, "/h"},
		{map[string]string{"USERPROFILE": `C:\u`}, `C:\u`},
		{nil, ""},
	} {
		if got := Home(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("Home(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestToday(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 12, 3, 23, 59, 1, 5, time.Local) }
	for _, c := range []struct {
		pin  string
		want time.Time
	}{
		{"", time.Date(2026, 12, 3, 0, 0, 0, 0, time.Local)},
		{"2025-02-28", time.Date(2025, 2, 28, 0, 0, 0, 0, time.Local)},
		{"28.02.2025", time.Date(2026, 12, 3, 0, 0, 0, 0, time.Local)},
	} {
		got := Today(func(k string) string {
			if k == "MEMCOMPACT_TODAY" {
				return c.pin
			}
			return ""
		}, now)
		if !got.Equal(c.want) {
			t.Errorf("Today with MEMCOMPACT_TODAY=%q = %v, want %v", c.pin, got, c.want)
		}
	}
}
