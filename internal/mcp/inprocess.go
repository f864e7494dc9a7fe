package mcp

import (
	"bytes"
	"io"
	"net/http"
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

// InProcessAPI calls the bot API by handing each request to handler (the
// service's own HTTP handler) as caller: the same routing, authentication,
// idempotency, use cases and error mapping as a request from the network,
// without a socket.
func InProcessAPI(handler http.Handler, caller Caller) *API {
	rt := handlerTransport{handler: handler, caller: caller}
	return &API{baseURL: inProcessBase, key: caller.APIKey, http: &http.Client{Transport: rt}, requestID: caller.RequestID}
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
