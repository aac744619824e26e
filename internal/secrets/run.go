package secrets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
)

// Request is one secrets scan.
type Request struct {
	// Paths are the files and directories to scan. None means the current
	// project's store directory and the user's CLAUDE.md, whichever exist.
	Paths []string
	Where store.Where
	// NoCache scans every file afresh (--no-cache).
	NoCache bool
}

// Result is a scan's report, with what the scan has to say beside it
// (why the current project's store was not scanned).
type Result struct {
	*Report
	Warnings []string
}

// Status is refused when a file could not be read, defects when secrets
// were found, else clean.
func (r *Result) Status() outcome.Status {
	switch r.Report.Result() {
	case "unreadable":
		return outcome.Refused
	case "secrets":
		return outcome.Defects
	}
	return outcome.Clean
}

// Reasons a scan is rejected for.
const (
	ReasonNoSuchPath  outcome.Reason = "no-such-path"
	ReasonNothingToDo outcome.Reason = "nothing-to-scan"
)

// Usage is the verb's synopsis, which its usage errors repeat.
const Usage = "secrets [--json] [--no-cache] [PATH...]"

// Run scans the requested paths.
func Run(ctx context.Context, req Request) (*Result, error) {
	res := &Result{}
	paths := req.Paths
	if len(paths) == 0 {
		var err error
		if paths, err = res.defaultPaths(req.Where); err != nil {
			return res, err
		}
	}
	for _, p := range paths {
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			return res, &outcome.Error{Status: outcome.Usage, Reason: ReasonNoSuchPath, Msg: fmt.Sprintf("%s: no such file or directory", p),
				Hints: []string{"usage: memcompact " + Usage}}
		}
	}
	res.Report = ScanFilesWith(paths, ScanOptions{NoCache: req.NoCache})
	return res, nil
}

// defaultPaths returns the current project's store directory (when it has
// an index) and the user's CLAUDE.md (when it exists). With neither, it is
// a usage error: there is nothing to scan.
func (r *Result) defaultPaths(w store.Where) ([]string, error) {
	var paths, hints []string
	if w.Cwd != "" {
		index, err := w.DefaultIndex("secrets")
		var e *outcome.Error
		switch {
		case err == nil:
			paths = append(paths, filepath.Dir(index))
		case errors.As(err, &e):
			hints = e.Hints
			r.Warnings = append(r.Warnings, e.Msg)
		}
	}
	getenv := w.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if w.Home != "" || getenv("CLAUDE_CONFIG_DIR") != "" {
		claudeMD := filepath.Join(store.ConfigDir(getenv, w.Home), "CLAUDE.md")
		if fi, err := os.Stat(claudeMD); err == nil && !fi.IsDir() {
			paths = append(paths, claudeMD)
		}
	}
	if len(paths) == 0 {
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonNothingToDo, Msg: "nothing to scan: no memory store for this project and no CLAUDE.md",
			Hints: append(hints, "name what to scan: memcompact secrets PATH...")}
	}
	return paths, nil
}

// ErrorJSON is secrets' --json object for a Run error.
func ErrorJSON(err error) JSONError {
	return JSONError{Version: JSONVersion, Result: outcome.StatusOf(err).String(), Reason: outcome.MessageOf(err)}
}
