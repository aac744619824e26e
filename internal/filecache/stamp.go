package filecache

import (
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"sync"
	"time"
)

// Stamp is what one stat tells of a file's identity: a file that was
// written, replaced (a new inode), truncated or chmod'ed since has another
// stamp. Where the system has no inode change time (ctime) the stamp holds
// size, modification time and mode alone.
type Stamp struct {
	Absent bool   `json:"absent,omitempty"`
	Size   int64  `json:"size,omitempty"`
	Mtime  int64  `json:"mtime_ns,omitempty"`
	Ctime  int64  `json:"ctime_ns,omitempty"`
	Ino    uint64 `json:"ino,omitempty"`
	Dev    uint64 `json:"dev,omitempty"`
	Mode   uint32 `json:"mode,omitempty"`
}

// StampOf stamps path, following symbolic links (a link's target is what a
// reader reads). A path that does not exist has the stamp {Absent: true};
// one that cannot be stat'ed for another reason has no stamp (ok false),
// so nothing that read it can be trusted.
func StampOf(path string) (Stamp, bool) { return (*Stats)(nil).StampOf(path) }

// StampInfo is the stamp of a file already stat'ed.
func StampInfo(fi fs.FileInfo) Stamp {
	s := Stamp{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: uint32(fi.Mode())}
	sysStamp(fi, &s)
	return s
}

// changed is the later of the file's modification and inode change times:
// any write moves it to the clock's current tick.
func (s Stamp) changed() int64 { return max(s.Mtime, s.Ctime) }

// settled reports whether a file with this stamp can be trusted on its
// stamp alone by a record made at recorded: it had last changed more than
// racyWindow before. A file written within the same clock tick as its
// record could be written again without its times moving (file times have
// the kernel's coarse tick, milliseconds), so a fresher one is not trusted.
func (s Stamp) settled(recorded int64) bool {
	return s.Absent || s.changed() < recorded-int64(racyWindow)
}

// now is the recording time; a variable so tests can age records.
var now = func() int64 { return time.Now().UnixNano() }

// Later makes every record from here on as if d had passed, and returns
// the function that undoes it: a test outside this package settles the
// files it just wrote (see racyWindow) without sleeping through the
// window. Only for tests, and never while another goroutine records.
func Later(d time.Duration) (undo func()) {
	real := now
	now = func() int64 { return real() + int64(d) }
	return func() { now = real }
}

// BuildStamp identifies the code of the running executable, for callers
// whose cached results could differ between builds of memcompact: with it
// in their version, a rebuilt or upgraded binary never trusts an older
// one's results. A released version, or a checkout's revision without
// local changes, names the code itself; any other build is named by its
// executable's stamp. "" when neither can be had.
var BuildStamp = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return "version " + v
		}
		if rev, modified := vcs(bi); rev != "" && modified == "false" {
			return "revision " + rev
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, ok := StampOf(exe)
	if !ok || st.Absent {
		return ""
	}
	return fmt.Sprintf("%d.%d.%d.%d", st.Size, st.Mtime, st.Ino, st.Dev)
})

// vcs is the revision and local-changes flag ("true" or "false") a build
// from a checkout records ("" for others).
func vcs(bi *debug.BuildInfo) (rev, modified string) {
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
