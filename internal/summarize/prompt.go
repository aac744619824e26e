package summarize

import (
	"fmt"
	"strings"
)

// Instructions is the one prompt every summarizer gets: the rules of a
// MemoryCore compaction, in our own words. compact_plan hands the same
// text to an agent that writes the bullets itself.
const Instructions = `You compress the oldest entries of an AI assistant's memory file into the bullets of its "Compacted History" section. The file is the assistant's long-term memory: what you drop is forgotten for good, what you add is believed.

Rules:
1. Write one dense bullet per fact, decision or preference. Merge entries that say the same thing into one bullet; keep the date of each entry a bullet comes from at the start of the bullet (2026-03-04: …, or 2026-03-04, 2026-05-01: … when merged).
2. A reason stays attached to its rule: "Use tabs in Go files, because gofmt does" is one bullet, never two.
3. Keep every preference, correction and decision, and the latest word when one was reversed (say that the earlier one was reversed).
4. Keep every literal exactly as written: code, commands, paths, URLs, versions, dates, numbers with units, key: value and KEY=value settings.
5. Drop chatter, greetings, thanks, filler, open questions that were answered, and exact or near duplicates.
6. Never invent, guess or generalise: every bullet must be supported by the entries. Keep each item under its own subject: an attribute or event of one person, project or section never moves to another.
7. Write in the language of the entries; do not translate.
8. Lines listed under "Must keep" must appear in your bullets with every word and literal they hold.
9. Priority facts are never dropped silently: health and safety (allergies, medication, emergencies), a person's attributes (family, age, role, likes and dislikes, birthday, contact details) and every decision or instruction still in force. Keep each in a bullet. If you must leave one out to fit, add a bullet for it that starts "Dropped:" and names it briefly with its date ("- Dropped: 2025-01-17 Omar's peanut allergy"); its full text stays in the snapshot. Write "Dropped:" in English whatever the language of the entries.

Answer with the bullets only: a Markdown list, one "- " line per bullet, no heading, no preamble, no closing remark, no code fence around the list.`

// Input is what a summarizer is asked to distill.
type Input struct {
	File     string   // the memory file, root-relative (named in the request)
	Tier     string   // the entries to distill, as they are (never a secret entry)
	MustKeep []string // lines that must reach the bullets word for word
}

// Request renders in as the user message every summarizer gets: the file's
// name, the must-keep lines, then the entries between markers.
func Request(in Input) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Distill these entries of %s into bullets.\n", orUnnamed(in.File))
	if len(in.MustKeep) > 0 {
		b.WriteString("\nMust keep (each of these lines, with every word and literal):\n")
		for _, l := range in.MustKeep {
			b.WriteString("- " + strings.TrimSpace(l) + "\n")
		}
	}
	b.WriteString("\n<entries>\n")
	b.WriteString(in.Tier)
	if !strings.HasSuffix(in.Tier, "\n") {
		b.WriteString("\n")
	}
	b.WriteString("</entries>\n")
	return b.String()
}

// Repair renders the one message sent back when the bullets miss
// something: exactly what is missing, and the line of the entries that
// holds it.
func Repair(v Verdict) string {
	var b strings.Builder
	if len(v.Missing) > 0 {
		b.WriteString("Your bullets are not complete yet.\n")
	} else if len(v.Misplaced) > 0 {
		b.WriteString("Your bullets attribute something to the wrong parent.\n")
	} else if len(v.Unfaithful) > 0 {
		b.WriteString("Some of your bullets do not say what the entries say.\n")
	} else {
		b.WriteString("Your bullets need one more pass.\n")
	}
	if len(v.Missing) > 0 {
		b.WriteString("\nThese are missing; add each of them, keeping every literal exactly as written:\n")
		for _, m := range v.Missing {
			if m.Line != "" && m.Line != m.What {
				fmt.Fprintf(&b, "- %s (from the line: %s)\n", m.What, strings.TrimSpace(m.Line))
			} else {
				fmt.Fprintf(&b, "- %s\n", m.What)
			}
		}
	}
	if len(v.Misplaced) > 0 {
		b.WriteString("\nThese statements are under the wrong parent; put each under the person, section or entry it belongs to, and under no other:\n")
		for _, m := range v.Misplaced {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	if len(v.Unfaithful) > 0 {
		b.WriteString("\nThese bullets do not say what the entries say; restate each from its own entry, with its names, numbers, dates and negations exactly as written there, keep every priority fact (health and safety, a person's attributes, a decision or instruction in force) or list it in a bullet that starts \"Dropped:\", and state a reversed rule only as it now stands:\n")
		for _, u := range v.Unfaithful {
			fmt.Fprintf(&b, "- %s\n", u)
		}
	}
	if v.Over != "" {
		b.WriteString("\nThey are too long: " + v.Over + " Merge and shorten bullets without losing anything listed above.\n")
	}
	b.WriteString("\nAnswer with the complete corrected list of bullets only.")
	return b.String()
}

func orUnnamed(file string) string {
	if file == "" {
		return "a memory file"
	}
	return file
}
