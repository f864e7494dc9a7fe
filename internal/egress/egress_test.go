package egress_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/egress"
)

func TestAllowedRefusesSpecialPurposeAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1", false}, {"127.8.9.10", false}, {"10.0.0.1", false}, {"172.16.5.4", false}, {"192.168.1.1", false},
		{"169.254.169.254", false}, {"100.100.100.200", false}, {"0.0.0.0", false}, {"224.0.0.1", false},
		{"255.255.255.255", false}, {"::1", false}, {"::", false}, {"fe80::1", false}, {"fd00:ec2::254", false},
		{"ff02::1", false}, {"::ffff:127.0.0.1", false}, {"::ffff:10.0.0.1", false}, {"64:ff9b::a00:1", false},
		{"2002:a00:1::", false}, {"::7f00:1", false}, {"::a00:1", false}, {"::a9fe:a9fe", false},
		{"93.184.216.34", true}, {"8.8.8.8", true}, {"2606:4700:4700::1111", true}, {"::ffff:8.8.8.8", true},
	} {
		if got := egress.Allowed(netip.MustParseAddr(tc.addr)); got != tc.ok {
			t.Errorf("Allowed(%s) = %v, want %v", tc.addr, got, tc.ok)
		}
	}
}

func TestCheckURLRefusesLiteralsAndLocalNamesWithoutDNS(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1/hook", false}, {"http://10.0.0.1/hook", false}, {"http://169.254.169.254/latest/meta-data", false},
		{"http://[::1]:8080/hook", false}, {"http://localhost/hook", false}, {"http://LOCALHOST./hook", false},
		{"http://api.localhost/hook", false}, {"http://metadata.google.internal/", false}, {"http://2130706433/", false},
		{"http://0x7f.0.0.1/", false}, {"http://0177.1/", false},
		{"https://bot.example.com/hooks", true}, {"https://93.184.216.34/hook", true},
	} {
		if err := egress.CheckURL(tc.url); (err == nil) != tc.ok {
			t.Errorf("CheckURL(%s) = %v, want ok %v", tc.url, err, tc.ok)
		}
	}
}

// The guard runs at dial time, after DNS: a request to each internal
// destination fails with a refusal before any byte is sent, and the local
// receiver is never reached — also through a host name that resolves to
// 127.0.0.1, and despite a proxy in the environment.
func TestClientRefusesInternalDestinationsAtDialTime(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	hit := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit = true }))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	guarded := egress.Client(egress.Options{})
	for _, target := range []string{
		srv.URL + "/hook",                   // 127.0.0.1
		"http://localhost" + port + "/hook", // a host name resolving to 127.0.0.1
		"http://10.0.0.1" + port + "/hook",
		"http://169.254.169.254/latest/meta-data/",
		"http://[::1]" + port + "/hook",
	} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, target, strings.NewReader("{}"))
		resp, err := guarded.Do(req)
		if err == nil {
			resp.Body.Close()
			t.Errorf("POST %s: HTTP %d, want a refusal", target, resp.StatusCode)
			continue
		}
		if !egress.IsRefused(err) {
			t.Errorf("POST %s: %v, want a refusal", target, err)
		}
	}
	if hit {
		t.Fatal("the local receiver was reached through the guard")
	}
	// With the guard opened (BOTPAY_WEBHOOK_ALLOW_PRIVATE), the same local
	// receiver is reached directly, not through the environment's proxy.
	resp, err := egress.Client(egress.Options{AllowPrivate: true}).Post(srv.URL+"/hook", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("allowed client: %v", err)
	}
	resp.Body.Close()
	if !hit {
		t.Fatal("the allowed client did not reach the receiver")
	}
}

func TestClientDoesNotFollowRedirects(t *testing.T) {
	followed := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/next" {
			followed = true
			return
		}
		http.Redirect(w, r, "/next", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	resp, err := egress.Client(egress.Options{AllowPrivate: true}).Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || followed {
		t.Fatalf("status %d, followed %v; want the 307 itself", resp.StatusCode, followed)
	}
}
