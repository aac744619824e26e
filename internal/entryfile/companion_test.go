package entryfile_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/companion"
	"github.com/memcompact/memcompact/internal/entryfile"
	"github.com/memcompact/memcompact/internal/entryfile/yamlfm"
)

// unsureBlocks are blocks the own decoder leaves to the fallback, valid
// and not.
var unsureBlocks = []string{
	"name: a\ndescription: >\n  folded\n  text\nmetadata: {type: user, pinned: yes}",
	"name: \"통과\" 한마디",
	"name: [a, b]",
	"description: |\n  bytes \x00 \xff as they are\n",
	"name: first\n  and second line",
}

// TestCompanion: the companion decoder asks memcompact-full (here this
// test executable, linked under that name on PATH: see TestMain) for all
// its blocks in one process and gets yaml.v3's answers; with no
// memcompact-full it is a companion.ErrUnavailable naming the mend.
func TestCompanion(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("links the test executable under another name")
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, companion.Full)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	want, _ := yamlfm.Decode(unsureBlocks)
	for _, names := range [][]string{{companion.Full}, {companion.Main, companion.Full}} {
		got, err := entryfile.Companion(names...)(unsureBlocks)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Companion(%v) = %+v, %v\nwant %+v", names, got, err, want)
		}
	}
	if got, err := entryfile.Companion(companion.Full)(nil); err != nil || len(got) != 0 {
		t.Errorf("Companion with no blocks = %+v, %v", got, err)
	}

	t.Setenv("PATH", t.TempDir())
	_, err = entryfile.Companion(companion.Full, companion.Main)(unsureBlocks)
	if !errors.Is(err, companion.ErrUnavailable) || !strings.Contains(err.Error(), "no memcompact-full executable was found") {
		t.Fatalf("Companion without memcompact-full: %v", err)
	}
}

// TestReadAsksOnce: a read asks the fallback once, for the frontmatters
// the own decoder is unsure of only; a cached read of unchanged files
// asks nothing.
func TestReadAsksOnce(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	files := map[string]string{"MEMORY.md": "- [a](a.md) — a\n", "plain.md": "---\nname: plain\ndescription: d\n---\nbody [[a]]\n"}
	for i, b := range unsureBlocks {
		files[fmt.Sprintf("u%d.md", i)] = "---\n" + b + "\n---\n[[plain]]\n"
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var calls [][]string
	defer entryfile.Use(yamlfm.Decode)
	entryfile.Use(func(blocks []string) ([]entryfile.Fields, error) {
		calls = append(calls, blocks)
		return yamlfm.Decode(blocks)
	})
	for _, run := range []struct {
		name      string
		read      func(string) []entryfile.Entry
		wantCalls int
	}{{"Read", entryfile.Read, 1}, {"ReadCached", entryfile.ReadCached, 1}, {"ReadCached again", entryfile.ReadCached, 0}} {
		calls = nil
		got := run.read(dir)
		if len(got) != len(files)-1 || len(calls) != run.wantCalls || (len(calls) == 1 && len(calls[0]) != len(unsureBlocks)) {
			t.Errorf("%s: %d entries, fallback asked %d time(s) %q", run.name, len(got), len(calls), calls)
		}
	}
}

// TestReadUnavailable: a fallback that cannot be reached is never
// guessed around: the read panics with its error, which names the files
// and wraps companion.ErrUnavailable, as the load cut does (the command
// line reports a refusal, a hook allows with a note).
func TestReadUnavailable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("---\nname: [a]\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer entryfile.Use(yamlfm.Decode)
	entryfile.Use(func([]string) ([]entryfile.Fields, error) {
		return nil, companion.Unavailablef("no memcompact-full here")
	})
	defer func() {
		msg, ok := companion.Unavailable(recover())
		if !ok || !strings.Contains(msg, filepath.Join(dir, "a.md")) || !strings.Contains(msg, "no memcompact-full here") {
			t.Errorf("recovered %q, %v", msg, ok)
		}
	}()
	entryfile.Read(dir)
	t.Error("Read did not panic")
}

// TestReadUnavailableNames: the error of a read names the first file the
// fallback was asked about and counts the others.
func TestReadUnavailableNames(t *testing.T) {
	defer entryfile.Use(yamlfm.Decode)
	entryfile.Use(func([]string) ([]entryfile.Fields, error) {
		return nil, companion.Unavailablef("no memcompact-full here")
	})
	for n, want := range map[int]string{2: " (and 1 other entry): ", 3: " (and 2 other entries): "} {
		dir := t.TempDir()
		for i := range n {
			name := fmt.Sprintf("%c.md", 'a'+i)
			if err := os.WriteFile(filepath.Join(dir, name), []byte("---\nname: [a]\n---\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		func() {
			defer func() {
				msg, _ := companion.Unavailable(recover())
				if !strings.HasPrefix(msg, filepath.Join(dir, "a.md")+want) {
					t.Errorf("%d files: recovered %q", n, msg)
				}
			}()
			entryfile.Read(dir)
		}()
	}
}

// TestNoDecoder: a program that registered no fallback panics with
// ErrNoDecoder on a frontmatter the own decoder is unsure of, and only
// then.
func TestNoDecoder(t *testing.T) {
	defer entryfile.Use(yamlfm.Decode)
	entryfile.Use(nil)
	if e := entryfile.Parse("a.md", "---\nname: a\n---\n"); e.Name != "a" {
		t.Errorf("%+v", e)
	}
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, entryfile.ErrNoDecoder) {
			t.Errorf("recovered %v", err)
		}
	}()
	entryfile.Parse("a.md", "---\nname: [a]\n---\n")
}

// TestServeRefuses: a malformed request is an error, not an answer.
func TestServeRefuses(t *testing.T) {
	for _, in := range []string{"5\nabc", "x\n", "01\na", "-1\n", "3"} {
		var out bytes.Buffer
		if err := entryfile.Serve(strings.NewReader(in), &out); err == nil || out.Len() > 0 {
			t.Errorf("Serve(%q) = %v, wrote %q", in, err, out.String())
		}
	}
}

// TestParseAnswerRefuses: an answer that does not fit the request is
// refused.
func TestParseAnswerRefuses(t *testing.T) {
	good := string(entryfile.EncodeAnswer([]entryfile.Fields{{Valid: true, Name: "a"}, {}}))
	if got, err := entryfile.ParseAnswer([]byte(good), 2); err != nil || got[0].Name != "a" || got[1].Valid {
		t.Fatalf("ParseAnswer(%q) = %+v, %v", good, got, err)
	}
	for _, c := range []struct {
		out string
		n   int
	}{
		{good, 1}, {good, 3}, {good + "0\n", 2}, {good[:len(good)-1], 2},
		{"1\n2\n0\n0\n0\n", 1}, {"1\n-\n1\nx\n0\n0\n", 1}, {"1\n0\n00\n0\n0\n", 1}, {"1\n0\n0\n0\n+1\nx", 1},
	} {
		if got, err := entryfile.ParseAnswer([]byte(c.out), c.n); err == nil {
			t.Errorf("ParseAnswer(%q, %d) = %+v, want an error", c.out, c.n, got)
		}
	}
}

// FuzzParseAnswer: any bytes are refused or read as exactly n blocks'
// fields, whose encoding is those very bytes (one answer, one encoding).
func FuzzParseAnswer(f *testing.F) {
	f.Add(entryfile.EncodeAnswer([]entryfile.Fields{{Valid: true, Name: "a", Description: "b\n3\nc", Type: "user", Pinned: true}, {}}), 2)
	f.Add([]byte("1\n-\n0\n0\n0\n"), 1)
	f.Add([]byte("1\n0\n1\nx\n0\n0\n"), 1)
	f.Fuzz(func(t *testing.T, out []byte, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		got, err := entryfile.ParseAnswer(out, n)
		if err != nil {
			return
		}
		if len(got) != n || !bytes.Equal(entryfile.EncodeAnswer(got), out) {
			t.Fatalf("ParseAnswer(%q, %d) = %+v, which encodes as %q", out, n, got, entryfile.EncodeAnswer(got))
		}
	})
}
