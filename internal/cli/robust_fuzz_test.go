package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// FuzzVerbs feeds arbitrary bytes to a few verbs through Run, as the index,
// the ledger or a hook's standard input, and asserts that none of them
// fails with an internal error (a recovered panic), an undocumented exit,
// or a non-zero exit without a word of why. Iterations share one fixture:
// each rewrites the index or the ledger and puts it back, and the verbs it
// runs write nothing.
func FuzzVerbs(f *testing.F) {
	fx, err := layOut(f.TempDir())
	if err != nil {
		f.Skipf("no fixture (the example store is read from the repository): %v", err)
	}
	good := map[string][]byte{}
	for _, pos := range []string{pIndex, pLedger} {
		b, err := os.ReadFile(fx.p(pos))
		if err != nil {
			f.Fatal(err)
		}
		good[pos] = b
	}
	for i := range 3 {
		f.Add(uint8(i), good[pIndex])
		f.Add(uint8(i), good[pLedger])
		f.Add(uint8(i), preWriteInput(fx, "Write"))
		f.Add(uint8(i), preWriteInput(fx, "Edit"))
	}
	f.Add(uint8(0), []byte("\xef\xbb\xbf# Memory\r\n## A\r\n- [x](x.md) \u2014 y\r\n- [](.md)\n- [a](<b c.md>) [d](e.md#f) [g]( h.md )\x00\xff"))
	f.Add(uint8(1), []byte("<!-- memory-ledger-begin -->\n2026-13-40 | executed | demote | a@b@c | | \n<!-- memory-ledger-begin -->\n"))
	f.Add(uint8(2), []byte(`{"tool_name":"MultiEdit","cwd":"","tool_input":{"file_path":"MEMORY.md","edits":[{"old_string":"","new_string":"x"}]}}`))
	f.Add(uint8(2), []byte(`{"tool_name":"Write","tool_input":{"file_path":"\u0000","content":null}}`))

	f.Fuzz(func(t *testing.T, where uint8, data []byte) {
		var stdin []byte
		var target string
		switch where % 3 {
		case 0:
			target = fx.p(pIndex)
		case 1:
			target = fx.p(pLedger)
		case 2:
			stdin = data
		}
		if target != "" {
			if err := os.WriteFile(target, data, 0o644); err != nil {
				t.Fatal(err)
			}
			defer func() {
				for pos, b := range good {
					os.WriteFile(fx.p(pos), b, 0o644)
				}
			}()
		}
		if stdin == nil {
			stdin = preWriteInput(fx, "Edit")
		}
		runs := []struct {
			args  []string
			codes []int
		}{
			{[]string{"check", "--json", fx.p(pIndex)}, []int{0, 1, 2, 3}},
			{[]string{"load", fx.p(pIndex)}, []int{0, 1, 2, 3}},
			{[]string{"drift", fx.storeDir}, []int{0, 1, 2, 3}},
			{[]string{"inventory", fx.p(pIndex)}, []int{0, 2, 3}},
			{[]string{"gate", "exit", fx.p(pIndex), "--identity", "feedback_testing@2026-10-21", "--disposition", "promote", "--destination", fx.p(pDest), "--probe", "table"}, []int{0, 1, 2, 3}},
			{[]string{"gate", "reconcile", fx.p(pIndex), "--entry", fx.p(pEntry)}, []int{0, 1, 2, 3}},
			{[]string{"hook", "pre-write"}, []int{0}},
			{[]string{"hook", "session-start"}, []int{0}},
		}
		for _, r := range runs {
			in := stdin
			if r.args[0] == "hook" && r.args[1] == "session-start" && where%3 != 2 {
				in = fmt.Appendf(nil, `{"cwd":%q,"hook_event_name":"SessionStart"}`, fx.proj)
			}
			env, out, errb := fx.env(in)
			code := Run(env, r.args)
			if strings.Contains(errb.String(), "internal error") {
				t.Fatalf("%v: internal error\n%s", r.args, errb)
			}
			if !slices.Contains(r.codes, code) {
				t.Fatalf("%v: exit %d, want one of %v\n%s%s", r.args, code, r.codes, out, errb)
			}
			if code != 0 && strings.TrimSpace(out.String()+errb.String()) == "" {
				t.Fatalf("%v: exit %d with no word of why", r.args, code)
			}
		}
	})
}
