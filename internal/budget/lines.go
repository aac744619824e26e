package budget

import (
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// SplitKeep is textfile.SplitKeep: lines that keep their terminators.
func SplitKeep(text string) []string { return textfile.SplitKeep(text) }

// trimEOL drops a line's terminator.
func trimEOL(l string) string {
	return strings.TrimRight(l, "\r\n")
}

// dominantEOL is the line ending new lines should get: CRLF when the text
// already uses it, else LF.
func dominantEOL(text string) string {
	if strings.Count(text, "\r\n")*2 > strings.Count(text, "\n") {
		return "\r\n"
	}
	return "\n"
}
