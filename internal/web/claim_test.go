package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

func register(t *testing.T, srv *testserver.Server) bots.Registration {
	t.Helper()
	reg, err := srv.App.Bots().Register(context.Background(), bots.RegisterInput{BotName: "shopper", OwnerEmail: "alice@example.com",
		CallbackURL: "https://bot.example.com/hook", ClientIP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func post(t *testing.T, srv *testserver.Server, form url.Values, origin string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.URL+"/claim", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestClaimPageShowsTheTokenEscaped(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	resp, err := http.Get(srv.URL + "/claim?token=" + url.QueryEscape(`"><script>alert(1)</script>`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d, type %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if strings.Contains(string(body), "<script>alert(1)") || !strings.Contains(string(body), "&lt;script&gt;") {
		t.Fatal("token was not escaped")
	}
}

func TestClaimPageSignsUpAndClaims(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	reg := register(t, srv)
	status, body := post(t, srv, url.Values{"token": {reg.ClaimToken}, "mode": {"signup"},
		"email": {"alice@example.com"}, "password": {"correct horse battery"}}, "")
	if status != 200 || !strings.Contains(body, "You now own") || !strings.Contains(body, reg.Bot.ID) {
		t.Fatalf("status %d, body:\n%s", status, body)
	}
	b, err := srv.App.Bots().Bot(context.Background(), reg.Bot.ID)
	if err != nil || !b.Claimed() {
		t.Fatalf("bot not claimed: %+v, %v", b, err)
	}
	// The same token does not work twice, even for a logged-in owner.
	status, body = post(t, srv, url.Values{"token": {reg.ClaimToken}, "mode": {"login"},
		"email": {"alice@example.com"}, "password": {"correct horse battery"}}, "")
	if status != 400 || !strings.Contains(body, "no unclaimed bot has this claim token") {
		t.Fatalf("second claim: status %d\n%s", status, body)
	}
}

func TestClaimPageShowsWrongPasswordWithoutClaiming(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	if _, err := srv.App.Accounts().Signup(context.Background(), "alice@example.com", "correct horse battery", ""); err != nil {
		t.Fatal(err)
	}
	reg := register(t, srv)
	status, body := post(t, srv, url.Values{"token": {reg.ClaimToken}, "mode": {"login"},
		"email": {"alice@example.com"}, "password": {"wrong password here"}}, "")
	if status != 400 || !strings.Contains(body, "e-mail or password is wrong") {
		t.Fatalf("status %d\n%s", status, body)
	}
	if b, _ := srv.App.Bots().Bot(context.Background(), reg.Bot.ID); b.Claimed() {
		t.Fatal("bot was claimed with a wrong password")
	}
}

func TestClaimPageRefusesCrossSitePosts(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	reg := register(t, srv)
	status, _ := post(t, srv, url.Values{"token": {reg.ClaimToken}, "mode": {"signup"},
		"email": {"mallory@example.com"}, "password": {"correct horse battery"}}, "https://evil.example")
	if status != http.StatusForbidden {
		t.Fatalf("cross-site post answered %d, want 403", status)
	}
	if b, _ := srv.App.Bots().Bot(context.Background(), reg.Bot.ID); b.Claimed() {
		t.Fatal("cross-site post claimed the bot")
	}
}

func getClaimPage(t *testing.T, srv *testserver.Server, token string) string {
	t.Helper()
	resp, err := http.Get(srv.URL + "/claim?token=" + url.QueryEscape(token))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /claim: status %d", resp.StatusCode)
	}
	return string(body)
}

// TestClaimPageNamesTheBotAndTheEmailItNamed: the person who opens the
// claim link sees which bot it is and which address it named, before
// signing up; a used link says so instead of naming anything.
func TestClaimPageNamesTheBotAndTheEmailItNamed(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{})
		reg := register(t, srv)
		page := getClaimPage(t, srv, reg.ClaimToken)
		for _, want := range []string{"shopper", "alice@example.com", `data-testid="claimable"`} {
			if !strings.Contains(page, want) {
				t.Errorf("the claim page does not show %q", want)
			}
		}
		owner, err := srv.App.Accounts().Signup(t.Context(), "claimer@example.com", "correct horse battery staple", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := srv.App.Bots().Claim(t.Context(), owner.Owner, reg.ClaimToken, "192.0.2.9"); err != nil {
			t.Fatal(err)
		}
		page = getClaimPage(t, srv, reg.ClaimToken)
		if strings.Contains(page, `data-testid="claimable"`) || !strings.Contains(page, "already used or expired") {
			t.Errorf("a used claim link still names its bot or does not say it is used:\n%s", page)
		}
	})
}

// TestClaimPagePreviewsCountAgainstTheFailureBudget: guessing tokens
// through the claim page spends the service-wide failure budget as
// claiming does, so the page is no oracle.
func TestClaimPagePreviewsCountAgainstTheFailureBudget(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{ClaimPerHour: 1000, ClaimFailuresPerHour: 3}})
		reg := register(t, srv)
		for i := range 3 {
			getClaimPage(t, srv, fmt.Sprintf("wrong-guess-%d", i))
		}
		if page := getClaimPage(t, srv, reg.ClaimToken); !strings.Contains(page, "Too many attempts") {
			t.Errorf("after the failure budget was spent by previews, the right token was still shown:\n%s", page)
		}
	})
}
