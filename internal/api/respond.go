package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
)

// StatusOf is the single mapping from error kinds to HTTP statuses; the
// HTML pages use it too.
func StatusOf(k botpay.Kind) int {
	switch k {
	case botpay.KindInvalid:
		return http.StatusBadRequest
	case botpay.KindUnauthenticated:
		return http.StatusUnauthorized
	case botpay.KindPaymentRequired:
		return http.StatusPaymentRequired
	case botpay.KindForbidden:
		return http.StatusForbidden
	case botpay.KindNotFound:
		return http.StatusNotFound
	case botpay.KindConflict:
		return http.StatusConflict
	case botpay.KindGone:
		return http.StatusGone
	case botpay.KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case botpay.KindRateLimited:
		return http.StatusTooManyRequests
	case botpay.KindMethodNotAllowed:
		return http.StatusMethodNotAllowed
	default:
		return http.StatusInternalServerError
	}
}

type errorBody struct {
	Error             string            `json:"error"`
	Message           string            `json:"message,omitempty"`
	Details           map[string]string `json:"details,omitempty"`
	RetryAfterSeconds int               `json:"retry_after_seconds,omitempty"`
	RequestID         string            `json:"request_id,omitempty"`
}

// writeError answers with the interface's error shape. Anything that is not
// a *botpay.Error is logged with the request id and answered as a bare 500.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := botpay.AsError(err)
	if e == nil || e.Kind == botpay.KindInternal {
		loggerOf(r).ErrorContext(r.Context(), "request failed", "request_id", requestID(r), "path", r.URL.Path, "err", err)
		e = &botpay.Error{Kind: botpay.KindInternal, Code: botpay.CodeInternal,
			Message: "an unexpected error occurred; quote the request id when reporting it"}
	}
	body := errorBody{Error: e.Code, Message: e.Message, Details: e.Details, RetryAfterSeconds: e.RetryAfterSeconds}
	if e.Kind == botpay.KindInternal {
		body.RequestID = requestID(r)
	}
	if e.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	writeJSON(w, StatusOf(e.Kind), body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // bots read this, not browsers; keep URLs readable
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"internal_error","message":"response could not be encoded"}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
