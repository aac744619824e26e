package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/memcompact/memcompact/internal/textfile"
)

func init() {
	register(&command{
		name:  "inventory",
		usage: "inventory [flags] INDEX",
		short: "enumerate a store's corpus from disk, in sweep order, as an artifact",
		long: `Inventory enumerates both populations of a store from disk — every subject
linked on the index's pointer lines, and every entry file no pointer names
(except orphans whose exit is in force in LEDGER.md) — folds in SLATE.md,
and orders them: incomplete dispositions, critical entries, unassessed
entries, expired deferrals, the rest. The artifact (JSON, on stdout and, with
--out, in a file) records the index's character count and digest, so the
partition check knows which bytes were enumerated. Nothing in the store is
written.

Exit codes: 0 enumerated, 2 a file exists but could not be read, 3 usage
error ("RESULT: usage-error" and a reason on standard output).`,
		run: runInventory,
	})
}

// sweepFlags are the flags the sweep verbs share.
type sweepFlags struct {
	index, ledger, slate, archive, asOf string
	json                                bool
}

func (f *sweepFlags) define(fs *flag.FlagSet, records ...string) {
	fs.StringVar(&f.index, "index", "", "the store's index file (or the positional INDEX)")
	alias(fs, "index", "IndexPath")
	for _, r := range records {
		switch r {
		case "ledger":
			fs.StringVar(&f.ledger, "ledger", "", "LEDGER.md (default: beside the index)")
			alias(fs, "ledger", "LedgerPath")
		case "slate":
			fs.StringVar(&f.slate, "slate", "", "SLATE.md (default: beside the index)")
			alias(fs, "slate", "SlatePath")
		case "archive":
			fs.StringVar(&f.archive, "archive", "", "ARCHIVE.md (default: beside the index)")
			alias(fs, "archive", "ArchivePath")
		}
	}
	fs.StringVar(&f.asOf, "as-of", "", "the date to reason from, yyyy-MM-dd (default: today, or MEMCOMPACT_TODAY)")
	alias(fs, "as-of", "AsOf")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	alias(fs, "json", "Json")
}

// asOfDate returns --as-of, or today.
func (f *sweepFlags) asOfDate(env *Env) (records.Date, error) {
	if f.asOf == "" {
		return records.DateOf(env.Today()), nil
	}
	d, ok := records.ParseDate(strings.TrimSpace(f.asOf))
	if !ok {
		return records.Date{}, Usagef("--as-of must be a date in yyyy-MM-dd form; found %q", f.asOf)
	}
	return d, nil
}

// positional takes the index from the one positional argument, if given.
func (f *sweepFlags) positional(pos []string, verb string) error {
	switch {
	case len(pos) == 0:
		return nil
	case len(pos) == 1 && f.index == "":
		f.index = pos[0]
		return nil
	}
	return fmt.Errorf("%s takes one index; got %s", verb, strings.Join(pos, " "))
}

// sweepUsage renders a usage error the way the reference scripts do, on
// stdout (text, or {result, reason} with --json), and returns exit 3.
func sweepUsage(env *Env, asJSON bool, reason string) error {
	if asJSON {
		writeJSON(env, sweep.UsageError{Result: "usage-error", Reason: reason})
	} else {
		fmt.Fprintf(env.Stdout, "RESULT: usage-error\nreason: %s\n", reason)
	}
	return exitCode(ExitUsage)
}

// marshalJSON renders v indented by two spaces, without HTML escaping and
// without a trailing newline, escaping exactly what the reference's
// serializer escapes: control characters, quote, backslash, and the three
// line breaks U+0085, U+2028 and U+2029 (encoding/json leaves U+0085 raw).
func marshalJSON(v any) []byte {
	var b bytes.Buffer
	if err := jsonout.Write(&b, v); err != nil {
		panic(err) // only our own structs are encoded
	}
	// The output is valid UTF-8, so these bytes can only be U+0085 inside a
	// string.
	out := bytes.ReplaceAll(b.Bytes(), []byte("\u0085"), []byte(`\u0085`))
	return bytes.TrimSuffix(out, []byte("\n"))
}

func writeJSON(env *Env, v any) {
	env.Stdout.Write(marshalJSON(v))
	fmt.Fprintln(env.Stdout)
}

// printWarnings prints notes that change no verdict (malformed records by
// file and line, links leading outside the store) on stderr.
func printWarnings(env *Env, ws []sweep.Warning) {
	for _, w := range ws {
		fmt.Fprintf(env.Stderr, "memcompact: warning: %s\n", w)
	}
}

func runInventory(env *Env, args []string) error {
	fs := newFlagSet("inventory")
	var f sweepFlags
	f.define(fs, "ledger", "slate", "archive")
	var out string
	fs.StringVar(&out, "out", "", "also write the artifact to this file (parent folders are created)")
	alias(fs, "out", "OutputPath", "output")
	pos, err := parseFlags(env, fs, "inventory [flags] INDEX", args)
	if err != nil {
		return err
	}
	if err := f.positional(pos, "inventory"); err != nil {
		return sweepUsage(env, false, err.Error())
	}
	asOf, err := f.asOfDate(env)
	if err != nil {
		return err
	}
	if strings.TrimSpace(f.index) == "" {
		return sweepUsage(env, false, "-IndexPath is required; it names the store's index file")
	}
	if !sweep.IsFile(f.index) {
		return sweepUsage(env, false, fmt.Sprintf("no index file at '%s'", f.index))
	}
	p, err := sweep.ResolvePaths(f.index, f.ledger, f.slate, f.archive)
	if err != nil {
		return Refusef("%v", err)
	}
	inv, err := sweep.BuildInventory(p, asOf)
	if err != nil {
		return &ExitError{Code: ExitRefused, Err: err, Hints: []string{"nothing was enumerated; make the file readable and run the inventory again"}}
	}
	printWarnings(env, inv.Warnings)
	data := marshalJSON(inv.Artifact)
	if strings.TrimSpace(out) != "" {
		if err := writeArtifact(out, data); err != nil {
			return Refusef("%s: the artifact could not be written: %v", out, err)
		}
	}
	env.Stdout.Write(data)
	fmt.Fprintln(env.Stdout)
	return nil
}

// writeArtifact writes the artifact atomically, creating parent folders
// and replacing an earlier artifact.
func writeArtifact(path string, data []byte) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	want := ""
	old, err := textfile.Read(path)
	switch {
	case err == nil:
		want = old.Digest
	case errors.Is(err, fs.ErrNotExist):
	default:
		return err
	}
	return atomicfile.Replace(path, data, want)
}
