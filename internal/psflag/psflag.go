// Package psflag reads a command line into a standard library
// flag.FlagSet the way the reference PowerShell scripts' callers write it,
// as stores quote their commands:
//
//   - flags may follow positional arguments ("check MEMORY.md --json");
//     "--" ends the flags, and every argument after it is positional;
//   - a flag's name matches in any letter case (-indexpath, -JSON), as
//     PowerShell's parameter names do;
//   - with ExpandPrefixes, a parameter may be named by an unambiguous
//     prefix (-Index for -IndexPath) and given its value in PowerShell's
//     colon form (-IndexPath:FILE, -Json:$false).
//
// A PowerShell parameter is a flag whose name begins with a capital letter
// (-IndexPath, -Json): the reference scripts' names, registered with Alias
// beside memcompact's own lowercase names so both set the same variable.
package psflag

import (
	"flag"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Alias registers extra names for the already-defined flag name, so the
// reference scripts' parameter names (-IndexPath, -Json, …) set the same
// variable. An undefined name is a mistake in the program: it panics.
func Alias(fs *flag.FlagSet, name string, aliases ...string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("psflag: alias for undefined flag " + name)
	}
	for _, a := range aliases {
		fs.Var(f.Value, a, "alias of --"+name)
	}
}

// String defines a string flag, empty by default, by memcompact's name and
// by the reference script's name (psName) for it.
func String(fs *flag.FlagSet, p *string, name, psName, usage string) {
	fs.StringVar(p, name, "", usage)
	Alias(fs, name, psName)
}

// Bool defines a switch, off by default, by memcompact's name and by the
// reference script's name (psName) for it.
func Bool(fs *flag.FlagSet, p *bool, name, psName, usage string) {
	fs.BoolVar(p, name, false, usage)
	Alias(fs, name, psName)
}

// Parse parses args into fs, allowing flags after positional arguments and
// matching flag names without regard to letter case. It returns the
// positional arguments, or fs.Parse's error (flag.ErrHelp for -h).
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	args = fold(fs, args)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// fold rewrites "-indexpath" to "-IndexPath" (and so on) when the exact
// name is not defined but a case-insensitive match is.
func fold(fs *flag.FlagSet, args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		dashes := "-"
		name := a[1:]
		if strings.HasPrefix(name, "-") {
			dashes, name = "--", name[1:]
		}
		value := ""
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, value = name[:eq], name[eq:]
		}
		if name == "" || fs.Lookup(name) != nil {
			continue
		}
		if match := lookupFold(fs, name); match != nil {
			out[i] = dashes + match.Name + value
		}
	}
	return out
}

// lookupFold is the flag of fs named name in any letter case (the last
// defined, in name order, if several are), or nil.
func lookupFold(fs *flag.FlagSet, name string) *flag.Flag {
	var match *flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if strings.EqualFold(f.Name, name) {
			match = f
		}
	})
	return match
}

// ExpandPrefixes rewrites, before Parse, an unambiguous prefix of one of
// fs's PowerShell parameters (-Index, -Policy, -J) to the full name, and
// PowerShell's colon form (-IndexPath:FILE, -Json:$true, -Json:$false) to
// the flag form. A name fs defines in any letter case is left to Parse,
// and so are -h and -help.
func ExpandPrefixes(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		out = append(out, expand(fs, a))
	}
	return out
}

// expand is ExpandPrefixes for one argument.
func expand(fs *flag.FlagSet, a string) string {
	if len(a) < 2 || a[0] != '-' || strings.HasPrefix(a, "--") {
		return a
	}
	name, value := a[1:], ""
	if eq := strings.IndexByte(name, '='); eq >= 0 {
		name, value = name[:eq], name[eq:]
	}
	colon := -1
	if value == "" {
		colon = strings.IndexByte(name, ':')
	}
	if colon > 0 {
		name, value = name[:colon], name[colon+1:]
	}
	full := ""
	if name != "" {
		full = paramName(fs, name)
	}
	switch {
	case full == "":
		return a
	case colon <= 0:
		if defined(fs, name) {
			return a
		}
		return "-" + full + value
	case full == "Json":
		// -Json:$true / -Json:$false; a bare "-Json:" is the switch.
		v := strings.TrimPrefix(strings.ToLower(value), "$")
		if v == "" {
			v = "true"
		}
		return "-Json=" + v
	case value == "":
		// "-IndexPath: FILE": the value is the next argument.
		return "-" + full
	}
	return "-" + full + "=" + value
}

// paramName returns the PowerShell parameter of fs that name is the full
// name or an unambiguous prefix of (letter case ignored), or "".
func paramName(fs *flag.FlagSet, name string) string {
	var match []string
	exact := ""
	fs.VisitAll(func(f *flag.Flag) {
		p := f.Name
		if r, _ := utf8.DecodeRuneInString(p); !unicode.IsUpper(r) {
			return
		}
		switch {
		case strings.EqualFold(p, name):
			exact = p
		case len(name) <= len(p) && strings.EqualFold(p[:len(name)], name):
			match = append(match, p)
		}
	})
	if exact != "" {
		return exact
	}
	if len(match) == 1 {
		return match[0]
	}
	return ""
}

// defined reports whether fs defines name in any letter case, or name is
// -h or -help, which the flag package answers itself.
func defined(fs *flag.FlagSet, name string) bool {
	return strings.EqualFold(name, "h") || strings.EqualFold(name, "help") || lookupFold(fs, name) != nil
}

// Given reports whether any of names was set on the command line.
func Given(fs *flag.FlagSet, names ...string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		for _, n := range names {
			found = found || f.Name == n
		}
	})
	return found
}

// TakesValue reports whether arg is a flag of fs (in any letter case, as
// Parse reads them) that takes its value from the next argument.
func TakesValue(fs *flag.FlagSet, arg string) bool {
	if !strings.HasPrefix(arg, "-") || strings.Contains(arg, "=") {
		return false
	}
	f := lookupFold(fs, strings.TrimLeft(arg, "-"))
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// Asks reports whether args turn on the switch name before a "--", in any
// of the forms Parse and ExpandPrefixes read (--json, -Json, -json=true,
// -Json:$true, -Json:true), in any letter case. It reads args alone, so it
// answers even when they do not parse.
func Asks(args []string, name string) bool {
	name = strings.ToLower(name)
	for _, a := range args {
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch strings.ToLower(strings.TrimLeft(a, "-")) {
		case name, name + "=true", name + ":$true", name + ":true":
			return true
		}
	}
	return false
}
