package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"
)

// A manifest is stored in a binary layout (format 2), zstd-compressed: a
// manifest of 100,000 files took most of a second to decode as JSON on a
// loaded machine, and every snapshot of a large store decodes the newest
// one first. The layout, after binManifestMagic:
//
//	uvarint version (manifestVersion)
//	string  ID, Cause, Session, Store   (each a uvarint length, then bytes)
//	varint  Time (Unix ns)
//	byte    flags (1: Partial)
//	uvarint number of files
//	then per file, in strictly increasing path order:
//	  uvarint bytes shared with the previous path, string the rest
//	  byte    flags (1: a 32-byte SHA-256 digest follows; 2: a digest
//	          string follows; 4: a Withheld string follows)
//	  uvarint Size; varint ModTime, Ctime; uvarint Ino; varint Hashed
//
// Most snapshots are instead stored as their changes from an earlier
// whole manifest (manifest_delta.go), which decode to the same Manifest.
// The older JSON manifests (plain or compressed) are still read.
var binManifestMagic = []byte("memcompact manifest\x00")

const (
	binPartial = 1 << 0

	binDigestRaw = 1 << 0
	binDigestStr = 1 << 1
	binWithheld  = 1 << 2
)

// marshalManifest is m in the binary layout (uncompressed).
func marshalManifest(m *Manifest) ([]byte, error) {
	return writeManifest(m, make([]byte, 0, 64+len(m.Files)*96), nil)
}

// layoutCRC is the CRC-32C of m's binary layout, computed a chunk at a
// time: a delta's check, taken on each read of a large manifest without
// its layout whole in memory.
func layoutCRC(m *Manifest) (uint32, error) {
	h := crc32.New(crcTable)
	_, err := writeManifest(m, make([]byte, 0, 80<<10), func(p []byte) { h.Write(p) })
	return h.Sum32(), err
}

// writeManifest appends m's binary layout to b; with a sink, it hands
// the sink what it wrote every 64 KB and at the end, reusing b.
func writeManifest(m *Manifest, b []byte, sink func([]byte)) ([]byte, error) {
	b = appendHead(b, binManifestMagic, m)
	var flags byte
	if m.Partial {
		flags |= binPartial
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(len(m.Files)))
	prev := ""
	for i, f := range m.Files {
		if i > 0 && f.Path <= prev {
			return nil, fmt.Errorf("manifest %s: %q is not after %q (files must be sorted and unique)", m.ID, f.Path, prev)
		}
		n := sharedPrefix(prev, f.Path)
		b = binary.AppendUvarint(b, uint64(n))
		b = appendString(b, f.Path[n:])
		prev = f.Path
		var err error
		if b, err = appendFileBody(b, &f, m.ID); err != nil {
			return nil, err
		}
		if sink != nil && len(b) >= 64<<10 {
			sink(b)
			b = b[:0]
		}
	}
	if sink != nil {
		sink(b)
	}
	return b, nil
}

// appendFileBody appends what the layout holds of f after its path: its
// flags, digest, withheld reason, size and stat (id names the manifest
// in an error).
func appendFileBody(b []byte, f *File, id string) ([]byte, error) {
	var fl byte
	raw, rawOK := rawDigest(f.Digest)
	switch {
	case rawOK:
		fl |= binDigestRaw
	case f.Digest != "":
		fl |= binDigestStr
	}
	if f.Withheld != "" {
		fl |= binWithheld
	}
	b = append(b, fl)
	if rawOK {
		b = append(b, raw[:]...)
	} else if f.Digest != "" {
		b = appendString(b, f.Digest)
	}
	if f.Withheld != "" {
		b = appendString(b, f.Withheld)
	}
	if f.Size < 0 {
		return nil, fmt.Errorf("manifest %s: %s has a negative size", id, f.Path)
	}
	b = binary.AppendUvarint(b, uint64(f.Size))
	return appendStat(b, f), nil
}

// appendStat appends f's stat: the times and inode it was trusted on,
// and when its digest was taken.
func appendStat(b []byte, f *File) []byte {
	b = binary.AppendVarint(b, f.ModTime)
	b = binary.AppendVarint(b, f.Ctime)
	b = binary.AppendUvarint(b, f.Ino)
	return binary.AppendVarint(b, f.Hashed)
}

// appendHead appends what a whole and a delta manifest begin with: the
// layout's magic, then m's version, id, cause, session, store and time.
func appendHead(b, magic []byte, m *Manifest) []byte {
	b = append(b, magic...)
	b = binary.AppendUvarint(b, uint64(m.Version))
	for _, s := range []string{m.ID, m.Cause, m.Session, m.Store} {
		b = appendString(b, s)
	}
	return binary.AppendVarint(b, m.Time.UnixNano())
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func sharedPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// rawDigest is d's 32 bytes when d is a lowercase hex SHA-256 (as every
// digest the journal takes is); otherwise the digest is stored as text.
// It allocates nothing: a delta's check encodes every file of a large
// manifest on each read.
func rawDigest(d string) (out [32]byte, ok bool) {
	if len(d) != 64 {
		return out, false
	}
	for i := range out {
		hi, ok1 := lowerHex(d[2*i])
		lo, ok2 := lowerHex(d[2*i+1])
		if !ok1 || !ok2 {
			return out, false
		}
		out[i] = hi<<4 | lo
	}
	return out, true
}

// lowerHex is the value of a lowercase hex digit.
func lowerHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// binReader reads the binary layout, remembering the first fault.
type binReader struct {
	b   []byte
	off int
	err error
}

func (r *binReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("byte %d: %s", r.off, what)
	}
}

func (r *binReader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad " + what)
		return 0
	}
	r.off += n
	return v
}

func (r *binReader) varint(what string) int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad " + what)
		return 0
	}
	r.off += n
	return v
}

func (r *binReader) bytes(n uint64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.off) {
		r.fail(what + " runs past the end")
		return nil
	}
	out := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return out
}

func (r *binReader) byte1(what string) byte {
	if p := r.bytes(1, what); len(p) == 1 {
		return p[0]
	}
	return 0
}

func (r *binReader) str(what string) []byte {
	return r.bytes(r.uvarint(what+"'s length"), what)
}

// fileBody is what the layout holds of a file after its path, as read:
// the digest as stored (32 raw bytes with binDigestRaw, else text).
type fileBody struct {
	fl               byte
	digest, withheld []byte
	f                File // its size and stat
}

// readFileBody reads file i's body (appendFileBody's).
func readFileBody(r *binReader, i int) (fileBody, error) {
	var body fileBody
	body.fl = r.byte1("file flags")
	fl := body.fl
	if r.err == nil && (fl&^(binDigestRaw|binDigestStr|binWithheld) != 0 || fl&binDigestRaw != 0 && fl&binDigestStr != 0) {
		return body, fmt.Errorf("byte %d: file %d has unknown flags %#x", r.off, i, fl)
	}
	switch {
	case fl&binDigestRaw != 0:
		body.digest = r.bytes(32, "digest")
	case fl&binDigestStr != 0:
		body.digest = r.str("digest")
	}
	if fl&binWithheld != 0 {
		body.withheld = r.str("withheld reason")
	}
	size := r.uvarint("size")
	if size > math.MaxInt64 {
		r.fail("size out of range")
	}
	body.f.Size = int64(size)
	readStat(r, &body.f)
	return body, r.err
}

// readStat reads a file's stat (appendStat's) into f.
func readStat(r *binReader, f *File) {
	f.ModTime = r.varint("mtime")
	f.Ctime = r.varint("ctime")
	f.Ino = r.uvarint("inode")
	f.Hashed = r.varint("digest time")
}

// readHead reads what appendHead wrote, the layout's magic named what,
// into a new Manifest, and returns the reader at the byte after it.
func readHead(b, magic []byte, what string) (*Manifest, *binReader, error) {
	if !bytes.HasPrefix(b, magic) {
		return nil, nil, errors.New("not a " + what)
	}
	r := &binReader{b: b, off: len(magic)}
	v := r.uvarint("version")
	if r.err == nil && v != manifestVersion {
		return nil, nil, fmt.Errorf("a version-%d manifest (this memcompact reads version %d)", v, manifestVersion)
	}
	m := &Manifest{Version: int(v)}
	// Read left to right, as the calls run.
	m.ID, m.Cause, m.Session, m.Store = string(r.str("id")), string(r.str("cause")), string(r.str("session")), string(r.str("store"))
	m.Time = time.Unix(0, r.varint("time"))
	return m, r, nil
}

// unmarshalManifest decodes the binary layout. It never panics and never
// allocates more than the input can describe: every count is checked
// against the bytes left. The paths and digests of all files share one
// string, so a 100,000-file manifest costs a handful of allocations.
func unmarshalManifest(b []byte) (*Manifest, error) {
	m, r, err := readHead(b, binManifestMagic, "binary manifest")
	if err != nil {
		return nil, err
	}
	flags := r.byte1("flags")
	m.Partial = flags&binPartial != 0
	n := r.uvarint("file count")
	if r.err != nil {
		return nil, r.err
	}
	// Each file takes at least 8 bytes; a count the rest cannot hold is
	// a fault, found before anything is allocated for it.
	if n > uint64(len(b)-r.off)/8 {
		return nil, fmt.Errorf("byte %d: %d files cannot fit in %d bytes", r.off, n, len(b)-r.off)
	}
	type span struct{ path, digest, withheld [2]int }
	var (
		// every path, digest and reason, back to back: at most the
		// input's bytes plus a hex digest a file (the raw ones double)
		text  = make([]byte, 0, len(b)-r.off+int(n)*32)
		spans = make([]span, n)
		files = make([]File, n)
		prev  []byte
		// A path shares its prefix with the one before, so a few bytes
		// can spell a long path: what they spell is capped (a real
		// manifest spells about twice its own size).
		maxText = 64*len(b) + 1<<20
	)
	for i := range files {
		shared := r.uvarint("shared length")
		rest := r.str("path")
		if r.err != nil {
			return nil, r.err
		}
		if shared > uint64(len(prev)) {
			return nil, fmt.Errorf("byte %d: file %d shares %d bytes with a %d-byte path", r.off, i, shared, len(prev))
		}
		if len(text)+int(shared)+len(rest) > maxText {
			return nil, fmt.Errorf("byte %d: the paths spell out more than %d bytes (a manifest shares prefixes, but not that much)", r.off, maxText)
		}
		start := len(text)
		text = append(text, prev[:shared]...)
		text = append(text, rest...)
		path := text[start:]
		if len(path) == 0 || i > 0 && bytes.Compare(path, prev) <= 0 {
			return nil, fmt.Errorf("byte %d: file %d's path is empty or not after the one before", r.off, i)
		}
		prev = path
		spans[i].path = [2]int{start, len(text)}
		body, err := readFileBody(r, i)
		if err != nil {
			return nil, err
		}
		switch {
		case body.fl&binDigestRaw != 0:
			start := len(text)
			text = hex.AppendEncode(text, body.digest)
			spans[i].digest = [2]int{start, len(text)}
		case body.fl&binDigestStr != 0:
			start := len(text)
			text = append(text, body.digest...)
			spans[i].digest = [2]int{start, len(text)}
		}
		if body.fl&binWithheld != 0 {
			start := len(text)
			text = append(text, body.withheld...)
			spans[i].withheld = [2]int{start, len(text)}
		}
		files[i] = body.f
		// prev points into text, which the next append may move: keep
		// it by its span.
		prev = text[spans[i].path[0]:spans[i].path[1]]
	}
	if r.off != len(b) {
		return nil, fmt.Errorf("byte %d: %d bytes after the last file", r.off, len(b)-r.off)
	}
	all := string(text)
	for i := range files {
		s := spans[i]
		files[i].Path = all[s.path[0]:s.path[1]]
		files[i].Digest = all[s.digest[0]:s.digest[1]]
		files[i].Withheld = all[s.withheld[0]:s.withheld[1]]
	}
	m.Files = files
	return m, nil
}
