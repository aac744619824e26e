package lazyre

import "testing"

func TestNewCompilesOnceOnFirstUse(t *testing.T) {
	re := New(`^a+b$`)
	first := re()
	if !first.MatchString("aab") || first.MatchString("ba") {
		t.Fatalf("pattern %q matched wrongly", first)
	}
	if re() != first {
		t.Fatal("a second call compiled the pattern again")
	}
}

func TestNewPanicsOnABadPatternWhenUsed(t *testing.T) {
	re := New(`(`) // must not panic here: nothing is compiled yet
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic on first use")
		}
	}()
	re()
}
