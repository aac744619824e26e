package sweepact

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/memcompact/memcompact/internal/policy"
	"github.com/memcompact/memcompact/internal/records"
	"github.com/memcompact/memcompact/internal/textfile"
)

// policyFile is where a store keeps its values region: POLICY.md beside
// the index in a split store, else the index itself.
func policyFile(dir, indexPath string) string {
	if p := filepath.Join(dir, "POLICY.md"); fileExists(p) {
		return p
	}
	return indexPath
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// readBudget returns the store's size budget in units — the budget
// fraction of its freshest limit observation — or nil when the store
// records no usable budget inputs.
func readBudget(dir string, asOf records.Date) *int {
	f, err := textfile.Read(policyFile(dir, filepath.Join(dir, "MEMORY.md")))
	if err != nil {
		return nil
	}
	v := policy.ParseValues(textfile.Lines(f.Text), dateTime(asOf))
	if !v.Present || len(v.Errors) > 0 {
		return nil
	}
	obs, ok := v.Freshest()
	if !ok {
		return nil
	}
	frac := policy.DefaultFraction
	if v.HasFraction {
		frac = v.Fraction
	}
	b := int(math.Floor(frac * float64(obs.Value)))
	return &b
}

func dateTime(d records.Date) time.Time { return time.Date(d.Y, d.M, d.D, 0, 0, 0, 0, time.UTC) }

func addDays(d records.Date, n int) records.Date { return records.DateOf(dateTime(d).AddDate(0, 0, n)) }

// RecallRel is the recall log inside the store: one line per read of an
// entry, "yyyy-MM-dd<TAB>name", appended by the PostToolUse hook.
const RecallRel = ".memcompact/recall.log"

// recallStat is what the recall log says of one entry: how many reads,
// and the date of the last.
type recallStat struct {
	n    int
	last string
}

// readRecalls counts the reads the recall log records, per entry name,
// with the last read's date. A store without a log has no recall
// evidence, which protects nothing and condemns nothing.
func readRecalls(dir string) map[string]recallStat {
	out := map[string]recallStat{}
	f, err := os.Open(filepath.Join(dir, RecallRel))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if date, name, ok := strings.Cut(sc.Text(), "\t"); ok && name != "" {
			r := out[name]
			r.n++
			if _, ok := records.ParseDate(date); ok && date > r.last {
				r.last = date
			}
			out[name] = r
		}
	}
	return out
}

// RecordReadRequest is one read of a file, as the PostToolUse hook saw it.
type RecordReadRequest struct {
	File  string
	Today time.Time
}

// RunRecordRead appends one line to the recall log of the store holding
// File, when File is an entry of a store (a .md file beside a MEMORY.md,
// not one of the store's own files). It reports whether it counted. The
// line is one short O_APPEND write, whole even when sessions read at once.
func RunRecordRead(req RecordReadRequest) (bool, error) {
	dir, base := filepath.Dir(req.File), filepath.Base(req.File)
	if !strings.HasSuffix(strings.ToLower(base), ".md") || !fileExists(filepath.Join(dir, "MEMORY.md")) {
		return false, nil
	}
	name := records.EntryName(base)
	if strings.ContainsFunc(name, unicode.IsControl) {
		// A newline (or any control character) would forge a line of the
		// log: such a name is not counted.
		return false, fmt.Errorf("%q: a file name with a control character is not counted in the recall log", base)
	}
	for _, own := range []string{"MEMORY", "LEDGER", "SLATE", "ARCHIVE", "POLICY"} {
		if strings.EqualFold(name, own) {
			return false, nil
		}
	}
	log := filepath.Join(dir, RecallRel)
	if err := withinStore(dir, log); err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		return false, err
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return false, err
	}
	_, werr := f.Write([]byte(req.Today.Format("2006-01-02") + "\t" + name + "\n"))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr == nil, werr
}
