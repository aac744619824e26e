package journal

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/memcompact/memcompact/internal/textfile"
)

// sessionState is what one agent session last knew of the index: the
// digest of the text it saw at session start or last wrote itself.
type sessionState struct {
	Index string `json:"index_sha256"`
}

func (j *Journal) sessionPath(session string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, session)
	if len(safe) > 100 {
		safe = safe[:100]
	}
	return filepath.Join(j.sessionsDir(), safe+".json")
}

// seeIndex records that session now knows the index as text (it was shown
// it at session start, or wrote it). Errors are returned for the caller to
// ignore: a hook never fails on the journal.
func (j *Journal) seeIndex(session string, text []byte) error {
	if session == "" {
		return nil
	}
	return j.seeIndexDigest(session, text, textfile.Digest(text))
}

// seeIndexDigest is seeIndex for text whose digest d the caller has
// (a read's own).
func (j *Journal) seeIndexDigest(session string, text []byte, d string) error {
	v, err := j.stageView(session, text, d)
	if err != nil {
		return err
	}
	return v.commit()
}

// stagedView is a session's view written and synced under a temporary
// name, named by commit (or removed by abort): a session-start hook
// stages it while its snapshot's objects are synced and names it with
// the manifest, once they are durable.
type stagedView struct{ tmp, path string }

// commit names the view; a nil view (nothing to write) commits nothing.
func (v *stagedView) commit() error {
	if v == nil {
		return nil
	}
	return commitFile(v.tmp, v.path, true)
}

func (v *stagedView) abort() {
	if v != nil {
		os.Remove(v.tmp)
	}
}

// stageView stores text as an object (synced, when new) and stages the
// record that session now knows the index as text; nil when there is
// nothing to write (no session, or a resumed session that saw this index
// already).
func (j *Journal) stageView(session string, text []byte, d string) (*stagedView, error) {
	if session == "" {
		return nil, nil
	}
	if err := ensureDirs(j.objectsDir(), j.sessionsDir()); err != nil {
		return nil, err
	}
	// An index this run's snapshot stores is durable before the view is
	// named; any other is stored here.
	if !j.knownStored(d) {
		if err := j.storeLoose([]packObject{{digest: d, data: text}}); err != nil {
			return nil, err
		}
	}
	raw, _ := json.Marshal(sessionState{Index: d})
	path := j.sessionPath(session)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, raw) {
		return nil, nil // the session saw this index already (a resumed session)
	}
	tmp, err := stageFile(path, raw, true)
	if err != nil {
		return nil, err
	}
	return &stagedView{tmp: tmp, path: path}, nil
}

// clobbered returns the lines a write of the index would remove that
// another writer added after session last saw the index: the mark of a
// write based on a stale copy. It is nil when the session's view is
// unknown (nothing is judged without evidence) or the index is unchanged
// since.
func (j *Journal) clobbered(session string, current, proposed string) []string {
	if session == "" {
		return nil
	}
	removed := removedLines(current, proposed)
	if len(removed) == 0 {
		return nil // a write that removes no line clobbers nothing
	}
	raw, err := os.ReadFile(j.sessionPath(session))
	if err != nil {
		return nil
	}
	var st sessionState
	if json.Unmarshal(raw, &st) != nil || st.Index == "" || st.Index == textfile.DigestString(current) {
		return nil
	}
	seen, err := j.object(st.Index)
	if err != nil {
		return nil
	}
	seenText, _ := textfile.DecodeOwned(seen)
	// Only lines the write removes can be clobbered, so only they are
	// counted: how many more times each stands in the index now than in
	// the session's view (another writer's additions).
	cur := orderedLines(current)
	foreign := map[string]int{}
	for _, l := range cur {
		if removed[l] > 0 {
			foreign[l]++
		}
	}
	for _, l := range orderedLines(seenText) {
		if _, ok := foreign[l]; ok {
			foreign[l]--
		}
	}
	var out []string
	for _, l := range cur {
		if foreign[l] > 0 && removed[l] > 0 {
			out = append(out, l)
			foreign[l]--
			removed[l]--
		}
	}
	return out
}

func countLines(lines []string) map[string]int {
	m := map[string]int{}
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			m[strings.TrimRight(l, " \t")]++
		}
	}
	return m
}

// removedLines counts the lines of current a write leaving proposed
// removes: only the lines between their common first and last lines are
// counted, the rest stands in both.
func removedLines(current, proposed string) map[string]int {
	ct, _ := textfile.DecodeString(current)
	pt, _ := textfile.DecodeString(proposed)
	c, p := textfile.Lines(ct), textfile.Lines(pt)
	for len(c) > 0 && len(p) > 0 && c[0] == p[0] {
		c, p = c[1:], p[1:]
	}
	for len(c) > 0 && len(p) > 0 && c[len(c)-1] == p[len(p)-1] {
		c, p = c[:len(c)-1], p[:len(p)-1]
	}
	return minus(countLines(c), countLines(p))
}

// orderedLines is the non-blank lines of text in order, each without its
// trailing blanks.
func orderedLines(text string) []string {
	t, _ := textfile.DecodeString(text)
	var out []string
	for _, l := range textfile.Lines(t) {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimRight(l, " \t"))
		}
	}
	return out
}

// minus is the multiset a − b.
func minus(a, b map[string]int) map[string]int {
	out := map[string]int{}
	for k, n := range a {
		if d := n - b[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}
