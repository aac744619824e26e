package compact

import (
	"github.com/memcompact/memcompact/internal/distill"
	"github.com/memcompact/memcompact/internal/facts"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/snapshot"
)

// The structs in this file are memcompact's JSON output for compact (and
// the compaction part of save); field names are a stable protocol.

// SchemaVersion is the version of the JSON written by compact and save.
const SchemaVersion = 1

// Outcomes of one file's compaction.
const (
	StatusCompacted    = "compacted"     // rewritten (or would be, in a dry run)
	StatusWithin       = "within_budget" // not over budget, not asked for: nothing to do
	StatusNothing      = "nothing_to_compact"
	StatusShortfall    = "over_budget" // cannot reach the budget; nothing written
	StatusAborted      = "aborted"     // verification or the summarizer failed; nothing written
	StatusRefused      = "refused"     // not in the policy, no entries, not text, …
	StatusNotConfirmed = "not_confirmed"
	StatusPlanned      = "planned" // --plan: tier and facts shown, nothing written
)

// Tier is one tier's size.
type Tier struct {
	Entries int `json:"entries"`
	Lines   int `json:"lines"`
}

// Secret is an entry kept verbatim because it holds (or sits under) a secret.
type Secret struct {
	Line   int    `json:"line"` // 1-based line of the entry's start in the original file
	Title  string `json:"title"`
	Reason string `json:"reason"` // "heading" or the scanner's rule id
}

// FactCounts counts statements by kind (see distill.StatKinds).
type FactCounts struct {
	Priority    int `json:"priority"` // health and safety, a person's attributes
	Decision    int `json:"decision"` // decisions, instructions, preferences, rules
	Observation int `json:"observation"`
	Code        int `json:"code"` // code blocks and tables, whole
	Superseded  int `json:"superseded"`
	Duplicate   int `json:"duplicate"`
	Chatter     int `json:"chatter"`
}

// countsOf is m (distill's counts by kind) as FactCounts; nil for none.
func countsOf(m map[string]int) *FactCounts {
	if m == nil {
		return nil
	}
	return &FactCounts{Priority: m[distill.KindPriority], Decision: m[distill.KindDecision], Observation: m[distill.KindObservation],
		Code: m[distill.KindCode], Superseded: m[distill.KindSuperseded], Duplicate: m[distill.KindDuplicate], Chatter: m[distill.KindChatter]}
}

// byKind is c as distill's counts by kind.
func (c *FactCounts) byKind() map[string]int {
	if c == nil {
		return nil
	}
	return map[string]int{distill.KindPriority: c.Priority, distill.KindDecision: c.Decision, distill.KindObservation: c.Observation,
		distill.KindCode: c.Code, distill.KindSuperseded: c.Superseded, distill.KindDuplicate: c.Duplicate, distill.KindChatter: c.Chatter}
}

// Report is the result of compacting one file.
type Report struct {
	File       string `json:"file"` // root-relative
	Status     string `json:"status"`
	DryRun     bool   `json:"dry_run"`
	Unit       string `json:"unit"`
	Budget     int    `json:"budget"`
	SizeBefore int    `json:"size_before"`
	SizeAfter  int    `json:"size_after"`
	Mode       string `json:"entry_rule,omitempty"`
	Entries    int    `json:"entries"`
	Oldest     Tier   `json:"oldest_tier"`
	Mid        Tier   `json:"mid_tier"`
	Newest     Tier   `json:"newest_tier"`
	// Compacted is N, the entries distilled; CompactedSize is X and
	// BlockSize is Y, both in Unit.
	Compacted     int          `json:"compacted_entries"`
	CompactedSize int          `json:"compacted_size"`
	BlockSize     int          `json:"block_size"`
	MidLightened  bool         `json:"mid_lightened"`
	MidRemoved    int          `json:"mid_lines_removed"`
	Summarizer    string       `json:"summarizer"`
	Snapshot      string       `json:"snapshot,omitempty"` // root-relative
	Secrets       []Secret     `json:"secrets_kept"`
	Missing       []facts.Fact `json:"missing_facts,omitempty"`
	SecretInBlock []string     `json:"secrets_in_block,omitempty"`
	Shortfall     int          `json:"shortfall,omitempty"` // units over budget at best
	// Floor (with a shortfall after distilling) is the size the file
	// would have with an empty summary. Above the budget, no summarizer
	// can reach it: the oldest tier is capped at 30% of the file.
	Floor int `json:"size_without_summary,omitempty"`
	// SuggestBudget and SuggestNewest (with a file that cannot fit) are
	// a budget and a newest-tier size with which it does, each checked by
	// planning the compaction again with it.
	SuggestBudget int  `json:"suggest_budget,omitempty"`
	SuggestNewest *int `json:"suggest_newest,omitempty"`
	// SuggestEntryHeading (with a file refused for no recognizable
	// entries) is an --entry-heading that splits it into entries with an
	// oldest tier to compact, or "" when no heading level does.
	SuggestEntryHeading string `json:"-"`
	// Root is the memory root, absolute (the Result's, for a face that
	// gets the report alone).
	Root string `json:"-"`
	// Level is the built-in summarizer's level that was needed (0 the
	// lightest); Grown how many entries the oldest tier grew by.
	Level int `json:"level"`
	Grown int `json:"tier_grown,omitempty"`
	// FactsKept and FactsDropped count the distilled statements the live
	// file keeps and those it drops, by kind (distill.StatKinds): the
	// dropped ones are in the snapshots the block names. Set by the
	// built-in summarizer.
	FactsKept    *FactCounts `json:"facts_kept,omitempty"`
	FactsDropped *FactCounts `json:"facts_dropped,omitempty"`
	// SnapshotOnly are the facts of the distilled entries (and of an
	// earlier block) that the live file no longer holds: they are in the
	// snapshots the block names. MustKeep (--plan) are the statements
	// that must stay live.
	SnapshotOnly []facts.Fact `json:"snapshot_only_facts,omitempty"`
	MustKeep     []string     `json:"must_keep,omitempty"`
	// LostKeep (an aborted compaction) are the must-keep statements the
	// rewrite would have lost.
	LostKeep []string `json:"lost_must_keep,omitempty"`
	// Misplaced (an aborted compaction) are the statements a summary put
	// under a parent (a person, a section) they do not belong to.
	Misplaced []string `json:"misplaced,omitempty"`
	// Unfaithful (an aborted compaction) are the summary's bullets that do
	// not say what the entries say, each with its fault.
	Unfaithful []string `json:"unfaithful,omitempty"`
	// DeclaredDropped are the facts the summary (model, agent or command)
	// declared dropped in "Dropped:" bullets: not written as statements,
	// named on one line of the block with the snapshot that holds them.
	DeclaredDropped []string     `json:"declared_dropped,omitempty"`
	Message         string       `json:"message"`
	Block           string       `json:"block,omitempty"`     // the new history block (dry run)
	TierText        string       `json:"tier_text,omitempty"` // --plan: the entries to distill (no secret entry)
	Facts           []facts.Fact `json:"facts,omitempty"`     // --plan: what the summary must keep, lines in the file
	// --plan: the instructions every summarizer gets (an agent too), the
	// request it is sent, and with a model summarizer named, where the
	// request would go and all of it as it would be sent.
	Prompt  string    `json:"prompt,omitempty"`
	Request string    `json:"request,omitempty"`
	SendsTo string    `json:"sends_to,omitempty"`
	Preview string    `json:"preview,omitempty"`
	Model   *ModelRun `json:"model,omitempty"` // what a model summarizer did
	// FellBack says why the built-in summarizer wrote the block instead of
	// the one asked for (--fallback builtin): the refusal it replaced.
	FellBack string `json:"fell_back,omitempty"`
	// Pruned is what the retention rule removed of the file's snapshots
	// after the rewrite (snapshot.DefaultRetention), and why the rest stay.
	Pruned *snapshot.Pruned `json:"snapshots_pruned,omitempty"`

	// Reason says why a file was refused, not confirmed or aborted, for
	// callers that choose what to say by it; it is not part of the JSON.
	Reason outcome.Reason `json:"-"`
}
