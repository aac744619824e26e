package sweep

import (
	"context"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
)

// GateRequest is one gate question about one entry.
type GateRequest struct {
	Records
	Gate        string // deferral, exit, admission or reconcile
	Identity    string // the entry's life key (not for reconcile)
	Entry       string // reconcile: the living entry body
	Disposition string // exit: the disposition considered
	Destination string // exit: the file the lesson now lives in
	Probe       string // exit: text the destination must carry
	Landed      bool   // exit: the destination has landed
	RuleLanded  string // admission: the date the admission rule landed
}

// GateResult is a gate's verdict: the document (one of the four verdict
// types), whether the move is allowed, the reference's text, and notes on
// the record files.
type GateResult struct {
	Verdict  any
	Allowed  bool
	Lines    []string
	Warnings []Warning
}

// Status is clean when the move is allowed, defects when the gate refuses
// it.
func (r *GateResult) Status() outcome.Status {
	if r.Allowed {
		return outcome.Clean
	}
	return outcome.Defects
}

// RunGate applies one disposition gate. It reads the store and writes
// nothing.
func RunGate(ctx context.Context, req GateRequest) (*GateResult, error) {
	asOf, err := req.asOf()
	if err != nil {
		return nil, err
	}
	kind, ruleDate, err := req.check()
	if err != nil {
		return nil, err
	}
	p, err := ResolvePaths(req.Index, req.Ledger, req.Slate, "")
	if err != nil {
		return nil, refused(err)
	}
	res := &GateResult{}
	switch kind {
	case "deferral", "exit":
		slate, err := records.ReadSlate(p.Slate, asOf)
		if err != nil {
			return nil, refused(fmt.Errorf("%s: %v", p.Slate, err))
		}
		res.Warnings = RecordWarnings(nil, slate)
		if kind == "deferral" {
			v := DeferralGate(slate, req.Identity)
			res.set(v, v.Allowed, v.Gate, v.Identity, "", v.Why)
			break
		}
		carries, note, err := ReadDestination(req.Destination, req.Probe)
		if err != nil {
			return nil, refused(fmt.Errorf("%s: the destination could not be read: %v", req.Destination, err))
		}
		v := ExitGate(slate, req.Identity, req.Disposition, carries, note, req.Landed)
		res.set(v, v.Allowed, v.Gate, v.Identity, "", v.Why)
	case "admission":
		v := AdmissionGate(req.Identity, ruleDate)
		res.set(v, v.Allowed, v.Gate, v.Identity, "", v.Why)
	case "reconcile":
		ledger, err := records.ReadLedger(p.Ledger, asOf)
		if err != nil {
			return nil, refused(fmt.Errorf("%s: %v", p.Ledger, err))
		}
		res.Warnings = RecordWarnings(ledger, nil)
		v, err := ReconcileGate(ledger, req.Entry)
		if err != nil {
			return nil, refused(fmt.Errorf("%s: %v", req.Entry, err))
		}
		v = GuardReconcile(v, ledger)
		res.set(v, v.Allowed, v.Gate, v.Identity, v.Verdict, v.Why)
	}
	return res, nil
}

// check validates the request the way the reference script does, in its
// order, and returns the gate's kind and, for admission, the rule's date.
func (req GateRequest) check() (string, records.Date, error) {
	kind := strings.ToLower(strings.TrimSpace(req.Gate))
	switch kind {
	case "":
		return "", records.Date{}, usage("supply -Gate: deferral, exit, admission, or reconcile")
	case "deferral", "exit", "admission", "reconcile":
	default:
		return "", records.Date{}, usage("-Gate must be one of deferral, exit, admission, reconcile; found '%s'", req.Gate)
	}
	switch {
	case strings.TrimSpace(req.Index) == "":
		return "", records.Date{}, usage("-IndexPath is required; it names the store's index file")
	case !IsFile(req.Index):
		return "", records.Date{}, usage("no index file at '%s'", req.Index)
	case kind != "reconcile" && strings.TrimSpace(req.Identity) == "":
		return "", records.Date{}, usage("the %s gate needs -Identity, the entry's life key", req.Gate)
	case kind == "reconcile" && !IsFile(req.Entry):
		return "", records.Date{}, usage("the reconcile gate needs -EntryPath, the living entry body it reads the life key from")
	case kind == "exit" && strings.TrimSpace(req.Disposition) == "":
		return "", records.Date{}, usage("the exit gate needs -Disposition")
	case kind != "admission":
		return kind, records.Date{}, nil
	case strings.TrimSpace(req.RuleLanded) == "":
		return "", records.Date{}, usage("the admission gate needs -AdmissionRuleLandedOn, the date this store's admission rule landed")
	}
	d, ok := records.ParseDate(strings.TrimSpace(req.RuleLanded))
	if !ok {
		return "", records.Date{}, &outcome.Error{Status: outcome.Usage, Reason: ReasonBadDate,
			Msg: fmt.Sprintf("--admission-rule-landed-on must be a date in yyyy-MM-dd form; found %q", req.RuleLanded)}
	}
	return kind, d, nil
}

// set records a verdict and renders it as the reference's text.
func (r *GateResult) set(verdict any, allowed bool, gate, identity, word, why string) {
	r.Verdict, r.Allowed = verdict, allowed
	result := "refused"
	if allowed {
		result = "allowed"
	}
	r.Lines = []string{"RESULT: " + result, "gate: " + gate, "identity: " + identity}
	if word != "" {
		r.Lines = append(r.Lines, "verdict: "+word)
	}
	if strings.TrimSpace(why) != "" {
		r.Lines = append(r.Lines, "why: "+why)
	}
}
