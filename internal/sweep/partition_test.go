package sweep

import (
	"errors"
	"testing"
)

func TestParseArtifact(t *testing.T) {
	tests := []struct {
		name, data, missing string // missing: the field the usage error names
		subjects            int
	}{
		{"ok", `{"subjects": [{"name": "a"}], "enumerated_on": "2026-08-08", "source": "disk"}`, "", 1},
		{"keys any case", `{"Subjects": [], "ENUMERATED_ON": "x", "Source": null}`, "", 0},
		{"bom", "\ufeff" + `{"subjects": [], "enumerated_on": "x", "source": "disk"}`, "", 0},
		{"one object", `{"subjects": {"name": "a"}, "enumerated_on": "x", "source": "disk"}`, "", 1},
		// @($null) holds one element, and it carries no field.
		{"null subjects", `{"subjects": null, "enumerated_on": "x", "source": "disk"}`, "", 1},
		{"no subjects", `{"enumerated_on": "x", "source": "disk"}`, "subjects", 0},
		{"no date", `{"subjects": [], "source": "disk"}`, "enumerated_on", 0},
		{"array", `[1]`, "subjects", 0},
		// A top-level array of one element reads as that element.
		{"array of one artifact", `[{"subjects": [{}, {}], "enumerated_on": "x", "source": "disk"}]`, "", 2},
		{"array of one non-artifact", `[{"subjects": []}]`, "enumerated_on", 0},
		{"array of two", `[{"subjects": [], "enumerated_on": "x", "source": "disk"}, {}]`, "subjects", 0},
		{"empty array", `[]`, "subjects", 0},
		{"garbage", `{"subjects": [`, "subjects", 0},
		{"empty", ``, "subjects", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseArtifact("inv.json", []byte(tt.data))
			var ae *ArtifactError
			if tt.missing != "" {
				if !errors.As(err, &ae) || ae.Reason != "'inv.json' is not an enumeration artifact - it does not carry '"+tt.missing+"'. Produce one with 'memcompact inventory --out FILE' (the reference's Get-MemorySweepInventory.ps1 -OutputPath)." {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err != nil || len(a.Subjects) != tt.subjects {
				t.Fatalf("err %v, %d subjects", err, len(a.Subjects))
			}
		})
	}
	a, _ := ParseArtifact("x", []byte(`{"subjects": [{"NAME": "a", "identity": null}, "str", 5], "enumerated_on": 20260808, "source": true}`))
	s := a.Subjects[0]
	if PSString(s.Name) != "a" || s.Identity == nil || PSString(s.Identity) != "" || s.Population != nil {
		t.Fatalf("subject 0: %+v", s)
	}
	if a.Subjects[1].Name != nil || a.Subjects[2].Name != nil {
		t.Fatal("a non-object subject carries no field")
	}
	if PSString(a.EnumeratedOn) != "20260808" || PSString(a.Source) != "True" {
		t.Fatalf("echo %q %q", PSString(a.EnumeratedOn), PSString(a.Source))
	}
}
