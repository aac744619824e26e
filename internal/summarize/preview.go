package summarize

import (
	"fmt"
	"strings"
)

// Preview renders what a summarizer would be sent for in, and where, for
// --plan: nothing is sent. The API key is never shown.
func Preview(c Config, in Input) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Summarizer: %s\n", c.Kind)
	fmt.Fprintf(&b, "Sent to: %s\n", c.Where())
	if c.Remote() {
		b.WriteString("This text leaves this machine.\n")
	} else if c.Kind == Anthropic || c.Kind == OpenAI {
		b.WriteString("This text stays on this machine (a loopback address).\n")
	}
	switch c.Kind {
	case Claude:
		fmt.Fprintf(&b, "Command: claude %s (the request on stdin)\n", shellQuote(claudeArgs(c.Model)))
	case Anthropic:
		fmt.Fprintf(&b, "Request: POST /v1/messages, model %s, max_tokens %d, key from ANTHROPIC_API_KEY\n", c.Model, MaxTokens)
	case OpenAI:
		fmt.Fprintf(&b, "Request: POST /chat/completions, model %s, key from OPENAI_API_KEY\n", c.Model)
	case Command:
		b.WriteString("Standard input: the instructions, a blank line, then the request\n")
	}
	fmt.Fprintf(&b, "If the bullets miss a must-keep line or a fact, one repair message follows, naming what is missing.\n")
	b.WriteString("\n--- instructions (system prompt) ---\n")
	b.WriteString(Instructions + "\n")
	b.WriteString("\n--- request ---\n")
	b.WriteString(Request(in))
	return b.String()
}

// shellQuote renders args for a person to read (and paste into sh).
func shellQuote(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case a == "":
			out[i] = "''"
		case strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~"):
			if strings.Contains(a, "\n") {
				out[i] = "'<the instructions below>'"
			} else {
				out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
			}
		default:
			out[i] = a
		}
	}
	return strings.Join(out, " ")
}
