package mcp

import (
	"bytes"
	"io"
	"net/http"

	"github.com/botpay/botpay/client"
)

// inProcessBase is the base URL of in-process calls; only the path reaches
// the handler, and the service builds its links from its own base URL.
const inProcessBase = "http://botpay.in-process"

// Caller describes the HTTP request that reached /mcp, so the calls made on
// its behalf are attributed to the same client.
type Caller struct {
	APIKey     string
	RemoteAddr string
	// ForwardedFor is the X-Forwarded-For of the request, believed by the
	// handler only when RemoteAddr is a trusted proxy, as for any request.
	ForwardedFor []string
	RequestID    string
}

// InProcessAPI is a client of the bot API that hands each request to
// handler (the service's own HTTP handler) as caller: the same routing,
// authentication, idempotency, use cases and error mapping as a request
// from the network, without a socket.
func InProcessAPI(handler http.Handler, caller Caller) *client.Client {
	rt := handlerTransport{handler: handler, caller: caller}
	return client.New(inProcessBase, caller.APIKey, client.WithHTTPClient(&http.Client{Transport: rt}),
		client.WithUserAgent(UserAgent))
}

// handlerTransport is an http.RoundTripper served by an http.Handler.
type handlerTransport struct {
	handler http.Handler
	caller  Caller
}

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	in.RemoteAddr = t.caller.RemoteAddr
	in.RequestURI = req.URL.RequestURI()
	in.Header.Del("X-Forwarded-For")
	for _, v := range t.caller.ForwardedFor {
		in.Header.Add("X-Forwarded-For", v)
	}
	if t.caller.RequestID != "" {
		// Every call of one tool call shares the /mcp request's id, so
		// their log lines read as one.
		in.Header.Set("X-Request-Id", t.caller.RequestID)
	}
	if in.Body == nil {
		in.Body = http.NoBody
	}
	rec := &recorder{header: http.Header{}}
	t.handler.ServeHTTP(rec, in)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return &http.Response{
		Status: http.StatusText(rec.status), StatusCode: rec.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: rec.header, Body: io.NopCloser(bytes.NewReader(rec.body.Bytes())),
		ContentLength: int64(rec.body.Len()), Request: req,
	}, nil
}

// recorder is the http.ResponseWriter of an in-process call.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
