package claudehooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/companion"
)

// LeanName is the executable that runs memcompact's hooks alone
// (cmd/memcompact-hook): the same engine and output as "memcompact hook",
// without the model and MCP SDKs whose start-up cost memcompact about
// 5 ms on every session start and every Write or Edit.
const LeanName = companion.Hook

// Finder finds the executables LeanBin weighs. Its zero value looks on
// PATH with exec.LookPath and compares the executables' Go build
// information.
type Finder struct {
	LookPath func(string) (string, error)
	// SameBuild reports whether the executables at the two paths were
	// built from the same version of memcompact.
	SameBuild func(a, b string) bool
}

// LeanBin is the command the hooks should run instead of bin, or "" to run
// bin: when bin names the memcompact executable (a path, or the bare name
// resolved on PATH as Claude Code's shell will resolve it) and a
// memcompact-hook built from the same version sits in the same directory,
// the two come from one install, and the hooks run memcompact-hook. A bin
// with arguments or quoting, or naming anything else, is taken as given;
// so is one whose memcompact-hook is of another version (a stale leftover
// of an earlier install must not judge writes with old rules).
func (f Finder) LeanBin(bin string) string {
	lookPath, same := f.LookPath, f.SameBuild
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	if same == nil {
		same = companion.SameBuild
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
		if err != nil || filepath.Dir(lean) != filepath.Dir(full) || !same(full, lean) {
			return ""
		}
		return LeanName + ext
	}
	// The same spelling with the other name, so "./memcompact" stays a
	// path ("./memcompact-hook") rather than a name looked up on PATH.
	lean := bin[:len(bin)-len(filepath.Base(bin))] + LeanName + ext
	fi, err := os.Stat(lean)
	if err != nil || !fi.Mode().IsRegular() || (ext == "" && fi.Mode()&0o111 == 0) || !same(bin, lean) {
		return ""
	}
	return lean
}
