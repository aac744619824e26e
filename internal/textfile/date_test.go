package textfile

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	for s, ok := range map[string]bool{
		"2026-02-28": true, "2024-02-29": true, "0001-01-01": true, "9999-12-31": true,
		"2026-02-30": false, "2023-02-29": false, "0000-01-01": false, "2026-13-01": false,
		"2026-00-01": false, "2026-01-00": false, "2026-1-01": false, "2026/01/01": false,
		"２０２６-01-01": false, "+026-01-01": false, "2026-01-01 ": false, "": false,
	} {
		got, gotOK := ParseDate(s)
		if gotOK != ok {
			t.Errorf("ParseDate(%q) ok = %v, want %v", s, gotOK, ok)
		}
		if ok && got.Format("2006-01-02") != s {
			t.Errorf("ParseDate(%q) = %v", s, got)
		}
	}
}

func TestEOL(t *testing.T) {
	for text, want := range map[string]string{"": "\n", "a\nb\n": "\n", "a\r\nb\r\n": "\r\n", "a\r\nb\nc\n": "\n", "a\r\nb\r\nc\n": "\r\n"} {
		if got := EOL(text); got != want {
			t.Errorf("EOL(%q) = %q, want %q", text, got, want)
		}
	}
	if TrimEOL("a\r\n") != "a" || TrimEOL("a\r") != "a" || TrimEOL("a") != "a" {
		t.Error("TrimEOL")
	}
}

// TestParseLocalDate: the user's dates follow the files' rule, at local
// midnight.
func TestParseLocalDate(t *testing.T) {
	for in, want := range map[string]bool{"2026-12-03": true, "2024-02-29": true, "2026-02-30": false, "2026-1-02": false, "": false, "2026-12-03T00:00:00Z": false} {
		got, ok := ParseLocalDate(in)
		if ok != want {
			t.Errorf("ParseLocalDate(%q) ok = %v, want %v", in, ok, want)
			continue
		}
		if ok && (got.Location() != time.Local || got.Hour() != 0 || got.Format("2006-01-02") != in) {
			t.Errorf("ParseLocalDate(%q) = %v", in, got)
		}
	}
}
