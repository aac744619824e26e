package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/memcompact/memcompact/internal/lockfile"
	"github.com/memcompact/memcompact/internal/outcome"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/textfile"
)

// looseObjects lists the journal's loose objects.
func looseObjects(t *testing.T, j *Journal) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(j.objectsDir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(d.Name()) == 64 {
			out = append(out, d.Name())
		}
		return nil
	})
	return out
}

// packFiles lists the journal's pack files.
func packFiles(t *testing.T, j *Journal) []string {
	t.Helper()
	out, _ := filepath.Glob(filepath.Join(j.objectsDir(), "*.pack"))
	return out
}

// TestFirstSnapshotIsOnePack: a first snapshot of many files writes them
// as one pack and no loose object, and every file reads back whole; a
// later snapshot of one changed file writes it loose.
func TestFirstSnapshotIsOnePack(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("session-start", "s1")
	j := mustJournal(t, f)
	if got := packFiles(t, j); len(got) != 1 {
		t.Fatalf("packs after a first snapshot of 6 files: %v, want one", got)
	}
	if got := looseObjects(t, j); len(got) != 0 {
		t.Errorf("loose objects after a first snapshot: %d, want none", len(got))
	}
	for p, want := range sampleStore() {
		got, err := j.object(first.Manifest.File(p).Digest)
		if err != nil || string(got) != want {
			t.Errorf("%s from the pack: %q, %v; want %q", p, got, err, want)
		}
	}
	f.write("project_auth.md", "Sessions moved to JWT.\n")
	f.snap("pre-write", "s1")
	if got := looseObjects(t, j); len(got) != 1 {
		t.Errorf("loose objects after one changed file: %d, want 1", len(got))
	}
	if got := packFiles(t, j); len(got) != 1 {
		t.Errorf("packs after one changed file: %d, want still one", len(got))
	}
}

// TestSessionStartStoresTheIndexOnce: the session's view of the index
// names the object the first snapshot packed; it writes no second copy.
func TestSessionStartStoresTheIndexOnce(t *testing.T) {
	f := newFixture(t, sampleStore())
	if _, err := SessionStart(context.Background(), HookRequest{Store: f.store, DataDir: f.data, Session: "s1", Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	j := mustJournal(t, f)
	if got := looseObjects(t, j); len(got) != 0 {
		t.Errorf("loose objects after a first session start: %d, want none (the index is in the pack)", len(got))
	}
	raw, err := os.ReadFile(j.sessionPath("s1"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(textfile.Digest([]byte(index)))) {
		t.Errorf("session view %s does not name the index", raw)
	}
	if seen, err := j.object(textfile.Digest([]byte(index))); err != nil || string(seen) != index {
		t.Errorf("the index the session saw: %q, %v", seen, err)
	}
}

// TestTornPackIsNeverTrusted: a pack cut short, or with a table that
// claims more than the file holds, is skipped; an object it claims is
// read from wherever else it is whole, or reported missing.
func TestTornPackIsNeverTrusted(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("manual", "")
	j := mustJournal(t, f)
	packs := packFiles(t, j)
	raw, _ := os.ReadFile(packs[0])
	d := first.Manifest.File("project_billing.md").Digest
	for _, cut := range []int{0, 10, len(raw) / 2, len(raw) - 1} {
		os.WriteFile(packs[0], raw[:cut], 0o600)
		j := mustJournal(t, f)
		// An object of a torn pack is read only when its frame is whole
		// and its bytes match its digest.
		if got, err := j.object(d); err == nil && (cut < 100 || string(got) != sampleStore()["project_billing.md"]) {
			t.Errorf("cut at %d: an object of a torn pack was trusted: %q", cut, got)
		}
	}
	// The same bytes stored loose are found past the torn pack.
	os.MkdirAll(filepath.Dir(j.objectPath(d)), 0o700)
	os.WriteFile(j.objectPath(d), []byte(sampleStore()["project_billing.md"]), 0o600)
	if got, err := mustJournal(t, f).object(d); err != nil || string(got) != sampleStore()["project_billing.md"] {
		t.Errorf("the loose copy past a torn pack: %q, %v", got, err)
	}
}

// TestPrunePacks: prune removes a stale pack holding an object no kept
// snapshot needs, first storing loose what a kept one does; a pack every
// object of which is needed, or one younger than an hour, stays; a dry
// run changes nothing.
func TestPrunePacks(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.clk.t = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	f.snap("manual", "")
	j := mustJournal(t, f)
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	age := func() {
		filepath.WalkDir(j.objectsDir(), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				os.Chtimes(p, old, old)
			}
			return nil
		})
	}
	prune := func(dry bool, now time.Time) *PruneResult {
		t.Helper()
		r, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, DryRun: dry,
			Retention: Retention{KeepAll: time.Hour}, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Every packed object is needed: the pack stays.
	age()
	if r := prune(false, f.clk.t.Add(48*time.Hour)); r.ObjectsRemoved != 0 || len(packFiles(t, j)) != 1 {
		t.Fatalf("all needed: removed %d objects, %d packs left; want 0 and 1", r.ObjectsRemoved, len(packFiles(t, j)))
	}
	// A later snapshot replaces one file; the first snapshot ages out.
	f.clk.t = f.clk.t.Add(72 * time.Hour)
	f.write("project_auth.md", "Sessions moved to JWT.\n")
	last := f.snap("manual", "")
	age()
	now := f.clk.t.Add(2 * time.Hour)
	before := packFiles(t, j)
	if r := prune(true, now); r.ObjectsRemoved != 1 || len(packFiles(t, j)) != 1 || len(looseObjects(t, j)) != 1 {
		t.Errorf("dry run: %d objects would go (want 1); %d packs, %d loose left (want 1, 1: nothing changed)",
			r.ObjectsRemoved, len(packFiles(t, j)), len(looseObjects(t, j)))
	}
	r := prune(false, now)
	if r.ObjectsRemoved != 1 || len(r.Removed) != 1 {
		t.Errorf("removed %d objects and snapshots %v; want the old auth object and the first snapshot", r.ObjectsRemoved, r.Removed)
	}
	if got := packFiles(t, j); len(got) != 0 {
		t.Errorf("packs left: %v, want %v removed", got, before)
	}
	for _, fl := range last.Manifest.Files {
		if got, err := mustJournal(t, f).object(fl.Digest); err != nil || string(got) != f.read(fl.Path) {
			t.Errorf("kept snapshot lost %s: %q, %v", fl.Path, got, err)
		}
	}
}

// TestPruneYoungAndStalePacks: a young pack stays whatever it holds; once
// stale, one whose every object only a dropped snapshot named goes, and
// prune counts its objects and its file's bytes.
func TestPruneYoungAndStalePacks(t *testing.T) {
	f := newFixture(t, sampleStore())
	j := mustJournal(t, f)
	for _, v := range []string{"v3", "v4"} {
		f.clk.t = f.clk.t.Add(time.Hour)
		for p := range sampleStore() {
			f.write(p, v+" of "+p+"\n")
		}
		f.snap("manual", "")
	}
	if n := len(packFiles(t, j)); n != 2 {
		t.Fatalf("%d packs for two snapshots of six changed files, want 2", n)
	}
	newest := func(now time.Time) *PruneResult {
		r, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data,
			Retention: Retention{MaxBytes: 1}, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := newest(time.Now().Add(30 * time.Second)); len(packFiles(t, j)) != 2 || r.BytesFreed != 0 || r.ObjectsRemoved != 0 || len(r.Removed) != 1 {
		t.Errorf("young packs: %d left, %d objects and %d bytes freed, snapshots %v removed; want both packs kept, nothing freed, v3's snapshot removed",
			len(packFiles(t, j)), r.ObjectsRemoved, r.BytesFreed, r.Removed)
	}
	v3 := packFiles(t, j)[0]
	fi, _ := os.Stat(v3)
	r := newest(time.Now().Add(2 * time.Hour))
	if got := packFiles(t, j); len(got) != 1 || got[0] == v3 {
		t.Errorf("stale packs left: %v, want only v4's", got)
	}
	if r.ObjectsRemoved != 6 || r.BytesFreed != fi.Size() {
		t.Errorf("removed %d objects, freed %d bytes; want v3's 6 objects and its pack's %d bytes", r.ObjectsRemoved, r.BytesFreed, fi.Size())
	}
}

// TestPruneTrustsOnlyDurableHomes: a copy younger than staleAfter (a pack
// another run is still writing, or one a killed run never synced) is no
// home: the older pack holding the only durable copy of what the newest
// snapshot names stays.
func TestPruneTrustsOnlyDurableHomes(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("manual", "")
	j := mustJournal(t, f)
	stale := time.Now().Add(-2 * time.Hour)
	os.Chtimes(packFiles(t, j)[0], stale, stale)
	var objs []packObject
	for _, fl := range first.Manifest.Files {
		objs = append(objs, packObject{digest: fl.Digest, data: []byte(f.read(fl.Path))})
	}
	inflight := filepath.Join(j.objectsDir(), "29991231T000000.000000000Z-deadbeef.pack")
	os.WriteFile(inflight, encodePack(objs), 0o600)
	if _, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data}); err != nil {
		t.Fatal(err)
	}
	os.Remove(inflight) // its writer's sync failed, or the power went
	for _, fl := range first.Manifest.Files {
		if _, err := mustJournal(t, f).object(fl.Digest); err != nil {
			t.Errorf("the newest snapshot lost %s: %v", fl.Path, err)
		}
	}
}

// TestPruneChecksHomesWhole: a newer pack whose table is whole but whose
// bytes are torn is no home: the older pack holding the whole copy stays.
func TestPruneChecksHomesWhole(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("manual", "")
	j := mustJournal(t, f)
	var objs []packObject
	for _, fl := range first.Manifest.Files {
		objs = append(objs, packObject{digest: fl.Digest, data: []byte(f.read(fl.Path))})
	}
	newer := filepath.Join(j.objectsDir(), "29991231T000000.000000000Z-deadbeef.pack")
	os.WriteFile(newer, encodePack(objs), 0o600)
	j = mustJournal(t, f)
	for _, p := range j.packs() {
		if p.path == newer {
			for d := range p.objects {
				corruptPacked(t, p, d)
			}
		}
	}
	stale := time.Now().Add(-2 * time.Hour)
	for _, p := range packFiles(t, j) {
		os.Chtimes(p, stale, stale)
	}
	if _, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data}); err != nil {
		t.Fatal(err)
	}
	for _, fl := range first.Manifest.Files {
		if _, err := mustJournal(t, f).object(fl.Digest); err != nil {
			t.Errorf("the newest snapshot lost %s: %v", fl.Path, err)
		}
	}
}

// corruptPacked flips the first byte of digest's bytes in pack p.
func corruptPacked(t *testing.T, p *pack, digest string) {
	t.Helper()
	e := p.objects[digest]
	if e.size == 0 {
		return
	}
	fh, err := os.OpenFile(p.path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	b := make([]byte, 1)
	at := p.dataOff + e.off + max(0, e.size-2) // a stored byte, not the frame's header
	fh.ReadAt(b, at)
	fh.WriteAt([]byte{b[0] ^ 0xff}, at)
}

// TestPruneRemovesTornPacks: a pack whose table is not whole (a write cut
// short) is removed once stale, and counted; a young one stays.
func TestPruneRemovesTornPacks(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("manual", "")
	j := mustJournal(t, f)
	torn := filepath.Join(j.objectsDir(), "20260101T000000.000000000Z-00000000.pack")
	os.WriteFile(torn, []byte(packMagic+" 3\n"+strings.Repeat("a", 64)+" 0 10\n"), 0o600)
	prune := func(now time.Time) *PruneResult {
		r, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if prune(time.Now()); len(packFiles(t, j)) != 2 {
		t.Error("a young torn pack was removed")
	}
	r := prune(time.Now().Add(2 * time.Hour))
	if got := packFiles(t, j); len(got) != 1 || got[0] == torn {
		t.Errorf("packs left %v, want the torn one removed", got)
	}
	if r.BytesFreed != int64(len(packMagic)+3+65+5) {
		t.Errorf("freed %d bytes, want the torn pack's %d", r.BytesFreed, len(packMagic)+3+65+5)
	}
}

// TestSnapshotSplitsLargePacks: a first snapshot whose new objects pass
// packMaxBytes writes several packs, and every file reads back whole.
func TestSnapshotSplitsLargePacks(t *testing.T) {
	defer func(n int) { packMaxBytes = n }(packMaxBytes)
	packMaxBytes = 200
	f := newFixture(t, sampleStore())
	first := f.snap("manual", "")
	j := mustJournal(t, f)
	if n := len(packFiles(t, j)); n < 3 {
		t.Errorf("%d packs, want the store split into several", n)
	}
	for _, fl := range first.Manifest.Files {
		if got, err := j.object(fl.Digest); err != nil || string(got) != sampleStore()[fl.Path] {
			t.Errorf("%s: %q, %v", fl.Path, got, err)
		}
	}
}

// TestPruneWaitsForSnapshots: prune takes the journal's lock alone, so it
// never runs beside a snapshot (which could name an old object prune is
// removing); a snapshot waits for a prune the same way.
func TestPruneWaitsForSnapshots(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("manual", "")
	j := mustJournal(t, f)
	release, err := j.lock(context.Background(), true) // a snapshot in progress
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = RunPrune(ctx, PruneRequest{Store: f.store, DataDir: f.data})
	if outcome.ReasonOf(err) != lockfile.ReasonHeld {
		t.Errorf("prune beside a snapshot: %v, want a refusal for the lock", err)
	}
	// Another snapshot runs beside the first.
	if _, err := Snapshot(context.Background(), SnapshotRequest{Store: f.store, DataDir: f.data}); err != nil {
		t.Errorf("a snapshot beside another: %v", err)
	}
	release()
	alone, err := j.lock(context.Background(), false) // a prune in progress
	if err != nil {
		t.Fatal(err)
	}
	defer alone()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	f.write("project_auth.md", "changed\n")
	if _, err := Snapshot(ctx2, SnapshotRequest{Store: f.store, DataDir: f.data}); outcome.ReasonOf(err) != lockfile.ReasonHeld {
		t.Errorf("a snapshot beside a prune: %v, want a refusal for the lock", err)
	}
}

// TestPackParts: a pack never holds more than packMaxBytes unless one
// object alone is larger, and no object is lost or repeated in the split.
func TestPackParts(t *testing.T) {
	obj := func(n int) packObject { return packObject{digest: fmt.Sprint(n), data: make([]byte, n)} }
	for _, sizes := range [][]int{{1}, {packMaxBytes}, {packMaxBytes + 1, 1}, {packMaxBytes / 2, packMaxBytes / 2, 1}, {3, packMaxBytes, 3}} {
		var objs []packObject
		for _, n := range sizes {
			objs = append(objs, obj(n))
		}
		total := 0
		for _, part := range packParts(objs) {
			size := 0
			for _, o := range part {
				size += len(o.data)
			}
			if size > packMaxBytes && len(part) > 1 {
				t.Errorf("%v: a part of %d objects holds %d bytes", sizes, len(part), size)
			}
			total += len(part)
		}
		if total != len(objs) {
			t.Errorf("%v: %d objects in the parts, want %d", sizes, total, len(objs))
		}
	}
}

// TestPackTableErrors: a table that is not whole is refused with the
// line that is wrong.
func TestPackTableErrors(t *testing.T) {
	good := encodePack([]packObject{{digest: strings.Repeat("a", 64), data: []byte("x")}})
	if _, err := parsePackTable(bufio.NewReader(bytes.NewReader(good)), int64(len(good))); err != nil {
		t.Fatalf("a whole pack: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{"", "line 1"},
		{"memcompact-pack 2 1\n", "line 1"},
		{packMagic + " 1\nnot an object line" + strings.Repeat(" ", 80) + "\n\n", "line 2"},
		{packMagic + " 1\n" + strings.Repeat("a", 64) + " 0 5\n\nab", "past the end"},
		{packMagic + " 1\n" + strings.Repeat("a", 64) + " 0 1\nx", "line 3"},
	} {
		_, err := parsePackTable(bufio.NewReader(strings.NewReader(c.text)), int64(len(c.text)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want one naming %q", c.text, err, c.want)
		}
	}
}

// FuzzPackTable: any bytes parse to a table or an error, never a panic,
// and every object of a table parsed lies within the file; a pack of any
// objects encodes to a table that finds each one, and format 2's too.
func FuzzPackTable(f *testing.F) {
	f.Add(encodePack([]packObject{{digest: strings.Repeat("b", 64), data: []byte("hello\n")}, {digest: strings.Repeat("a", 64), data: nil}}), []byte("x"))
	f.Add(encodePackV2([]packObject{{digest: strings.Repeat("b", 64), data: []byte("hello\n")}}), []byte("x"))
	f.Add([]byte(packMagic+" 1\n"), []byte{})
	path := filepath.Join(f.TempDir(), "x.pack")
	f.Fuzz(func(t *testing.T, raw, data []byte) {
		if p, err := parsePackTable(bufio.NewReader(bytes.NewReader(raw)), int64(len(raw))); err == nil {
			for d, e := range p.objects {
				if p.dataOff+e.off+e.size > int64(len(raw)) {
					t.Fatalf("object %s at %d+%d lies past the file's %d bytes", d, e.off, e.size, len(raw))
				}
			}
		}
		objs := []packObject{{digest: textfile.Digest(data), data: data}, {digest: textfile.Digest(raw), data: raw}}
		enc := encodePackV2(objs)
		p, err := parsePackTable(bufio.NewReader(bytes.NewReader(enc)), int64(len(enc)))
		if err != nil {
			t.Fatalf("an encoded format-2 pack does not parse: %v", err)
		}
		for _, o := range objs {
			e := p.objects[o.digest]
			got, _, err := decodeFrame(enc[p.dataOff+e.off:p.dataOff+e.off+e.size], o.digest)
			if err != nil || !bytes.Equal(got, o.data) {
				t.Fatalf("object %s reads back as %q, %v; want %q", o.digest[:12], got, err, o.data)
			}
		}
		os.WriteFile(path, encodePack(objs), 0o600)
		p, err = readPackTable(path)
		if err != nil || p.damaged != "" {
			t.Fatalf("an encoded pack does not parse: %v %s", err, p.damaged)
		}
		for _, o := range objs {
			if got, err := p.object(o.digest); err != nil || !bytes.Equal(got, o.data) {
				t.Fatalf("object %s reads back as %q, %v; want %q", o.digest[:12], got, err, o.data)
			}
		}
	})
}

// FuzzGroups: any bytes scan to groups or none, never a panic, and
// every object read from a group found matches its digest.
func FuzzGroups(f *testing.F) {
	f.Add(encodePack([]packObject{{digest: textfile.Digest([]byte("x")), data: []byte("x")}}))
	enc, _ := encodeGroup([]packObject{{digest: textfile.Digest([]byte("hello")), data: []byte("hello")}, {digest: textfile.Digest([]byte("hi")), data: []byte("hi")}})
	f.Add(enc)
	path := filepath.Join(f.TempDir(), "x.pack")
	f.Fuzz(func(t *testing.T, raw []byte) {
		os.WriteFile(path, raw, 0o600)
		p, ok := scanPack3(raw, errors.New("fuzz"))
		if !ok {
			return
		}
		p.path = path
		for d := range p.objects {
			if got, err := p.object(d); err == nil && textfile.Digest(got) != d {
				t.Fatalf("object %s read as bytes of another digest", d[:12])
			}
		}
	})
}

// TestReadsBack: a pack file is accepted only when it reads back as
// exactly the parts written, chunk boundaries anywhere.
func TestReadsBack(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 9000) // more than one 64 KiB chunk
	parts := [][]byte{[]byte("head\n"), big, {}, []byte("tail")}
	whole := bytes.Join(parts, nil)
	for _, c := range []struct {
		name string
		file []byte
		ok   bool
	}{
		{"same", whole, true},
		{"shorter", whole[:len(whole)-1], false},
		{"longer", append(append([]byte(nil), whole...), 'x'), false},
		{"a byte differs", append(append(append([]byte(nil), whole[:70000]...), '#'), whole[70001:]...), false},
		{"empty", nil, false},
	} {
		p := filepath.Join(t.TempDir(), "p.pack")
		os.WriteFile(p, c.file, 0o600)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		err = readsBack(f, parts)
		f.Close()
		if (err == nil) != c.ok {
			t.Errorf("%s: readsBack = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

// TestPruneRefusesUnreadable: a manifest prune cannot read (a disk error,
// a newer memcompact's version) or a pack of another format may name or
// hold what prune would remove: prune refuses, naming it, and removes
// nothing; once it reads again, every object it names is there.
func TestPruneRefusesUnreadable(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("manual", "")
	for p := range sampleStore() {
		f.write(p, "v2 of "+p+"\n")
	}
	second := f.snap("manual", "")
	j := mustJournal(t, f)
	mp := j.manifestPath(second.Manifest.ID)
	raw, _ := os.ReadFile(mp)
	m, _ := j.readManifest(mp)
	plain, _ := json.Marshal(m)
	os.WriteFile(mp, bytes.Replace(plain, []byte(`"version":1`), []byte(`"version":2`), 1), 0o600)
	later := func() time.Time { return time.Now().Add(2 * time.Hour) }
	_, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: later})
	if outcome.ReasonOf(err) != ReasonUnreadable || !strings.Contains(err.Error(), second.Manifest.ID) {
		t.Errorf("prune beside an unreadable manifest: %v, want a refusal naming it", err)
	}
	os.WriteFile(mp, raw, 0o600)
	for _, fl := range second.Manifest.Files {
		if _, err := mustJournal(t, f).object(fl.Digest); err != nil {
			t.Errorf("lost %s: %v", fl.Path, err)
		}
	}
	// A pack of another format is never read, nor removed.
	foreign := filepath.Join(j.objectsDir(), "20200101T000000.000000000Z-00000000.pack")
	os.WriteFile(foreign, []byte("memcompact-pack 3 0\n\n"), 0o600)
	_, err = RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: later})
	if outcome.ReasonOf(err) != ReasonUnreadable || !strings.Contains(err.Error(), filepath.Base(foreign)) {
		t.Errorf("prune beside a pack of another format: %v, want a refusal naming it", err)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("the pack of another format: %v, want it left", err)
	}
}

// TestPruneCountsWhatItFrees: BytesFreed is what the objects folder lost,
// the needed objects a dropped pack held written back loose.
func TestPruneCountsWhatItFrees(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("manual", "")
	f.write("project_auth.md", "v2\n")
	f.snap("manual", "")
	j := mustJournal(t, f)
	stale := time.Now().Add(-2 * time.Hour)
	filepath.WalkDir(j.objectsDir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, stale, stale)
		}
		return nil
	})
	size := func() (n int64) {
		filepath.WalkDir(j.objectsDir(), func(p string, d os.DirEntry, err error) error {
			if fi, ierr := d.Info(); err == nil && ierr == nil && !d.IsDir() {
				n += fi.Size()
			}
			return nil
		})
		return n
	}
	before := size()
	r, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Retention: Retention{MaxBytes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := before - size(); r.BytesFreed != got || r.ObjectsRemoved != 1 || len(packFiles(t, j)) != 0 {
		t.Errorf("freed %d bytes (the folder lost %d), %d objects, %d packs left; want the same bytes, the old auth object, no pack",
			r.BytesFreed, got, r.ObjectsRemoved, len(packFiles(t, j)))
	}
}

// TestPruneKeepsViewedIndexes: the index a session's view names stays,
// however old, so the stale-copy check can still read it.
func TestPruneKeepsViewedIndexes(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("manual", "")
	j := mustJournal(t, f)
	seen := index + "- [Seen](seen.md) — only this session saw this line\n"
	if err := j.seeIndex("s1", []byte(seen)); err != nil {
		t.Fatal(err)
	}
	stale := time.Now().Add(-2 * time.Hour)
	os.Chtimes(j.objectPath(textfile.Digest([]byte(seen))), stale, stale)
	later := func() time.Time { return time.Now().Add(2 * time.Hour) }
	if _, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: later}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.object(textfile.Digest([]byte(seen))); err != nil {
		t.Errorf("the index session s1 saw was pruned: %v", err)
	}
}

// TestViewWaitsWithinTheHooksBudget: recording a session's view waits for
// a prune only as long as the hook's context allows.
func TestViewWaitsWithinTheHooksBudget(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("manual", "")
	alone, err := mustJournal(t, f).lock(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer alone()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = SawIndex(ctx, HookRequest{Store: f.store, DataDir: f.data, Session: "s1"}, []byte(index))
	if outcome.ReasonOf(err) != lockfile.ReasonHeld || time.Since(start) > 2*time.Second {
		t.Errorf("SawIndex beside a prune: %v after %s, want a refusal within the context", err, time.Since(start))
	}
}
