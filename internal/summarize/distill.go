package summarize

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/lazyre"
	"github.com/memcompact/memcompact/internal/secrets"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Turn is one message of a conversation with a model.
type Turn struct {
	Role string // "user" or "assistant"
	Text string
}

// Model is one summarizer: it continues a conversation whose system prompt
// is Instructions and returns the model's answer as text.
type Model interface {
	Complete(ctx context.Context, turns []Turn) (string, error)
	// Name says which summarizer this is, for reports and errors
	// ("anthropic claude-haiku-4-5 at https://api.anthropic.com").
	Name() string
}

// Missing is one thing the bullets lack.
type Missing struct {
	What string // the fact or must-keep line, as the repair message names it
	Line string // the source line that holds it: appended verbatim if still missing
}

// Verdict is what a Check finds wrong with bullets.
type Verdict struct {
	Missing []Missing
	Over    string // "" when the bullets fit; otherwise by how much they do not
	// Misplaced are statements the bullets put under a parent (a person,
	// a section) they do not belong to, each said in full. Unlike a
	// missing line, nothing can be appended to mend one: still misplaced
	// after the repair round is an error.
	Misplaced []string
	// Unfaithful are bullets that do not say what the entries say (a
	// flipped negation, an altered number, a fact under another person, an
	// invented bullet, a reversed rule restated, a health fact dropped),
	// each with its fault. Still unfaithful after the repair round is an
	// error: nothing can be appended to mend one.
	Unfaithful []string
}

// kinds names what is wrong, as Result.RepairedFor does.
func (v Verdict) kinds() []string {
	var out []string
	if len(v.Missing) > 0 {
		out = append(out, "missing")
	}
	if v.Over != "" {
		out = append(out, "too-long")
	}
	if len(v.Misplaced) > 0 {
		out = append(out, "misplaced")
	}
	if len(v.Unfaithful) > 0 {
		out = append(out, "unfaithful")
	}
	return out
}

func (v Verdict) ok() bool {
	return len(v.Missing) == 0 && v.Over == "" && len(v.Misplaced) == 0 && len(v.Unfaithful) == 0
}

// Check verifies bullets as the compaction would: every must-keep line and
// every fact that must stay live present, the block within its budget.
type Check func(bullets []string) Verdict

// Result is what Distill produced.
type Result struct {
	Bullets  []string // the bullets to write, appended lines included
	Repaired bool     // a repair round was needed
	// RepairedFor says what the repair round asked for: "missing",
	// "too-long", "misplaced".
	RepairedFor []string
	// Appended are the source lines added verbatim because the model left
	// them out even after the repair round.
	Appended []string
	Over     string // the last Verdict's Over: the block may not fit
	Rounds   int    // model calls made: 1 or 2
}

// ErrStrict is wrapped by the error Distill returns when strict and the
// repair round left something missing.
var ErrStrict = errors.New("the summary still misses lines after one repair round")

// ErrMisplaced is wrapped by the error Distill returns when the repair
// round left a statement under the wrong parent.
var ErrMisplaced = errors.New("the summary still puts statements under the wrong parent after one repair round")

// ErrUnfaithful is wrapped by the error Distill returns when the repair
// round still leaves bullets that do not say what the entries say.
var ErrUnfaithful = errors.New("the summary still says what the entries do not say after one repair round")

// Distill asks m for the bullets of in, checks them with check, and sends
// what is missing back once. Lines still missing after that are appended
// verbatim, or, when strict, the error names them. An answer that is not a
// list of bullets, an error, or a secret in the answer is an error: the
// caller writes nothing.
func Distill(ctx context.Context, m Model, in Input, check Check, strict bool) (*Result, error) {
	turns := []Turn{{Role: "user", Text: Request(in)}}
	answer, err := m.Complete(ctx, turns)
	if err != nil {
		return nil, err
	}
	bullets, err := Bullets(answer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Name(), err)
	}
	if err := noSecret(m, bullets); err != nil {
		return nil, err
	}
	res := &Result{Bullets: bullets, Rounds: 1}
	v := check(bullets)
	if v.ok() {
		return res, nil
	}
	turns = append(turns, Turn{Role: "assistant", Text: answer}, Turn{Role: "user", Text: Repair(v)})
	answer, err = m.Complete(ctx, turns)
	res.Rounds, res.Repaired, res.RepairedFor = 2, true, v.kinds()
	if err != nil {
		return nil, fmt.Errorf("in the repair round: %w", err)
	}
	if bullets, err = Bullets(answer); err != nil {
		return nil, fmt.Errorf("%s, in the repair round: %w", m.Name(), err)
	}
	if err := noSecret(m, bullets); err != nil {
		return nil, err
	}
	res.Bullets = bullets
	v = check(bullets)
	res.Over = v.Over
	if len(v.Misplaced) > 0 {
		return nil, fmt.Errorf("%s: %w: %s", m.Name(), ErrMisplaced, strings.Join(v.Misplaced, "; "))
	}
	if len(v.Unfaithful) > 0 {
		return nil, fmt.Errorf("%s: %w: %s", m.Name(), ErrUnfaithful, firstOf(v.Unfaithful, 3))
	}
	if len(v.Missing) == 0 {
		return res, nil
	}
	if strict {
		return nil, fmt.Errorf("%s: %w: %s", m.Name(), ErrStrict, whats(v.Missing))
	}
	seen := map[string]bool{}
	for _, b := range res.Bullets {
		seen[b] = true
	}
	for _, mi := range v.Missing {
		l := strings.TrimSpace(mi.Line)
		if l == "" {
			l = mi.What
		}
		l = stripItem(l)
		if !seen[l] {
			seen[l] = true
			res.Bullets = append(res.Bullets, l)
			res.Appended = append(res.Appended, l)
		}
	}
	return res, nil
}

// noSecret refuses an answer that holds a secret: a model must not bring
// one back into the file, and the secret is not repeated in the error.
func noSecret(m Model, bullets []string) error {
	fs := secrets.Scan(strings.Join(bullets, "\n"))
	if len(fs) == 0 {
		return nil
	}
	return fmt.Errorf("%s answered with a secret (bullet %d, %s: %s); nothing of its answer is used", m.Name(), fs[0].Line, fs[0].Rule, fs[0].Excerpt)
}

func whats(ms []Missing) string {
	var s []string
	for _, m := range ms {
		s = append(s, fmt.Sprintf("%q", m.What))
	}
	return strings.Join(s, ", ")
}

var (
	itemRE  = lazyre.New(`^(?:[-*+]|\d{1,9}[.)])\s+`)
	fenceRE = lazyre.New("^(`{3,}|~{3,})[\\w-]*$")
)

// Bullets reads a model's answer: a Markdown list, one bullet a line.
// Blank lines are skipped, a code fence around the whole list is
// tolerated, and an indented line continues the bullet above it; any other
// line means the answer is not a list, and the error quotes it.
func Bullets(answer string) ([]string, error) {
	lines := textfile.Lines(answer)
	// A fence around the whole answer.
	var inner []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			inner = append(inner, l)
		}
	}
	if len(inner) >= 2 && fenceRE().MatchString(strings.TrimSpace(inner[0])) && fenceRE().MatchString(strings.TrimSpace(inner[len(inner)-1])) {
		inner = inner[1 : len(inner)-1]
	}
	var out []string
	for _, l := range inner {
		t := strings.TrimSpace(l)
		switch {
		case itemRE().MatchString(t) && (l == strings.TrimLeft(l, " \t") || len(out) == 0):
			b := strings.TrimSpace(itemRE().ReplaceAllString(t, ""))
			if b != "" {
				out = append(out, b)
			}
		case len(out) > 0 && l != strings.TrimLeft(l, " \t"):
			// A continuation line or a nested item: part of the bullet above.
			out[len(out)-1] += " " + t
		default:
			return nil, fmt.Errorf("the answer is not a list of bullets (line %q)", QuoteShort(t))
		}
	}
	if len(out) == 0 {
		if strings.TrimSpace(answer) == "" {
			return nil, errors.New("the answer was empty")
		}
		return nil, fmt.Errorf("the answer holds no bullets (%q)", QuoteShort(strings.TrimSpace(answer)))
	}
	return out, nil
}

// stripItem drops a leading list marker, or heading marks, from a source
// line: what is left is the bullet's text.
func stripItem(l string) string {
	l = strings.TrimSpace(itemRE().ReplaceAllString(strings.TrimSpace(l), ""))
	return strings.TrimSpace(headRE().ReplaceAllString(l, ""))
}

var headRE = lazyre.New(`^#{1,6}\s+`)

// QuoteShort cuts s to a length fit for an error message.
func QuoteShort(s string) string {
	const n = 160
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// firstOf joins the first n of xs, and says how many more there are.
func firstOf(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, "; ")
	}
	return strings.Join(xs[:n], "; ") + fmt.Sprintf("; and %d more", len(xs)-n)
}
