package secrets

import "strings"

// keywordIndex finds which of a fixed set of keywords occur in a text in
// one pass. Checking gitleaks' 240-odd keywords one strings.Contains at a
// time reads a 100 KB text 240 times; here each position is tested against
// a bitset of the keywords' first two bytes, and only then compared.
type keywordIndex struct {
	pairs  [65536 / 64]uint64  // bit set for each first-two-bytes pair
	byPair map[uint16][]string // keywords by their first two bytes
	short  []string            // keywords shorter than two bytes
}

func newKeywordIndex(keywords []string) *keywordIndex {
	ki := &keywordIndex{byPair: map[uint16][]string{}}
	for _, k := range keywords {
		if len(k) < 2 {
			ki.short = append(ki.short, k)
			continue
		}
		p := uint16(k[0])<<8 | uint16(k[1])
		ki.pairs[p/64] |= 1 << (p % 64)
		ki.byPair[p] = append(ki.byPair[p], k)
	}
	return ki
}

// present returns the keywords that occur in lower (already lower-cased).
func (ki *keywordIndex) present(lower string) map[string]bool {
	found := make(map[string]bool, 8)
	for _, k := range ki.short {
		if strings.Contains(lower, k) {
			found[k] = true
		}
	}
	for i := 0; i+1 < len(lower); i++ {
		p := uint16(lower[i])<<8 | uint16(lower[i+1])
		if ki.pairs[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, k := range ki.byPair[p] {
			if !found[k] && strings.HasPrefix(lower[i:], k) {
				found[k] = true
			}
		}
	}
	return found
}
