package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the help blocks of docs/*.md from 'memcompact help VERB'")

// helpBlock matches a generated block of a docs page: the text between
// <!-- help VERB --> and <!-- end help VERB -->.
var helpBlock = regexp.MustCompile(`(?s)<!-- help ([a-z-]+) -->\n(.*?)<!-- end help ([a-z-]+) -->`)

// renderHelp is the docs block for verb: what "memcompact help VERB" prints.
func renderHelp(t *testing.T, verb string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main([]string{"help", verb}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("memcompact help %s: exit %d: %s", verb, code, errb.String())
	}
	return "```text\n$ memcompact help " + verb + "\n" + strings.TrimRight(out.String(), "\n") + "\n```\n"
}

// listedVerbs are the verbs "memcompact help" lists.
func listedVerbs(t *testing.T) []string {
	var out bytes.Buffer
	Main([]string{"help"}, strings.NewReader(""), &out, &out)
	var verbs []string
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); strings.HasPrefix(l, "  memcompact ") && len(f) > 2 {
			verbs = append(verbs, f[1])
		}
	}
	if len(verbs) < 10 {
		t.Fatalf("memcompact help lists %d verbs:\n%s", len(verbs), out.String())
	}
	return verbs
}

// TestDocsMatchHelp: the manual under docs/ has one page per verb family,
// and each page carries, for each of its verbs, exactly what "memcompact
// help VERB" prints, so the manual cannot drift from the flags. Run
// "go test ./internal/cli -run TestDocsMatchHelp -update-docs" after
// changing a verb's help.
func TestDocsMatchHelp(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs pages: %v", err)
	}
	documented := map[string]string{}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		changed := helpBlock.ReplaceAllStringFunc(text, func(m string) string {
			sm := helpBlock.FindStringSubmatch(m)
			verb := sm[1]
			if sm[3] != verb {
				t.Errorf("%s: <!-- help %s --> is closed by <!-- end help %s -->", page, verb, sm[3])
				return m
			}
			if prev, ok := documented[verb]; ok {
				t.Errorf("%s: %s is documented in %s already", page, verb, prev)
			}
			documented[verb] = page
			want := renderHelp(t, verb)
			if sm[2] != want && !*updateDocs {
				t.Errorf("%s: the help block of %s differs from 'memcompact help %s'; run go test ./internal/cli -run TestDocsMatchHelp -update-docs", page, verb, verb)
			}
			return "<!-- help " + verb + " -->\n" + want + "<!-- end help " + verb + " -->"
		})
		if *updateDocs && changed != text {
			if err := os.WriteFile(page, []byte(changed), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, v := range listedVerbs(t) {
		if _, ok := documented[v]; !ok {
			t.Errorf("no page under docs/ carries <!-- help %s --> (the verb's page, with its help)", v)
		}
	}
}

// TestEveryVerbHelpSaysItsExitCodes: each verb "memcompact help" lists
// has help that says what its exit codes mean (the scripts check the
// command line's own help and usage errors as a process).
func TestEveryVerbHelpSaysItsExitCodes(t *testing.T) {
	verbs := listedVerbs(t)
	if len(verbs) < 20 {
		t.Fatalf("help lists %d verbs: %q", len(verbs), verbs)
	}
	for _, v := range verbs {
		if h := renderHelp(t, v); !regexp.MustCompile(`(?m)^Exit`).MatchString(h) {
			t.Errorf("memcompact help %s says nothing of its exit codes:\n%s", v, h)
		}
	}
}

// TestReadmeIsShort: the README is read in two minutes; the manual is
// under docs/, and every page it links exists.
func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > 150 {
		t.Errorf("README.md has %d lines; keep it to 150 and move the rest to docs/", n)
	}
	for _, m := range regexp.MustCompile(`\]\((docs/[^)#]+)`).FindAllSubmatch(b, -1) {
		if _, err := os.Stat(filepath.Join("..", "..", string(m[1]))); err != nil {
			t.Errorf("README.md links %s: %v", m[1], err)
		}
	}
	for _, want := range []string{"go install ./cmd/memcompact", "memcompact doctor", "memcompact hooks install", "claude plugin install memcompact@memcompact", "go test -short ./..."} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
