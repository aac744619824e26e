//go:build !memcompact_crashpoints

package crashpoint

// Enabled reports whether this build has the crash points (the
// memcompact_crashpoints tag).
const Enabled = false

// At marks the named step: nothing, in a build without the crash points.
func At(string) {}
