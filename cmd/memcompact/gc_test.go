package main

import "testing"

func TestCollectLate(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	for _, c := range []struct {
		args []string
		env  map[string]string
		want bool
	}{
		{[]string{"hook", "pre-write"}, nil, true},
		{[]string{"hook", "session-start"}, nil, true},
		{[]string{"compact", "--all"}, nil, false},
		{[]string{"version"}, nil, false},
		{nil, nil, false},
		{[]string{"hook", "pre-write"}, map[string]string{"GOGC": "50"}, false},
		{[]string{"hook", "pre-write"}, map[string]string{"GOMEMLIMIT": "1GiB"}, false},
	} {
		if got := collectLate(c.args, env(c.env)); got != c.want {
			t.Errorf("collectLate(%q, %v) = %v, want %v", c.args, c.env, got, c.want)
		}
	}
}
