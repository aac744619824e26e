package companion

import (
	"errors"
	"fmt"
)

// ErrUnavailable is the error of a part of memcompact or memcompact-hook
// that asks memcompact-full for what only it links (goldmark's Markdown
// parser: package mdblocks; yaml.v3: package ccentry) and could not reach
// it: an install to mend (InstallHint), not a bug in memcompact. The parts
// that need the answer to go on panic with an error wrapping it, which the
// command line turns into a refusal and a hook into an allowing note.
var ErrUnavailable = errors.New("memcompact-full is not available")

// Unavailablef is an error wrapping ErrUnavailable whose message is the
// one formatted, so that each part says in its own words what it could
// not read.
func Unavailablef(format string, a ...any) error {
	return &unavailable{fmt.Sprintf(format, a...)}
}

type unavailable struct{ msg string }

func (u *unavailable) Error() string { return u.msg }
func (u *unavailable) Unwrap() error { return ErrUnavailable }

// Unavailable reports whether r, a value recovered from a panic, is an
// error wrapping ErrUnavailable, and its message.
func Unavailable(r any) (string, bool) {
	err, ok := r.(error)
	if !ok || !errors.Is(err, ErrUnavailable) {
		return "", false
	}
	return err.Error(), true
}
