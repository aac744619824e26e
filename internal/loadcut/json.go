package loadcut

import store "github.com/memcompact/memcompact/internal/store"

// Report is load's JSON output, shared by the CLI verb and the MCP tool so
// both return the same object. Result's fields are inlined.
type Report struct {
	SchemaVersion int    `json:"schema_version"` // 1
	Outcome       string `json:"result"`         // "whole", "cut", "hidden", "off" (memory switched off) or "stores" (memory stores mounted: no MEMORY.md loads)
	Index         string `json:"index"`          // the index path as given
	Result
	SubjectsPastCut int `json:"subjects_past_cut"`
	// LoadedText is the memory text as Claude Code loads it, when asked.
	LoadedText *string `json:"loaded_text,omitempty"`
	// Store is where the index was found and which rule chose it, when
	// it was found from the working directory rather than given.
	Store *store.Location `json:"store,omitempty"`
}

// ErrorReport is load's JSON output on a usage error or refusal.
type ErrorReport struct {
	SchemaVersion int      `json:"schema_version"` // 1
	Outcome       string   `json:"result"`         // "usage-error" or "refused"
	Index         string   `json:"index"`
	Reason        string   `json:"reason"`
	Hints         []string `json:"hints"`
	// Store is where the index was looked for, when it was looked for.
	Store *store.Location `json:"store,omitempty"`
}

// NewReport wraps r for JSON output.
func NewReport(index string, r Result) Report {
	out := Report{SchemaVersion: 1, Outcome: "whole", Index: index, Result: r, SubjectsPastCut: len(r.PastCut)}
	switch {
	case r.MemoryOff != "":
		out.Outcome = "off"
	case r.IndexSkipped != "":
		out.Outcome = "stores"
	case r.Cut:
		out.Outcome = "cut"
	case r.Lost():
		out.Outcome = "hidden"
	}
	if out.PastCut == nil {
		out.PastCut = []Subject{}
	}
	return out
}
