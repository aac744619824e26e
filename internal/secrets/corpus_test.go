package secrets

import (
	"testing"

	"github.com/memcompact/memcompact/internal/secrets/secretstest"
)

// TestPlantedCorpus measures detection on the planted corpus: at least
// 99% of 600 secrets of every kind found, at most 1% of 600 look-alikes
// flagged. Each figure is logged.
func TestPlantedCorpus(t *testing.T) {
	sk, lk := secretstest.Kinds()
	if sk < 30 {
		t.Fatalf("only %d kinds of secret", sk)
	}
	missed, missedKinds := 0, map[string]int{}
	secrets := secretstest.Secrets(1, 600)
	for _, s := range secrets {
		if !Contains(s.Text) || len(Scan(s.Text)) == 0 {
			missed++
			missedKinds[s.Kind]++
			t.Logf("missed %v", s)
		}
	}
	flagged, flaggedKinds := 0, map[string]int{}
	looks := secretstest.Lookalikes(1, 600)
	for _, s := range looks {
		if fs := Scan(s.Text); len(fs) > 0 {
			flagged++
			flaggedKinds[s.Kind]++
			t.Logf("flagged %v: %+v", s, fs)
		}
	}
	detected := 100 * float64(len(secrets)-missed) / float64(len(secrets))
	fp := 100 * float64(flagged) / float64(len(looks))
	t.Logf("%d secrets of %d kinds: %.2f%% detected; %d look-alikes of %d kinds: %.2f%% flagged", len(secrets), sk, detected, len(looks), lk, fp)
	if detected < 99 {
		t.Errorf("detected %.2f%% < 99%%; missed by kind: %v", detected, missedKinds)
	}
	if fp > 1 {
		t.Errorf("false positives %.2f%% > 1%%; by kind: %v", fp, flaggedKinds)
	}
}
