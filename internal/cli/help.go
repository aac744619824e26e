package cli

import (
	"embed"
	"strings"
)

// helpFiles holds each verb's long help, help/NAME.txt for the verb NAME,
// so the prose a person reads stays out of the code that maps flags.
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
