package cli

import (
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/sweep"
)

func init() {
	register(&command{
		name:  "gate",
		usage: "gate deferral|exit|admission|reconcile [flags] [INDEX]",
		short: "apply one of the sweep's four disposition gates to one entry",
		long: `Gate applies one disposition gate to one entry and says whether the move is
lawful and why. It reads the store and writes nothing.

  deferral   may this entry take keep-hot-with-expiry now? (--identity)
  exit       may it take this disposition now? (--identity, --disposition;
             --destination and --probe to read the destination, --landed)
  admission  may remove-fails-admission apply at all? (--identity,
             --admission-rule-landed-on)
  reconcile  has this living entry's life already exited? (--entry)

Exit 0 allowed (reconcile: not-exited), 1 refused (reconcile: exited or
undecidable), 2 a record file could not be read, 3 usage error.`,
		run: runGate,
	})
}

func runGate(env *Env, args []string) error {
	fs := newFlagSet("gate")
	var f sweepFlags
	f.define(fs, "ledger", "slate")
	var gate, identity, entry, disposition, destination, probe, ruleLanded string
	var landed bool
	fs.StringVar(&gate, "gate", "", "deferral, exit, admission or reconcile (or the first positional argument)")
	alias(fs, "gate", "Gate")
	fs.StringVar(&identity, "identity", "", "the entry's life key, <name>@<yyyy-MM-dd> or <name>@unknown")
	alias(fs, "identity", "Identity")
	fs.StringVar(&entry, "entry", "", "reconcile: the living entry body the life key is read from")
	alias(fs, "entry", "EntryPath")
	fs.StringVar(&disposition, "disposition", "", "exit: the disposition being considered")
	alias(fs, "disposition", "Disposition")
	fs.StringVar(&destination, "destination", "", "exit: the destination file to read")
	alias(fs, "destination", "DestinationPath")
	fs.StringVar(&probe, "probe", "", "exit: text the destination must carry (exact, case-sensitive)")
	alias(fs, "probe", "LessonProbe")
	fs.BoolVar(&landed, "landed", false, "exit: assert the destination has landed (merged to the default branch)")
	alias(fs, "landed", "DestinationLanded")
	fs.StringVar(&ruleLanded, "admission-rule-landed-on", "", "admission: the date the store's admission rule landed, yyyy-MM-dd")
	alias(fs, "admission-rule-landed-on", "AdmissionRuleLandedOn")
	pos, err := parseFlags(env, fs, "gate deferral|exit|admission|reconcile [flags] [INDEX]", args)
	if err != nil {
		return err
	}
	if len(pos) > 0 && gate == "" {
		gate, pos = pos[0], pos[1:]
	}
	if err := f.positional(pos, "gate"); err != nil {
		return sweepUsage(env, f.json, err.Error())
	}
	asOf, err := f.asOfDate(env)
	if err != nil {
		return err
	}
	usage := func(reason string) error { return sweepUsage(env, f.json, reason) }
	kind := strings.ToLower(strings.TrimSpace(gate))
	switch kind {
	case "":
		return usage("supply -Gate: deferral, exit, admission, or reconcile")
	case "deferral", "exit", "admission", "reconcile":
	default:
		return usage(fmt.Sprintf("-Gate must be one of deferral, exit, admission, reconcile; found '%s'", gate))
	}
	if strings.TrimSpace(f.index) == "" {
		return usage("-IndexPath is required; it names the store's index file")
	}
	if !sweep.IsFile(f.index) {
		return usage(fmt.Sprintf("no index file at '%s'", f.index))
	}
	if kind != "reconcile" && strings.TrimSpace(identity) == "" {
		return usage(fmt.Sprintf("the %s gate needs -Identity, the entry's life key", gate))
	}
	if kind == "reconcile" && !sweep.IsFile(entry) {
		return usage("the reconcile gate needs -EntryPath, the living entry body it reads the life key from")
	}
	if kind == "exit" && strings.TrimSpace(disposition) == "" {
		return usage("the exit gate needs -Disposition")
	}
	var ruleDate records.Date
	if kind == "admission" {
		if strings.TrimSpace(ruleLanded) == "" {
			return usage("the admission gate needs -AdmissionRuleLandedOn, the date this store's admission rule landed")
		}
		d, ok := records.ParseDate(strings.TrimSpace(ruleLanded))
		if !ok {
			return Usagef("--admission-rule-landed-on must be a date in yyyy-MM-dd form; found %q", ruleLanded)
		}
		ruleDate = d
	}
	p, err := sweep.ResolvePaths(f.index, f.ledger, f.slate, "")
	if err != nil {
		return Refusef("%v", err)
	}

	var verdict any
	var allowed bool
	var lines []string
	switch kind {
	case "deferral", "exit":
		slate, err := records.ReadSlate(p.Slate, asOf)
		if err != nil {
			return Refusef("%s: %v", p.Slate, err)
		}
		printWarnings(env, sweep.RecordWarnings(nil, slate))
		if kind == "deferral" {
			v := sweep.DeferralGate(slate, identity)
			verdict, allowed = v, v.Allowed
			lines = gateLines(v.Allowed, v.Gate, v.Identity, "", v.Why)
			break
		}
		carries, note, err := sweep.ReadDestination(destination, probe)
		if err != nil {
			return Refusef("%s: the destination could not be read: %v", destination, err)
		}
		v := sweep.ExitGate(slate, identity, disposition, carries, note, landed)
		verdict, allowed = v, v.Allowed
		lines = gateLines(v.Allowed, v.Gate, v.Identity, "", v.Why)
	case "admission":
		v := sweep.AdmissionGate(identity, ruleDate)
		verdict, allowed = v, v.Allowed
		lines = gateLines(v.Allowed, v.Gate, v.Identity, "", v.Why)
	case "reconcile":
		ledger, err := records.ReadLedger(p.Ledger, asOf)
		if err != nil {
			return Refusef("%s: %v", p.Ledger, err)
		}
		printWarnings(env, sweep.RecordWarnings(ledger, nil))
		v, err := sweep.ReconcileGate(ledger, entry)
		if err != nil {
			return Refusef("%s: %v", entry, err)
		}
		v = sweep.GuardReconcile(v, ledger)
		verdict, allowed = v, v.Allowed
		lines = gateLines(v.Allowed, v.Gate, v.Identity, v.Verdict, v.Why)
	}
	if f.json {
		writeJSON(env, verdict)
	} else {
		fmt.Fprintln(env.Stdout, strings.Join(lines, "\n"))
	}
	if allowed {
		return nil
	}
	return exitCode(ExitDefects)
}

// gateLines renders a verdict as the reference's text.
func gateLines(allowed bool, gate, identity, verdict, why string) []string {
	result := "refused"
	if allowed {
		result = "allowed"
	}
	lines := []string{"RESULT: " + result, "gate: " + gate, "identity: " + identity}
	if verdict != "" {
		lines = append(lines, "verdict: "+verdict)
	}
	if strings.TrimSpace(why) != "" {
		lines = append(lines, "why: "+why)
	}
	return lines
}
