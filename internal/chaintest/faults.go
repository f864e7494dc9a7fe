package chaintest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// Fault is what a FaultProxy does to the requests it receives.
type Fault int32

// The faults a node or a hosted endpoint shows in the wild.
const (
	Healthy   Fault = iota // passed through to the node
	Down                   // the connection is closed without an answer
	Slow                   // answered only after SlowFor (past any client timeout)
	HTMLError              // 502 with an HTML page, as a load balancer answers
	RPCError               // a JSON-RPC error object
	Malformed              // a result that is no answer to any call: "0x"
)

// SlowFor is how long a Slow fault holds a request.
const SlowFor = 6 * time.Second

// FaultProxy stands in front of a node and injects a fault into every
// JSON-RPC request while one is set: tests of what the service answers when
// its chain fails, with the real node behind for everything else.
type FaultProxy struct {
	URL   string
	fault atomic.Int32
}

// Proxy starts a FaultProxy in front of n, healthy, closed with the test.
func (n *Node) Proxy(t testing.TB) *FaultProxy {
	p := &FaultProxy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.serve(w, r, n.URL)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Set makes every later request meet f (Healthy passes them through).
func (p *FaultProxy) Set(f Fault) { p.fault.Store(int32(f)) }

func (p *FaultProxy) serve(w http.ResponseWriter, r *http.Request, node string) {
	body, _ := io.ReadAll(r.Body)
	switch Fault(p.fault.Load()) {
	case Down:
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
		return
	case Slow:
		select {
		case <-time.After(SlowFor):
		case <-r.Context().Done():
		}
		return
	case HTMLError:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, "<html><body><h1>502 Bad Gateway</h1></body></html>")
		return
	case RPCError:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"daily request count exceeded, request rate limited"}}`)
		return
	case Malformed:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x"}`)
		return
	}
	resp, err := http.Post(node, "application/json", bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}
