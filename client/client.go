package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultUserAgent is sent unless WithUserAgent says otherwise.
const DefaultUserAgent = "botpay-go-client"

// maxResponseBytes caps how much of an answer is read, so a misbehaving
// server or proxy cannot exhaust the bot's memory.
const maxResponseBytes = 8 << 20

// Option configures a Client or an OwnerClient.
type Option func(*transport)

// WithHTTPClient sends requests through hc (for timeouts, proxies, TLS
// settings or test servers). The default is a client with a 30 s timeout,
// not http.DefaultClient, which never times out.
func WithHTTPClient(hc *http.Client) Option {
	return func(t *transport) {
		if hc != nil {
			t.http = hc
		}
	}
}

// WithUserAgent sets the User-Agent header, so the service's operators can
// tell bots and versions apart.
func WithUserAgent(ua string) Option {
	return func(t *transport) { t.userAgent = ua }
}

// CallOption tunes one call.
type CallOption func(*callSettings)

type callSettings struct {
	idempotencyKey string
	requestID      string
	body           json.RawMessage // sent instead of the call's encoded request
	answer         *Answer         // receives the answer as it came
}

func settingsOf(opts []CallOption) callSettings {
	var s callSettings
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Answer is the service's answer to one call, as it came: for a caller
// that hands the service's JSON on unchanged (a proxy, a tool server) or
// reads a header the typed result does not carry.
type Answer struct {
	// Method and Path name the request answered (Path escaped, without
	// the query).
	Method, Path string
	StatusCode   int
	Header       http.Header
	// Body is the answer's body, read up to the client's 8 MiB cap.
	Body []byte
}

// OK reports a 2xx answer.
func (a *Answer) OK() bool { return a.StatusCode >= 200 && a.StatusCode <= 299 }

// WithAnswer stores the answer of the call in a, whatever its status, once
// one was had: a's StatusCode stays 0 when the request got no answer (a
// network error). The call's own result and error are unchanged.
func WithAnswer(a *Answer) CallOption {
	return func(s *callSettings) { s.answer = a }
}

// WithBody sends body, byte for byte, as the call's JSON body instead of the
// encoding of the request the method was given, for a caller relaying a
// body it was handed: amounts reach the service exactly as written, and a
// retry with the same Idempotency-Key sends the very same bytes. body must
// be a JSON object the method's request type describes.
func WithBody(body json.RawMessage) CallOption {
	return func(s *callSettings) { s.body = body }
}

// WithIdempotencyKey sends an Idempotency-Key header. On POSTs the service
// replays its first answer to a retry with the same key and body within 24 h,
// and refuses the same key with another body (409 idempotency_key_reused), so
// a retry after a timeout cannot move money twice. Use a fresh random key per
// logical operation and reuse it only for retries of that operation.
func WithIdempotencyKey(key string) CallOption {
	return func(s *callSettings) { s.idempotencyKey = key }
}

// WithRequestID sends X-Request-Id so the caller's logs and the service's
// logs share one identifier (1-64 of A-Z a-z 0-9 . _ -; otherwise the service
// assigns its own).
func WithRequestID(id string) CallOption {
	return func(s *callSettings) { s.requestID = id }
}

// transport is the HTTP plumbing shared by Client and OwnerClient.
type transport struct {
	baseURL   string
	http      *http.Client
	userAgent string
}

func newTransport(baseURL string, opts []Option) transport {
	t := transport{
		baseURL:   strings.TrimRight(baseURL, "/"),
		http:      &http.Client{Timeout: 30 * time.Second},
		userAgent: DefaultUserAgent,
	}
	for _, o := range opts {
		o(&t)
	}
	return t
}

// call describes one request.
type call struct {
	method string
	path   string       // already escaped
	query  url.Values   // may be nil
	token  string       // bearer token; empty sends no Authorization header
	in     any          // JSON body; nil sends none
	out    any          // decoded from a 2xx answer; nil ignores the body
	header *http.Header // when set, receives the answer's headers
}

// do sends c and decodes the answer; a non-2xx answer is an *Error.
func (t transport) do(ctx context.Context, c call, opts []CallOption) error {
	settings := settingsOf(opts)
	req, err := t.newRequest(ctx, c, settings)
	if err != nil {
		return err
	}
	resp, err := t.http.Do(req)
	if err != nil {
		return fmt.Errorf("botpay: %s %s: %w", c.method, c.path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return fmt.Errorf("botpay: %s %s: reading answer: %w", c.method, c.path, err)
	}
	if settings.answer != nil {
		*settings.answer = Answer{Method: c.method, Path: c.path, StatusCode: resp.StatusCode, Header: resp.Header, Body: data}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return decodeError(resp, data)
	}
	if c.header != nil {
		*c.header = resp.Header
	}
	if c.out == nil {
		return nil
	}
	if err := decodeJSON(data, c.out); err != nil {
		return fmt.Errorf("botpay: %s %s: decoding HTTP %d answer: %w", c.method, c.path, resp.StatusCode, err)
	}
	return nil
}

// newRequest is the HTTP request of c, with its headers.
func (t transport) newRequest(ctx context.Context, c call, settings callSettings) (*http.Request, error) {
	var body io.Reader
	data := []byte(settings.body)
	if data == nil && c.in != nil {
		var err error
		if data, err = json.Marshal(c.in); err != nil {
			return nil, fmt.Errorf("botpay: encode %s %s: %w", c.method, c.path, err)
		}
	}
	if data != nil {
		body = bytes.NewReader(data)
	}
	target := t.baseURL + c.path
	if len(c.query) > 0 {
		target += "?" + c.query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, c.method, target, body)
	if err != nil {
		return nil, fmt.Errorf("botpay: %s %s: %w", c.method, c.path, err)
	}
	req.Header.Set("Accept", "application/json")
	if data != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if t.userAgent != "" {
		req.Header.Set("User-Agent", t.userAgent)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if settings.idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", settings.idempotencyKey)
	}
	if settings.requestID != "" {
		req.Header.Set("X-Request-Id", settings.requestID)
	}
	return req, nil
}

// decodeJSON is json.Unmarshal reading numbers of untyped members (any) as
// json.Number, so an integer id in such a member stays exact.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("invalid character after top-level value")
	}
	return nil
}

// Client calls the bot API. It is safe for concurrent use.
type Client struct {
	t      transport
	apiKey string
}

// New returns a client for the service at baseURL (for example
// "https://pay.example.com") that authenticates with apiKey. apiKey may be
// empty for a client that only registers; see WithAPIKey.
func New(baseURL, apiKey string, opts ...Option) *Client {
	return &Client{t: newTransport(baseURL, opts), apiKey: apiKey}
}

// WithAPIKey returns a client with the same settings that authenticates with
// apiKey, typically the key just returned by Register.
func (c *Client) WithAPIKey(apiKey string) *Client {
	return &Client{t: c.t, apiKey: apiKey}
}

// BaseURL is the service address the client talks to, without a trailing
// slash.
func (c *Client) BaseURL() string { return c.t.baseURL }

func (c *Client) do(ctx context.Context, method, path string, in, out any, opts []CallOption) error {
	return c.t.do(ctx, call{method: method, path: path, token: c.apiKey, in: in, out: out}, opts)
}
