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
//     commits or objects (commit, sha, rev, tree, blob, merge, HEAD…).
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
	if isUUID(secret) {
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
