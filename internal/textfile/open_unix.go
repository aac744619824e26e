//go:build unix

package textfile

import (
	"io"
	"io/fs"
	"syscall"
)

// readFile reads the file at path as readAll does, opening, reading and
// closing it with bare system calls and reporting errors as an os.File
// would. os.Open offers every file to Go's network poller, which always
// refuses a regular file, and the first offer in a process sets the poller
// up first (an epoll instance, an eventfd, a page of poll descriptors);
// the os.File also brings a finalizer and its own locks. For a run that
// reads one index (the check, a hook) that was eight system calls and
// several fresh pages of memory, for nothing.
func readFile(path string, size int64) ([]byte, error) {
	fd, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	return readAll(func(p []byte) (int, error) { return readFD(fd, path, p) }, size)
}

// openRead opens path read-only, as os.Open does.
func openRead(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

// readFD is one read into p, as os.File.Read does it: io.EOF at the end.
func readFD(fd int, path string, p []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
