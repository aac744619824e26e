package psflag

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// checkFlags is the check verb's flag set: memcompact's names and the
// reference script's, aliased.
type checkFlags struct {
	fs         *flag.FlagSet
	json       bool
	ref, index string
}

func newCheckFlags() *checkFlags {
	c := &checkFlags{fs: flag.NewFlagSet("check", flag.ContinueOnError)}
	c.fs.SetOutput(io.Discard)
	Bool(c.fs, &c.json, "json", "Json", "")
	String(c.fs, &c.ref, "reference", "PolicyReferencePath", "")
	String(c.fs, &c.index, "index", "IndexPath", "")
	return c
}

func TestParse(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		json       bool
		ref, index string
		pos        []string
		err        string
	}{
		{name: "flags first", args: []string{"--json", "--reference", "r.md", "i.md"}, json: true, ref: "r.md", pos: []string{"i.md"}},
		{name: "flags after positional", args: []string{"i.md", "--json"}, json: true, pos: []string{"i.md"}},
		{name: "interleaved", args: []string{"a", "-index", "i.md", "b", "-Json"}, json: true, index: "i.md", pos: []string{"a", "b"}},
		{name: "powershell names", args: []string{"-IndexPath", "i.md", "-PolicyReferencePath", "r.md", "-Json"}, json: true, ref: "r.md", index: "i.md"},
		{name: "any letter case", args: []string{"-indexpath", "i.md", "-JSON", "--REFERENCE=r.md"}, json: true, ref: "r.md", index: "i.md"},
		{name: "equals form", args: []string{"--reference=r.md", "i.md"}, ref: "r.md", pos: []string{"i.md"}},
		{name: "double dash ends flags", args: []string{"a", "--", "--json", "-x"}, pos: []string{"a", "--json", "-x"}},
		{name: "a lone dash is positional", args: []string{"-", "--json"}, json: true, pos: []string{"-"}},
		{name: "a prefix is not folded", args: []string{"-Inde", "i.md"}, err: "flag provided but not defined: -Inde"},
		{name: "unknown flag", args: []string{"--nope"}, err: "flag provided but not defined: -nope"},
		{name: "missing value", args: []string{"i.md", "--reference"}, err: "flag needs an argument: -reference"},
		{name: "help", args: []string{"-h"}, err: flag.ErrHelp.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCheckFlags()
			pos, err := Parse(c.fs, tt.args)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.json != tt.json || c.ref != tt.ref || c.index != tt.index || !reflect.DeepEqual(pos, tt.pos) {
				t.Errorf("json=%v ref=%q index=%q pos=%q", c.json, c.ref, c.index, pos)
			}
		})
	}
}

func TestExpandPrefixes(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"-Inde", "i.md", "-Policy", "r.md", "-J"}, []string{"-IndexPath", "i.md", "-PolicyReferencePath", "r.md", "-Json"}},
		// -Index is --index in another letter case: Parse reads it.
		{[]string{"-Index", "i.md"}, []string{"-Index", "i.md"}},
		{[]string{"-i", "i.md", "-p=r.md"}, []string{"-IndexPath", "i.md", "-PolicyReferencePath=r.md"}},
		{[]string{"-IndexPath:i.md", "-Json:$false"}, []string{"-IndexPath=i.md", "-Json=false"}},
		{[]string{"-Json:$TRUE", "-J:", "-json:true"}, []string{"-Json=true", "-Json=true", "-Json=true"}},
		{[]string{"-IndexPath:", "i.md"}, []string{"-IndexPath", "i.md"}},
		// memcompact's own names and -h stay for Parse to read.
		{[]string{"-index", "i.md", "-json", "-reference", "r.md", "-h", "-help"}, []string{"-index", "i.md", "-json", "-reference", "r.md", "-h", "-help"}},
		// A long flag, an unknown name, an empty name, and anything after "--": as given.
		{[]string{"--Index", "-X", "-:x", "-", "--", "-Index"}, []string{"--Index", "-X", "-:x", "-", "--", "-Index"}},
	}
	for _, tt := range tests {
		got := ExpandPrefixes(newCheckFlags().fs, tt.in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ExpandPrefixes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAmbiguousPrefix(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("IndexPath", "", "")
	fs.String("InventoryPath", "", "")
	if got := ExpandPrefixes(fs, []string{"-In", "-Ind"}); !reflect.DeepEqual(got, []string{"-In", "-IndexPath"}) {
		t.Errorf("got %q", got)
	}
}

func TestAsks(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"a", "--json"}, true},
		{[]string{"-Json:$true"}, true},
		{[]string{"-JSON=true"}, true},
		{[]string{"-json:true", "--nope"}, true},
		{[]string{"-Json:$false"}, false},
		{[]string{"json"}, false},
		{[]string{"--", "--json"}, false},
		{nil, false},
	} {
		if got := Asks(tt.args, "json"); got != tt.want {
			t.Errorf("Asks(%q) = %v", tt.args, got)
		}
	}
}

func TestGivenAndTakesValue(t *testing.T) {
	c := newCheckFlags()
	if _, err := Parse(c.fs, []string{"-PolicyReferencePath", "r.md"}); err != nil {
		t.Fatal(err)
	}
	if !Given(c.fs, "reference", "PolicyReferencePath") || Given(c.fs, "json") {
		t.Error("Given does not report the flags set")
	}
	for arg, want := range map[string]bool{"--reference": true, "-INDEXPATH": true, "--json": false, "--reference=r": false, "r.md": false, "-nope": false} {
		if got := TakesValue(c.fs, arg); got != want {
			t.Errorf("TakesValue(%q) = %v", arg, got)
		}
	}
}

func TestAliasUndefinedPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	Alias(flag.NewFlagSet("x", flag.ContinueOnError), "nope", "Nope")
}

// FuzzParse: for any command line, neither ExpandPrefixes nor Parse
// panics; ExpandPrefixes is idempotent and keeps the argument count; the
// positional arguments Parse returns are arguments given, in their order;
// and changing the letter case of every flag name changes nothing but the
// case of what it read.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"-IndexPath i.md -Json", "i.md --json --reference r.md", "-Index:i.md -J:$false a -- -x",
		"-i i.md -p", "--REFERENCE=r.md b", "-IndexPath: i.md", "- -- --", "-h",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, " ")
		c := newCheckFlags()
		once := ExpandPrefixes(c.fs, args)
		if len(once) != len(args) || !slices.Equal(ExpandPrefixes(c.fs, once), once) {
			t.Fatalf("ExpandPrefixes(%q) = %q, not idempotent", args, once)
		}
		pos, err := Parse(c.fs, once)
		if err != nil {
			return
		}
		rest := once
		for _, p := range pos {
			i := slices.Index(rest, p)
			if i < 0 {
				t.Fatalf("positional %q of %q is no argument in order", p, once)
			}
			rest = rest[i+1:]
		}
		upper := newCheckFlags()
		pos2, err := Parse(upper.fs, upperFlags(once))
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("upper-case flags of %q: %v", once, err)
		}
		if err == nil && (!slices.EqualFunc(pos, pos2, strings.EqualFold) || upper.json != c.json || !strings.EqualFold(upper.ref, c.ref) || !strings.EqualFold(upper.index, c.index)) {
			t.Fatalf("upper-case flags of %q parse otherwise", once)
		}
	})
}

// upperFlags upper-cases the name of every flag before a "--" (and a
// flag's value when it looks like a flag).
func upperFlags(args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") {
			name, value, eq := strings.Cut(a, "=")
			out[i] = strings.ToUpper(name)
			if eq {
				out[i] += "=" + value
			}
		}
	}
	return out
}
