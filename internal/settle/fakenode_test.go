package settle

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeNode is a minimal EVM JSON-RPC server: it accepts eth_sendTransaction,
// remembers the call data, and reports a receipt after one poll.
type fakeNode struct {
	mu      sync.Mutex
	sent    []map[string]string
	polls   int
	status  string // receipt status, "0x1" unless set
	sendErr bool
	Server  *httptest.Server
	TxHash  string
}

func newFakeNode(t *testing.T) *fakeNode {
	n := &fakeNode{status: "0x1", TxHash: "0x" + strings.Repeat("ab", 32)}
	n.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     int               `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad", 400)
			return
		}
		n.mu.Lock()
		defer n.mu.Unlock()
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "eth_sendTransaction":
			if n.sendErr {
				reply["error"] = map[string]any{"code": -32000, "message": "authorization is used or canceled"}
				break
			}
			var tx map[string]string
			json.Unmarshal(req.Params[0], &tx)
			n.sent = append(n.sent, tx)
			reply["result"] = n.TxHash
		case "eth_getTransactionReceipt":
			n.polls++
			if n.polls == 1 {
				reply["result"] = nil
			} else {
				reply["result"] = map[string]any{"status": n.status, "transactionHash": n.TxHash}
			}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		json.NewEncoder(w).Encode(reply)
	}))
	t.Cleanup(n.Server.Close)
	return n
}

// data returns the call data of the n-th transaction sent.
func (n *fakeNode) data(t *testing.T, i int) []byte {
	n.mu.Lock()
	defer n.mu.Unlock()
	b, err := hex.DecodeString(strings.TrimPrefix(n.sent[i]["data"], "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
