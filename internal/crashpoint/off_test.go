//go:build !memcompact_crashpoints

package crashpoint

import "testing"

// TestInertWithoutTag: in a build without the tag the environment cannot
// stop the process: asked to crash at a step, At returns.
func TestInertWithoutTag(t *testing.T) {
	t.Setenv(Env, "replace:renamed")
	t.Setenv(DelayEnv, "1h")
	At("replace:renamed")
	if Enabled {
		t.Fatal("a build without the tag says the crash points are enabled")
	}
}
