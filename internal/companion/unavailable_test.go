package companion

import (
	"errors"
	"fmt"
	"testing"
)

// TestUnavailable: only an error wrapping ErrUnavailable is an install to
// mend; Unavailablef's own message is the one reported.
func TestUnavailable(t *testing.T) {
	for _, c := range []struct {
		r    any
		want bool
	}{
		{fmt.Errorf("%w: no memcompact", ErrUnavailable), true},
		{Unavailablef("the %s parser is not available", "YAML"), true},
		{errors.New("mdblocks: no Markdown parser is linked"), false},
		{"boom", false},
		{nil, false},
	} {
		if _, ok := Unavailable(c.r); ok != c.want {
			t.Errorf("Unavailable(%v) = %v, want %v", c.r, ok, c.want)
		}
	}
	if msg, _ := Unavailable(Unavailablef("the %s parser is not available", "YAML")); msg != "the YAML parser is not available" {
		t.Errorf("Unavailablef's message = %q", msg)
	}
}
