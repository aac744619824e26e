package cli

import (
	"embed"
	"strings"
)

// helpFiles holds each verb's help, help/NAME.txt for the verb NAME: its
// first line says in a few words what the verb does (the list of verbs
// shows it), the paragraphs after it explain (-h shows them all), so the
// prose a person reads stays out of the code that maps flags. A line
// {{NAME}} stands for the text of help/NAME.txt, which verbs share.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help is the text of help/name.txt without its final newline. A missing
// file is a mistake in the build, not in the command line.
func help(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// helpText is the help of the verb name, with the shared texts it names
// put in.
func helpText(name string) string {
	lines := strings.Split(help(name), "\n")
	for i, l := range lines {
		if inc, ok := strings.CutPrefix(l, "{{"); ok && strings.HasSuffix(inc, "}}") {
			lines[i] = help(strings.TrimSuffix(inc, "}}"))
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// short is the first line of the verb name's help.
func short(name string) string {
	s, _, _ := strings.Cut(help(name), "\n")
	return s
}
