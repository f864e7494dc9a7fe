package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// bearer extracts the token of "Authorization: Bearer <token>".
func bearer(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

type botHandler func(w http.ResponseWriter, r *http.Request, bot botpay.Bot)

// botOption tunes one bot route.
type botOption func(*botRoute)

type botRoute struct {
	authFailure *botpay.Error
	spending    bool
	currentKey  bool
}

// currentKeyOnly refuses a previous key in its grace period (403
// key_superseded): the route changes what a leaked key must not.
func currentKeyOnly(r *botRoute) { r.currentKey = true }

// spendingAuth authenticates the route with app.AuthenticateBotForSpending:
// its handler must take what can change about the bot (freeze, claim,
// webhook) from its own transaction, never from the bot it is given.
func spendingAuth(r *botRoute) { r.spending = true }

// authFailsAs answers a failed authentication with code instead of the
// general "Authentication required" (sales answers 401 unauthorized,
// the API reference (docs/api.md)).
func authFailsAs(code string) botOption {
	return func(r *botRoute) {
		r.authFailure = botpay.Errorf(botpay.KindUnauthenticated, code, "a valid API key is required in the Authorization header")
	}
}

// bot authenticates the API key, then runs h behind the idempotency layer
// scoped to the bot.
func (s *Server) bot(h botHandler, opts ...botOption) http.Handler {
	var route botRoute
	for _, o := range opts {
		o(&route)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authenticate := s.svc.Bots().AuthenticateBot
		if route.spending {
			authenticate = s.svc.Bots().AuthenticateBotForSpending
		}
		if route.currentKey {
			authenticate = s.svc.Bots().AuthenticateBotCurrentKey
		}
		b, err := authenticate(r.Context(), bearer(r))
		if err != nil {
			if e := botpay.AsError(err); e != nil && e.Kind == botpay.KindUnauthenticated && route.authFailure != nil {
				err = route.authFailure
			}
			writeError(w, r, err)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), botKey, b))
		s.idempotent("bot:"+b.ID, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h(w, r, b)
		})).ServeHTTP(w, r)
	})
}

type ownerHandler func(w http.ResponseWriter, r *http.Request, owner botpay.Owner)

// owner authenticates an owner token, then runs h behind the idempotency
// layer scoped to the owner.
func (s *Server) owner(h ownerHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, err := ownerCredential(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		o, err := s.svc.Accounts().AuthenticateOwner(r.Context(), token)
		if err != nil {
			writeError(w, r, err)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), ownerKey, o))
		s.idempotent("owner:"+o.ID, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h(w, r, o)
		})).ServeHTTP(w, r)
	})
}
