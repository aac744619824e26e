package secrets

// ScanChanged returns the findings Scan(text) reports whose secret lies at
// least partly in text[lo:hi] — the same findings, with the same lines and
// excerpts — while running the patterns only around that range. The
// pre-write hook judges what one edit adds to a large file this way: the
// rest of the file was judged when it was written.
//
// Exactness: the keyword pass still covers the whole text, so every
// pattern sees the very windows Scan gives it; only windows away from the
// range are skipped. The range grows to whole lines and then to every
// finding that touches it, until no finding reaches past it, so every
// hit that overlaps a reported one (which decides which of two overlapping
// hits is reported) and every hit on a reported one's line (which its
// excerpt masks) is found as Scan finds it. Secret sections carry state
// from the start of the text and run over all of it; bare entropy judges
// a line by itself and runs over the range's lines.
func ScanChanged(text string, lo, hi int) []Finding {
	lo, hi = max(lo, 0), min(hi, len(text))
	if lo >= hi {
		return nil
	}
	rules, kp := allRules()
	sc := newScanner(text)
	pos := kp.positions(sc.text, len(rules))
	var whole []hit // secret sections, over the whole text
	for i, r := range rules {
		if r.run == nil && len(pos[i]) > 0 {
			whole = append(whole, sc.scanSections(false, pos[i])...)
			break
		}
	}
	windows := make([][]span, len(rules))
	for i, r := range rules {
		switch {
		case r.run == nil:
		case len(r.keywords) == 0:
			windows[i] = sc.allLines()
		case len(pos[i]) > 0:
			windows[i] = sc.windows(r, pos[i])
		}
	}
	rng := sc.lineSpan(span{lo, hi})
	var hits []hit
	for {
		hits = hits[:0]
		for i, r := range rules {
			for _, w := range windows[i] {
				if w.lo < rng.hi && rng.lo < w.hi {
					hits = sc.keepPrivate(hits, r.run(sc, w.lo, w.hi, false))
				}
			}
		}
		hits = sc.keepPrivate(hits, whole)
		// Bare entropy judges one line at a time: only the range's lines.
		hits = sc.keepPrivate(hits, scanEntropyIn(sc, rng.lo, rng.hi, false))
		grown := rng
		for _, h := range hits {
			if h.start < rng.hi && rng.lo < h.end {
				grown.lo, grown.hi = min(grown.lo, h.start), max(grown.hi, h.end)
			}
		}
		if grown = sc.lineSpan(grown); grown == rng {
			break
		}
		rng = grown
	}
	kept := dedupe(hits)
	all := render(text, kept)
	var out []Finding
	for i, h := range kept {
		if h.start < hi && lo < h.end {
			out = append(out, all[i])
		}
	}
	return out
}

// keepPrivate appends to dst the hits that are not a known public format.
func (sc *scanner) keepPrivate(dst, hs []hit) []hit {
	for _, h := range hs {
		if !sc.public(h) {
			dst = append(dst, h)
		}
	}
	return dst
}

// lineSpan widens s to the whole lines it touches, terminators included.
func (sc *scanner) lineSpan(s span) span {
	first := sc.li.line(s.lo)
	last := sc.li.line(max(s.lo, s.hi-1))
	return span{sc.li.starts[first-1], sc.li.next(last)}
}
