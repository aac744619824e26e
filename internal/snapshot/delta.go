package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memcompact/memcompact/internal/textfile"
)

// A snapshot is stored by content: the first of a file is a plain copy
// (as every snapshot was before), and each later one, when that is much
// smaller, is stored as the changes from the snapshot before it (its
// base), so that a hundred snapshots of one file cost about the bytes that
// changed between them, not a hundred copies. A delta is text, so the lines
// a round added are in it as they were written, and grep finds them:
//
//	<!-- memcompact delta 1 of team-2026-02-12.md, rebuilt whole by restore: DIGEST SIZE BASEDIGEST -->
//	= 0 12          the base's lines 0 to 11
//	+ 93            93 bytes as written, then a newline
//	~ 14 3          line 14 of the base made again from 3 parts:
//	c 0 22          its bytes 22 to 43,
//	l 2             2 bytes as written (then a newline),
//	c 24 900        and its bytes 24 to 923: a long line that grew (a
//	                month's titles) costs what it gained
//	…
//	= 40 7
//
// DIGEST and SIZE are the whole snapshot's, BASEDIGEST the first 16 hex
// digits of its base's (enough to tell a base rewritten); a
// snapshot is only trusted once rebuilt to its digest, and a delta whose
// base no longer rebuilds to BASEDIGEST is damaged, never guessed at. A
// plain file (a snapshot of an older memcompact, a keyframe) is its own
// content. Any file that does not parse as a delta is plain, so no older
// snapshot is ever misread.
const (
	deltaHead = "<!-- memcompact delta 1 of "
	deltaMid  = ", rebuilt whole by restore: "
	deltaEnd  = " -->\n"
)

// Chain limits: a delta is written only while its chain (the deltas back
// to a plain snapshot) stays shorter than maxChain and holds fewer stored
// bytes than chainFactor times the file; past that the snapshot is a plain
// copy again, so one damaged file never costs more than a bounded run of
// later snapshots and rebuilding one stays cheap.
const (
	maxChain    = 200
	chainFactor = 10
	// A delta is written only when it is smaller than deltaWorth of the
	// plain copy.
	deltaWorth = 0.7
	// copyMin is the fewest bytes a copy op is worth (an op line costs
	// about ten).
	copyMin = 16
	// maxCandidates bounds where a line is looked for in the base, so a
	// file of many blank lines stays linear.
	maxCandidates = 64
)

// delta is a parsed delta snapshot.
type delta struct {
	digest     string
	size       int
	base       string // the base snapshot's file name, in the same folder
	baseDigest string
	ops        []op
	stored     int // the delta's own bytes
}

// op copies base lines [start, start+count) when lit is nil and parts is
// nil, else writes lit; an edit (parts set) writes base line start made
// again from its parts.
type op struct {
	start, count int
	lit          []byte
	parts        []part
}

// part is one piece of an edited line: n bytes of the base line from off
// when lit is nil, else lit.
type part struct {
	off, n int
	lit    []byte
}

// splitLines splits b after each '\n', keeping the terminators (a last
// line without one is a line).
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

// diff is the ops that turn base into data: runs of base lines copied
// where they are long enough to be worth it, the rest written out. It is
// greedy (the longest run from each line, preferring the run that
// continues the last copy), which is what memory files need: entries
// appended, entries removed, a block rewritten.
func diff(base, data []byte) []op {
	bl, nl := splitLines(base), splitLines(data)
	at := map[string][]int{}
	for i, l := range bl {
		if s := string(l); len(at[s]) < maxCandidates {
			at[s] = append(at[s], i)
		}
	}
	var ops []op
	lit := func(l []byte) {
		if n := len(ops); n > 0 && ops[n-1].lit != nil && ops[n-1].parts == nil {
			ops[n-1].lit = append(ops[n-1].lit, l...)
			return
		}
		ops = append(ops, op{lit: append([]byte(nil), l...)})
	}
	next := -1
	for i := 0; i < len(nl); {
		best, bestN, bestBytes := -1, 0, 0
		try := func(p int) {
			n, size := 0, 0
			for p+n < len(bl) && i+n < len(nl) && bytes.Equal(bl[p+n], nl[i+n]) {
				size += len(nl[i+n])
				n++
			}
			if size > bestBytes {
				best, bestN, bestBytes = p, n, size
			}
		}
		if next >= 0 && next < len(bl) && bytes.Equal(bl[next], nl[i]) {
			try(next)
		}
		for _, p := range at[string(nl[i])] {
			if p != next {
				try(p)
			}
		}
		if bestBytes >= copyMin || (best >= 0 && best == next && bestN > 0) {
			if n := len(ops); n > 0 && ops[n-1].lit == nil && ops[n-1].parts == nil && ops[n-1].start+ops[n-1].count == best {
				ops[n-1].count += bestN
			} else {
				ops = append(ops, op{start: best, count: bestN})
			}
			i += bestN
			next = best + bestN
			continue
		}
		if o, ok := similar(bl, next, nl[i]); ok {
			ops = append(ops, o)
			next = o.start + 1
		} else {
			lit(nl[i])
			next = -1
		}
		i++
	}
	return ops
}

// editMin is the fewest bytes of a base line an edit must reuse, and
// gram the shortest run it copies.
const (
	editMin = 48
	gram    = 8
)

// similar finds a base line l reuses much of (the line at next, or one
// that begins as l does: a month's folded line, a provenance line) and
// returns the edit that makes l from it.
func similar(bl [][]byte, next int, l []byte) (op, bool) {
	if len(l) < editMin {
		return op{}, false
	}
	best, bestSave := op{}, 0
	try := func(k int) {
		parts, save := editParts(bl[k], l)
		if save > bestSave {
			best, bestSave = op{start: k, parts: parts}, save
		}
	}
	if next >= 0 && next < len(bl) {
		try(next)
	}
	for k := range bl {
		if k != next && len(bl[k]) >= editMin && bytes.HasPrefix(l, bl[k][:gram]) {
			try(k)
		}
	}
	return best, bestSave >= editMin
}

// editParts makes l from b: runs of b of at least gram bytes, found
// through an index of b's grams (the longest from each place, preferring
// the run that continues the last), and the bytes between written out.
// save is how many bytes the runs copy.
func editParts(b, l []byte) ([]part, int) {
	at := map[string][]int{}
	for i := 0; i+gram <= len(b); i++ {
		if g := string(b[i : i+gram]); len(at[g]) < maxCandidates {
			at[g] = append(at[g], i)
		}
	}
	var parts []part
	save, next := 0, -1
	for i := 0; i < len(l); {
		best, bestN := -1, 0
		if i+gram <= len(l) {
			try := func(p int) {
				n := 0
				for p+n < len(b) && i+n < len(l) && b[p+n] == l[i+n] {
					n++
				}
				if n > bestN {
					best, bestN = p, n
				}
			}
			if next >= 0 {
				try(next)
			}
			for _, p := range at[string(l[i:i+gram])] {
				try(p)
			}
		}
		if bestN >= gram {
			parts = append(parts, part{off: best, n: bestN})
			save += bestN
			i += bestN
			next = best + bestN
			continue
		}
		if n := len(parts); n > 0 && parts[n-1].lit != nil {
			parts[n-1].lit = append(parts[n-1].lit, l[i])
		} else {
			parts = append(parts, part{lit: []byte{l[i]}})
		}
		i++
		next = -1
	}
	return parts, save - 12*len(parts)
}

// encodeDelta renders data as a delta against base (named baseName).
func encodeDelta(baseName string, base, data []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s%s%s%s %d %s%s", deltaHead, baseName, deltaMid, textfile.Digest(data), len(data), textfile.Digest(base)[:16], deltaEnd)
	for _, o := range diff(base, data) {
		if o.parts != nil {
			fmt.Fprintf(&b, "~ %d %d\n", o.start, len(o.parts))
			for _, p := range o.parts {
				if p.lit == nil {
					fmt.Fprintf(&b, "c %d %d\n", p.off, p.n)
					continue
				}
				fmt.Fprintf(&b, "l %d\n", len(p.lit))
				b.Write(p.lit)
				b.WriteByte('\n')
			}
			continue
		}
		if o.lit == nil {
			fmt.Fprintf(&b, "= %d %d\n", o.start, o.count)
			continue
		}
		fmt.Fprintf(&b, "+ %d\n", len(o.lit))
		b.Write(o.lit)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// parseDelta parses raw as a delta; ok is false for anything else (a plain
// snapshot).
func parseDelta(raw []byte) (*delta, bool) {
	nl := bytes.IndexByte(raw, '\n')
	if !bytes.HasPrefix(raw, []byte(deltaHead)) || nl < 0 || !bytes.HasSuffix(raw[:nl+1], []byte(deltaEnd)) {
		return nil, false
	}
	head := string(raw[len(deltaHead) : nl+1-len(deltaEnd)])
	name, rest, ok := strings.Cut(head, deltaMid)
	f := strings.Split(rest, " ")
	if !ok || len(f) != 3 || !textfile.IsDigest(f[0]) || len(f[2]) != 16 || !textfile.IsDigest(f[2]+f[0][16:]) {
		return nil, false
	}
	size, err := strconv.Atoi(f[1])
	if err != nil || size < 0 || f[1] != strconv.Itoa(size) {
		return nil, false
	}
	if _, _, _, _, ok := ParseName(name); !ok || strings.ContainsAny(name, `/\`) {
		return nil, false
	}
	d := &delta{digest: f[0], size: size, base: name, baseDigest: f[2], stored: len(raw)}
	for b := raw[nl+1:]; len(b) > 0; {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, false
		}
		line := string(b[:nl])
		b = b[nl+1:]
		var o op
		switch {
		case strings.HasPrefix(line, "= "):
			p := strings.Split(line[2:], " ")
			if len(p) != 2 {
				return nil, false
			}
			s, e1 := strconv.Atoi(p[0])
			n, e2 := strconv.Atoi(p[1])
			if e1 != nil || e2 != nil || s < 0 || n <= 0 {
				return nil, false
			}
			o = op{start: s, count: n}
		case strings.HasPrefix(line, "+ "):
			n, err := strconv.Atoi(line[2:])
			if err != nil || n <= 0 || n+1 > len(b) || b[n] != '\n' {
				return nil, false
			}
			o = op{lit: b[:n]}
			b = b[n+1:]
		case strings.HasPrefix(line, "~ "):
			v, ok := ints(line[2:], 2)
			if !ok || v[1] <= 0 {
				return nil, false
			}
			o = op{start: v[0]}
			for k := 0; k < v[1]; k++ {
				nl := bytes.IndexByte(b, '\n')
				if nl < 0 {
					return nil, false
				}
				pl := string(b[:nl])
				b = b[nl+1:]
				switch {
				case strings.HasPrefix(pl, "c "):
					w, ok := ints(pl[2:], 2)
					if !ok || w[1] <= 0 {
						return nil, false
					}
					o.parts = append(o.parts, part{off: w[0], n: w[1]})
				case strings.HasPrefix(pl, "l "):
					w, ok := ints(pl[2:], 1)
					if !ok || w[0] <= 0 || w[0]+1 > len(b) || b[w[0]] != '\n' {
						return nil, false
					}
					o.parts = append(o.parts, part{lit: b[:w[0]]})
					b = b[w[0]+1:]
				default:
					return nil, false
				}
			}
		default:
			return nil, false
		}
		d.ops = append(d.ops, o)
	}
	return d, true
}

// apply rebuilds the snapshot from its base's bytes, checked against its
// digest.
func (d *delta) apply(base []byte) ([]byte, error) {
	if textfile.Digest(base)[:16] != d.baseDigest {
		return nil, fmt.Errorf("its base %s does not hold what it was written against", d.base)
	}
	bl := splitLines(base)
	out := make([]byte, 0, d.size)
	for _, o := range d.ops {
		if o.parts != nil {
			if o.start >= len(bl) {
				return nil, fmt.Errorf("it edits a line its base %s does not have", d.base)
			}
			l := bl[o.start]
			for _, p := range o.parts {
				if p.lit != nil {
					out = append(out, p.lit...)
					continue
				}
				if p.off+p.n > len(l) {
					return nil, fmt.Errorf("it copies bytes past the end of a line of its base %s", d.base)
				}
				out = append(out, l[p.off:p.off+p.n]...)
			}
			continue
		}
		if o.lit != nil {
			out = append(out, o.lit...)
			continue
		}
		if o.start+o.count > len(bl) {
			return nil, fmt.Errorf("it copies lines past the end of its base %s", d.base)
		}
		for _, l := range bl[o.start : o.start+o.count] {
			out = append(out, l...)
		}
	}
	if len(out) != d.size || textfile.Digest(out) != d.digest {
		return nil, fmt.Errorf("it does not rebuild to its digest")
	}
	return out, nil
}

// ErrDamaged wraps every reason a delta snapshot cannot be rebuilt.
var ErrDamaged = errors.New("damaged snapshot")

// Reader rebuilds the snapshots of one folder, remembering what it has
// read, so listing or pruning many snapshots of one chain reads each file
// once.
type Reader struct {
	dir  string
	done map[string]entry
}

// entry is one snapshot read: its content, its stored bytes, its base
// ("" for a plain one) and how many deltas lie between it and a plain
// snapshot, with their stored bytes.
type entry struct {
	data       []byte
	stored     int
	base       string
	depth      int
	chainBytes int
	err        error
}

// NewReader reads snapshots in dir.
func NewReader(dir string) *Reader { return &Reader{dir: dir, done: map[string]entry{}} }

// Read returns the content of the snapshot named name (a file name in the
// reader's folder), rebuilt and checked when it is a delta.
func (r *Reader) Read(name string) ([]byte, error) {
	e := r.read(name, 0)
	return e.data, e.err
}

// read is Read, also returning how the snapshot is stored.
func (r *Reader) read(name string, depth int) entry {
	if e, ok := r.done[name]; ok {
		return e
	}
	e := r.load(name, depth)
	r.done[name] = e
	return e
}

func (r *Reader) load(name string, depth int) entry {
	raw, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil {
		return entry{err: err}
	}
	d, ok := parseDelta(raw)
	if !ok {
		return entry{data: raw, stored: len(raw)}
	}
	if depth > 4*maxChain {
		return entry{err: fmt.Errorf("%s: %w: its chain of bases does not end", name, ErrDamaged)}
	}
	b := r.read(d.base, depth+1)
	if b.err != nil {
		return entry{err: fmt.Errorf("%s: %w: its base %s cannot be read (%v)", name, ErrDamaged, d.base, b.err)}
	}
	data, err := d.apply(b.data)
	if err != nil {
		return entry{err: fmt.Errorf("%s: %w: %v", name, ErrDamaged, err)}
	}
	return entry{data: data, stored: len(raw), base: d.base, depth: b.depth + 1, chainBytes: b.chainBytes + len(raw)}
}

// forget drops what the reader remembers of name (rewritten or removed).
func (r *Reader) forget(name string) { delete(r.done, name) }

// Read returns the content of the snapshot at path, rebuilt and checked
// when it is stored as a delta.
func Read(path string) ([]byte, error) {
	return NewReader(filepath.Dir(path)).Read(filepath.Base(path))
}

// encodeFor is how data is best stored as a snapshot whose predecessor is
// base (a name in r's folder, "" for none): a delta against it when that
// is small and the chain stays bounded, else a plain copy.
func (r *Reader) encodeFor(base string, data []byte) []byte {
	if base == "" {
		return data
	}
	b := r.read(base, 0)
	if b.err != nil || b.depth+1 >= maxChain || b.chainBytes > chainFactor*len(data) {
		return data
	}
	enc := encodeDelta(base, b.data, data)
	if float64(len(enc)) >= deltaWorth*float64(len(data)) {
		return data
	}
	return enc
}

// ints parses s as n non-negative decimal integers separated by spaces.
func ints(s string, n int) ([]int, bool) {
	f := strings.Split(s, " ")
	if len(f) != n {
		return nil, false
	}
	out := make([]int, n)
	for i, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 || x != strconv.Itoa(v) {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}
