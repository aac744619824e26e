package cli

// The steps most verbs' faces share: the --json flag, and an engine's
// answer rendered as its JSON document or its text.

import (
	"flag"
	"fmt"
	"io"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
	"github.com/memcompact/memcompact/internal/sweep"
)

// jsonFlag defines --json, and -Json for the reference scripts' callers;
// usage is the verb's own wording of what it prints.
func jsonFlag(fs *flag.FlagSet, usage string) *bool {
	var p bool
	psflag.Bool(fs, &p, "json", "Json", usage)
	return &p
}

// rootFlag defines --root, the memory root the compaction verbs work in.
func rootFlag(fs *flag.FlagSet) *string {
	return fs.String("root", "", "the memory root (the directory holding compaction/)")
}

// textResult is an engine's result that renders its own text.
type textResult interface{ WriteText(w io.Writer) }

// show renders an engine's answer: a refusal as fail turns it into the
// CLI's error (hints by reason), else res as a JSON document or as text.
func show(env *Env, asJSON bool, res textResult, err error, hints map[outcome.Reason]string) error {
	if err != nil {
		return fail(err, hints)
	}
	return render(env, asJSON, res, res)
}

// render prints doc as JSON, or res's text.
func render(env *Env, asJSON bool, doc any, res textResult) error {
	if asJSON {
		return printJSON(env, doc)
	}
	res.WriteText(env.Stdout)
	return nil
}

// showSweep is show for the sweep executor's verbs, whose documents are
// written as the sweep's reference scripts write theirs (writeJSON).
func showSweep(env *Env, asJSON bool, res textResult, err error) error {
	if err != nil {
		return fail(err, nil)
	}
	if asJSON {
		writeJSON(env, res)
		return nil
	}
	res.WriteText(env.Stdout)
	return nil
}

// printJSON prints v as indented JSON on stdout.
func printJSON(env *Env, v any) error { return jsonout.Write(env.Stdout, v) }

// writeJSON prints v on stdout as the sweep's reference scripts print
// their documents.
func writeJSON(env *Env, v any) {
	env.Stdout.Write(sweep.JSON(v))
	fmt.Fprintln(env.Stdout)
}

// writeJSONTo prints v indented by two spaces, without HTML escaping; a
// document that cannot be written is reported as one that can.
func writeJSONTo(w io.Writer, v any) {
	if err := jsonout.Write(w, v); err != nil {
		fmt.Fprintf(w, "{\"result\": \"error\", \"reason\": %q}\n", err.Error())
	}
}

// printWarnings prints notes that change no verdict (malformed records by
// file and line, links leading outside the store, a measurement's notes)
// on stderr.
func printWarnings[W string | sweep.Warning](env *Env, ws []W) {
	for _, w := range ws {
		outcome.Say(env.Stderr, outcome.KindWarning, fmt.Sprint(w))
	}
}
