// Command release cross-compiles memcompact for every platform its Claude
// Code plugin fetches from, and writes the release archives and their
// SHA-256 checksums file in GoReleaser's layout:
//
//	dist/memcompact_VERSION_OS_ARCH.tar.gz   (.zip for windows)
//	dist/memcompact_VERSION_checksums.txt    ("HEX  NAME" lines, sorted)
//
// Each archive holds every command under ./cmd and the README. It is the
// repository's one release command, run from the module root:
//
//	go run ./tools/release [-version V] [-out dist] [-platforms linux/amd64,...]
//
// GoReleaser is the field's convention; this standard-library program
// writes the same names, so the plugin's launcher (bin/memcompact) reads
// either. The version defaults to the plugin manifest's, so the plugin
// always fetches the archives of its own version. Archives are
// reproducible: every file in them carries the last commit's time (or
// SOURCE_DATE_EPOCH), and the executables are built with -trimpath.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Platforms are the systems a release is built for.
var platforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

const versionVar = "github.com/memcompact/memcompact/internal/cli.Version"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	version := fs.String("version", "", "the version to build (default: .claude-plugin/plugin.json's)")
	out := fs.String("out", "dist", "the folder the archives and checksums are written to")
	only := fs.String("platforms", strings.Join(platforms, ","), "comma-separated GOOS/GOARCH pairs (host: this machine's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" {
		v, err := pluginVersion(".claude-plugin/plugin.json")
		if err != nil {
			return err
		}
		*version = v
	}
	stamp, err := sourceTime()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	extras := []string{"README.md", "LICENSE"}
	var sums []string
	for _, p := range strings.Split(*only, ",") {
		if p = strings.TrimSpace(p); p == "host" {
			p = hostPlatform
		}
		goos, goarch, ok := strings.Cut(p, "/")
		if !ok {
			return fmt.Errorf("-platforms: %q is not GOOS/GOARCH", p)
		}
		name, sum, err := release(*version, goos, goarch, *out, stamp, extras)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", goos, goarch, err)
		}
		sums = append(sums, checksumLine(sum, name))
		fmt.Fprintln(stdout, filepath.Join(*out, name))
	}
	sort.Slice(sums, func(i, j int) bool { return sums[i][66:] < sums[j][66:] })
	checksums := filepath.Join(*out, checksumsName(*version))
	if err := os.WriteFile(checksums, []byte(strings.Join(sums, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintln(stdout, checksums)
	return nil
}

// pluginVersion is the "version" of the plugin manifest at path.
func pluginVersion(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%w (run from the module root, or give -version)", err)
	}
	var m struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if m.Version == "" {
		return "", fmt.Errorf("%s: no \"version\"", path)
	}
	return m.Version, nil
}

// sourceTime is the time stamped on every archived file: SOURCE_DATE_EPOCH,
// else the last commit's time, else the Unix epoch, so two runs on the
// same source write the same bytes.
func sourceTime() (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH: %w", err)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	if b, err := exec.Command("git", "log", "-1", "--format=%ct").Output(); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			return time.Unix(n, 0).UTC(), nil
		}
	}
	return time.Unix(0, 0).UTC(), nil
}

// goBuild is the go build of every command under ./cmd for one platform
// into the folder dir. cgo is off (CGO_ENABLED=0): memcompact needs no C,
// a cross build could not use it, and the executables are static, so a
// run pays no dynamic loader and no libc (the net package links libc for
// its resolver when cgo is on). TestBuildIsStatic checks it.
func goBuild(version, goos, goarch, dir string) *exec.Cmd {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X "+versionVar+"="+version, "-o", dir+string(filepath.Separator), "./cmd/...")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	return cmd
}

// release builds one platform's executables and writes its archive into
// out, returning the archive's name and SHA-256.
func release(version, goos, goarch, out string, stamp time.Time, extras []string) (name, sum string, err error) {
	bin, err := os.MkdirTemp("", "memcompact-release-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(bin)
	if b, err := goBuild(version, goos, goarch, bin).CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("go build: %v\n%s", err, b)
	}
	entries, err := os.ReadDir(bin)
	if err != nil {
		return "", "", err
	}
	var files []file
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(bin, e.Name()))
		if err != nil {
			return "", "", err
		}
		files = append(files, file{e.Name(), b, 0o755})
	}
	if len(files) == 0 {
		return "", "", errors.New("go build wrote no executable")
	}
	for _, x := range extras {
		if b, err := os.ReadFile(x); err == nil {
			files = append(files, file{x, b, 0o644})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	name = archiveName(version, goos, goarch)
	var archive []byte
	if goos == "windows" {
		archive, err = zipOf(files, stamp)
	} else {
		archive, err = tarGzOf(files, stamp)
	}
	if err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(out, name), archive, 0o644); err != nil {
		return "", "", err
	}
	h := sha256.Sum256(archive)
	return name, hex.EncodeToString(h[:]), nil
}

// archiveName is the release archive of one platform, as GoReleaser
// names it and both launchers (bin/memcompact, bin/memcompact.ps1) ask
// for it: a zip for windows, a gzipped tar elsewhere.
func archiveName(version, goos, goarch string) string {
	base := "memcompact_" + version + "_" + goos + "_" + goarch
	if goos == "windows" {
		return base + ".zip"
	}
	return base + ".tar.gz"
}

// checksumsName is the release's checksums file.
func checksumsName(version string) string { return "memcompact_" + version + "_checksums.txt" }

// checksumLine is one line of the checksums file: the archive's SHA-256 in
// lower-case hex, two spaces, its name (sha256sum's text form).
func checksumLine(sum, name string) string { return sum + "  " + name }

// file is one member of an archive.
type file struct {
	name string
	data []byte
	mode int64
}

func tarGzOf(files []file, stamp time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		hdr := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: stamp, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipOf(files []file, stamp time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		hdr := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: stamp}
		hdr.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// hostPlatform is this machine's GOOS/GOARCH: -platforms host builds only
// it, for a quick local try of the plugin's first run.
var hostPlatform = runtime.GOOS + "/" + runtime.GOARCH
