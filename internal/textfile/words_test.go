package textfile

import "testing"

func TestFormatting(t *testing.T) {
	for n, want := range map[int]string{0: "0", 800: "800", 1457: "1,457", 24978: "24,978", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := N0(n); got != want {
			t.Errorf("N0(%d) = %q", n, got)
		}
	}
	for f, want := range map[float64]string{0.8: "0.80", 1: "1.00", 0.75: "0.75", 0.125: "0.13", 0.005: "0.01", 0.994: "0.99", 0.995: "1.00", 1e-9: "0.00"} {
		if got := Fixed2(f); got != want {
			t.Errorf("Fixed2(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestPluralAndCount(t *testing.T) {
	if Plural(1, "entry", "entries") != "entry" || Plural(0, "entry", "entries") != "entries" {
		t.Error("Plural")
	}
	if Count(1, "file") != "1 file" || Count(3, "file") != "3 files" || Count(0, "orphan") != "0 orphans" {
		t.Error("Count")
	}
}
