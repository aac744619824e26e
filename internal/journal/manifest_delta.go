package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
)

// A manifest may be stored as its changes from an earlier whole one, its
// base (a delta): most snapshots differ from the one before by a few
// files, and a whole manifest repeats every file's path, digest and stat
// (on a 31-file store, six whole manifests were 13 KB of a 88 KB journal
// after a consolidation and four undos; as deltas, 4 KB). A delta's base
// is always stored whole, so a delta is read with one other manifest and
// no chain: the newest whole manifest is the base of the deltas after it,
// at most maxDeltaRun of them, and a snapshot whose delta would be half
// the whole or more is written whole (and is the next ones' base). A
// damaged base loses the snapshots that are deltas on it (each named as
// unreadable, with why), never an object. Prune never removes a base a
// kept delta names: it first writes that delta whole (rebase).
//
// The layout, uncompressed (it is stored zstd-compressed, as a whole one
// is), after binDeltaMagic:
//
//	uvarint version (manifestVersion)
//	string  ID, Cause, Session, Store
//	varint  Time (Unix ns)
//	string  the base's ID
//	uvarint the delta's place among its base's deltas (1 for the first)
//	4 bytes CRC-32C of the whole layout of the manifest it decodes to
//	uvarint number of operations, then each: a byte saying which, then
//	  deltaKeep n: the next n files of the base, as they are
//	  deltaDrop n: the next n files of the base are gone
//	  deltaRehash n h: the next n files of the base, read again: as they
//	               are but for their digest time, varint h (an undo's
//	               safety snapshot reads every file)
//	  deltaStat:   the base's next file, its bytes the same, a new stat
//	               (as the whole layout stores a stat)
//	  deltaFile:   a file not in the base, or changed (after a deltaDrop
//	               of its old entry): its path whole, then its body as the
//	               whole layout stores it
//
// Every file of the base is kept or dropped, in order, and the files come
// out in strictly increasing path order; the CRC then says the delta was
// read on the base it was written on.
var binDeltaMagic = []byte("memcompact manifest delta\x00")

const (
	deltaKeep = 1
	deltaDrop = 2
	deltaStat = 3
	deltaFile = 4
	// deltaRehash n h: the next n files of the base, as they are but for
	// their digest time, which is h.
	deltaRehash = 5
)

// maxDeltaRun is how many deltas one whole manifest is the base of, at
// most: a damaged base loses them with it.
const maxDeltaRun = 8

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// marshalDelta is m as its changes from base (whole, never partial), the
// run-th delta on it; whole is m's whole layout (marshalManifest).
func marshalDelta(m, base *Manifest, run int, whole []byte) ([]byte, error) {
	if m.Partial || base.Partial || base.base != "" {
		return nil, errors.New("a partial manifest, or a delta, is never stored as a delta nor is the base of one")
	}
	b := appendHead(nil, binDeltaMagic, m)
	b = appendString(b, base.ID)
	b = binary.AppendUvarint(b, uint64(run))
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(whole, crcTable))
	var ops []byte
	count := 0
	var runKind byte
	var runLen uint64
	var runHashed int64 // deltaRehash's
	flush := func() {
		if runLen > 0 {
			ops = binary.AppendUvarint(append(ops, runKind), runLen)
			if runKind == deltaRehash {
				ops = binary.AppendVarint(ops, runHashed)
			}
			count++
		}
		runLen = 0
	}
	step := func(kind byte, hashed int64) {
		if runKind != kind || kind == deltaRehash && hashed != runHashed {
			flush()
			runKind, runHashed = kind, hashed
		}
		runLen++
	}
	olds, news := base.Files, m.Files
	for len(olds) > 0 || len(news) > 0 {
		switch {
		case len(news) == 0 || len(olds) > 0 && olds[0].Path < news[0].Path:
			step(deltaDrop, 0)
			olds = olds[1:]
		case len(olds) == 0 || news[0].Path < olds[0].Path:
			flush()
			var err error
			if ops, err = appendDeltaFile(ops, &news[0], m.ID); err != nil {
				return nil, err
			}
			count++
			news = news[1:]
		case olds[0] == news[0]:
			step(deltaKeep, 0)
			olds, news = olds[1:], news[1:]
		case sameStat(&olds[0], &news[0]):
			step(deltaRehash, news[0].Hashed)
			olds, news = olds[1:], news[1:]
		case sameBytes(&olds[0], &news[0]):
			flush()
			ops = appendStat(append(ops, deltaStat), &news[0])
			count++
			olds, news = olds[1:], news[1:]
		default:
			step(deltaDrop, 0)
			flush()
			var err error
			if ops, err = appendDeltaFile(ops, &news[0], m.ID); err != nil {
				return nil, err
			}
			count++
			olds, news = olds[1:], news[1:]
		}
	}
	flush()
	b = binary.AppendUvarint(b, uint64(count))
	return append(b, ops...), nil
}

// appendDeltaFile appends a deltaFile operation for f.
func appendDeltaFile(b []byte, f *File, id string) ([]byte, error) {
	b = appendString(append(b, deltaFile), f.Path)
	return appendFileBody(b, f, id)
}

// sameBytes reports whether two records of a path are of the same bytes
// (their stats may differ).
func sameBytes(a, b *File) bool {
	return a.Path == b.Path && a.Digest == b.Digest && a.Size == b.Size && a.Withheld == b.Withheld
}

// sameStat reports whether two records of a path differ at most in
// when their digest was taken (a file read again, unchanged: every file
// an undo's safety snapshot reads, all at one time).
func sameStat(a, b *File) bool {
	x := *b
	x.Hashed = a.Hashed
	return *a == x
}

// deltaHead is a delta's header: the manifest's own fields and its base.
type deltaHead struct {
	m      *Manifest
	baseID string
	run    int
	crc    uint32
	ops    uint64
	r      *binReader
}

// readDeltaHead reads a delta's header, up to its operations.
func readDeltaHead(b []byte) (*deltaHead, error) {
	m, r, err := readHead(b, binDeltaMagic, "delta manifest")
	if err != nil {
		return nil, err
	}
	baseID := string(r.str("base id"))
	run := r.uvarint("run")
	crc := r.bytes(4, "check")
	ops := r.uvarint("operation count")
	if r.err != nil {
		return nil, r.err
	}
	if !validID(baseID) || baseID == m.ID {
		return nil, fmt.Errorf("byte %d: %q cannot be a base manifest's id", r.off, baseID)
	}
	if run < 1 || run > maxDeltaRun {
		return nil, fmt.Errorf("byte %d: delta %d on its base (at most %d are written)", r.off, run, maxDeltaRun)
	}
	// Each operation takes at least a byte.
	if ops > uint64(len(b)-r.off) {
		return nil, fmt.Errorf("byte %d: %d operations cannot fit in %d bytes", r.off, ops, len(b)-r.off)
	}
	return &deltaHead{m: m, baseID: baseID, run: int(run), crc: binary.BigEndian.Uint32(crc), ops: ops, r: r}, nil
}

// validID reports whether id can name a manifest file: nothing that
// leads out of the manifests folder.
func validID(id string) bool {
	return id != "" && len(id) <= 128 && !strings.ContainsAny(id, "/\\\x00") && !strings.HasPrefix(id, ".")
}

// unmarshalDelta decodes a delta read on base (the manifest its header
// names, read whole: base must not be a delta nor partial). Like
// unmarshalManifest it never panics and never allocates more than the
// input and the base can describe.
func unmarshalDelta(b []byte, base func(id string) (*Manifest, error)) (*Manifest, error) {
	h, err := readDeltaHead(b)
	if err != nil {
		return nil, err
	}
	bm, err := base(h.baseID)
	if err != nil {
		return nil, fmt.Errorf("its base, snapshot %s, cannot be read: %w", h.baseID, err)
	}
	if bm.base != "" || bm.Partial || bm.ID != h.baseID {
		return nil, fmt.Errorf("its base, snapshot %s, is not a whole manifest of that id", h.baseID)
	}
	m, r := h.m, h.r
	olds := bm.Files
	files := make([]File, 0, len(olds)+int(min(h.ops, 1<<20)))
	add := func(f File) error {
		if n := len(files); f.Path == "" || n > 0 && files[n-1].Path >= f.Path {
			return fmt.Errorf("byte %d: file %q is empty or not after the one before", r.off, f.Path)
		}
		files = append(files, f)
		return nil
	}
	for range h.ops {
		op := r.byte1("operation")
		switch op {
		case deltaKeep, deltaDrop, deltaRehash:
			n := r.uvarint("count")
			if r.err == nil && (n == 0 || n > uint64(len(olds))) {
				return nil, fmt.Errorf("byte %d: %d of the base's files, of %d left", r.off, n, len(olds))
			}
			var hashed int64
			if op == deltaRehash {
				hashed = r.varint("digest time")
			}
			if r.err != nil {
				return nil, r.err
			}
			if op != deltaDrop {
				for _, f := range olds[:n] {
					if op == deltaRehash {
						f.Hashed = hashed
					}
					if err := add(f); err != nil {
						return nil, err
					}
				}
			}
			olds = olds[n:]
		case deltaStat:
			if len(olds) == 0 {
				return nil, fmt.Errorf("byte %d: a new stat for a file past the base's last", r.off)
			}
			f := olds[0]
			readStat(r, &f)
			if r.err != nil {
				return nil, r.err
			}
			if err := add(f); err != nil {
				return nil, err
			}
			olds = olds[1:]
		case deltaFile:
			path := r.str("path")
			body, err := readFileBody(r, len(files))
			if err != nil {
				return nil, err
			}
			if err := add(bodyFile(string(path), body)); err != nil {
				return nil, err
			}
		default:
			if r.err != nil {
				return nil, r.err
			}
			return nil, fmt.Errorf("byte %d: unknown operation %d", r.off-1, op)
		}
	}
	if r.off != len(b) {
		return nil, fmt.Errorf("byte %d: %d bytes after the last operation", r.off, len(b)-r.off)
	}
	if len(olds) > 0 {
		return nil, fmt.Errorf("the operations leave %d of the base's files unsaid", len(olds))
	}
	m.Files = files
	crc, err := layoutCRC(m)
	if err != nil {
		return nil, err
	}
	if crc != h.crc {
		return nil, fmt.Errorf("it does not decode, on snapshot %s, to the manifest it was written as (its check differs)", h.baseID)
	}
	m.base, m.run = h.baseID, h.run
	return m, nil
}

// bodyFile is the file at path with body's fields.
func bodyFile(path string, body fileBody) File {
	f := body.f
	f.Path = path
	switch {
	case body.fl&binDigestRaw != 0:
		f.Digest = fmt.Sprintf("%x", body.digest)
	case body.fl&binDigestStr != 0:
		f.Digest = string(body.digest)
	}
	if body.fl&binWithheld != 0 {
		f.Withheld = string(body.withheld)
	}
	return f
}
