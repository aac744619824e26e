package secrets

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/memcompact/memcompact/internal/secrets/secretstest"
)

// TestMemo: the memo answers Contains as the early-stopping scan does on
// every planted secret and look-alike, asked from several goroutines at
// once, and a file scan through it reports what one without it does.
func TestMemo(t *testing.T) {
	var samples []secretstest.Sample
	samples = append(samples, secretstest.Secrets(7, 300)...)
	samples = append(samples, secretstest.Lookalikes(7, 300)...)
	m := NewMemo()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, s := range samples {
				if got, want := m.Contains(s.Text), Contains(s.Text); got != want {
					t.Errorf("%s: memo Contains = %v, Contains = %v", s.Kind, got, want)
				}
			}
		}()
	}
	wg.Wait()

	dir := t.TempDir()
	for i, s := range samples[:40] {
		if err := os.WriteFile(filepath.Join(dir, string(rune('a'+i%26))+string(rune('a'+i/26))+".md"), []byte(s.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain := ScanFilesWith([]string{dir}, ScanOptions{NoCache: true})
	shared := ScanFilesWith([]string{dir}, ScanOptions{NoCache: true, Memo: m})
	if !reflect.DeepEqual(plain.Findings, shared.Findings) || len(plain.Findings) == 0 {
		t.Errorf("findings through the memo differ (%d vs %d)", len(shared.Findings), len(plain.Findings))
	}
}
