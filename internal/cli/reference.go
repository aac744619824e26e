package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/reference"
	"github.com/memcompact/memcompact/internal/textfile"
)

const referenceUsage = "reference [--policy | --stanza]"

func init() {
	register(&command{
		name:  "reference",
		usage: referenceUsage,
		short: "print memcompact's built-in reference copy of the policy and stanza",
		long: `reference prints the reference copy memcompact checks stores against when
neither --reference nor MEMCOMPACT_REFERENCE names another and no
agent-orchestra plugin copy is installed. Save it to adapt it
("memcompact reference > my-reference.md"), or adopt its texts:

  --policy   print only the policy text, with its two marker lines, for a
             store's policy file (or, unsplit, the top of its index)
  --stanza   print only the stanza text, wrapped in the index-side markers
             a split store puts at the top of MEMORY.md

Exit codes: 0 printed, 3 usage error (any argument, or --policy and
--stanza together).`,
		run: runReference,
	})
}

func runReference(env *Env, args []string) error {
	var policyOnly, stanzaOnly bool
	fs := newFlagSet("reference")
	fs.BoolVar(&policyOnly, "policy", false, "print only the policy region, with its markers")
	fs.BoolVar(&stanzaOnly, "stanza", false, "print only the stanza, wrapped in the index-side markers")
	pos, err := parseFlags(env, fs, referenceUsage, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("reference takes no arguments; found %q", pos[0]), Hints: []string{"usage: memcompact " + referenceUsage}}
	}
	if policyOnly && stanzaOnly {
		return &ExitError{Code: ExitUsage, Err: errors.New("--policy and --stanza are exclusive"), Hints: []string{"run it twice, once with each"}}
	}
	data := reference.Embedded()
	switch {
	case policyOnly:
		block, err := region(data, policy.PolicyBegin, policy.PolicyEnd)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s\n%s\n%s\n", policy.PolicyBegin, block, policy.PolicyEnd)
	case stanzaOnly:
		block, err := region(data, policy.StanzaBegin, policy.StanzaEnd)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "<!-- memory-policy-stanza-begin: POLICY.md -->\n%s\n<!-- memory-policy-stanza-end -->\n", block)
	default:
		env.Stdout.Write(data)
	}
	return nil
}

// region returns a marked region of the embedded reference as text.
func region(data []byte, begin, end string) (string, error) {
	r := policy.ReadRegion(textfile.Lines(string(data)), begin, end)
	if !r.HasContent() {
		// The embedded copy is tested to carry both regions; this is a bug.
		return "", Refusef("the built-in reference has no %s region", begin)
	}
	return strings.Join(r.Block, "\n"), nil
}
