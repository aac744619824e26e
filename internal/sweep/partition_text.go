package sweep

import "fmt"

// Lines renders the report as the reference's text, with --strict's
// strays after it.
func (r *PartitionReport) Lines() []string {
	lines := []string{
		"RESULT: " + r.Result,
		fmt.Sprintf("enumerated: %d subject(s) on %s, from %s", r.SubjectsChecked, PSString(r.EnumeratedOn), PSString(r.EnumeratedFrom)),
		fmt.Sprintf("accounted: %d", len(r.Accounted)),
		fmt.Sprintf("unaccounted: %d", len(r.Unaccounted)),
		fmt.Sprintf("unverifiable: %d", len(r.Unverifiable)),
	}
	if r.Strays != nil {
		lines = append(lines, fmt.Sprintf("strays: %d", len(*r.Strays)))
	}
	for _, u := range r.Unaccounted {
		lines = append(lines, fmt.Sprintf("  - %s [%s] - %s", u.Identity, u.Population, u.Why))
	}
	for _, u := range r.Unverifiable {
		lines = append(lines, fmt.Sprintf("  ? %s [%s] - %s", u.Identity, u.Population, u.Why))
	}
	for _, m := range r.RecordProblems {
		lines = append(lines, "  - "+m)
	}
	if r.Strays != nil {
		for _, s := range *r.Strays {
			where := ""
			if s.IndexLine > 0 {
				where = fmt.Sprintf(" (index line %d)", s.IndexLine)
			}
			lines = append(lines, fmt.Sprintf("  ! %s [%s] %s - %s%s", s.Identity, s.Disposition, s.Leg, s.Why, where))
		}
	}
	if len(r.Unverifiable) > 0 {
		lines = append(lines, "",
			"This store records no admitted dates, so presence cannot be established per life.",
			"Landing the admission rule - the third limb of the split shape - is what makes this",
			"check able to tell one life of a re-earned name from another.")
	}
	return lines
}
