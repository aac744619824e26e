package sweep

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/jsonout"
	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/records"
)

// The sweep verbs' engines: RunGate, RunInventory and RunPartitionCheck,
// each taking a Request of plain values and returning its document, the
// text the reference prints, and the warnings to say on stderr.

// Reasons the sweep verbs reject a request for. ReasonUsage is a usage
// error the reference scripts print on standard output ("RESULT:
// usage-error" and a reason, or {result, reason} with -Json); the others
// are reported as memcompact's own errors.
const (
	ReasonUsage      outcome.Reason = "usage"
	ReasonBadDate    outcome.Reason = "bad-date"
	ReasonUnreadable outcome.Reason = "unreadable"
	ReasonUnwritable outcome.Reason = "unwritable"
)

// Records names a store's index and record files, as every sweep verb
// takes them: empty record paths mean the file beside the index.
type Records struct {
	Index, Ledger, Slate, Archive string
	AsOf                          string    // yyyy-MM-dd; "" for Today
	Today                         time.Time // the local date
}

// asOf is the date the verb reasons from.
func (r Records) asOf() (records.Date, error) {
	if r.AsOf == "" {
		return records.DateOf(r.Today), nil
	}
	d, ok := records.ParseDate(strings.TrimSpace(r.AsOf))
	if !ok {
		return records.Date{}, &outcome.Error{Status: outcome.Usage, Reason: ReasonBadDate, Msg: fmt.Sprintf("--as-of must be a date in yyyy-MM-dd form; found %q", r.AsOf)}
	}
	return d, nil
}

// usage is a usage error as the reference scripts print it.
func usage(format string, a ...any) error {
	return &outcome.Error{Status: outcome.Usage, Reason: ReasonUsage, Msg: fmt.Sprintf(format, a...)}
}

// refused is a refusal naming why.
func refused(err error, hints ...string) error {
	return &outcome.Error{Status: outcome.Refused, Reason: ReasonUnreadable, Msg: err.Error(), Err: err, Hints: hints}
}

// UsageJSON is the reference's JSON of a usage error of the sweep verbs.
func UsageJSON(reason string) UsageError {
	return UsageError{Result: "usage-error", Reason: reason}
}

// JSON renders v as the reference's serializer does: indented by two
// spaces, no HTML escaping, no trailing newline, and U+0085 escaped like
// the other line breaks (encoding/json leaves it raw).
func JSON(v any) []byte {
	var b bytes.Buffer
	if err := jsonout.Write(&b, v); err != nil {
		panic(err) // only our own structs are encoded
	}
	// The output is valid UTF-8, so these bytes can only be U+0085 inside a
	// string.
	out := bytes.ReplaceAll(b.Bytes(), []byte("\u0085"), []byte(`\u0085`))
	return bytes.TrimSuffix(out, []byte("\n"))
}
