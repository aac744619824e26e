package filecache

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"maps"
	"slices"
)

// The cache file's layout (format 4). A small hand-made encoding instead
// of encoding/gob, whose package initialisation alone cost every run of
// every verb a quarter of a millisecond (issue 12), and which is not
// hardened against damaged input:
//
//	magic                "memcompact cache\n"
//	string               version
//	uvarint n, n×        record: string path, stamp, string digest,
//	                     varint recorded, bytes data
//	uvarint m, m×        memo: string key, uvarint k, k× (string path,
//	                     stamp), varint recorded, bytes data
//	4 bytes              CRC-32 (IEEE) of everything before it, big-endian
//
// A string or bytes is a uvarint length and that many bytes; a stamp is a
// flag byte (1 = absent) and the varints size, mtime, ctime, and the
// uvarints ino, dev, mode. Keys are written sorted, so one content has one
// encoding. Anything else (a wrong magic, a bad checksum, a length past
// the end, bytes after the last memo) is a corrupt file, ignored.
const magic = "memcompact cache\n"

// errCorrupt is every decoding failure: the cache is ignored either way.
var errCorrupt = errors.New("corrupt cache file")

// encode is the file's bytes.
func encode(f *cacheFile) []byte {
	b := []byte(magic)
	b = appendString(b, f.Version)
	b = binary.AppendUvarint(b, uint64(len(f.Records)))
	for _, p := range slices.Sorted(maps.Keys(f.Records)) {
		r := f.Records[p]
		b = appendString(b, p)
		b = appendStamp(b, r.Stamp)
		b = appendString(b, r.Digest)
		b = binary.AppendVarint(b, r.Recorded)
		b = appendString(b, r.Data)
	}
	b = binary.AppendUvarint(b, uint64(len(f.Memos)))
	for _, k := range slices.Sorted(maps.Keys(f.Memos)) {
		m := f.Memos[k]
		b = appendString(b, k)
		b = binary.AppendUvarint(b, uint64(len(m.Inputs)))
		for _, p := range slices.Sorted(maps.Keys(m.Inputs)) {
			b = appendString(b, p)
			b = appendStamp(b, m.Inputs[p])
		}
		b = binary.AppendVarint(b, m.Recorded)
		b = appendString(b, m.Data)
	}
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// decode reads a cache file written by encode; ok is false for any other
// bytes, and then f is empty.
func decode(b []byte) (f cacheFile, ok bool) {
	if len(b) < len(magic)+4 || string(b[:len(magic)]) != magic {
		return cacheFile{}, false
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return cacheFile{}, false
	}
	d := decoder{b: body[len(magic):], s: string(body[len(magic):])}
	f = d.file()
	if d.err != nil || len(d.b) != 0 {
		return cacheFile{}, false
	}
	return f, true
}

// decoder reads the encoding's parts from b, remembering the first error;
// after one, every read returns a zero value. s holds the same bytes as
// b once, as one string, so that the thousands of paths and digests of a
// large store's cache are substrings of it instead of one allocation each.
type decoder struct {
	b   []byte
	s   string
	err error
}

func (d *decoder) file() cacheFile {
	f := cacheFile{Version: d.string()}
	n := d.count()
	f.Records = make(map[string]Record, n)
	for range n {
		p := d.string()
		r := Record{Stamp: d.stamp(), Digest: d.string(), Recorded: d.varint()}
		r.Data = d.bytes()
		f.Records[p] = r
	}
	m := d.count()
	f.Memos = make(map[string]memo, m)
	for range m {
		k := d.string()
		n := d.count()
		in := make(map[string]Stamp, n)
		for range n {
			p := d.string()
			in[p] = d.stamp()
		}
		f.Memos[k] = memo{Inputs: in, Recorded: d.varint(), Data: d.bytes()}
	}
	return f
}

func (d *decoder) uvarint() uint64 { return readVarint(d, binary.Uvarint) }

func (d *decoder) varint() int64 { return readVarint(d, binary.Varint) }

// readVarint reads one number with read (binary.Uvarint or Varint).
func readVarint[T uint64 | int64](d *decoder, read func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := read(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a number of items; as each item takes at least one byte, a
// count past the bytes left is corrupt (and never sizes an allocation).
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errCorrupt
		return 0
	}
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.count()
	if d.err != nil {
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	off := len(d.s) - len(d.b)
	d.b = d.b[n:]
	return d.s[off : off+n]
}

func (d *decoder) stamp() Stamp {
	var flag byte
	if d.err == nil && len(d.b) > 0 {
		flag, d.b = d.b[0], d.b[1:]
	} else {
		d.err = errCorrupt
	}
	if flag > 1 {
		d.err = errCorrupt
	}
	s := Stamp{Absent: flag == 1, Size: d.varint(), Mtime: d.varint(), Ctime: d.varint()}
	s.Ino, s.Dev = d.uvarint(), d.uvarint()
	mode := d.uvarint()
	if mode > 1<<32-1 {
		d.err = errCorrupt
	}
	s.Mode = uint32(mode)
	return s
}

// appendString appends a string or bytes: its length, then itself.
func appendString[T ~string | ~[]byte](b []byte, s T) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStamp(b []byte, s Stamp) []byte {
	var flag byte
	if s.Absent {
		flag = 1
	}
	b = append(b, flag)
	b = binary.AppendVarint(b, s.Size)
	b = binary.AppendVarint(b, s.Mtime)
	b = binary.AppendVarint(b, s.Ctime)
	b = binary.AppendUvarint(b, s.Ino)
	b = binary.AppendUvarint(b, s.Dev)
	return binary.AppendUvarint(b, uint64(s.Mode))
}
