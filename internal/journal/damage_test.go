package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
)

// exhaustive makes the bit-flip tests try every bit, not one a byte.
var exhaustive = flag.Bool("exhaustive", false, "try every bit flip, not one a byte")

// encodePackV1 lays objs out in pack format 1 (what journals written
// before format 2 hold): a table, then the raw bytes.
func encodePackV1(objs []packObject) []byte {
	sort.Slice(objs, func(a, b int) bool { return objs[a].digest < objs[b].digest })
	var head, data bytes.Buffer
	head.WriteString(packMagic + " " + strconv.Itoa(len(objs)) + "\n")
	for _, o := range objs {
		head.WriteString(o.digest + " " + strconv.Itoa(data.Len()) + " " + strconv.Itoa(len(o.data)) + "\n")
		data.Write(o.data)
	}
	head.WriteByte('\n')
	return append(head.Bytes(), data.Bytes()...)
}

// packedStore is a store's first snapshot, written as one pack, with the
// pack's path and its objects.
func packedStore(t *testing.T) (*fixture, *SnapshotResult, string, []packObject) {
	t.Helper()
	f := newFixture(t, sampleStore())
	first := f.snap("session-start", "s1")
	packs := packFiles(t, mustJournal(t, f))
	if len(packs) != 1 {
		t.Fatalf("packs: %v, want one", packs)
	}
	var objs []packObject
	for p, text := range sampleStore() {
		objs = append(objs, packObject{digest: first.Manifest.File(p).Digest, data: []byte(text)})
	}
	return f, first, packs[0], objs
}

// TestPackHeaderBitFlips: every single-bit flip in a pack's table or in
// a frame's or a group's header leaves every object readable, byte for
// byte: the frames (format 2) or groups (format 3) locate the objects
// when the table is damaged, and the table when a header is. Format 3 is
// tried with the store in one group and with a group per object or two.
func TestPackHeaderBitFlips(t *testing.T) {
	for _, c := range []struct {
		name     string
		v2       bool
		groupMax int
	}{{"format 2", true, groupMax}, {"format 3", false, groupMax}, {"format 3, small groups", false, 300}} {
		t.Run(c.name, func(t *testing.T) {
			old := groupMax
			groupMax = c.groupMax
			defer func() { groupMax = old }()
			f, _, path, objs := packedStore(t)
			if c.v2 {
				os.WriteFile(path, encodePackV2(objs), 0o600)
			}
			headerBitFlips(t, f, path, objs)
		})
	}
}

// headerBitFlips flips each bit (one a byte, unless exhaustive) of the
// headers of the pack at path, one at a time, and reads every object.
func headerBitFlips(t *testing.T, f *fixture, path string, objs []packObject) {
	raw, _ := os.ReadFile(path)
	p, err := readPackTable(path)
	if err != nil {
		t.Fatal(err)
	}
	// The bytes that are headers: the table, and each frame's first
	// line or each group's header.
	var headers []int
	for i := range int(p.dataOff) {
		headers = append(headers, i)
	}
	for _, g := range p.groups {
		for i := range int(g.head) {
			headers = append(headers, int(p.dataOff+g.off)+i)
		}
	}
	if p.version == 2 {
		for _, e := range p.objects {
			at := int(p.dataOff + e.off)
			nl := bytes.IndexByte(raw[at:], '\n')
			for i := at; i <= at+nl; i++ {
				headers = append(headers, i)
			}
		}
	}
	flips := 0
	for _, i := range headers {
		for bit := range 8 {
			if !*exhaustive && bit != i%8 {
				continue // one bit a byte, the bit moving: all eight with -exhaustive
			}
			bad := bytes.Clone(raw)
			bad[i] ^= 1 << bit
			if err := os.WriteFile(path, bad, 0o600); err != nil {
				t.Fatal(err)
			}
			j := mustJournal(t, f)
			for _, o := range objs {
				got, err := j.object(o.digest)
				if err != nil || !bytes.Equal(got, o.data) {
					t.Fatalf("format %d: bit %d of byte %d flipped: object %s reads %q, %v", p.version, bit, i, o.digest[:12], got, err)
				}
			}
			flips++
		}
	}
	if flips < int(p.dataOff) {
		t.Fatalf("only %d flips tried", flips)
	}
}

// TestStoredBitFlipsLoseOneGroup: a flipped bit in a group's stored
// bytes loses that group's objects, each read failing with the pack
// named, and no other group's.
func TestStoredBitFlipsLoseOneGroup(t *testing.T) {
	old := groupMax
	groupMax = 300
	defer func() { groupMax = old }()
	f, _, path, objs := packedStore(t)
	raw, _ := os.ReadFile(path)
	p, err := readPackTable(path)
	if err != nil || len(p.groups) < 3 {
		t.Fatalf("%d groups, %v; want several", len(p.groups), err)
	}
	lost := 0
	for gi, g := range p.groups {
		for i := g.head; i < g.size; i += max(1, (g.size-g.head)/7) {
			at := p.dataOff + g.off + i
			bad := bytes.Clone(raw)
			bad[at] ^= 1 << (at % 8)
			os.WriteFile(path, bad, 0o600)
			j := mustJournal(t, f)
			for _, o := range objs {
				got, err := j.object(o.digest)
				inGroup := slices.ContainsFunc(g.members, func(m groupMember) bool { return m.digest == o.digest })
				switch {
				case err == nil && !bytes.Equal(got, o.data):
					t.Fatalf("group %d, byte %d flipped: object %s reads wrong bytes", gi, at, o.digest[:12])
				case err != nil && !inGroup:
					t.Fatalf("group %d, byte %d flipped: object %s of another group is lost: %v", gi, at, o.digest[:12], err)
				case err != nil && !strings.Contains(err.Error(), path):
					t.Fatalf("group %d, byte %d flipped: %v, want the pack named", gi, at, err)
				case err != nil:
					lost++
				}
			}
		}
	}
	if lost == 0 {
		t.Error("no flip lost an object: the flips missed the stored bytes")
	}
}

// TestDamagedObjectIsNamed: an object whose stored bytes are damaged is
// reported with the pack it lies in, the others read whole; an undo that
// needs it exits with a refusal naming the file it did not restore, and
// restores the rest.
func TestDamagedObjectIsNamed(t *testing.T) {
	old := groupMax
	groupMax = 1 // a group per object: the damage loses one file
	defer func() { groupMax = old }()
	f, first, path, _ := packedStore(t)
	for p := range sampleStore() {
		f.write(p, "rewritten "+p+"\n")
	}
	f.snap("pre-write", "s1")
	d := first.Manifest.File("project_billing.md").Digest
	p, _ := readPackTable(path)
	corruptPacked(t, p, d)
	_, err := mustJournal(t, f).object(d)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a damaged object: %v, want an error naming its pack", err)
	}
	res, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: first.Manifest.ID, Confirm: yes, Now: f.clk.now})
	if outcome.ReasonOf(err) != ReasonNotRestored || !strings.Contains(err.Error(), "project_billing.md") || outcome.StatusOf(err) == outcome.Clean {
		t.Fatalf("undo beside a damaged object: %v, want a refusal naming project_billing.md", err)
	}
	if res == nil || res.Status != "partly-undone" {
		t.Fatalf("result %+v, want partly-undone", res)
	}
	for p, want := range sampleStore() {
		if p == "project_billing.md" {
			continue
		}
		if got := f.read(p); got != want {
			t.Errorf("%s = %q, want it restored", p, got)
		}
	}
}

// TestDamagedGroupIsNamed: a damaged group of a format-3 pack loses at
// most the files in it; an undo names each one it did not restore, exits
// with a refusal, and restores the files of the other groups.
func TestDamagedGroupIsNamed(t *testing.T) {
	old := groupMax
	groupMax = 300
	defer func() { groupMax = old }()
	f, first, path, _ := packedStore(t)
	for p := range sampleStore() {
		f.write(p, "rewritten "+p+"\n")
	}
	f.snap("pre-write", "s1")
	p, _ := readPackTable(path)
	g := p.groups[0]
	for _, c := range p.groups {
		if len(c.members) > len(g.members) {
			g = c
		}
	}
	d := g.members[0].digest
	lost := map[string]bool{}
	for _, fl := range first.Manifest.Files {
		if slices.ContainsFunc(g.members, func(m groupMember) bool { return m.digest == fl.Digest }) {
			lost[fl.Path] = true
		}
	}
	if len(lost) < 2 || len(lost) == len(first.Manifest.Files) {
		t.Fatalf("the damaged group holds %v: want some files, not all", lost)
	}
	corruptPacked(t, p, d)
	res, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: first.Manifest.ID, Confirm: yes, Now: f.clk.now})
	if outcome.ReasonOf(err) != ReasonNotRestored || res == nil || res.Status != "partly-undone" {
		t.Fatalf("undo beside a damaged group: %+v, %v; want partly-undone, refused", res, err)
	}
	named := 0
	for p, want := range sampleStore() {
		switch got := f.read(p); {
		case got == want && (lost[p] || !strings.Contains(err.Error(), p)):
			// restored: of another group, or of this one where a group
			// stored as it is keeps the members the damage missed
		case !lost[p]:
			t.Errorf("%s = %q, want it restored (its group is whole)", p, got)
		case !strings.Contains(err.Error(), p):
			t.Errorf("%s was not restored and is not named: %v", p, err)
		case got != "rewritten "+p+"\n":
			t.Errorf("%s, unrestorable, was changed: %q", p, got)
		default:
			named++
		}
	}
	if named == 0 {
		t.Errorf("no file named as not restored: %v", err)
	}
}

// TestUndoNeverClaimsNothingWhenItCannotRead: when every file asked for
// is unreadable (or withheld), undo refuses naming them, never "nothing to
// undo", and its JSON lists the actions as [] (never null).
func TestUndoNeverClaimsNothingWhenItCannotRead(t *testing.T) {
	f, first, path, _ := packedStore(t)
	f.write("project_auth.md", "short\n")
	f.snap("pre-write", "s1")
	p, _ := readPackTable(path)
	corruptPacked(t, p, first.Manifest.File("project_auth.md").Digest)
	res, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, File: "project_auth.md", At: first.Manifest.ID, Confirm: yes, Now: f.clk.now})
	if outcome.ReasonOf(err) != ReasonNotRestored || !strings.Contains(err.Error(), "project_auth.md") || strings.Contains(err.Error(), "nothing to undo") {
		t.Fatalf("undo of an unreadable file: %v, want a refusal naming it", err)
	}
	b, _ := json.Marshal(res.JSON())
	if !bytes.Contains(b, []byte(`"actions":[]`)) {
		t.Errorf("JSON %s, want \"actions\":[]", b)
	}
	if got := f.read("project_auth.md"); got != "short\n" {
		t.Errorf("the file was changed: %q", got)
	}
}

// TestPruneBesideDamage: prune never removes a pack whose objects it
// could not read when no other copy of them was read whole: a format-1
// pack with a flipped bit in its table (nothing can be read from it), a
// format-2 one (read through its frames) and a format-3 one with its
// table and its group damaged (nothing read whole) all survive a prune
// run hours later, and their objects still restore (repaired, for 1 and
// 3).
func TestPruneBesideDamage(t *testing.T) {
	for _, format := range []int{1, 2, 3} {
		f, first, path, objs := packedStore(t)
		raw, _ := os.ReadFile(path)
		switch format {
		case 1:
			raw = encodePackV1(objs)
		case 2:
			raw = encodePackV2(objs)
		}
		raw[len(packMagic)+1] ^= 0x01 // the object count (format 1, 2), the table's length (3)
		if format == 3 {
			raw[len(raw)-3] ^= 0x01 // and a stored byte: nothing is read whole
		}
		os.WriteFile(path, raw, 0o600)
		later := func() time.Time { return time.Now().Add(3 * time.Hour) }
		if _, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: later}); err != nil {
			t.Fatalf("format %d: prune: %v", format, err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("format %d: prune removed the only copy of the store: %v", format, err)
		}
		if format == 2 {
			for _, o := range objs {
				if got, err := mustJournal(t, f).object(o.digest); err != nil || !bytes.Equal(got, o.data) {
					t.Errorf("after prune: %s reads %q, %v", o.digest[:12], got, err)
				}
			}
			continue
		}
		if format == 3 {
			raw[len(raw)-3] ^= 0x01
		}
		// Repaired (the bits flipped back), the pack restores.
		raw[len(packMagic)+1] ^= 0x01
		os.WriteFile(path, raw, 0o600)
		f.write("reference_ci.md", "gone\n")
		if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: first.Manifest.ID, Confirm: yes, Now: f.clk.now}); err != nil {
			t.Fatalf("undo from a format-%d pack: %v", format, err)
		}
		if got := f.read("reference_ci.md"); got != sampleStore()["reference_ci.md"] {
			t.Errorf("restored from a format-%d pack: %q", format, got)
		}
	}
}

// FuzzFrames: any bytes scan to frames that decode to their digests, or
// to none, never a panic.
func FuzzFrames(f *testing.F) {
	f.Add(frameBytes(strings.Repeat("a", 64), []byte("x")))
	f.Add(encodePackV2([]packObject{{digest: "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881", data: []byte("x")}}))
	f.Fuzz(func(t *testing.T, raw []byte) {
		for d, e := range scanFrames(raw) {
			if _, _, err := decodeFrame(raw[e.off:e.off+e.size], d); err != nil {
				t.Fatalf("a frame scanned does not decode: %v", err)
			}
		}
		_, _ = decodeLoose(raw, strings.Repeat("a", 64))
		_, _ = salvageFrame(raw, strings.Repeat("a", 64))
	})
}

// TestHistoryNamesUnreadablePacks: a pack nothing can be read from is
// named by history, with why.
func TestHistoryNamesUnreadablePacks(t *testing.T) {
	f, _, path, objs := packedStore(t)
	raw := encodePackV1(objs)
	raw[len(packMagic)+1] ^= 0x01
	os.WriteFile(path, raw, 0o600)
	res, err := RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	if err != nil || len(res.UnreadPacks) != 1 || !strings.Contains(res.UnreadPacks[0], path) {
		t.Errorf("unreadable packs %q, %v; want %s named", res.UnreadPacks, err, path)
	}
}

// TestOlderPacksStillRestore: a journal whose pack an older memcompact
// wrote (format 1 or 2) restores from it, and its next pack is format 3.
func TestOlderPacksStillRestore(t *testing.T) {
	for _, format := range []int{1, 2} {
		f, first, path, objs := packedStore(t)
		raw := encodePackV1(objs)
		if format == 2 {
			raw = encodePackV2(objs)
		}
		os.WriteFile(path, raw, 0o600)
		for p := range sampleStore() {
			f.write(p, "gone "+p+"\n")
		}
		f.write("new.md", "new\n")
		f.snap("pre-write", "s1")
		if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: first.Manifest.ID, Confirm: yes, Now: f.clk.now}); err != nil {
			t.Fatalf("format %d: undo: %v", format, err)
		}
		for p, want := range sampleStore() {
			if got := f.read(p); got != want {
				t.Errorf("format %d: %s = %q, want it restored", format, p, got)
			}
		}
		packs := packFiles(t, mustJournal(t, f))
		if len(packs) != 2 {
			t.Fatalf("format %d: packs %v, want the old one and the rewrite's", format, packs)
		}
		for _, pk := range packs {
			p, err := readPackTable(pk)
			switch {
			case err != nil:
				t.Errorf("format %d: %s: %v", format, pk, err)
			case pk != path && p.version != 3:
				t.Errorf("format %d: %s is format %d, want 3", format, pk, p.version)
			}
		}
	}
}
