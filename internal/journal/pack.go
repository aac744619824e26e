package journal

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memcompact/memcompact/internal/atomicfile"
	"github.com/memcompact/memcompact/internal/crashpoint"
	"github.com/memcompact/memcompact/internal/textfile"
)

// A pack holds many objects in one file. A snapshot that stores many new
// files (above all a store's first, which stores every one) writes them
// as a pack rather than as loose objects: as loose objects each costs a
// file, often a shard folder, and an fsync of both, and on a 32-file
// store that was most of a first session start's time; a pack is one
// file and two fsyncs whatever the count.
//
// The format is plain text up to the bytes: a first line
// "memcompact-pack 1 N", then N lines "DIGEST OFFSET SIZE" sorted by
// digest, then an empty line, then the objects' bytes, each at OFFSET
// from the end of that empty line.
//
// A pack is written under its final name and never renamed, so a process
// killed while writing it leaves a pack that is short or torn. Nothing
// trusts a pack's table alone: every object read from a pack is checked
// against its digest, and a snapshot never skips storing an object
// because some pack claims it (only because a loose object holds it, or
// this run stored it). A manifest names a packed object only after its
// pack is durable, so the objects a manifest names are always whole;
// prune removes a pack no kept snapshot needs once it is stale.

const (
	packMagic = "memcompact-pack 1"
	// packMin is the fewest new objects a snapshot writes as a pack; fewer
	// are written loose (the common snapshot stores one or two changed
	// files, and a pack per such snapshot would fragment the journal).
	packMin = 4
)

func (j *Journal) packsDir() string { return filepath.Join(j.objectsDir(), "pack") }

// packMaxBytes bounds one pack's objects, so a snapshot of a large store
// never holds more than this twice over (its bytes and their read-back)
// to write a pack; a larger set is written as several packs.
const packMaxBytes = 32 << 20

// packParts splits objs into runs of at most packMaxBytes (an object
// larger than that is a run of its own).
func packParts(objs []packObject) [][]packObject {
	var parts [][]packObject
	start, size := 0, 0
	for i, o := range objs {
		if i > start && size+len(o.data) > packMaxBytes {
			parts = append(parts, objs[start:i])
			start, size = i, 0
		}
		size += len(o.data)
	}
	return append(parts, objs[start:])
}

// packEntry is where one object lies in a pack's data.
type packEntry struct {
	off, size int64
}

// pack is one pack file's table.
type pack struct {
	path    string
	dataOff int64 // where the data begins
	objects map[string]packEntry
	mtime   time.Time
}

// packObject is an object bound for a pack.
type packObject struct {
	digest string
	data   []byte
}

// encodePack lays objs out as a pack file, sorted by digest.
func encodePack(objs []packObject) []byte {
	objs = append([]packObject(nil), objs...)
	sort.Slice(objs, func(a, b int) bool { return objs[a].digest < objs[b].digest })
	var head bytes.Buffer
	head.WriteString(packMagic + " " + strconv.Itoa(len(objs)) + "\n")
	var off int64
	total := 0
	for _, o := range objs {
		head.WriteString(o.digest + " " + strconv.FormatInt(off, 10) + " " + strconv.Itoa(len(o.data)) + "\n")
		off += int64(len(o.data))
		total += len(o.data)
	}
	head.WriteByte('\n')
	out := make([]byte, 0, head.Len()+total)
	out = append(out, head.Bytes()...)
	for _, o := range objs {
		out = append(out, o.data...)
	}
	return out
}

// readPackTable reads the table of the pack at path; an error for a file
// that is not a whole pack table (a torn write, a foreign file). The
// data is not read, and not trusted: readers check each object they take.
func readPackTable(path string) (*pack, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	p, err := parsePackTable(bufio.NewReader(f), fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p.path, p.mtime = path, fi.ModTime()
	return p, nil
}

// parsePackTable parses a pack's table from r; size is the file's size,
// which every object must lie within.
func parsePackTable(r *bufio.Reader, size int64) (*pack, error) {
	var read int64
	line := func() (string, error) {
		s, err := r.ReadString('\n')
		read += int64(len(s))
		return strings.TrimSuffix(s, "\n"), err
	}
	first, err := line()
	if err != nil {
		return nil, fmt.Errorf("line 1: not a pack (no whole first line)")
	}
	ns, ok := strings.CutPrefix(first, packMagic+" ")
	n, err := strconv.Atoi(ns)
	if !ok || err != nil || n < 0 || int64(n) > size/66 {
		return nil, fmt.Errorf("line 1: not a pack header: %q", first)
	}
	p := &pack{objects: make(map[string]packEntry, n)}
	for i := range n {
		l, err := line()
		if err != nil {
			return nil, fmt.Errorf("line %d: the table ends early", i+2)
		}
		f := strings.Fields(l)
		if len(f) != 3 || len(f[0]) != 64 {
			return nil, fmt.Errorf("line %d: not an object line: %q", i+2, l)
		}
		off, err1 := strconv.ParseInt(f[1], 10, 64)
		sz, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || off < 0 || sz < 0 {
			return nil, fmt.Errorf("line %d: bad offset or size: %q", i+2, l)
		}
		p.objects[f[0]] = packEntry{off: off, size: sz}
	}
	if l, err := line(); err != nil || l != "" {
		return nil, fmt.Errorf("line %d: the table does not end with an empty line", n+2)
	}
	p.dataOff = read
	for d, e := range p.objects {
		if e.off > size-p.dataOff || e.size > size-p.dataOff-e.off {
			return nil, fmt.Errorf("object %s lies past the end of the file (a torn write)", d[:12])
		}
	}
	return p, nil
}

// writePack writes objs as a new pack file under its final name and makes
// it durable (its bytes, read back and compared first, and its name in
// the pack folder), or removes what it wrote and returns the error. It
// returns the pack's path.
func (j *Journal) writePack(objs []packObject, now time.Time) (string, error) {
	if err := ensureDirs(j.packsDir()); err != nil {
		return "", err
	}
	data := encodePack(objs)
	for {
		name := fmt.Sprintf("%s-%08x.pack", now.UTC().Format("20060102T150405.000000000Z"), rand.Uint32())
		path := filepath.Join(j.packsDir(), name)
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		err = fillPack(f, data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return "", fmt.Errorf("%s: %w", path, err)
		}
		return path, nil
	}
}

// fillPack writes data to the new pack f, reads it back and compares, and
// syncs the file and, side by side, the folder its new name lives in.
func fillPack(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	crashpoint.At("journal.pack-written")
	back := make([]byte, len(data)+1)
	n, err := f.ReadAt(back, 0)
	if err != nil && err != io.EOF {
		return err
	}
	if !bytes.Equal(back[:n], data) {
		return fmt.Errorf("the bytes read back differ from the bytes written")
	}
	var dirErr error
	var wg sync.WaitGroup
	wg.Go(func() { dirErr = atomicfile.SyncDir(filepath.Dir(f.Name())) })
	err = f.Sync()
	wg.Wait()
	if err != nil {
		return err
	}
	return dirErr
}

// packs returns the tables of the journal's packs, read once per Journal.
// A pack whose table cannot be read is left out (its objects are read
// from wherever else they are stored, or reported missing).
func (j *Journal) packs() []*pack {
	j.packMu.Lock()
	defer j.packMu.Unlock()
	if j.packList != nil {
		return *j.packList
	}
	var list []*pack
	ents, _ := os.ReadDir(j.packsDir())
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".pack") {
			continue
		}
		if p, err := readPackTable(filepath.Join(j.packsDir(), e.Name())); err == nil {
			list = append(list, p)
		}
	}
	j.packList = &list
	return list
}

// forgetPacks drops the tables read so far: prune changed the packs.
func (j *Journal) forgetPacks() {
	j.packMu.Lock()
	j.packList = nil
	j.packMu.Unlock()
}

// packedObject returns the bytes of digest from the first pack that holds
// them whole; false when none does.
func (j *Journal) packedObject(digest string) ([]byte, bool) {
	for _, p := range j.packs() {
		if raw, ok := p.object(digest); ok {
			return raw, true
		}
	}
	return nil, false
}

// object returns digest's bytes from this pack, checked against the
// digest; false when the pack does not hold them whole.
func (p *pack) object(digest string) ([]byte, bool) {
	e, ok := p.objects[digest]
	if !ok {
		return nil, false
	}
	f, err := os.Open(p.path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	raw := make([]byte, e.size)
	if _, err := f.ReadAt(raw, p.dataOff+e.off); err != nil {
		return nil, false
	}
	if textfile.Digest(raw) != digest {
		return nil, false
	}
	return raw, true
}
