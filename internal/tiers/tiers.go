package tiers

// Tiers are ranges of entry indexes: Oldest [0, MidStart), Mid
// [MidStart, NewestStart), Newest [NewestStart, len(Entries)).
type Tiers struct {
	MidStart, NewestStart int
}

// OldestShare is the share of a file's lines the oldest tier reaches for.
const OldestShare = 0.30

// Tier splits d's entries by the rule in the package doc. newest is the
// policy's newest-tier size; totalLines the file's line count.
func (d *Doc) Tier(newest int) Tiers {
	n := len(d.Entries)
	t := Tiers{NewestStart: max(0, n-max(0, newest))}
	total := len(d.Lines)
	target := (total*3 + 9) / 10 // 30%, rounded up
	cum := 0
	k := 0
	for k < t.NewestStart && cum < target {
		cum += d.Entries[k].Lines()
		k++
	}
	t.MidStart = k
	return t
}
