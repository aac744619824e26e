package textfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"one line no terminator", "a", []string{"a"}},
		{"lf", "a\nb\n", []string{"a", "b"}},
		{"trailing blank line", "a\nb\n\n", []string{"a", "b", ""}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"lone cr", "a\rb\r", []string{"a", "b"}},
		{"mixed", "a\r\nb\rc\nd", []string{"a", "b", "c", "d"}},
		{"cr cr lf", "a\r\r\nb", []string{"a", "", "b"}},
		{"only newline", "\n", []string{""}},
		{"two newlines", "\n\n", []string{"", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Lines(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Lines(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestUnits(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"a\r\nb", 3},   // CRLF counts one
		{"a\rb", 3},     // lone CR becomes LF: one
		{"a\r\r\nb", 4}, // CR then CRLF: two
		{"—", 1},        // em dash: one UTF-16 unit, three bytes
		{"😀", 2},        // outside the BMP: a surrogate pair
		{"é", 1},        // precomposed
		{"e\u0301", 2},  // combining sequence: two units
		{"\uFFFD", 1},   // replacement character
		{"x\n😀\r\n", 5}, // x LF pair LF
	}
	for _, tt := range tests {
		if got := Units(tt.in); got != tt.want {
			t.Errorf("Units(%q) = %d, want %d", tt.in, got, tt.want)
		}
		if got, want := Units(tt.in), len([]rune(Normalize(tt.in)))+strings.Count(tt.in, "😀"); got != want {
			t.Errorf("Units(%q) = %d disagrees with Normalize-then-count %d", tt.in, got, want)
		}
	}
}

func TestDecode(t *testing.T) {
	text, bom := Decode([]byte("\xEF\xBB\xBFhi"))
	if text != "hi" || !bom {
		t.Errorf("BOM not dropped: %q %v", text, bom)
	}
	text, bom = Decode([]byte("a\xffb"))
	if text != "a\uFFFDb" || bom {
		t.Errorf("invalid byte not replaced: %q", text)
	}
	// A BOM only counts at the very start.
	text, _ = Decode([]byte("x\xEF\xBB\xBF"))
	if text != "x\uFEFF" {
		t.Errorf("inner BOM changed: %q", text)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	if err := os.WriteFile(p, []byte("\xEF\xBB\xBFa\r\nb"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.Text != "a\r\nb" || !f.HasBOM || f.Digest != Digest(f.Raw) || Units(f.Text) != 3 {
		t.Errorf("Read = %+v", f)
	}
	if text, err := ReadText(p); err != nil || text != f.Text {
		t.Errorf("ReadText = %q, %v; Read gave %q", text, err, f.Text)
	}
	if _, err := Read(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Read(dir) = %v, want ErrNotRegular", err)
	}
	if _, err := Read(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read(missing) = %v, want ErrNotExist", err)
	}
	// A file that cannot be opened is reported as os.Open reports it.
	_, want := os.Open(filepath.Join(dir, "missing"))
	if _, err := readFile(filepath.Join(dir, "missing"), 0); err == nil || want == nil || err.Error() != want.Error() || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("readFile(missing) = %v, os.Open says %v", err, want)
	}
	if os.Geteuid() != 0 {
		locked := filepath.Join(dir, "locked.md")
		if err := os.WriteFile(locked, []byte("x"), 0); err != nil {
			t.Fatal(err)
		}
		_, want := os.Open(locked)
		if _, err := ReadText(locked); err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("ReadText(unreadable) = %v, os.Open says %v", err, want)
		}
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(p, link); err == nil {
		if g, err := Read(link); err != nil || g.Text != f.Text {
			t.Errorf("Read(symlink) = %v, %v", g, err)
		}
	}
	dangling := filepath.Join(dir, "dangling.md")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err == nil {
		if _, err := Read(dangling); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Read(dangling symlink) = %v, want ErrNotExist", err)
		}
	}
}

func FuzzLinesUnits(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\nb\r", "😀\r\r\n", "\xff\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		text, _ := Decode(raw)
		lines := Lines(text)
		// Rejoining the lines with LF gives the normalized text, less at
		// most one final terminator.
		joined := strings.Join(lines, "\n")
		norm := Normalize(text)
		if joined != norm && joined+"\n" != norm {
			t.Fatalf("Lines(%q) rejoined = %q, normalized = %q", text, joined, norm)
		}
		kept := SplitKeep(text)
		if strings.Join(kept, "") != text {
			t.Fatalf("SplitKeep(%q) does not join back to the text", text)
		}
		if len(kept) != len(lines) {
			t.Fatalf("SplitKeep gives %d lines, Lines %d, for %q", len(kept), len(lines), text)
		}
		if Units(text) != Units(norm) {
			t.Fatalf("Units differs before and after normalization for %q", text)
		}
		if DecodedUnits(text) != Units(text) {
			t.Fatalf("DecodedUnits(%q) = %d, Units %d", text, DecodedUnits(text), Units(text))
		}
	})
}

// TestReadAll: a file longer than its stat said (it grew in between) is
// read whole, short reads included, and one that says its size is read
// into a buffer that never grows.
func TestReadAll(t *testing.T) {
	for _, size := range []int64{0, 3, 11, 12, 1 << 20} {
		r := strings.NewReader("hello world")
		short := func(p []byte) (int, error) { return r.Read(p[:min(len(p), 4)]) }
		got, err := readAll(short, size)
		if err != nil || string(got) != "hello world" {
			t.Errorf("size %d: %q, %v", size, got, err)
		}
	}
	r := strings.NewReader("hello world")
	got, _ := readAll(r.Read, 11)
	if cap(got) != 12 {
		t.Errorf("buffer grew to %d bytes for an 11-byte file", cap(got))
	}
}

// TestReadUndigested: ReadUndigested reads what Read reads, BOM and
// invalid bytes included, with the digest left empty, and fails as Read
// fails on a missing file and a directory.
func TestReadUndigested(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "MEMORY.md")
	if err := os.WriteFile(p, []byte(BOM+"# Memory\r\n- [a](a.md) \xff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadUndigested(p)
	if err != nil {
		t.Fatal(err)
	}
	if got.Digest != "" {
		t.Errorf("ReadUndigested gave a digest %q", got.Digest)
	}
	got.Digest = want.Digest
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadUndigested = %+v, Read = %+v", got, want)
	}
	if _, err := ReadUndigested(filepath.Join(dir, "missing.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ReadUndigested(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
}
