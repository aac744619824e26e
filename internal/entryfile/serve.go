package entryfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/memcompact/memcompact/internal/companion"
)

// ServeArg is the one argument on which memcompact-full decodes
// frontmatter blocks (Serve) instead of running a verb. It is not a verb:
// only Companion calls it.
const ServeArg = "__yaml-frontmatter"

// Serve reads a request (blocks, each framed as frame writes it) from r,
// decodes every block with the registered fallback, and writes the
// answer (four frames a block: answerState, name, description, type).
func Serve(r io.Reader, w io.Writer) error {
	in, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	blocks, err := readFrames(in)
	if err != nil {
		return fmt.Errorf("entryfile: unreadable request: %w", err)
	}
	fields, err := decodeFallback(blocks)
	if err != nil {
		return err
	}
	_, err = w.Write(encodeAnswer(fields))
	return err
}

// Companion is the fallback of an executable that does not link yaml.v3
// (memcompact, memcompact-hook): it asks the first of the executables
// named that package companion finds installed with it (memcompact-full
// links yaml.v3) for all the blocks of one read in one process, so that
// only a store holding YAML beyond the own decoder's costs one more
// process, and only while those files change (ReadCached). None
// answering is a companion.ErrUnavailable that says what to mend.
func Companion(names ...string) Decoder {
	return func(blocks []string) (fields []Fields, err error) {
		err = companion.Ask(names, ServeArg, encodeRequest(blocks), func(out []byte) (err error) {
			fields, err = parseAnswer(out, len(blocks))
			return err
		})
		if err != nil {
			return nil, companion.Unavailablef("the YAML parser is not available: a frontmatter beyond the plain YAML memcompact reads itself is read with memcompact-full's parser, and %v", err)
		}
		return fields, nil
	}
}

// The protocol is frames: a frame is a string's length in decimal (no
// sign, no leading zero), a newline, and its bytes, so any bytes travel
// as they are (a frontmatter the own decoder is unsure of may hold
// anything). A request is one frame per block; an answer is four per
// block: its state, name, description and type.

// The answer's states of a block.
const (
	stateInvalid = "-" // yaml.v3 refused it; the three strings are empty
	stateValid   = "0" // decoded, not pinned
	statePinned  = "1" // decoded, pinned
)

// appendFrame appends s as a frame.
func appendFrame(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, '\n')
	return append(b, s...)
}

// encodeRequest is the request for blocks.
func encodeRequest(blocks []string) []byte {
	var b []byte
	for _, s := range blocks {
		b = appendFrame(b, s)
	}
	return b
}

// encodeAnswer is the answer for fields.
func encodeAnswer(fields []Fields) []byte {
	var b []byte
	for _, f := range fields {
		state := stateInvalid
		switch {
		case f.Valid && f.Pinned:
			state = statePinned
		case f.Valid:
			state = stateValid
		}
		b = appendFrame(b, state)
		b = appendFrame(b, f.Name)
		b = appendFrame(b, f.Description)
		b = appendFrame(b, f.Type)
	}
	return b
}

// errFrame is every malformed framing.
var errFrame = errors.New("malformed frame")

// readFrames splits b into its frames.
func readFrames(b []byte) ([]string, error) {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 1 || i > 10 || (b[0] == '0' && i > 1) {
			return nil, errFrame
		}
		n, err := strconv.ParseUint(string(b[:i]), 10, 63)
		if err != nil || n > uint64(len(b)-i-1) {
			return nil, errFrame
		}
		out = append(out, string(b[i+1:i+1+int(n)]))
		b = b[i+1+int(n):]
	}
	return out, nil
}

// parseAnswer reads the answer to a request of n blocks: n Fields, or an
// error for anything else.
func parseAnswer(b []byte, n int) ([]Fields, error) {
	frames, err := readFrames(b)
	if err == nil && len(frames) != 4*n {
		err = fmt.Errorf("%d frames for %d blocks", len(frames), n)
	}
	if err != nil {
		return nil, fmt.Errorf("entryfile: unreadable answer: %w", err)
	}
	out := make([]Fields, n)
	for i := range out {
		r := frames[4*i : 4*i+4]
		f := Fields{Name: r[1], Description: r[2], Type: r[3]}
		switch r[0] {
		case statePinned:
			f.Valid, f.Pinned = true, true
		case stateValid:
			f.Valid = true
		case stateInvalid:
			if f != (Fields{}) {
				return nil, fmt.Errorf("entryfile: unreadable answer: block %d is invalid yet has fields", i+1)
			}
		default:
			return nil, fmt.Errorf("entryfile: unreadable answer: block %d has state %q", i+1, r[0])
		}
		out[i] = f
	}
	return out, nil
}
