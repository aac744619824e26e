package writeguard

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/secrets"
)

// checkSecrets denies a write that adds a secret to any file of the store.
// Only what the write adds is judged: the text between the longest common
// start and end of before and after (secrets.ScanChanged, which finds
// there exactly what a scan of the whole file finds). Secrets already in
// the file are compared by rule and redacted excerpt, so an edit elsewhere
// in a file that already holds one is not blocked (the doctor and the
// secrets verb report those).
func checkSecrets(c *change) {
	lo, hi := addedRange(c.before, c.after)
	if len(secrets.ScanChanged(c.after, lo, hi)) == 0 {
		return
	}
	news := added(secrets.Scan(c.before), secrets.Scan(c.after), func(f secrets.Finding) string { return f.Rule + "\x00" + f.Excerpt })
	if len(news) == 0 {
		return
	}
	var where []string
	for _, f := range news {
		where = append(where, fmt.Sprintf("line %d (%s): %s", f.Line, f.Rule, f.Excerpt))
	}
	c.deny("secret",
		"it would write a secret into memory, which is read back into future sessions: "+strings.Join(where, "; "),
		"Leave the value out: name where it lives instead (an environment variable, a secrets manager, a file outside the store)")
}

// checkDroppedPointers denies an index write that removes the last pointer
// to an existing entry file when LEDGER.md holds no exit in force for that
// entry's life. A pointer to a file that does not exist (a dangling one)
// may be dropped freely: nothing is forgotten by removing it, and the drift
// report asks for exactly that.
func checkDroppedPointers(c *change) {
	if !c.verdict.Index {
		return
	}
	ixBefore, ixAfter := c.indexes()
	after := map[string]bool{}
	for _, s := range records.SubjectsOf(ixAfter) {
		after[s.Dest] = true
	}
	var dropped []records.Subject
	seen := map[string]bool{}
	for _, s := range records.SubjectsOf(ixBefore) {
		if after[s.Dest] || seen[s.Dest] {
			continue
		}
		seen[s.Dest] = true
		dropped = append(dropped, s)
	}
	if len(dropped) == 0 {
		return
	}
	ledgerPath := filepath.Join(c.storeDir, "LEDGER.md")
	ledger, err := records.ReadLedger(ledgerPath, records.DateOf(c.call.Today))
	if err != nil {
		c.cannotJudge(fmt.Sprintf("memcompact cannot read %s (%v), so it cannot tell whether the pointers this write drops were recorded", ledgerPath, err),
			"Keep the pointers in this write, or tell the user LEDGER.md is unreadable")
		return
	}
	today := records.DateOf(c.call.Today).String()
	var missing []string
	var example string
	rv := index.NewResolver(c.storeDir)
	for _, s := range dropped {
		r := rv.Resolve(s.Dest)
		if r.State != index.Found {
			continue // dangling, or a URL: nothing to lose by dropping it
		}
		facts, err := records.ReadEntryFacts(r.Path)
		if err != nil || !facts.Exists {
			continue // dangling (or unreadable): nothing to lose by dropping it
		}
		key := s.Name + "@" + facts.Admitted
		if _, ok := ledger.ExitInForce(key); ok {
			continue
		}
		missing = append(missing, fmt.Sprintf("%s (line %d, life %s)", s.Target, s.Line, key))
		if example == "" {
			example = fmt.Sprintf("%s | executed | remove-obsolete | %s | why it may go | where its lesson now lives (or none)", today, key)
		}
	}
	if len(missing) == 0 {
		return
	}
	fix := "Removing a pointer makes the agent forget the entry, so the exit must be recorded first: append one line per entry to LEDGER.md below its \"" +
		records.LedgerMarker + "\" marker, e.g. \"" + example + "\" (disposition one of " + strings.Join(records.ExitDispositions, ", ") + "), then retry; or keep the pointer"
	if !ledger.Complete() {
		fix += fmt.Sprintf(" (LEDGER.md has %d malformed record(s) or a duplicated marker; fix those too)", len(ledger.Malformed))
	}
	c.deny("dropped-pointer",
		"it would drop the pointer to "+strings.Join(missing, ", ")+" with no exit recorded in LEDGER.md",
		fix)
}

// addedRange is the range of after's lines that differ from before: the
// whole lines around what is left between the longest common start and end
// of the two. A write that only deletes leaves nothing between them; the
// line it joins is judged.
func addedRange(before, after string) (lo, hi int) {
	n := min(len(before), len(after))
	// The common start and end are found a block at a time (a string
	// comparison, which the runtime does many bytes per instruction), then
	// byte by byte in the block that differs: an edit of a 78 KB index
	// compared nearly every byte singly before.
	const block = 64
	for lo+block <= n && before[lo:lo+block] == after[lo:lo+block] {
		lo += block
	}
	for lo < n && before[lo] == after[lo] {
		lo++
	}
	s := 0
	for s+block <= n-lo && before[len(before)-s-block:len(before)-s] == after[len(after)-s-block:len(after)-s] {
		s += block
	}
	for s < n-lo && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	hi = max(lo, len(after)-s)
	lo = strings.LastIndexAny(after[:lo], "\r\n") + 1
	if i := strings.IndexAny(after[hi:], "\r\n"); i >= 0 {
		hi += i
	} else {
		hi = len(after)
	}
	if lo == hi && hi < len(after) {
		hi++ // an empty line: its terminator
	}
	return lo, hi
}
