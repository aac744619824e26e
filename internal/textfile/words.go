package textfile

import (
	"math/big"
	"strconv"
	"strings"
)

// The number and word forms every report prints, kept in one place so two
// verbs never word the same count two ways.

// N0 formats n with a comma every three digits: 24978 is "24,978".
func N0(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Fixed2 formats f with exactly two decimals the way .NET's "0.00" custom
// format does: the value is first taken to 15 significant digits, then
// rounded half away from zero, so 0.125 is "0.13" (Go's own formatting
// rounds the binary value half to even and would print "0.12").
func Fixed2(f float64) string {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'e', 14, 64))
	if !ok {
		return strconv.FormatFloat(f, 'f', 2, 64)
	}
	neg := r.Sign() < 0
	r.Abs(r)
	r.Mul(r, big.NewRat(100, 1))
	r.Add(r, big.NewRat(1, 2))
	n := new(big.Int).Quo(r.Num(), r.Denom())
	s := n.String()
	for len(s) < 3 {
		s = "0" + s
	}
	out := s[:len(s)-2] + "." + s[len(s)-2:]
	if neg && n.Sign() != 0 {
		out = "-" + out
	}
	return out
}

// Plural returns one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count returns n and word, with an "s" added unless n is 1: "1 file",
// "3 files".
func Count(n int, word string) string {
	return strconv.Itoa(n) + " " + Plural(n, word, word+"s")
}
