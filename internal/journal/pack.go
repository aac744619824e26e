package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// Packs lie in the objects folder, beside the shard folders of the loose
// objects (a pack is a file, a shard a folder). A pack is written in
// format 3 (group.go): its objects compressed in groups, a binary table
// and each group's header both listing every object, so either finds
// them when the other is damaged, and a damaged group loses only its own
// objects. Formats 1 and 2 are still read, for journals written before:
// format 2 is plain text up to the bytes: a first line "memcompact-pack 2
// N", then N lines "DIGEST OFFSET SIZE" sorted by digest, then "sum
// SHA256" (the digest of every byte before that line), then an empty
// line, then the objects, each a frame (frame.go: its own digest,
// compressed) at OFFSET from the end of that empty line, one after the
// other. The table and the frames each locate every object without the
// other: a table that fails its sum or its checks is not used, and the
// frames are found by scanning; a frame whose header is damaged is read
// from where the table says it lies. Format 1 has no sum, and raw bytes
// instead of frames.
//
// A pack is written under its final name and never renamed, so a process
// killed while writing it leaves a pack that is short or torn. Nothing
// trusts a pack's table alone: every object read from a pack is checked
// against its digest, and a snapshot skips storing an object only when
// this run stored it, or read it whole from a loose object or a pack
// (which it then syncs with its own writes). A manifest names a packed object only after its
// pack is durable, so the objects a manifest names are always whole;
// prune removes a pack only when it has read whole, in that run, another
// copy of every object a kept snapshot names that the pack could hold
// (object by object: a group read whole yields each of its objects,
// each checked against its digest).

const (
	packMagic  = "memcompact-pack 1" // format 1: read, never written
	packMagic2 = "memcompact-pack 2" // format 2: read, never written
	// packMin is the fewest new objects a snapshot writes as a pack; fewer
	// are written loose (the common snapshot stores one or two changed
	// files, and a pack per such snapshot would fragment the journal).
	packMin = 4
)

// packMaxBytes bounds one pack's objects: a larger set is written as
// several packs, side by side, so no one file of a large store's first
// snapshot is huge (prune keeps or drops a pack whole).
var packMaxBytes = 32 << 20 // a variable for the tests

// packParts splits objs into runs of at most packMaxBytes (an object
// larger than that is a run of its own).
func packParts(objs []packObject) [][]packObject { return sizeRuns(objs, packMaxBytes) }

// sizeRuns cuts objs, in order, into runs whose bytes add up to at most
// most, an object larger than that being a run of its own (none for no
// objects): the packs of a snapshot, and the groups of a pack.
func sizeRuns(objs []packObject, most int) [][]packObject {
	var runs [][]packObject
	start, size := 0, 0
	for i, o := range objs {
		if i > start && size+len(o.data) > most {
			runs = append(runs, objs[start:i])
			start, size = i, 0
		}
		size += len(o.data)
	}
	if len(objs) > start {
		runs = append(runs, objs[start:])
	}
	return runs
}

// packEntry is where one object lies in a pack's data.
type packEntry struct {
	off, size int64
	// Format 3: the group the object lies in (off and size are the
	// group's frame), and its share of the group's stored bytes.
	grp   *packGroup
	share int64
}

// stored is the bytes the object takes in the pack.
func (e packEntry) stored() int64 {
	if e.grp != nil {
		return e.share
	}
	return e.size
}

// pack is one pack file's table.
type pack struct {
	path    string
	version int   // 1, 2 or 3
	dataOff int64 // where the data begins
	objects map[string]packEntry
	mtime   time.Time
	size    int64 // the file's
	// damaged says why the table was not used (its objects were found by
	// scanning the frames); "" for a whole table.
	damaged string

	groups []*packGroup // format 3: its groups (group.go)

	mu      sync.Mutex
	scanned map[string]packEntry        // the frames found by scanning, once asked (rescan)
	decoded map[*packGroup]decodedGroup // format 3: groups decoded, up to groupCacheMax bytes
	cached  int
}

// tornPack is a pack file whose table is not whole and whose frames, if
// any, could not be found: nothing can be read from it, and prune
// removes it only when no kept snapshot names an object it has not read
// whole elsewhere.
type tornPack struct {
	path  string
	size  int64
	mtime time.Time
	why   string
}

// packObject is an object bound for a pack.
type packObject struct {
	digest string
	data   []byte
}

// encodePack lays objs out as a pack file (format 3).
func encodePack(objs []packObject) []byte {
	var out []byte
	for _, part := range packLayout3(objs) {
		out = append(out, part...)
	}
	return out
}

// readPackTable reads the table of the pack at path; an error for a file
// that is not a whole pack table (a torn write, a foreign file). The
// data is not read, and not trusted: readers check each object they take.
// A table that is damaged (format 2: its sum or its checks fail, or its
// first line) is replaced by the frames a scan of the file finds, and
// the pack says why (damaged); only a file where no frame is found either
// is an error.
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
		var ok bool
		if p, ok = scanPack(f, fi.Size(), err); !ok {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	p.path, p.mtime, p.size = path, fi.ModTime(), fi.Size()
	return p, nil
}

// scanPack is the pack f holds as its frames tell, its table being
// unusable for why; false when no frame is found (not a format-2 pack, or
// one with nothing left whole).
func scanPack(f *os.File, size int64, why error) (*pack, bool) {
	if size > int64(packMaxBytes)+maxObject {
		return nil, false
	}
	raw := make([]byte, size)
	if _, err := f.ReadAt(raw, 0); err != nil && err != io.EOF {
		return nil, false
	}
	if p, ok := scanPack3(raw, why); ok {
		return p, true
	}
	found := scanFrames(raw)
	if len(found) == 0 {
		return nil, false
	}
	return &pack{version: 2, objects: found, damaged: why.Error(), scanned: found}, true
}

// errNotWhole marks a pack, or an object in one, that is not whole: cut
// short, torn, or not a pack at all, as opposed to one the file system
// could not read this time.
var errNotWhole = errors.New("not whole")

// errForeign marks a file named like a pack that is not one this version
// writes (another version's format, or not a pack): nothing is read from
// it, and prune refuses to run beside it.
var errForeign = errors.New("foreign")

// notWhole is an errNotWhole saying what is wrong.
func notWhole(format string, a ...any) error {
	return fmt.Errorf("%s (%w)", fmt.Sprintf(format, a...), errNotWhole)
}

// parsePackTable parses a pack's table from r; size is the file's size,
// which every object must lie within.
func parsePackTable(r *bufio.Reader, size int64) (*pack, error) {
	var read int64
	var head bytes.Buffer
	line := func(n int) (string, error) {
		s, err := r.ReadString('\n')
		read += int64(len(s))
		head.WriteString(s)
		if err == io.EOF {
			err = notWhole("line %d: the table ends early", n)
		}
		return strings.TrimSuffix(s, "\n"), err
	}
	first, err := line(1)
	known := func(s string) bool {
		return strings.HasPrefix(packMagic+" ", s) || strings.HasPrefix(packMagic2+" ", s) || strings.HasPrefix(packMagic3, s)
	}
	if errors.Is(err, errNotWhole) && !known(first) {
		return nil, fmt.Errorf("line 1: not a pack this version of memcompact writes: %q (%w)", first, errForeign)
	}
	if err != nil {
		return nil, err
	}
	if first == packMagic3 {
		return parseTable3(r, []byte(first+"\n"), size)
	}
	version := 1
	ns, ok := strings.CutPrefix(first, packMagic+" ")
	if !ok {
		version = 2
		if ns, ok = strings.CutPrefix(first, packMagic2+" "); !ok {
			return nil, fmt.Errorf("line 1: not a pack this version of memcompact writes: %q (%w)", first, errForeign)
		}
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 0 || int64(n) > size/66 || ns != strconv.Itoa(n) {
		return nil, notWhole("line 1: not a pack header: %q", first)
	}
	p := &pack{version: version, objects: make(map[string]packEntry, n)}
	var end int64 // format 2: where the next frame must begin
	prev := ""
	for i := range n {
		l, err := line(i + 2)
		if err != nil {
			return nil, err
		}
		f := strings.Fields(l)
		if len(f) != 3 || len(f[0]) != 64 {
			return nil, notWhole("line %d: not an object line: %q", i+2, l)
		}
		off, err1 := strconv.ParseInt(f[1], 10, 64)
		sz, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || off < 0 || sz < 0 {
			return nil, notWhole("line %d: bad offset or size: %q", i+2, l)
		}
		if version == 2 && (!textfile.IsDigest(f[0]) || f[0] <= prev || off != end || l != f[0]+" "+f[1]+" "+f[2]) {
			return nil, notWhole("line %d: not the next object line: %q", i+2, l)
		}
		prev, end = f[0], off+sz
		p.objects[f[0]] = packEntry{off: off, size: sz}
	}
	if version == 2 {
		sum := textfile.Digest(head.Bytes())
		l, err := line(n + 2)
		if err != nil {
			return nil, err
		}
		if l != "sum "+sum {
			return nil, notWhole("line %d: the table does not match its sum", n+2)
		}
	}
	if l, err := line(n + 2 + version - 1); err != nil {
		return nil, err
	} else if l != "" {
		return nil, notWhole("line %d: the table does not end with an empty line", n+2+version-1)
	}
	p.dataOff = read
	if version == 2 && end != size-p.dataOff {
		return nil, notWhole("the table's objects end at %d, the file's data at %d (a torn write)", end, size-p.dataOff)
	}
	for d, e := range p.objects {
		if e.off > size-p.dataOff || e.size > size-p.dataOff-e.off {
			return nil, notWhole("object %s lies past the end of the file (a torn write)", d[:12])
		}
	}
	return p, nil
}

// writePack writes objs as a new pack file under its final name and makes
// it durable (its bytes, read back and compared first, and its name in
// the pack folder), or removes what it wrote and returns the error. It
// returns the pack's path.
func (j *Journal) writePack(objs []packObject, now time.Time) (string, error) {
	if err := ensureDirs(j.objectsDir()); err != nil {
		return "", err
	}
	parts := packLayout3(objs)
	for {
		path := filepath.Join(j.objectsDir(), newID(now)+".pack")
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		err = fillPack(f, parts)
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

// fillPack writes parts to the new pack f, reads them back and compares,
// and syncs the file and, side by side, the folder its new name lives in.
func fillPack(f *os.File, parts [][]byte) error {
	for _, p := range parts {
		if _, err := f.Write(p); err != nil {
			return err
		}
	}
	crashpoint.At("journal.pack-written")
	if err := readsBack(f, parts); err != nil {
		return err
	}
	var dirErr error
	var wg sync.WaitGroup
	wg.Go(func() { dirErr = atomicfile.SyncDir(filepath.Dir(f.Name())) })
	err := f.Sync()
	wg.Wait()
	if err != nil {
		return err
	}
	return dirErr
}

// readsBack reads f from its start, a chunk at a time, and compares it
// with parts, one after the other; an error when they differ or f is
// longer.
func readsBack(f *os.File, parts [][]byte) error {
	buf := make([]byte, 64<<10)
	var off int64
	differ := fmt.Errorf("the bytes read back differ from the bytes written")
	for _, p := range parts {
		for len(p) > 0 {
			n, err := f.ReadAt(buf[:min(len(buf), len(p))], off)
			if n == 0 {
				if err == nil || err == io.EOF {
					return differ // f is shorter
				}
				return err
			}
			if !bytes.Equal(buf[:n], p[:n]) {
				return differ
			}
			p, off = p[n:], off+int64(n)
		}
	}
	if n, _ := f.ReadAt(buf[:1], off); n != 0 {
		return differ
	}
	return nil
}

// packs returns the tables of the journal's packs, read once per Journal.
// A pack whose table cannot be read, and whose frames cannot be found, is
// left out (its objects are read from wherever else they are stored, or
// reported missing) and listed as torn or foreign.
func (j *Journal) packs() []*pack {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.packList != nil {
		return *j.packList
	}
	var list []*pack
	j.tornList, j.foreign = nil, nil
	ents, _ := os.ReadDir(j.objectsDir())
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".pack") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p, err := readPackTable(filepath.Join(j.objectsDir(), e.Name()))
		switch {
		case err == nil:
			list = append(list, p)
		case errors.Is(err, errForeign):
			j.foreign = append(j.foreign, filepath.Join(j.objectsDir(), e.Name()))
		default:
			if fi, ierr := e.Info(); ierr == nil {
				j.tornList = append(j.tornList, tornPack{path: filepath.Join(j.objectsDir(), e.Name()), size: fi.Size(), mtime: fi.ModTime(), why: err.Error()})
			}
		}
	}
	j.packList = &list
	return list
}

// forgetPacks drops the tables read so far: prune changed the packs.
func (j *Journal) forgetPacks() {
	j.mu.Lock()
	j.packList = nil
	j.mu.Unlock()
}

// packedObject returns the bytes of digest from the first pack that holds
// them whole; else, for each pack that claims it or could hold it, why
// it could not be read there.
func (j *Journal) packedObject(digest string) ([]byte, []string) {
	var why []string
	for _, p := range j.packs() {
		raw, err := p.object(digest)
		if err == nil {
			return raw, nil
		}
		if _, claims := p.objects[digest]; claims || p.damaged != "" {
			why = append(why, err.Error())
		}
	}
	for _, t := range j.tornList {
		why = append(why, fmt.Sprintf("%s cannot be read (%s)", t.path, t.why))
	}
	return nil, why
}

// object returns digest's bytes from this pack, checked against the
// digest: an errNotWhole when the pack does not hold them whole, another
// error when the file could not be read. A format-2 pack whose table
// does not lead to them whole is scanned for their frame.
func (p *pack) object(digest string) ([]byte, error) {
	if p.version == 3 {
		return p.object3(digest)
	}
	e, ok := p.objects[digest]
	var why error
	if ok {
		raw, err := p.readAt(e)
		if err != nil && !errors.Is(err, errNotWhole) {
			return nil, err
		}
		if err == nil {
			data, err := p.decode(raw, digest)
			if err == nil {
				return data, nil
			}
			why = err
		} else {
			why = err
		}
	}
	if p.version == 2 {
		if e, found := p.rescan()[digest]; found {
			if raw, err := p.readFrom(0, e); err == nil {
				if data, _, err := decodeFrame(raw, digest); err == nil {
					return data, nil
				}
			}
		}
	}
	if why == nil {
		return nil, notWhole("%s holds no object %s", p.path, digest[:min(12, len(digest))])
	}
	return nil, why
}

// decode is the object digest from raw, its entry's bytes.
func (p *pack) decode(raw []byte, digest string) ([]byte, error) {
	if p.version == 1 {
		if textfile.Digest(raw) != digest {
			return nil, notWhole("%s: object %s does not match its digest", p.path, digest[:12])
		}
		return raw, nil
	}
	data, n, err := decodeFrame(raw, digest)
	if err == nil && n == int64(len(raw)) {
		return data, nil
	}
	if data, ok := salvageFrame(raw, digest); ok {
		return data, nil
	}
	if err == nil {
		err = fmt.Errorf("the frame is not where the table says")
	}
	return nil, notWhole("%s: object %s: %v", p.path, digest[:12], err)
}

// readAt reads an entry of the table (offsets from the data's start).
func (p *pack) readAt(e packEntry) ([]byte, error) { return p.readFrom(p.dataOff, e) }

// readFrom reads e at base+e.off.
func (p *pack) readFrom(base int64, e packEntry) ([]byte, error) {
	f, err := os.Open(p.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw := make([]byte, e.size)
	if _, err := f.ReadAt(raw, base+e.off); err != nil {
		if err == io.EOF {
			return nil, notWhole("%s: an object is cut short", p.path)
		}
		return nil, err
	}
	return raw, nil
}

// rescan is the frames a scan of the whole file finds (offsets from the
// file's start), scanned once.
func (p *pack) rescan() map[string]packEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.scanned != nil {
		return p.scanned
	}
	p.scanned = map[string]packEntry{}
	raw, err := os.ReadFile(p.path)
	if err == nil {
		p.scanned = scanFrames(raw)
	}
	return p.scanned
}
