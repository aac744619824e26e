// Package budget holds a memory root's compaction policy: the budgets table
// in compaction/compaction-policy.md, where each budgeted file (or glob of
// files) is given a size limit in lines or chars and a newest tier that is
// kept verbatim.
//
// # The table
//
// The first Markdown table whose header row names a File column and a Budget
// column is the budgets table. Its header must also name a Newest column
// (e.g. "Newest tier (verbatim)"); a Notes column and any other columns are
// optional and kept as written. The row after the header is the delimiter
// row (|---|---|…). The table ends at the first line that does not start
// with "|". Each row has:
//
//   - File: a path or a glob, relative to the root, "/"-separated, with
//     optional backticks; "*", "?" and "[…]" match within one path segment.
//   - Budget: "N lines" or "N chars" (singular and "characters" accepted),
//     optionally followed by "each". A glob's budget always applies to each
//     matching file on its own; "each" only says so.
//   - Newest: "last N entries" ("N entries", "last N" and "N" accepted).
//
// A row with a missing column, a bad number or unit, an unsafe path, or a
// File cell that repeats an earlier row's is an error reported with its
// line; parse collects every error rather than stopping at the first, and a
// policy with any error is not used at all.
//
// # Lookup
//
// A file's row is the row whose File is exactly its path; failing that, the
// first glob row (in table order) that matches it. A file with no row is not
// budgeted and is never compacted. Files under compaction/snapshots/ are
// never budgeted, whatever the table says.
//
// # Rewrites
//
// A Policy keeps every raw line of the file with its own line ending, so
// Bytes returns the file unchanged and Set (the set-budget verb) changes
// exactly one line: the row it updates, or a new row appended to the table.
//
// # The root
//
// A memory root is a directory holding compaction/compaction-policy.md.
// FindRoot walks from a directory upward to the nearest one.
//
// # Verbs
//
// Run is the budgets verb, Init the init verb and SetBudget the set-budget
// verb. Open (ResolveRoot, then OpenPolicy) and Budgeted are the first
// steps of every verb that works under a policy; their refusals are
// *outcome.Error with one of this package's Reasons.
package budget
