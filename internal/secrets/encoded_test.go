package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

func TestEncoded(t *testing.T) {
	pw := "Tr0ub4dor&3x"
	_, vals := ScanValues("db password: " + pw + "\nGH " + ghPAT)
	if len(vals) != 2 {
		t.Fatalf("values = %d, want 2", len(vals))
	}
	spaced := strings.Join(strings.Split(pw, ""), " ")
	for _, tc := range []struct{ name, text, want string }{
		{"plain", "- uses " + pw, "plain"},
		{"hex", "- blob " + hex.EncodeToString([]byte(pw)), "hex"},
		{"HEX", "- blob " + strings.ToUpper(hex.EncodeToString([]byte(ghPAT))), "hex"},
		{"base64", "- b " + base64.StdEncoding.EncodeToString([]byte(pw)), "base64"},
		{"base64 inside", "- b " + base64.StdEncoding.EncodeToString([]byte("xy:"+pw+"!")), "base64"},
		{"base64 offset", "- b " + base64.URLEncoding.EncodeToString([]byte("z"+ghPAT)), "base64"},
		{"reversed", "- r " + reverse(pw), "reversed"},
		{"spaced", "- s " + spaced, "spaced"},
		{"spaced over lines", "- s " + pw[:5] + "\n  " + pw[5:], "spaced"},
		{"none", "- the password is in the vault", ""},
	} {
		got := Encoded(tc.text, vals)
		if tc.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: got %+v", tc.name, got)
			}
			continue
		}
		if len(got) == 0 || got[0].Rule != "encoded-secret ("+tc.want+")" {
			t.Errorf("%s: got %+v, want %s", tc.name, got, tc.want)
		}
		for _, f := range got {
			for _, v := range vals {
				if strings.Contains(f.Excerpt, v) {
					t.Errorf("%s: excerpt shows the secret", tc.name)
				}
			}
		}
	}
}
