package index

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDestination: the file a destination names, as CommonMark reads it.
func TestDestination(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{"x.md", "x.md"},
		{"notes/x.md", "notes/x.md"},
		{"x.md#section", "x.md"},
		{"x.md#", "x.md"},
		{"<my file.md>", "my file.md"},
		{"<my file.md#part>", "my file.md"},
		{"project%20notes.md", "project notes.md"},
		{"caf%C3%A9.md", "café.md"},
		{"caf%c3%a9.md", "café.md"},
		{"100%.md", "100%.md"},
		{"50%zz.md", "50%zz.md"},
		{"a%2", "a%2"},
		{"%25.md", "%.md"},
		{`my\_notes.md`, "my_notes.md"},
		{`a\(b\).md`, "a(b).md"},
		{`win\dir.md`, `win\dir.md`},
		{`trailing\`, `trailing\`},
		{`x\#y.md`, "x"},
		{"x%23y.md", "x#y.md"},
		{"a&amp;b.md", "a&b.md"},
		{"a&#38;b.md", "a&b.md"},
		{"a&#x26;b.md", "a&b.md"},
		{"a&#0;b.md", "a\uFFFDb.md"},
		{"a&copy;b.md", "a&copy;b.md"},
		{"a&;b.md", "a&;b.md"},
		{"a&#xZZ;b.md", "a&"}, // not a reference: its "#" starts the fragment
		{"a&#12a;b.md", "a&"},
		{"<x.md", "x.md"},
		{"https://e.com/a.md", "https://e.com/a.md"},
		{"", ""},
	} {
		if got := Destination(tt.raw); got != tt.want {
			t.Errorf("Destination(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// TestLinkDest: a link's Dest is Destination of what stands between "("
// and the title, whatever the title and brackets.
func TestLinkDest(t *testing.T) {
	for _, tt := range []struct{ line, target, dest string }{
		{`- [t](x.md "title") — h`, "x.md", "x.md"},
		{`- [t](<my file.md> 'title') — h`, "my file.md", "my file.md"},
		{`- [t](project%20notes.md#part (title)) — h`, "project%20notes.md", "project notes.md"},
		{`- **[t](caf%C3%A9.md)** — h`, "caf%C3%A9.md", "café.md"},
		{`- [t](my\_x.md) — h`, `my\_x.md`, "my_x.md"},
	} {
		links, bad := ScanLinks(tt.line)
		if len(bad) > 0 || len(links) != 1 {
			t.Fatalf("%q: links %+v, unparsed %q", tt.line, links, bad)
		}
		if k := links[0]; k.Target != tt.target || k.Dest != tt.dest || !k.Subject {
			t.Errorf("%q: target %q dest %q subject %v, want %q %q true", tt.line, k.Target, k.Dest, k.Subject, tt.target, tt.dest)
		}
	}
}

func TestOutside(t *testing.T) {
	for _, tt := range []struct {
		dest string
		want bool
	}{
		{"x.md", false}, {"a/../x.md", false}, {"./a/x.md", false},
		{"../x.md", true}, {"a/../../x.md", true}, {"/etc/x.md", true}, {`C:\x.md`, true}, {`\\host\x.md`, true},
	} {
		if got := Outside(tt.dest); got != tt.want {
			t.Errorf("Outside(%q) = %v, want %v", tt.dest, got, tt.want)
		}
	}
}

// caseInsensitive reports whether dir's file system ignores letter case.
func caseInsensitive(t *testing.T, dir string) bool {
	p := filepath.Join(dir, "probe-Case")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(p)
	_, err := os.Stat(filepath.Join(dir, "PROBE-case"))
	return err == nil
}

// TestResolve: what a destination is on disk, as drift and the sweep see
// it through one Resolver.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.md": "", "project notes.md": "", "café.md": "", "Upper.md": "", "topics/t.md": "", "d.md/x": "", "my_notes.md": "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"-up.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink("a.md", filepath.Join(dir, "link.md")); err != nil {
			t.Fatal(err)
		}
	}
	folds := caseInsensitive(t, dir)
	upper := Missing
	if folds {
		upper = Found
	}
	rv := NewResolver(dir)
	for _, tt := range []struct {
		raw      string
		state    State
		outside  bool
		caseTwin string
	}{
		{"a.md", Found, false, ""},
		{"a.md#x", Found, false, ""},
		{"project%20notes.md", Found, false, ""},
		{"<project notes.md>", Found, false, ""},
		{"caf%C3%A9.md", Found, false, ""},
		{`my\_notes.md`, Found, false, ""},
		{"topics/t.md", Found, false, ""},
		{"./topics/../a.md", Found, false, ""},
		{"upper.md", upper, false, map[bool]string{false: "Upper.md"}[folds]},
		{"nope.md", Missing, false, ""},
		{"d.md", Directory, false, ""},
		{"../" + filepath.Base(dir) + "-up.md", Found, true, ""},
		{"https://e.com/x.md", NotFile, false, ""},
		{"link.md", Found, false, ""},
	} {
		if tt.raw == "link.md" && runtime.GOOS == "windows" {
			continue
		}
		r := rv.Resolve(Destination(tt.raw))
		if r.State != tt.state || r.Outside != tt.outside || r.CaseTwin != tt.caseTwin {
			t.Errorf("Resolve(%q) = state %v outside %v twin %q, want %v %v %q", tt.raw, r.State, r.Outside, r.CaseTwin, tt.state, tt.outside, tt.caseTwin)
		}
		if reason, _ := r.Problem(); (reason == "") != (tt.state == Found || tt.state == NotFile) {
			t.Errorf("Resolve(%q): problem %q for state %v", tt.raw, reason, tt.state)
		}
	}
}

// FuzzDestination: Destination is total, never keeps a fragment that was
// written outside an escape, never grows a destination without escapes,
// and decodes what a percent-encoder writes back to the name.
func FuzzDestination(f *testing.F) {
	for _, s := range []string{"x.md", "<my file.md>", "caf%C3%A9.md#s", `a\_b&amp;c.md`, "%", "&#x;", `\`, "a&#1114112;.md", "<>", "%%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		d := Destination(raw)
		if !strings.ContainsAny(raw, `%\&<>`) {
			want := raw
			if h := strings.IndexByte(want, '#'); h >= 0 {
				want = want[:h]
			}
			if d != want {
				t.Fatalf("Destination(%q) = %q, want it as written %q", raw, d, want)
			}
		}
		if len(d) > len(raw)+3*strings.Count(raw, "&") {
			t.Fatalf("Destination(%q) = %q grew", raw, d)
		}
		// A name, percent-encoded byte by byte, decodes back to itself.
		if utf8.ValidString(raw) && !strings.ContainsAny(raw, "#") {
			var enc strings.Builder
			for i := 0; i < len(raw); i++ {
				enc.WriteString("%")
				enc.WriteString(strings.ToUpper(string("0123456789abcdef"[raw[i]>>4]) + string("0123456789abcdef"[raw[i]&15])))
			}
			if got := Destination(enc.String()); got != raw {
				t.Fatalf("Destination(encoded %q) = %q", raw, got)
			}
		}
		NewResolver(t.TempDir()).Resolve(d)
	})
}

// TestListingFold: a listing holding a name that is not ASCII is never
// folded to decide a miss without the file system: the Kelvin sign folds
// to k, so "\u212a.md" may open as "k.md".
func TestListingFold(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.md", "\u212a.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if f := NewResolver(dir).list(filepath.Clean(dir)).folded; f != nil {
		t.Errorf("folded with a non-ASCII name = %v, want nil", f)
	}
}

// TestPlaceFastPath: a plain file name is placed without cleaning exactly
// where cleaning places it, in every kind of resolver directory.
func TestPlaceFastPath(t *testing.T) {
	dests := []string{
		"a.md", "feedback_x.md", ".hidden.md", "a..md", "...", "a b.md", "ü.md", "a.md.", "a.md ",
		"-", "~", "#", "a#b.md", "a%20b.md", "a?x", "MEMORY.md", "日本.md",
		// not plain: the slow path, placed the same either way
		"", ".", "..", "./a.md", "../a.md", "x/../a.md", "x/a.md", "/abs/a.md", `a\b.md`, "c:x.md",
	}
	for _, dir := range []string{"/", "/tmp/store", "/tmp/store/", "rel/store", ".", "", "/a b/c"} {
		rv := NewResolver(dir)
		for _, d := range dests {
			p, out, folder, base := rv.place(d)
			sp, sout, sfolder, sbase := rv.placeSlow(d)
			if p != sp || out != sout || folder != sfolder || base != sbase {
				t.Errorf("dir %q dest %q: place = (%q, %v, %q, %q), cleaning gives (%q, %v, %q, %q)", dir, d, p, out, folder, base, sp, sout, sfolder, sbase)
			}
		}
	}
}
