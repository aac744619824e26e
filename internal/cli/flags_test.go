package cli

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/psflag"
)

func testEnv() (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &Env{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2026, 12, 2, 15, 4, 5, 0, time.Local) },
	}, &out, &errb
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		json    bool
		ref     string
		pos     []string
		wantErr int // -1: no error
	}{
		{"flags first", []string{"--json", "--reference", "r.md", "i.md"}, true, "r.md", []string{"i.md"}, -1},
		{"flags after positional", []string{"i.md", "--json"}, true, "", []string{"i.md"}, -1},
		{"powershell names", []string{"-IndexPath", "i.md", "-PolicyReferencePath", "r.md", "-Json"}, true, "r.md", nil, -1},
		{"powershell names any case", []string{"-indexpath", "i.md", "-JSON"}, true, "", nil, -1},
		{"equals form", []string{"--reference=r.md", "i.md"}, false, "r.md", []string{"i.md"}, -1},
		{"double dash ends flags", []string{"--", "--json"}, false, "", []string{"--json"}, -1},
		{"unknown flag is usage", []string{"--nope"}, false, "", nil, exitUsage},
		{"help", []string{"-h"}, false, "", nil, exitClean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _, _ := testEnv()
			fs := newFlagSet("check")
			var js bool
			var ref, idx string
			fs.BoolVar(&js, "json", false, "JSON output")
			psflag.Alias(fs, "json", "Json")
			fs.StringVar(&ref, "reference", "", "reference copy")
			psflag.Alias(fs, "reference", "PolicyReferencePath")
			fs.StringVar(&idx, "IndexPath", "", "index")
			pos, err := parseFlags(env, fs, tt.args)
			if tt.wantErr >= 0 {
				var ee *exitError
				if !errors.As(err, &ee) || ee.Code != tt.wantErr {
					t.Fatalf("err = %v, want exit %d", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if js != tt.json || ref != tt.ref || !reflect.DeepEqual(pos, tt.pos) {
				t.Errorf("json=%v ref=%q pos=%q", js, ref, pos)
			}
		})
	}
}

func TestRunUnknownVerb(t *testing.T) {
	env, _, errb := testEnv()
	if code := Run(env, []string{"no-such-verb"}); code != exitUsage {
		t.Fatalf("code = %d", code)
	}
	if !strings.HasPrefix(errb.String(), "memcompact: error: unknown verb") {
		t.Errorf("stderr = %q", errb.String())
	}
}

func TestWorst(t *testing.T) {
	if worst(exitDefects, exitRefused) != exitRefused || worst(exitClean, exitDefects) != exitDefects {
		t.Fatal("worst does not pick the higher code")
	}
}
