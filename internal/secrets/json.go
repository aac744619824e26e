package secrets

import (
	"fmt"
	"io"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/textfile"
)

// JSONVersion is the version of the JSON the secrets verb prints. It
// changes only when a field changes meaning or goes away.
const JSONVersion = 1

// JSONReport is the secrets verb's JSON output.
//
//	{
//	  "version": 1,
//	  "result": "clean" | "secrets" | "unreadable",
//	  "scanned": ["path", ...],
//	  "findings": [{"file": "path", "line": 3, "rule": "github-pat", "excerpt": "token ghp_…****"}],
//	  "skipped": [{"path": "path", "reason": "binary file"}],
//	  "errors": [{"path": "path", "error": "open: permission denied"}]
//	}
//
// result is "unreadable" when any path could not be read (exit 2), else
// "secrets" when there are findings (exit 1), else "clean" (exit 0).
// Arrays are never null.
type JSONReport struct {
	Version  int           `json:"schema_version"`
	Result   string        `json:"result"`
	Scanned  []string      `json:"scanned"`
	Findings []FileFinding `json:"findings"`
	Skipped  []Skip        `json:"skipped"`
	Errors   []FileError   `json:"errors"`
}

// JSONError is the JSON of a secrets run that scanned nothing: result is
// "usage-error" (exit 3).
type JSONError struct {
	Version int    `json:"schema_version"`
	Result  string `json:"result"`
	Reason  string `json:"reason"`
}

// WriteJSONError writes a JSONError for a usage error.
func WriteJSONError(w io.Writer, reason string) error {
	return jsonout.Write(w, JSONError{Version: JSONVersion, Result: "usage-error", Reason: reason})
}

// Result names the report's outcome: "unreadable", "secrets" or "clean".
func (rep *Report) Result() string {
	switch {
	case len(rep.Errors) > 0:
		return "unreadable"
	case len(rep.Findings) > 0:
		return "secrets"
	}
	return "clean"
}

// WriteJSON writes the report as one JSON object.
func (rep *Report) WriteJSON(w io.Writer) error {
	return jsonout.Write(w, rep.JSONReport())
}

// JSONReport is the report's --json document.
func (rep *Report) JSONReport() JSONReport {
	return JSONReport{
		Version:  JSONVersion,
		Result:   rep.Result(),
		Scanned:  jsonout.NonNil(rep.Scanned),
		Findings: jsonout.NonNil(rep.Findings),
		Skipped:  jsonout.NonNil(rep.Skipped),
		Errors:   jsonout.NonNil(rep.Errors),
	}
}

// WriteText writes one line per finding, "file:line: rule: excerpt", then a
// summary line. Skips and errors are the caller's to print (on stderr).
func (rep *Report) WriteText(w io.Writer) error {
	for _, f := range rep.Findings {
		if _, err := fmt.Fprintf(w, "%s:%d: %s: %s\n", f.File, f.Line, f.Rule, f.Excerpt); err != nil {
			return err
		}
	}
	files := map[string]bool{}
	for _, f := range rep.Findings {
		files[f.File] = true
	}
	var err error
	switch {
	case len(rep.Findings) > 0:
		_, err = fmt.Fprintf(w, "%s in %s (%s scanned)\n", textfile.Count(len(rep.Findings), "secret"), textfile.Count(len(files), "file"), textfile.Count(len(rep.Scanned), "file"))
	default:
		_, err = fmt.Fprintf(w, "no secrets found (%s scanned)\n", textfile.Count(len(rep.Scanned), "file"))
	}
	return err
}
