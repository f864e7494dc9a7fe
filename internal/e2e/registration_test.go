package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// Secret formats of docs/decisions.md.
var (
	apiKeyText        = regexp.MustCompile(`^bp_live_[0-9a-f]{48}$`)
	webhookSecretText = regexp.MustCompile(`^whsec_[0-9a-f]{48}$`)
	tunnelTokenText   = regexp.MustCompile(`^bpt_[0-9a-f]{48}$`)
	claimTokenText    = regexp.MustCompile(`^[a-z]+(-[A-HJKMNP-Z2-9]{4}){3}$`)
	pairingCodeText   = regexp.MustCompile(`^[0-9]{6}$`)
	botIDText         = regexp.MustCompile(`^bot_[0-9a-f]{16}$`)
	ownerTokenText    = regexp.MustCompile(`^bpo_live_[0-9a-f]{48}$`)
)

const registerRoute = "POST /api/v1/bots/register"

// tunnelFields are the registration fields of the managed tunnel only.
var tunnelFields = []string{"webhook_url", "tunnel_token", "tunnel_setup", "hooks_token", "hooks_token_note"}

func TestRegisterWithoutCallbackURLProvisionsAManagedTunnel(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		tests := []struct {
			name     string
			req      client.RegisterRequest
			wantPort int
			wantPath string
		}{
			{name: "default framework", wantPort: 18789, wantPath: "/hooks/service"},
			{name: "other framework", req: client.RegisterRequest{BotType: wire.Ptr("other")}, wantPort: 8080, wantPath: "/webhook"},
			{name: "explicit port and path", req: client.RegisterRequest{BotType: wire.Ptr("other"), LocalPort: wire.Ptr(9000), WebhookPath: wire.Ptr("/in/botpay")},
				wantPort: 9000, wantPath: "/in/botpay"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				h := h.fork(t)
				req := tt.req
				req.BotName, req.OwnerEmail, req.Description = "tunnel "+tt.name, uniqueEmail("tunnel"), wire.Ptr("buys things")
				bot, reg := h.register(req)
				base := h.srv.URL

				if got := h.wire.answer(registerRoute).status; got != http.StatusCreated {
					t.Errorf("HTTP status = %d, want 201", got)
				}
				checkUnpairedRegistration(t, h, reg, req)
				if !webhookSecretText.MatchString(reg.WebhookSecret) {
					t.Errorf("webhook_secret = %q", reg.WebhookSecret)
				}
				wantURL := base + "/tunnel/" + reg.BotID + tt.wantPath
				if textOf(reg.WebhookURL) != wantURL {
					t.Errorf("webhook_url = %q, want %q", textOf(reg.WebhookURL), wantURL)
				}
				if !tunnelTokenText.MatchString(textOf(reg.TunnelToken)) {
					t.Errorf("tunnel_token = %q", textOf(reg.TunnelToken))
				}
				if !webhookSecretText.MatchString(textOf(reg.HooksToken)) || textOf(reg.HooksToken) == reg.WebhookSecret {
					t.Errorf("hooks_token = %q, want a fresh whsec_ secret", textOf(reg.HooksToken))
				}
				if textOf(reg.HooksTokenNote) == "" {
					t.Error("hooks_token_note is empty")
				}
				ts := reg.TunnelSetup
				if ts == nil {
					t.Fatal("tunnel_setup is missing")
				}
				if ts.WebhookURL != wantURL || ts.TunnelToken != textOf(reg.TunnelToken) || ts.LocalPort != tt.wantPort || ts.WebhookPath != tt.wantPath {
					t.Errorf("tunnel_setup = {webhook_url %q, tunnel_token %q, local_port %d, webhook_path %q}, want {%q, %q, %d, %q}",
						ts.WebhookURL, ts.TunnelToken, ts.LocalPort, ts.WebhookPath, wantURL, textOf(reg.TunnelToken), tt.wantPort, tt.wantPath)
				}
				wantCmd := fmt.Sprintf("botpay tunnel --server %s --token %s --to http://127.0.0.1:%d", base, textOf(reg.TunnelToken), tt.wantPort)
				if ts.TunnelClientCommand != wantCmd {
					t.Errorf("tunnel_client_command = %q, want %q", ts.TunnelClientCommand, wantCmd)
				}
				if len(ts.Steps) == 0 || ts.GatewayConfig == "" {
					t.Errorf("steps = %q, gateway_config = %q; want both filled", ts.Steps, ts.GatewayConfig)
				}
				if got := ts.WebhookHeaders["X-Service-Signature"]; got != "sha256=<hmac>" {
					t.Errorf("webhook_headers[X-Service-Signature] = %q, want sha256=<hmac>", got)
				}
				if ts.WebhookHeaders["X-Service-Event"] == "" {
					t.Error("webhook_headers lacks X-Service-Event")
				}
				if !strings.Contains(ts.RetryPolicy, "5") || !strings.Contains(ts.RetryPolicy, "exponential") {
					t.Errorf("retry_policy = %q, want up to 5 retries with exponential backoff", ts.RetryPolicy)
				}

				// No tunnel client is connected yet, so nothing can be delivered.
				st, err := bot.Status(h.ctx)
				if err != nil {
					t.Fatal(err)
				}
				if st.WebhookStatus != "none" || st.WebhookFailCount != 0 || st.CallbackURL != nil {
					t.Errorf("webhook = %s/%d callback %v, want none/0 and no callback_url", st.WebhookStatus, st.WebhookFailCount, st.CallbackURL)
				}
			})
		}
	})
}

// checkUnpairedRegistration checks what every registration without a
// pairing code answers, and the verification e-mail to owner_email.
func checkUnpairedRegistration(t *testing.T, h *harness, reg *client.Registration, req client.RegisterRequest) {
	t.Helper()
	if !botIDText.MatchString(reg.BotID) || reg.BotName != req.BotName {
		t.Errorf("bot_id %q, bot_name %q", reg.BotID, reg.BotName)
	}
	if !apiKeyText.MatchString(reg.APIKey) {
		t.Errorf("api_key = %q, want bp_live_ + 48 hex", reg.APIKey)
	}
	if reg.Status != client.StatusPendingOwnerVerification || reg.Paired || textOf(reg.OwnerUID) != "" {
		t.Errorf("status %q paired %v owner_uid %q, want pending_owner_verification, false, none", reg.Status, reg.Paired, textOf(reg.OwnerUID))
	}
	if reg.ClaimToken == nil || !claimTokenText.MatchString(*reg.ClaimToken) {
		t.Fatalf("claim_token = %v, want word-XXXX-XXXX-XXXX", reg.ClaimToken)
	}
	wantVerify := h.srv.URL + "/claim?token=" + *reg.ClaimToken
	if textOf(reg.OwnerVerificationURL) != wantVerify {
		t.Errorf("owner_verification_url = %q, want %q", textOf(reg.OwnerVerificationURL), wantVerify)
	}
	if reg.WebhookNote == "" || reg.Important == "" {
		t.Errorf("webhook_note %q, important %q; want both", reg.WebhookNote, reg.Important)
	}
	wantAbsent(t, h.wire.fields(registerRoute), "owner_uid")

	sent := h.mailTo(req.OwnerEmail)
	if len(sent) != 1 {
		t.Fatalf("%d e-mails to owner_email %s, want 1 verification e-mail", len(sent), req.OwnerEmail)
	}
	if !strings.Contains(sent[0].Text, wantVerify) {
		t.Errorf("verification e-mail lacks the claim URL %s:\n%s", wantVerify, sent[0].Text)
	}
}

func TestRegisterWithCallbackURLGetsAWebhookSecretAndNoTunnel(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		req := client.RegisterRequest{BotName: "hooked", OwnerEmail: uniqueEmail("hooked"),
			CallbackURL: wire.Ptr("https://bot.example.com/hooks/botpay")}
		bot, reg := h.register(req)

		checkUnpairedRegistration(t, h, reg, req)
		if !webhookSecretText.MatchString(reg.WebhookSecret) {
			t.Errorf("webhook_secret = %q, want whsec_ + 48 hex", reg.WebhookSecret)
		}
		if reg.TunnelSetup != nil || textOf(reg.WebhookURL) != "" {
			t.Errorf("tunnel provisioned for a bot with its own callback_url: %+v", reg)
		}
		wantAbsent(t, h.wire.fields(registerRoute), tunnelFields...)

		// the API reference (docs/api.md): registering with a callback_url makes the webhook active.
		st, err := bot.Status(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.CallbackURL == nil || *st.CallbackURL != textOf(req.CallbackURL) || st.WebhookStatus != "active" || st.WebhookFailCount != 0 {
			t.Errorf("callback_url %v, webhook %s/%d; want %s, active/0", st.CallbackURL, st.WebhookStatus, st.WebhookFailCount, textOf(req.CallbackURL))
		}
	})
}

func TestRegisterWithPairingCodeIsActiveAtOnce(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		owner, sess := h.signup(uniqueEmail("pairing-owner"))
		pc, err := owner.CreatePairingCode(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.wire.answer("POST /api/v1/owner/pairing-codes").status; got != http.StatusCreated {
			t.Errorf("pairing code HTTP status = %d, want 201", got)
		}
		if !pairingCodeText.MatchString(pc.PairingCode) {
			t.Errorf("pairing_code = %q, want 6 digits", pc.PairingCode)
		}
		if left := time.Until(pc.ExpiresAt.Time); left < 59*time.Minute || left > 61*time.Minute {
			t.Errorf("pairing code expires in %v, want one hour", left)
		}

		botEmail := uniqueEmail("paired")
		bot, reg := h.register(client.RegisterRequest{BotName: "paired", OwnerEmail: botEmail, PairingCode: wire.Ptr(pc.PairingCode)})
		if reg.Status != client.StatusActive || !reg.Paired || textOf(reg.OwnerUID) != sess.OwnerUID {
			t.Errorf("status %q paired %v owner_uid %q, want active, true, %q", reg.Status, reg.Paired, textOf(reg.OwnerUID), sess.OwnerUID)
		}
		if reg.ClaimToken != nil || textOf(reg.OwnerVerificationURL) != "" {
			t.Errorf("claim_token %v, owner_verification_url %q; want null and none", reg.ClaimToken, textOf(reg.OwnerVerificationURL))
		}
		raw := h.wire.fields(registerRoute)
		wantNull(t, raw, "claim_token")
		wantAbsent(t, raw, "owner_verification_url")
		if !apiKeyText.MatchString(reg.APIKey) || !webhookSecretText.MatchString(reg.WebhookSecret) {
			t.Errorf("api_key %q, webhook_secret %q", reg.APIKey, reg.WebhookSecret)
		}
		if n := len(h.mailTo(botEmail)); n != 0 {
			t.Errorf("%d verification e-mails for a paired bot, want none", n)
		}

		// Already claimed: the wallet is live, with nothing in it.
		st, err := bot.Status(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != client.BotActive || st.DefaultRail == nil || *st.DefaultRail != client.RailCardWallet ||
			st.WalletStatus != client.WalletEmpty {
			t.Errorf("status %q default_rail %v wallet_status %q; want active, card_wallet, empty", st.Status, st.DefaultRail, st.WalletStatus)
		}
		mine, err := owner.BotsMine(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) != 1 || mine[0].BotID != reg.BotID || mine[0].ClaimedAt == nil {
			t.Errorf("bots/mine = %+v, want the paired bot, claimed", mine)
		}

		// Single use.
		_, err = h.bots.Register(h.ctx, client.RegisterRequest{BotName: "second", OwnerEmail: botEmail, PairingCode: wire.Ptr(pc.PairingCode)})
		wantError(t, err, http.StatusBadRequest, client.CodeInvalidPairingCode)
	})
}

func TestRegisterRejectsInvalidRequests(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		valid := func(mutate func(r *client.RegisterRequest)) client.RegisterRequest {
			r := client.RegisterRequest{BotName: "bot", OwnerEmail: uniqueEmail("rejects")}
			mutate(&r)
			return r
		}
		tests := []struct {
			name       string
			req        client.RegisterRequest
			status     int
			code       string
			badField   string
			wantDetail bool
		}{
			{"missing bot_name", valid(func(r *client.RegisterRequest) { r.BotName = "" }), 400, client.CodeValidation, "bot_name", true},
			{"malformed owner_email", valid(func(r *client.RegisterRequest) { r.OwnerEmail = "not-an-address" }), 400, client.CodeValidation, "owner_email", true},
			{"callback_url not http", valid(func(r *client.RegisterRequest) { r.CallbackURL = wire.Ptr("ftp://bot.example.com/x") }), 400, client.CodeValidation, "callback_url", true},
			{"local_port out of range", valid(func(r *client.RegisterRequest) { r.LocalPort = wire.Ptr(65536) }), 400, client.CodeValidation, "local_port", true},
			{"webhook_path without slash", valid(func(r *client.RegisterRequest) { r.WebhookPath = wire.Ptr("hooks") }), 400, client.CodeValidation, "webhook_path", true},
			{"webhook_path too long", valid(func(r *client.RegisterRequest) { r.WebhookPath = wire.Ptr("/" + strings.Repeat("a", 200)) }), 400, client.CodeValidation, "webhook_path", true},
			{"unknown pairing code", valid(func(r *client.RegisterRequest) { r.PairingCode = wire.Ptr("000000") }), 400, client.CodeInvalidPairingCode, "", false},
			{"malformed pairing code", valid(func(r *client.RegisterRequest) { r.PairingCode = wire.Ptr("12ab") }), 400, client.CodeInvalidPairingCode, "", false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				h := h.fork(t)
				_, err := h.bots.Register(h.ctx, tt.req)
				e := wantError(t, err, tt.status, tt.code)
				if tt.wantDetail && e.Details[tt.badField] == "" {
					t.Errorf("details = %v, want an entry for %s", e.Details, tt.badField)
				}
			})
		}

		t.Run("same bot name for the same owner e-mail", func(t *testing.T) {
			t.Parallel()
			h := h.fork(t)
			req := client.RegisterRequest{BotName: "twin", OwnerEmail: uniqueEmail("twin")}
			h.register(req)
			_, err := h.bots.Register(h.ctx, req)
			wantError(t, err, http.StatusConflict, client.CodeDuplicateRegistration)
		})
	})
}

func TestRegistrationIsLimitedToThreePerIPPerHour(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		for i := range 3 {
			h.register(client.RegisterRequest{BotName: fmt.Sprint("bot ", i), OwnerEmail: uniqueEmail("limited")})
		}
		_, err := h.bots.Register(h.ctx, client.RegisterRequest{BotName: "one too many", OwnerEmail: uniqueEmail("limited")})
		e := wantError(t, err, http.StatusTooManyRequests, client.CodeRateLimited)
		if e.RetryAfterSeconds != 3600 {
			t.Errorf("retry_after_seconds = %d, want 3600", e.RetryAfterSeconds)
		}
		if got := h.wire.fields(registerRoute)["retry_after_seconds"]; string(got) != "3600" {
			t.Errorf("body retry_after_seconds = %s, want 3600", got)
		}
	})
}

func TestRegisterRetriedWithTheSameIdempotencyKeyReturnsTheSameBot(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		req := client.RegisterRequest{BotName: "retrier", OwnerEmail: uniqueEmail("retrier")}
		first, err := h.bots.Register(h.ctx, req, client.WithIdempotencyKey("register-retrier-1"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := h.bots.Register(h.ctx, req, client.WithIdempotencyKey("register-retrier-1"))
		if err != nil {
			t.Fatalf("retry: %v", err)
		}
		if again.BotID != first.BotID || again.APIKey != first.APIKey {
			t.Errorf("retry answered bot %s, want the replayed %s", again.BotID, first.BotID)
		}
		if h.wire.answer(registerRoute).header.Get("Idempotent-Replayed") != "true" {
			t.Error("retry was not marked Idempotent-Replayed")
		}
		if n := len(h.mailTo(req.OwnerEmail)); n != 1 {
			t.Errorf("%d verification e-mails, want 1", n)
		}
		// The replayed key still works: one bot, not two.
		if _, err := h.bots.WithAPIKey(again.APIKey).Status(h.ctx); err != nil {
			t.Errorf("replayed api_key: %v", err)
		}
		req.Description = wire.Ptr("changed")
		_, err = h.bots.Register(h.ctx, req, client.WithIdempotencyKey("register-retrier-1"))
		wantError(t, err, http.StatusConflict, client.CodeIdempotencyKeyReused)
	})
}
