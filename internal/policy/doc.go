// Package policy reads the marked text a memory store and its reference copy
// carry: marked regions (the canonical policy, the canonical stanza, the
// store's values), the split-shape declaration at the top of an index, and
// the store-values record with its line grammar.
//
// Every reader here is line-oriented, positioned and total: it takes the
// lines of a file (see textfile.Lines), never fails, and reports what it
// could not read as data with a 1-based line number, so the check can turn
// it into a refusal or a could-not-verify verdict with the exact wording its
// contract gives.
//
// # Marked regions
//
// A marker is a line whose trimmed text equals the marker string, compared
// without regard to ASCII letter case; indentation is allowed. A region runs
// from the first begin marker to the first end marker after it. Its block is
// the lines strictly between them, each with trailing whitespace removed,
// with leading and trailing empty lines dropped. A file with other than one
// begin and one end marker has a duplicated region.
//
// # The split-shape declaration
//
// An index declares the split shape when its first non-blank line above the
// first section heading is, at column 0, an opening stanza marker:
//
//	<!-- memory-policy-stanza-begin: POLICY.md -->
//	...the stanza...
//	<!-- memory-policy-stanza-end -->
//
// Position, not content, decides: a marker anywhere else declares nothing,
// so an index that quotes the adoption recipe is not read as split.
//
// # The store-values record
//
// Between <!-- store-values-begin --> and <!-- store-values-end --> in a
// store's policy file, one "key: value" per line; blank lines and lines
// starting with ```, <!-- or # are skipped. Keys (any letter case):
//
//	budget_fraction: 0.80                 a number in (0, 1]; default 0.80
//	staleness_bound_days: 30              a positive integer; default 30
//	limit_observation: DATE | N | characters | METHOD   repeatable
//	x-anything: ...                       ignored, and reported as ignored
//
// Any other key, a repeated scalar key, a future date or another unit is an
// error: a budget computed from a partly understood record would be a guess.
package policy
