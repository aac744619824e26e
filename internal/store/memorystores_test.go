package store

import (
	"fmt"
	"strings"
	"testing"
)

// TestMemoryStores: CLAUDE_MEMORY_STORES parsed as the client parses it.
func TestMemoryStores(t *testing.T) {
	cases := []struct {
		value, want, err string
	}{
		{"", "[]", ""},
		{"   ", "[]", ""},
		{`["/srv/team-mem"]`, "[{/srv/team-mem rw team team-mem}]", ""},
		{`["/srv/a.b/"]`, "[{/srv/a.b/ rw team a-b}]", ""},
		{`[{"path":"/srv/x","mode":"ro","scope":"user","mount":"mine"}]`, "[{/srv/x ro user mine}]", ""},
		{`[{"path":"/a/m"},{"path":"/b/m"}]`, "", "duplicate mount: m"},
		{`[{"path":"/a","scope":"user"},{"path":"/b","scope":"user"}]`, "", "more than one scope"},
		{`[{"path":"/a","mode":"rx"}]`, "", "not rw or ro"},
		{`[{"path":"/a","mount":"a/b"}]`, "", "must match"},
		{`[{"mode":"rw"}]`, "", "neither a path"},
		{`["/"]`, "", "cannot derive"},
		{`{"path":"/a"}`, "", "not a JSON array"},
		{`not json`, "", "not a JSON array"},
	}
	for _, c := range cases {
		got, err := MemoryStores(func(string) string { return c.value })
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v; want one saying %q", c.value, err, c.err)
			}
			continue
		}
		if err != nil || strings.ReplaceAll(fmt.Sprint(got), "[]", "") != strings.ReplaceAll(c.want, "[]", "") {
			t.Errorf("%q: %v, %v; want %s", c.value, got, err, c.want)
		}
	}
}
