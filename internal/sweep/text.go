package sweep

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints the gate's verdict as the reference script does, its
// lines one after another.
func (r *GateResult) WriteText(w io.Writer) {
	fmt.Fprintln(w, strings.Join(r.Lines, "\n"))
}

// WriteText prints the partition report as the reference script does.
func (r *PartitionResult) WriteText(w io.Writer) {
	fmt.Fprintln(w, strings.Join(r.Report.Lines(), "\n"))
}

// WriteUsageText prints a usage error as the reference scripts do, on
// the verb's standard output (UsageJSON is its --json form).
func WriteUsageText(w io.Writer, reason string) {
	fmt.Fprintf(w, "RESULT: usage-error\nreason: %s\n", reason)
}
