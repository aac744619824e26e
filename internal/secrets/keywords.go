package secrets

import "sync/atomic"

// keywordPass finds, in one pass over the text, where each rule's
// keywords occur. gitleaks runs a rule only when one of its keywords is in
// the text; here the positions are kept too, so a rule's pattern runs only
// around its keywords instead of over the whole text.
//
// It is an Aho-Corasick automaton run as a DFA: one table lookup per byte
// whatever the number of keywords, over an alphabet reduced to the bytes
// the keywords use (every other byte is one class; an ASCII capital is its
// small letter's class, so the text need not be lower-cased first). The
// table's transitions are worked out the first time a text takes them:
// the full table (about 1,400 states × 77 classes) took 3.6 M instructions
// to fill, paid by every hook process, and a memory file takes a few
// thousand of its transitions.
type keywordPass struct {
	class   [256]uint8
	classes int
	// child is the trie: state*classes + class -> the child state, 0 for
	// none (the root is no state's child).
	child []uint16
	fail  []uint16  // the state of the longest proper suffix that is a trie state
	out   [][]int32 // state -> keyword indexes ending here
	// next is the DFA, filled as texts take its transitions: row + class
	// (row is state*classes) -> (1 + the next state's row) << 1, or'd with
	// 1 when keywords end in that state; 0 while not worked out. One pass
	// serves every scan of the process and scans may run at once, so it
	// is read and written atomically (two scans that work out the same
	// transition write the same value).
	next    []uint32
	lens    []int
	rulesOf [][]int // keyword index -> rules it triggers
}

// kwHit is one keyword occurrence: text[start:end].
type kwHit struct{ start, end int }

func newKeywordPass(rules []*rule) *keywordPass {
	kp := &keywordPass{}
	index := map[string]int{}
	var words []string
	for ri, r := range rules {
		for _, k := range r.keywords {
			i, ok := index[k]
			if !ok {
				i = len(words)
				index[k] = i
				words = append(words, k)
				kp.rulesOf = append(kp.rulesOf, nil)
				kp.lens = append(kp.lens, len(k))
			}
			kp.rulesOf[i] = append(kp.rulesOf[i], ri)
		}
	}
	// Byte classes: 0 for bytes no keyword uses. Keywords are lower case,
	// so an ASCII capital takes its small letter's class: the automaton
	// reads the text as if its ASCII letters were lowered.
	kp.classes = 1
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if kp.class[w[i]] == 0 {
				kp.class[w[i]] = uint8(kp.classes)
				kp.classes++
			}
		}
	}
	for b := 'A'; b <= 'Z'; b++ {
		kp.class[b] = kp.class[b+'a'-'A']
	}
	c := kp.classes
	maxStates := 1
	for _, w := range words {
		maxStates += len(w)
	}
	if maxStates > 1<<16 {
		panic("secrets: too many keyword states for a uint16 table") // the rules are built in
	}
	// The trie. parent, via and byDepth order the states breadth first
	// for the fail links.
	kp.child = make([]uint16, maxStates*c)
	kp.out = make([][]int32, 1, maxStates)
	parent := make([]uint16, 1, maxStates)
	via := make([]uint8, 1, maxStates)
	byDepth := [][]uint16{nil}
	n := 1
	for wi, w := range words {
		s := 0
		for i := 0; i < len(w); i++ {
			cl := int(kp.class[w[i]])
			if kp.child[s*c+cl] == 0 {
				kp.child[s*c+cl] = uint16(n)
				kp.out = append(kp.out, nil)
				parent = append(parent, uint16(s))
				via = append(via, uint8(cl))
				if len(byDepth) <= i+1 {
					byDepth = append(byDepth, nil)
				}
				byDepth[i+1] = append(byDepth[i+1], uint16(n))
				n++
			}
			s = int(kp.child[s*c+cl])
		}
		kp.out[s] = append(kp.out[s], int32(wi))
	}
	kp.child = kp.child[:n*c]
	// Fail links, shallowest states first: a state's fail state is
	// shallower, so its link and its outputs are final when read.
	kp.fail = make([]uint16, n)
	for _, states := range byDepth[1:] {
		for _, t := range states {
			if p := parent[t]; p != 0 {
				kp.fail[t] = uint16(kp.step(int(kp.fail[p]), int(via[t])))
			}
			if f := kp.fail[t]; len(kp.out[f]) > 0 {
				kp.out[t] = append(kp.out[t], kp.out[f]...)
			}
		}
	}
	kp.next = make([]uint32, n*c)
	return kp
}

// step returns the state after reading a byte of class cl in state s: the
// trie's edge if s has one, else the root's own transition from the root,
// else the transition of s's fail state.
func (kp *keywordPass) step(s, cl int) int {
	for {
		if t := kp.child[s*kp.classes+cl]; t != 0 {
			return int(t)
		}
		if s == 0 {
			return 0
		}
		s = int(kp.fail[s])
	}
}

// fill works out and records the transition at next[row+cl].
func (kp *keywordPass) fill(row, cl int) uint32 {
	t := kp.step(row/kp.classes, cl)
	v := uint32(t*kp.classes+1) << 1
	if len(kp.out[t]) > 0 {
		v |= 1
	}
	atomic.StoreUint32(&kp.next[row+cl], v)
	return v
}

// positions returns, for each rule, where its keywords occur in text
// (ASCII letters in any case), in increasing order of their end.
func (kp *keywordPass) positions(text string, nrules int) [][]kwHit {
	pos := make([][]kwHit, nrules)
	c := kp.classes
	row := 0 // the state's row in next
	for i := 0; i < len(text); i++ {
		cl := int(kp.class[text[i]])
		v := atomic.LoadUint32(&kp.next[row+cl])
		if v == 0 {
			v = kp.fill(row, cl)
		}
		row = int(v>>1) - 1
		if v&1 == 0 {
			continue
		}
		for _, w := range kp.out[row/c] {
			h := kwHit{i + 1 - kp.lens[w], i + 1}
			for _, ri := range kp.rulesOf[w] {
				p := pos[ri]
				if k := len(p); k > 0 && p[k-1] == h {
					continue
				}
				pos[ri] = append(p, h)
			}
		}
	}
	return pos
}

// asciiLower lower-cases ASCII letters only, so every byte offset in the
// result is the same offset in s (strings.ToLower can change lengths).
// gitleaks' keywords are ASCII.
func asciiLower(s string) []byte {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return b
}
