package companion

import "debug/buildinfo"

// SameBuild reports whether two Go executables were built from the same
// module version and, for builds from a checkout, the same revision with
// the same local changes (or none). Unreadable build information is not
// the same build.
func SameBuild(a, b string) bool {
	ia, err := buildinfo.ReadFile(a)
	if err != nil {
		return false
	}
	ib, err := buildinfo.ReadFile(b)
	if err != nil || ia.Main.Path != ib.Main.Path || ia.Main.Version != ib.Main.Version {
		return false
	}
	ra, ma := vcs(ia)
	rb, mb := vcs(ib)
	return ra == rb && ma == mb
}

// vcs is the revision and local-changes flag a build from a checkout
// records ("" for others).
func vcs(bi *buildinfo.BuildInfo) (rev, modified string) {
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	return rev, modified
}
