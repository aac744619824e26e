package facts

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Fact
	}{
		{"code span", "- `docker ps -a` showed it", []Fact{{Code, "docker ps -a", 1}}},
		{"double backticks", "run `` a`b `` now", []Fact{{Code, "a`b", 1}}},
		{"url", "see https://example.com/docs/a.html.", []Fact{{URL, "https://example.com/docs/a.html", 1}}},
		{"url in code counted once", "`curl https://x.io/a`", []Fact{{Code, "curl https://x.io/a", 1}}},
		{"prompt", "$ make test", []Fact{{Command, "make test", 1}}},
		{"paths", "edit ~/.claude/settings.json and src/main.go or ./run", []Fact{{Path, "~/.claude/settings.json", 1}, {Path, "src/main.go", 1}, {Path, "./run", 1}}},
		{"slashed words are not paths", "n/a and/or I/O read/write", nil},
		{"dir with slash", "see src/ and a/b/c", []Fact{{Path, "src/", 1}, {Path, "a/b/c", 1}}},
		{"bare file", "the config.yaml file", []Fact{{Path, "config.yaml", 1}}},
		{"no abbreviation", "use it e.g. here", nil},
		{"version", "upgraded to Go 1.26 and renameio v2.0.2", []Fact{{Version, "1.26", 1}, {Version, "v2.0.2", 1}}},
		{"date", "## 2026-04-08 14:30 — Fix", []Fact{{Date, "2026-04-08", 1}}},
		{"quantities", "wait 30 s, cap 500 lines, 8 GB, 95%, $20", []Fact{{Quantity, "30 s", 1}, {Quantity, "500 lines", 1}, {Quantity, "8 GB", 1}, {Quantity, "95%", 1}, {Quantity, "$20", 1}}},
		{"plain numbers are not facts", "I said it 3 times? no: 3 things", nil},
		{"KEY=value", "set GOFLAGS=-mod=mod and DEBUG=1", []Fact{{Setting, "GOFLAGS=-mod=mod", 1}, {Setting, "DEBUG=1", 1}}},
		{"key: value", "- port: 3000", []Fact{{Setting, "port: 3000", 1}}},
		{"bold key", "- **Created**: 2026-04-01 10:00", []Fact{{Setting, "**Created**: 2026-04-01 10:00", 1}, {Date, "2026-04-01", 1}}},
		{"prose is not a setting", "Context: the user wanted a much longer explanation of things", nil},
		{"fenced lines", "```sh\ndocker compose up -d\n\n```\nafter", []Fact{{Code, "docker compose up -d", 2}}},
		{"dedup", "`x` and `x`", []Fact{{Code, "x", 1}}},
		{"crlf lines", "a\r\n`b`\rc 2026-01-01", []Fact{{Code, "b", 2}, {Date, "2026-01-01", 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Extract(tc.in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Extract(%q)\n got %v\nwant %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestMissing(t *testing.T) {
	fs := Extract("- port: 3000\n- run `make   test`\n- v1.2.3")
	if got := Missing(fs, "port: 3000, make test and v1.2.3"); len(got) != 0 {
		t.Errorf("missing %v", got)
	}
	got := Missing(fs, "port 3000; make test")
	if len(got) != 2 || got[0].Text != "port: 3000" || got[1].Text != "v1.2.3" {
		t.Errorf("missing = %v", got)
	}
}

func FuzzExtract(f *testing.F) {
	f.Add("- `a` https://b.c/d ~/e.md v1.2 2026-01-01 5 s X=1 k: v")
	f.Fuzz(func(t *testing.T, s string) {
		fs := Extract(s)
		for _, f := range fs {
			if f.Text == "" || f.Line < 1 {
				t.Fatalf("bad fact %+v", f)
			}
		}
		// Every fact is held by its own source.
		if m := Missing(fs, s); len(m) > 0 {
			t.Fatalf("source does not hold its facts: %v", m)
		}
	})
}

// TestBlobsAreNotFacts: a run of more than MaxToken bytes without a space
// yields no path, version or date, and the facts around it are kept.
func TestBlobsAreNotFacts(t *testing.T) {
	blob := strings.Repeat("ab/cd+EF/1.2.3/", 2<<20/15) // 2 MiB, path- and version-like throughout
	got := Extract("- see docs/a.md and v1.2.3 " + blob + " on 2026-01-02\n")
	var texts []string
	for _, f := range got {
		texts = append(texts, f.Text)
		if len(f.Text) > MaxToken {
			t.Errorf("a %d-byte blob was taken for a %s fact", len(f.Text), f.Kind)
		}
	}
	for _, want := range []string{"docs/a.md", "v1.2.3", "2026-01-02"} {
		if !slices.Contains(texts, want) {
			t.Errorf("fact %q beside the blob was lost; got %q", want, texts)
		}
	}
	if dropBlobs("a b") != "a b" || dropBlobs(strings.Repeat("x", MaxToken+1)+" y") != "  y" {
		t.Error("dropBlobs changed short tokens or kept a blob")
	}
}
