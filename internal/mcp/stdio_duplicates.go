package mcp

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/botpay/botpay/internal/botpay"
)

// invalidRequest is JSON-RPC's code for a message that is no valid request.
const invalidRequest = -32600

// duplicateFilter passes the agent's newline-delimited messages on to the
// MCP server, except those naming a member twice, at any depth: the SDK's
// decoder keeps the last ({"amount_usd":1,"amount_usd":999} runs $999
// while a reviewer or a log reads $1), so each is answered at once with a
// JSON-RPC error through refuse and never reaches a tool, as the HTTP
// transport refuses it with 400.
type duplicateFilter struct {
	in      io.Reader
	refuse  func(answer []byte)
	partial []byte // a message not yet ended by a newline
	ready   []byte // messages checked and not yet read
	err     error  // the input's error, returned once ready is read
}

func (f *duplicateFilter) Read(b []byte) (int, error) {
	for len(f.ready) == 0 && f.err == nil {
		chunk := make([]byte, max(len(b), 4096))
		n, err := f.in.Read(chunk)
		f.take(chunk[:n])
		if err != nil {
			f.err = err
			f.ready = append(f.ready, f.partial...) // an unterminated last message: the SDK judges it
			f.partial = nil
		}
	}
	if len(f.ready) == 0 {
		return 0, f.err
	}
	n := copy(b, f.ready)
	f.ready = f.ready[n:]
	return n, nil
}

// take splits data into messages and keeps those without a duplicate.
func (f *duplicateFilter) take(data []byte) {
	f.partial = append(f.partial, data...)
	for {
		i := bytes.IndexByte(f.partial, '\n')
		if i < 0 {
			return
		}
		line := f.partial[:i+1]
		if path, found := botpay.DuplicateJSONKey(line); found {
			f.answerDuplicate(line, path)
		} else {
			f.ready = append(f.ready, line...)
		}
		f.partial = f.partial[i+1:]
	}
}

// answerDuplicate answers a request naming a member twice with an error;
// a notification (no id) gets no answer, as JSON-RPC has it.
func (f *duplicateFilter) answerDuplicate(line []byte, path string) {
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &msg) != nil || len(msg.ID) == 0 || string(msg.ID) == "null" {
		return
	}
	answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{
		"code": invalidRequest, "message": "validation_error: the member " + path + " is named twice; nothing was run",
		"data": map[string]any{"error": botpay.CodeValidation, "details": map[string]string{path: "named twice"}}}})
	f.refuse(append(answer, '\n'))
}
