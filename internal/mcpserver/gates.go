package mcpserver

import (
	"context"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/sweep"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The four disposition gates share one file: they are one verb
// ("memcompact gate KIND") with four sets of required inputs.

// GateDeferralInput is the input of gate_deferral.
type GateDeferralInput struct {
	Index    string `json:"index" jsonschema:"the store's index file"`
	Identity string `json:"identity" jsonschema:"the entry's life key, <name>@<yyyy-MM-dd> or <name>@unknown"`
	Slate    string `json:"slate,omitempty" jsonschema:"SLATE.md; default: beside the index"`
	AsOf     string `json:"as_of,omitempty" jsonschema:"the date to reason from, yyyy-MM-dd; default today"`
}

// GateExitInput is the input of gate_exit.
type GateExitInput struct {
	Index       string `json:"index" jsonschema:"the store's index file"`
	Identity    string `json:"identity" jsonschema:"the entry's life key"`
	Disposition string `json:"disposition" jsonschema:"the exit disposition considered: promote, demote, remove-fails-admission, evaporate-on-close, dedupe-into or remove-obsolete"`
	Destination string `json:"destination,omitempty" jsonschema:"the file the lesson now lives in (read to find the probe)"`
	Probe       string `json:"probe,omitempty" jsonschema:"text the destination must carry, exact and case-sensitive"`
	Landed      bool   `json:"landed,omitempty" jsonschema:"assert the destination has landed (merged to the default branch)"`
	Slate       string `json:"slate,omitempty" jsonschema:"SLATE.md; default: beside the index"`
	AsOf        string `json:"as_of,omitempty" jsonschema:"the date to reason from, yyyy-MM-dd; default today"`
}

// GateAdmissionInput is the input of gate_admission.
type GateAdmissionInput struct {
	Index                 string `json:"index" jsonschema:"the store's index file"`
	Identity              string `json:"identity" jsonschema:"the entry's life key"`
	AdmissionRuleLandedOn string `json:"admission_rule_landed_on" jsonschema:"the date the store's admission rule landed, yyyy-MM-dd"`
}

// GateReconcileInput is the input of gate_reconcile.
type GateReconcileInput struct {
	Index  string `json:"index" jsonschema:"the store's index file"`
	Entry  string `json:"entry" jsonschema:"the living entry body the life key is read from"`
	Ledger string `json:"ledger,omitempty" jsonschema:"LEDGER.md; default: beside the index"`
	AsOf   string `json:"as_of,omitempty" jsonschema:"the date to reason from, yyyy-MM-dd; default today"`
}

const gateResult = " Result: the verdict JSON of 'memcompact gate --json'; exit 0 allowed, 1 refused by the gate."

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name:        "gate_deferral",
			Description: "Deferral gate: may this entry's disposition be deferred again? Blocks a second deferral of a critical entry and any disposition of an unassessed one." + gateResult,
			Annotations: readOnly("Deferral gate"),
		}, gateOutputs(sweep.DeferralVerdict{}), func(ctx context.Context, in GateDeferralInput) reply {
			return h.gate(ctx, sweep.GateRequest{Gate: "deferral", Records: h.records(in.Index, "", in.Slate, "", in.AsOf), Identity: in.Identity})
		})
		addTool(s, &mcp.Tool{
			Name:        "gate_exit",
			Description: "Exit gate: may this entry leave the index by this disposition? Reads the destination and requires the lesson probe in it; critical exits need a landed destination." + gateResult,
			Annotations: readOnly("Exit gate"),
		}, gateOutputs(sweep.ExitVerdict{}), func(ctx context.Context, in GateExitInput) reply {
			return h.gate(ctx, sweep.GateRequest{Gate: "exit", Records: h.records(in.Index, "", in.Slate, "", in.AsOf), Identity: in.Identity,
				Disposition: in.Disposition, Destination: in.Destination, Probe: in.Probe, Landed: in.Landed})
		})
		addTool(s, &mcp.Tool{
			Name:        "gate_admission",
			Description: "Admission gate: is this life key admitted under the store's admission rule (with its grandfathering scope)?" + gateResult,
			Annotations: readOnly("Admission gate"),
		}, gateOutputs(sweep.AdmissionVerdict{}), func(ctx context.Context, in GateAdmissionInput) reply {
			return h.gate(ctx, sweep.GateRequest{Gate: "admission", Records: h.records(in.Index, "", "", "", ""), Identity: in.Identity, RuleLanded: in.AdmissionRuleLandedOn})
		})
		addTool(s, &mcp.Tool{
			Name:        "gate_reconcile",
			Description: "Reconcile gate: has the life of this living entry body exited per LEDGER.md? Answers exited, not-exited or undecidable." + gateResult,
			Annotations: readOnly("Reconcile gate"),
		}, gateOutputs(sweep.ReconcileVerdict{}), func(ctx context.Context, in GateReconcileInput) reply {
			return h.gate(ctx, sweep.GateRequest{Gate: "reconcile", Records: h.records(in.Index, in.Ledger, "", "", in.AsOf), Entry: in.Entry})
		})
	})
}

// gateOutputs are the documents a gate tool may return: its verdict, or
// the reference's usage error.
func gateOutputs(verdict any) []any { return []any{verdict, sweep.UsageError{}, jsonout.Error{}} }

// gate runs one gate and shapes its verdict as the gate verb does.
func (h *Host) gate(ctx context.Context, req sweep.GateRequest) reply {
	res, err := sweep.RunGate(ctx, req)
	if err != nil {
		return sweepFailure(err, "")
	}
	return reply{doc: res.Verdict, status: res.Status(), messages: warnings(res.Warnings)}
}

// records is the sweep verbs' store, as the tools name it.
func (h *Host) records(index, ledger, slate, archive, asOf string) sweep.Records {
	return sweep.Records{Index: index, Ledger: ledger, Slate: slate, Archive: archive, AsOf: asOf, Today: h.Today()}
}

// sweepFailure is the reply of a sweep engine's error: a usage error is
// the reference's {result, reason} document (the CLI prints it on stdout,
// as text for some verbs), with the error line and hint, the way forward
// in the tools' terms; anything else is memcompact's own error object.
func sweepFailure(err error, hint string) reply {
	if outcome.ReasonOf(err) != sweep.ReasonUsage {
		return genericFailure(err)
	}
	r := reply{doc: sweep.UsageJSON(outcome.MessageOf(err)), status: outcome.Usage,
		messages: []string{outcome.Line(outcome.KindError, outcome.MessageOf(err))}}
	if hint != "" {
		r.messages = append(r.messages, outcome.Line(outcome.KindHint, hint))
	}
	return r
}

// warnings are the record files' notes as the CLI prints them on stderr.
func warnings(ws []sweep.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, outcome.Line(outcome.KindWarning, w.String()))
	}
	return out
}
