package secretheading

import "testing"

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
