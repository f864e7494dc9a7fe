package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
)

// skillsBot registers a bot (skills need no claim) and returns its API key
// and SDK client.
func (h *harness) skillsBot() (string, *client.Client) {
	h.t.Helper()
	bot, reg := h.register(client.RegisterRequest{BotName: "shopper", OwnerEmail: uniqueEmail("shopper")})
	return reg.APIKey, bot
}

// plainClient talks to the service without the JSON-checking recorder, for
// Markdown answers.
func (h *harness) plainClient(apiKey string) *client.Client {
	return client.New(h.srv.URL, apiKey, client.WithHTTPClient(h.srv.HTTP.Client()))
}

func TestSkillsListHasEveryVendorFieldForAnUnclaimedBot(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		_, bot := h.skillsBot()
		list, err := bot.Skills(h.ctx, client.SkillsQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if list.Total != len(list.Vendors) || list.Total < 14 {
			t.Fatalf("total %d with %d vendors, want at least 14", list.Total, len(list.Vendors))
		}
		want := []string{"retail", "office", "hardware", "electronics", "industrial", "specialty"}
		if !slices.Equal(list.Categories, want) {
			t.Errorf("categories = %v, want %v", list.Categories, want)
		}
		var raw struct {
			Vendors []map[string]json.RawMessage `json:"vendors"`
		}
		if err := json.Unmarshal(h.wire.answer("GET /api/v1/bot/skills").body, &raw); err != nil {
			t.Fatal(err)
		}
		fields := []string{"slug", "name", "category", "url", "checkout_methods", "capabilities", "maturity",
			"agent_friendliness", "guest_checkout", "bulk_pricing", "free_shipping_above", "skill_url", "catalog_url",
			"version", "last_verified", "success_rate"}
		for i, v := range raw.Vendors {
			for _, f := range fields {
				if _, ok := v[f]; !ok {
					t.Errorf("vendor %s lacks %s", v["slug"], f)
				}
			}
			if len(v) != len(fields) {
				t.Errorf("vendor %s has %d fields, want the %d of the API reference (docs/api.md)", v["slug"], len(v), len(fields))
			}
			typed := list.Vendors[i]
			if typed.SkillURL != h.srv.URL+"/api/v1/bot/skills/"+typed.Slug {
				t.Errorf("%s: skill_url %s", typed.Slug, typed.SkillURL)
			}
		}
		amazon := vendorBySlug(t, list, "amazon")
		if amazon.FreeShippingAbove == nil || usdOf(*amazon.FreeShippingAbove) != client.Dollars(35, 0) || amazon.SuccessRate != nil ||
			amazon.Version != "1.0.0" || amazon.CatalogURL != "https://www.amazon.com/gp/site-directory" {
			t.Errorf("amazon = %+v", amazon)
		}
		if grainger := vendorBySlug(t, list, "grainger"); grainger.FreeShippingAbove != nil {
			t.Errorf("grainger free_shipping_above = %v, want null", *grainger.FreeShippingAbove)
		}
	})
}

func vendorBySlug(t *testing.T, list *client.SkillsList, slug string) client.Vendor {
	t.Helper()
	for _, v := range list.Vendors {
		if v.Slug == slug {
			return v
		}
	}
	t.Fatalf("vendor %s not listed", slug)
	return client.Vendor{}
}

func TestSkillsFiltersThroughTheAPI(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		apiKey, _ := h.skillsBot()
		tests := []struct {
			query string
			want  []string
		}{
			{"search=AMAZON", []string{"amazon-business", "amazon"}},
			{"category=specialty", []string{"chewy", "etsy"}},
			{"checkout=x402,+native_api", []string{"amazon-business", "digikey"}},
			{"capability=bulk_pricing,po_numbers&category=industrial", []string{"mcmaster-carr", "uline"}},
			{"maturity=community,draft", []string{"chewy", "etsy", "uline"}},
			{"search=depot&category=hardware&checkout=browser_automation&capability=returns&maturity=beta", []string{"home-depot"}},
			{"category=specialty&capability=programmatic_checkout", []string{}},
		}
		for _, tt := range tests {
			resp := h.rawGet(apiKey, "/api/v1/bot/skills?"+tt.query, nil)
			var out struct {
				Vendors []struct {
					Slug string `json:"slug"`
				} `json:"vendors"`
				Total      int      `json:"total"`
				Categories []string `json:"categories"`
			}
			if resp.status != http.StatusOK || json.Unmarshal(resp.body, &out) != nil {
				t.Fatalf("%s: HTTP %d %s", tt.query, resp.status, resp.body)
			}
			got := []string{}
			for _, v := range out.Vendors {
				got = append(got, v.Slug)
			}
			if !slices.Equal(got, tt.want) || out.Total != len(tt.want) || len(out.Categories) != 6 {
				t.Errorf("%s: vendors %v total %d categories %v; want %v", tt.query, got, out.Total, out.Categories, tt.want)
			}
		}
	})
}

func TestSkillsRefuseUnknownFilterValuesNamingTheParameter(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		_, bot := h.skillsBot()
		tests := []struct {
			query client.SkillsQuery
			param string
		}{
			{client.SkillsQuery{Category: "groceries"}, "category"},
			{client.SkillsQuery{Checkout: []string{"native_api", "paypal"}}, "checkout"},
			{client.SkillsQuery{Capabilities: []string{"returns", "teleport"}}, "capability"},
			{client.SkillsQuery{Maturity: []string{"stable"}}, "maturity"},
		}
		for _, tt := range tests {
			_, err := bot.Skills(h.ctx, tt.query)
			e := wantError(t, err, http.StatusBadRequest, client.CodeValidation)
			if len(e.Details) != 1 || e.Details[tt.param] == "" || e.Message == "" {
				t.Errorf("%+v: details %v message %q, want only %s named", tt.query, e.Details, e.Message, tt.param)
			}
		}
	})
}

func TestSkillsNeedAnAPIKey(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		_, err := h.bots.Skills(h.ctx, client.SkillsQuery{})
		wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
		if resp := h.rawGet("", "/api/v1/bot/skills/amazon", nil); resp.status != http.StatusUnauthorized {
			t.Errorf("skill file without a key: HTTP %d", resp.status)
		}
	})
}

func TestSkillFileHasTheHeadersOfTheInterface(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		apiKey, _ := h.skillsBot()
		resp := h.rawGet(apiKey, "/api/v1/bot/skills/mcmaster-carr", nil)
		if resp.status != http.StatusOK {
			t.Fatalf("HTTP %d %s", resp.status, resp.body)
		}
		want := map[string]string{
			"Content-Type":     "text/markdown; charset=utf-8",
			"Cache-Control":    "public, max-age=3600, s-maxage=86400",
			"X-Skill-Version":  "1.0.0",
			"X-Skill-Maturity": "verified",
		}
		for name, value := range want {
			if got := resp.header.Values(name); len(got) != 1 || got[0] != value {
				t.Errorf("%s = %q, want exactly %q", name, got, value)
			}
		}
		etag := resp.header.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 10 {
			t.Errorf("ETag = %q, want a strong validator", etag)
		}
		body := string(resp.body)
		if !strings.HasPrefix(body, "# McMaster-Carr\n") {
			t.Errorf("body starts %q", body[:min(len(body), 40)])
		}
		for _, section := range []string{"Overview", "Checkout methods", "Search patterns", "Shipping and returns", "Integration notes"} {
			if !strings.Contains(body, "\n## "+section+"\n") {
				t.Errorf("body lacks ## %s", section)
			}
		}
		if again := h.rawGet(apiKey, "/api/v1/bot/skills/MCMASTER-CARR", nil); again.status != http.StatusOK || again.header.Get("ETag") != etag {
			t.Errorf("upper-case slug: HTTP %d, ETag %q", again.status, again.header.Get("ETag"))
		}
	})
}

func TestSkillFileAnswers304ForAMatchingETag(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		apiKey, _ := h.skillsBot()
		path := "/api/v1/bot/skills/uline"
		etag := h.rawGet(apiKey, path, nil).header.Get("ETag")
		other := h.rawGet(apiKey, "/api/v1/bot/skills/etsy", nil).header.Get("ETag")
		tests := []struct {
			ifNoneMatch string
			want        int
		}{
			{etag, http.StatusNotModified},
			{"W/" + etag, http.StatusNotModified},
			{other + ", " + etag, http.StatusNotModified},
			{"*", http.StatusNotModified},
			{other, http.StatusOK},
			{`"not-the-tag"`, http.StatusOK},
			{strings.Trim(etag, `"`), http.StatusOK}, // an unquoted tag is not the same tag
		}
		for _, tt := range tests {
			resp := h.rawGet(apiKey, path, http.Header{"If-None-Match": {tt.ifNoneMatch}})
			if resp.status != tt.want {
				t.Errorf("If-None-Match %s: HTTP %d, want %d", tt.ifNoneMatch, resp.status, tt.want)
				continue
			}
			if resp.header.Get("ETag") != etag || resp.header.Get("Cache-Control") != "public, max-age=3600, s-maxage=86400" ||
				resp.header.Get("X-Skill-Version") != "1.0.0" || resp.header.Get("X-Skill-Maturity") != "community" {
				t.Errorf("If-None-Match %s: headers %v", tt.ifNoneMatch, resp.header)
			}
			if tt.want == http.StatusNotModified && len(resp.body) != 0 {
				t.Errorf("304 has a body of %d bytes", len(resp.body))
			}
		}
	})
}

func TestSkillFileOfAnUnknownVendorIs404(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		apiKey, _ := h.skillsBot()
		resp := h.rawGet(apiKey, "/api/v1/bot/skills/no-such-store", nil)
		var body struct{ Error, Message string }
		if resp.status != http.StatusNotFound || json.Unmarshal(resp.body, &body) != nil ||
			body.Error != "vendor_not_found" || !strings.Contains(body.Message, "no-such-store") {
			t.Fatalf("HTTP %d %s", resp.status, resp.body)
		}
		if ct := resp.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("404 Content-Type %q", ct)
		}
		_, err := h.plainClient(apiKey).SkillFile(h.ctx, "no-such-store")
		wantError(t, err, http.StatusNotFound, client.CodeVendorNotFound)
	})
}

func TestClientFetchesAndRevalidatesSkillFiles(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		apiKey, _ := h.skillsBot()
		bot := h.plainClient(apiKey)
		file, err := bot.SkillFile(h.ctx, "digikey")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(file.Markdown, "# DigiKey") || file.Version != "1.0.0" || file.Maturity != "verified" || file.ETag == "" {
			t.Fatalf("file = %+v", file)
		}
		same, changed, err := bot.SkillFileIfChanged(h.ctx, "digikey", file.ETag)
		if err != nil || changed || same != nil {
			t.Fatalf("unchanged file: %v, %t, %v", same, changed, err)
		}
		fresh, changed, err := bot.SkillFileIfChanged(h.ctx, "digikey", `"stale"`)
		if err != nil || !changed || fresh.Markdown != file.Markdown {
			t.Fatalf("stale ETag: changed %t, %v", changed, err)
		}
	})
}

// rawGet sends a GET outside the SDK and returns the raw answer.
func (h *harness) rawGet(apiKey, path string, header http.Header) exchange {
	h.t.Helper()
	req, err := http.NewRequestWithContext(h.ctx, http.MethodGet, h.srv.URL+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := h.srv.HTTP.Client().Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return exchange{status: resp.StatusCode, header: resp.Header, body: body}
}
