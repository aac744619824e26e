package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
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
// a frame's header line leaves every object readable, byte for byte: the
// frames locate the objects when the table is damaged, and the table
// when a frame's header is.
func TestPackHeaderBitFlips(t *testing.T) {
	f, _, path, objs := packedStore(t)
	raw, _ := os.ReadFile(path)
	p, err := readPackTable(path)
	if err != nil {
		t.Fatal(err)
	}
	// The bytes that are headers: the table, and each frame's first line.
	var headers []int
	for i := range int(p.dataOff) {
		headers = append(headers, i)
	}
	for _, e := range p.objects {
		at := int(p.dataOff + e.off)
		nl := bytes.IndexByte(raw[at:], '\n')
		for i := at; i <= at+nl; i++ {
			headers = append(headers, i)
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
					t.Fatalf("bit %d of byte %d flipped: object %s reads %q, %v", bit, i, o.digest[:12], got, err)
				}
			}
			flips++
		}
	}
	if flips < int(p.dataOff) {
		t.Fatalf("only %d flips tried", flips)
	}
}

// TestDamagedObjectIsNamed: an object whose stored bytes are damaged is
// reported with the pack it lies in, the others read whole; an undo that
// needs it exits with a refusal naming the file it did not restore, and
// restores the rest.
func TestDamagedObjectIsNamed(t *testing.T) {
	f, first, path, _ := packedStore(t)
	for p := range sampleStore() {
		f.write(p, "rewritten "+p+"\n")
	}
	f.snap("pre-write", "s1")
	j := mustJournal(t, f)
	d := first.Manifest.File("project_billing.md").Digest
	p, _ := readPackTable(path)
	corruptPacked(t, p, d)
	_, err := mustJournal(t, f).object(d)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a damaged object: %v, want an error naming its pack", err)
	}
	_ = j
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
// pack with a flipped bit in its table (nothing can be read from it) and
// a format-2 one (read through its frames) both survive a prune run
// hours later, and their objects still restore.
func TestPruneBesideDamage(t *testing.T) {
	for _, v1 := range []bool{true, false} {
		f, first, path, objs := packedStore(t)
		raw, _ := os.ReadFile(path)
		if v1 {
			raw = encodePackV1(objs)
		}
		raw[len(packMagic)+1] ^= 0x01 // the object count
		os.WriteFile(path, raw, 0o600)
		later := func() time.Time { return time.Now().Add(3 * time.Hour) }
		if _, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: later}); err != nil {
			t.Fatalf("v1=%v: prune: %v", v1, err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("v1=%v: prune removed the only copy of the store: %v", v1, err)
		}
		if !v1 {
			for _, o := range objs {
				if got, err := mustJournal(t, f).object(o.digest); err != nil || !bytes.Equal(got, o.data) {
					t.Errorf("after prune: %s reads %q, %v", o.digest[:12], got, err)
				}
			}
			continue
		}
		// Repaired (the bit flipped back), the old-format pack restores.
		raw[len(packMagic)+1] ^= 0x01
		os.WriteFile(path, raw, 0o600)
		f.write("reference_ci.md", "gone\n")
		if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: first.Manifest.ID, Confirm: yes, Now: f.clk.now}); err != nil {
			t.Fatalf("undo from a format-1 pack: %v", err)
		}
		if got := f.read("reference_ci.md"); got != sampleStore()["reference_ci.md"] {
			t.Errorf("restored from a format-1 pack: %q", got)
		}
	}
}

// FuzzFrames: any bytes scan to frames that decode to their digests, or
// to none, never a panic.
func FuzzFrames(f *testing.F) {
	f.Add(frameBytes(strings.Repeat("a", 64), []byte("x")))
	f.Add(encodePack([]packObject{{digest: "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881", data: []byte("x")}}))
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
