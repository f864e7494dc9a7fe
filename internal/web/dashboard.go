package web

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// The owner dashboard: server-rendered pages under /dashboard plus
// /signup, /login and /logout. Every action calls the same app use case as
// the owner API; handlers only decode forms and pick a page.

//go:embed templates/dashboard/*.html
var dashboardFiles embed.FS

var dashFuncs = template.FuncMap{
	"usd": formatUSD,
	// usdc shows micro-USDC (one USDC is one dollar) without rounding.
	"usdc": formatUSDC,
	"usdp": func(m *botpay.Money) string {
		if m == nil {
			return ""
		}
		return m.USD()
	},
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
	// short is a table's date: the column header says UTC.
	"short": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("Jan 2, 15:04")
	},
	"join":    strings.Join,
	"outcome": deliveryOutcome,
	"lines":   func(l []string) string { return strings.Join(l, "\n") },
	"deref": func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	},
}

// dashSets maps, for each mode, a page name to its template: the layout
// plus the page.
var dashSets = map[bool]map[string]*template.Template{false: dashPages(false), true: dashPages(true)}

func dashPages(live bool) map[string]*template.Template {
	layout := template.Must(template.New("layout.html").Funcs(dashFuncs).Funcs(modeFuncs(live)).
		ParseFS(dashboardFiles, "templates/dashboard/layout.html"))
	names, err := fs.Glob(dashboardFiles, "templates/dashboard/*.html")
	if err != nil {
		panic(err)
	}
	out := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "templates/dashboard/"), ".html")
		if name == "layout" {
			continue
		}
		out[name] = template.Must(template.Must(layout.Clone()).ParseFS(dashboardFiles, n))
	}
	return out
}

// page is what the layout needs around every page.
type page struct {
	Title  string
	Owner  *botpay.Owner
	Notice string
	Data   any
}

type msgPage struct {
	Title string
	Text  string
	Link  string
	Error bool
}

func (p *Pages) renderDash(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	t := p.dash[name]
	pg := page{Data: data, Notice: notices[r.URL.Query().Get("done")]}
	if o, ok := r.Context().Value(ownerCtxKey{}).(botpay.Owner); ok {
		pg.Owner = &o
	}
	if m, ok := data.(msgPage); ok {
		pg.Title = m.Title
	}
	if tp, ok := data.(interface{ PageTitle() string }); ok {
		pg.Title = tp.PageTitle()
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := t.ExecuteTemplate(w, "layout.html", pg); err != nil {
		p.log.Error("render dashboard page", "page", name, "err", err)
	}
}

// notices are the confirmations shown after an action redirects back; the
// query names one, so nothing a visitor types is ever echoed.
var notices = map[string]string{
	"funded": "The wallet was funded.", "frozen": "The wallet is frozen.", "unfrozen": "The wallet is active again.",
	"guardrails": "Guardrails saved.", "procurement": "Procurement controls saved.", "callback": "Callback URL saved.",
	"revoked": "The session was revoked.", "verification": "A new verification link is on its way.",
	"task": "Task queued.", "card": "Card updated.", "master": "Master guardrails saved.", "approved": "Approved.",
	"topup-fund": "Funded: the request is covered.", "topup-dismiss": "Top-up request dismissed.",
	"denied": "Denied.", "claimed": "The bot is yours.", "cancelled": "Invoice cancelled.", "welcome": "Welcome to botpay.",
	"refunded": "Refund recorded: the wallet was credited.",
}

// fail shows an error page: the use case's message for a domain error, a
// generic one (and a log line) for anything else.
func (p *Pages) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := botpay.AsError(err)
	if e == nil && botpay.Unreachable(err) {
		e = botpay.Unavailable()
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	if e == nil {
		p.log.ErrorContext(r.Context(), "dashboard action failed", "path", r.URL.Path, "err", err)
		p.renderDash(w, r, http.StatusInternalServerError, "message", msgPage{Title: "Something went wrong", Text: "Please try again.", Error: true})
		return
	}
	p.renderDash(w, r, errorStatus(e), "message", msgPage{Title: "That did not work", Text: errorText(e), Link: backLink(r), Error: true})
}

func errorText(e *botpay.Error) string {
	text := e.Message
	for field, problem := range e.Details {
		text += " (" + field + " " + problem + ")"
	}
	return text
}

// errorStatus answers a domain error with the API's status for its kind.
func errorStatus(e *botpay.Error) int { return e.Kind.HTTPStatus() }

// backLink points back into the dashboard: the bot page for a bot action.
func backLink(r *http.Request) string {
	if id := r.PathValue("bot_id"); id != "" {
		return "/dashboard/bots/" + url.PathEscape(id)
	}
	return "/dashboard"
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// done redirects after a successful POST, naming the notice to show.
func done(w http.ResponseWriter, r *http.Request, to, notice string) {
	http.Redirect(w, r, to+"?done="+notice, http.StatusSeeOther)
}
