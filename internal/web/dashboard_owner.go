package web

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/accounts"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

type authPage struct {
	Mode  string // "signup" or "login"
	Email string
	Next  string
	Error string
}

func (a authPage) PageTitle() string {
	if a.Mode == "signup" {
		return "Sign up"
	}
	return "Log in"
}

// safeNext keeps the post-login redirect inside the dashboard.
func safeNext(next string) string {
	if strings.HasPrefix(next, "/dashboard") && !strings.HasPrefix(next, "//") && !strings.ContainsAny(next, "\\\r\n") {
		return next
	}
	return "/dashboard"
}

func (p *Pages) authForm(mode string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p.renderDash(w, r, http.StatusOK, "auth", authPage{Mode: mode, Next: safeNext(r.URL.Query().Get("next"))})
	}
}

// authSubmit signs up or logs in and starts a new session. The session
// token is always fresh (rotated on login); a session the browser already
// had is revoked.
func (p *Pages) authSubmit(mode string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		pg := authPage{Mode: mode, Email: r.PostFormValue("email"), Next: safeNext(r.PostFormValue("next"))}
		sess, err := p.openSession(r, mode, pg.Email, r.PostFormValue("password"))
		if err != nil {
			e := botpay.AsError(err)
			if e == nil {
				p.fail(w, r, err)
				return
			}
			pg.Error = errorText(e)
			p.renderDash(w, r, errorStatus(e), "auth", pg)
			return
		}
		if old := SessionToken(r); old != "" {
			_ = p.svc.Accounts().Logout(ctx, old)
		}
		p.setSession(w, sess.Token)
		http.Redirect(w, r, pg.Next, http.StatusSeeOther)
	}
}

// logout revokes the session's owner token and clears the cookie.
func (p *Pages) logout(w http.ResponseWriter, r *http.Request) {
	if token := SessionToken(r); token != "" {
		if err := p.svc.Accounts().Logout(r.Context(), token); err != nil {
			p.fail(w, r, err)
			return
		}
	}
	p.clearSession(w)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// overviewPage is the owner's overview: what needs a decision first, then
// the totals across bots, low balances and failing webhooks, then the bots.
type overviewPage struct {
	app.OwnerHomeView
	Rows []approvalRow // the first approvals, soonest to expire first
	More int           // approvals not shown in Rows
}

func (overviewPage) PageTitle() string { return "Overview" }

// overviewApprovals is how many approvals the overview lists itself.
const overviewApprovals = 5

func (p *Pages) botsPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	v, err := p.svc.Dashboard().OwnerHome(r.Context(), owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	names := map[string]string{}
	for _, b := range v.Bots {
		names[b.Bot.ID] = b.Bot.Name
	}
	pg := overviewPage{OwnerHomeView: v}
	now := p.svc.Now()
	for i, a := range v.Approvals {
		if i == overviewApprovals {
			pg.More = len(v.Approvals) - i
			break
		}
		exp := app.ApprovalExpiry(a)
		pg.Rows = append(pg.Rows, approvalRow{Approval: a, BotName: names[app.ApprovalBotID(a)], TimeLeft: timeLeft(exp, now), Expires: exp})
	}
	p.renderDash(w, r, http.StatusOK, "bots", pg)
}

func (p *Pages) claimBot(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	b, err := p.svc.Bots().Claim(r.Context(), owner, r.PostFormValue("claim_token"), p.clientIP(r))
	if err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/bots/"+b.ID, "claimed")
}

type pairingPage struct{ Code accounts.PairingCode }

func (pairingPage) PageTitle() string { return "Pairing code" }

func (p *Pages) pairingCode(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	code, err := p.svc.Accounts().CreatePairingCode(r.Context(), owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "pairing", pairingPage{Code: code})
}

type masterPage struct{ M botpay.MasterGuardrails }

func (masterPage) PageTitle() string { return "Master guardrails" }

func (p *Pages) masterPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	m, err := p.svc.Spending().MasterGuardrails(r.Context(), owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	pg := masterPage{}
	if m != nil {
		pg.M = *m
	}
	p.renderDash(w, r, http.StatusOK, "master", pg)
}

func (p *Pages) saveMaster(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := form{r: r, p: map[string]string{}}
	m := botpay.MasterGuardrails{PerTransaction: f.optionalUSD("per_transaction_usd"),
		DailyBudget: f.optionalUSD("daily_budget_usd"), MonthlyBudget: f.optionalUSD("monthly_budget_usd")}
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	if _, err := p.svc.Spending().SetMasterGuardrails(r.Context(), owner, m); err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/master-guardrails", "master")
}

// approvalRow is one entry of the approvals queue, whatever its kind.
type approvalRow struct {
	app.Approval
	BotName  string
	TimeLeft string
	Expires  time.Time
}

// topupRow is an open top-up request in the approvals queue.
type topupRow struct {
	botpay.TopupRequest
	BotName string
}

type approvalsPage struct {
	Rows   []approvalRow
	Topups []topupRow
}

func (approvalsPage) PageTitle() string { return "Approvals" }

// approvalBotID names the bot an approval belongs to.
func approvalBotID(a app.Approval) string {
	if a.Kind == "signing" {
		return a.Signing.BotID
	}
	return a.Purchase.BotID
}

func approvalExpiry(a app.Approval) time.Time {
	if a.Kind == "signing" {
		return time.Time(a.Signing.ExpiresAt)
	}
	return a.Purchase.ExpiresAt
}

func timeLeft(until, now time.Time) string {
	d := until.Sub(now).Round(time.Second)
	if d <= 0 {
		return "expired"
	}
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	if m == 0 {
		return itoa(s) + " s"
	}
	return itoa(m) + " min " + itoa(s) + " s"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func (p *Pages) approvalsPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	ctx := r.Context()
	list, err := p.allApprovals(ctx, owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	names := map[string]string{}
	if bots, err := everything(func(pr botpay.PageRequest) (botpay.Page[botpay.Bot], error) {
		return p.svc.Dashboard().OwnerBots(ctx, owner, pr)
	}); err == nil {
		for _, b := range bots {
			names[b.ID] = b.Name
		}
	}
	now := p.svc.Now()
	pg := approvalsPage{}
	for _, a := range list {
		exp := approvalExpiry(a)
		pg.Rows = append(pg.Rows, approvalRow{Approval: a, BotName: names[approvalBotID(a)], TimeLeft: timeLeft(exp, now), Expires: exp})
	}
	sort.SliceStable(pg.Rows, func(i, j int) bool {
		return approvalExpiry(pg.Rows[i].Approval).Before(approvalExpiry(pg.Rows[j].Approval))
	})
	topups, err := p.svc.Wallets().OpenTopupRequests(ctx, owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	for _, t := range topups {
		pg.Topups = append(pg.Topups, topupRow{TopupRequest: t, BotName: names[t.BotID]})
	}
	p.renderDash(w, r, http.StatusOK, "approvals", pg)
}

// decide approves or denies one entry of the queue through the same use
// case as the owner API.
func (p *Pages) decide(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	if r.PathValue("kind") == "topup" {
		p.decideTopup(w, r, owner)
		return
	}
	approve := r.PathValue("action") == "approve"
	if !approve && r.PathValue("action") != "deny" {
		p.fail(w, r, botpay.ErrNotFound("action"))
		return
	}
	var err error
	switch r.PathValue("kind") {
	case "purchase":
		_, err = p.svc.Spending().DecidePurchase(r.Context(), owner, r.PathValue("id"), approve)
	case "signing":
		err = p.decideSigning(r, owner, approve)
	default:
		err = botpay.ErrNotFound("approval")
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	notice := "denied"
	if approve {
		notice = "approved"
	}
	done(w, r, "/dashboard/approvals", notice)
}

// decideTopup funds or dismisses an open top-up request from the queue.
func (p *Pages) decideTopup(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		p.fail(w, r, botpay.ErrNotFound("top-up request"))
		return
	}
	switch r.PathValue("action") {
	case "fund":
		_, err = p.svc.Wallets().FundTopupRequest(r.Context(), owner, id)
	case "dismiss":
		err = p.svc.Wallets().DismissTopupRequest(r.Context(), owner, id)
	default:
		err = botpay.ErrNotFound("action")
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/approvals", "topup-"+r.PathValue("action"))
}

// decideSigning decides a held x402 signing request through the use case
// of POST /api/v1/owner/signing-requests/{approval_id}/approve|deny; an ID
// that is not one is not found, as there.
func (p *Pages) decideSigning(r *http.Request, owner botpay.Owner, approve bool) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return botpay.ErrNotFound("signing request")
	}
	_, err = p.svc.Payments().DecideSigning(r.Context(), owner, id, approve)
	return err
}

type decidePage struct {
	View     app.DecisionView
	TimeLeft string
	Result   *app.Approval
}

func (decidePage) PageTitle() string { return "Confirm your decision" }

// linkPage is where an e-mail's approve/deny link lands: it shows the
// request and the Approve and Deny buttons; it never acts (GET is safe).
// A link whose request is decided or expired gets a page that says so.
func (p *Pages) linkPage(w http.ResponseWriter, r *http.Request) {
	v, err := p.svc.OpenDecision(r.Context(), r.URL.Query().Get("t"))
	if err != nil {
		p.linkFailed(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "decide", decidePage{View: v, TimeLeft: timeLeft(v.ExpiresAt, p.svc.Now())})
}

// linkDecide applies the decision of the token posted, once.
func (p *Pages) linkDecide(w http.ResponseWriter, r *http.Request) {
	_, a, err := p.svc.DecideByLink(r.Context(), r.PostFormValue("t"))
	if err != nil {
		p.linkFailed(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "decide", decidePage{Result: &a})
}

// linkTitles name what went wrong with a decision link.
var linkTitles = map[string]string{
	"link_used":    "This request was already decided",
	"link_expired": "This request has expired",
	"expired":      "This request has expired",
}

func (p *Pages) linkFailed(w http.ResponseWriter, r *http.Request, err error) {
	e := botpay.AsError(err)
	if e == nil {
		p.fail(w, r, err)
		return
	}
	title := linkTitles[e.Code]
	if title == "" {
		title = "This link cannot be used"
	}
	p.renderDash(w, r, errorStatus(e), "message", msgPage{Title: title, Text: e.Message, Link: "/dashboard/approvals", Error: true})
}
