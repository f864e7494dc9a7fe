package api

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/openapi"
)

// Every route of the JSON API, one line each: method and pattern, then the
// middleware (bot or owner authentication, idempotency keys) around the
// handler. The handlers live in files named by capability (*_handlers.go).
//
//	s.bot(h, opts…)   bot API key (auth.go)        s.owner(h)  owner token
//	s.idempotent(…)   Idempotency-Key replay        plain       no credential

// verdict names an owner's decision in the route table.
type verdict bool

const (
	approve verdict = true
	deny    verdict = false
)

// routes mounts every route; self is the whole handler, which the MCP
// tools call in-process.
func (s *Server) routes(self http.Handler) {
	s.publicRoutes(self)
	s.botRoutes()
	s.ownerRoutes()
}

// publicRoutes need no bot key or owner token, or check their own
// credential (MCP, the tunnel, x402 payments).
func (s *Server) publicRoutes(self http.Handler) {
	m := s.mux
	m.HandleFunc("GET /healthz", s.healthz)
	m.HandleFunc("GET /readyz", s.readyz)
	m.HandleFunc("GET /openapi.json", openapi.Handler(s.svc.BaseURL()))
	m.Handle("POST /mcp", s.mcpAuth(s.mcpHandler(self)))
	m.Handle("POST /api/v1/bots/register", s.idempotent(anonymousScope, http.HandlerFunc(s.register)))
	m.Handle("POST /api/v1/owner/signup", s.idempotent(anonymousScope, http.HandlerFunc(s.signup)))
	m.Handle("POST /api/v1/owner/login", s.idempotent(anonymousScope, http.HandlerFunc(s.login)))
	m.Handle("POST /api/v1/owner/password-reset", s.idempotent(anonymousScope, http.HandlerFunc(s.requestPasswordReset)))
	m.Handle("POST /api/v1/owner/password-reset/confirm", s.idempotent(anonymousScope, http.HandlerFunc(s.confirmPasswordReset)))
	m.HandleFunc("GET /api/v1/checkout/{id}/x402", s.checkoutX402)
	m.HandleFunc("POST /api/v1/checkout/{id}/x402", s.checkoutX402)
	m.HandleFunc("GET /api/v1/payment-links/{id}/x402", s.paymentLinkX402)
	m.HandleFunc("POST /api/v1/payment-links/{id}/x402", s.paymentLinkX402)
	if s.cfg.Tunnel != nil { // tunnel token (tunnel_handlers.go)
		m.HandleFunc("GET /api/v1/tunnel/next", s.tunnelNext)
		m.HandleFunc("POST /api/v1/tunnel/requests/{id}/result", s.tunnelResult)
	}
	if s.svc.Live() { // nothing may record a sale nobody paid for (mode.go)
		m.HandleFunc(routePayCheckoutSandbox, notRouted)
		m.HandleFunc(routePayLinkSandbox, notRouted)
		m.HandleFunc(routeBuyerForm, notRouted) // the web package leaves its form out
		return
	}
	m.Handle(routePayCheckoutSandbox, s.idempotent(anonymousScope, http.HandlerFunc(s.payCheckoutSandbox)))
	m.Handle(routePayLinkSandbox, s.idempotent(anonymousScope, http.HandlerFunc(s.payLinkSandbox)))
}

// botRoutes authenticate the bot by its API key.
func (s *Server) botRoutes() {
	m := s.mux
	m.Handle("GET /api/v1/bot/status", s.bot(s.status))
	m.HandleFunc("GET /api/v1/bot/wallet/check", s.walletCheck) // authenticates in its one statement
	m.Handle("GET /api/v1/bot/wallet/transactions", s.bot(s.transactions))
	m.Handle("POST /api/v1/bot/wallet/topup-request", s.bot(s.topupRequest))
	m.Handle("GET /api/v1/bot/wallet/spending", s.bot(s.spending))
	m.Handle("PATCH /api/v1/bot/profile", s.bot(s.updateProfile, currentKeyOnly))
	m.Handle("POST /api/v1/bot/api-key/rotate", s.bot(s.rotateKeyAsBot, currentKeyOnly))
	m.Handle("GET /api/v1/bot/skills", s.bot(s.listSkills))
	m.Handle("GET /api/v1/bot/skills/{vendor}", s.bot(s.skillFile))
	m.Handle("GET /api/v1/bot/messages", s.bot(s.listMessages))
	m.Handle("POST /api/v1/bot/messages/ack", s.bot(s.ackMessages))
	// spending
	m.Handle("POST /api/v1/bot/merchant/checkout", s.bot(s.checkout, spendingAuth))
	m.Handle("GET /api/v1/bot/merchant/checkout/status", s.bot(s.checkoutStatus))
	m.Handle("POST /api/v1/bot/tasks/next", s.bot(s.nextTask))
	m.Handle("POST /api/v1/bot/rail5/confirm-delivery", s.bot(s.confirmRail5Delivery))
	m.Handle("POST /api/v1/bot/rail5/checkout", s.bot(s.rail5Checkout))
	m.Handle("POST /api/v1/bot/rail5/key", s.bot(s.rail5Key))
	m.Handle("POST /api/v1/bot/rail5/complete", s.bot(s.rail5Complete))
	m.Handle("POST /api/v1/processor-wallet/bot/sign", s.bot(s.sign, signingAuthFailure, spendingAuth))
	// earning
	m.Handle("GET /api/v1/bot/checkout-pages", s.bot(s.listCheckoutPages))
	m.Handle("POST /api/v1/bot/checkout-pages/create", s.bot(s.createCheckoutPage))
	m.Handle("GET /api/v1/bot/payments/links", s.bot(s.listPaymentLinks))
	m.Handle("POST /api/v1/bot/payments/create-link", s.bot(s.createPaymentLink))
	m.Handle("GET /api/v1/bot/invoices", s.bot(s.listInvoices))
	m.Handle("POST /api/v1/bot/invoices/create", s.bot(s.createInvoice))
	m.Handle("POST /api/v1/bot/invoices/{id}/send", s.bot(s.sendInvoice))
	m.Handle("POST /api/v1/bot/invoices/send", s.bot(s.sendInvoice)) // the id left out
	m.Handle("GET /api/v1/bot/sales", s.bot(s.listSales, authFailsAs(botpay.CodeUnauthorized)))
	m.Handle("POST /api/v1/bot/sales/{sale_id}/refund", s.bot(s.refundSale, authFailsAs(botpay.CodeUnauthorized)))
	// the x402 facilitator of the bot's own paid API (facilitator_handlers.go)
	m.Handle("GET /api/v1/x402/facilitator/supported", s.bot(s.facilitatorSupported))
	m.Handle("POST /api/v1/x402/facilitator/verify", s.bot(s.facilitatorVerify))
	m.Handle("POST /api/v1/x402/facilitator/settle", s.bot(s.facilitatorSettle))
}

// ownerRoutes authenticate the owner by a session or API token.
func (s *Server) ownerRoutes() {
	m := s.mux
	m.Handle("POST /api/v1/owner/logout", s.owner(s.logout))
	m.Handle("POST /api/v1/owner/email-verification", s.owner(s.resendVerification))
	m.Handle("GET /api/v1/owner/sessions", s.owner(s.sessions))
	m.Handle("DELETE /api/v1/owner/sessions/{id}", s.owner(s.revokeSession))
	m.Handle("POST /api/v1/owner/pairing-codes", s.owner(s.pairingCode))
	m.Handle("POST /api/v1/owner/bots/claim", s.owner(s.claim))
	m.Handle("GET /api/v1/bots/mine", s.owner(s.botsMine))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/fund", s.owner(s.fund))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/freeze", s.owner(s.freeze))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/api-key/rotate", s.owner(s.rotateKeyAsOwner))
	m.Handle("PUT /api/v1/owner/bots/{bot_id}/callback-url", s.owner(s.putCallbackURL))
	m.Handle("GET /api/v1/owner/bots/{bot_id}/guardrails", s.owner(s.getGuardrails))
	m.Handle("PUT /api/v1/owner/bots/{bot_id}/guardrails", s.owner(s.putGuardrails))
	m.Handle("GET /api/v1/owner/master-guardrails", s.owner(s.getMasterGuardrails))
	m.Handle("PUT /api/v1/owner/master-guardrails", s.owner(s.putMasterGuardrails))
	m.Handle("GET /api/v1/owner/bots/{bot_id}/procurement", s.owner(s.getProcurement))
	m.Handle("PUT /api/v1/owner/bots/{bot_id}/procurement", s.owner(s.putProcurement))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/cards", s.owner(s.createCard))
	m.Handle("GET /api/v1/owner/bots/{bot_id}/cards", s.owner(s.listCards))
	m.Handle("PATCH /api/v1/owner/bots/{bot_id}/cards/{card_id}", s.owner(s.patchCard))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/rail5-cards", s.owner(s.createRail5Card))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/processor-wallet", s.owner(s.createProcessorWallet))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/tasks", s.owner(s.createTask))
	m.Handle("GET /api/v1/owner/approvals", s.owner(s.approvals))
	m.Handle("POST /api/v1/owner/purchases/{confirmation_id}/approve", s.owner(s.decidePurchase(approve)))
	m.Handle("POST /api/v1/owner/purchases/{confirmation_id}/deny", s.owner(s.decidePurchase(deny)))
	m.Handle("POST /api/v1/owner/purchases/{confirmation_id}/refund", s.owner(s.refundPurchase))
	m.Handle("GET /api/v1/owner/signing-requests", s.owner(s.pendingSigningRequests))
	m.Handle("POST /api/v1/owner/signing-requests/{approval_id}/approve", s.owner(s.decideSigning(approve)))
	m.Handle("POST /api/v1/owner/signing-requests/{approval_id}/deny", s.owner(s.decideSigning(deny)))
	m.Handle("POST /api/v1/owner/invoices/{invoice_id}/cancel", s.owner(s.cancelInvoice))
}
