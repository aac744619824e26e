package cli

import (
	"flag"

	"github.com/memcompact/memcompact/internal/psflag"
)

// indexFlag defines --index (alias -IndexPath) on a verb whose index is
// otherwise its one positional argument, so that the spelling check,
// inventory, gate and partition accept works on every verb that reads an
// index.
func indexFlag(fs *flag.FlagSet) *string {
	p := fs.String("index", "", "the index `FILE` (the same as the INDEX argument)")
	psflag.Alias(fs, "index", "IndexPath")
	return p
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
