package sweep

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// The gates' refusal texts that more than one rule shares.
const (
	whyUnassessedDefer = "this entry has not been assessed for the critical class; assess it before deferring it"
	whyUnassessedExit  = "this entry has not been assessed for the critical class; assess it before dispositioning it"
)

// DeferralGate decides whether an entry may take keep-hot-with-expiry now.
// It refuses on an untrustworthy slate (a deferral history that might say
// anything), on an unassessed entry (absence is not "ordinary"), and on a
// second deferral of a critical entry. A landing in flight is not a
// deferral and does not count. The identity is looked up as given.
func DeferralGate(slate *records.Slate, identity string) DeferralVerdict {
	v := DeferralVerdict{Gate: "deferral", Identity: identity}
	if !slate.Trustworthy() {
		v.Why = "this store's slate state carries rows this parser cannot read, so the deferral history might say anything; repair the slate before dispositioning"
		return v
	}
	critical := slate.Current(identity, records.TrackCritical)
	if critical == nil {
		v.Why = whyUnassessedDefer
		return v
	}
	n := 0
	if d := slate.Current(identity, records.TrackDeferral); d != nil {
		n = d.Count
	}
	if critical.Value == "yes" && n >= 1 {
		v.NextCount = &n
		v.Why = fmt.Sprintf("a critical entry may not be deferred twice; this one already carries deferral %d. Land it, initiate a landing and take the in-flight state, or disposition it now.", n)
		return v
	}
	next := n + 1
	v.Allowed, v.NextCount = true, &next
	return v
}

// ReadDestination reads an exit's destination and reports whether it
// carries the lesson probe (an exact, case-sensitive substring) at this
// moment, with the note the verdict carries. Without both a path and a
// probe nothing is read. A destination that exists but cannot be read is an
// error: the gate refuses to decide rather than guess.
func ReadDestination(path, probe string) (carries bool, note string, err error) {
	if strings.TrimSpace(path) == "" || strings.TrimSpace(probe) == "" {
		return false, "no destination was read; -DestinationPath and -LessonProbe are how the gate confirms the lesson is there", nil
	}
	f, err := textfile.Read(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, textfile.ErrNotRegular) {
			return false, fmt.Sprintf("no file at '%s'", path), nil
		}
		return false, "", err
	}
	if strings.Contains(f.Text, probe) {
		return true, "", nil
	}
	return false, "the destination does not carry the lesson at this moment", nil
}

// ExitGate decides whether an entry may take a disposition now. Every exit
// needs its destination read and confirmed to carry the lesson; a critical
// entry's destination must also have landed (the caller's assertion: the
// slate's landing track is not consulted). Non-exits pass without an
// assessment, as in the reference; the sweep's self-records are never this
// gate's to allow; an unknown disposition is refused, never waved through.
func ExitGate(slate *records.Slate, identity, disposition string, carries bool, note string, landed bool) ExitVerdict {
	v := ExitVerdict{Gate: "exit", Identity: identity, Disposition: disposition,
		DestinationCarriesLesson: carries, DestinationReadNote: note, DestinationLanded: landed}
	switch {
	case !records.IsDisposition(disposition):
		v.Why = fmt.Sprintf("'%s' is not a disposition the sweep procedure names; it is spelled exactly, in lower case, or it is not that disposition", disposition)
	case !slate.Trustworthy():
		v.Why = "this store's slate state carries rows this parser cannot read; repair the slate before dispositioning anything"
	case records.IsSelf(disposition):
		v.Why = fmt.Sprintf("'%s' is a record the sweep writes about itself, not a disposition of an entry, and it is not this gate's to allow", disposition)
	case records.IsNonExit(disposition):
		v.Allowed = true
		v.Why = fmt.Sprintf("'%s' does not remove the entry from the index", disposition)
	default:
		critical := slate.Current(identity, records.TrackCritical)
		switch {
		case critical == nil:
			v.Why = whyUnassessedExit
		case !carries:
			v.Why = "an exit is lawful only when its destination is read and confirmed to carry the lesson at this moment"
		case critical.Value == "yes" && !landed:
			v.Why = "the destination carries the lesson but has not landed; for a repository destination landed means merged to the default branch. Take the landing-in-flight state instead."
		default:
			v.Allowed = true
		}
	}
	return v
}

// AdmissionGate decides whether remove-fails-admission may be applied at
// all: entries admitted before the admission rule landed (and entries that
// record no admitted date) are grandfathered. A future admitted date is
// allowed here.
func AdmissionGate(identity string, ruleLandedOn records.Date) AdmissionVerdict {
	v := AdmissionVerdict{Gate: "admission", Identity: identity}
	id, why := records.ParseIdentity(identity, records.MaxDate)
	switch {
	case why != "":
		v.Why = why
	case id.IsUnknown():
		v.Why = "this entry records no admitted date, so it cannot be shown to postdate the admission rule; it is grandfathered"
	default:
		admitted, _ := records.ParseDate(id.Admitted)
		if admitted.Before(ruleLandedOn) {
			v.Why = fmt.Sprintf("admitted %s, before the admission rule landed on %s; grandfathered", id.Admitted, ruleLandedOn)
			return v
		}
		v.Allowed = true
	}
	return v
}

// Reconcile verdicts.
const (
	Exited      = "exited"
	NotExited   = "not-exited"
	Undecidable = "undecidable"
)

// ReconcileGate decides whether a living entry's life has already exited,
// reading the life key off the body at entryPath. A life with no admitted
// date is undecidable, never guessed either way.
func ReconcileGate(ledger *records.Ledger, entryPath string) (ReconcileVerdict, error) {
	identity, err := records.EntryIdentity(entryPath)
	if err != nil {
		return ReconcileVerdict{}, err
	}
	v := ReconcileVerdict{Gate: "reconcile", Identity: identity}
	n := ledger.ExitsInForceForName(records.EntryName(entryPath))
	switch _, gone := ledger.ExitInForce(identity); {
	case records.IsUnknownKey(identity):
		v.Verdict = Undecidable
		v.Why = fmt.Sprintf("this entry records no admitted date, so which life it is cannot be established; %d exit(s) in force carry its name", n)
	case gone:
		v.Verdict = Exited
		v.Why = "an exit in force carries this life key"
	default:
		v.Verdict, v.Allowed = NotExited, true
		v.Why = fmt.Sprintf("no exit in force carries this life key (%d carry the name under a different life)", n)
	}
	return v, nil
}

// GuardReconcile turns a not-exited verdict into undecidable when the
// ledger was not read whole. The reference decides on the well-formed
// records alone; but a malformed row (or a second marker, which leaves no
// row read at all) might be this life's exit, and "not exited" is the one
// answer that lets a removal proceed, so memcompact declines to give it.
func GuardReconcile(v ReconcileVerdict, ledger *records.Ledger) ReconcileVerdict {
	if v.Verdict != NotExited || ledger.Complete() {
		return v
	}
	what := fmt.Sprintf("%d record(s) this parser cannot read", len(ledger.Malformed))
	if ledger.State() == records.StateDuplicated {
		what = "more than one opening marker, so no record in it was read"
	}
	v.Verdict, v.Allowed = Undecidable, false
	v.Why = fmt.Sprintf("the ledger carries %s, so whether an exit in force carries this life key cannot be established; repair the ledger before reconciling", what)
	return v
}
