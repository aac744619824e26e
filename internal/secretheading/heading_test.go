package secretheading

import (
	"strings"
	"testing"
)

func TestSecret(t *testing.T) {
	for title, want := range map[string]bool{
		"Secrets":                          true,
		" Credentials":                     true,
		"Tokens:":                          true,
		"Secrets for staging":              true,
		"2026-01-03 — Secrets for staging": true,
		"**Passwords**":                    true,
		"🔑 API keys":                       true,
		"12:30 Credentials (prod)":         true,
		"Secret sharing":                   false,
		"Token budgets":                    false,
		"Secretsmanager notes":             false,
		"How secrets are stored":           false,
		"2026-01-03 Deploy":                false,
		"":                                 false,
		"v1.2 tokens":                      false,
	} {
		if got := Secret(title); got != want {
			t.Errorf("Secret(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestLine(t *testing.T) {
	for line, want := range map[string]int{
		"## Secrets":         2,
		"### Credentials":    3,
		"###### Tokens":      6,
		"# Secrets for prod": 1,
		"##Secrets":          0,
		"####### Secrets":    0,
		"- ## Tokens":        0,
		"    # Secrets":      0,
		"## Deploy notes":    0,
	} {
		lv, ok := Line(line)
		if ok != (want > 0) || ok && lv != want {
			t.Errorf("Line(%q) = %d, %v; want level %d", line, lv, ok, want)
		}
	}
}

// TestSecretLowersOnlyTheStart: lowering only the first bytes gives the
// answer lowering the whole title gives, for long titles, titles of
// multi-byte letters that lower to ASCII (the Kelvin sign) and cuts in the
// middle of a character.
func TestSecretLowersOnlyTheStart(t *testing.T) {
	whole := func(title string) bool {
		lt := strings.ToLower(skipLead(title))
		for _, w := range secretWords {
			if strings.HasPrefix(lt, w) && (len(lt) == len(w) || !isWordByte(lt[len(w)])) {
				return true
			}
		}
		return false
	}
	pieces := []string{"Secrets", "API \u212Aeys", "\u212Aeys and tokens", "Tokens", "é", "€", "🔑 ", "x", " ", "-", "2026-01-03 ", "\xff", "Ω", "İ", "s"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := i; n > 0 || b.Len() == 0; n /= len(pieces) {
			b.WriteString(pieces[n%len(pieces)])
			if b.Len() > 80 {
				break
			}
		}
		for _, title := range []string{b.String(), b.String() + strings.Repeat("ç", 40), strings.Repeat("€", 21) + b.String()} {
			if got, want := Secret(title), whole(title); got != want {
				t.Fatalf("Secret(%q) = %v, lowering it whole says %v", title, got, want)
			}
		}
	}
}
