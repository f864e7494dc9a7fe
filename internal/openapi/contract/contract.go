// Package contract checks HTTP exchanges against the OpenAPI document
// (internal/openapi) with libopenapi-validator. internal/testserver puts
// its middleware in front of every test server, so every request and
// answer of the end-to-end and API tests is checked: an undocumented route,
// status, content type or field (response schemas are closed) fails the
// test that caused it.
package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/paths"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"github.com/botpay/botpay/internal/openapi"
)

// Checker validates exchanges against the document.
type Checker struct {
	model     *v3.Document
	options   *config.ValidationOptions
	validator validator.Validator
}

var (
	shared     *Checker
	sharedErr  error
	sharedOnce sync.Once
)

// Default is the checker of the embedded document, built once per process.
func Default() (*Checker, error) {
	sharedOnce.Do(func() { shared, sharedErr = New(openapi.JSON) })
	return shared, sharedErr
}

// New builds a checker of an OpenAPI 3.1 document.
func New(spec []byte) (*Checker, error) {
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		return nil, fmt.Errorf("openapi document: %w", err)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("openapi model: %w", err)
	}
	// Without a cache the validator compiles a regular expression for
	// every segment of every documented path on every request it routes,
	// which was a third of the CPU of a request in the tests.
	opts := []config.Option{config.WithFormatAssertions(), config.WithRegexCache(&sync.Map{})}
	v, errs := validator.NewValidator(doc, opts...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi validator: %v", errs)
	}
	return &Checker{model: &m.Model, options: config.NewValidationOptions(opts...), validator: v}, nil
}

// ValidateDocument checks the document against the OpenAPI 3.1 schema.
func (c *Checker) ValidateDocument() []string {
	_, errs := c.validator.ValidateDocument()
	return describe(errs)
}

// Middleware runs next, then checks the exchange and reports each problem.
// A request that breaks the document must be refused with a documented 4xx
// answer; every answer must match the document.
func (c *Checker) Middleware(report func(problem string), next http.Handler) http.Handler {
	return c.RecordingMiddleware(report, nil, next)
}

// RecordingMiddleware is Middleware that also hands the Line of every
// exchange to record, unless record is nil.
func (c *Checker) RecordingMiddleware(report func(problem string), record func(line string), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		resp := rec.Result()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		answer := rec.Body.Bytes()
		w.Write(answer)
		for _, p := range c.Check(r, body, resp.StatusCode, resp.Header, answer) {
			report(p)
		}
		if record != nil {
			record(c.Line(r, body, resp.StatusCode, resp.Header, answer))
		}
	})
}

// Check validates one exchange and returns its problems.
func (c *Checker) Check(r *http.Request, reqBody []byte, status int, header http.Header, respBody []byte) []string {
	req := r.Clone(r.Context())
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	route := r.Method + " " + r.URL.RequestURI()
	if req.Method == http.MethodHead { // served by the GET route, without a body
		req.Method = http.MethodGet
	}
	item, _, pathValue := paths.FindPath(req, c.model, c.options)
	if item == nil || operation(item, req.Method) == nil {
		return c.checkFallback(route, status, header, respBody)
	}
	reqOK, reqErrs := c.validator.ValidateHttpRequestSyncWithPathItem(req, item, pathValue)
	if r.Method == http.MethodHead { // no body to check: the status must be one of GET's
		if op := operation(item, req.Method); op.Responses.Codes.GetOrZero(strconv.Itoa(status)) == nil {
			return []string{fmt.Sprintf("%s → %d: the status is not in the OpenAPI document", route, status)}
		}
		return nil
	}
	resp := &http.Response{StatusCode: status, Header: header, Request: req,
		Body: io.NopCloser(bytes.NewReader(respBody))}
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	var problems []string
	if _, respErrs := c.validator.ValidateHttpResponse(req, resp); len(respErrs) > 0 {
		for _, e := range describe(respErrs) {
			problems = append(problems, fmt.Sprintf("%s → %d: answer does not match the OpenAPI document: %s\n  body: %s", route, status, e, clip(respBody)))
		}
	}
	if !reqOK && status < 400 {
		for _, e := range describe(reqErrs) {
			problems = append(problems, fmt.Sprintf("%s → %d: the document calls this request invalid but the service accepted it: %s\n  body: %s", route, status, e, clip(reqBody)))
		}
	}
	return problems
}

// checkFallback: a request for no documented operation must get the JSON
// 404 or 405 of an unknown route.
func (c *Checker) checkFallback(route string, status int, header http.Header, body []byte) []string {
	if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
		return []string{fmt.Sprintf("%s → %d: the route is not in the OpenAPI document", route, status)}
	}
	var e struct {
		Error string `json:"error"`
	}
	if !strings.HasPrefix(header.Get("Content-Type"), "application/json") || json.Unmarshal(body, &e) != nil || e.Error == "" {
		return []string{fmt.Sprintf("%s → %d: an unknown route must answer the JSON error shape, got %s", route, status, clip(body))}
	}
	return nil
}

func operation(item *v3.PathItem, method string) *v3.Operation {
	switch method {
	case http.MethodGet:
		return item.Get
	case http.MethodPut:
		return item.Put
	case http.MethodPost:
		return item.Post
	case http.MethodPatch:
		return item.Patch
	case http.MethodDelete:
		return item.Delete
	}
	return nil
}

func describe(errs []*verrors.ValidationError) []string {
	var out []string
	for _, e := range errs {
		msg := e.Message
		if e.Reason != "" {
			msg += " (" + e.Reason + ")"
		}
		for _, se := range e.SchemaValidationErrors {
			msg += fmt.Sprintf("\n    at %s: %s", se.FieldPath, se.Reason)
		}
		out = append(out, msg)
	}
	return out
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
