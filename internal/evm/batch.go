package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// BatchCall is one call of a JSON-RPC batch; Err is its own answer's
// error (an *RPCError), Result receives its result.
type BatchCall struct {
	Method string
	Params []any
	Result any
	Err    error
}

// Batch sends calls in one JSON-RPC batch request (one round trip). The
// returned error is a transport failure; each call's own failure is in
// its Err.
func (c *Client) Batch(ctx context.Context, calls []*BatchCall) error {
	reqs := make([]map[string]any, len(calls))
	first := c.id.Add(int64(len(calls))) - int64(len(calls)) + 1
	for i, call := range calls {
		params := call.Params
		if params == nil {
			params = []any{}
		}
		reqs[i] = map[string]any{"jsonrpc": "2.0", "id": first + int64(i), "method": call.Method, "params": params}
	}
	body, err := json.Marshal(reqs)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("evm: batch: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return fmt.Errorf("evm: batch: %w", err)
	}
	defer resp.Body.Close()
	var answers []struct {
		ID     int64           `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answers); err != nil {
		return fmt.Errorf("evm: batch: HTTP %d, undecodable answer: %w", resp.StatusCode, err)
	}
	answered := make([]bool, len(calls))
	for _, a := range answers {
		i := a.ID - first
		if i < 0 || i >= int64(len(calls)) || answered[i] {
			return fmt.Errorf("evm: batch: an answer with an unknown id %d", a.ID)
		}
		answered[i] = true
		call := calls[i]
		switch {
		case a.Error != nil:
			a.Error.Method = call.Method
			call.Err = a.Error
		case call.Result != nil:
			if err := json.Unmarshal(a.Result, call.Result); err != nil {
				call.Err = fmt.Errorf("evm: %s: %w", call.Method, err)
			}
		}
	}
	for i, ok := range answered {
		if !ok {
			return fmt.Errorf("evm: batch: no answer to %s", calls[i].Method)
		}
	}
	return nil
}
