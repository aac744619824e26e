package claudehooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// LeanName is the executable that runs memcompact's hooks alone
// (cmd/memcompact-hook): the same engine and output as "memcompact hook",
// without the model and MCP SDKs whose start-up cost memcompact about
// 5 ms on every session start and every Write or Edit.
const LeanName = "memcompact-hook"

// LeanBin is the command the hooks should run instead of bin, or "" to run
// bin: when bin names the memcompact executable (a path, or the bare name
// resolved on PATH as Claude Code's shell will resolve it) and a
// memcompact-hook sits in the same directory, the two come from one
// install, and the hooks run memcompact-hook. A bin with arguments or
// quoting, or naming anything else, is taken as given.
func LeanBin(bin string, lookPath func(string) (string, error)) string {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	if strings.ContainsAny(bin, " \t'\"") {
		return ""
	}
	name, ext := filepath.Base(bin), ""
	if e := filepath.Ext(name); strings.EqualFold(e, ".exe") {
		name, ext = strings.TrimSuffix(name, e), e
	}
	if name != "memcompact" {
		return ""
	}
	if filepath.Base(bin) == bin {
		full, err := lookPath(bin)
		if err != nil {
			return ""
		}
		lean, err := lookPath(LeanName + ext)
		if err != nil || filepath.Dir(lean) != filepath.Dir(full) {
			return ""
		}
		return LeanName + ext
	}
	// The same spelling with the other name, so "./memcompact" stays a
	// path ("./memcompact-hook") rather than a name looked up on PATH.
	lean := bin[:len(bin)-len(filepath.Base(bin))] + LeanName + ext
	fi, err := os.Stat(lean)
	if err != nil || !fi.Mode().IsRegular() || (ext == "" && fi.Mode()&0o111 == 0) {
		return ""
	}
	return lean
}
