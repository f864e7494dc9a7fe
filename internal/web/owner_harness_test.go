package web_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// ownerSite is a running service with one owner signed in to the dashboard
// and one claimed, funded bot of theirs with a card.
type ownerSite struct {
	t     *testing.T
	ctx   context.Context
	srv   *testserver.Server
	owner *client.OwnerClient
	sess  *client.OwnerSession
	bot   *client.Client
	botID string
	hc    *http.Client
	// dialect is the database engine, for a second site on the same one.
	dialect store.Dialect
}

// eachEngine runs test on every database engine, in parallel.
func eachEngine(t *testing.T, opts testserver.Options, test func(t *testing.T, s *ownerSite)) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			test(t, newOwnerSite(t, d, opts))
		})
	}
}

func uniqueAddress(name string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return name + "-" + hex.EncodeToString(b) + "@example.com"
}

// newOwnerSite starts the service and sets up a bot named "Shopper" with
// $100 and a card (profile 1 real, $5,000 a month), its guardrails asking
// the owner for everything, up to $5,000 a purchase.
func newOwnerSite(t *testing.T, dialect store.Dialect, opts testserver.Options) *ownerSite {
	if opts.Limits.RegisterPerHour == 0 {
		opts.Limits.RegisterPerHour = 1000
	}
	srv := testserver.Start(t, dialect, opts)
	s := &ownerSite{t: t, ctx: t.Context(), srv: srv, dialect: dialect, hc: &http.Client{Transport: srv.HTTP.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	s.owner, s.sess = s.signup()
	s.bot, s.botID = s.claimBot("Shopper", "")
	s.fund(s.botID, client.Dollars(100, 0))
	g, err := s.owner.Guardrails(s.ctx, s.botID)
	if err != nil {
		t.Fatal(err)
	}
	g.ApprovalMode = client.ApprovalAskForEverything
	g.Limits.PerTransactionUSD, g.Limits.DailyUSD, g.Limits.MonthlyUSD = client.Dollars(5_000, 0), client.Dollars(10_000, 0), client.Dollars(20_000, 0)
	if _, err := s.owner.SetGuardrails(s.ctx, s.botID, *g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.owner.CreateCard(s.ctx, s.botID, client.NewCard{CardName: "Team card", MissingDigits: "4242", ExpiryMonth: "12",
		ExpiryYear: "2031", RealProfileIndex: 1, Profiles: []client.NewPaymentProfile{
			{ProfileIndex: 1, AllowanceDuration: client.AllowanceMonth, AllowanceUSD: client.Dollars(5_000, 0)}}}); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *ownerSite) signup() (*client.OwnerClient, *client.OwnerSession) {
	owners := client.NewOwner(s.srv.URL, "", client.WithHTTPClient(s.srv.HTTP.Client()))
	sess, err := owners.Signup(s.ctx, uniqueAddress("owner"), "correct horse battery staple")
	if err != nil {
		s.t.Fatal(err)
	}
	return owners.WithToken(sess.Token), sess
}

// claimBot registers a bot for the owner and claims it.
func (s *ownerSite) claimBot(name, callbackURL string) (*client.Client, string) {
	bots := client.New(s.srv.URL, "", client.WithHTTPClient(s.srv.HTTP.Client()))
	reg, err := bots.Register(s.ctx, client.RegisterRequest{BotName: name, OwnerEmail: s.sess.Email, CallbackURL: orNil(callbackURL)})
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.owner.Claim(s.ctx, *reg.ClaimToken); err != nil {
		s.t.Fatal(err)
	}
	return bots.WithAPIKey(reg.APIKey), reg.BotID
}

func (s *ownerSite) fund(botID string, amount client.USD) {
	if _, err := s.owner.Fund(s.ctx, botID, amount, ""); err != nil {
		s.t.Fatal(err)
	}
}

// orNil is s as an optional member, left out when empty.
func orNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// buy makes a checkout of cents on the real profile.
func (s *ownerSite) buy(cents int64, item, category string) (*client.Checkout, error) {
	return s.bot.Checkout(s.ctx, client.CheckoutRequest{ProfileIndex: 1, MerchantName: "Acme", MerchantURL: "https://shop.acme.com/widgets",
		ItemName: item, AmountCents: cents, Category: orNil(category)})
}

// page GETs path with the owner's session (signedIn) or without one.
func (s *ownerSite) page(path string, signedIn bool) (int, string) {
	return s.send("GET", path, nil, signedIn)
}

func (s *ownerSite) send(method, path string, form url.Values, signedIn bool) (int, string) {
	s.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, s.srv.URL+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if signedIn {
		req.AddCookie(&http.Cookie{Name: "botpay_session", Value: s.sess.Token})
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

var decisionLinkRE = regexp.MustCompile(`(?m)^(Approve|Deny): (\S+)$`)

// heldLinks makes a held purchase and returns its id and the approve and
// deny links (paths) of the owner's e-mail.
func (s *ownerSite) heldLinks(cents int64) (id, approve, deny string) {
	s.t.Helper()
	co, err := s.buy(cents, "Ergonomic chair", "furniture")
	if err != nil || (co.Approved != nil && *co.Approved) {
		s.t.Fatalf("checkout: %+v %v", co, err)
	}
	for _, m := range s.srv.Mail.Sent() {
		if m.To != s.sess.Email || !strings.HasPrefix(m.Subject, "Approval needed") {
			continue
		}
		for _, match := range decisionLinkRE.FindAllStringSubmatch(m.Text, -1) {
			if match[1] == "Approve" {
				approve = strings.TrimPrefix(match[2], s.srv.URL)
			} else {
				deny = strings.TrimPrefix(match[2], s.srv.URL)
			}
		}
	}
	if approve == "" || deny == "" {
		s.t.Fatal("no decision links mailed to the owner")
	}
	return co.ConfirmationID, approve, deny
}
