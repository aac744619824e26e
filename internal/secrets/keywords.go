package secrets

// keywordPass finds, in one pass over the text, where each rule's
// keywords occur. gitleaks runs a rule only when one of its keywords is in
// the text; here the positions are kept too, so a rule's pattern runs only
// around its keywords instead of over the whole text.
//
// It is an Aho-Corasick automaton compiled to a DFA: one table lookup per
// byte whatever the number of keywords, over an alphabet reduced to the
// bytes the keywords use (every other byte is one class), so the table
// stays small (states × classes).
type keywordPass struct {
	class   [256]uint8
	classes int
	next    []uint16  // state*classes + class -> state
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
	// Byte classes: 0 for bytes no keyword uses.
	kp.classes = 1
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if kp.class[w[i]] == 0 {
				kp.class[w[i]] = uint8(kp.classes)
				kp.classes++
			}
		}
	}
	// The trie: goto_[state*c+class] is the child state, 0 for none (the
	// root is no state's child). Its capacity is the most states the words
	// can make, so building it neither copies nor leaves garbage, and each
	// state's row is written (zeros appended) as the state is made, before
	// any read of it: fresh memory a process reads first and writes after
	// costs it two page faults and, with its threads on two processors, a
	// flush of the other's address cache.
	c := kp.classes
	maxStates := 1
	for _, w := range words {
		maxStates += len(w)
	}
	if maxStates > 1<<16 {
		panic("secrets: too many keyword states for a uint16 table") // the rules are built in
	}
	zeros := make([]uint16, c)
	goto_ := append(make([]uint16, 0, maxStates*c), zeros...)
	kp.out = make([][]int32, 1, maxStates)
	n := 1
	for wi, w := range words {
		s := 0
		for i := 0; i < len(w); i++ {
			cl := int(kp.class[w[i]])
			if goto_[s*c+cl] == 0 {
				goto_[s*c+cl] = uint16(n)
				goto_ = append(goto_, zeros...)
				kp.out = append(kp.out, nil)
				n++
			}
			s = int(goto_[s*c+cl])
		}
		kp.out[s] = append(kp.out[s], int32(wi))
	}
	// Breadth-first: fail links folded into a full transition table.
	kp.next = make([]uint16, n*c)
	fail := make([]uint16, n)
	clear(fail) // written before it is read (see goto_)
	queue := make([]uint16, 0, n)
	for cl := range c {
		if t := goto_[cl]; t != 0 {
			kp.next[cl] = t
			queue = append(queue, t)
		}
	}
	for k := 0; k < len(queue); k++ {
		s := int(queue[k])
		kp.out[s] = append(kp.out[s], kp.out[fail[s]]...)
		for cl := range c {
			t := goto_[s*c+cl]
			if t == 0 {
				kp.next[s*c+cl] = kp.next[int(fail[s])*c+cl]
				continue
			}
			kp.next[s*c+cl] = t
			fail[t] = kp.next[int(fail[s])*c+cl]
			queue = append(queue, t)
		}
	}
	return kp
}

// positions returns, for each rule, where its keywords occur in lower
// (the text with ASCII letters lower-cased, so offsets match the text),
// in increasing order of their end.
func (kp *keywordPass) positions(lower []byte, nrules int) [][]kwHit {
	pos := make([][]kwHit, nrules)
	c := kp.classes
	s := 0
	for i, b := range lower {
		s = int(kp.next[s*c+int(kp.class[b])])
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
