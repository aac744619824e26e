package secrets

import "strings"

// public reports whether a hit is a value of a format known to be public,
// which memcompact's own rules and gitleaks' generic rule would otherwise
// flag for its randomness:
//
//   - a Stripe publishable key (pk_live_…, pk_test_…), made to be put in
//     web pages;
//   - a checksum: go.sum's "h1:…" and npm's integrity "sha512-…" (also
//     sha1-, sha256-, sha384-);
//   - a UUID;
//   - a git object id (7 to 64 hex digits) on a line that talks about
//     commits or objects (commit, sha, rev, tree, blob, merge, HEAD…);
//   - a public key: a value named a public key on its line (WireGuard's
//     "PublicKey = …", "pubkey: …", "her public key is …"), an SSH public
//     key ("ssh-ed25519 AAAA…", "ssh-rsa AAAA…", an ecdsa or sk- key), and
//     anything inside a PEM block that holds a certificate or a public key
//     (-----BEGIN CERTIFICATE-----, -----BEGIN PUBLIC KEY-----);
//   - a Google Docs, Sheets, Slides, Forms or Drive id in its URL
//     (docs.google.com/document/d/<id>): an address, not a credential.
//
// gitleaks' specific rules (a GitHub token, an AWS key) are never
// overruled: their formats are not public.
func (sc *scanner) public(h hit) bool {
	if h.rank == rankSpecific {
		return false
	}
	secret := sc.text[h.start:h.end]
	before := sc.text[max(0, h.start-16):h.start]
	if strings.HasPrefix(secret, "pk_live_") || strings.HasPrefix(secret, "pk_test_") ||
		strings.HasSuffix(before, "pk_live_") || strings.HasSuffix(before, "pk_test_") {
		return true
	}
	for _, p := range []string{"h1:", "sha1-", "sha256-", "sha384-", "sha512-"} {
		if strings.HasPrefix(secret, p) || strings.HasSuffix(before, p) {
			return true
		}
	}
	if isUUID(secret) || sc.publicKey(h) || sc.googleDocID(h) {
		return true
	}
	if n := len(secret); n >= 7 && n <= 64 && isHex(secret) {
		line := strings.ToLower(matchLines(sc.li, h.start, h.end))
		for _, w := range []string{"commit", "sha", "rev", "tree", "blob", "merge", "head", "object", "cherry", "git", "checksum", "digest", "hash"} {
			if strings.Contains(line, w) {
				return true
			}
		}
	}
	return false
}

// isUUID reports whether s is 8-4-4-4-12 hex digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i : i+1]) {
				return false
			}
		}
	}
	return true
}

// sshKeyTypes are the key types an OpenSSH public key line starts with.
var sshKeyTypes = []string{"ssh-ed25519", "ssh-rsa", "ssh-dss", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
	"ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com"}

// publicKey reports whether the hit is a public key: named one just before
// it on its line, an SSH public key's base64 body, or inside a PEM block
// of a certificate or public key.
func (sc *scanner) publicKey(h hit) bool {
	ls := sc.li.starts[sc.li.line(h.start)-1]
	before := strings.ToLower(sc.text[max(ls, h.start-48):h.start])
	trimmed := strings.TrimRight(before, " \t\"'`=:")
	for _, t := range sshKeyTypes {
		if strings.HasSuffix(trimmed, t) {
			return true
		}
	}
	if i := max(strings.LastIndex(before, "public"), strings.LastIndex(before, "pubkey")); i >= 0 {
		rest := before[i:]
		if !strings.Contains(rest, "private") && !strings.Contains(rest, "preshared") && !strings.Contains(rest, "secret") &&
			!strings.Contains(rest, "password") && !strings.Contains(rest, "token") {
			return true
		}
	}
	return sc.inPublicPEM(h.start)
}

// inPublicPEM reports whether off lies inside a PEM block (at most 64 KB
// long) whose label names a certificate or a public key.
func (sc *scanner) inPublicPEM(off int) bool {
	lo := max(0, off-64<<10)
	b := strings.LastIndex(sc.text[lo:off], "-----BEGIN ")
	if b < 0 {
		return false
	}
	b += lo
	if strings.Contains(sc.text[b:off], "-----END ") {
		return false
	}
	label := sc.text[b+len("-----BEGIN ") : min(len(sc.text), b+80)]
	if j := strings.Index(label, "-----"); j >= 0 {
		label = label[:j]
	} else {
		return false
	}
	if strings.Contains(label, "PRIVATE") {
		return false
	}
	return strings.Contains(label, "CERTIFICATE") || strings.Contains(label, "PUBLIC KEY")
}

// googleDocID reports whether the hit is the id in a Google Docs or Drive
// URL: .../d/<id>, .../folders/<id>, ?id=<id>.
func (sc *scanner) googleDocID(h hit) bool {
	ls := sc.li.starts[sc.li.line(h.start)-1]
	before := strings.ToLower(sc.text[max(ls, h.start-96):h.start])
	u := max(strings.LastIndex(before, "docs.google.com/"), strings.LastIndex(before, "drive.google.com/"))
	if u < 0 || strings.ContainsAny(before[u:], " \t\"'<>") {
		return false
	}
	return strings.HasSuffix(before, "/d/") || strings.HasSuffix(before, "/folders/") || strings.HasSuffix(before, "id=") ||
		strings.HasSuffix(before, "/d/e/")
}
