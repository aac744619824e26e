package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/memcompact/memcompact/internal/reference"
)

const referenceUsage = "reference [--policy | --stanza]"

func init() {
	register(referenceUsage, runReference)
}

func runReference(env *Env, args []string) error {
	var req reference.Request
	fs := newFlagSet("reference")
	fs.BoolVar(&req.Policy, "policy", false, "print only the policy region, with its markers")
	fs.BoolVar(&req.Stanza, "stanza", false, "print only the stanza, wrapped in the index-side markers")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &exitError{Code: exitUsage, Err: fmt.Errorf("reference takes no arguments; found %q", pos[0]), Hints: []string{"usage: memcompact " + referenceUsage}}
	}
	res, err := reference.Run(context.Background(), req)
	if err != nil {
		return engineError(err)
	}
	io.WriteString(env.Stdout, res.Text)
	return nil
}
