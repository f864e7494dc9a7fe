package web

import (
	"embed"
	"html/template"
	"log/slog"
	"net/http"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
)

//go:embed templates/*.html
var templateFiles embed.FS

// pageSets holds the buyer and claim pages of each mode, parsed at start:
// an html/template cannot be cloned once executed, and the two modes
// differ only in the function that tells the pages whether to show the
// sandbox mark.
var pageSets = map[bool]*template.Template{
	false: template.Must(template.New("").Funcs(buyerFuncs).Funcs(modeFuncs(false)).ParseFS(templateFiles, "templates/*.html")),
	true:  template.Must(template.New("").Funcs(buyerFuncs).Funcs(modeFuncs(true)).ParseFS(templateFiles, "templates/*.html")),
}

// modeFuncs are the template functions that depend on BOTPAY_MODE.
func modeFuncs(live bool) template.FuncMap {
	return template.FuncMap{"sandbox": func() bool { return !live }}
}

// Pages serves the HTML pages.
type Pages struct {
	svc      *app.Service
	log      *slog.Logger
	clientIP func(*http.Request) string
	live     bool
	pages    *template.Template
	dash     map[string]*template.Template
}

// New builds the pages. clientIP tells the address to rate-limit by (the
// API layer knows the trusted proxies).
func New(svc *app.Service, log *slog.Logger, clientIP func(*http.Request) string) *Pages {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	live := svc.Live()
	return &Pages{svc: svc, log: log, clientIP: clientIP, live: live, pages: pageSets[live], dash: dashSets[live]}
}

type claimPage struct {
	Token   string
	Email   string
	Mode    string // "signup" or "login"
	Error   string
	Claimed *botpay.Bot
	// Claimable is the bot the token in the link would claim, named before
	// anyone signs up for it.
	Claimable *bots.ClaimableBot
}

func (p *Pages) render(w http.ResponseWriter, status int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := p.pages.ExecuteTemplate(w, name, data); err != nil {
		p.log.Error("render page", "page", name, "err", err)
	}
}

func (p *Pages) claimForm(w http.ResponseWriter, r *http.Request) {
	page := claimPage{Token: r.URL.Query().Get("token"), Mode: "signup"}
	if page.Token != "" {
		b, err := p.svc.Bots().ClaimPreview(r.Context(), page.Token, p.clientIP(r))
		switch e := botpay.AsError(err); {
		case err == nil:
			page.Claimable, page.Email = &b, b.OwnerEmail
		case e != nil && e.Kind == botpay.KindRateLimited:
			page.Error = "Too many attempts from your address; please try again later."
		case e != nil && e.Code == botpay.CodeInvalidClaimToken:
			page.Error = "This claim link is unknown, already used or expired (links work for 7 days). Ask your bot for a new one."
		default:
			p.log.Warn("claim preview", "err", err)
		}
	}
	p.render(w, http.StatusOK, "claim.html", page)
}

func (p *Pages) claimSubmit(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		p.render(w, http.StatusBadRequest, "claim.html", claimPage{Mode: "signup", Error: "The form could not be read."})
		return
	}
	page := claimPage{Token: r.PostForm.Get("token"), Email: r.PostForm.Get("email"), Mode: r.PostForm.Get("mode")}
	if page.Mode != "login" {
		page.Mode = "signup"
	}
	ctx := r.Context()
	sess, err := p.openSession(r, page.Mode, page.Email, r.PostForm.Get("password"))
	if err == nil {
		var b botpay.Bot
		b, err = p.svc.Bots().Claim(ctx, sess.Owner, page.Token, p.clientIP(r))
		if err == nil {
			page.Claimed = &b
			p.setSession(w, sess.Token) // signed in to the dashboard too, so the claim leads straight to it
			p.render(w, http.StatusOK, "claim.html", page)
			return
		}
	}
	status := http.StatusBadRequest
	page.Error = "Something went wrong; please try again."
	if e := botpay.AsError(err); e != nil {
		page.Error = e.Message
		for field, problem := range e.Details {
			page.Error = field + " " + problem
		}
		if e.Kind == botpay.KindRateLimited {
			status = http.StatusTooManyRequests
		}
	} else if botpay.Unreachable(err) {
		page.Error, status = "The service cannot reach its database right now; please try again in a few seconds.", http.StatusServiceUnavailable
	} else {
		p.log.ErrorContext(ctx, "claim page failed", "err", err)
		status = http.StatusInternalServerError
	}
	p.render(w, status, "claim.html", page)
}
