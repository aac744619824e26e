package journal

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
)

// deltaBaseManifest is a whole manifest to write deltas on.
func deltaBaseManifest() *Manifest {
	m := sampleManifest()
	m.ID, m.Partial = "20261204T101010.000000001Z-base00", false
	return m
}

// baseLookup serves base by its ID, as the journal serves a delta's base.
func baseLookup(base *Manifest) func(string) (*Manifest, error) {
	return func(id string) (*Manifest, error) {
		if id == base.ID {
			return base, nil
		}
		return nil, fs.ErrNotExist
	}
}

// roundTripDelta stores m as a delta on base and reads it back.
func roundTripDelta(t testing.TB, m, base *Manifest) (*Manifest, []byte) {
	t.Helper()
	whole, err := marshalManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	d, err := marshalDelta(m, base, 3, whole)
	if err != nil {
		t.Fatal(err)
	}
	got, err := unmarshalDelta(d, baseLookup(base))
	if err != nil {
		t.Fatalf("%s: %v", m.ID, err)
	}
	return got, d
}

// TestDeltaManifestRoundTrip: a manifest stored as its changes from a
// base reads back field for field, whatever changed: files added before,
// between and after the base's, removed, changed, restated, all of them.
func TestDeltaManifestRoundTrip(t *testing.T) {
	base := deltaBaseManifest()
	edit := func(name string, f func(fs []File) []File) *Manifest {
		m := *base
		m.ID, m.Cause, m.Time = "20261204T111111.000000001Z-"+name, "pre-write", time.Unix(0, 1796000000999)
		m.Files = f(append([]File(nil), base.Files...))
		return &m
	}
	cases := []*Manifest{
		edit("same", func(fs []File) []File { return fs }),
		edit("first", func(fs []File) []File {
			return append([]File{{Path: "AAA.md", Digest: strings.Repeat("1", 64), Size: 1}}, fs...)
		}),
		edit("last", func(fs []File) []File { return append(fs, File{Path: "zzz.md", Size: 2, Withheld: "secret"}) }),
		edit("gone", func(fs []File) []File { return append(fs[:1], fs[2:]...) }),
		edit("none", func(fs []File) []File { return nil }),
		edit("changed", func(fs []File) []File {
			fs[1].Digest, fs[1].Size = strings.Repeat("2", 64), 7
			return fs
		}),
		edit("restat", func(fs []File) []File {
			fs[0].ModTime, fs[0].Ino, fs[3].Hashed = 42, 43, 44
			return fs
		}),
		edit("reread", func(fs []File) []File {
			for i := range fs {
				fs[i].Hashed = 1796000000000000777
			}
			fs[2].Hashed = 5
			return fs
		}),
		edit("mixed", func(fs []File) []File {
			fs[0].Ctime = 9
			fs = append(fs[:2], File{Path: "feedback_c.md", Digest: strings.Repeat("3", 64)}, fs[3])
			fs[3].Withheld = "too-large"
			return fs
		}),
	}
	for _, m := range cases {
		got, _ := roundTripDelta(t, m, base)
		if got.base != base.ID || got.run != 3 {
			t.Errorf("%s: base %q run %d, want %q 3", m.ID, got.base, got.run, base.ID)
		}
		if !got.Time.Equal(m.Time) {
			t.Errorf("%s: time %v, want %v", m.ID, got.Time, m.Time)
		}
		got.Time, got.base, got.run = m.Time, "", 0
		if len(m.Files) == 0 {
			m.Files = []File{}
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%s: read back\n%+v\nwant\n%+v", m.ID, got, m)
		}
	}
}

// TestDeltaNeedsItsOwnBase: a delta read on another manifest than its
// base (same ID, other files), on a delta, or on a partial one, is
// refused; so is one whose base is missing.
func TestDeltaNeedsItsOwnBase(t *testing.T) {
	base := deltaBaseManifest()
	m := *base
	m.ID = "20261204T121212.000000001Z-delta0"
	m.Files = base.Files[1:]
	_, d := roundTripDelta(t, &m, base)
	other := *base
	other.Files = append([]File{{Path: "A.md", Size: 1}}, base.Files...)
	delta := *base
	delta.base = "x"
	partial := *base
	partial.Partial = true
	for name, b := range map[string]*Manifest{"other files": &other, "a delta": &delta, "partial": &partial} {
		if _, err := unmarshalDelta(d, baseLookup(b)); err == nil {
			t.Errorf("read on %s: no error", name)
		}
	}
	if _, err := unmarshalDelta(d, baseLookup(&Manifest{ID: "y"})); err == nil || !strings.Contains(err.Error(), base.ID) {
		t.Errorf("base missing: %v, want an error naming it", err)
	}
}

// TestSnapshotsAreStoredAsDeltas: a journal's snapshots after its first
// are stored as their changes from the newest whole one, at most
// maxDeltaRun on one base; every one reads back as the snapshot took it.
func TestSnapshotsAreStoredAsDeltas(t *testing.T) {
	f := newFixture(t, sampleStore())
	var taken []*Manifest
	for i := range maxDeltaRun + 3 {
		if i > 0 {
			f.write("project_auth.md", strings.Repeat("auth changed\n", i))
		}
		taken = append(taken, f.snap("session-start", "s").Manifest)
	}
	j := mustJournal(t, f)
	kinds := ""
	for _, m := range taken {
		raw, err := os.ReadFile(j.manifestPath(m.ID))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ = zdec().DecodeAll(raw, nil)
		if bytes.HasPrefix(raw, binDeltaMagic) {
			kinds += "d"
		} else {
			kinds += "W"
		}
	}
	if want := "W" + strings.Repeat("d", maxDeltaRun) + "Wd"; kinds != want {
		t.Errorf("stored as %s, want %s (W whole, d delta)", kinds, want)
	}
	ms, bad, err := mustJournal(t, f).manifests()
	if err != nil || len(bad) > 0 || len(ms) != len(taken) {
		t.Fatalf("manifests: %d, bad %v, %v", len(ms), bad, err)
	}
	for i, m := range ms {
		if !reflect.DeepEqual(m.Files, taken[i].Files) || m.ID != taken[i].ID {
			t.Errorf("snapshot %d reads back differently", i)
		}
	}
}

// TestBigChangeIsStoredWhole: a snapshot whose changes are half its
// files or more is stored whole, and is the next ones' base.
func TestBigChangeIsStoredWhole(t *testing.T) {
	f := newFixture(t, sampleStore())
	f.snap("session-start", "s1")
	for p := range sampleStore() {
		f.write(p, "all rewritten "+p+"\n")
	}
	second := f.snap("pre-write", "s1").Manifest
	f.write("project_auth.md", "again\n")
	third := f.snap("pre-write", "s1").Manifest
	if second.base != "" || third.base != second.ID {
		t.Errorf("bases %q, %q; want the rewritten store whole and the next a delta on it", second.base, third.base)
	}
}

// TestPruneRebasesDeltas: prune dropping a whole snapshot first writes
// whole every kept snapshot stored as its changes, which then reads back
// as before, and a later snapshot still deltas and undoes as it should.
func TestPruneRebasesDeltas(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("session-start", "s1").Manifest
	f.write("project_auth.md", "auth v2\n")
	second := f.snap("pre-write", "s1").Manifest
	if second.base != first.ID {
		t.Fatalf("second snapshot's base %q, want %s", second.base, first.ID)
	}
	later := func() time.Time { return time.Now().Add(24 * time.Hour) }
	res, err := RunPrune(context.Background(), PruneRequest{Store: f.store, DataDir: f.data, Now: later,
		Retention: Retention{KeepAll: time.Hour, KeepDaily: time.Hour, MaxBytes: 1 << 30}})
	if err != nil || len(res.Removed) != 1 || res.Removed[0] != first.ID {
		t.Fatalf("prune: %+v, %v; want the first snapshot removed", res, err)
	}
	j := mustJournal(t, f)
	ms, bad, err := j.manifests()
	if err != nil || len(bad) > 0 || len(ms) != 1 || ms[0].base != "" || !reflect.DeepEqual(ms[0].Files, second.Files) {
		t.Fatalf("after prune: %d manifests, bad %v, %v; want the second, whole, as taken", len(ms), bad, err)
	}
	f.write("project_auth.md", "auth v3\n")
	third := f.snap("pre-write", "s1").Manifest
	if third.base != second.ID {
		t.Errorf("third snapshot's base %q, want the rebased %s", third.base, second.ID)
	}
	if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: second.ID, Confirm: yes, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	if got := f.read("project_auth.md"); got != "auth v2\n" {
		t.Errorf("undone to the rebased snapshot: %q", got)
	}
}

// TestDamagedBaseIsNamed: a flipped bit in a whole manifest loses it and
// the deltas on it, each named by history as unread, an undo to one of
// them refuses naming why, and no object is lost: the next snapshot
// starts a new base and an undo to it restores.
func TestDamagedBaseIsNamed(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("session-start", "s1").Manifest
	f.write("project_auth.md", "auth v2\n")
	second := f.snap("pre-write", "s1").Manifest
	j := mustJournal(t, f)
	raw, _ := os.ReadFile(j.manifestPath(first.ID))
	raw[len(raw)/2] ^= 0x10
	os.WriteFile(j.manifestPath(first.ID), raw, 0o600)
	h, err := RunHistory(context.Background(), HistoryRequest{Store: f.store, DataDir: f.data, Now: f.clk.now})
	if err != nil || len(h.Unread) != 2 {
		t.Fatalf("history: unread %v, %v; want both snapshots named", h.Unread, err)
	}
	_, err = RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: second.ID, Confirm: yes, Now: f.clk.now})
	if outcome.StatusOf(err) == outcome.Clean || !strings.Contains(err.Error(), "cannot be read") || !strings.Contains(err.Error(), first.ID) {
		t.Fatalf("undo to a delta on a damaged base: %v, want a refusal naming the base", err)
	}
	third := f.snap("pre-write", "s1").Manifest
	if third.base != "" {
		t.Errorf("the snapshot after a damaged base is a delta on %s", third.base)
	}
	f.write("project_auth.md", "auth v3\n")
	f.snap("pre-write", "s1")
	if _, err := RunUndo(context.Background(), UndoRequest{Store: f.store, DataDir: f.data, To: third.ID, Confirm: yes, Now: f.clk.now}); err != nil {
		t.Fatal(err)
	}
	if got := f.read("project_auth.md"); got != "auth v2\n" {
		t.Errorf("restored %q", got)
	}
}

// FuzzManifestDeltaDecode: the delta decoder never panics on any input,
// and whatever it accepts stores back as a delta that reads the same.
func FuzzManifestDeltaDecode(f *testing.F) {
	base := deltaBaseManifest()
	for _, n := range []int{0, 1, 3} {
		m := *base
		m.ID = "20261204T131313.000000001Z-fuzz00"
		m.Files = append([]File{{Path: "A.md", Digest: strings.Repeat("5", 64), Size: 3}}, base.Files[n:]...)
		m.Files[len(m.Files)-1].ModTime++
		m.Files[0].Hashed++
		whole, _ := marshalManifest(&m)
		d, _ := marshalDelta(&m, base, 1, whole)
		f.Add(d)
	}
	f.Add(append(append([]byte{}, binDeltaMagic...), 1, 1, 'x', 0, 0, 0, 0, 1, 'y', 1, 0, 0, 0, 0, 0xff, 0xff, 0x0f))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := unmarshalDelta(b, baseLookup(base))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && !strings.Contains(err.Error(), "base") {
				t.Fatalf("a missing base not named as such: %v", err)
			}
			return
		}
		got, _ := roundTripDelta(t, m, base)
		got.run = m.run
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("stored again, reads back differently:\n%+v\n%+v", got, m)
		}
	})
}

// TestRenamedManifestIsNoBase: a manifest whose file name is not its ID
// (renamed by hand) is not the base of the next snapshot, which a reader
// could not then find: the next one is stored whole, and reads back.
func TestRenamedManifestIsNoBase(t *testing.T) {
	f := newFixture(t, sampleStore())
	first := f.snap("session-start", "s1").Manifest
	j := mustJournal(t, f)
	if err := os.Rename(j.manifestPath(first.ID), j.manifestPath("20991231T000000.000000000Z-renamed")); err != nil {
		t.Fatal(err)
	}
	f.write("project_auth.md", "auth v2\n")
	second := f.snap("pre-write", "s1").Manifest
	if second.base != "" {
		t.Errorf("stored as a delta on %s, whose file is renamed", second.base)
	}
	ms, bad, err := mustJournal(t, f).manifests()
	if err != nil || len(bad) > 0 || len(ms) != 2 {
		t.Errorf("manifests: %d, unreadable %v, %v", len(ms), bad, err)
	}
}
