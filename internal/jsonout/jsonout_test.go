package jsonout

import (
	"bytes"
	"math"
	"testing"

	"github.com/memcompact/memcompact/internal/outcome"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"indent and newline", map[string]int{"a": 1}, "{\n  \"a\": 1\n}\n"},
		{"html left as written", struct {
			S string `json:"s"`
		}{"<a&b>"}, "{\n  \"s\": \"<a&b>\"\n}\n"},
		{"empty list", struct {
			L []string `json:"l"`
		}{NonNil([]string(nil))}, "{\n  \"l\": []\n}\n"},
		{"nil list", struct {
			L []string `json:"l"`
		}{nil}, "{\n  \"l\": null\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, tt.v); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("Write = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWriteNothingOnError pins what callers rely on: a value that cannot be
// encoded leaves the writer untouched, so a fallback can be written instead.
func TestWriteNothingOnError(t *testing.T) {
	var b bytes.Buffer
	err := Write(&b, map[string]float64{"x": math.NaN()})
	if err == nil {
		t.Fatal("Write(NaN) succeeded")
	}
	if b.Len() != 0 {
		t.Errorf("Write wrote %q before failing", b.String())
	}
}

func TestNonNil(t *testing.T) {
	if got := NonNil([]int(nil)); got == nil || len(got) != 0 {
		t.Errorf("NonNil(nil) = %#v", got)
	}
	s := []int{1}
	if got := NonNil(s); &got[0] != &s[0] {
		t.Error("NonNil copied a non-nil slice")
	}
}

// TestErrorOf: the error objects take their words and exit codes from the
// status, one word per exit code everywhere (1 is "defects").
func TestErrorOf(t *testing.T) {
	for _, c := range []struct {
		st         outcome.Status
		result     string
		code       int
		rootStatus string
	}{
		{outcome.Defects, "defects", 1, "defects"},
		{outcome.Refused, "refused", 2, "refused"},
		{outcome.Usage, "usage-error", 3, "usage"},
		{outcome.Clean, "refused", 2, "refused"},
	} {
		e := ErrorOf(c.st, "m", nil)
		if e.Result != c.result || e.ExitCode != c.code || e.Hints == nil {
			t.Errorf("ErrorOf(%v) = %+v", c.st, e)
		}
		r := RootErrorOf(c.st, "m")
		if r.Status != c.rootStatus || r.Code != c.code || r.SchemaVersion != 1 {
			t.Errorf("RootErrorOf(%v) = %+v", c.st, r)
		}
	}
}
