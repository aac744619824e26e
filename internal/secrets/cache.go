package secrets

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/memcompact/memcompact/internal/filecache"
	"github.com/memcompact/memcompact/internal/textfile"
)

// A file's scan result is cached (package filecache) as the rules that
// matched and the byte positions of their secrets in the file's text —
// never the text itself. An unchanged file then costs a stat; one with
// findings is read again to show its excerpts.

type cached struct {
	Binary bool        `json:"binary,omitempty"`
	Hits   []cachedHit `json:"hits"`
}

type cachedHit struct {
	Rule       string `json:"rule"`
	Start, End int
}

func (c cached) hits() []hit {
	out := make([]hit, len(c.Hits))
	for i, h := range c.Hits {
		out[i] = hit{rule: h.Rule, start: h.Start, end: h.End}
	}
	return out
}

// ownRulesVersion changes whenever memcompact's own rules change what they
// find; with a digest of gitleaks' table it versions the cache.
const ownRulesVersion = "2026-12-02.1"

// rulesVersion versions the cache by the rules that made its results. The
// digest of gitleaks' table is written beside the table by its generator
// (TestGeneratedRules checks it): hashing the printed table here cost
// every process that opens the cache 2 M instructions.
func rulesVersion() string { return ownRulesVersion + " " + gitleaksSpecDigest }

// openCache opens the cache for a scan of paths: one namespace per set of
// paths scanned (a store directory, usually).
func openCache(paths []string) *filecache.Cache {
	var abs []string
	for _, p := range paths {
		if a, err := filepath.Abs(p); err == nil {
			abs = append(abs, a)
		}
	}
	return filecache.Open("secrets "+strings.Join(abs, "\x00"), rulesVersion())
}

// cached reports a file whose size and time say it has not changed since
// its cached scan. A file with findings is read again for the excerpts;
// if it no longer matches its digest, it is scanned like a new one.
func (rep *Report) cached(path string) bool {
	if rep.cache == nil {
		return false
	}
	fi, err := rep.stats.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	data, ok := rep.cache.Stat(absPath(path), fi)
	var c cached
	if !ok || json.Unmarshal(data, &c) != nil {
		return false
	}
	if c.Binary || len(c.Hits) == 0 {
		rep.add(path, "", c)
		return true
	}
	f, err := rep.reads.Read(path)
	if err != nil || f.Digest != digestOf(rep.cache, path) {
		return false
	}
	if !valid(c, f.Text) {
		return false
	}
	rep.add(path, f.Text, c)
	return true
}

// recall looks a read file up by its content digest.
func (rep *Report) recall(path string, f *textfile.File) (cached, bool) {
	var c cached
	if rep.cache == nil {
		return c, false
	}
	fi, err := rep.stats.Stat(path)
	if err != nil {
		return c, false
	}
	data, ok := rep.cache.Digest(absPath(path), fi, f.Digest)
	if !ok || json.Unmarshal(data, &c) != nil || !valid(c, f.Text) {
		return cached{}, false
	}
	return c, true
}

// remember records a file's scan.
func (rep *Report) remember(path string, f *textfile.File, c cached) {
	if rep.cache == nil {
		return
	}
	fi, err := rep.stats.Stat(path)
	if err != nil {
		return
	}
	data, err := json.Marshal(c)
	if err != nil {
		return
	}
	rep.cache.Put(absPath(path), fi, f.Digest, data)
}

// valid checks cached positions against the text they index, so a corrupt
// record can never make render slice out of range.
func valid(c cached, text string) bool {
	for _, h := range c.Hits {
		if h.Start < 0 || h.End <= h.Start || h.End > len(text) || h.Rule == "" {
			return false
		}
	}
	return true
}

func digestOf(c *filecache.Cache, path string) string {
	return c.DigestOf(absPath(path))
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
