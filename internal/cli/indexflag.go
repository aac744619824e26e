package cli

import (
	"flag"
	"fmt"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/psflag"
)

// indexFlag defines --index (alias -IndexPath) on a verb whose index is
// otherwise its one positional argument, so that the spelling check,
// inventory, gate and partition accept works on every verb that reads an
// index.
func indexFlag(fs *flag.FlagSet) *string {
	var p string
	psflag.String(fs, &p, "index", "IndexPath", "the index `FILE` (the same as the INDEX argument)")
	return &p
}

// withIndexFlag puts the --index value in front of the positional
// arguments, so that the verb's own count of them rejects an index given
// twice.
func withIndexFlag(index string, pos []string) []string {
	if index == "" {
		return pos
	}
	return append([]string{index}, pos...)
}

// oneArg is the one positional argument of verb, which names what (""
// when none is given), or the usage error "takes one": with usage, whose
// synopsis its hint repeats.
func oneArg(verb, what, usage string, pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return "", nil
	case 1:
		return pos[0], nil
	}
	err := &outcome.Error{Status: outcome.Usage, Msg: fmt.Sprintf("%s takes one %s; found %d arguments", verb, what, len(pos))}
	if usage != "" {
		err.Hints = []string{"usage: memcompact " + usage}
	}
	return "", err
}
