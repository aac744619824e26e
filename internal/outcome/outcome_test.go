package outcome

import (
	"errors"
	"fmt"
	"testing"
)

func TestStatusOf(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want Status
	}{
		{"nil", nil, Clean},
		{"plain error", errors.New("x"), Refused},
		{"refusal", Refuse("r", "no"), Refused},
		{"usage", Usagef("u", "bad"), Usage},
		{"wrapped usage", fmt.Errorf("ctx: %w", Usagef("u", "bad")), Usage},
	}
	for _, tt := range tests {
		if got := StatusOf(tt.err); got != tt.want {
			t.Errorf("%s: StatusOf = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Status: Refused, Reason: "x", Msg: "bad row", File: "p.md", Line: 3}
	if got, want := e.Error(), "p.md:3: bad row"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := ReasonOf(fmt.Errorf("w: %w", e)); got != "x" {
		t.Errorf("ReasonOf = %q", got)
	}
	if Worst(Defects, Refused) != Refused || Worst(Usage, Clean) != Usage {
		t.Error("Worst does not pick the higher status")
	}
}
