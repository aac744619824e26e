package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func sampleManifest() *Manifest {
	return &Manifest{Version: manifestVersion, ID: "20261204T101010.000000001Z-abcdef", Time: time.Unix(0, 1796000000123456789),
		Cause: "session-start", Session: "s-1", Store: "/home/u/.claude/projects/p/memory", Partial: true,
		Files: []File{
			{Path: "MEMORY.md", Digest: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Size: 120, ModTime: 1700000000000000001, Ctime: 1700000000000000002, Ino: 77, Hashed: 1700000009000000000},
			{Path: "feedback_a.md", Digest: "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752", Size: 5, ModTime: -3},
			{Path: "feedback_b.md", Size: 1 << 40, Withheld: "too-large"},
			{Path: "sub/ñame with space.md", Digest: "not-hex-but-kept", Withheld: "secret"},
		}}
}

// TestBinaryManifestRoundTrip: every field of a manifest survives the
// binary layout, as stored (compressed) and read back.
func TestBinaryManifestRoundTrip(t *testing.T) {
	for _, m := range []*Manifest{sampleManifest(), {Version: manifestVersion, ID: "x", Time: time.Unix(0, 0)}} {
		raw, err := encodeManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), m.ID+".json")
		os.WriteFile(path, raw, 0o644)
		got, err := (&Journal{}).decodeManifest(path)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Time.Equal(m.Time) {
			t.Errorf("time %v, want %v", got.Time, m.Time)
		}
		got.Time = m.Time
		if len(m.Files) == 0 {
			m.Files = []File{}
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("read back\n%+v\nwant\n%+v", got, m)
		}
	}
}

// TestOldManifestsStillRead: a manifest an older memcompact wrote, plain
// JSON or compressed JSON, reads as it always did.
func TestOldManifestsStillRead(t *testing.T) {
	m := sampleManifest()
	js, _ := json.Marshal(m)
	for name, raw := range map[string][]byte{"plain": js, "compressed": zenc().EncodeAll(js, nil)} {
		path := filepath.Join(t.TempDir(), m.ID+".json")
		os.WriteFile(path, raw, 0o644)
		got, err := (&Journal{}).decodeManifest(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Files, m.Files) || got.ID != m.ID || !got.Partial {
			t.Errorf("%s: read back %+v", name, got)
		}
	}
}

// TestJournalWithOldManifestsGoesOn: a journal whose snapshots were
// written as JSON is trusted by the next snapshot (nothing read again) and
// history compares across the change of format.
func TestJournalWithOldManifestsGoesOn(t *testing.T) {
	f := newFixture(t, sampleStore())
	if _, err := Snapshot(context.Background(), SnapshotRequest{Store: f.store, DataDir: f.data, Cause: "test"}); err != nil {
		t.Fatal(err)
	}
	j := mustJournal(t, f)
	old, _ := j.latest()
	js, _ := json.Marshal(old)
	os.WriteFile(j.manifestPath(old.ID), js, 0o644) // as an older memcompact left it
	j2 := mustJournal(t, f)
	res, err := Snapshot(context.Background(), SnapshotRequest{Store: f.store, DataDir: f.data, Cause: "test"})
	if err != nil || !res.Unchanged || res.Read != 0 {
		t.Fatalf("snapshot over a JSON manifest: %+v, %v; want unchanged, nothing read", res, err)
	}
	if m, err := j2.latest(); err != nil || m.ID != old.ID {
		t.Fatalf("latest %v, %v", m, err)
	}
}

// TestBinaryManifestRefusesUnsorted: a manifest whose files are out of
// order (File's binary search would miss them) is never written.
func TestBinaryManifestRefusesUnsorted(t *testing.T) {
	m := sampleManifest()
	m.Files[0], m.Files[1] = m.Files[1], m.Files[0]
	if _, err := marshalManifest(m); err == nil {
		t.Fatal("an unsorted manifest was encoded")
	}
}

// FuzzManifestDecode: the binary decoder never panics on any input, and
// whatever it accepts encodes back to the same bytes (the layout has one
// encoding of each manifest).
func FuzzManifestDecode(f *testing.F) {
	raw, _ := marshalManifest(sampleManifest())
	f.Add(raw)
	empty, _ := marshalManifest(&Manifest{Version: manifestVersion, ID: "x"})
	f.Add(empty)
	f.Add(raw[:len(raw)/2])
	f.Add(append(append([]byte{}, binManifestMagic...), 1, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := unmarshalManifest(b)
		if err != nil {
			return
		}
		again, err := marshalManifest(m)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		if !bytes.Equal(again, b) {
			// Varints have one shortest form; a longer one decodes but
			// re-encodes shorter. Compare the manifests instead.
			m2, err := unmarshalManifest(again)
			if err != nil || !reflect.DeepEqual(m2, m) {
				t.Fatalf("re-encoded manifest differs: %v", err)
			}
		}
	})
}

// BenchmarkManifestDecode: a 100,000-file manifest, as the newest
// snapshot of a large store is read at every session start.
func BenchmarkManifestDecode(b *testing.B) {
	m := &Manifest{Version: manifestVersion, ID: "x", Time: time.Now()}
	for i := range 100000 {
		m.Files = append(m.Files, File{Path: fmt.Sprintf("dir_%02d/entry_%06d.md", i/5000, i), Digest: fmt.Sprintf("%064x", i*7919), Size: 300, ModTime: 1700000000000000000 + int64(i), Ctime: 1700000000000000000 + int64(i), Ino: uint64(1000 + i), Hashed: 1700000100000000000})
	}
	js, _ := json.Marshal(m)
	jsz := zenc().EncodeAll(js, nil)
	bin, _ := encodeManifest(m)
	dir := b.TempDir()
	for name, raw := range map[string][]byte{"json": jsz, "binary": bin} {
		path := filepath.Join(dir, name+".json")
		os.WriteFile(path, raw, 0o644)
		b.Run(name, func(b *testing.B) {
			b.ReportMetric(float64(len(raw)), "stored-bytes")
			for i := 0; i < b.N; i++ {
				if _, err := (&Journal{}).decodeManifest(path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// A snapshot after it, one file changed, stored as a delta: read with
	// its base decoded already, as every reader of the journal has it.
	next := *m
	next.ID = "y"
	next.Files = append([]File(nil), m.Files...)
	next.Files[500].Digest, next.Files[500].Size = fmt.Sprintf("%064x", 1), 301
	whole, _ := marshalManifest(&next)
	d, _ := marshalDelta(&next, m, 1, whole)
	b.Run("delta", func(b *testing.B) {
		b.ReportMetric(float64(len(zenc().EncodeAll(d, nil))), "stored-bytes")
		for i := 0; i < b.N; i++ {
			if _, err := unmarshalDelta(d, baseLookup(m)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode-binary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := encodeManifest(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
