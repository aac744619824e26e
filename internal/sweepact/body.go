package sweepact

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/textfile"
)

// body is what the plan reads of one entry file: whether it is there, its
// frontmatter's simple keys (nested keys by their own name), and a line of
// its lesson the exit gate can look for at the destination.
type body struct {
	Exists bool
	Path   string
	Text   string
	Digest string
	Front  map[string]string // name, description, type, status, admitted, …
	Lesson string            // the description, else the first line of prose
	HasFM  bool
}

// readBody reads an entry file. A missing file is a body that does not
// exist; any other read error is returned, so nothing is decided about an
// entry whose text could not be read.
func readBody(reads *textfile.Reads, path string) (*body, error) {
	b := &body{Path: path, Front: map[string]string{}}
	f, err := reads.Read(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, textfile.ErrNotRegular) {
			return b, nil
		}
		return nil, err
	}
	b.Exists, b.Text, b.Digest = true, f.Text, f.Digest
	lines := textfile.Lines(f.Text)
	start := 0
	if len(lines) > 0 && index.TrimSpace(lines[0]) == "---" {
		b.HasFM = true
		for i := 1; i < len(lines); i++ {
			t := index.TrimSpace(lines[i])
			if t == "---" {
				start = i + 1
				break
			}
			k, v, ok := strings.Cut(t, ":")
			if !ok {
				continue
			}
			k = strings.TrimSpace(k)
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			if _, seen := b.Front[k]; !seen || v != "" {
				b.Front[k] = v
			}
		}
	}
	b.Lesson = b.Front["description"]
	if b.Lesson == "" {
		for _, l := range lines[start:] {
			t := index.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "#") {
				continue
			}
			b.Lesson = t
			break
		}
	}
	if b.Lesson != "" && !strings.Contains(b.Text, b.Lesson) {
		b.Lesson = "" // unquoting changed it; no probe is better than a wrong one
	}
	return b, nil
}
