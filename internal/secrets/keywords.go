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
// table's transitions are worked out the first time the text takes them:
// the full table (about 1,400 states × 77 classes) took 3.6 M instructions
// to fill, paid by every hook process, and a memory file takes a few
// thousand of its transitions.
type keywordPass struct {
	class   [256]uint8
	classes int
	// next is state*classes + class -> 1 + the next state, 0 while not
	// worked out. The trie's own edges are written when the pass is built;
	// the others on first use, atomically, since one pass serves every
	// scan of the process and scans may run at once (two that work out
	// the same transition write the same value).
	next    []uint32
	fail    []uint16  // the state of the longest proper suffix that is a trie state
	out     [][]int32 // state -> keyword indexes ending here
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
	// The trie, in next itself. parent, via and depth order the states
	// breadth first for the fail links.
	kp.next = make([]uint32, maxStates*c)
	kp.out = make([][]int32, 1, maxStates)
	parent := make([]uint16, 1, maxStates)
	via := make([]uint8, 1, maxStates)
	byDepth := [][]uint16{nil}
	n := 1
	for wi, w := range words {
		s := 0
		for i := 0; i < len(w); i++ {
			cl := int(kp.class[w[i]])
			if kp.next[s*c+cl] == 0 {
				kp.next[s*c+cl] = uint32(n) + 1
				kp.out = append(kp.out, nil)
				parent = append(parent, uint16(s))
				via = append(via, uint8(cl))
				if len(byDepth) <= i+1 {
					byDepth = append(byDepth, nil)
				}
				byDepth[i+1] = append(byDepth[i+1], uint16(n))
				n++
			}
			s = int(kp.next[s*c+cl]) - 1
		}
		kp.out[s] = append(kp.out[s], int32(wi))
	}
	kp.next = kp.next[:n*c]
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
	return kp
}

// step returns the state after reading a byte of class cl in state s,
// working the transition out (and recording it) on first use: the trie's
// edge if s has one, else the root's own transition from the root, else
// the transition of s's fail state.
func (kp *keywordPass) step(s, cl int) int {
	at := &kp.next[s*kp.classes+cl]
	if v := atomic.LoadUint32(at); v != 0 {
		return int(v) - 1
	}
	t := 0
	if s != 0 {
		t = kp.step(int(kp.fail[s]), cl)
	}
	atomic.StoreUint32(at, uint32(t)+1)
	return t
}

// positions returns, for each rule, where its keywords occur in text
// (ASCII letters in any case), in increasing order of their end.
func (kp *keywordPass) positions(text string, nrules int) [][]kwHit {
	pos := make([][]kwHit, nrules)
	c := kp.classes
	s := 0
	for i := 0; i < len(text); i++ {
		cl := int(kp.class[text[i]])
		if v := atomic.LoadUint32(&kp.next[s*c+cl]); v != 0 {
			s = int(v) - 1
		} else {
			s = kp.step(s, cl)
		}
		for _, w := range kp.out[s] {
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
