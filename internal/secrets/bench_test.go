package secrets

import (
	"encoding/base64"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memcompact/memcompact/internal/testshared"
	"github.com/memcompact/memcompact/internal/textfile"
)

// memoryText returns about size bytes of memory-file text without secrets:
// pointer lines, prose naming keys and tokens (so keyword-gated rules run),
// paths, hashes and dated file names.
func memoryText(size int) string {
	pool := []string{
		"- [Deploy flow](project_deploy_flow.md) — run `make deploy` after the API key rotation; token lives in the vault",
		"- [Auth notes](feedback_auth_2026-09-07.md) — OAuth access token refresh every 55 min, see /etc/app/config.yaml",
		"Fixed in commit 3f9c2a1b7e4d6f8a0b2c4d6e8f0a1b3c5d7e9f1a; session 014df517-39d1-4453-b7b3-9930c563627c.",
		"## Decisions",
		"The password manager holds the credentials; GITHUB_TOKEN is provided by CI. Never paste secrets here.",
		"- user prefers `go test ./...` before commits; AWS region eu-west-1; bucket logs-archive-2026",
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		b.WriteString(pool[i%len(pool)])
		b.WriteByte('\n')
	}
	return b.String()
}

// resetRules forgets the parsed and compiled rules, so the next Scan pays
// what the first Scan of a process pays.
func resetRules() {
	rulesOnce = sync.Once{}
	rules = nil
	allRules = sync.OnceValues(buildRules)
}

// BenchmarkFirstScan is the cost a hook process pays: parse gitleaks'
// rule set, compile the rules the text's keywords select, scan 1 KB.
func BenchmarkFirstScan(b *testing.B) {
	text := memoryText(1 << 10)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		resetRules()
		Scan(text)
	}
}

// BenchmarkFirstScanAllRules compiles every rule, as a text naming every
// keyword would make it: the worst case for a first scan.
func BenchmarkFirstScanAllRules(b *testing.B) {
	for b.Loop() {
		resetRules()
		for _, r := range gitleaksRules().rules {
			r.regexp()
		}
	}
}

func benchScan(b *testing.B, size int) {
	text := memoryText(size)
	Scan(text) // compile outside the timer
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Scan(text)
	}
}

func BenchmarkScan1KB(b *testing.B)   { benchScan(b, 1<<10) }
func BenchmarkScan10KB(b *testing.B)  { benchScan(b, 10<<10) }
func BenchmarkScan100KB(b *testing.B) { benchScan(b, 100<<10) }
func BenchmarkScan1MB(b *testing.B)   { benchScan(b, 1<<20) }

// base64Text is n bytes of random base64, in one line or wrapped at 76
// columns: the input that made the old scan cost seconds per megabyte.
func base64Text(n int, wrap bool) string {
	r := rand.New(rand.NewPCG(1, 2))
	raw := make([]byte, n*3/4)
	for i := range raw {
		raw[i] = byte(r.Uint32())
	}
	s := base64.StdEncoding.EncodeToString(raw)
	if !wrap {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i += 76 {
		b.WriteString(s[i:min(i+76, len(s))])
		b.WriteByte('\n')
	}
	return b.String()
}

func benchText(b *testing.B, text string) {
	Scan(text)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Scan(text)
	}
}

func BenchmarkScanBase64Line1MB(b *testing.B)    { benchText(b, base64Text(1<<20, false)) }
func BenchmarkScanBase64Wrapped1MB(b *testing.B) { benchText(b, base64Text(1<<20, true)) }

// BenchmarkKeywordPass builds the keyword automaton, as every process that
// scans does once: in a fresh process each page it writes is a fault.
func BenchmarkKeywordPass(b *testing.B) {
	rules, _ := allRules()
	b.ReportAllocs()
	for b.Loop() {
		newKeywordPass(rules)
	}
}

// BenchmarkKeywordPositions runs the keyword pass over the largest real
// index (78 KB), as the pre-write hook does on every memory write.
func BenchmarkKeywordPositions(b *testing.B) {
	rules, kp := allRules()
	f, err := textfile.Read(filepath.Join(testshared.RealStores(b), "Warrenpoobear__claude-memory", "MEMORY.md"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(f.Text)))
	for b.Loop() {
		kp.positions(f.Text, len(rules))
	}
}
