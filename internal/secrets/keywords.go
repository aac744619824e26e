package secrets

import (
	"bytes"
	"slices"
)

// keywordPass finds, in one pass over the text, where each rule's
// keywords occur. gitleaks runs a rule only when one of its keywords is in
// the text; here the positions are kept too, so a rule's pattern runs only
// around its keywords instead of over the whole text.
//
// It is an Aho-Corasick automaton walked over its trie and fail links,
// over an alphabet reduced to the bytes the keywords use (every other byte
// is one class; an ASCII capital is its small letter's class, so the text
// need not be lower-cased first). It was a DFA, its transitions first
// filled whole (1,400 states × 77 classes, 3.6 M instructions a process)
// and then as texts took them: a hook process still touched a hundred
// pages of that table, each a page fault, for a few thousand transitions.
type keywordPass struct {
	class   [256]uint8
	classes int
	// The trie, its states numbered breadth first. A state's children
	// are the states kids[s] to kids[s]+nkids[s]-1, each reached by its
	// byte class via.
	kids  []uint16
	nkids []uint8
	via   []uint8
	fail  []uint16 // the state of the longest proper suffix that is a trie state
	// The keyword indexes ending in state s are words[outAt[s]:outAt[s+1]].
	outAt []uint16
	words []int32
	// shallow is the transitions of the root and the states one byte
	// deep, looked up, state*classes + class: most bytes of a text are
	// read in one of these states.
	shallow []uint16
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
	maxStates := 1
	for _, w := range words {
		maxStates += len(w)
	}
	if maxStates > 1<<16 {
		panic("secrets: too many keyword states for a uint16 table") // the rules are built in
	}
	ends := kp.buildTrie(words, maxStates)
	// The root's row first: the fail links are worked out through it.
	c := kp.classes
	kp.shallow = make([]uint16, (1+int(kp.nkids[0]))*c)
	for t := int(kp.kids[0]); t < int(kp.kids[0])+int(kp.nkids[0]); t++ {
		kp.shallow[kp.via[t]] = uint16(t)
	}
	kp.link(ends)
	for s := 1; s <= int(kp.nkids[0]); s++ {
		for cl := range c {
			kp.shallow[s*c+cl] = uint16(kp.step(s, cl))
		}
	}
	return kp
}

// buildTrie builds the trie of words breadth first and returns, for each
// state, the keyword ending there (-1 for none). The words, as class
// sequences, are sorted, so at every depth the words sharing a prefix lie
// together: each new prefix met in order is the next state, and a state's
// children are numbered one after another.
func (kp *keywordPass) buildTrie(words []string, maxStates int) (ends []int32) {
	seq := make([][]byte, len(words))
	order := make([]int, len(words))
	for i, w := range words {
		seq[i] = make([]byte, len(w))
		for j := 0; j < len(w); j++ {
			seq[i][j] = kp.class[w[j]]
		}
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare(seq[a], seq[b]) })
	kp.kids = make([]uint16, 1, maxStates)
	kp.nkids = make([]uint8, 1, maxStates)
	kp.via = make([]uint8, 1, maxStates)
	ends = make([]int32, 1, maxStates)
	ends[0] = -1
	at := make([]uint16, len(words)) // each word's state at the depth reached
	for depth := 0; ; depth++ {
		grew := false
		var lastParent uint16
		var lastClass uint8
		for _, w := range order {
			if len(seq[w]) <= depth {
				continue
			}
			p, cl := at[w], seq[w][depth]
			if !grew || p != lastParent || cl != lastClass {
				if kp.nkids[p] == 0 {
					kp.kids[p] = uint16(len(kp.via))
				}
				kp.nkids[p]++
				kp.kids = append(kp.kids, 0)
				kp.nkids = append(kp.nkids, 0)
				kp.via = append(kp.via, cl)
				ends = append(ends, -1)
				grew, lastParent, lastClass = true, p, cl
			}
			at[w] = uint16(len(kp.via) - 1)
			if len(seq[w]) == depth+1 {
				ends[at[w]] = int32(w)
			}
		}
		if !grew {
			return ends
		}
	}
}

// link works out the fail links and the outputs, states in order: a
// state's fail state is shallower, so numbered before it, and its link
// and outputs are final when read.
func (kp *keywordPass) link(ends []int32) {
	n := len(kp.via)
	kp.fail = make([]uint16, n)
	parent := make([]uint16, n)
	for s := range n {
		for t := int(kp.kids[s]); t < int(kp.kids[s])+int(kp.nkids[s]); t++ {
			parent[t] = uint16(s)
		}
	}
	kp.outAt = make([]uint16, n+1)
	for t := range n {
		if p := parent[t]; t > 0 && p != 0 {
			kp.fail[t] = uint16(kp.step(int(kp.fail[p]), int(kp.via[t])))
		}
		if ends[t] >= 0 {
			kp.words = append(kp.words, ends[t])
		}
		if t > 0 {
			f := kp.fail[t]
			kp.words = append(kp.words, kp.words[kp.outAt[f]:kp.outAt[f+1]]...)
		}
		kp.outAt[t+1] = uint16(len(kp.words))
	}
}

// out is the keyword indexes ending in state s.
func (kp *keywordPass) out(s int) []int32 { return kp.words[kp.outAt[s]:kp.outAt[s+1]] }

// step returns the state after reading a byte of class cl in state s: the
// trie's edge if s has one, else the transition of s's fail state, down to
// the root's, which is looked up (states are numbered breadth first, so
// the root's children are the states 1 to nkids[0]). A memory file's bytes mostly leave the
// root or a shallow state at once, so the walk costs a few steps a byte
// and touches only the trie (a full transition table is 1,400 states ×
// 77 classes, most of it never read).
func (kp *keywordPass) step(s, cl int) int {
	for s != 0 {
		for t := int(kp.kids[s]); t < int(kp.kids[s])+int(kp.nkids[s]); t++ {
			if int(kp.via[t]) == cl {
				return t
			}
		}
		s = int(kp.fail[s])
	}
	return int(kp.shallow[cl])
}

// positions returns, for each rule, where its keywords occur in text
// (ASCII letters in any case), in increasing order of their end.
func (kp *keywordPass) positions(text string, nrules int) [][]kwHit {
	pos := make([][]kwHit, nrules)
	c, shallow := kp.classes, len(kp.shallow)/kp.classes
	s := 0
	for i := 0; i < len(text); i++ {
		if cl := int(kp.class[text[i]]); s < shallow {
			s = int(kp.shallow[s*c+cl])
		} else {
			s = kp.step(s, cl)
		}
		if kp.outAt[s+1] == kp.outAt[s] {
			continue
		}
		for _, w := range kp.out(s) {
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
