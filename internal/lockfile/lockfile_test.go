package lockfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/testshared/short"
)

// TestMain lets the test binary act as a second process that holds a lock
// until it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LOCKFILE_TEST_HOLD"); dir != "" {
		if _, err := Lock(context.Background(), dir); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("held")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	short.RunInMemory(m)
}

func TestLockRefusesWhileHeldAndNamesHolder(t *testing.T) {
	dir := t.TempDir()
	release, err := Lock(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = Lock(ctx, dir)
	if !errors.Is(err, ErrHeld) {
		t.Fatalf("second Lock = %v, want ErrHeld", err)
	}
	if outcome.ReasonOf(err) != ReasonHeld || outcome.StatusOf(err) != outcome.Refused {
		t.Errorf("refusal reason/status = %q/%v", outcome.ReasonOf(err), outcome.StatusOf(err))
	}
	if want := "pid " + strconv.Itoa(os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("refusal %q does not name the holder (%s)", err, want)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	release2, err := Lock(context.Background(), dir)
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	release2()
	if Holder(filepath.Join(dir, Name)) != "" {
		t.Error("a released lock still names a holder")
	}
}

// TestLockExcludes runs read-modify-write cycles on one counter file from
// many goroutines; every increment must survive.
func TestLockExcludes(t *testing.T) {
	dir := t.TempDir()
	counter := filepath.Join(dir, "n")
	os.WriteFile(counter, []byte("0"), 0o644)
	const workers, rounds = 8, 25
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				release, err := Lock(context.Background(), dir)
				if err != nil {
					t.Error(err)
					return
				}
				raw, _ := os.ReadFile(counter)
				n, _ := strconv.Atoi(string(raw))
				time.Sleep(time.Duration(r%3) * 100 * time.Microsecond)
				os.WriteFile(counter, []byte(strconv.Itoa(n+1)), 0o644)
				release()
			}
		}()
	}
	wg.Wait()
	raw, _ := os.ReadFile(counter)
	if got := string(raw); got != strconv.Itoa(workers*rounds) {
		t.Errorf("counter = %s, want %d: increments were lost", got, workers*rounds)
	}
}

// TestLockAcrossProcessesAndKill holds the lock in a second process, checks
// it excludes us, kills that process with SIGKILL and checks the lock is
// free again.
func TestLockAcrossProcessesAndKill(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LOCKFILE_TEST_HOLD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.Contains(string(buf[:n]), "held") {
		t.Fatalf("helper said %q", buf[:n])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, dir); !errors.Is(err, ErrHeld) {
		t.Fatalf("Lock while another process holds it = %v", err)
	} else if !strings.Contains(err.Error(), "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("refusal %q does not name the holding process", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	release, err := Lock(context.Background(), dir)
	if err != nil {
		t.Fatalf("Lock after the holder was killed: %v", err)
	}
	release()
}

// TestBusy: Busy sees a held lock and names its holder, waits for its
// release, never creates the lock file, and takes a killed run's leftover
// file for free.
func TestBusy(t *testing.T) {
	dir := t.TempDir()
	short := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}
	if _, busy := Busy(short(), dir); busy {
		t.Fatal("busy with no lock file")
	}
	if _, err := os.Stat(filepath.Join(dir, Name)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Busy created the lock file: %v", err)
	}
	release, err := Lock(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	who, busy := Busy(short(), dir)
	if !busy || !strings.Contains(who, "pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("Busy = %q, %v while held; want busy naming this process", who, busy)
	}
	// Released while Busy waits: not busy.
	go func() {
		time.Sleep(20 * time.Millisecond)
		release()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, busy := Busy(ctx, dir); busy {
		t.Fatal("still busy after the release")
	}
	// A leftover file nobody holds (a killed run's) is not busy.
	if err := os.WriteFile(filepath.Join(dir, Name), []byte("pid 1 on h since t: memcompact sweep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, busy := Busy(short(), dir); busy {
		t.Fatal("busy on a lock file nobody holds")
	}
}
