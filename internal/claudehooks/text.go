package claudehooks

import (
	"fmt"
	"io"
)

// WriteText prints what install or uninstall did to the settings file:
// the file created or updated (or left as it was), each hook added, kept
// or removed, and where the previous contents were kept.
func (c *Result) WriteText(w io.Writer) {
	switch {
	case c.Action == ActionInstall && !c.Changed:
		fmt.Fprintf(w, "memcompact hooks already installed in %s\n", c.Settings)
	case c.Action == ActionInstall:
		verb := "updated"
		if c.Created {
			verb = "created"
		}
		fmt.Fprintf(w, "%s %s\n", verb, c.Settings)
		for _, a := range c.Added {
			fmt.Fprintf(w, "  added    %s\n", a)
		}
		for _, a := range c.Present {
			fmt.Fprintf(w, "  kept     %s (already there; rewritten in place)\n", a)
		}
	case !c.Changed:
		fmt.Fprintf(w, "no memcompact hooks in %s; nothing to remove\n", c.Settings)
	default:
		fmt.Fprintf(w, "updated %s\n", c.Settings)
		for _, a := range c.Removed {
			fmt.Fprintf(w, "  removed  %s\n", a)
		}
	}
	if c.Backup != "" {
		fmt.Fprintf(w, "previous contents kept in %s\n", c.Backup)
	}
	if c.Action == ActionInstall {
		fmt.Fprintf(w, "the hooks run %s (memcompact %s; each command tried once)\n", c.Bin, c.Version)
		fmt.Fprintf(w, "next: start a new Claude Code session (the hooks load at start), then run 'memcompact doctor' to see them working\n")
	}
}
