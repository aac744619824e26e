package journal

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/memcompact/memcompact/internal/textfile"
)

// A frame is how the journal stores one loose object's bytes, and each
// object of a format-2 pack (a format-3 pack stores its objects in
// groups, group.go): a header line "MCOBJ2 DIGEST ENC STORED RAW", the
// stored bytes (ENC "z": zstd-compressed, "r": as they are), and a
// newline. The frame names
// its own digest, so an object can be found and checked without any
// table: a pack whose table is damaged is read by scanning for frames
// (scanFrames), as restic rebuilds an index from its packs' contents; and
// a frame whose header is damaged is still read from where its pack's
// table says it lies (salvageFrame). A loose object is one frame in a
// file of its own (older journals' raw loose objects are still read).
const frameMagic = "MCOBJ2 "

// frameHeadMax bounds a frame's header line: magic, digest, encoding and
// two sizes.
const frameHeadMax = len(frameMagic) + 64 + 3 + 2*21 + 1

// maxObject bounds an object's decoded size: no memory file comes near
// it (a larger one is withheld), so a frame claiming more is damaged.
const maxObject = 1 << 30

var (
	zenc = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
		if err != nil {
			panic(err) // only for invalid options: a broken build
		}
		return e
	})
	zdec = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(4), zstd.WithDecoderMaxMemory(maxObject))
		if err != nil {
			panic(err)
		}
		return d
	})
)

// encodeFrame frames data (of digest), compressed when that is smaller:
// the header and the stored bytes, then the closing newline, as parts.
func encodeFrame(digest string, data []byte) [][]byte {
	enc, stored := "r", data
	if len(data) >= 64 {
		if z := zenc().EncodeAll(data, nil); len(z) < len(data) {
			enc, stored = "z", z
		}
	}
	head := frameMagic + digest + " " + enc + " " + strconv.Itoa(len(stored)) + " " + strconv.Itoa(len(data)) + "\n"
	return [][]byte{[]byte(head), stored, []byte("\n")}
}

// frameBytes is encodeFrame joined.
func frameBytes(digest string, data []byte) []byte {
	return bytes.Join(encodeFrame(digest, data), nil)
}

// frameHead is a parsed frame header.
type frameHead struct {
	digest      string
	enc         byte
	stored, raw int64
	headLen     int
}

// parseFrameHead parses the header at the start of b.
func parseFrameHead(b []byte) (frameHead, bool) {
	if !bytes.HasPrefix(b, []byte(frameMagic)) {
		return frameHead{}, false
	}
	end := bytes.IndexByte(b[:min(len(b), frameHeadMax)], '\n')
	if end < 0 {
		return frameHead{}, false
	}
	f := strings.Split(string(b[len(frameMagic):end]), " ")
	if len(f) != 4 || !textfile.IsDigest(f[0]) || len(f[1]) != 1 || (f[1] != "z" && f[1] != "r") {
		return frameHead{}, false
	}
	stored, err1 := strconv.ParseInt(f[2], 10, 64)
	raw, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || stored < 0 || raw < 0 || raw > maxObject || f[2] != strconv.FormatInt(stored, 10) {
		return frameHead{}, false
	}
	return frameHead{digest: f[0], enc: f[1][0], stored: stored, raw: raw, headLen: end + 1}, true
}

// decodeFrame returns the object framed at the start of b, checked
// against its digest (and against want, unless ""), and the frame's
// length; an error naming what is wrong.
func decodeFrame(b []byte, want string) ([]byte, int64, error) {
	h, ok := parseFrameHead(b)
	if !ok {
		return nil, 0, fmt.Errorf("no frame header")
	}
	if want != "" && h.digest != want {
		return nil, 0, fmt.Errorf("the frame holds object %s", h.digest[:12])
	}
	n := int64(h.headLen) + h.stored + 1
	if n > int64(len(b)) {
		return nil, 0, fmt.Errorf("the frame is cut short")
	}
	if b[n-1] != '\n' {
		return nil, 0, fmt.Errorf("the frame does not end where its header says")
	}
	data, err := unframe(h.enc, b[h.headLen:n-1], h.raw)
	if err != nil {
		return nil, 0, err
	}
	if textfile.Digest(data) != h.digest {
		return nil, 0, fmt.Errorf("its bytes do not match their digest")
	}
	return data, n, nil
}

// unframe decodes stored bytes of encoding enc, expecting raw bytes.
func unframe(enc byte, stored []byte, raw int64) ([]byte, error) {
	if enc == 'r' {
		return stored, nil
	}
	// raw is what a header claims: a damaged one could claim a
	// gigabyte, so the buffer only starts at what the bytes can hold.
	data, err := zdec().DecodeAll(stored, make([]byte, 0, min(raw, int64(len(stored))*8+4096)))
	if err != nil {
		return nil, fmt.Errorf("its compressed bytes do not decode (%v)", err)
	}
	return data, nil
}

// salvageFrame reads the object want from b, a whole frame whose bounds
// are known from elsewhere (a pack's table) but whose header may be
// damaged (its newline too): the stored bytes are tried at each length
// the header could have, decoded either way, checked against want.
func salvageFrame(b []byte, want string) ([]byte, bool) {
	if len(b) < 2 || b[len(b)-1] != '\n' {
		return nil, false
	}
	shortest := len(frameMagic) + 64 + 3 + 2 + 1
	for head := shortest; head <= min(frameHeadMax, len(b)-1); head++ {
		stored := b[head : len(b)-1]
		if len(stored) >= 4 && bytes.HasPrefix(stored, zstdMagic) {
			if data, err := unframe('z', stored, int64(len(stored))*4); err == nil && textfile.Digest(data) == want {
				return data, true
			}
		}
		if textfile.Digest(stored) == want {
			return stored, true
		}
	}
	return nil, false
}

// zstdMagic begins every zstd frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// scanFrames finds every whole frame in b: where it begins and how long
// it is, by digest. A frame that does not decode to its digest is not
// found; a digest framed twice is found at its first whole frame.
func scanFrames(b []byte) map[string]packEntry {
	out := map[string]packEntry{}
	for off := 0; off < len(b); {
		i := bytes.Index(b[off:], []byte(frameMagic))
		if i < 0 {
			break
		}
		at := off + i
		if h, ok := parseFrameHead(b[at:]); ok {
			if _, n, err := decodeFrame(b[at:], ""); err == nil {
				if _, dup := out[h.digest]; !dup {
					out[h.digest] = packEntry{off: int64(at), size: n}
				}
				off = at + int(n)
				continue
			}
		}
		off = at + 1
	}
	return out
}

// decodeLoose returns a loose object's bytes checked against digest: a
// frame, or (an older journal's) the bytes themselves.
func decodeLoose(raw []byte, digest string) ([]byte, error) {
	if textfile.Digest(raw) == digest {
		return raw, nil
	}
	data, _, err := decodeFrame(raw, digest)
	if err != nil {
		return nil, fmt.Errorf("journal object %s is corrupt (%v)", digest[:12], err)
	}
	return data, nil
}
