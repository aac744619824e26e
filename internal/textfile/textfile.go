// Package textfile reads memory files the way every memcompact verb must:
// one read, a UTF-8 decode with the byte-order mark dropped, a line split
// that treats CRLF, lone CR and LF alike, and the counting rule that
// measures size in UTF-16 code units.
//
// Every verb reads through this package so that "a line" and "a character"
// mean the same thing everywhere: a second counting rule would let two verbs
// disagree about whether the same index is over its budget.
package textfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxSize is the largest file memcompact reads. Memory files are loaded
// into a model's context; anything larger is not a memory file, and
// refusing it keeps a stray binary from exhausting memory.
const MaxSize = 64 << 20

// BOM is the UTF-8 byte-order mark.
const BOM = "\uFEFF"

// ErrNotRegular is returned (wrapped) when a path names a directory or
// another non-regular file where a regular file is required.
var ErrNotRegular = errors.New("not a regular file")

// File is a file read once: its raw bytes (for digests and byte-exact
// rewrites) and its decoded text (for lines and measurement).
type File struct {
	Path   string // the path as given
	Raw    []byte // the bytes on disk
	Text   string // Raw decoded: BOM dropped, invalid UTF-8 replaced by U+FFFD
	HasBOM bool   // Raw began with a UTF-8 byte-order mark
	Digest string // hex SHA-256 of Raw
}

// Read reads a regular file (following symlinks) of at most MaxSize bytes.
// A directory or other non-regular file is an error wrapping ErrNotRegular;
// a missing file wraps fs.ErrNotExist.
func Read(path string) (*File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read one byte past the limit so a file that grew past it between the
	// stat and the read is still caught.
	// Size the buffer from the stat so a large index is read in one
	// allocation rather than by repeated doubling.
	buf := bytes.NewBuffer(make([]byte, 0, min(fi.Size(), MaxSize)+1))
	_, err = buf.ReadFrom(io.LimitReader(f, MaxSize+1))
	raw := buf.Bytes()
	if err != nil {
		// os.File's errors already name the path; naming it again would
		// print "read P: read P: input/output error".
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return nil, err
		}
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if len(raw) > MaxSize {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("file is larger than %d bytes; memory files are loaded into a model's context, so this is not one", MaxSize)}
	}
	return FromBytes(path, raw), nil
}

// FromBytes builds a File from bytes already in memory (a hook's proposed
// content, a test case).
func FromBytes(path string, raw []byte) *File {
	sum := sha256.Sum256(raw)
	text, bom := Decode(raw)
	return &File{Path: path, Raw: raw, Text: text, HasBOM: bom, Digest: hex.EncodeToString(sum[:])}
}

// Digest returns the hex SHA-256 of b.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Decode drops a leading UTF-8 BOM and replaces each invalid UTF-8 byte
// with U+FFFD, as a UTF-8 decoder with replacement does. It reports whether
// a BOM was dropped.
func Decode(raw []byte) (text string, hadBOM bool) {
	s := string(raw)
	if strings.HasPrefix(s, BOM) {
		s = s[len(BOM):]
		hadBOM = true
	}
	if !utf8.ValidString(s) {
		s = replaceInvalid(s)
	}
	return s, hadBOM
}

// replaceInvalid substitutes U+FFFD for each byte that does not begin a
// valid UTF-8 sequence. (A decoder following the WHATWG "maximal subpart"
// practice would emit one U+FFFD for a truncated multi-byte sequence; the
// difference only shows in the size of files that are not valid UTF-8.)
func replaceInvalid(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Lines splits text into lines at CRLF, lone CR and lone LF. A terminator
// at the very end does not start another line, so "a\nb\n" is two lines
// and "a\nb\n\n" is three; the empty text has no lines.
func Lines(text string) []string {
	if text == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	start := 0
	if strings.IndexByte(text, '\r') < 0 {
		// LF only (the common case): jump from one LF to the next.
		for {
			i := strings.IndexByte(text[start:], '\n')
			if i < 0 {
				break
			}
			lines = append(lines, text[start:start+i])
			start += i + 1
		}
		if start < len(text) {
			lines = append(lines, text[start:])
		}
		return lines
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			lines = append(lines, text[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, text[start:i])
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if start < len(text) {
		lines = append(lines, text[start:])
	}
	return lines
}

// SplitKeep splits text exactly where Lines does, but each line keeps its
// terminator (LF, CRLF or a lone CR), so joining the lines gives the text
// back byte for byte. Rewriters edit by line through it and print the
// lines they did not touch verbatim.
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

// TrimEOL drops a line's terminator (LF, CRLF or a lone CR), as SplitKeep
// leaves it.
func TrimEOL(line string) string { return strings.TrimRight(line, "\r\n") }

// EOL is the line ending text mostly uses, and so the one new lines should
// get: CRLF when more than half of its LFs end a CRLF, else LF.
func EOL(text string) string {
	if strings.Count(text, "\r\n")*2 > strings.Count(text, "\n") {
		return "\r\n"
	}
	return "\n"
}

// Normalize replaces every CRLF, then every remaining lone CR, with LF.
func Normalize(text string) string {
	if !strings.Contains(text, "\r") {
		return text
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	return strings.ReplaceAll(text, "\r", "\n")
}

// Units is the counting rule: the length of Normalize(text) in UTF-16 code
// units. A character outside the Basic Multilingual Plane counts two, an
// em dash one. It does not allocate.
func Units(text string) int {
	// CRLF becomes one LF: every other byte of the text counts as
	// UTF16Len counts it.
	return UTF16Len(text) - strings.Count(text, "\r\n")
}

// UTF16Len is the length of text in UTF-16 code units, as JavaScript's
// String.length gives it: one per character of the Basic Multilingual
// Plane, two beyond it, one per byte of invalid UTF-8 (which decodes to
// U+FFFD). It runs over ASCII eight bytes at a time: the load cut and the
// counting rule measure every index on every hook.
func UTF16Len(text string) int {
	n := 0
	for i := 0; i < len(text); {
		if i+8 <= len(text) && text[i]|text[i+1]|text[i+2]|text[i+3]|text[i+4]|text[i+5]|text[i+6]|text[i+7] < utf8.RuneSelf {
			n, i = n+8, i+8
			continue
		}
		if text[i] < utf8.RuneSelf {
			n, i = n+1, i+1
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		n += utf16.RuneLen(r)
		i += size
	}
	return n
}

// UnitsOfRune is the UTF-16 length of one rune (1 or 2; 1 for invalid).
func UnitsOfRune(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}
