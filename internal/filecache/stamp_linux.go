package filecache

import (
	"io/fs"
	"syscall"
)

// sysStamp adds the inode, its device and the inode change time.
func sysStamp(fi fs.FileInfo, s *Stamp) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	// The conversions are for the 32-bit architectures, where these
	// fields are narrower.
	s.Ino, s.Dev = uint64(st.Ino), uint64(st.Dev)
	s.Ctime = int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec)
}
