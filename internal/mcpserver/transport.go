package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessage is the size cap of one message (one line of input). A line
// over it is refused by itself; the lines after it are still served.
const MaxMessage = 16 << 20

// Serve runs server over r and w (stdin and stdout) until r ends or ctx is
// cancelled.
//
// Cancelled (SIGINT), it returns within StopGrace even while a tool call
// is still running: the SDK's session waits for its calls, and a journal
// record of a large store runs for seconds, while Claude Code gives a
// server about 140 ms. A call left running is abandoned as a kill would
// abandon it, which every write survives (a lock, record before act, an
// atomic replace).
//
// The framing is memcompact's own line reader in front of the SDK's
// session, because the SDK's stdio transport ends the session on the
// first frame it cannot decode, dropping the requests queued after it.
// Here a line that is not JSON answers with a parse error (-32700), a
// line that is JSON but no JSON-RPC message, or one over MaxMessage, with
// an invalid-request error (-32600), and the server goes on. A request
// whose id is already in flight is refused (-32600) rather than answered
// twice under one id. A client that writes its requests and closes its
// end at once (a pipe, a script) still gets an answer to every request:
// the end of input is held back from the session until each request read
// has had its response written.
func Serve(ctx context.Context, server *mcp.Server, r io.Reader, w io.Writer) error {
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, &lineTransport{r: r, w: w, max: MaxMessage}) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop := time.NewTimer(StopGrace)
	defer stop.Stop()
	select {
	case err := <-done:
		return err
	case <-stop.C:
		return ctx.Err()
	}
}

// StopGrace is how long Serve, once cancelled, waits for the calls in
// flight: well inside the 140 ms Claude Code gives a server to exit.
const StopGrace = 50 * time.Millisecond

// lineTransport is the newline-delimited JSON-RPC of MCP's stdio
// transport.
type lineTransport struct {
	r   io.Reader
	w   io.Writer
	max int
}

func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{w: t.w, in: make(chan jsonrpc.Message), done: make(chan struct{}),
		idle: make(chan struct{}), inflight: map[jsonrpc.ID]bool{}}
	go c.readLoop(bufio.NewReaderSize(t.r, 64<<10), t.max)
	return c, nil
}

// lineConn is one session's connection. The reading goroutine hands the
// session every message it may handle on in and answers the frames it
// refuses itself; in is closed at the end of input.
type lineConn struct {
	w         io.Writer
	wmu       sync.Mutex // one line written at a time
	in        chan jsonrpc.Message
	done      chan struct{} // closed by Close
	closeOnce sync.Once

	mu       sync.Mutex
	inflight map[jsonrpc.ID]bool // requests read and not yet answered
	ended    bool                // the input has ended
	idle     chan struct{}       // closed once ended and nothing is in flight
}

// readLoop reads lines until the input ends or the connection closes.
func (c *lineConn) readLoop(br *bufio.Reader, max int) {
	defer close(c.in)
	for {
		line, over, err := readLine(br, max)
		if over {
			c.refuse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over the %d MiB size cap; refused", max>>20))
		} else if msg := c.frame(line); msg != nil {
			select {
			case c.in <- msg:
			case <-c.done:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line of at most max bytes; over reports a longer one
// (read to its end and dropped). err is the reader's, io.EOF at the end.
func readLine(br *bufio.Reader, max int) (line []byte, over bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		if !over {
			if len(line)+len(bytes.TrimRight(frag, "\r\n")) > max {
				over, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, over, err
		}
	}
}

// frame decodes one line into the message the session is given, or
// answers it here and returns nil: a parse error, an invalid request, an
// id already in flight. Blank lines are skipped.
func (c *lineConn) frame(line []byte) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		var probe any
		if jerr := json.Unmarshal(line, &probe); jerr != nil {
			c.refuse(jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: "+jerr.Error())
			return nil
		}
		c.refuse(idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		return msg
	}
	c.mu.Lock()
	dup := c.inflight[req.ID]
	if !dup {
		c.inflight[req.ID] = true
	}
	c.mu.Unlock()
	if dup {
		c.refuse(req.ID, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %v is already in use by a request in flight", req.ID.Raw()))
		return nil
	}
	return msg
}

// idOf is the id of a JSON object that is not a valid message, when it
// has a usable one; the null id otherwise.
func idOf(line []byte) jsonrpc.ID {
	var v struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &v) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(v.ID)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

// refuse answers a frame the session never sees with a JSON-RPC error;
// an id that could not be read is null, as JSON-RPC 2.0 requires (the
// SDK's encoder would leave it out).
func (c *lineConn) refuse(id jsonrpc.ID, code int64, msg string) {
	b, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id.Raw(), &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.w.Write(append(b, '\n'))
}

// Read hands the session the next message. At the end of input it waits
// until every request read has been answered, because the SDK closes the
// session as soon as Read fails, dropping calls still being handled.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg, ok := <-c.in:
		if ok {
			return msg, nil
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, errors.New("connection closed")
	}
	c.mu.Lock()
	c.ended = true
	c.closeIdleLocked()
	c.mu.Unlock()
	select {
	case <-c.idle:
	case <-ctx.Done():
	case <-c.done:
	}
	return nil, io.EOF
}

// Write sends one message, and counts a response as the answer to the
// request in flight under its id. An error without a code (the SDK's way
// of refusing a call before the session is initialized) gets the
// JSON-RPC code that says why.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if resp.Error != nil {
			var we *jsonrpc.Error
			if errors.As(resp.Error, &we) {
				if we.Code == 0 {
					fixed := *we
					fixed.Code = codeOf(we.Message)
					r := *resp
					r.Error = &fixed
					msg = &r
				}
			} else {
				r := *resp
				r.Error = &jsonrpc.Error{Code: codeOf(resp.Error.Error()), Message: resp.Error.Error()}
				msg = &r
			}
		}
		defer c.answered(resp.ID)
	}
	return c.writeMessage(msg)
}

// codeOf is the JSON-RPC code of an error the SDK sent without one.
func codeOf(msg string) int64 {
	if strings.Contains(msg, "invalid during session initialization") {
		return jsonrpc.CodeInvalidRequest
	}
	return jsonrpc.CodeInternalError
}

// answered notes that the request under id has its response.
func (c *lineConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	delete(c.inflight, id)
	c.closeIdleLocked()
	c.mu.Unlock()
}

// closeIdleLocked closes idle once the input has ended and nothing is in
// flight; c.mu is held.
func (c *lineConn) closeIdleLocked() {
	if !c.ended || len(c.inflight) > 0 {
		return
	}
	select {
	case <-c.idle:
	default:
		close(c.idle)
	}
}

// writeMessage writes msg as one line.
func (c *lineConn) writeMessage(msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.w.Write(append(b, '\n'))
	return err
}

// Close ends the session's use of the connection; the reading goroutine
// stops at its next line (stdin cannot be interrupted, and the process
// ends with the server).
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.done) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }
