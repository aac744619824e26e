package snapshot

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// roundTrip encodes data against base and rebuilds it.
func roundTrip(t *testing.T, base, data []byte) []byte {
	t.Helper()
	enc := encodeDelta("a-2026-01-01.md", base, data)
	d, ok := parseDelta(enc)
	if !ok {
		t.Fatalf("the delta does not parse:\n%s", enc)
	}
	got, err := d.apply(base)
	if err != nil {
		t.Fatalf("apply: %v\nbase %q\ndata %q\ndelta:\n%s", err, base, data, enc)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("rebuilt %q, want %q", got, data)
	}
	return enc
}

func TestDeltaRoundTrip(t *testing.T) {
	long := "- 2026-01 — 40 entries: " + strings.Repeat("Standup; ", 30) + "end.\n"
	tests := []struct{ name, base, data string }{
		{"empty both", "", ""},
		{"from nothing", "", "# A\n\nline\n"},
		{"to nothing", "# A\n", ""},
		{"no final newline", "a\nb\nc", "a\nb\nc\nd"},
		{"CRLF", "# A\r\n\r\n- one\r\n", "# A\r\n\r\n- one\r\n- two\r\n"},
		{"append", strings.Repeat("- a line that is long enough to copy\n", 20), strings.Repeat("- a line that is long enough to copy\n", 20) + "- new\n"},
		{"grown line", "# T\n" + long + "tail line that is long enough\n", "# T\n" + strings.TrimSuffix(long, "end.\n") + "Standup 90; end.\n" + "tail line that is long enough\n"},
		{"shrunk line", "# T\n" + long, "# T\n" + strings.Replace(long, "Standup; ", "", 5)},
		{"BOM and invalid UTF-8", "\ufeff# A\n\xff\xfe\n", "\ufeff# A\n\xff\xfe\nmore\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { roundTrip(t, []byte(tt.base), []byte(tt.data)) })
	}
	// A grown line costs what it gained, not the line.
	base := "# T\n" + long
	data := "# T\n" + strings.TrimSuffix(long, "end.\n") + "Standup 91; end.\n"
	if enc := roundTrip(t, []byte(base), []byte(data)); len(enc) > 240 {
		t.Errorf("a line grown by 12 bytes costs a %d-byte delta:\n%s", len(enc), enc)
	}
}

// TestDeltaRandom edits random line files at random and checks every
// delta rebuilds its file exactly.
func TestDeltaRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	words := []string{"", "- ", "## 2026-01-0", "Standup ", "allergic to peanuts; ", "x", "\r", "\t", "é", "; ", "— "}
	line := func() string {
		var b strings.Builder
		for n := rng.Intn(30); n > 0; n-- {
			b.WriteString(words[rng.Intn(len(words))])
		}
		return b.String() + "\n"
	}
	for round := 0; round < 400; round++ {
		var base []string
		for n := rng.Intn(40); n > 0; n-- {
			base = append(base, line())
		}
		data := append([]string(nil), base...)
		for n := rng.Intn(8); n > 0; n-- {
			i := 0
			if len(data) > 0 {
				i = rng.Intn(len(data))
			}
			switch rng.Intn(4) {
			case 0:
				data = append(data[:i], append([]string{line()}, data[i:]...)...)
			case 1:
				if len(data) > 0 {
					data = append(data[:i], data[i+1:]...)
				}
			case 2:
				if len(data) > 0 {
					data[i] = strings.TrimSuffix(data[i], "\n") + words[rng.Intn(len(words))] + "\n"
				}
			case 3:
				if len(data) > 0 {
					data[i] = words[rng.Intn(len(words))] + data[i]
				}
			}
		}
		b, d := strings.Join(base, ""), strings.Join(data, "")
		if rng.Intn(5) == 0 && len(d) > 0 {
			d = d[:len(d)-1]
		}
		roundTrip(t, []byte(b), []byte(d))
	}
}
