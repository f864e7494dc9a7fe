package evm

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// A batch's answers may come in any order and carry their own errors; an
// answer missing is a failure of the whole batch.
func TestBatchMatchesAnswersByID(t *testing.T) {
	t.Parallel()
	var dropLast atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var reqs []struct {
			ID     int64  `json:"id"`
			Method string `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&reqs)
		var out []map[string]any
		for i := len(reqs) - 1; i >= 0; i-- { // reversed
			if dropLast.Load() && i == len(reqs)-1 {
				continue
			}
			a := map[string]any{"jsonrpc": "2.0", "id": reqs[i].ID}
			if reqs[i].Method == "eth_call" {
				a["error"] = map[string]any{"code": 3, "message": "execution reverted: FiatTokenV2: invalid signature"}
			} else {
				a["result"] = "0x2a"
			}
			out = append(out, a)
		}
		json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	var a, b Quantity
	calls := []*BatchCall{{Method: "eth_blockNumber", Result: &a}, {Method: "eth_call", Result: new(string)}, {Method: "eth_chainId", Result: &b}}
	if err := c.Batch(context.Background(), calls); err != nil {
		t.Fatal(err)
	}
	if a.Uint64() != 42 || b.Uint64() != 42 || calls[0].Err != nil || !IsRPCError(calls[1].Err, "invalid signature") {
		t.Fatalf("answers %v %v %+v", a.Uint64(), b.Uint64(), calls[1].Err)
	}
	dropLast.Store(true)
	if err := c.Batch(context.Background(), []*BatchCall{{Method: "eth_blockNumber"}, {Method: "eth_chainId"}}); err == nil {
		t.Fatal("a missing answer went unnoticed")
	}
}
