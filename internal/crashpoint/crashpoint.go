// Package crashpoint lets the torture tests kill memcompact at a named step
// of a write, the way a power cut or kill -9 would, to prove that every
// step leaves the files whole.
//
// The crash points exist only in builds with the memcompact_crashpoints
// tag, which the torture tests build with (go build -tags
// memcompact_crashpoints); in every other build At is empty and the
// variables below are never read, so a release cannot be made to kill
// itself by its environment. In a tagged build, when the environment
// variable MEMCOMPACT_TEST_CRASH_AT names a step, the process sends itself
// SIGKILL when it reaches that step (on systems without SIGKILL it exits
// at once, skipping deferred functions). MEMCOMPACT_TEST_DELAY_MAX (a Go
// duration such as "2ms") adds a random pause at every step, so a racing
// test spreads its crashes and interleavings over the whole write.
package crashpoint

// Env and DelayEnv are the variables the torture tests set.
const (
	Env      = "MEMCOMPACT_TEST_CRASH_AT"
	DelayEnv = "MEMCOMPACT_TEST_DELAY_MAX"
)

// Tag is the build tag that compiles the crash points in.
const Tag = "memcompact_crashpoints"
