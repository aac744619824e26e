// Package secretstest generates a planted corpus for testing secret
// detection: secrets of many kinds, each in the sentence a memory file
// would hold it in, and ordinary text that looks like them (checksums,
// publishable keys, UUIDs, commit ids, prose about passwords). The corpus
// is built deterministically from a seed at run time, so the repository
// holds no string a scanner (or a push protection) would take for a live
// secret.
package secretstest

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Sample is one planted text: a secret of some kind in context, or a
// look-alike holding none.
type Sample struct {
	Kind   string // e.g. "postgres-url", "stripe-publishable" (look-alike)
	Text   string // one or more lines, as a memory entry's body would hold
	Secret string // the secret's value ("" for a look-alike)
}

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lower + digits
	hexd   = "0123456789abcdef"
	b64url = alnum + "-_"
	symbol = "!#%&*+=?@^~"
)

type gen struct{ r *rand.Rand }

func (g gen) pick(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[g.r.IntN(len(set))]
	}
	return string(b)
}

// mixed is a random token that surely mixes upper, lower and digits.
func (g gen) mixed(n int) string {
	return g.pick(upper, 1) + g.pick(lower, 1) + g.pick(digits, 1) + g.pick(alnum, n-3)
}

func (g gen) one(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// bytes is n random bytes.
func (g gen) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	return b
}

var words = strings.Fields("amber river falcon quiet orbit maple cobalt velvet harbor lantern meadow copper glacier sable tundra willow ember saffron basalt cedar")

func (g gen) word() string { return words[g.r.IntN(len(words))] }

// password is a human password: words, digits and symbols.
func (g gen) password() string {
	switch g.r.IntN(4) {
	case 0:
		return strings.ToUpper(g.word()[:1]) + g.word()[1:] + g.pick(digits, 2) + g.pick(symbol, 1)
	case 1:
		return g.pick(alnum+symbol, 6) + g.pick(symbol, 1) + g.pick(digits, 1) + g.pick(alnum, 4)
	case 2:
		return g.word() + "-" + g.word() + "-" + g.word() + g.pick(digits, 1)
	}
	return g.mixed(14)
}

func host(g gen) string {
	return g.one("db.internal", "10.0.3.17", "prod-db.example.net", "cache.local", "mq.example.org")
}

// kinds of secret, each a generator of one sample.
var kinds = []struct {
	name string
	make func(g gen) (text, secret string)
}{
	{"github-pat", func(g gen) (string, string) {
		s := "gh" + "p_" + g.pick(alnum, 36)
		return "- deploy uses " + s + " for the release job", s
	}},
	{"github-oauth", func(g gen) (string, string) {
		s := "gh" + "o_" + g.pick(alnum, 36)
		return "oauth token " + s, s
	}},
	{"github-fine-grained", func(g gen) (string, string) {
		s := "github" + "_pat_" + g.pick(alnum, 22) + "_" + g.pick(alnum, 59)
		return "GH fine-grained PAT: " + s, s
	}},
	{"gitlab-pat", func(g gen) (string, string) {
		s := "gl" + "pat-" + g.pick(alnum, 20)
		return "gitlab: " + s, s
	}},
	{"aws-access-key", func(g gen) (string, string) {
		s := "AK" + "IA" + g.pick(upper+"234567", 16)
		return "aws key id " + s + " (eu-west-1)", s
	}},
	{"aws-secret-key", func(g gen) (string, string) {
		s := g.pick(alnum+"+/", 40)
		return "aws_secret_access_key = " + s, s
	}},
	{"slack-bot", func(g gen) (string, string) {
		s := "xo" + "xb-" + g.pick(digits, 12) + "-" + g.pick(digits, 13) + "-" + g.pick(alnum, 24)
		return "slack bot " + s, s
	}},
	{"slack-webhook", func(g gen) (string, string) {
		s := "https://hooks.slack.com/services/T" + g.pick(upper+digits, 10) + "/B" + g.pick(upper+digits, 10) + "/" + g.pick(alnum, 24)
		return "alerts post to " + s, s
	}},
	{"stripe-secret", func(g gen) (string, string) {
		s := "sk" + "_live_" + g.pick(alnum, 34)
		return "stripe = " + s, s
	}},
	{"openai", func(g gen) (string, string) {
		s := "sk-" + "proj-" + g.pick(b64url, 74) + "T3Blbk" + "FJ" + g.pick(b64url, 74)
		return "OpenAI key " + s, s
	}},
	{"anthropic", func(g gen) (string, string) {
		s := "sk-ant-" + "api03-" + g.pick(b64url, 93) + "AA"
		return "claude key " + s, s
	}},
	{"google-api", func(g gen) (string, string) {
		s := "AI" + "za" + g.pick(b64url, 35)
		return "maps key " + s, s
	}},
	{"sendgrid", func(g gen) (string, string) {
		s := "SG." + g.pick(b64url, 22) + "." + g.pick(b64url, 43)
		return "mail via " + s, s
	}},
	{"npm", func(g gen) (string, string) {
		s := "np" + "m_" + g.pick(alnum, 36)
		return "//registry.npmjs.org/:_authToken=" + s, s
	}},
	{"jwt", func(g gen) (string, string) {
		s := "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOi" + g.pick(alnum, 30) + "." + g.pick(b64url, 43)
		return "session cookie " + s, s
	}},
	{"private-key", func(g gen) (string, string) {
		var b strings.Builder
		b.WriteString("-----BEGIN " + "RSA PRIVATE KEY-----\n")
		for range 6 {
			b.WriteString(g.pick(alnum+"+/", 64) + "\n")
		}
		b.WriteString("-----END " + "RSA PRIVATE KEY-----")
		return "deploy key:\n" + b.String(), b.String()
	}},
	{"digitalocean", func(g gen) (string, string) {
		s := "do" + "p_v1_" + g.pick(hexd, 64)
		return "doctl token " + s, s
	}},
	{"shopify", func(g gen) (string, string) {
		s := "shp" + "at_" + g.pick(hexd, 32)
		return "shop admin " + s, s
	}},
	{"postgres-url", func(g gen) (string, string) {
		p := g.password()
		return "DATABASE_URL: postgres://app:" + p + "@" + host(g) + ":5432/app", p
	}},
	{"mysql-url", func(g gen) (string, string) {
		p := g.password()
		return "- mysql://root:" + p + "@" + host(g) + "/shop", p
	}},
	{"mongodb-srv-url", func(g gen) (string, string) {
		p := g.password()
		return "atlas: mongodb+srv://admin:" + p + "@cluster0.ab1cd.mongodb.net/?retryWrites=true", p
	}},
	{"redis-url", func(g gen) (string, string) {
		p := g.password()
		return "cache at redis://:" + p + "@" + host(g) + ":6379/0", p
	}},
	{"amqp-url", func(g gen) (string, string) {
		p := g.password()
		return "queue amqp://guest:" + p + "@" + host(g) + ":5672/", p
	}},
	{"https-basic-url", func(g gen) (string, string) {
		p := g.password()
		return "artifacts: https://ci:" + p + "@artifacts.example.com/repo", p
	}},
	{"password-symbols", func(g gen) (string, string) {
		p := g.pick(alnum, 4) + g.pick(symbol, 2) + g.pick(alnum, 4) + g.pick(symbol, 1)
		return g.one("password: ", "db_password = ", "Password=", "ADMIN_PASSWORD: ") + p, p
	}},
	{"password-words", func(g gen) (string, string) {
		p := g.word() + " " + g.word() + " " + g.word() + " " + g.word()
		return g.one(`password: "`, `passphrase = "`, `wifi password: "`) + p + `"`, p
	}},
	{"password-word", func(g gen) (string, string) {
		p := g.word() + g.word()
		return g.one("- router passwd: ", "pwd=", "admin pass: ", "sudo password = ") + p, p
	}},
	{"secret-assignment", func(g gen) (string, string) {
		p := g.password()
		return g.one("client_secret: ", "secret = ", "webhook secret: ", "JWT_SECRET=") + p, p
	}},
	{"json-password", func(g gen) (string, string) {
		p := g.password()
		return `{"user": "svc", "password": "` + p + `"}`, p
	}},
	{"connection-string", func(g gen) (string, string) {
		p := g.password()
		return "Server=" + host(g) + ";Database=crm;User Id=sa;Password=" + p + ";", p
	}},
	{"jdbc-query-password", func(g gen) (string, string) {
		p := g.mixed(12)
		return "jdbc:mysql://" + host(g) + ":3306/crm?user=app&password=" + p + "&useSSL=true", p
	}},
	{"bearer-24", func(g gen) (string, string) {
		s := g.mixed(24)
		return "curl -H 'Authorization: Bearer " + s + "' https://api.example.com/v1/me", s
	}},
	{"bearer-prose", func(g gen) (string, string) {
		s := g.pick(lower+digits, 24)
		return "call the API with Bearer " + s + " until it expires", s
	}},
	{"basic-auth-header", func(g gen) (string, string) {
		s := base64.StdEncoding.EncodeToString([]byte("deploy:" + g.password()))
		return "Authorization: Basic " + s, s
	}},
	{"api-key-header", func(g gen) (string, string) {
		s := g.pick(hexd, 32)
		return "X-API-Key: " + s, s
	}},
	{"env-key-name", func(g gen) (string, string) {
		s := g.mixed(28)
		return "export " + g.one("PAYMENTS_API_KEY", "SENTRY_AUTH_TOKEN", "MAILER_SECRET", "ACME_CREDENTIALS") + "=" + s, s
	}},
	{"credentials-subheading", func(g gen) (string, string) {
		p := g.pick(alnum, 5) + g.pick(symbol, 1) + g.pick(alnum, 4)
		return g.one("### Credentials\n", "#### Secrets\n", "### Logins\n") + "- staging: " + p + "\n- notes: rotate monthly", p
	}},
	{"secrets-for-title", func(g gen) (string, string) {
		p := g.pick(alnum, 4) + g.pick(symbol, 1) + g.pick(digits, 2) + g.pick(alnum, 4)
		return "- **Secrets for " + g.one("staging", "prod", "the VPN") + "**: admin / " + p, p
	}},
	{"prose-password", func(g gen) (string, string) {
		p := g.password()
		return g.one("the password is ", "- The wifi password for the cabin is ", "Omar's laptop password was changed to ",
			"note: the NAS password is now ") + p, p
	}},
	{"prose-password-de", func(g gen) (string, string) {
		p := g.password()
		return g.one("Passwort: ", "- Das WLAN-Passwort lautet ", "Kennwort für den Router: ", "das Passwort ist ") + p, p
	}},
	{"prose-password-es", func(g gen) (string, string) {
		p := g.password()
		return g.one("contraseña: ", "- La contraseña del router es ", "la contraseña es ") + p, p
	}},
	{"prose-password-fr", func(g gen) (string, string) {
		p := g.password()
		return g.one("le mot de passe est ", "Mot de passe : ", "- mot de passe du wifi : ") + p, p
	}},
	{"prose-password-zh", func(g gen) (string, string) {
		p := g.password()
		return g.one("密码是 ", "- 路由器密码：", "WiFi 密码为 ") + p, p
	}},
	{"prose-password-ja", func(g gen) (string, string) {
		p := g.password()
		return g.one("パスワードは ", "- NASのパスワードは「", "パスワード：") + p + g.one("」です", " です", ""), p
	}},
	{"prose-password-ko", func(g gen) (string, string) {
		p := g.password()
		return g.one("비밀번호는 ", "- 와이파이 비밀번호: ", "공유기 비밀번호는 ") + p + g.one(" 입니다", "", "."), p
	}},
	{"gcp-service-account", func(g gen) (string, string) {
		var b strings.Builder
		b.WriteString("-----BEGIN " + "PRIVATE KEY-----\\n")
		for range 8 {
			b.WriteString(g.pick(alnum+"+/", 64) + "\\n")
		}
		b.WriteString("-----END " + "PRIVATE KEY-----\\n")
		return `{"type": "service_account", "project_id": "acme-prod", "private_key_id": "` + g.pick(hexd, 40) +
			`", "private_key": "` + b.String() + `", "client_email": "ci@acme-prod.iam.gserviceaccount.com"}`, b.String()
	}},
	{"openssh-private-key", func(g gen) (string, string) {
		var b strings.Builder
		typ := g.one("OPENSSH", "EC", "DSA", "ENCRYPTED")
		b.WriteString("-----BEGIN " + typ + " PRIVATE KEY-----\n")
		for range 5 {
			b.WriteString(g.pick(alnum+"+/", 70) + "\n")
		}
		b.WriteString("-----END " + typ + " PRIVATE KEY-----\n")
		return "```\n" + b.String() + "```", b.String()
	}},
	{"slack-user", func(g gen) (string, string) {
		s := "xo" + "xp-" + g.pick(digits, 12) + "-" + g.pick(digits, 12) + "-" + g.pick(digits, 13) + "-" + g.pick(hexd, 32)
		return "- Slack user token " + s, s
	}},
	{"stripe-restricted", func(g gen) (string, string) {
		s := "rk" + "_live_" + g.pick(alnum, 99)
		return "restricted stripe key " + s, s
	}},
	{"github-fine-grained-prose", func(g gen) (string, string) {
		s := "github" + "_pat_" + g.pick(alnum, 22) + "_" + g.pick(alnum, 59)
		return "- Renovate runs with " + s + " (expires March)", s
	}},
	{"aws-access-key-prose", func(g gen) (string, string) {
		s := "AK" + "IA" + g.pick(upper+"234567", 16)
		return "Die Zugangsschlüssel-ID ist " + s, s
	}},
	{"anthropic-admin", func(g gen) (string, string) {
		s := "sk-ant-" + "admin01-" + g.pick(b64url, 93) + "AA"
		return "admin key: " + s, s
	}},
	{"wireguard-private", func(g gen) (string, string) {
		s := base64.StdEncoding.EncodeToString(g.bytes(32))
		return "[Interface]\nPrivateKey = " + s + "\nAddress = 10.8.0.2/24", s
	}},
	{"high-entropy-token", func(g gen) (string, string) {
		s := g.mixed(40)
		return "remember " + s + " for the nightly job", s
	}},
}

// look-alikes: ordinary text shaped like a secret.
var lookalikes = []struct {
	name string
	make func(g gen) string
}{
	{"stripe-publishable", func(g gen) string {
		return "STRIPE_PUBLISHABLE_KEY=pk_" + g.one("live", "test") + "_" + g.pick(alnum, 99)
	}},
	{"stripe-publishable-prose", func(g gen) string {
		return "the checkout page embeds pk_" + g.one("live", "test") + "_" + g.pick(alnum, 40)
	}},
	{"go-sum", func(g gen) string {
		return "github.com/" + g.word() + "/" + g.word() + " v1." + g.pick(digits, 1) + ".0 h1:" + base64.StdEncoding.EncodeToString([]byte(g.pick(alnum, 32)))
	}},
	{"npm-integrity", func(g gen) string {
		raw := make([]byte, 64)
		for i := range raw {
			raw[i] = byte(g.r.IntN(256))
		}
		return `"integrity": "sha512-` + base64.StdEncoding.EncodeToString(raw) + `"`
	}},
	{"git-commit", func(g gen) string {
		return g.one("fixed in commit ", "cherry-pick ", "git revert ", "merged as ") + g.pick(hexd, 40)
	}},
	{"git-short-sha", func(g gen) string { return "see commit " + g.pick(hexd, 7) + " for the revert" }},
	{"uuid", func(g gen) string {
		return "session " + g.pick(hexd, 8) + "-" + g.pick(hexd, 4) + "-4" + g.pick(hexd, 3) + "-a" + g.pick(hexd, 3) + "-" + g.pick(hexd, 12)
	}},
	{"url-query", func(g gen) string {
		return "https://example.com/search?q=" + g.word() + "&page=" + g.pick(digits, 1) + "&sort=" + g.word()
	}},
	{"url-utm", func(g gen) string {
		return "https://shop.example.org/p/" + g.word() + "?utm_source=" + g.word() + "&utm_campaign=" + g.word() + "-" + g.pick(digits, 4)
	}},
	{"sha256-digest", func(g gen) string { return "image digest sha256:" + g.pick(hexd, 64) }},
	{"url-no-password", func(g gen) string { return "postgres://app@" + host(g) + ":5432/app" }},
	{"url-placeholder", func(g gen) string {
		return g.one("postgres://app:${DB_PASSWORD}@", "mysql://root:<password>@", "redis://:$REDIS_PASS@", "amqp://user:****@") + host(g) + "/x"
	}},
	{"password-prose", func(g gen) string {
		return g.one("The password is stored in 1Password under Prod DB.", "password: required", "Reset password flow: see auth.md",
			"passwords rotate every 90 days", "password: see the vault", "Use a strong password for the admin user.",
			"secret: none", "pwd: /home/deploy", "password = os.environ['DB_PASSWORD']", "password: ${{ secrets.DB_PASSWORD }}",
			"`password_hash` column is bcrypt", "password_reset_ttl: 3600")
	}},
	{"env-reference", func(g gen) string {
		return g.one("API_KEY=$API_KEY", "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}", "export OPENAI_API_KEY=<your-key>", "SECRET_KEY=%SECRET_KEY%", "DB_PASSWORD=changeme")
	}},
	{"auth-prose", func(g gen) string {
		return g.one("Bearer token auth is used for the API.", "Basic auth protects staging.", "Authorization: Bearer <token>",
			"The Authorization header carries a Bearer token.", "Authorization: Bearer $TOKEN", "uses Bearer authentication")
	}},
	{"semver-date", func(g gen) string {
		return "released v" + g.pick(digits, 1) + "." + g.pick(digits, 2) + ".3 on 2026-0" + g.pick("123456789", 1) + "-1" + g.pick(digits, 1)
	}},
	{"dated-file", func(g gen) string {
		return "- [" + g.word() + "](project_" + g.word() + "_" + g.word() + "_2026-0" + g.pick("123456789", 1) + "-1" + g.pick(digits, 1) + ".md) — status"
	}},
	{"camel-identifier", func(g gen) string {
		return "call handle" + title(g.word()) + title(g.word()) + "CallbackForTenant" + g.pick(digits, 4) + " first"
	}},
	{"hex-color-and-ids", func(g gen) string {
		return "theme #" + g.pick(hexd, 6) + ", order " + g.pick(digits, 10) + ", ticket JIRA-" + g.pick(digits, 4)
	}},
	{"ethereum-address", func(g gen) string { return "treasury 0x" + g.pick("0123456789abcdefABCDEF", 40) }},
	{"secret-heading-prose", func(g gen) string {
		return "### Credentials\n- stored in the team vault, item \"" + g.word() + "\"\n- ask ops for access"
	}},
	{"token-budget", func(g gen) string {
		return "## Token budgets\n- keep prompts under " + g.pick(digits, 3) + "k tokens; max_tokens: 4096"
	}},
	{"hex-blob-hash", func(g gen) string { return "checksum md5 " + hex.EncodeToString([]byte(g.pick(alnum, 16))) }},
	{"wireguard-public", func(g gen) string {
		return "[Peer]\nPublicKey = " + base64.StdEncoding.EncodeToString(g.bytes(32)) + "\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.example.net:51820"
	}},
	{"wireguard-public-prose", func(g gen) string {
		return g.one("- Omar's WireGuard public key is ", "Laptop pubkey: ", "public_key: ") + base64.StdEncoding.EncodeToString(g.bytes(32))
	}},
	{"ssh-public-key", func(g gen) string {
		typ, n := "ssh-ed25519", 32
		if g.r.IntN(2) == 0 {
			typ, n = "ssh-rsa", 256
		}
		var blob []byte
		for _, part := range [][]byte{[]byte(typ), g.bytes(n)} {
			blob = append(blob, 0, 0, byte(len(part)>>8), byte(len(part)))
			blob = append(blob, part...)
		}
		return g.one("- authorized key: ", "", "deploy key (public): ") + typ + " " + base64.StdEncoding.EncodeToString(blob) + " " + g.word() + "@laptop"
	}},
	{"pem-certificate", func(g gen) string {
		var b strings.Builder
		b.WriteString("-----BEGIN CERTIFICATE-----\n")
		for range 6 {
			b.WriteString(base64.StdEncoding.EncodeToString(g.bytes(48)) + "\n")
		}
		b.WriteString("-----END CERTIFICATE-----")
		return "CA for the staging proxy:\n```\n" + b.String() + "\n```"
	}},
	{"pem-public-key", func(g gen) string {
		return "-----BEGIN PUBLIC KEY-----\n" + base64.StdEncoding.EncodeToString(g.bytes(48)) + "\n" +
			base64.StdEncoding.EncodeToString(g.bytes(30)) + "\n-----END PUBLIC KEY-----"
	}},
	{"google-doc-id", func(g gen) string {
		return "- " + g.one("Spec", "Key decisions", "Roadmap") + ": https://docs.google.com/" + g.one("document", "spreadsheets", "presentation") +
			"/d/1" + g.pick(b64url, 43) + "/edit" + g.one("", "?usp=sharing", "#gid=0")
	}},
	{"drive-folder", func(g gen) string {
		return "shared folder https://drive.google.com/drive/folders/1" + g.pick(b64url, 32) + " (access token not needed)"
	}},
	{"example-keys", func(g gen) string {
		return g.one("AWS docs example: AKIAIOSFODNN7EXAMPLE", "e.g. ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "OPENAI_API_KEY=sk-...",
			"export ANTHROPIC_API_KEY=<your-key-here>", "token: YOUR_TOKEN_HERE", "api_key: \"${API_KEY}\"")
	}},
	{"password-prose-languages", func(g gen) string {
		return g.one("Das Passwort ist im Tresor gespeichert.", "Passwort: siehe 1Password", "la contraseña está en el gestor",
			"contraseña: pedir a Ana", "le mot de passe est dans le coffre", "密码保存在 1Password 里", "密码是 在保险箱里",
			"パスワードは 1Password に保存", "パスワードは管理者に聞く", "비밀번호는 관리자에게 문의", "비밀번호는 매달 변경",
			"the password is in the vault", "the password is rotated monthly", "The password is required for login.",
			"Passwort: mindestens zwölf Zeichen", "the password was changed to something stronger")
	}},
	{"sha-hashes", func(g gen) string {
		return g.one("sha1 ", "file sha256 ", "checksum: ", "SHA-512: ") + g.pick(hexd, []int{40, 64, 128}[g.r.IntN(3)])
	}},
	{"docker-digest", func(g gen) string {
		return "ghcr.io/acme/" + g.word() + "@sha256:" + g.pick(hexd, 64)
	}},
}

// Kinds returns how many kinds of secret and of look-alike the corpus has.
func Kinds() (secretKinds, lookalikeKinds int) { return len(kinds), len(lookalikes) }

// Secrets returns n planted secrets, cycling through every kind.
func Secrets(seed uint64, n int) []Sample {
	g := gen{rand.New(rand.NewPCG(seed, 1))}
	out := make([]Sample, 0, n)
	for i := range n {
		k := kinds[i%len(kinds)]
		text, secret := k.make(g)
		out = append(out, Sample{Kind: k.name, Text: text, Secret: secret})
	}
	return out
}

// Lookalikes returns n ordinary texts shaped like secrets, cycling
// through every kind.
func Lookalikes(seed uint64, n int) []Sample {
	g := gen{rand.New(rand.NewPCG(seed, 2))}
	out := make([]Sample, 0, n)
	for i := range n {
		k := lookalikes[i%len(lookalikes)]
		out = append(out, Sample{Kind: k.name, Text: k.make(g)})
	}
	return out
}

// String describes a sample for a test failure without printing a
// secret in full.
func (s Sample) String() string {
	if s.Secret == "" {
		return fmt.Sprintf("%s: %q", s.Kind, s.Text)
	}
	return fmt.Sprintf("%s (secret %q…)", s.Kind, s.Secret[:min(4, len(s.Secret))])
}

func title(w string) string { return strings.ToUpper(w[:1]) + w[1:] }
