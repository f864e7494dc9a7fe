package api

import (
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/wire"
)

const (
	webhookNote = "Verify every webhook: X-Service-Signature is sha256=<hex HMAC-SHA256 of the raw body keyed with webhook_secret>. " +
		"When your webhook is down, events wait for you at GET /api/v1/bot/messages."
	importantNote = "Save api_key and webhook_secret now: they are shown only once and cannot be retrieved later."
	hooksNote     = "Set hooks_token in your gateway's environment (for example BOTPAY_HOOKS_TOKEN); the tunnel sends it as " +
		"Authorization: Bearer <hooks_token> with every delivery. It is shown only once."
)

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.RegisterRequest
	f := body.into(&req)
	f.text(&req.BotName)
	f.text(&req.OwnerEmail)
	f.optText(&req.Description)
	f.optText(&req.CallbackURL)
	f.optText(&req.PairingCode)
	f.optText(&req.BotType)
	f.integer(&req.LocalPort)
	f.optText(&req.WebhookPath)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	reg, err := s.svc.Bots().Register(r.Context(), bots.RegisterInput{BotName: req.BotName, OwnerEmail: req.OwnerEmail,
		Description: deref(req.Description), CallbackURL: deref(req.CallbackURL), PairingCode: deref(req.PairingCode),
		BotType: deref(req.BotType), LocalPort: req.LocalPort, WebhookPath: req.WebhookPath, ClientIP: clientIP(r)})
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteSecretAnswer(r)
	writeJSON(w, http.StatusCreated, s.viewRegistration(reg))
}

// viewRegistration is the answer of a registration: a claim token and
// its verification URL unless a pairing code paired the bot at once, and
// the tunnel's setup when the service provisioned one.
func (s *Server) viewRegistration(reg bots.Registration) wire.Registration {
	v := wire.Registration{BotID: reg.Bot.ID, BotName: reg.Bot.Name, APIKey: reg.APIKey, Status: botpay.BotPendingVerification,
		WebhookSecret: reg.WebhookSecret, WebhookNote: webhookNote, Important: importantNote}
	if reg.OwnerID != "" {
		v.Status, v.Paired, v.OwnerUID = botpay.BotActive, true, optText(reg.OwnerID)
	} else {
		v.ClaimToken = &reg.ClaimToken
		v.OwnerVerificationURL = optText(s.svc.Bots().VerificationURL(reg.ClaimToken))
	}
	if t := reg.Tunnel; t != nil {
		v.WebhookURL, v.TunnelToken = optText(t.WebhookURL), optText(t.TunnelToken)
		v.HooksToken, v.HooksTokenNote = optText(t.HooksToken), optText(hooksNote)
		v.TunnelSetup = &wire.TunnelSetup{
			WebhookURL: t.WebhookURL, TunnelToken: t.TunnelToken, TunnelClientCommand: t.Command,
			LocalPort: t.LocalPort, WebhookPath: t.WebhookPath,
			Steps: []string{
				"Install the botpay binary on the machine that runs your bot.",
				"Store hooks_token in your gateway's environment, for example BOTPAY_HOOKS_TOKEN.",
				"Start your gateway listening on http://127.0.0.1:" + strconv.Itoa(t.LocalPort) + t.WebhookPath + ".",
				"Run: " + t.Command,
				"Verify X-Service-Signature on each delivery with your webhook_secret.",
			},
			WebhookHeaders: map[string]string{
				"X-Service-Signature": "sha256=<hmac>",
				"X-Service-Event":     "<event type>",
				"Authorization":       "Bearer <hooks_token>",
			},
			RetryPolicy: "Failed deliveries are retried up to 5 times with exponential backoff; while your webhook " +
				"is unreachable, events are kept as pending messages at GET /api/v1/bot/messages.",
			GatewayConfig: gatewayConfig(t),
		}
	}
	return v
}

func gatewayConfig(t *bots.Tunnel) string {
	return "{\n  \"hooks\": {\n    \"enabled\": true,\n    \"path\": \"" + t.WebhookPath + "\",\n    \"port\": " +
		strconv.Itoa(t.LocalPort) + ",\n    \"token\": \"${BOTPAY_HOOKS_TOKEN}\"\n  }\n}"
}

func (s *Server) status(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	o, err := s.svc.Wallets().FullOverview(r.Context(), bot)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewStatus(o, s.svc.Live()))
}

// viewCallbackState is the answer of a change of a bot's callback URL.
func viewCallbackState(b botpay.Bot) wire.CallbackState {
	return wire.CallbackState{BotID: b.ID, CallbackURL: b.CallbackURL, WebhookStatus: b.WebhookStatus,
		WebhookFailCount: b.WebhookFailCount}
}

// walletCheck authenticates and reads in one step (wallets.Service.WalletCheck) instead
// of going through s.bot: it is a GET, so there is no idempotency layer to
// keep, and it saves a database round trip on the hottest call.
func (s *Server) walletCheck(w http.ResponseWriter, r *http.Request) {
	o, err := s.svc.Wallets().WalletCheck(r.Context(), bearer(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewWalletCheck(o))
}

// queryLimit parses an optional limit in [1, max]; outside is an error, not
// clamped (docs/decisions.md).
func queryLimit(r *http.Request, def, max int) (int, error) {
	raw := r.URL.Query().Get("limit")
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > max {
		return 0, botpay.ValidationError(map[string]string{"limit": "must be an integer from 1 to " + strconv.Itoa(max)})
	}
	return n, nil
}

func (s *Server) transactions(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	list := newList(r, "transactions", bot.ID, 50)
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	txs, err := s.svc.Wallets().Transactions(r.Context(), bot, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	more, cursor := s.pageEnd(list, txs.Next)
	writeJSON(w, http.StatusOK, wire.ListTransactionsResponse{Transactions: botpay.MapPage(txs, viewTransaction).Items, HasMore: more, NextCursor: cursor})
}

func (s *Server) topupRequest(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.RequestTopupRequest
	f := body.into(&req)
	f.usd(&req.AmountUSD)
	f.optText(&req.Reason)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	t, err := s.svc.Wallets().RequestTopup(r.Context(), bot, money(req.AmountUSD), deref(req.Reason))
	if err != nil {
		writeError(w, r, err)
		return
	}
	msg := "Your owner has been e-mailed about this request."
	if !t.OwnerNotified {
		msg = "The request is recorded, but the e-mail to your owner could not be sent; they will see it in the dashboard."
	}
	writeJSON(w, http.StatusOK, wire.RequestTopupResponse{TopupRequestID: t.ID, Status: t.Status, AmountUSD: usd(t.Amount),
		OwnerNotified: t.OwnerNotified, Message: msg})
}

func (s *Server) spending(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	g, err := s.svc.Spending().BotGuardrails(r.Context(), bot)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewGuardrails(g))
}

func (s *Server) updateProfile(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.UpdateBotProfileRequest
	body.into(&req).text(&req.CallbackURL)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.svc.Bots().UpdateCallbackURL(r.Context(), "", bot.ID, req.CallbackURL)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewCallbackState(b))
}
