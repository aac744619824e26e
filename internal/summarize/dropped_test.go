package summarize_test

import (
	"reflect"
	"testing"

	"github.com/memcompact/memcompact/internal/summarize"
)

func TestSplitDropped(t *testing.T) {
	kept, dropped := summarize.SplitDropped([]string{
		"Omar: two kids",
		"Dropped: Omar's peanut allergy (2025-01-17)",
		"**Dropped:** Lena's birthday",
		"dropped — Never deploy on Fridays",
		"Dropped:",
		"Dropped packets were a router bug (fixed in 2.1)",
		"DROPPED：王芳对青霉素过敏",
	})
	if want := []string{"Omar: two kids", "Dropped packets were a router bug (fixed in 2.1)"}; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept = %q, want %q", kept, want)
	}
	if want := []string{"Omar's peanut allergy (2025-01-17)", "Lena's birthday", "Never deploy on Fridays", "王芳对青霉素过敏"}; !reflect.DeepEqual(dropped, want) {
		t.Errorf("dropped = %q, want %q", dropped, want)
	}
}
