// Package compact runs the compaction protocol on budgeted memory files.
//
// Run is the compact verb (every over-budget file of the policy, or the
// files named) and Save the save verb (append an entry, compacting first
// when the file is over budget); both decide everything, write through
// Plan.Write, and report per file, leaving text, JSON and exit codes to the
// caller. The rest of this comment is what they do with one file.
//
// Prepare does all the thinking and writes nothing:
//
//  1. measure the file against its budget (a file within budget is left
//     alone unless compaction was asked for by name);
//  2. split it into entries and tiers (package entries); an entry is a
//     secret when its heading says so or the secrets scanner finds one in
//     it, and a secret entry is never given to any summarizer;
//  3. distill the oldest tier's other entries into bullets (package
//     distill: built-in, an external command, or an agent's summary file);
//  4. rewrite: the distilled entries give way to one "## Compacted History"
//     block (merged into an existing one), whose second line reads
//     "*Distilled from N entries on DATE. Full detail in SNAPSHOT.*" (every
//     round's date and snapshot, after a merge; provenance.go);
//     secret entries and lines between entries stay verbatim where they
//     were; mid and newest tiers stay byte for byte. A new block takes the
//     first distilled entry's place, or, when the entries sit under a
//     section heading of their own ("## Memories" above list items or
//     "### 2026-…" entries), goes just before that heading, so that the
//     section is not cut in two. With the built-in summarizer an earlier
//     block made of "- " bullets is distilled again with the tier (kept as
//     it is, or condensed when the budget demands); any other block body is
//     kept as it is and the new bullets follow it;
//  5. only if that is still over budget, lighten the mid tier (exact
//     repeats under one parent within an entry, filler); if still over,
//     grow the oldest tier and condense the summary until the file fits
//     (tiering.go); if even the newest tier alone does not fit, stop: the
//     shortfall is reported with a smaller newest tier and a larger budget
//     that were checked to work, and nothing is written;
//  6. verify the new text (verify.go, one function for every summarizer):
//     the newest tier byte-identical (checked by splitting the new text
//     again); every must-keep statement still live; the block naming every
//     snapshot it was distilled from; code blocks and tables in the block
//     whole and the file's own; every fact of the mid tier still in the
//     file; every secret entry still verbatim; no secret in the block. Any
//     failure aborts with what would be lost. Facts left out of the block
//     are reported as living only in the snapshots.
//
// Plan.Write then acts, in this order: snapshot (created exclusively, read
// back and compared), then an atomic replace of the file that refuses if
// the file changed since it was read. A failure in the replace leaves the
// original file and the snapshot in place. The snapshot comes first on
// disk, as the design demands, but it is planned last, so a compaction that
// cannot succeed leaves no snapshot behind.
package compact
