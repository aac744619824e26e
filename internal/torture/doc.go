// Package torture holds memcompact's real-process torture tests: many
// memcompact processes writing one store at once, a shell appender racing
// compaction, hooks install racing other writers of settings.json, kill -9
// at named steps of every write (package crashpoint), symlinked directories,
// runaway summarizers, and sweeps applied while admissions and pre-write
// hooks run on the same store. Each test prints its figure and asserts that
// nothing was lost.
//
// The tests build the memcompact binary once and run it as a user would.
// By default they run a short count that keeps CI well under two minutes;
// MEMCOMPACT_TORTURE=long runs the counts BENCHMARKS.md reports:
//
//	MEMCOMPACT_TORTURE=long go test ./internal/torture -v -timeout 60m
package torture
