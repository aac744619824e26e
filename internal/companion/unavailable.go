package companion

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// ErrUnavailable is the error of a part of memcompact or memcompact-hook
// that asks memcompact-full for what only it links (goldmark's Markdown
// parser: package mdblocks; yaml.v3: package entryfile) and could not reach
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

// Ask puts a question to memcompact-full, or whichever of names answers
// first: for each name in turn, the executable installed with this one
// (Find) is run with the one argument arg and input on its standard
// input, and read is given what it printed. The first run that exits 0
// and whose output read accepts ends it. The error says, for each name,
// why it did not answer; the caller wraps it (Unavailablef) in its own
// words.
func Ask(names []string, arg string, input []byte, read func(out []byte) error) error {
	var why []string
	for _, name := range names {
		err := ask(name, arg, input, read)
		if err == nil {
			return nil
		}
		why = append(why, err.Error())
	}
	return errors.New(strings.Join(why, "; "))
}

// ask is Ask of one executable.
func ask(name, arg string, input []byte, read func(out []byte) error) error {
	bin, err := Find(name)
	if err != nil {
		return err
	}
	if Loop(name) {
		return fmt.Errorf("%s asked this executable already", name)
	}
	var out, stderr bytes.Buffer
	code, err := Run(bin, name, []string{arg}, bytes.NewReader(input), &out, &stderr)
	if err == nil && code != 0 {
		err = fmt.Errorf("exit status %d", code)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", bin, arg, err, strings.TrimSpace(stderr.String()))
	}
	return read(out.Bytes())
}
