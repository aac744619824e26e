package writeguard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/hookjson"
	"github.com/memcompact/memcompact/internal/textfile"
)

// StaleError reports an Edit whose old_string is not in the file on disk:
// the agent is editing a version of the file that no longer exists (another
// session, or the user, changed it since it was read), so applying the edit
// would clobber that change or fail.
type StaleError struct {
	Edit int // 1-based edit number (MultiEdit), 0 for Edit
}

func (e *StaleError) Error() string {
	if e.Edit > 0 {
		return fmt.Sprintf("edit %d's old_string is not in the file on disk", e.Edit)
	}
	return "old_string is not in the file on disk"
}

// Apply computes the text a Write, Edit or MultiEdit call would leave,
// given the current decoded text of the file (exists false when there is
// no file yet). It follows the tools' semantics: Write replaces the whole
// file; Edit replaces the first occurrence of old_string (every one with
// replace_all), and an empty old_string on a missing or empty file creates
// it; MultiEdit applies its edits in order, each to the previous result.
//
// An old_string is looked for as written, then with line endings and
// typographic quotes normalized (the tools forgive both), and only when
// none of those match is the call stale.
func Apply(tool string, current string, exists bool, in *hookjson.ToolInput) (string, error) {
	switch tool {
	case "Write":
		if in.Content == nil {
			return "", errors.New("the Write call has no content")
		}
		return *in.Content, nil
	case "Edit":
		if in.OldString == nil || in.NewString == nil {
			return "", errors.New("the Edit call lacks old_string or new_string")
		}
		out, err := applyOne(current, exists, hookjson.Edit{OldString: *in.OldString, NewString: *in.NewString, ReplaceAll: in.ReplaceAll})
		if err != nil {
			return "", err
		}
		return out, nil
	case "MultiEdit":
		if len(in.Edits) == 0 {
			return "", errors.New("the MultiEdit call has no edits")
		}
		text := current
		for i, e := range in.Edits {
			out, err := applyOne(text, exists || i > 0, e)
			if err != nil {
				var se *StaleError
				if errors.As(err, &se) {
					se.Edit = i + 1
				}
				return "", err
			}
			text = out
		}
		return text, nil
	}
	return "", fmt.Errorf("%s is not a file-writing tool", tool)
}

func applyOne(text string, exists bool, e hookjson.Edit) (string, error) {
	if e.OldString == "" {
		if !exists || text == "" {
			return e.NewString, nil // the tools create a file this way
		}
		return "", &StaleError{}
	}
	for _, norm := range []func(string) string{same, textfile.Normalize, plainQuotes} {
		t, old := norm(text), norm(e.OldString)
		if !strings.Contains(t, old) {
			continue
		}
		if e.ReplaceAll {
			return strings.ReplaceAll(t, old, e.NewString), nil
		}
		return strings.Replace(t, old, e.NewString, 1), nil
	}
	return "", &StaleError{}
}

func same(s string) string { return s }

var quotes = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201C", `"`, "\u201D", `"`)

// plainQuotes normalizes line endings and typographic quotes.
func plainQuotes(s string) string { return quotes.Replace(textfile.Normalize(s)) }
