package compact

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/secrets/secretstest"
)

// corpusFile is a diary whose oldest entries each hold one planted secret
// (secrets[i]) beside ordinary facts, followed by plain entries.
func corpusFile(planted []secretstest.Sample) string {
	var b strings.Builder
	b.WriteString("# Ops diary\n\n")
	day := 1
	entry := func(title, body string) {
		fmt.Fprintf(&b, "## 2026-02-%02d 10:00 — %s\n\n%s\n\n", day, title, body)
		day++
	}
	for i, s := range planted {
		title := "Note " + itoa(i)
		if i%7 == 3 {
			title = "Secrets for staging"
		}
		entry(title, "- ran `deploy --env s"+itoa(i)+"` in 4"+itoa(i)+" s\n"+s.Text)
		entry("Routine "+itoa(i), "- rotated logs on host "+itoa(i)+"\n- nothing else")
	}
	for i := range 8 {
		entry("Plain "+itoa(i), "- job "+itoa(i)+" ran in "+itoa(i+2)+" s\n- see ~/cfg/job"+itoa(i)+".yaml")
	}
	return b.String()
}

// TestNoSecretLeavesTheFile runs compaction over diaries holding the 600
// planted secrets of the corpus and checks that none of them reaches what
// leaves the file's verbatim entries: the Compacted History block, the
// --plan report (tier text and facts), or an external summarizer's stdin.
func TestNoSecretLeavesTheFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake summarizer is a shell command")
	}
	n := 600
	if testing.Short() {
		n = 60 // the quick loop: a tenth of the corpus, every mode still
	}
	planted := secretstest.Secrets(7, n)
	const per = 4
	leaks, compacted := 0, 0
	for start := 0; start < len(planted); start += per {
		group := planted[start:min(start+per, len(planted))]
		text := corpusFile(group)
		rel := "diary.md"
		root := setup(t, rel, text)
		stdin := filepath.Join(root, "stdin.txt")
		lines := strings.Count(text, "\n")
		for _, mode := range []string{"plan", "builtin", "command"} {
			o := opts(root, rel, lines-4, 4)
			o.Explicit = true
			switch mode {
			case "plan":
				o.PlanOnly = true
			case "command":
				// The worst summarizer: it repeats every line it is given.
				o.Command = "tee " + shellQuote(stdin) + " | grep -v '^ *$' | sed 's/^[-#* ]*/- /'"
			}
			pl := Prepare(context.Background(), o)
			rep, _ := json.Marshal(pl.Report)
			out := string(rep) + "\n" + pl.Report.Block + "\n" + pl.Report.TierText
			if mode == "command" {
				in, _ := os.ReadFile(stdin)
				out += "\n" + string(in)
				os.Remove(stdin)
			}
			if pl.Report.Block != "" {
				compacted++
			}
			for _, s := range group {
				for _, form := range []string{s.Secret, strings.ReplaceAll(s.Secret, `"`, `\"`)} {
					if strings.Contains(out, form) {
						leaks++
						t.Errorf("%s: %v reached the output", mode, s)
					}
				}
			}
		}
	}
	t.Logf("%d planted secrets, %d compactions with a block, %d leaks", len(planted), compacted, leaks)
	if compacted == 0 {
		t.Fatal("nothing was compacted: the test proves nothing")
	}
}

// TestEncodedSecretInSummary refuses a summary that brings back a secret
// of the compacted entries encoded (an agent's --summary can say
// anything).
func TestEncodedSecretInSummary(t *testing.T) {
	pw := "Xk9!mQ2#vLp7"
	text := corpusFile([]secretstest.Sample{{Text: "- db password: " + pw}})
	root := setup(t, "d.md", text)
	for _, enc := range []string{
		base64.StdEncoding.EncodeToString([]byte(pw)),
		fmt.Sprintf("%x", pw),
		strings.Join(strings.Split(pw, ""), " "),
	} {
		o := opts(root, "d.md", strings.Count(text, "\n")-4, 4)
		o.Explicit = true
		o.PlanOnly = true
		plan := Prepare(context.Background(), o)
		o.PlanOnly = false
		o.Summary = []string{"- note " + enc}
		for _, f := range plan.Report.Facts {
			o.Summary = append(o.Summary, "- "+f.Text)
		}
		pl := Prepare(context.Background(), o)
		if pl.Report.Block != "" && pl.NewText() != "" || len(pl.Report.SecretInBlock) == 0 {
			t.Errorf("summary holding %q…: not refused: %+v", enc[:4], pl.Report.Message)
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
