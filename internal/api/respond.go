package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// errorBody is the error shape of every refusal: message, details,
// retry_after_seconds and request_id are left out when empty.
func errorBody(code, message string, details map[string]string, retryAfter int, requestID string) wire.Error {
	body := wire.Error{Error: code, Message: optText(message), RequestID: optText(requestID)}
	if len(details) > 0 {
		body.Details = details
	}
	if retryAfter != 0 {
		body.RetryAfterSeconds = &retryAfter
	}
	return body
}

// writeError answers with the interface's error shape. Anything that is not
// a *botpay.Error is logged with the request id and answered as a bare 500.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := botpay.AsError(err)
	if errors.Is(err, botpay.ErrOutcomeUnknown) {
		noteOutcomeUnknown(r)
		e = botpay.Unavailable()
		e.Message = "the database connection broke while this change was being committed; check its state before retrying " +
			"(a retry with the same Idempotency-Key is refused rather than applied twice)"
	}
	if e == nil && botpay.Unreachable(err) {
		loggerOf(r).WarnContext(r.Context(), "database unreachable", "request_id", requestID(r), "path", r.URL.Path, "err", err)
		e = botpay.Unavailable()
	}
	if e == nil || e.Kind == botpay.KindInternal {
		loggerOf(r).ErrorContext(r.Context(), "request failed", "request_id", requestID(r), "path", r.URL.Path, "err", err)
		e = &botpay.Error{Kind: botpay.KindInternal, Code: botpay.CodeInternal,
			Message: "an unexpected error occurred; quote the request id when reporting it"}
	}
	body := errorBody(e.Code, e.Message, e.Details, e.RetryAfterSeconds, requestID(r))
	if e.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	if l := e.Limit; l != nil {
		reset := e.LimitResetSeconds
		if reset == 0 {
			reset = e.RetryAfterSeconds
		}
		setRateLimitHeaders(w.Header(), l, reset)
	}
	if code, ok := r.Context().Value(errCodeKey).(*string); ok {
		*code = e.Code
	}
	writeJSON(w, e.Kind.HTTPStatus(), body)
}

// setRateLimitHeaders writes the limit that refused a request in the
// format of the IETF draft httpapi-ratelimit-headers: the policy (quota q
// per window w seconds) and what is left of it (r remaining, t seconds
// until that changes).
func setRateLimitHeaders(h http.Header, l *botpay.RateLimit, resetSeconds int) {
	writeLimitHeaders(h, []botpay.LimitState{{RateLimit: *l, Remaining: 0, ResetSeconds: resetSeconds}})
}

// announceLimits writes the RateLimit headers of every limit the request
// was counted against, unless a refusal has written its own.
func announceLimits(h http.Header, notes *botpay.LimitNotes) {
	if h.Get("RateLimit") != "" {
		return
	}
	if states := notes.States(); len(states) > 0 {
		writeLimitHeaders(h, states)
	}
}

// writeLimitHeaders writes limits as the draft's lists, one item each.
func writeLimitHeaders(h http.Header, states []botpay.LimitState) {
	policies := make([]string, len(states))
	remaining := make([]string, len(states))
	for i, st := range states {
		name := strconv.Quote(st.Policy)
		policies[i] = name + ";q=" + strconv.Itoa(st.Quota) + ";w=" + strconv.Itoa(st.WindowSeconds)
		remaining[i] = name + ";r=" + strconv.Itoa(st.Remaining) + ";t=" + strconv.Itoa(st.ResetSeconds)
	}
	h.Set("RateLimit-Policy", strings.Join(policies, ", "))
	h.Set("RateLimit", strings.Join(remaining, ", "))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // bots read this, not browsers; keep URLs readable
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"` + botpay.CodeInternal + `","message":"response could not be encoded"}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
