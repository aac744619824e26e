package tiers

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzSplit checks that Split never panics, keeps every byte, is
// deterministic, and returns ordered, disjoint entries outside the preamble
// and the history block, with tiers in range.
func FuzzSplit(f *testing.F) {
	f.Add(diary, "")
	f.Add("# M\n## Compacted History\n- a\n---\n- b\n- c\n", "")
	f.Add("## a\r\nx\r## b\n", "##")
	f.Add("x\n```\n## 2026-01-01\n", "^x")
	f.Fuzz(func(t *testing.T, text, heading string) {
		d, err := Split(text, Options{EntryHeading: heading})
		if err != nil {
			return
		}
		if strings.Join(d.Lines, "") != text {
			t.Fatal("lines do not join to the text")
		}
		d2, _ := Split(text, Options{EntryHeading: heading})
		if !reflect.DeepEqual(d, d2) {
			t.Fatal("not deterministic")
		}
		prev := d.Preamble
		for i, e := range d.Entries {
			if e.Start < prev || e.End <= e.Start || e.End > len(d.Lines) {
				t.Fatalf("entry %d = [%d,%d) after %d of %d lines", i, e.Start, e.End, prev, len(d.Lines))
			}
			if h := d.History; h != nil && e.Start < h.End && h.Start < e.End {
				t.Fatalf("entry %d overlaps the history block", i)
			}
			prev = e.End
		}
		for _, n := range []int{0, 1, 3, 1000} {
			tr := d.Tier(n)
			if tr.MidStart < 0 || tr.MidStart > tr.NewestStart || tr.NewestStart > len(d.Entries) {
				t.Fatalf("Tier(%d) = %+v of %d entries", n, tr, len(d.Entries))
			}
		}
	})
}
