package budget

import "strings"

// DefaultNewest is the newest tier a row added by Set gets when nothing else
// says how many entries to keep verbatim.
const DefaultNewest = 10

// DefaultPolicy is the policy init writes into a root that has none. The
// budgets follow the MemoryCore design's defaults; the prose is ours.
func DefaultPolicy() string {
	return strings.Join([]string{
		"# Compaction Policy",
		"*How large each memory file may grow, and how much of it stays word for word.*",
		"",
		"## Active Budgets",
		"",
		"| File | Budget | Newest tier (verbatim) | Notes |",
		"|------|--------|------------------------|-------|",
		"| main/main-memory.md | 500 lines | last 20 entries | identity and long-term facts |",
		"| main/relationship-memory.md | 400 lines | last 15 entries | how the user likes to work |",
		"| topic-diary/topics/*.md | 300 lines each | last 10 entries | one diary per topic |",
		"",
		"Paths are relative to the folder that holds `compaction/`. A glob row budgets every",
		"matching file on its own. Budgets count `lines` or `chars`; pick one per row.",
		"",
		"## How a Compaction Runs",
		"",
		"- The newest entries named in the table are never rewritten.",
		"- The oldest entries, up to about 30% of the file, are distilled into one",
		"  `## Compacted History` block: facts, decisions and preferences stay; repetition goes.",
		"- Entries in between are trimmed lightly (duplicate lines, filler) only when the",
		"  distilled file is still over its budget.",
		"- A copy of the file goes to `compaction/snapshots/` before anything is rewritten.",
		"",
		"## What Is Never Compacted",
		"",
		"- A file that has no row in the table above.",
		"- Anything under `compaction/snapshots/`.",
		"- Secrets: an entry holding a token, password, key or credential, or sitting under a",
		"  `## Secrets`, `## Credentials` or `## Tokens` heading, stays exactly where it is.",
		"",
		"Change a budget with `memcompact set-budget FILE N lines|chars [--newest N]`.",
		"",
		installNoteMarker,
		"",
	}, "\n")
}

// installNoteMarker ends the policy init writes and begins the note it
// appends to a policy it did not write; its presence makes init's second
// run a no-op.
const installNoteMarker = "<!-- memcompact init -->"

// installNote is the short note init appends to an existing policy.
func installNote(date string) string {
	return "\n" + installNoteMarker + "\n" +
		"*memcompact was set up on " + date + " and kept the budgets above as they were.*\n"
}
