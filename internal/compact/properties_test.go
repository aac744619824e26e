package compact

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/textfile"
)

// checkRewrite asserts the properties every compaction must have, given
// the original text, the rewrite and the memory root (whose snapshots the
// rewrite's block names; snapRel, not yet written, stands for orig):
//
//	(a) every original line is byte-identical in the rewrite or in a
//	    snapshot the rewrite names;
//	(b) every must-keep line (and every <!-- keep --> line) is still in
//	    the rewrite;
//	(c) no nested item of the block sits under another parent than in the
//	    original;
//	(d) every code block and table of the rewrite is one of the original's.
func checkRewrite(t *testing.T, name, orig, newText, root, snapRel string, keep []string) {
	t.Helper()
	orig = textfile.Normalize(strings.TrimPrefix(orig, "\uFEFF"))
	newText = textfile.Normalize(newText)
	have := map[string]bool{}
	for _, l := range strings.Split(newText, "\n") {
		have[l] = true
	}
	for _, rel := range snapsRE().FindAllString(newText, -1) {
		var text string
		if rel == snapRel {
			text = orig
		} else if raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			text = textfile.Normalize(string(raw))
		} else {
			t.Errorf("%s: the block names %s, which cannot be read: %v", name, rel, err)
		}
		for _, l := range strings.Split(text, "\n") {
			have[l] = true
		}
	}
	for i, l := range strings.Split(orig, "\n") {
		if !have[l] {
			t.Errorf("%s: (a) original line %d %q is neither in the file nor in a snapshot it names", name, i+1, l)
			break
		}
	}
	flat := distill.Flat(newText)
	for _, k := range keep {
		if !strings.Contains(flat, distill.Flat(k)) {
			t.Errorf("%s: (b) must-keep %q left the live file", name, k)
		}
	}
	for _, l := range strings.Split(orig, "\n") {
		if strings.Contains(l, "<!-- keep -->") && !strings.Contains(flat, distill.Flat(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-*+ ")))) {
			t.Errorf("%s: (b) marked line %q left the live file", name, l)
		}
	}
	checkParents(t, name, orig, newText)
	if g := foreignStructure(newText, orig); g != "" {
		t.Errorf("%s: (d) code block or table not in the original:\n%s", name, g)
	}
}

var nestedRE = regexp.MustCompile(`^(\s+)[-*+] (.*)$`)

// checkParents is property (c): a nested line of the block that is a
// list item of the original sits, in the block, under a bullet naming one
// of that item's ancestors in the original.
func checkParents(t *testing.T, name, orig, newText string) {
	t.Helper()
	ancestors := map[string][]string{} // item text -> the texts of its ancestors
	var stack []struct {
		ind  int
		text string
	}
	for _, l := range strings.Split(orig, "\n") {
		m := regexp.MustCompile(`^(\s*)[-*+] (.*)$`).FindStringSubmatch(l)
		if m == nil {
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, " ") {
				stack = nil
			}
			continue
		}
		ind := len(m[1])
		for len(stack) > 0 && stack[len(stack)-1].ind >= ind {
			stack = stack[:len(stack)-1]
		}
		var anc []string
		for _, s := range stack {
			anc = append(anc, s.text)
		}
		if len(anc) > 0 {
			ancestors[m[2]] = append(ancestors[m[2]], anc...)
		}
		stack = append(stack, struct {
			ind  int
			text string
		}{ind, m[2]})
	}
	inBlock, head := false, ""
	for _, l := range strings.Split(newText, "\n") {
		switch {
		case strings.HasPrefix(l, "## Compacted History"):
			inBlock = true
			continue
		case inBlock && (strings.HasPrefix(l, "#") || l == "---"):
			inBlock = false
		}
		if !inBlock {
			continue
		}
		if strings.HasPrefix(l, "- ") {
			head = l[2:]
			continue
		}
		m := nestedRE.FindStringSubmatch(l)
		if m == nil || len(m[1]) != 2 {
			continue
		}
		anc, ok := ancestors[m[2]]
		if !ok {
			continue
		}
		found := false
		for _, a := range anc {
			if _, _, body := distillSplit(a); strings.Contains(head, body) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: (c) %q sits under %q, not under one of %q", name, m[2], head, anc)
		}
	}
}

// distillSplit strips a leading date stamp.
func distillSplit(s string) (string, string, string) {
	if m := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(?: \d{1,2}:\d{2})?\s*[:：—–-]\s*`).FindString(s); m != "" {
		return m, "", s[len(m):]
	}
	return "", "", s
}

// mustKeepOf is what the plan's verification demanded stay live.
func mustKeepOf(pl *Plan) []string {
	if pl.doc == nil {
		return nil
	}
	return distill.MustKeep(pl.sources(pl.k))
}
