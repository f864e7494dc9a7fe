package web_test

import (
	"encoding/json"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/testserver"
)

// The API reference page shows, without script, every operation of the
// served document with its fields, error codes and a curl example calling
// this service, every schema and every webhook; and the served document
// names this service as its server.
func TestAPIReferencePageShowsEveryOperationWithExamplesCallingThisService(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	status, page := get(t, srv, "/docs/api")
	if status != http.StatusOK {
		t.Fatalf("GET /docs/api: HTTP %d", status)
	}
	if strings.Contains(page, "<script") {
		t.Error("the reference page has a script")
	}
	_, raw := get(t, srv, "/openapi.json")
	var doc struct {
		Servers    []struct{ URL string }                `json:"servers"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Webhooks   map[string]json.RawMessage            `json:"webhooks"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != srv.URL {
		t.Errorf("/openapi.json servers = %+v, want %s", doc.Servers, srv.URL)
	}
	var ids []string
	for _, item := range doc.Paths {
		for _, op := range item {
			var o struct{ OperationID string }
			if json.Unmarshal(op, &o) == nil && o.OperationID != "" {
				ids = append(ids, `id="`+o.OperationID+`"`)
			}
		}
	}
	for name := range doc.Components.Schemas {
		ids = append(ids, `id="schema-`+name+`"`)
	}
	for event := range doc.Webhooks {
		ids = append(ids, `id="event-`+event+`"`)
	}
	for _, id := range ids {
		if !strings.Contains(page, id) {
			t.Errorf("the reference page has no section %s", id)
		}
	}
	checkout := sectionOf(page, `id="checkout"`)
	for _, want := range []string{
		"curl -X POST '" + srv.URL + "/api/v1/bot/merchant/checkout'",
		`-H "Authorization: Bearer $BOTPAY_API_KEY"`,
		"HTTP/1.1 200 OK", `"merchant_name": "Acme"`,
		`<a href="#schema-CheckoutRequest">CheckoutRequest</a>`,
		"<code>card_guardrail_violation</code>", "<code>merchant_url</code>",
		"The 202 answer has the fields of the 200 answer.",
	} {
		if !strings.Contains(html.UnescapeString(checkout), want) {
			t.Errorf("the checkout section lacks %s", want)
		}
	}
	for _, want := range []string{"X-Service-Signature", "webhook-signature", `"event": "wallet.funded"`} {
		if !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("the webhooks lack %s", want)
		}
	}
}

// sectionOf is the part of page from the element with attr to the next
// operation.
func sectionOf(page, attr string) string {
	i := strings.Index(page, attr)
	if i < 0 {
		return ""
	}
	rest := page[i:]
	if j := strings.Index(rest[1:], `<div class="op"`); j >= 0 {
		return rest[:j+1]
	}
	return rest
}
