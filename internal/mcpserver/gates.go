package mcpserver

import (
	"context"

	"github.com/memcompact/memcompact/internal/jsonout"
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
			args := []string{"gate", "--json", "--gate", "deferral", "--identity=" + in.Identity}
			args = opt(args, "slate", in.Slate)
			args = opt(args, "as-of", in.AsOf)
			return h.inProcess(ctx, positional(args, in.Index))
		})
		addTool(s, &mcp.Tool{
			Name:        "gate_exit",
			Description: "Exit gate: may this entry leave the index by this disposition? Reads the destination and requires the lesson probe in it; critical exits need a landed destination." + gateResult,
			Annotations: readOnly("Exit gate"),
		}, gateOutputs(sweep.ExitVerdict{}), func(ctx context.Context, in GateExitInput) reply {
			args := []string{"gate", "--json", "--gate", "exit", "--identity=" + in.Identity, "--disposition=" + in.Disposition}
			args = opt(args, "destination", in.Destination)
			args = opt(args, "probe", in.Probe)
			if in.Landed {
				args = append(args, "--landed")
			}
			args = opt(args, "slate", in.Slate)
			args = opt(args, "as-of", in.AsOf)
			return h.inProcess(ctx, positional(args, in.Index))
		})
		addTool(s, &mcp.Tool{
			Name:        "gate_admission",
			Description: "Admission gate: is this life key admitted under the store's admission rule (with its grandfathering scope)?" + gateResult,
			Annotations: readOnly("Admission gate"),
		}, gateOutputs(sweep.AdmissionVerdict{}), func(ctx context.Context, in GateAdmissionInput) reply {
			args := []string{"gate", "--json", "--gate", "admission", "--identity=" + in.Identity}
			args = opt(args, "admission-rule-landed-on", in.AdmissionRuleLandedOn)
			return h.inProcess(ctx, positional(args, in.Index))
		})
		addTool(s, &mcp.Tool{
			Name:        "gate_reconcile",
			Description: "Reconcile gate: has the life of this living entry body exited per LEDGER.md? Answers exited, not-exited or undecidable." + gateResult,
			Annotations: readOnly("Reconcile gate"),
		}, gateOutputs(sweep.ReconcileVerdict{}), func(ctx context.Context, in GateReconcileInput) reply {
			args := []string{"gate", "--json", "--gate", "reconcile"}
			args = opt(args, "entry", in.Entry)
			args = opt(args, "ledger", in.Ledger)
			args = opt(args, "as-of", in.AsOf)
			return h.inProcess(ctx, positional(args, in.Index))
		})
	})
}

// gateOutputs are the documents a gate tool may return: its verdict, or
// the reference's usage error.
func gateOutputs(verdict any) []any { return []any{verdict, sweep.UsageError{}, jsonout.Error{}} }
