// Package entries splits a memory file into its parts — preamble, entries,
// an existing Compacted History block, and other lines — and the entries
// into the newest, mid and oldest tiers. The split is deterministic: the
// same text always gives the same entries, so compaction results do not
// depend on who runs them.
//
// # The rule
//
// Lines inside fenced code blocks (``` or ~~~) and inside a YAML front
// matter block (the file's first line "---", up to the next "---" or "...")
// are never headings, list items or separators; front matter is always
// preamble. A heading is 1–6 "#" after at most three spaces,
// then a space or the end of the line.
//
// A heading whose text is "Compacted History" (any case) starts a history
// block. The block runs to the next heading of the same or a shallower
// level, or through the first separator line (---, *** or ___) and the
// blank lines after it, or to the end of the file. A history block is never
// an entry; the first one is where new distillations are merged.
//
// Entries start at, in order of preference:
//
//  1. the --entry-heading override: a value made only of "#" chooses the
//     headings of that level; any other value is a regular expression and
//     every line it matches starts an entry;
//  2. dated headings: headings whose text begins with a date YYYY-MM-DD
//     (a topic diary's "## 2026-04-08 14:30 — title"), at the shallowest
//     level where one occurs;
//  3. repeated headings: every heading of the shallowest level (2 or
//     deeper) that occurs at least twice;
//  4. top-level list items ("- ", "* ", "+ ", "1. ", "1) " at column 0),
//     in a file with no repeated heading;
//
// and a file with none of these has no recognizable entries (ErrNoEntries).
//
// A heading entry runs up to the next entry start, the next heading of the
// same or a shallower level, a history block, or the end of the file —
// except that among dated entries a non-dated heading of the entries' own
// level ("## Context" under "## 2026-04-08 — title") is a sub-heading of
// the entry above, unless it names a secrets section; so a
// "---" separator and blank lines before the next entry belong to the entry
// above. A list entry runs over its indented continuation lines, blank
// lines and a following separator, and stops at the first unindented line
// that is none of those.
//
// Everything before the first entry (and before a history block that comes
// first) is the preamble — a title, an intro, a diary's "## Topic
// Metadata" — and is never an entry. Lines between entries that belong to
// none (a non-dated heading among dated ones, say) are kept as they are.
//
// # Secrets by heading
//
// An entry is marked SecretHeading when its own heading or title, any
// heading it sits under, or any heading inside it (a "### Credentials"
// sub-heading, outside fenced code) names secrets by secretheading.Secret's rule
// ("Secrets", "Credentials", "Tokens", "Passwords", "API keys", after any
// date or marker: "Secrets for staging"). Compaction never summarizes such
// an entry. (Secrets found by
// content are the secrets package's concern.)
//
// # Tiers
//
// Given the policy's newest-tier size N: the newest tier is the last N
// entries; the oldest tier is taken from the first entry on, whole entries
// at a time, until it holds at least 30% of the file's lines (rounded up),
// never reaching into the newest tier; the mid tier is what lies between.
package tiers
