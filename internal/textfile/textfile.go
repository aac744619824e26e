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
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
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
	raw, err := readRaw(path)
	if err != nil {
		return nil, err
	}
	return FromBytes(path, raw), nil
}

// ReadUndigested is Read without the digest (File.Digest is "") and with
// Text sharing Raw's bytes when they are the text (no copy), for a
// caller that judges the text and hands the bytes on but never compares
// them by digest: the write guard reads the index on every memory write,
// and hashing a 78 KB index cost it 2.4 M instructions.
func ReadUndigested(path string) (*File, error) {
	raw, err := readRaw(path)
	if err != nil {
		return nil, err
	}
	text, bom := DecodeOwned(raw) // Text may share Raw's bytes: neither changes
	return &File{Path: path, Raw: raw, Text: text, HasBOM: bom}, nil
}

// ReadText is Read for a caller that needs only the decoded text (the
// check): no digest is computed, no File is built, and the text is the
// bytes read, not a copy of them (nothing else holds them, so they cannot
// change under it). In a process that lives for one check, a copy was the
// second largest allocation, and every page of it a page fault.
func ReadText(path string) (string, error) {
	raw, err := readRaw(path)
	if err != nil {
		return "", err
	}
	text, _ := DecodeOwned(raw)
	return text, nil
}

// readRaw reads the bytes of a regular file of at most MaxSize bytes.
func readRaw(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	raw, err := readFile(path, fi.Size())
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
	return raw, nil
}

// readAll reads with read to the end, or to one byte past MaxSize (so a
// file that grew past it between the stat and the read is still caught),
// into a buffer sized from the stat (size) with one spare byte, so that
// reaching the end needs no more room: the buffer grows only if the file
// grew since the stat. (bytes.Buffer's ReadFrom wants 512 free bytes before
// each read, so a buffer of exactly the file's size doubled at the end of
// every read: a third of a check's allocation.)
func readAll(read func([]byte) (int, error), size int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(size, 0), MaxSize)+1)
	for len(buf) <= MaxSize {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := read(buf[len(buf):min(cap(buf), MaxSize+1)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// FromBytes builds a File from bytes already in memory (a hook's proposed
// content, a test case).
func FromBytes(path string, raw []byte) *File {
	sum := sha256.Sum256(raw)
	text, bom := Decode(raw)
	return &File{Path: path, Raw: raw, Text: text, HasBOM: bom, Digest: hex.EncodeToString(sum[:])}
}

// IsDigest reports whether s has the form Digest gives: a SHA-256 in
// lowercase hex. Readers of stored digests check it before trusting one.
func IsDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Digest returns the hex SHA-256 of b.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// DigestString is Digest of the bytes of s, without copying them.
func DigestString(s string) string {
	return Digest(unsafe.Slice(unsafe.StringData(s), len(s)))
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
func Decode(raw []byte) (text string, hadBOM bool) { return DecodeString(string(raw)) }

// DecodeOwned is Decode for bytes nothing will change again (a file just
// read, an object just decompressed): valid text comes back as those very
// bytes, not a copy of them.
func DecodeOwned(raw []byte) (text string, hadBOM bool) {
	return DecodeString(unsafe.String(unsafe.SliceData(raw), len(raw)))
}

// DecodeString is Decode for bytes already held in a string (the built-in
// reference copy): valid text comes back without a copy.
func DecodeString(s string) (text string, hadBOM bool) {
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

// DecodedUnits is Units of text that Decode returned (or Read, ReadText):
// such text is valid UTF-8, so it is counted without being checked for
// validity a second time, which was half the cost of counting an index.
// Text from anywhere else must be counted by Units.
func DecodedUnits(text string) int {
	return utf16LenValid(text) - strings.Count(text, "\r\n")
}

// UTF16Len is the length of text in UTF-16 code units, as JavaScript's
// String.length gives it: one per character of the Basic Multilingual
// Plane, two beyond it, one per byte of invalid UTF-8 (which decodes to
// U+FFFD). The load cut and the counting rule measure every index on every
// hook, so valid text (all text read through this package) is counted
// eight bytes at a time without decoding a character.
func UTF16Len(text string) int {
	if utf8.ValidString(text) {
		return utf16LenValid(text)
	}
	n := 0
	for i := 0; i < len(text); {
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

// highBits is bit 7 of every byte of a word.
const highBits = 0x8080808080808080

// utf16LenValid is UTF16Len of valid UTF-8. Each character is one unit
// per byte that does not continue it (a continuation byte is 10xxxxxx),
// plus one more for a four-byte character (lead byte 11110xxx): both are
// counted for eight bytes at once, from the top bits of each byte.
func utf16LenValid(s string) int {
	n := len(s)
	for ; len(s) >= 8; s = s[8:] {
		w := s[:8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if x&highBits == 0 {
			continue // ASCII: one unit a byte
		}
		// Bit 7 of each byte, after shifting bit 6 (then 5, 4) into place.
		n -= bits.OnesCount64(x &^ (x << 1) & highBits)
		n += bits.OnesCount64(x & (x << 1) & (x << 2) & (x << 3) & highBits)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c&0xC0 == 0x80:
			n--
		case c >= 0xF0:
			n++
		}
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
