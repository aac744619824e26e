package summarize

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// ConfigRel is the root-relative path of a memory root's summarizer
// settings, read by compact, save and the hooks.
const ConfigRel = "compaction/summarizer.toml"

// File is a root's summarizer settings. Every field is optional; a flag
// given on the command line wins over the file.
type File struct {
	Summarizer string `toml:"summarizer"` // builtin, claude, anthropic, openai, or a shell command
	Model      string `toml:"model"`
	BaseURL    string `toml:"base_url"`
	Timeout    string `toml:"timeout"` // a Go duration: "90s", "2m"
	// AllowRemote is the standing consent to send the oldest tier (never
	// a secret entry) off this machine to the summarizer named.
	AllowRemote bool `toml:"allow_remote"`
	Strict      bool `toml:"strict"` // abort rather than append what a model left out
}

// LoadFile reads root's ConfigRel; a root without one has no settings
// (nil, nil). An unknown key or a bad value is an error naming the line.
func LoadFile(root string) (*File, error) {
	p := filepath.Join(root, filepath.FromSlash(ConfigRel))
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f File
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var de *toml.DecodeError
		var sm *toml.StrictMissingError
		switch {
		case errors.As(err, &de):
			line, _ := de.Position()
			return nil, fmt.Errorf("%s:%d: %s", ConfigRel, line, de.Error())
		case errors.As(err, &sm) && len(sm.Errors) > 0:
			line, _ := sm.Errors[0].Position()
			return nil, fmt.Errorf("%s:%d: unknown setting %q (known: summarizer, model, base_url, timeout, allow_remote, strict)", ConfigRel, line, strings.Join(sm.Errors[0].Key(), "."))
		}
		return nil, fmt.Errorf("%s: %v", ConfigRel, err)
	}
	if f.Timeout != "" {
		if d, err := time.ParseDuration(f.Timeout); err != nil || d <= 0 {
			return nil, fmt.Errorf("%s: timeout %q is not a positive duration (like \"90s\" or \"2m\")", ConfigRel, f.Timeout)
		}
	}
	return &f, nil
}

// Config is the summarizer the file names (Builtin when it names none).
func (f *File) Config() Config {
	if f == nil {
		return Config{Kind: Builtin}
	}
	c := Parse(f.Summarizer)
	c.Model, c.BaseURL = f.Model, f.BaseURL
	if f.Timeout != "" {
		c.Timeout, _ = time.ParseDuration(f.Timeout)
	}
	return c
}
