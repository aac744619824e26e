package writeguard

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/hookjson"
)

func TestAddedRange(t *testing.T) {
	for _, c := range []struct {
		before, after string
		lo, hi        int
	}{
		{"", "abc", 0, 3},
		{"abc", "abc", 0, 3}, // nothing changed: the line where the texts meet
		{"a\nb\nc\n", "a\nbX\nc\n", 2, 4},
		{"a\nb\nc\n", "a\nc\n", 2, 3}, // a deletion: the line it joins
		{"token:\nabc", "token:abc", 0, 9},
		{"x\r\ny\r\n", "x\r\nyy\r\n", 3, 5},
		{"x\n\ny", "x\n\n\ny", 3, 5}, // an empty line added: it and the line after
		{"abc", "", 0, 0},
	} {
		lo, hi := addedRange(c.before, c.after)
		if lo != c.lo || hi != c.hi {
			t.Errorf("addedRange(%q, %q) = %d, %d; want %d, %d", c.before, c.after, lo, hi, c.lo, c.hi)
		}
	}
}

// addedRangeBytewise is addedRange as it was, comparing byte by byte: the
// oracle of TestAddedRangeBlocks.
func addedRangeBytewise(before, after string) (lo, hi int) {
	n := min(len(before), len(after))
	for lo < n && before[lo] == after[lo] {
		lo++
	}
	s := 0
	for s < n-lo && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	hi = max(lo, len(after)-s)
	lo = strings.LastIndexAny(after[:lo], "\r\n") + 1
	if i := strings.IndexAny(after[hi:], "\r\n"); i >= 0 {
		hi += i
	} else {
		hi = len(after)
	}
	if lo == hi && hi < len(after) {
		hi++
	}
	return lo, hi
}

// TestAddedRangeBlocks: comparing a block at a time finds the range byte
// by byte finds, for edits at every offset around the block size of texts
// of lengths around it, repeated text included (where a common start and
// a common end overlap).
func TestAddedRangeBlocks(t *testing.T) {
	base := strings.Repeat("line of the index, a pointer\n", 12) // 348 bytes
	for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 129, 200, len(base)} {
		text := base[:n]
		for at := 0; at <= n; at++ {
			for _, edit := range []struct{ del, ins string }{{"", "X"}, {"", "\n"}, {"1", ""}, {"1", "YY"}, {"3", ""}, {"", "line of the index, a pointer\n"}} {
				del := min(len(edit.del), n-at)
				after := text[:at] + edit.ins + text[at+del:]
				for _, pair := range [][2]string{{text, after}, {after, text}} {
					lo, hi := addedRange(pair[0], pair[1])
					wlo, whi := addedRangeBytewise(pair[0], pair[1])
					if lo != wlo || hi != whi {
						t.Fatalf("addedRange of %d bytes edited at %d (%q for %d bytes) = %d, %d; byte by byte %d, %d", n, at, edit.ins, del, lo, hi, wlo, whi)
					}
				}
			}
		}
	}
}

// TestJudgeSecretsAdded: the guard judges the secrets a write adds — on
// the edited lines, with the whole file's context — and lets an edit
// elsewhere in a file that already holds one through.
func TestJudgeSecretsAdded(t *testing.T) {
	const pat = "ghp_" + "R7fQ2kLm9XwZ4vBn8TsY1cHj6DpE3aGu5WoK"
	entry := "---\nname: bot\ndescription: the release bot\n---\n\n## Notes\n\nThe bot posts releases.\n\n## Credentials\n\n- staging: see the vault\n"
	for _, c := range []struct {
		name       string
		file       string
		old, new   string
		wantSecret bool
	}{
		{"a token added to a line", entry, "The bot posts releases.", "The bot posts releases with " + pat + ".", true},
		{"an edit elsewhere in a file holding a secret", entry + "- prod token: " + pat + "\n", "The bot posts releases.", "The bot posts signed releases.", false},
		{"a value added under an existing secret heading", entry, "- staging: see the vault", "- staging: see the vault\n- prod: Xk9!mQ2#vR", true},
		{"lines joined into a secret", "token:\n" + pat + "\n", "token:\n", "token: ", true},
		{"a harmless edit", entry, "posts", "publishes", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := testStore(t, map[string]string{"MEMORY.md": "# Memory\n\n- [Bot](reference_bot.md) — how the release bot is set up\n", "reference_bot.md": c.file})
			if !strings.Contains(c.file, c.old) {
				t.Fatalf("%q not in the file", c.old)
			}
			v := judge(filepath.Join(dir, "reference_bot.md"), "Edit", hookjson.ToolInput{OldString: str(c.old), NewString: str(c.new)})
			if got := strings.Contains(codes(v), "secret"); got != c.wantSecret {
				t.Errorf("denied for a secret = %v, want %v (problems %s: %s)", got, c.wantSecret, codes(v), v.Reason())
			}
			if c.wantSecret && strings.Contains(v.Reason(), pat) {
				t.Error("the reason repeats the secret")
			}
		})
	}
}
