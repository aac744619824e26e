package distill

// Kinds of statement the built-in summarizer counts, in the order it
// drops them under pressure: chatter and repeats first, then the
// superseded side of a reversal and code (both stay in the snapshot),
// then plain observations; priority facts (health and safety, a person's
// attributes) and decisions, instructions and preferences stay at every
// level.
const (
	KindChatter     = "chatter"
	KindDuplicate   = "duplicate"
	KindSuperseded  = "superseded"
	KindCode        = "code"
	KindObservation = "observation"
	KindDecision    = "decision"
	KindPriority    = "priority"
)

// StatKinds are the kinds in the order a report lists them.
var StatKinds = []string{KindPriority, KindDecision, KindObservation, KindCode, KindSuperseded, KindDuplicate, KindChatter}

// Stats counts the statements of a tier kept in the live file and
// dropped from it (they stay in the snapshot), by kind.
type Stats struct {
	Kept    map[string]int
	Dropped map[string]int
}

func (s *Stats) keep(kind string, n int) {
	if n <= 0 {
		return
	}
	if s.Kept == nil {
		s.Kept = map[string]int{}
	}
	s.Kept[kind] += n
}

func (s *Stats) drop(kind string, n int) {
	if n <= 0 {
		return
	}
	if s.Dropped == nil {
		s.Dropped = map[string]int{}
	}
	s.Dropped[kind] += n
}

// kindOf is the kind of part p.
func kindOf(p *part) string {
	switch {
	case p.code:
		return KindCode
	case p.sup != "":
		return KindSuperseded
	case p.prio:
		return KindPriority
	case p.keep:
		return KindDecision
	}
	return KindObservation
}

// headKind is the kind of a list item's own statement.
func headKind(it *item) string {
	switch {
	case it.sup != "":
		return KindSuperseded
	case it.prio:
		return KindPriority
	case it.keep:
		return KindDecision
	}
	return KindObservation
}
