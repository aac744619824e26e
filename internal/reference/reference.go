// Package reference holds memcompact's own reference copy of the
// compaction policy and the index stanza, and decides which reference copy
// a check compares a store against.
//
// The embedded copy (memcompact-reference.md) states the same rules as
// agent-orchestra's agent-memory-compaction skill in memcompact's own
// words, between the same four marker lines, so a store can adopt either.
// Any edit inside its two marked regions makes every store that adopted the
// previous wording report drift: bump Version when that happens, on purpose.
//
// Resolution order (Resolve):
//
//  1. --reference FILE;
//  2. the MEMCOMPACT_REFERENCE environment variable;
//  3. the newest installed agent-orchestra plugin copy, at
//     <config dir>/plugins/cache/agent-orchestra/agent-orchestra/<version>/skills/agent-memory-compaction/SKILL.md
//     (config dir as in package store, then ~/.claude if that differs);
//  4. the embedded copy.
//
// "Newest" among plugin versions: directory names that parse as versions
// (an optional "v", then dot-separated numbers, then an optional
// "-prerelease") beat names that do not, and compare numerically, a
// release above its prereleases; names that do not parse are ordered by
// modification time of their SKILL.md, then by name. The plugin cache keeps
// old versions after an update, so taking the first directory listed would
// silently check against a stale copy.
package reference

import (
	_ "embed"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/store"
)

// embedded is a string, not bytes: a string cannot be changed, so the
// check reads it in place on every run instead of copying 20 KB first.
//
//go:embed memcompact-reference.md
var embedded string

// Version names the wording of the embedded compared texts.
const Version = "v1"

// Markers of the two compared regions.
const (
	PolicyBegin = "<!-- policy-canonical-begin -->"
	PolicyEnd   = "<!-- policy-canonical-end -->"
	StanzaBegin = "<!-- stanza-canonical-begin -->"
	StanzaEnd   = "<!-- stanza-canonical-end -->"
)

// Embedded returns a copy of the embedded reference file.
func Embedded() []byte { return []byte(embedded) }

// EmbeddedText returns the embedded reference file as text, without a copy.
// It is valid UTF-8 without a byte-order mark (a test holds it to that), so
// it is already what textfile would decode the file's bytes to.
func EmbeddedText() string { return embedded }

// BuiltinDisplay is how the embedded reference is named in reports.
const BuiltinDisplay = "memcompact built-in reference (" + Version + ")"

// Origins of a Source.
const (
	OriginFlag    = "flag"
	OriginEnv     = "env"
	OriginPlugin  = "plugin"
	OriginBuiltin = "builtin"
)

// Source is the reference copy a check uses.
type Source struct {
	Display string // printed after "reference: "
	Path    string // file to read; "" for the built-in copy
	Origin  string // OriginFlag, OriginEnv, OriginPlugin or OriginBuiltin
	Text    string // the built-in text (EmbeddedText) when Path == ""
}

// PluginSubpath is where a plugin version directory keeps the skill.
const PluginSubpath = "skills/agent-memory-compaction/SKILL.md"

// Resolve picks the reference copy: flagPath, then $MEMCOMPACT_REFERENCE,
// then the newest installed agent-orchestra copy, then the embedded one.
// A flag or environment path is returned as given even when no file is
// there: the check reports a missing reference copy as a refusal naming
// the path, rather than quietly falling back to another copy.
func Resolve(flagPath string, getenv func(string) string, home string) Source {
	if strings.TrimSpace(flagPath) != "" {
		return Source{Display: flagPath, Path: flagPath, Origin: OriginFlag}
	}
	if p := getenv("MEMCOMPACT_REFERENCE"); strings.TrimSpace(p) != "" {
		return Source{Display: p, Path: p, Origin: OriginEnv}
	}
	if p := NewestPlugin(getenv, home); p != "" {
		return Source{Display: p, Path: p, Origin: OriginPlugin}
	}
	return Source{Display: BuiltinDisplay, Origin: OriginBuiltin, Text: embedded}
}

// Read returns the reference bytes: the embedded copy, or the file.
func (s Source) Read() ([]byte, error) {
	if s.Path == "" {
		return []byte(s.Text), nil
	}
	return os.ReadFile(s.Path)
}

// NewestPlugin returns the SKILL.md of the newest installed agent-orchestra
// plugin version, or "" when none is installed.
func NewestPlugin(getenv func(string) string, home string) string {
	roots := []string{store.ConfigDir(getenv, home)}
	if home != "" {
		if d := filepath.Join(home, ".claude"); d != roots[0] {
			roots = append(roots, d)
		}
	}
	for _, root := range roots {
		if p := newestIn(filepath.Join(root, "plugins", "cache", "agent-orchestra", "agent-orchestra")); p != "" {
			return p
		}
	}
	return ""
}

type candidate struct {
	name  string
	path  string
	ver   version
	ok    bool
	mtime int64
}

func newestIn(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var best *candidate
	for _, e := range entries {
		p := filepath.Join(dir, e.Name(), filepath.FromSlash(PluginSubpath))
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		v, ok := parseVersion(e.Name())
		c := &candidate{name: e.Name(), path: p, ver: v, ok: ok, mtime: fi.ModTime().UnixNano()}
		if best == nil || newer(c, best) {
			best = c
		}
	}
	if best == nil {
		return ""
	}
	return best.path
}

// newer reports whether a is a newer plugin version than b.
func newer(a, b *candidate) bool {
	if a.ok != b.ok {
		return a.ok
	}
	if a.ok {
		if c := compareVersions(a.ver, b.ver); c != 0 {
			return c > 0
		}
	}
	if a.mtime != b.mtime {
		return a.mtime > b.mtime
	}
	return a.name > b.name
}

type version struct {
	nums []int
	pre  string // "" for a release
}

// parseVersion reads "v1.2.3", "1.2", "1.2.3-rc.1" (build metadata after
// '+' ignored).
func parseVersion(s string) (version, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	var v version
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s, v.pre = s[:i], s[i+1:]
		if v.pre == "" {
			return version{}, false
		}
	}
	if s == "" {
		return version{}, false
	}
	for _, part := range strings.Split(s, ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || part == "" || part[0] == '+' {
			return version{}, false
		}
		v.nums = append(v.nums, n)
	}
	return v, true
}

func compareVersions(a, b version) int {
	for i := 0; i < max(len(a.nums), len(b.nums)); i++ {
		var x, y int
		if i < len(a.nums) {
			x = a.nums[i]
		}
		if i < len(b.nums) {
			y = b.nums[i]
		}
		if x != y {
			if x > y {
				return 1
			}
			return -1
		}
	}
	switch {
	case a.pre == b.pre:
		return 0
	case a.pre == "":
		return 1
	case b.pre == "":
		return -1
	}
	return comparePre(a.pre, b.pre)
}

// comparePre orders prerelease strings the semver way: dot-separated
// fields, numeric ones numerically and below alphanumeric ones.
func comparePre(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < min(len(as), len(bs)); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		switch {
		case errx == nil && erry == nil:
			if x != y {
				if x > y {
					return 1
				}
				return -1
			}
		case errx == nil:
			return -1
		case erry == nil:
			return 1
		default:
			if c := strings.Compare(as[i], bs[i]); c != 0 {
				return c
			}
		}
	}
	switch {
	case len(as) > len(bs):
		return 1
	case len(as) < len(bs):
		return -1
	}
	return 0
}
