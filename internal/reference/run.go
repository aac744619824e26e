package reference

import (
	"context"
	"fmt"
	"strings"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/textfile"
)

// Request asks for memcompact's built-in reference copy, or one of its
// texts (the reference verb).
type Request struct {
	Policy bool // only the policy text, with its two marker lines
	Stanza bool // only the stanza, wrapped in the index-side markers
}

// Result is the text to print.
type Result struct {
	Text string
}

// ReasonExclusive is the usage error of a request for both texts at once.
const ReasonExclusive outcome.Reason = "exclusive"

// Run returns the requested text of the built-in reference copy.
func Run(ctx context.Context, req Request) (*Result, error) {
	data := embedded
	switch {
	case req.Policy && req.Stanza:
		return nil, &outcome.Error{Status: outcome.Usage, Reason: ReasonExclusive, Msg: "--policy and --stanza are exclusive",
			Hints: []string{"run it twice, once with each"}}
	case req.Policy:
		block, err := region(data, policy.PolicyBegin, policy.PolicyEnd)
		if err != nil {
			return nil, err
		}
		return &Result{Text: fmt.Sprintf("%s\n%s\n%s\n", policy.PolicyBegin, block, policy.PolicyEnd)}, nil
	case req.Stanza:
		block, err := region(data, policy.StanzaBegin, policy.StanzaEnd)
		if err != nil {
			return nil, err
		}
		return &Result{Text: fmt.Sprintf("<!-- memory-policy-stanza-begin: POLICY.md -->\n%s\n<!-- memory-policy-stanza-end -->\n", block)}, nil
	}
	return &Result{Text: data}, nil
}

// region returns a marked region of the embedded reference as text.
func region(data, begin, end string) (string, error) {
	r := policy.ReadRegion(textfile.Lines(data), begin, end)
	if !r.HasContent() {
		// The embedded copy is tested to carry both regions; this is a bug.
		return "", outcome.Refuse("no-region", "the built-in reference has no %s region", begin)
	}
	return strings.Join(r.Block, "\n"), nil
}
