package companion

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// SameBuild reports whether two Go executables were built from the same
// module version and, for builds from a checkout, the same revision with
// the same local changes (or none). Unreadable build information is not
// the same build.
func SameBuild(a, b string) bool {
	ia, err := ReadBuildInfo(a)
	if err != nil {
		return false
	}
	ib, err := ReadBuildInfo(b)
	if err != nil || ia.Main.Path != ib.Main.Path || ia.Main.Version != ib.Main.Version {
		return false
	}
	ra, ma := VCS(ia)
	rb, mb := VCS(ib)
	return ra == rb && ma == mb
}

// VCS is the revision and local-changes flag ("true" or "false") a build
// from a checkout records ("" for others).
func VCS(bi *debug.BuildInfo) (rev, modified string) {
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

// The build information the Go linker (1.18 and later) writes into every
// executable: a header aligned to 16 bytes, the magic then the pointer
// size and flags, followed (flag inline) by two length-prefixed strings,
// the Go version and the module information ParseBuildInfo reads.
const (
	infoAlign  = 16
	infoHeader = 32
	flagInline = 0x2
	infoMax    = 1 << 20 // enough for any module list
)

// infoMagic is built at run time, so that this executable's own data
// never holds the magic whole and cannot be mistaken for the header.
var infoMagic = append([]byte{0xff}, " Go buildinf:"...)

// ErrNoBuildInfo is ReadBuildInfo's error for a file that holds none.
var ErrNoBuildInfo = errors.New("no Go build information")

// ReadBuildInfo reads the Go build information of the executable at path,
// as debug/buildinfo does, for any object format, by finding its header in
// the file. It is here rather than debug/buildinfo, whose ELF, Mach-O, PE
// and DWARF readers would be linked into memcompact's every run for a
// question it asks only when it installs hooks or hands a command over.
func ReadBuildInfo(path string) (*debug.BuildInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const window = 1 << 20
	buf := make([]byte, window)
	// Windows overlap by less than the magic, so each one lies whole in one.
	for off := int64(0); ; off += window - int64(len(infoMagic)-1) {
		n, rerr := f.ReadAt(buf, off)
		chunk := buf[:n]
		for i := 0; ; {
			j := bytes.Index(chunk[i:], infoMagic)
			if j < 0 {
				break
			}
			if at := off + int64(i+j); at%infoAlign == 0 {
				if bi, ok := decodeInfo(f, at); ok {
					return bi, nil
				}
			}
			i += j + 1
		}
		if rerr != nil {
			return nil, fmt.Errorf("%s: %w", path, ErrNoBuildInfo)
		}
	}
}

// decodeInfo decodes the build information whose header is at offset at
// of f, if that is one.
func decodeInfo(f io.ReaderAt, at int64) (*debug.BuildInfo, bool) {
	b := make([]byte, infoMax)
	n, _ := f.ReadAt(b, at)
	b = b[:n]
	if len(b) < infoHeader || (b[14] != 4 && b[14] != 8) || b[15]&flagInline == 0 {
		return nil, false
	}
	vers, rest, ok := decodeString(b[infoHeader:])
	if !ok || !(strings.HasPrefix(vers, "go") || strings.HasPrefix(vers, "devel")) {
		return nil, false
	}
	mod, _, ok := decodeString(rest)
	if !ok {
		return nil, false
	}
	// Sentinels of 16 bytes frame the module information.
	if len(mod) >= 33 && mod[len(mod)-17] == '\n' {
		mod = mod[16 : len(mod)-16]
	}
	bi, err := debug.ParseBuildInfo(mod)
	if err != nil {
		return nil, false
	}
	bi.GoVersion = vers
	return bi, true
}

// decodeString reads a string prefixed with its length as a uvarint.
func decodeString(b []byte) (s string, rest []byte, ok bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)-w) {
		return "", nil, false
	}
	return string(b[w : w+int(n)]), b[w+int(n):], true
}
