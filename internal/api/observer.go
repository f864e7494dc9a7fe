package api

import (
	"net/http"
	"time"
)

// Observer is told about every answered request and every checkout and
// signing decision; the metrics package implements it, so this package
// needs no metrics library.
type Observer interface {
	Request(route, method string, status int, took time.Duration)
	CheckoutDecided(decision, code string)
	SigningDecided(decision, code string)
}

type noObserver struct{}

func (noObserver) Request(string, string, int, time.Duration) {}
func (noObserver) CheckoutDecided(string, string)             {}
func (noObserver) SigningDecided(string, string)              {}

// The two routes whose answers are decisions worth counting apart.
const (
	checkoutRoute = "POST /api/v1/bot/merchant/checkout"
	signRoute     = "POST /api/v1/processor-wallet/bot/sign"
)

// observeDecision reads a checkout's or signature's outcome off its answer:
// 200 approved (signed), 202 held, a refusal with its error code, or error.
func (s *Server) observeDecision(route string, rec *statusRecorder) {
	if route != checkoutRoute && route != signRoute {
		return
	}
	decision := "declined"
	switch {
	case rec.status == http.StatusOK && route == checkoutRoute:
		decision = "approved"
	case rec.status == http.StatusOK:
		decision = "signed"
	case rec.status == http.StatusAccepted:
		decision = "held"
	case rec.status >= 500 || rec.status == http.StatusBadRequest || rec.status == http.StatusUnauthorized:
		decision = "error"
	}
	code := rec.errCode
	switch {
	case decision != "declined":
		code = ""
	case code == "" && route == signRoute:
		code = "guardrail_blocked" // written directly, with its reason, not through writeError
	}
	if route == checkoutRoute {
		s.obs.CheckoutDecided(decision, code)
	} else {
		s.obs.SigningDecided(decision, code)
	}
}

// outcomeFlag tells the idempotency layer how to keep an answer: unknown
// when it is a 503 for a change whose outcome is unknown (the key is kept
// instead of freed), secret when it carries a secret shown once (replayed
// only to its first caller, briefly), neverReplayed when no replay may
// ever hand it out again (a key rotation's new key).
type outcomeFlag struct{ unknown, secret, neverReplayed bool }

// noteSecretAnswer marks the answer being written as carrying a secret
// shown once.
func noteSecretAnswer(r *http.Request) {
	if f, ok := r.Context().Value(outcomeKey).(*outcomeFlag); ok {
		f.secret = true
	}
}

// noteNeverReplayed marks the answer being written as one no replay may
// repeat.
func noteNeverReplayed(r *http.Request) {
	if f, ok := r.Context().Value(outcomeKey).(*outcomeFlag); ok {
		f.neverReplayed = true
	}
}

func noteOutcomeUnknown(r *http.Request) {
	if f, ok := r.Context().Value(outcomeKey).(*outcomeFlag); ok {
		f.unknown = true
	}
}
