package secrets

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// eagerKeywordPass is the keyword pass as it was before its transitions
// were worked out lazily: the whole DFA filled breadth first, run over the
// text lower-cased. It is the oracle the lazy pass is held to.
type eagerKeywordPass struct {
	class   [256]uint8
	classes int
	next    []uint16
	out     [][]int32
	lens    []int
	rulesOf [][]int
}

func newEagerKeywordPass(rules []*rule) *eagerKeywordPass {
	kp := &eagerKeywordPass{}
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
func (kp *eagerKeywordPass) positions(lower []byte, nrules int) [][]kwHit {
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

func checkKeywordPass(t *testing.T, name, text string) {
	t.Helper()
	rules, kp := allRules()
	want := eagerPass().positions(asciiLower(text), len(rules))
	if got := kp.positions(text, len(rules)); !reflect.DeepEqual(got, want) {
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: rule %s: keyword positions %v, the eager pass finds %v", name, rules[i].id, got[i], want[i])
			}
		}
		t.Fatalf("%s: keyword positions differ", name)
	}
}

var eagerPassOnce *eagerKeywordPass

func eagerPass() *eagerKeywordPass {
	if eagerPassOnce == nil {
		rules, _ := allRules()
		eagerPassOnce = newEagerKeywordPass(rules)
	}
	return eagerPassOnce
}

// TestKeywordPassIsEager proves the lazily built keyword pass finds the
// very positions the fully built one found on the lower-cased text, over
// the real stores, a planted secret of every rule and every keyword in
// both cases.
func TestKeywordPassIsEager(t *testing.T) {
	filepath.WalkDir(testshared.RealStores(t), func(path string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if f, err := textfile.Read(path); err == nil {
				checkKeywordPass(t, path, f.Text)
			}
		}
		return nil
	})
	planted, _ := plantedRuleTexts(t, 2)
	for _, p := range planted {
		checkKeywordPass(t, "planted", p)
	}
	rules, _ := allRules()
	var all []byte
	for _, r := range rules {
		for _, k := range r.keywords {
			all = append(all, k...)
			all = append(all, ' ')
			all = append(all, asciiUpper(k)...)
			all = append(all, k...)
		}
	}
	checkKeywordPass(t, "every keyword", string(all))
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func FuzzKeywordPass(f *testing.F) {
	for _, s := range []string{ghPAT, "API_KEY=abcd1234 and token: Zq8Lw3nRzq8Lw3nR", privKey, "AKIAIOSFODNN7EXAMPLE sk_live_ xoxb- glpat- ÄPI_KEY"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkKeywordPass(t, "fuzz", text)
	})
}

// TestKeywordPassConcurrent: scans that share one freshly built pass, and
// so work out its transitions at the same time, find what one scan alone
// finds (run with -race, it also shows the table is written safely).
func TestKeywordPassConcurrent(t *testing.T) {
	texts := []string{memoryText(8 << 10), ghPAT + "\n" + memoryText(2<<10), "API_KEY=abcd1234 and token: Zq8Lw3nRzq8Lw3nR\n" + privKey}
	want := make([][]Finding, len(texts))
	for i, s := range texts {
		want[i] = Scan(s)
	}
	resetRules()
	got := make([][]Finding, len(texts)*3)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = Scan(texts[i%len(texts)])
		}()
	}
	wg.Wait()
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i%len(texts)]) {
			t.Errorf("scan %d at once with others: %+v, alone: %+v", i, got[i], want[i%len(texts)])
		}
	}
}
