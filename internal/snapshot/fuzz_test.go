package snapshot

import (
	"bytes"
	"testing"
)

// FuzzDelta: any two files round-trip through a delta exactly, and any
// bytes read as a delta neither panic nor rebuild to anything but their
// digest.
func FuzzDelta(f *testing.F) {
	f.Add([]byte("# A\n\n- one\n"), []byte("# A\n\n- one\n- two\n"))
	f.Add([]byte("a\r\nb"), []byte("b\r\na"))
	f.Add([]byte("- 2026-01 — 3 entries: A; B; C.\n"), []byte("- 2026-01 — 4 entries: A; B; C; D.\n"))
	f.Add([]byte(""), []byte("<!-- memcompact delta 1 of a-2026-01-01.md, rebuilt whole by restore: x -->\n"))
	f.Fuzz(func(t *testing.T, base, data []byte) {
		enc := encodeDelta("a-2026-01-01.md", base, data)
		d, ok := parseDelta(enc)
		if !ok {
			t.Fatalf("a delta written does not parse:\n%q", enc)
		}
		got, err := d.apply(base)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("rebuilt %q (%v), want %q", got, err, data)
		}
		if d, ok := parseDelta(data); ok {
			if out, err := d.apply(base); err == nil && len(out) != d.size {
				t.Fatalf("a parsed delta rebuilt %d bytes, not its %d", len(out), d.size)
			}
		}
	})
}
