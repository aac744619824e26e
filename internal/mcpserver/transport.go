package mcpserver

import (
	"context"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serve runs server over r and w (stdin and stdout) until r ends or ctx is
// cancelled. A client that writes its requests and closes its end at once
// (a pipe, a script) still gets an answer to every request: the end of
// input is held back from the session until each request read has had its
// response written.
func Serve(ctx context.Context, server *mcp.Server, r io.Reader, w io.Writer) error {
	t := &answerAll{Transport: &mcp.IOTransport{Reader: io.NopCloser(r), Writer: nopWriteCloser{w}}}
	return server.Run(ctx, t)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// answerAll is a transport whose connection answers every request it has
// read before it reports the end of its input.
type answerAll struct{ mcp.Transport }

func (t *answerAll) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &answeringConn{Connection: c, idle: make(chan struct{})}, nil
}

// answeringConn counts the requests read and the responses written. The
// SDK closes a session as soon as Read fails, dropping calls still being
// handled, so a failed Read waits until none is pending.
type answeringConn struct {
	mcp.Connection
	mu      sync.Mutex
	pending int
	idle    chan struct{} // closed while pending is 0 after input ended
	ended   bool
}

func (c *answeringConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.mu.Lock()
		c.ended = true
		wait := c.pending > 0
		if !wait {
			c.closeIdle()
		}
		c.mu.Unlock()
		if wait {
			select {
			case <-c.idle:
			case <-ctx.Done():
			}
		}
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		c.mu.Lock()
		c.pending++
		c.mu.Unlock()
	}
	return msg, nil
}

func (c *answeringConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		c.mu.Lock()
		if c.pending > 0 {
			c.pending--
		}
		if c.pending == 0 && c.ended {
			c.closeIdle()
		}
		c.mu.Unlock()
	}
	return err
}

// closeIdle closes idle once; c.mu is held.
func (c *answeringConn) closeIdle() {
	select {
	case <-c.idle:
	default:
		close(c.idle)
	}
}
