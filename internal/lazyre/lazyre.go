// Package lazyre compiles a regular expression the first time it is used
// instead of at program start.
//
// A package-level regexp.MustCompile runs in the package's init, so every
// verb pays for every pattern of every package linked into the binary, even
// "memcompact version". The hooks run before every session and every memory
// write, so start-up is on the user's critical path: patterns are compiled
// by the verb that needs them, once, and never by the others.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call and returns
// the same *regexp.Regexp on every call, safely from any goroutine. Like
// regexp.MustCompile it panics if expr does not compile, so a bad pattern
// is still caught by the first test that uses it.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
