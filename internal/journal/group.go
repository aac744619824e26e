package journal

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"

	"github.com/memcompact/memcompact/internal/textfile"
)

// Pack format 3 stores a pack's objects in groups: the objects, in the
// order the snapshot read them, are cut into runs of at most groupMax
// bytes (an object larger than that is a group of its own), and each run
// is compressed as one zstd stream, so the small files of a store share
// one compression context (a memory entry of a few KB compressed alone
// loses most of what the others would teach it: on the real stores, the
// objects of a first snapshot compress 15–37% smaller so). A group is a
// frame:
//
//	"MCGRP3"
//	uvarint number of members, then each: its 32-byte SHA-256, uvarint
//	        its size
//	byte    'z' (zstd) or 'r' (the bytes as they are)
//	uvarint the stored bytes' length
//	4 bytes CRC-32C of the header up to here
//	        the stored bytes: the members' bytes, one after the other
//
// The pack file: the line "memcompact-pack 3", a uvarint T, the table (T
// bytes: uvarint number of groups, then per group uvarint its frame's
// length, uvarint its header's length, and its members as its header
// lists them), the SHA-256 of every byte before, then the group frames,
// one after the other. The table and the frames' headers each locate
// every object without the other: a table that fails its sum or its
// checks is not used and the groups are found by scanning for headers
// whose CRC holds; a group whose header is damaged is read from where
// the table says, with the table's list of its members. Every object is
// checked against its digest when read. A damaged stored byte loses its
// group's objects (each read fails, named), never another group's.
const (
	packMagic3 = "memcompact-pack 3"
	groupMagic = "MCGRP3"
)

// groupMax bounds the bytes of a group's members (not of an object): a
// damaged group loses at most this much, and reading one object decodes
// at most this much beside it.
var groupMax = 128 << 10 // a variable for the tests

// packGroup is one group of a format-3 pack: where its frame lies and
// what it holds.
type packGroup struct {
	off, size int64 // the frame, from the pack's data (its dataOff)
	head      int64 // the frame's header's length
	members   []groupMember
}

// groupMember is one object of a group.
type groupMember struct {
	digest string
	raw    int64
}

// groupObjects cuts objs (each digest once) into groups of at most
// groupMax bytes, in order.
func groupObjects(objs []packObject) [][]packObject { return sizeRuns(objs, groupMax) }

// appendMembers appends a group's member list (as its header and the
// table hold it).
func appendMembers(b []byte, objs []packObject) []byte {
	b = binary.AppendUvarint(b, uint64(len(objs)))
	for _, o := range objs {
		raw, _ := hex.DecodeString(o.digest)
		b = append(b, raw...)
		b = binary.AppendUvarint(b, uint64(len(o.data)))
	}
	return b
}

// encodeGroup is the frame of a group of objs (at least one), and its
// header's length.
func encodeGroup(objs []packObject) ([]byte, int) {
	raw := objs[0].data // one object: its bytes, not a copy
	if len(objs) > 1 {
		raw = nil
		for _, o := range objs {
			raw = append(raw, o.data...)
		}
	}
	enc, stored := byte('r'), raw
	if z := zenc().EncodeAll(raw, nil); len(z) < len(raw) {
		enc, stored = 'z', z
	}
	head := appendMembers([]byte(groupMagic), objs)
	head = append(head, enc)
	head = binary.AppendUvarint(head, uint64(len(stored)))
	head = binary.BigEndian.AppendUint32(head, crc32.Checksum(head, crcTable))
	return append(head, stored...), len(head)
}

// packLayout3 is a format-3 pack of objs as the parts it is written
// from: the table, then each group's frame.
func packLayout3(objs []packObject) [][]byte {
	seen := map[string]bool{}
	var uniq []packObject
	for _, o := range objs {
		if !seen[o.digest] {
			seen[o.digest] = true
			uniq = append(uniq, o)
		}
	}
	groups := groupObjects(uniq)
	frames := make([][]byte, len(groups))
	heads := make([]int, len(groups))
	each(recordWorkers, len(groups), func(k int) bool {
		frames[k], heads[k] = encodeGroup(groups[k])
		return true
	})
	table := binary.AppendUvarint(nil, uint64(len(groups)))
	for k, g := range groups {
		table = binary.AppendUvarint(table, uint64(len(frames[k])))
		table = binary.AppendUvarint(table, uint64(heads[k]))
		table = appendMembers(table, g)
	}
	head := binary.AppendUvarint([]byte(packMagic3+"\n"), uint64(len(table)))
	head = append(head, table...)
	sum := sha256.Sum256(head)
	head = append(head, sum[:]...)
	return append([][]byte{head}, frames...)
}

// readMembers reads a member list (appendMembers'), each member's size
// within maxRaw bytes in all.
func readMembers(r *binReader, maxRaw int64) []groupMember {
	n := r.uvarint("member count")
	if r.err == nil && (n == 0 || n > uint64(len(r.b)-r.off)/33) {
		r.fail("a member count the bytes cannot hold")
	}
	if r.err != nil {
		return nil
	}
	ms := make([]groupMember, n)
	var total int64
	for i := range ms {
		d := r.bytes(32, "digest")
		size := r.uvarint("member size")
		if r.err != nil {
			return nil
		}
		if size > uint64(maxRaw-total) {
			r.fail("members larger than a group can be")
			return nil
		}
		total += int64(size)
		ms[i] = groupMember{digest: hex.EncodeToString(d), raw: int64(size)}
	}
	return ms
}

// parseTable3 reads a format-3 table from r, the first line (first,
// with its newline) read already; size is the file's.
func parseTable3(r *bufio.Reader, first []byte, size int64) (*pack, error) {
	t, err := binary.ReadUvarint(r)
	if err != nil || t > uint64(size) {
		return nil, notWhole("the table's length is damaged or cut short")
	}
	head := binary.AppendUvarint(append([]byte(nil), first...), t)
	body := make([]byte, t+32)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, notWhole("the table ends early")
	}
	head = append(head, body[:t]...)
	if sum := sha256.Sum256(head); !bytes.Equal(sum[:], body[t:]) {
		return nil, notWhole("the table does not match its sum")
	}
	p := &pack{version: 3, dataOff: int64(len(head)) + 32, objects: map[string]packEntry{}}
	br := &binReader{b: body[:t]}
	n := br.uvarint("group count")
	if br.err == nil && n > t {
		br.fail("more groups than the table can hold")
	}
	var off int64
	for range n {
		g := &packGroup{off: off}
		fsize, hsize := br.uvarint("frame length"), br.uvarint("header length")
		g.members = readMembers(br, maxObject)
		if br.err != nil {
			return nil, notWhole("the table: %v", br.err)
		}
		if fsize > uint64(size) || hsize >= fsize {
			return nil, notWhole("the table: group %d's lengths are out of range", len(p.groups))
		}
		g.size, g.head = int64(fsize), int64(hsize)
		off += g.size
		if off > size-p.dataOff {
			return nil, notWhole("group %d lies past the end of the file (a torn write)", len(p.groups))
		}
		p.addGroup(g)
	}
	if br.err != nil || br.off != len(br.b) {
		return nil, notWhole("the table is damaged (%v)", br.err)
	}
	if off != size-p.dataOff {
		return nil, notWhole("the table's groups end at %d, the file's data at %d (a torn write)", off, size-p.dataOff)
	}
	return p, nil
}

// addGroup lists g's members as p's objects (their sizes its stored
// bytes shared by their own sizes: what prune's cap counts).
func (p *pack) addGroup(g *packGroup) {
	p.groups = append(p.groups, g)
	var raw int64
	for _, m := range g.members {
		raw += m.raw
	}
	for _, m := range g.members {
		if _, dup := p.objects[m.digest]; dup {
			continue
		}
		share := g.size
		if raw > 0 {
			share = g.size * m.raw / raw
		}
		p.objects[m.digest] = packEntry{off: g.off, size: g.size, grp: g, share: share}
	}
}

// groupHead is a group frame's header as parsed: false when b does not
// begin with one whose CRC holds.
func groupHead(b []byte) (members []groupMember, enc byte, stored, head int64, ok bool) {
	if !bytes.HasPrefix(b, []byte(groupMagic)) {
		return nil, 0, 0, 0, false
	}
	r := &binReader{b: b, off: len(groupMagic)}
	members = readMembers(r, maxObject)
	enc = r.byte1("encoding")
	s := r.uvarint("stored length")
	crc := r.bytes(4, "check")
	if r.err != nil || enc != 'z' && enc != 'r' || s > uint64(len(b)) {
		return nil, 0, 0, 0, false
	}
	if crc32.Checksum(b[:r.off-4], crcTable) != binary.BigEndian.Uint32(crc) {
		return nil, 0, 0, 0, false
	}
	return members, enc, int64(s), int64(r.off), true
}

// scanGroups finds every group frame in b whose header holds and whose
// bytes lie within b: a pack whose table is damaged (offsets from b's
// start).
func scanGroups(b []byte) []*packGroup {
	var out []*packGroup
	for off := 0; off < len(b); {
		i := bytes.Index(b[off:], []byte(groupMagic))
		if i < 0 {
			break
		}
		at := off + i
		if members, _, stored, head, ok := groupHead(b[at:]); ok && head+stored <= int64(len(b)-at) {
			out = append(out, &packGroup{off: int64(at), size: head + stored, head: head, members: members})
			off = at + int(head+stored)
			continue
		}
		off = at + 1
	}
	return out
}

// groupCacheMax bounds the decoded groups a pack keeps: an undo reads
// many objects of a group one by one.
const groupCacheMax = 16 << 20

// member returns digest's bytes from group g, checked against it: an
// errNotWhole naming the group when they cannot be read whole, another
// error when the file could not be read.
func (p *pack) member(g *packGroup, digest string) ([]byte, error) {
	data, members, err := p.decodeGroup(g)
	if err != nil {
		return nil, err
	}
	var at int64
	for _, m := range members {
		if m.digest == digest {
			if at+m.raw > int64(len(data)) {
				break
			}
			out := data[at : at+m.raw]
			if textfile.Digest(out) != digest {
				return nil, notWhole("%s: object %s does not match its digest", p.path, digest[:12])
			}
			return bytes.Clone(out), nil // the group stays cached: no caller may write into it
		}
		at += m.raw
	}
	return nil, notWhole("%s: the group at byte %d does not hold object %s whole", p.path, p.dataOff+g.off, digest[:min(12, len(digest))])
}

// decodedGroup is a group's members' bytes, decoded, and its members.
type decodedGroup struct {
	data    []byte
	members []groupMember
}

// decodeGroup is g's members' bytes, one after the other, and its
// members: as its header lists them when the header holds, else as the
// table does.
func (p *pack) decodeGroup(g *packGroup) ([]byte, []groupMember, error) {
	p.mu.Lock()
	dg, ok := p.decoded[g]
	p.mu.Unlock()
	if ok {
		return dg.data, dg.members, nil
	}
	frame, err := p.readAt(packEntry{off: g.off, size: g.size})
	if err != nil {
		return nil, nil, err
	}
	members, enc, stored, head, ok := groupHead(frame)
	if !ok || head+stored != g.size {
		// The header is damaged: the table says where the stored bytes
		// begin and what they hold; zstd's own magic says how stored.
		members, stored, head = g.members, g.size-g.head, g.head
		enc = 'r'
		if bytes.HasPrefix(frame[head:], zstdMagic) {
			enc = 'z'
		}
	}
	var raw int64
	for _, m := range members {
		raw += m.raw
	}
	data, err := unframe(enc, frame[head:head+stored], raw)
	if err != nil || int64(len(data)) != raw {
		return nil, nil, notWhole("%s: the group at byte %d (%d object(s)) does not decode: %v", p.path, p.dataOff+g.off, len(members), cmpErr(err, "its size differs"))
	}
	p.mu.Lock()
	if p.cached+len(data) > groupCacheMax {
		p.decoded, p.cached = nil, 0
	}
	if p.decoded == nil {
		p.decoded = map[*packGroup]decodedGroup{}
	}
	p.decoded[g] = decodedGroup{data, members}
	p.cached += len(data)
	p.mu.Unlock()
	return data, members, nil
}

// cmpErr is err, or an error saying what when err is nil.
func cmpErr(err error, what string) error {
	if err != nil {
		return err
	}
	return errors.New(what)
}

// scanPack3 is the format-3 pack raw holds as its groups' headers tell;
// false when none holds.
func scanPack3(raw []byte, why error) (*pack, bool) {
	groups := scanGroups(raw)
	if len(groups) == 0 {
		return nil, false
	}
	p := &pack{version: 3, objects: map[string]packEntry{}, damaged: why.Error()}
	for _, g := range groups {
		p.addGroup(g)
	}
	return p, true
}

// object3 is digest's bytes from a format-3 pack.
func (p *pack) object3(digest string) ([]byte, error) {
	e, ok := p.objects[digest]
	if !ok {
		return nil, notWhole("%s holds no object %s", p.path, digest[:min(12, len(digest))])
	}
	return p.member(e.grp, digest)
}
