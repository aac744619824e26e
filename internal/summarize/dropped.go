package summarize

import (
	"strings"

	"github.com/memcompact/memcompact/internal/lazyre"
)

// DroppedPrefix opens a bullet by which a summarizer declares a priority
// fact it left out (a health or safety fact, a person's attribute, a
// current decision or instruction) because the budget could not hold it:
//
//   - Dropped: Omar's peanut allergy (2025-01-17)
//
// The word is the same in every language of the entries. A declared drop
// is not a statement of the memory: compact checks that it names a fact of
// the tier, counts it, names it in its report, and writes one line in the
// block that says the dropped text is in the snapshot. A priority fact
// neither in a bullet nor declared dropped is refused.
const DroppedPrefix = "Dropped:"

// droppedRE matches the prefix as a summarizer may write it: any case,
// bold, with a date or a dash before it ("**Dropped:** …", "dropped — …").
var droppedRE = lazyre.New(`(?i)^(?:\*\*|__)?dropped(?:\*\*|__)?\s*(?::|：|—|–|-)\s*(?:\*\*|__)?\s*`)

// SplitDropped separates the bullets that state facts from those that
// declare a fact dropped; a declaration is returned without its prefix.
// A bare "Dropped:" with nothing after it declares nothing and is left out.
func SplitDropped(bullets []string) (kept, dropped []string) {
	for _, b := range bullets {
		t := strings.TrimSpace(b)
		if loc := droppedRE().FindStringIndex(t); loc != nil {
			if rest := strings.TrimSpace(t[loc[1]:]); rest != "" {
				dropped = append(dropped, rest)
			}
			continue
		}
		kept = append(kept, b)
	}
	return kept, dropped
}
