package journal

import (
	"bytes"
	"slices"
	"sort"
	"strconv"

	"github.com/memcompact/memcompact/internal/textfile"
)

// encodePackV2 lays objs out in pack format 2, sorted by digest.
func encodePackV2(objs []packObject) []byte {
	return bytes.Join(packLayout2(objs), nil)
}

// packLayout2 is a format-2 pack of objs (what journals written
// before format 3 hold) as the parts it is written from, in order:
// the table, then each object's frame (its bytes not copied when stored
// as they are: a first snapshot of a large store would otherwise hold
// every byte twice more).
func packLayout2(objs []packObject) [][]byte {
	objs = append([]packObject(nil), objs...)
	sort.Slice(objs, func(a, b int) bool { return objs[a].digest < objs[b].digest })
	objs = slices.CompactFunc(objs, func(a, b packObject) bool { return a.digest == b.digest }) // one frame a digest
	frames := make([][][]byte, len(objs))
	each(recordWorkers, len(objs), func(k int) bool {
		frames[k] = encodeFrame(objs[k].digest, objs[k].data)
		return true
	})
	var head bytes.Buffer
	head.WriteString(packMagic2 + " " + strconv.Itoa(len(objs)) + "\n")
	var off int64
	for i, o := range objs {
		var n int
		for _, part := range frames[i] {
			n += len(part)
		}
		head.WriteString(o.digest + " " + strconv.FormatInt(off, 10) + " " + strconv.Itoa(n) + "\n")
		off += int64(n)
	}
	head.WriteString("sum " + textfile.Digest(head.Bytes()) + "\n\n")
	parts := make([][]byte, 0, 3*len(objs)+1)
	parts = append(parts, head.Bytes())
	for _, f := range frames {
		parts = append(parts, f...)
	}
	return parts
}
