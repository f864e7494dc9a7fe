package web

import "net/http"

// Every page route, one line each: GETs render, POSTs are forms and pass
// the cross-origin check (post). signedIn requires a dashboard session.

// Mux is where the pages are registered: the API's ServeMux. An alias of
// the same interface literal as api.Mux, so neither package imports the other.
type Mux = interface {
	Handle(pattern string, h http.Handler)
	HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request))
}

// Mount registers the pages on mux.
func (p *Pages) Mount(mux Mux) {
	mux = checkedMux{Mux: mux, fail: p.fail} // bad text in paths, queries and forms: a 400 page
	protect := http.NewCrossOriginProtection()
	post := func(pattern string, h http.HandlerFunc) { mux.Handle("POST "+pattern, protect.Handler(h)) }
	p.publicPages(mux, post)
	p.dashboardPages(mux, post)
	p.botPages(mux, post)
}

// publicPages: the claim page, the buyer pages and receipts, the front
// page and the HTML API reference, sign-up and sign-in, and the account
// recovery pages.
func (p *Pages) publicPages(mux Mux, post func(string, http.HandlerFunc)) {
	mux.HandleFunc("GET /favicon.ico", favicon)
	mux.HandleFunc("GET /assets/wallet-pay.js", walletScriptAsset)
	mux.HandleFunc("GET /claim", p.claimForm)
	post("/claim", p.claimSubmit)
	mux.HandleFunc("GET /pay/{id}", p.payView)
	if !p.live { // the form pays through the sandbox; live mode has no such route
		post("/pay/{id}", p.paySubmit)
	}
	mux.HandleFunc("GET /pay/{id}/invoice.pdf", p.invoicePDF)
	mux.HandleFunc("GET /pay/{id}/receipt/{sale_id}", p.receipt)
	mux.HandleFunc("GET /{$}", p.landing)
	mux.HandleFunc("GET /docs/api", p.apiReference)
	mux.HandleFunc("GET /signup", p.authForm("signup"))
	mux.HandleFunc("GET /login", p.authForm("login"))
	post("/signup", p.authSubmit("signup"))
	post("/login", p.authSubmit("login"))
	post("/logout", p.logout)
	mux.HandleFunc("GET /forgot", p.forgotForm)
	post("/forgot", p.forgotSubmit)
	mux.HandleFunc("GET /reset", p.resetForm)
	post("/reset", p.resetSubmit)
	mux.HandleFunc("GET /verify-email", p.verifyEmail)
	mux.HandleFunc("GET /dashboard/decide", p.linkPage) // the e-mail's decision link
	post("/dashboard/decide", p.linkDecide)
}

// dashboardPages: the owner's own pages.
func (p *Pages) dashboardPages(mux Mux, post func(string, http.HandlerFunc)) {
	mux.HandleFunc("GET /dashboard", p.signedIn(p.botsPage))
	mux.HandleFunc("GET /dashboard/{$}", p.signedIn(p.botsPage))
	post("/dashboard/claim", p.signedIn(p.claimBot))
	post("/dashboard/pairing-codes", p.signedIn(p.pairingCode))
	mux.HandleFunc("GET /dashboard/master-guardrails", p.signedIn(p.masterPage))
	post("/dashboard/master-guardrails", p.signedIn(p.saveMaster))
	mux.HandleFunc("GET /dashboard/approvals", p.signedIn(p.approvalsPage))
	post("/dashboard/approvals/{kind}/{id}/{action}", p.signedIn(p.decide))
	mux.HandleFunc("GET /dashboard/sessions", p.signedIn(p.sessionsPage))
	post("/dashboard/sessions/{id}/revoke", p.signedIn(p.revokeSession))
	post("/dashboard/email-verification", p.signedIn(p.resendVerification))
}

// botPages: one owned bot's four sections and their forms.
func (p *Pages) botPages(mux Mux, post func(string, http.HandlerFunc)) {
	mux.HandleFunc("GET /dashboard/bots/{bot_id}", p.signedIn(p.botOverviewPage))
	mux.HandleFunc("GET /dashboard/bots/{bot_id}/spending", p.signedIn(p.botSpendingPage))
	mux.HandleFunc("GET /dashboard/bots/{bot_id}/earning", p.signedIn(p.earningPage))
	mux.HandleFunc("GET /dashboard/bots/{bot_id}/settings", p.signedIn(p.botSettingsPage))
	post("/dashboard/bots/{bot_id}/fund", p.signedIn(p.fund))
	post("/dashboard/bots/{bot_id}/freeze", p.signedIn(p.freeze))
	post("/dashboard/bots/{bot_id}/guardrails", p.signedIn(p.saveGuardrails))
	post("/dashboard/bots/{bot_id}/procurement", p.signedIn(p.saveProcurement))
	post("/dashboard/bots/{bot_id}/callback-url", p.signedIn(p.saveCallback))
	post("/dashboard/bots/{bot_id}/tasks", p.signedIn(p.createTask))
	post("/dashboard/bots/{bot_id}/cards", p.signedIn(p.createCard))
	post("/dashboard/bots/{bot_id}/rail5-cards", p.signedIn(p.createRail5Card))
	post("/dashboard/bots/{bot_id}/cards/{card_id}", p.signedIn(p.setCardStatus))
	post("/dashboard/bots/{bot_id}/api-key/rotate", p.signedIn(p.rotateKey))
	post("/dashboard/bots/{bot_id}/invoices/{invoice_id}/cancel", p.signedIn(p.cancelInvoice))
	post("/dashboard/bots/{bot_id}/purchases/{confirmation_id}/refund", p.signedIn(p.refundPurchase))
}
