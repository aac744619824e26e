package budget

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

// InitRequest asks to set up budgeted compaction in a memory root.
type InitRequest struct {
	// Root is the memory root; "" means the nearest directory from the
	// working directory upward that has a policy, or else the working
	// directory itself.
	Root  string
	Today time.Time // dates the note appended to an existing policy
}

// InitResult is what init did. Its JSON is init's --json output.
type InitResult struct {
	SchemaVersion int      `json:"schema_version"`
	Root          string   `json:"root"`
	Actions       []string `json:"actions"` // what init changed, in order; empty on a second run
	Changed       bool     `json:"changed"`
	Budgets       *Report  `json:"budgets"`
}

// Init creates compaction/ and compaction/snapshots/, writes the default
// policy if there is none (an existing one only gets the installation
// note), and adds the Memory Compaction section to master-memory.md if it
// exists without one. Everything is read and judged before anything is
// written: a malformed policy or an unreadable master-memory.md refuses
// init with nothing created. A second run changes nothing.
func Init(ctx context.Context, req InitRequest) (*InitResult, error) {
	root, err := initRoot(req.Root)
	if err != nil {
		return nil, err
	}
	release, err := lockfile.Lock(ctx, root)
	if err != nil {
		return nil, err
	}
	defer release()
	policyPath := filepath.Join(root, filepath.FromSlash(PolicyRel))
	master := filepath.Join(root, "master-memory.md")
	for _, p := range []string{policyPath, master, filepath.Join(root, filepath.FromSlash(SnapshotsRel))} {
		if err := atomicfile.Within(root, p); err != nil {
			return nil, outcome.Refuse(ReasonOutsideRoot, "%v; nothing was written", err)
		}
	}
	existing, err := readIfExists(policyPath)
	if err != nil {
		return nil, err
	}
	if existing != nil {
		if _, _, err := OpenPolicy(root); err != nil {
			return nil, err
		}
	}
	mf, err := readIfExists(master)
	if err != nil {
		return nil, err
	}

	res := &InitResult{SchemaVersion: SchemaVersion, Root: root, Actions: []string{}}
	if err := res.makeDirs(); err != nil {
		return nil, err
	}
	if err := res.writePolicy(policyPath, existing, req.Today); err != nil {
		return nil, err
	}
	if mf != nil && !strings.Contains(mf.Text, PolicyRel) {
		if err := atomicfile.Append(master, []byte(masterAddition(mf.Text))); err != nil {
			return nil, IOFailure(err)
		}
		res.Actions = append(res.Actions, "added the Memory Compaction section to master-memory.md")
	}
	res.Changed = len(res.Actions) > 0

	p, _, err := OpenPolicy(root)
	if err != nil {
		return nil, err
	}
	res.Budgets = Check(root, p)
	return res, nil
}

// initRoot is init's root: the one named, else the nearest with a policy,
// else the working directory.
func initRoot(dir string) (string, error) {
	if dir != "" {
		return ResolveRoot(dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", outcome.Refuse(ReasonUnreadable, "cannot read the working directory: %v", err)
	}
	if root, err := FindRoot(wd); err == nil {
		return root, nil
	}
	return wd, nil
}

// readIfExists reads path, or returns nil if there is no such file.
func readIfExists(path string) (*textfile.File, error) {
	f, err := textfile.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, IOFailure(err)
	}
	return f, nil
}

// makeDirs creates compaction/ and its snapshots folder where missing.
func (res *InitResult) makeDirs() error {
	for _, d := range []string{Dir, SnapshotsRel} {
		dir := filepath.Join(res.Root, filepath.FromSlash(d))
		fi, err := os.Stat(dir)
		switch {
		case err == nil && fi.IsDir():
			continue
		case err == nil:
			return outcome.Refuse(ReasonUnreadable, "%s exists and is not a directory", dir)
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return IOFailure(err)
		}
		res.Actions = append(res.Actions, "created "+d+"/")
	}
	return nil
}

// writePolicy writes the default policy, or appends the installation note
// to an existing one that does not have it yet.
func (res *InitResult) writePolicy(path string, existing *textfile.File, today time.Time) error {
	if existing == nil {
		if err := atomicfile.Replace(path, []byte(DefaultPolicy()), ""); err != nil {
			return IOFailure(err)
		}
		res.Actions = append(res.Actions, "wrote "+PolicyRel+" with the default budgets")
		return nil
	}
	if strings.Contains(existing.Text, installNoteMarker) {
		return nil
	}
	note := installNote(today.Format("2006-01-02"))
	if !strings.HasSuffix(existing.Text, "\n") && !strings.HasSuffix(existing.Text, "\r") && existing.Text != "" {
		note = "\n" + note
	}
	if eol := textfile.EOL(existing.Text); eol != "\n" {
		note = strings.ReplaceAll(note, "\n", eol)
	}
	if err := atomicfile.Append(path, []byte(note)); err != nil {
		return IOFailure(err)
	}
	res.Actions = append(res.Actions, "kept the existing "+PolicyRel+" and appended an installation note")
	return nil
}

// masterAddition is what init appends to master-memory.md's text: the
// Memory Compaction section after a blank line, in the file's line endings.
func masterAddition(text string) string {
	eol := textfile.EOL(text)
	add := eol + masterSection(eol)
	if text != "" && !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
		add = eol + add
	}
	return add
}

// masterSection is the Memory Compaction section init adds to
// master-memory.md; it names the policy file, which is also how init knows
// the section is already there.
func masterSection(eol string) string {
	s := strings.Join([]string{
		"## Memory Compaction",
		"*Long-lived memory files have size budgets; old entries are distilled, never dropped.*",
		"",
		"- Each file's budget and how many newest entries stay verbatim: `" + PolicyRel + "`.",
		"- Before saving to a budgeted file, measure it (`memcompact budgets`); if it is over",
		"  budget, compact it first (`memcompact save FILE` does both).",
		"- Every rewrite first copies the file to `" + SnapshotsRel + "/`;",
		"  `memcompact restore SNAPSHOT` puts a copy back.",
		"- The oldest entries become one `## Compacted History` block; secrets are never summarized.",
		"",
	}, "\n")
	return strings.ReplaceAll(s, "\n", eol)
}
