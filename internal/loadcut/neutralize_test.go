package loadcut

import (
	"strings"
	"testing"
)

// The expectations below are what the 2.1.x client produced for the same
// text (read back from its own escaping function).
func TestNeutralize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, no brackets", "plain text, no brackets"},
		{"<system-reminder>x</system-reminder>", `<\system-reminder>x<\/system-reminder>`},
		{"<SYSTEM_Reminder >", `<\SYSTEM_Reminder >`},
		{"< / system-reminder", `<\ / system-reminder`},
		{"<\n\ntick>", "<\\\n\ntick>"},
		{`<\system-reminder> already escaped`, `<\system-reminder> already escaped`},
		{"<tick-tock> <ticket> <tick>", `<tick-tock> <ticket> <\tick>`},
		{"<!-- system-reminder -->", "<!-- system-reminder -->"},
		{"<a system-reminder>", "<a system-reminder>"},
		{"<foo> <b> <br/>", "<foo> <b> <br/>"},
		{"<system-reminder", `<\system-reminder`},
		{"<command-name>/x</command-name>", `<\command-name>/x<\/command-name>`},
		// look-alike brackets are replaced whole
		{"\uFF1Csystem-reminder\uFF1E", `<\system-reminder` + "\uFF1E"},
		{"\u2039tick\u203A", `<\tick` + "\u203A"},
		{"\U0001D236tick>", `<\tick>`},
		// folded letters, dashes, joiners and marks
		{"<systém-reminder>", `<\systém-reminder>`},
		{"<\uFF53ystem-reminder>", `<\` + "\uFF53ystem-reminder>"},
		{"<system\u2014reminder>", `<\system` + "\u2014reminder>"},
		{"<sys\u200dtem-reminder>", `<\sys` + "\u200dtem-reminder>"},
		{"<s\u0301ystem-reminder>", `<\s` + "\u0301ystem-reminder>"},
		{"<ésystem-reminder>", `<\ésystem-reminder>`},
		{"<esystem-reminder>", "<esystem-reminder>"},
		// channel needs source=, antml needs a colon
		{`<channel source="x">`, `<\channel source="x">`},
		{`<channel a="b" source = "x">`, `<\channel a="b" source = "x">`},
		{"<channel>", "<channel>"},
		{`<channel resource="x">`, `<channel resource="x">`},
		{`<channel> source="x"`, `<channel> source="x"`},
		{`<channel ` + strings.Repeat("y", 118) + ` source=`, `<\channel ` + strings.Repeat("y", 118) + ` source=`},
		{`<channel ` + strings.Repeat("y", 121) + ` source=`, `<channel ` + strings.Repeat("y", 121) + ` source=`},
		{"<" + "antml" + ":x>", `<\` + "antml" + ":x>"},
		{"<antml x>", "<antml x>"},
		{"<antml\uFF1Ax>", `<\antml` + "\uFF1Ax>"},
	}
	for _, tt := range tests {
		got, n := neutralize(tt.in)
		if got != tt.want {
			t.Errorf("neutralize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if want := strings.Count(tt.want, `<\`) - strings.Count(tt.in, `<\`); n != want {
			t.Errorf("neutralize(%q) counted %d, want %d", tt.in, n, want)
		}
	}
}

// The escape reaches the loaded text, after the cut: the cut itself is
// counted on the text as written.
func TestComputeEscapes(t *testing.T) {
	r := Compute("# Memory\n- [a](a.md) — ends with </system-reminder>\n- [b](b.md) — b\n", 2, 0)
	if !r.Cut || r.Escaped != 1 {
		t.Fatalf("cut %v, escaped %d; want a cut and 1 escape", r.Cut, r.Escaped)
	}
	if !strings.Contains(r.Text, `<\/system-reminder>`) {
		t.Errorf("text %q lacks the escaped closer", r.Text)
	}
	if r.UnitsLoaded != jsLen("# Memory\n- [a](a.md) — ends with </system-reminder>") {
		t.Errorf("units loaded %d count the escape", r.UnitsLoaded)
	}
}

// FuzzNeutralize: never panics, only ever inserts backslashes after an
// opener (or replaces a look-alike opener by "<\"), and is idempotent.
func FuzzNeutralize(f *testing.F) {
	for _, s := range []string{"<system-reminder>", "\uFF1Ctick", "<channel source=", "<", "<<tick", "<é\u200dtick", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, n := neutralize(s)
		if n == 0 && out != s {
			t.Fatalf("nothing counted but %q became %q", s, out)
		}
		if again, m := neutralize(out); again != out || m != 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
		if strings.Count(out, `<\`) != strings.Count(s, `<\`)+n {
			t.Fatalf("%q -> %q: %d escapes counted", s, out, n)
		}
	})
}
