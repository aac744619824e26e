package summarize_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// fakeClaude writes a claude script into a fresh directory: it appends its
// arguments and standard input to a log, then prints the next of answers
// (files answer1, answer2, …; the last repeats) and exits with its code.
// It returns the directory (for PATH) and the log's path.
func fakeClaude(t *testing.T, answers ...string) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(dir, "calls.log")
	for i, a := range answers {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("answer%d", i+1)), []byte(a), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := fmt.Sprintf(`#!/bin/sh
d=%q
n=$(cat "$d/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$d/count"
{ echo "ARGS: $*"; echo "STDIN:"; cat; echo "END"; } >> "$d/calls.log"
f="$d/answer$n"; [ -f "$f" ] || f="$d/answer%d"
code=0
case "$(head -c 6 "$f")" in
SLEEP*) sleep 30 ;;
EXIT*) code=$(head -n1 "$f" | cut -c6-); tail -n +2 "$f" ;;
*) cat "$f" ;;
esac
exit $code
`, dir, len(answers))
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, log
}

// claudeJSON is `claude -p --output-format json`'s result object.
func claudeJSON(result string, isErr bool) string {
	sub := "success"
	if isErr {
		sub = "error_during_execution"
	}
	b, _ := json.Marshal(map[string]any{"type": "result", "subtype": sub, "is_error": isErr, "duration_ms": 2481,
		"num_turns": 1, "result": result, "session_id": "b7f0c1de-0000-4000-8000-000000000000", "total_cost_usd": 0.0031})
	return string(b)
}
