package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

const registerPath = "/api/v1/bots/register"

// validRegistration is a complete body; each case breaks one thing.
func validRegistration() map[string]any {
	return map[string]any{"bot_name": "helper", "owner_email": "owner@example.com", "description": "buys paper"}
}

func with(k string, v any) map[string]any {
	m := validRegistration()
	m[k] = v
	return m
}

func without(k string) map[string]any {
	m := validRegistration()
	delete(m, k)
	return m
}

// TestRegisterRejectsBadRequestsAndWritesNothing is the 400 part of the
// error matrix of the API reference (docs/api.md); none of the refused
// registrations may leave a bot row behind.
func TestRegisterRejectsBadRequestsAndWritesNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		body  any
		code  string
		field string // for validation_error
	}{
		{"missing bot_name", without("bot_name"), "validation_error", "bot_name"},
		{"blank bot_name", with("bot_name", "   "), "validation_error", "bot_name"},
		{"null bot_name", with("bot_name", nil), "validation_error", "bot_name"},
		{"bot_name of the wrong type", with("bot_name", 42), "validation_error", "bot_name"},
		{"bot_name longer than 100 characters", with("bot_name", strings.Repeat("b", 101)), "validation_error", "bot_name"},
		{"bot_name with a control character", with("bot_name", "a\x00b"), "validation_error", "bot_name"},
		{"missing owner_email", without("owner_email"), "validation_error", "owner_email"},
		{"owner_email that is not an address", with("owner_email", "not-an-email"), "validation_error", "owner_email"},
		{"owner_email with a display name", with("owner_email", "Ann <ann@example.com>"), "validation_error", "owner_email"},
		{"owner_email of the wrong type", with("owner_email", true), "validation_error", "owner_email"},
		{"description of the wrong type", with("description", []any{"x"}), "validation_error", "description"},
		{"callback_url with ftp scheme", with("callback_url", "ftp://bot.example.com/hook"), "validation_error", "callback_url"},
		{"callback_url with credentials", with("callback_url", "https://user:pass@bot.example.com/hook"), "validation_error", "callback_url"},
		{"callback_url that is relative", with("callback_url", "/hook"), "validation_error", "callback_url"},
		{"callback_url of the wrong type", with("callback_url", map[string]any{}), "validation_error", "callback_url"},
		{"local_port 0", with("local_port", 0), "validation_error", "local_port"},
		{"local_port 70000", with("local_port", 70000), "validation_error", "local_port"},
		{"local_port not an integer", with("local_port", 8080.5), "validation_error", "local_port"},
		{"local_port as a string", with("local_port", "8080"), "validation_error", "local_port"},
		{"webhook_path without leading slash", with("webhook_path", "hooks"), "validation_error", "webhook_path"},
		{"webhook_path of 201 characters", with("webhook_path", "/"+strings.Repeat("p", 200)), "validation_error", "webhook_path"},
		{"webhook_path of the wrong type", with("webhook_path", 7), "validation_error", "webhook_path"},
		{"bot_type with upper case and spaces", with("bot_type", "My Bot"), "validation_error", "bot_type"},
		{"pairing_code as a number", with("pairing_code", 123456), "validation_error", "pairing_code"},
		{"malformed JSON", `{"bot_name": "helper",`, "invalid_json", ""},
		{"empty body", "", "invalid_json", ""},
		{"whitespace body", " \n\t ", "invalid_json", ""},
		{"array body", `[{"bot_name":"helper","owner_email":"owner@example.com"}]`, "invalid_json", ""},
		{"string body", `"helper"`, "invalid_json", ""},
		{"null body", `null`, "invalid_json", ""},
		{"trailing garbage", `{"bot_name":"helper","owner_email":"owner@example.com"} x`, "invalid_json", ""},
		{"two objects", `{"bot_name":"a","owner_email":"a@example.com"}{"bot_name":"b"}`, "invalid_json", ""},
		{"malformed pairing code", with("pairing_code", "12ab56"), "invalid_pairing_code", ""},
		{"pairing code of seven digits", with("pairing_code", "1234567"), "invalid_pairing_code", ""},
		{"unknown pairing code", with("pairing_code", "000000"), "invalid_pairing_code", ""},
	}
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := do(t, srv, http.MethodPost, registerPath, c.body)
				if c.code == "validation_error" {
					wantValidation(t, r, c.field)
				} else {
					wantError(t, r, http.StatusBadRequest, c.code)
				}
			})
		}
		wantRows(t, srv, "bots", 0)
		wantRows(t, srv, "wallets", 0)
		// Positive control: the same server accepts the valid body.
		register(t, srv, validRegistration())
		wantRows(t, srv, "bots", 1)
	})
}

func TestRegisterIgnoresUnknownFields(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		body := botBody("owner@example.com")
		body["favourite_colour"] = "teal"
		body["nested"] = map[string]any{"deep": []any{1, 2}}
		r := register(t, srv, body)
		if r.str("bot_name") != body["bot_name"] || !strings.HasPrefix(r.str("api_key"), botpay.APIKeyPrefix) {
			t.Fatalf("registration answer: %s", r)
		}
	})
}

// TestRegisterPairingCodeErrors: a used or expired code is
// invalid_pairing_code; a registration refused for another reason does not
// burn the code.
func TestRegisterPairingCodeErrors(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
		opts := lenient()
		opts.Clock = clock
		srv := testserver.Start(t, d, opts)
		o := signup(t, srv)
		newCode := func() string {
			r := do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, auth(o.token)...)
			wantStatus(t, r, http.StatusCreated)
			return r.str("pairing_code")
		}
		paired := func(name, code string) response {
			return do(t, srv, http.MethodPost, registerPath, map[string]any{"bot_name": name,
				"owner_email": o.email, "pairing_code": code})
		}

		// A name already taken for the e-mail: 409, and the code survives.
		register(t, srv, map[string]any{"bot_name": "taken", "owner_email": o.email})
		code := newCode()
		wantError(t, paired("taken", code), http.StatusConflict, "duplicate_registration")
		r := paired("first", code)
		wantStatus(t, r, http.StatusCreated)
		if r.body["paired"] != true || r.body["claim_token"] != nil || r.str("owner_uid") != o.uid || r.str("status") != "active" {
			t.Fatalf("paired registration: %s", r)
		}

		t.Run("used code", func(t *testing.T) {
			wantError(t, paired("second", code), http.StatusBadRequest, "invalid_pairing_code")
		})
		t.Run("expired code", func(t *testing.T) {
			late := newCode()
			clock.Advance(time.Hour + time.Second)
			wantError(t, paired("late", late), http.StatusBadRequest, "invalid_pairing_code")
		})
		t.Run("code still valid just before the hour", func(t *testing.T) {
			fresh := newCode()
			clock.Advance(59 * time.Minute)
			wantStatus(t, paired("in-time", fresh), http.StatusCreated)
		})
		wantRows(t, srv, "bots", 3) // taken, first, in-time
	})
}

func TestRegisterDuplicateIsCaseInsensitiveOnEmail(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		register(t, srv, map[string]any{"bot_name": "twin", "owner_email": "Dup.Owner@Example.com"})
		for _, email := range []string{"Dup.Owner@Example.com", "dup.owner@example.com", "DUP.OWNER@EXAMPLE.COM"} {
			r := do(t, srv, http.MethodPost, registerPath, map[string]any{"bot_name": "twin", "owner_email": email})
			wantError(t, r, http.StatusConflict, "duplicate_registration")
		}
		wantRows(t, srv, "bots", 1)
		// Same name for another owner, and another name for the same owner, are fine.
		register(t, srv, map[string]any{"bot_name": "twin", "owner_email": "other@example.com"})
		register(t, srv, map[string]any{"bot_name": "twin-2", "owner_email": "dup.owner@example.com"})
		wantRows(t, srv, "bots", 3)
	})
}

// TestRegisterRateLimit: the fourth registration from one address within an
// hour is 429 with retry_after_seconds 3600 and Retry-After (docs/api.md,
// docs/decisions.md "Registration"), and writes nothing.
func TestRegisterRateLimit(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{})
		for range 3 {
			register(t, srv, botBody("owner@example.com"))
		}
		for i := range 2 {
			// The second refusal carries an Idempotency-Key: a 429 is not
			// stored, so it is refused again, not replayed.
			var kv []string
			if i == 1 {
				kv = []string{"Idempotency-Key", "rate-limited-retry"}
			}
			for range 2 {
				r := do(t, srv, http.MethodPost, registerPath, botBody("owner@example.com"), kv...)
				wantError(t, r, http.StatusTooManyRequests, "rate_limited")
				if got, _ := r.body["retry_after_seconds"].(float64); got != 3600 {
					t.Errorf("retry_after_seconds = %v, want 3600 (%s)", r.body["retry_after_seconds"], r)
				}
				if got := r.header.Get("Retry-After"); got != "3600" {
					t.Errorf("Retry-After = %q, want 3600", got)
				}
				// The limit itself, in the IETF draft's format.
				if got := r.header.Get("RateLimit-Policy"); got != `"register";q=3;w=3600` {
					t.Errorf("RateLimit-Policy = %q, want \"register\";q=3;w=3600", got)
				}
				// t= is until the oldest counted registration leaves the
				// window: just under an hour here, since all three are
				// seconds old (TestRegistrationRateLimitResetIsWhenTheOldestLeaves).
				var reset int
				if n, _ := fmt.Sscanf(r.header.Get("RateLimit"), `"register";r=0;t=%d`, &reset); n != 1 || reset < 3300 || reset > 3600 {
					t.Errorf("RateLimit = %q, want \"register\";r=0;t= just under 3600", r.header.Get("RateLimit"))
				}
				if id, _ := r.body["request_id"].(string); id == "" || id != r.header.Get("X-Request-Id") {
					t.Errorf("request_id = %q, X-Request-Id = %q: want the same id in both", id, r.header.Get("X-Request-Id"))
				}
				if r.header.Get("Idempotent-Replayed") != "" {
					t.Errorf("a 429 was replayed")
				}
			}
		}
		wantRows(t, srv, "bots", 3)
	})
}
