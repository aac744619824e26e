package sweepact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/memcompact/memcompact/internal/testshared"
)

// finishedWordWhole is finishedWord as it was: the pattern over the whole
// text at once.
func finishedWordWhole(text string) string {
	for _, m := range finishedRE().FindAllStringIndex(text, -1) {
		if m[0] > 0 && text[m[0]-1] == '-' {
			continue
		}
		if negated(text[:m[0]]) {
			continue
		}
		return text[m[0]:m[1]]
	}
	return ""
}

// TestFinishedWordByLine: finishedWord, line by line behind its literal
// shortcut, answers exactly as the pattern over the whole text, on
// hand-made texts and on every file of the real stores; and every letter
// the literals' letters fold to is an ASCII letter that lowers back to
// them, or the long s or Kelvin sign the shortcut checks for.
func TestFinishedWordByLine(t *testing.T) {
	for _, w := range finishedLiterals {
		for _, r := range string(w) {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if f == 'ſ' || f == '\u212a' {
					continue
				}
				if f >= 0x80 || rune(lowerASCII(byte(f))) != r {
					t.Errorf("%q folds to %q, which the shortcut would miss", r, f)
				}
			}
		}
	}
	texts := []string{
		"", "nothing here", "Fixed in v2", "not yet resolved\nResolved later", "self-closed tags", "auto-merged\nmerged by hand",
		"Not a regression; fixed in v2", "has not been\nfixed", "cloſed", "CLOSED", "unresolved", "résolu", "RÉSOLU", "Terminé",
		"noch nicht behoben", "behoben", "머지 완료", "머지완료", "해결됨", "已完成", "Completed\r\nmore", "line one\n\n-fixed\n fixed",
		"obsoleted", "resolvido", "\u212aept: closed", "Closed\u212a", "Concluído", "isn't fixed, merged", "the PR — merged", "deprecation", "landed.",
	}
	for _, tx := range texts {
		if got, want := finishedWord(tx), finishedWordWhole(tx); got != want {
			t.Errorf("finishedWord(%q) = %q, whole text gives %q", tx, got, want)
		}
	}
	root := testshared.RealStores(t)
	n, found := 0, 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		got, want := finishedWord(string(raw)), finishedWordWhole(string(raw))
		if got != want {
			t.Errorf("%s: finishedWord = %q, whole text gives %q", p, got, want)
		}
		if want != "" {
			found++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d with a finished word", n, found)
}
