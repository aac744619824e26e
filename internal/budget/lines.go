package budget

import "strings"

// SplitKeep splits text into lines that keep their terminators (LF, CRLF or
// a lone CR), so joining them gives text back. It splits exactly where
// textfile.Lines does, so line numbers agree with every other verb.
func SplitKeep(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			out = append(out, text[start:i+1])
			start = i + 1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			out = append(out, text[start:i+1])
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

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
