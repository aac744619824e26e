package filecache

import (
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"testing"
)

// sampleFile has one of everything the encoding holds, with values at the
// edges (negative times, the widest numbers, empty and non-ASCII strings).
func sampleFile() *cacheFile {
	return &cacheFile{
		Version: "4 secrets v7",
		Records: map[string]Record{
			"/m/MEMORY.md": {Stamp: Stamp{Size: 19_000, Mtime: 1_764_000_000_123_456_789, Ctime: -1, Ino: 1<<64 - 1, Dev: 2049, Mode: 0o644}, Digest: Sum([]byte("x")), Recorded: 42, Data: []byte(`{"findings":[]}`)},
			"/m/über.md":   {Digest: "", Data: nil},
		},
		Memos: map[string]memo{
			"reach 3000": {Inputs: map[string]Stamp{"/m/a.md": {Absent: true}, "/m/b.md": {Size: 1, Mode: 1<<32 - 1}}, Recorded: -7, Data: []byte("12")},
			"":           {Inputs: map[string]Stamp{}},
		},
	}
}

// same reports whether two files hold the same content, counting a nil
// and an empty byte slice or map alike (the encoding does not tell them
// apart, and no caller does either).
func same(a, b *cacheFile) bool {
	return reflect.DeepEqual(encode(a), encode(b))
}

func TestCodecRoundTrip(t *testing.T) {
	for name, f := range map[string]*cacheFile{
		"sample": sampleFile(),
		"empty":  {Records: map[string]Record{}, Memos: map[string]memo{}},
	} {
		b := encode(f)
		got, ok := decode(b)
		if !ok {
			t.Fatalf("%s: its own encoding was rejected", name)
		}
		if got.Version != f.Version || len(got.Records) != len(f.Records) || len(got.Memos) != len(f.Memos) || !same(&got, f) {
			t.Errorf("%s: round trip changed the content:\n got %+v\nwant %+v", name, got, *f)
		}
		if r, ok := got.Records["/m/MEMORY.md"]; ok && (r.Stamp != f.Records["/m/MEMORY.md"].Stamp || string(r.Data) != `{"findings":[]}`) {
			t.Errorf("%s: record read back as %+v", name, r)
		}
	}
}

// TestCodecRejectsDamage: every truncation and every single flipped bit of
// a valid file is rejected, never read as another content.
func TestCodecRejectsDamage(t *testing.T) {
	b := encode(sampleFile())
	for n := range len(b) {
		if _, ok := decode(b[:n]); ok {
			t.Errorf("the file cut to %d of %d bytes was accepted", n, len(b))
		}
	}
	if _, ok := decode(append(append([]byte{}, b...), 0)); ok {
		t.Error("a file with a byte after its checksum was accepted")
	}
	for i := range len(b) {
		for bit := range 8 {
			d := append([]byte{}, b...)
			d[i] ^= 1 << bit
			if _, ok := decode(d); ok {
				t.Errorf("a flip of bit %d of byte %d was accepted", bit, i)
			}
		}
	}
}

// withSum is body behind the magic, with its valid checksum: what a fuzzer
// cannot find on its own.
func withSum(body []byte) []byte {
	b := append([]byte(magic), body...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// FuzzDecodeBody: bytes that pass the magic and the checksum but are
// otherwise anything either decode to a content that survives its own
// round trip, or are rejected leaving nothing behind; none panics or
// allocates beyond its size.
func FuzzDecodeBody(f *testing.F) {
	good := encode(sampleFile())
	f.Add(good[len(magic) : len(good)-4])
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{1, 'v', 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, body []byte) {
		got, ok := decode(withSum(body))
		if !ok {
			if got.Version != "" || got.Records != nil || got.Memos != nil {
				t.Errorf("a rejected file left data behind: %+v", got)
			}
			return
		}
		again, ok := decode(encode(&got))
		if !ok || !same(&again, &got) {
			t.Errorf("the decoded content does not survive a round trip: %+v", got)
		}
	})
}
