package secrets

import (
	"strconv"
	"strings"
	"testing"
)

// Fake secrets are assembled at run time so that this file holds no string
// a secret scanner would flag.
var (
	ghPAT      = "gh" + "p_" + "R8sT2vX9qLmN4bK7wZ3cY6hJ1pD5fG0aE8uQ"
	awsID      = "AK" + "IA" + "QYLPMN5HHHFPZAM2"
	slackBot   = "xo" + "xb-" + "263594206564-" + "2343594206574-" + "FGqddMF8t08v8N7Oq4i57vs1"
	stripeLive = "sk" + "_live_" + "51H8eFzKl3m9QpXrT7vW2yB4nC6dA0sE"
	randTok    = "Zq8" + "Lw3nR7tY2vB9kM4xC6pJ1sF5hD0gA8uE3iO7lK2"
	privKey    = "-----BEGIN " + "RSA PRIVATE KEY-----\n" + "MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naFDrBz9vFqU4yKQq\n-----END " + "RSA PRIVATE KEY-----"
)

func TestScan(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // "line:rule"; rule "*" accepts any rule
	}{
		// Positives: gitleaks' rules.
		{"github pat", "token is " + ghPAT + "\n", []string{"1:github-pat"}},
		{"aws access key id", "aws: " + awsID, []string{"1:aws-access-token"}},
		{"slack bot token", "\n\nslack " + slackBot, []string{"3:slack-bot-token"}},
		{"stripe live key", "stripe = " + stripeLive, []string{"1:stripe-access-token"}},
		{"private key spans lines", "keys:\n" + privKey + "\n", []string{"2:private-key"}},
		{"generic api key assignment", "api_key = \"" + randTok[:24] + "\"", []string{"1:*"}},
		{"crlf line numbers", "a\r\nb\r\n" + ghPAT, []string{"3:github-pat"}},
		{"lone cr line numbers", "a\rb\r" + ghPAT, []string{"3:github-pat"}},
		{"two on a line", ghPAT + " " + awsID, []string{"1:github-pat", "1:aws-access-token"}},

		// Positives: MemoryCore key names.
		{"env assignment", "OPENAI_API_KEY=sk-abc123def456", []string{"1:*"}},
		{"yaml password", "db:\n  DB_PASSWORD: hunter22", []string{"2:*"}},
		{"json secret", `{"CLIENT_SECRET": "s3cr3t-value"}`, []string{"1:*"}},
		{"export token", "export DEPLOY_TOKEN=abcd1234", []string{"1:*"}},
		{"lower-case name", "my_credential := pass-9x", []string{"1:key-name"}},
		{"long letters-only value", "SESSION_SECRET=correcthorsebatterystaple", []string{"1:*"}},
		{"url with password", "DATABASE_CREDENTIALS=postgres://app:pw9@db:5432/x", []string{"1:*"}},

		// Positives: entropy.
		{"bare random token", "remember " + randTok + " for later", []string{"1:high-entropy"}},
		{"padded base64", "blob: " + randTok + "==", []string{"1:high-entropy"}},

		// Negatives.
		{"empty", "", nil},
		{"prose mentions names", "Set OPENAI_API_KEY in your shell; GITHUB_TOKEN is provided by CI.", nil},
		{"empty value", "OPENAI_API_KEY=\nGITHUB_TOKEN=", nil},
		{"env reference", "API_KEY=$API_KEY\nTOKEN_X_TOKEN=${{ secrets.GH }}\nAPP_SECRET=%APP_SECRET%", nil},
		{"placeholder", "STRIPE_SECRET=<your-secret>\nAPI_KEY=xxxxxxxx\nAPI_KEY=changeme\nGH_TOKEN=****", nil},
		{"elided", "FINMIND_TOKEN=eyJ0... and TG_BOT_TOKEN=...", nil},
		{"elided in parens", "(FINMIND_TOKEN=eyJ0...)", nil},
		{"another variable", "GH_TOKEN=GITHUB_TOKEN", nil},
		{"path value", "SSH_KEY=~/.ssh/id_ed25519\nTLS_KEY=/etc/ssl/private/x.key", nil},
		{"code value", "API_KEY = os.environ['API_KEY']\nconst API_TOKEN = process.env.API_TOKEN", nil},
		{"word value", "GITHUB_TOKEN: required\nAPI_KEY: optional", nil},
		{"structural key names", "PRIMARY_KEY=user_id42\nSTRIPE_PUBLISHABLE_KEY=pk9test\nMAX_TOKENS=4096", nil},
		{"commit sha", "fixed in 3f9c2a1b7e4d6f8a0b2c4d6e8f0a1b3c5d7e9f1a", nil},
		{"sha256", "digest 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", nil},
		{"uuid", "session 014df517-39d1-4453-b7b3-9930c563627c and 6F9619FF-8B86-D011-B42D-00C04FC964FF", nil},
		{"ethereum address", "Treasury | 0x" + "63F1a9B2c4D5e6F7a8B9c0D1e2F3a4B5c6D7e8F9", nil},
		{"dated file name", "see project_dg178_available_players_2026-09-07.md and SCIENTIFIC_CARTOGRAPHY_PHASE13_PLAN_2026_06_23.md", nil},
		{"camel identifier", "call handleUserAuthenticationCallbackForTenant2024 first", nil},
		{"random token in url", "https://docs.google.com/document/d/" + randTok + "/edit", nil},
		{"random token in path", "/var/cache/" + randTok + "/index", nil},
		{"file name", randTok + ".json is the output", nil},
		{"short random", "id Zq8Lw3nR7tY2vB9k", nil},
		{"allow marker", "fixture " + randTok + " <!-- gitleaks:allow -->\nAPI_KEY=abcd1234 gitleaks:allow", nil},
		{"invalid utf8", "a\xff\xfe\x00b " + "API_KEY\xff=zz", nil},
		{"lower hex long", strings.Repeat("0a1b2c3d", 8), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Scan(tc.text)
			if len(got) != len(tc.want) {
				t.Fatalf("Scan found %d, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				line, rule, _ := strings.Cut(w, ":")
				g := got[i]
				if strconv.Itoa(g.Line) != line || (rule != "*" && g.Rule != rule) {
					t.Errorf("finding %d = %d:%s, want %s", i, g.Line, g.Rule, w)
				}
			}
			if Contains(tc.text) != (len(tc.want) > 0) {
				t.Errorf("Contains = %v, want %v", !(len(tc.want) > 0), len(tc.want) > 0)
			}
			for _, s := range []string{ghPAT, awsID, slackBot, stripeLive, randTok, "hunter22", "s3cr3t-value"} {
				for _, g := range got {
					if strings.Contains(g.Excerpt, s) {
						t.Errorf("excerpt shows a secret in full: %q", g.Excerpt)
					}
				}
			}
		})
	}
}

func TestExcerpt(t *testing.T) {
	got := Scan("- deploy with GH " + ghPAT + " then " + awsID)
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	if want := "- deploy with GH ghp_…****"; got[0].Excerpt != want {
		t.Errorf("excerpt = %q, want %q", got[0].Excerpt, want)
	}
	// The second excerpt's context masks the first secret.
	if want := "- deploy with GH **** then AKIA…****"; got[1].Excerpt != want {
		t.Errorf("excerpt = %q, want %q", got[1].Excerpt, want)
	}
	// Control characters never reach a terminal.
	got = Scan("\x1b[31m API_KEY=ab\x07cd1234")
	if len(got) != 1 || strings.ContainsAny(got[0].Excerpt, "\x1b\x07") {
		t.Errorf("got %+v", got)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", "…****"},
		{"hunter22", "hu…****"},
		{"0123456789abcdefghij", "0123…****"},
		{"ключ-секрет-пароль", "ключ…****"},
	}
	for _, tc := range tests {
		if got := redact(tc.in); got != tc.want {
			t.Errorf("redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRulesLoad guards against a gitleaks upgrade that changes the format:
// the rule set must parse and hold the rules the tests above rely on.
func TestRulesLoad(t *testing.T) {
	rs := gitleaksRules()
	if len(rs.rules) < 150 {
		t.Errorf("only %d gitleaks rules loaded", len(rs.rules))
	}
	for _, r := range rs.rules {
		if r.regexp() == nil {
			t.Errorf("rule %s does not compile", r.id)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"", ghPAT, "API_KEY=abcd1234", randTok, privKey, "a\r\nb\rc\n", "\xff\xfe", "## Secrets\n- x",
		"api_key = 'abcdefghijklmnop1234'", "db password: Tr0ub4dor&3", "postgres://u:p4ss@h/db", "Authorization: Basic dXNlcjpwYXNz",
		"### Credentials\n- staging: Xk9!mQ2#\n```\n## x\n```", "- **Secrets for prod**: a / b9!x", "Bearer abcDEF123456ghi",
		"the password for the NAS is Kiefer-88!", "密码：qwe789", "パスワードは「tanuki-4481」", "비밀번호는 해바라기88", "Passwort \"",
		"PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", "-----BEGIN CERTIFICATE-----\nMIIabc", "PrivateKey = /+ee",
		strings.Repeat("a", 17<<10) + " api_key=abcdefghij0123456789 " + strings.Repeat("Zq8Lw3nR", 3000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Scan(text)
		if Contains(text) != (len(got) > 0) {
			t.Fatalf("Contains disagrees with Scan on %q", text)
		}
		lines := strings.Count(text, "\n") + strings.Count(text, "\r") + 1
		for _, g := range got {
			if g.Line < 1 || g.Line > lines {
				t.Fatalf("line %d out of range", g.Line)
			}
			if g.Rule == "" || !strings.Contains(g.Excerpt, "…****") {
				t.Fatalf("bad finding %+v", g)
			}
		}
	})
}
