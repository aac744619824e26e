package summarize_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/summarize"
)

// TestExternal: the command's bullets come back; a failing command, or one
// that prints nothing, is an error.
func TestExternal(t *testing.T) {
	got, err := summarize.External(context.Background(), "cat", "- a\n- b\n", 10*time.Second)
	if err != nil || strings.Join(got, "|") != "a|b" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := summarize.External(context.Background(), "exit 3", "x", 10*time.Second); err == nil {
		t.Error("a failing command was accepted")
	}
	if _, err := summarize.External(context.Background(), "true", "x", 10*time.Second); err == nil {
		t.Error("an empty answer was accepted")
	}
}
