package index

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Destination is the file path a link destination names, read as
// CommonMark reads a destination and as a file is then opened from it:
//
//   - an angle-bracketed destination loses its brackets (<my file.md>);
//   - a backslash before ASCII punctuation is an escape (my\_notes.md);
//   - a character reference is its character (&amp;, &#38;, &#x26;; of the
//     named ones only those a file name plausibly holds: amp, lt, gt,
//     quot, apos);
//   - the fragment goes: everything from the first '#' (x.md#section);
//   - percent-escapes are decoded (project%20notes.md, caf%C3%A9.md); a
//     '%' not followed by two hex digits is itself, as a CommonMark
//     renderer writes it (%25).
//
// A title never reaches it: ScanLinks cuts the destination before one.
// raw is the destination as written in the link; the result uses '/' as
// its separator, as the link does. Every verb that goes from a link to a
// file goes through Destination (Link.Dest) and Resolver, so the check,
// drift, doctor, the load cut and the sweep name the same file.
func Destination(raw string) string {
	s := raw
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		s = s[1 : len(s)-1]
	} else {
		s = strings.Trim(s, "<>")
	}
	if strings.ContainsAny(s, `\&`) {
		s = unescapeDest(s)
	}
	if h := strings.IndexByte(s, '#'); h >= 0 {
		s = s[:h]
	}
	if strings.IndexByte(s, '%') >= 0 {
		s = percentDecode(s)
	}
	return s
}

// unescapeDest removes CommonMark's backslash escapes and decodes the
// character references of s.
func unescapeDest(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i++
		case c == '&':
			if r, n := charRef(s[i:]); n > 0 {
				b.WriteString(r)
				i += n - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// namedRefs are the named character references Destination decodes.
var namedRefs = map[string]string{"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'"}

// charRef decodes the character reference at the start of s ("&amp;",
// "&#38;", "&#x26;") and returns it with its length, or n = 0.
func charRef(s string) (string, int) {
	semi := strings.IndexByte(s, ';')
	if semi < 3 || semi > 10 {
		return "", 0
	}
	body := s[1:semi]
	if body[0] != '#' {
		if r, ok := namedRefs[body]; ok {
			return r, semi + 1
		}
		return "", 0
	}
	digits, base := body[1:], 10
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base = digits[1:], 16
	}
	if digits == "" || len(digits) > 7 {
		return "", 0
	}
	for i := 0; i < len(digits); i++ {
		if _, ok := hexVal(digits[i]); !ok || base == 10 && digits[i] > '9' {
			return "", 0
		}
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return "", 0
	}
	r := rune(v)
	if r == 0 || r > 0x10FFFF || r >= 0xD800 && r <= 0xDFFF {
		r = '\uFFFD' // as CommonMark replaces them
	}
	return string(r), semi + 1
}

// percentDecode decodes every "%XX" of s and keeps any other '%'.
func percentDecode(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, ok1 := hexVal(s[i+1])
			lo, ok2 := hexVal(s[i+2])
			if ok1 && ok2 {
				if b == nil {
					b = append(make([]byte, 0, len(s)), s[:i]...)
				}
				b = append(b, hi<<4|lo)
				i += 2
				continue
			}
		}
		if b != nil {
			b = append(b, s[i])
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// IsURL reports whether a destination is not a file: a URL with a scheme
// (https://…, mailto:…).
func IsURL(dest string) bool {
	return strings.Contains(dest, "://") || strings.HasPrefix(strings.ToLower(dest), "mailto:")
}

// Outside reports whether a destination climbs out of the directory it is
// read from, or is absolute.
func Outside(dest string) bool {
	if strings.HasPrefix(dest, "/") || strings.Contains(dest, `:\`) || strings.HasPrefix(dest, `\\`) || len(dest) >= 2 && dest[1] == ':' {
		return true
	}
	depth := 0
	for _, seg := range strings.Split(dest, "/") {
		switch seg {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

// State is what a link's destination is on disk.
type State int

// The states of a destination.
const (
	Found      State = iota // a regular file (through a symbolic link too)
	Missing                 // no such file
	Directory               // a directory, not a file
	NotRegular              // a device, a socket, a pipe
	Unreadable              // the file system could not say (Err)
	NotFile                 // a URL, no file at all
)

// Resolved is where a link leads.
type Resolved struct {
	Dest    string      // Destination of the link
	Path    string      // the file it names: the directory joined with Dest, cleaned ("" for a URL)
	State   State       // what is there
	Err     error       // why it is Unreadable
	Outside bool        // Path lies outside the directory links are read from
	Entry   fs.DirEntry // the directory listing's entry for exactly this name, when the listing shows one
	// CaseTwin is, for a missing file, a name in its folder differing from
	// it only in letter case: on a file system that respects case the link
	// misses it, on one that ignores case (macOS, Windows) it is found.
	CaseTwin string
}

// Problem says what is wrong with a destination that is not a file, in
// drift's words, and a hint; "" when it is a file or not a file at all.
func (r Resolved) Problem() (reason, hint string) {
	switch r.State {
	case Missing:
		if r.CaseTwin != "" {
			hint = "a file differing only in letter case exists: " + r.CaseTwin
		}
		return "no such file", hint
	case Directory:
		return "a directory, not a file", ""
	case NotRegular:
		return "not a regular file", ""
	case Unreadable:
		msg := r.Err.Error()
		var pe *fs.PathError
		if errors.As(r.Err, &pe) {
			msg = pe.Err.Error()
		}
		return "cannot be read: " + msg, ""
	}
	return "", ""
}

// Resolver resolves link destinations relative to one directory (the
// index's), listing each directory it looks in once: a cut index points
// at hundreds of bodies, many long gone, and asking the file system about
// each one was most of a session start's system time.
type Resolver struct {
	dir      string
	listings map[string]*dirList
}

type dirList struct {
	byName map[string]fs.DirEntry
	// folded holds every name in lower case when all of them are ASCII
	// (nil otherwise, on Windows, or when the folder could not be listed):
	// Unicode case folding matches more than lowering ASCII does (the
	// Kelvin sign folds to k), and Windows resolves a name with a trailing
	// dot or space to another name.
	folded map[string]bool
	names  []string
	err    error
}

// NewResolver resolves destinations relative to dir.
func NewResolver(dir string) *Resolver {
	return &Resolver{dir: filepath.Clean(dir), listings: map[string]*dirList{}}
}

// Dir is the directory destinations are read from.
func (rv *Resolver) Dir() string { return rv.dir }

// List is the listing of dir (read once), and the error of reading it.
func (rv *Resolver) List(dir string) ([]fs.DirEntry, error) {
	l := rv.list(dir)
	out := make([]fs.DirEntry, 0, len(l.names))
	for _, n := range l.names {
		out = append(out, l.byName[n])
	}
	return out, l.err
}

func (rv *Resolver) list(dir string) *dirList {
	if l, ok := rv.listings[dir]; ok {
		return l
	}
	des, err := os.ReadDir(dir)
	l := &dirList{byName: make(map[string]fs.DirEntry, len(des)), err: err}
	for _, de := range des {
		l.byName[de.Name()] = de
		l.names = append(l.names, de.Name())
	}
	if err == nil && runtime.GOOS != "windows" {
		l.folded = make(map[string]bool, len(des))
		for _, n := range l.names {
			if !isASCII(n) {
				l.folded = nil
				break
			}
			l.folded[strings.ToLower(n)] = true
		}
	}
	rv.listings[dir] = l
	return l
}

// Resolve says where a destination (Link.Dest) leads. A name the listing
// of its folder shows as a regular file costs no system call; an ASCII
// name the listing does not show in any letter case costs none either (no
// file system can open it); anything else is asked of the file system,
// which is what makes a name in other letter case found on a file system
// that ignores case, and a Unicode name found under another normalization
// on one that normalizes.
func (rv *Resolver) Resolve(dest string) Resolved {
	r := Resolved{Dest: dest}
	if dest == "" || IsURL(dest) {
		r.State = NotFile
		return r
	}
	var folder, base string
	r.Path, r.Outside, folder, base = rv.place(dest)
	l := rv.list(folder)
	if de, ok := l.byName[base]; ok {
		r.Entry = de
		if de.Type().IsRegular() {
			return r
		}
	} else if l.folded != nil && isASCII(base) && !l.folded[strings.ToLower(base)] {
		r.State = Missing
		return r
	}
	fi, err := os.Stat(r.Path)
	switch {
	case err == nil && fi.Mode().IsRegular():
	case err == nil && fi.IsDir():
		r.State = Directory
	case err == nil:
		r.State = NotRegular
	case errors.Is(err, fs.ErrNotExist):
		r.State = Missing
		for _, n := range l.names {
			if n != base && strings.EqualFold(n, base) {
				r.CaseTwin = n
				break
			}
		}
	default:
		r.State, r.Err = Unreadable, err
	}
	return r
}

// place is where dest leads: its cleaned path, whether it lies outside
// the resolver's directory, and that path's folder and base name. A
// destination that is a plain file name (no separator, not "." or "..",
// the commonest by far: "feedback_x.md") lies in the directory itself,
// and is placed without cleaning: a session start resolves every pointer
// of the index, and cleaning each long path four times (Join, Clean, Rel,
// Dir) was a tenth of its own work. TestPlaceFastPath holds the two ways
// to the same answer.
func (rv *Resolver) place(dest string) (path string, outside bool, folder, base string) {
	if plainName(dest) && runtime.GOOS != "windows" {
		switch {
		case rv.dir == ".":
			return dest, false, rv.dir, dest
		case strings.HasSuffix(rv.dir, string(filepath.Separator)):
			return rv.dir + dest, false, rv.dir, dest
		}
		return rv.dir + string(filepath.Separator) + dest, false, rv.dir, dest
	}
	return rv.placeSlow(dest)
}

// placeSlow is place for any destination.
func (rv *Resolver) placeSlow(dest string) (path string, outside bool, folder, base string) {
	p := filepath.FromSlash(dest)
	if !filepath.IsAbs(p) {
		p = filepath.Join(rv.dir, p)
	}
	path = filepath.Clean(p)
	outside = Outside(dest) || !within(rv.dir, path)
	return path, outside, filepath.Dir(path), filepath.Base(path)
}

// plainName reports whether dest is one file name in the resolver's
// directory: not empty, not "." or "..", no slash, no backslash, no colon
// (a Windows drive or stream), nothing Clean would change.
func plainName(dest string) bool {
	if dest == "" || dest == "." || dest == ".." {
		return false
	}
	for i := 0; i < len(dest); i++ {
		switch dest[i] {
		case '/', '\\', ':', 0:
			return false
		}
	}
	return true
}

// within reports whether path lies in dir (both cleaned).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
