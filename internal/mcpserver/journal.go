package mcpserver

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memcompact/memcompact/internal/journal"
	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
)

// The journal's three verbs share one file: history reads the journal,
// journal records (or prunes) it, undo brings back what it holds.

// HistoryInput is the input of the history tool.
type HistoryInput struct {
	Store string `json:"store,omitempty" jsonschema:"the store folder or its MEMORY.md; default: the current project's Claude Code store"`
	Since string `json:"since,omitempty" jsonschema:"only steps after this: a snapshot, yyyy-MM-dd, an RFC 3339 time or an age (7d, 36h)"`
	File  string `json:"file,omitempty" jsonschema:"only changes to this store path (e.g. MEMORY.md)"`
}

// JournalInput is the input of the journal tool.
type JournalInput struct {
	Store          string `json:"store,omitempty" jsonschema:"the store folder or its MEMORY.md; default: the current project's Claude Code store"`
	Action         string `json:"action,omitempty" jsonschema:"record (default: snapshot the store now), prune (apply the retention policy) or status (what the journal holds, as history reports it)"`
	DryRun         bool   `json:"dry_run,omitempty" jsonschema:"with prune: say what would be removed, remove nothing"`
	IncludeSecrets bool   `json:"include_secrets,omitempty" jsonschema:"with record: keep the bytes of files that match a secret rule too"`
}

// UndoInput is the input of the undo tool.
type UndoInput struct {
	Store        string `json:"store,omitempty" jsonschema:"the store folder or its MEMORY.md; default: the current project's Claude Code store"`
	Entry        string `json:"entry,omitempty" jsonschema:"bring back this removed entry (store path or name) and its pointer lines"`
	File         string `json:"file,omitempty" jsonschema:"bring back this store path as the snapshot named by at has it"`
	At           string `json:"at,omitempty" jsonschema:"the snapshot for file (or entry): an ID, prefix, date or time"`
	RemovedSince string `json:"removed_since,omitempty" jsonschema:"bring back every entry removed since this snapshot"`
	To           string `json:"to,omitempty" jsonschema:"bring the whole store back to this snapshot"`
	Confirm      bool   `json:"confirm,omitempty" jsonschema:"true to write; otherwise a preview that changes nothing"`
}

// journalRefusalHint is what the CLI adds when the journal cannot be
// written.
const journalRefusalHint = "memcompact keeps its journal under $MEMCOMPACT_DATA_DIR (else $XDG_DATA_HOME/memcompact, else ~/.local/share/memcompact); make it writable or point it elsewhere"

func init() {
	tools = append(tools, func(s *mcp.Server, h *Host) {
		addTool(s, &mcp.Tool{
			Name: "history",
			Description: "What changed in a store, step by step, from memcompact's journal of snapshots: files changed, pointers dropped and added, " +
				"with warnings for mass removals and pointers dropped with no exit recorded. Result: the JSON of 'memcompact history --json'. Exit 0 no warning, 1 a step warns.",
			Annotations: readOnly("What changed in memory"),
		}, []any{journal.HistoryJSON{}, jsonout.Error{}}, func(ctx context.Context, in HistoryInput) reply {
			return h.history(ctx, in.Store, in.Since, in.File)
		})
		addTool(s, &mcp.Tool{
			Name: "journal",
			Description: "memcompact's journal of the store: record a snapshot now (action record, the default; nothing is written when the store is unchanged), " +
				"prune by the retention policy (action prune, dry_run to preview), or report what it holds (action status: history's document). " +
				"Result: the JSON of 'memcompact journal --json', 'journal prune --json' or 'history --json'.",
			Annotations: writes("Record or prune the journal"),
		}, []any{journal.RecordJSON{}, journal.PruneJSON{}, journal.HistoryJSON{}, jsonout.Error{}}, func(ctx context.Context, in JournalInput) reply {
			where := h.where()
			switch in.Action {
			case "", "record":
				res, err := journal.RunRecord(ctx, journal.RecordRequest{Store: in.Store, Where: where, IncludeSecrets: in.IncludeSecrets, Now: h.now()})
				if err != nil {
					return journalFailure(err, journalRefusalHint)
				}
				return reply{doc: res.JSON(), status: outcome.Clean}
			case "prune":
				res, err := journal.RunPrune(ctx, journal.PruneRequest{Store: in.Store, Where: where, DryRun: in.DryRun, Now: h.now()})
				if err != nil {
					return genericFailure(err)
				}
				return reply{doc: res.JSON(), status: outcome.Clean}
			case "status":
				return h.history(ctx, in.Store, "", "")
			}
			return genericFailure(usageError("action must be record, prune or status, not " + quote(in.Action)))
		})
		addTool(s, &mcp.Tool{
			Name: "undo",
			Description: "Bring back what memcompact's journal holds: one removed entry (entry), one file as a snapshot had it (file with at), " +
				"every entry removed since a snapshot (removed_since), or the whole store (to). Without confirm: true it only previews (status planned) and writes nothing; " +
				"with it, the present is snapshotted first so the undo can itself be undone. Result: the JSON of 'memcompact undo --json'.",
			Annotations: writes("Undo from the journal"),
		}, []any{journal.UndoJSON{}, jsonout.Error{}}, func(ctx context.Context, in UndoInput) reply {
			req := journal.UndoRequest{Store: in.Store, Where: h.where(), Entry: in.Entry, File: in.File, At: in.At,
				RemovedSince: in.RemovedSince, To: in.To, Now: h.now(),
				Confirm: func(*journal.UndoResult) bool { return in.Confirm }}
			res, err := journal.RunUndo(ctx, req)
			if err != nil {
				r := journalFailure(err, "the history tool shows the snapshots and what changed")
				if res != nil {
					r.doc = res.JSON()
				}
				return r
			}
			r := reply{doc: res.JSON(), status: outcome.Clean}
			if !in.Confirm {
				r.messages = append(r.messages, outcome.Line(outcome.KindHint, "nothing was changed: call undo again with the same arguments and confirm: true to apply this plan"))
			}
			return r
		})
	})
}

// history runs the history engine and shapes its answer as the verb does.
func (h *Host) history(ctx context.Context, storeArg, since, file string) reply {
	res, err := journal.RunHistory(ctx, journal.HistoryRequest{Store: storeArg, Where: h.where(), Since: since, File: file, Now: h.now()})
	if err != nil {
		return genericFailure(err)
	}
	return reply{doc: res.JSON(), status: res.Status()}
}

// journalFailure is a journal refusal with the CLI's hint, except when the
// store or the data directory was not found.
func journalFailure(err error, hint string) reply {
	switch outcome.ReasonOf(err) {
	case store.ReasonNoIndex, journal.ReasonNoStore, journal.ReasonNoDataDir:
		return genericFailure(err)
	}
	var hints []string
	var e *outcome.Error
	if errors.As(err, &e) {
		hints = slices.Clone(e.Hints)
	}
	hints = append(hints, hint)
	r := failure(jsonout.ErrorOf(outcome.StatusOf(err), outcome.MessageOf(err), hints), err)
	r.messages = append(r.messages, outcome.Line(outcome.KindHint, hint))
	return r
}

// now is the host's clock, time.Now when it has none.
func (h *Host) now() func() time.Time {
	if h.Now != nil {
		return h.Now
	}
	return time.Now
}

func quote(s string) string { return `"` + s + `"` }
