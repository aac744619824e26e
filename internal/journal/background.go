package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/store"
)

// A first snapshot of a store too large to read within a hook's budget
// is finished in the background: the hook commits what it read as a part,
// starts a detached child of this same executable (the journal verb, told
// by BackgroundEnv that it continues a session start) and returns; the
// child takes the journal's lock shared, as any snapshot does, and
// finishes the snapshot with no deadline. Its progress is a small record
// beside the journal (background.json) the next session start reads and
// reports: finished, failed, or stopped (a child that was killed leaves
// the record saying "running" with a process that is gone). Nothing in the
// record is needed for the journal to be consistent: a killed child leaves
// what any killed snapshot leaves (objects no manifest names yet, which
// the next snapshot finds stored and prune removes when stale).

// BackgroundEnv is the variable that, in the environment of `memcompact
// journal STORE` (seen by RunRecord through its Where), makes the run the
// background continuation of a session start; its value is the session's
// id ("-" for none).
const BackgroundEnv = "MEMCOMPACT_JOURNAL_BACKGROUND"

// bgFile names the background run's record in the journal's folder.
const bgFile = "background.json"

// bgStarting is how long a record the hook wrote may wait for its child
// to say it runs; bgMaxAge is how long a run may say it runs before its
// process id is no longer believed (ids are reused).
const (
	bgStarting = time.Minute
	bgMaxAge   = 6 * time.Hour
)

// bgStatus is the background run's record.
type bgStatus struct {
	State    string    `json:"state"` // "starting", "running", "finished", "failed"
	PID      int       `json:"pid,omitempty"`
	Session  string    `json:"session,omitempty"`
	Started  time.Time `json:"started"`
	Ended    time.Time `json:"ended,omitzero"`
	Files    int       `json:"files"` // files left to record when it began
	Total    int       `json:"total"`
	Snapshot string    `json:"snapshot,omitempty"`
	Error    string    `json:"error,omitempty"`
}

func (j *Journal) bgPath() string { return filepath.Join(j.Dir, bgFile) }

// readBackground returns the background run's record, or nil.
func (j *Journal) readBackground() *bgStatus {
	raw, err := os.ReadFile(j.bgPath())
	if err != nil {
		return nil
	}
	var st bgStatus
	if json.Unmarshal(raw, &st) != nil || st.State == "" {
		return &bgStatus{State: "failed", Error: "its record does not read"}
	}
	return &st
}

// writeBackground replaces the record, durably.
func (j *Journal) writeBackground(st *bgStatus) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp, err := stageFile(j.bgPath(), raw, true)
	if err != nil {
		return err
	}
	return commitFile(tmp, j.bgPath(), true)
}

// alive reports whether the run the record names is still at work.
func (st *bgStatus) alive(now time.Time) bool {
	switch st.State {
	case "starting":
		return now.Sub(st.Started) < bgStarting
	case "running":
		return st.PID > 0 && running(st.PID) && now.Sub(st.Started) < bgMaxAge
	}
	return false
}

// backgroundNote is what the session note says of the record st (and the
// record is then done with: the caller removes it), or, while the run is
// at work, that it is.
func backgroundNote(st *bgStatus, now time.Time) string {
	what := "this store's files" // the hook's walk did not finish: not counted
	if st.Files >= 0 && st.Total > 0 {
		what = fmt.Sprintf("%d files", st.Files)
	}
	switch {
	case st.alive(now):
		left := ""
		if st.Files >= 0 && st.Total > 0 {
			left = fmt.Sprintf("%d of its %d files were left when it began, ", st.Files, st.Total)
		}
		return fmt.Sprintf("the journal is still recording this store in the background (%s%s ago); until it finishes, a file not yet recorded cannot be undone", left, now.Sub(st.Started).Round(time.Second))
	case st.State == "finished":
		return fmt.Sprintf("the journal finished recording this store in the background (%d files, snapshot %s): every file can now be undone", st.Total, st.Snapshot)
	case st.State == "failed":
		return fmt.Sprintf("the journal's background recording of %s stopped before it finished (%s); this session start went on from where it stopped", what, st.Error)
	}
	return fmt.Sprintf("the journal's background recording of %s stopped before it finished (its process is gone: killed, or the machine stopped); this session start went on from where it stopped", what)
}

// selfCommand is the command that runs this executable's journal verb on
// store as the background continuation; a variable so tests run their
// own binary.
var selfCommand = func(store, data, session string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if b := filepath.Base(exe); strings.HasSuffix(b, ".test") || strings.HasSuffix(b, ".test.exe") {
		// Another package's test binary running a session start: it has
		// no journal verb, and run again it would run its tests.
		return nil, fmt.Errorf("%s is a test binary, not memcompact", b)
	}
	if session == "" {
		session = "-"
	}
	cmd := exec.Command(exe, "journal", store)
	cmd.Env = append(os.Environ(), "MEMCOMPACT_DATA_DIR="+data, BackgroundEnv+"="+session)
	return cmd, nil
}

// startBackground records and starts the background run that finishes
// the snapshot res began, detached from the hook (its own session, no
// standard streams), and does not wait for it.
func (j *Journal) startBackground(req HookRequest, left, total int, now time.Time) error {
	st := &bgStatus{State: "starting", Session: req.Session, Started: now, Files: left, Total: total}
	if err := j.writeBackground(st); err != nil {
		return err
	}
	cmd, err := selfCommand(j.Store, req.DataDir, req.Session)
	if err == nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
		detach(cmd)
		err = spawn(cmd)
	}
	if err != nil {
		os.Remove(j.bgPath())
		return err
	}
	return nil
}

// spawn starts cmd and lets it go (the hook's process exits long before
// it; the system reaps it); a variable so a test, which outlives its
// children, reaps them itself.
var spawn = func(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// backgroundSecret is the background run's secret test (the hooks'); a
// variable so a test can slow it down.
var backgroundSecret = containsSecret

// BackgroundRequest is the background continuation of a session start.
type BackgroundRequest struct {
	Store   string      // the store folder
	DataDir string      // "" for DataDir's
	Where   store.Where // where the data directory is found
	Session string      // the session whose start it continues ("-": none)
	Now     func() time.Time
}

// RunBackground finishes, with no deadline, the snapshot a session start
// began and records how it ended (see startBackground). It runs at a low
// priority: the session it serves is running beside it.
func RunBackground(ctx context.Context, req BackgroundRequest) (*SnapshotResult, error) {
	j, dir, data, err := resolveOpen("journal", req.Store, req.DataDir, req.Where)
	if err != nil {
		return nil, err
	}
	lowerPriority()
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	session := req.Session
	if session == "-" {
		session = ""
	}
	st := j.readBackground()
	if st == nil || st.State != "starting" {
		// Not started by a session start (or already taken over): the
		// record is made here, so the next note still says how it ended.
		st = &bgStatus{Session: session, Started: now()}
	}
	st.State, st.PID = "running", os.Getpid()
	if err := j.writeBackground(st); err != nil {
		return nil, err
	}
	res, err := Snapshot(ctx, SnapshotRequest{Store: dir, DataDir: data, Cause: "session-start", Session: session, Secret: backgroundSecret, Now: req.Now})
	st.Ended = now()
	if err == nil && res.Partial {
		err = errors.New("the snapshot came out partial")
	}
	if err != nil {
		st.State, st.Error = "failed", err.Error()
	} else {
		st.State, st.Snapshot, st.Total = "finished", res.Manifest.ID, len(res.Manifest.Files)
	}
	if werr := j.writeBackground(st); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		return nil, &outcome.Error{Status: outcome.Refused, Reason: ReasonUnwritable, Err: err}
	}
	res.Store = dir
	return res, nil
}
