package sweep

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseArtifact feeds arbitrary bytes to the artifact reader. It must
// never panic, must fail only with an *ArtifactError naming one of the three
// required fields, and every value it accepts must render as text.
func FuzzParseArtifact(f *testing.F) {
	for _, s := range []string{
		`{"subjects": [{"name": "a", "identity": "a@2026-01-01", "population": "pointer"}], "enumerated_on": "2026-08-08", "source": "disk"}`,
		`[{"subjects": null, "enumerated_on": 1, "source": [true, null, 2.5]}]`,
		`{"Subjects": {"NAME": {}}, "ENUMERATED_ON": "x", "source": "y", "index": 3, "index_sha256": "ab"}`,
		"\ufeff[]", `null`, `[[{}]]`, `{"subjects": [`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseArtifact("inv.json", data)
		if err != nil {
			var ae *ArtifactError
			if !errors.As(err, &ae) || !strings.Contains(ae.Reason, "does not carry '") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		_ = PSString(a.EnumeratedOn) + PSString(a.Source)
		for _, s := range a.Subjects {
			_ = PSString(s.Name) + PSString(s.Identity) + PSString(s.Population)
		}
	})
}
