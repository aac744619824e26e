package budget

// The first steps of every verb that works under a policy: finding the
// memory root, loading its policy, and resolving a FILE argument to its row.
// They return *outcome.Error with a Reason and the hints both faces say
// (a face may replace a reason's hint with a command to paste).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/shellword"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Reasons of the refusals and usage errors of this package's entry points.
const (
	ReasonBadRoot         outcome.Reason = "bad-root"           // the root named is not a directory (usage)
	ReasonNoRoot          outcome.Reason = "no-root"            // no policy from the working directory upward
	ReasonNoPolicy        outcome.Reason = "no-policy"          // the root has no compaction policy
	ReasonMalformedPolicy outcome.Reason = "malformed-policy"   // the policy has bad lines; Err is an ErrorList
	ReasonUnreadable      outcome.Reason = "unreadable"         // a file or directory could not be read or written
	ReasonChanged         outcome.Reason = "changed-underneath" // another writer changed the file since it was read
	ReasonOutsideRoot     outcome.Reason = "outside-root"       // a FILE is not under the memory root
	ReasonExcluded        outcome.Reason = "excluded"           // a FILE is under compaction/
	ReasonNotInPolicy     outcome.Reason = "not-in-policy"      // a FILE has no row in the budgets table
	ReasonBadRequest      outcome.Reason = "bad-request"        // a value of the request is out of range (usage)
)

// ResolveRoot returns the memory root: dir when given (made absolute; it
// must be a directory), else the nearest directory from the working
// directory upward holding the policy.
func ResolveRoot(dir string) (string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", outcome.Usagef(ReasonBadRoot, "--root %s: %v", dir, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", outcome.Usagef(ReasonBadRoot, "--root %s: not a directory", dir)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", outcome.Refuse(ReasonUnreadable, "cannot read the working directory: %v", err)
	}
	root, err := FindRoot(wd)
	if err != nil {
		return "", &outcome.Error{Status: outcome.Refused, Reason: ReasonNoRoot, Msg: err.Error(), Err: err,
			Hints: []string{"run 'memcompact init' in the directory that is to be the memory root, or name the root that holds " + PolicyRel}}
	}
	return root, nil
}

// Open resolves the root as ResolveRoot does and loads its policy as
// OpenPolicy does.
func Open(dir string) (string, *Policy, error) {
	root, err := ResolveRoot(dir)
	if err != nil {
		return "", nil, err
	}
	p, _, err := OpenPolicy(root)
	if err != nil {
		return "", nil, err
	}
	return root, p, nil
}

// OpenPolicy is loadFile with its failures as refusals: a missing policy,
// or a malformed one listing every bad line.
func OpenPolicy(root string) (*Policy, *textfile.File, error) {
	p, f, err := loadFile(root)
	if err == nil {
		return p, f, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonNoPolicy,
			File: filepath.Join(root, filepath.FromSlash(PolicyRel)), Msg: "no compaction policy", Err: err,
			Hints: []string{"create its policy: memcompact init " + shellword.Quote(root)}}
	}
	var list ErrorList
	if errors.As(err, &list) {
		indented := "  " + strings.ReplaceAll(list.Error(), "\n", "\n  ")
		return nil, nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonMalformedPolicy,
			Msg: "malformed compaction policy; nothing was changed\n" + indented, Err: list,
			Hints: []string{"fix those lines of " + PolicyRel + " (" + PolicyRow + "), then run it again"}}
	}
	return nil, nil, IOFailure(err)
}

// PolicyRow says what a row of the budgets table looks like, for the
// hints of a malformed policy.
const PolicyRow = `a row is | File | Budget | Newest tier | Notes |, a budget "200 lines" or "4000 chars", a newest tier "last 10 entries"`

// RelIn is Rel with its failure as a refusal.
func RelIn(root, file string) (string, error) {
	rel, err := Rel(root, file)
	if err != nil {
		return "", &outcome.Error{Status: outcome.Refused, Reason: ReasonOutsideRoot, Msg: err.Error(), Err: err}
	}
	return rel, nil
}

// Budgeted resolves a FILE argument to its root-relative path and row. A
// file outside the root, under compaction/, or without a row is refused:
// the policy is the contract, and a file it does not name is never touched.
func Budgeted(root string, p *Policy, file string) (string, *Row, error) {
	rel, err := RelIn(root, file)
	if err != nil {
		return "", nil, err
	}
	if Excluded(rel) {
		return "", nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonExcluded, File: rel, Msg: "files under compaction/ are never compacted"}
	}
	row, ok := p.Lookup(rel)
	if !ok {
		return "", nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonNotInPolicy,
			Msg: fmt.Sprintf("%s is not in the compaction policy; a file without a budget is never compacted", rel)}
	}
	return rel, row, nil
}

// IOFailure is a refusal for a failed read or write, worded as the error
// itself; a write that found the file changed since it was read says so in
// its Reason.
func IOFailure(err error) *outcome.Error {
	reason := ReasonUnreadable
	if errors.Is(err, atomicfile.ErrChanged) {
		reason = ReasonChanged
	}
	return &outcome.Error{Status: outcome.Refused, Reason: reason, Msg: err.Error(), Err: err}
}
