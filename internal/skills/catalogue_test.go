package skills

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestEmbeddedCatalogueValidatesAndCoversEveryCategory(t *testing.T) {
	t.Parallel()
	c, err := Embedded()
	if err != nil {
		t.Fatalf("embedded catalogue: %v", err)
	}
	if c.Len() < 14 {
		t.Fatalf("embedded catalogue has %d vendors, want at least 14", c.Len())
	}
	perCategory := map[string]int{}
	etags := map[string]string{}
	for _, v := range c.Search(Filter{}) {
		perCategory[v.Category]++
		if p := validateVendor(v); p != nil {
			t.Errorf("%s: %s %s", v.Slug, p.where, p.text)
		}
		s, ok := c.Skill(v.Slug)
		if !ok {
			t.Fatalf("%s listed but has no skill file", v.Slug)
		}
		if other, dup := etags[s.ETag]; dup {
			t.Errorf("%s and %s share ETag %s", v.Slug, other, s.ETag)
		}
		etags[s.ETag] = v.Slug
		if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(s.ETag) {
			t.Errorf("%s: ETag %s is not a quoted strong validator", v.Slug, s.ETag)
		}
	}
	for _, category := range Categories {
		if perCategory[category] == 0 {
			t.Errorf("no embedded vendor in category %s", category)
		}
	}
}

// TestEverySkillFileHasEverySectionInOrder reads the Markdown itself, so a
// broken section parser cannot hide a missing heading.
func TestEverySkillFileHasEverySectionInOrder(t *testing.T) {
	t.Parallel()
	c := Default()
	for _, v := range c.Search(Filter{}) {
		s, _ := c.Skill(v.Slug)
		md := string(s.Markdown)
		if !strings.HasPrefix(md, "# ") {
			t.Errorf("%s.md does not start with a level-1 title", v.Slug)
		}
		last := -1
		for _, section := range Sections {
			at := strings.Index(md, "\n## "+section+"\n")
			if at < 0 {
				t.Errorf("%s.md lacks ## %s", v.Slug, section)
				continue
			}
			if at < last {
				t.Errorf("%s.md: ## %s is out of order", v.Slug, section)
			}
			last = at
		}
		if p := validateMarkdown(s.Markdown); p != nil {
			t.Errorf("%s.md: %s %s", v.Slug, p.where, p.text)
		}
	}
}

// TestEmbeddedVendorsMakeOnlyClaimsTheirMethodsSupport guards the
// conservative rule of the catalogue: nobody claims programmatic checkout
// without a documented ordering API, and every vendor can be bought from
// with a botpay card in a browser.
func TestEmbeddedVendorsMakeOnlyClaimsTheirMethodsSupport(t *testing.T) {
	t.Parallel()
	for _, v := range Default().Search(Filter{}) {
		if !slices.Contains(v.CheckoutMethods, "browser_automation") || !slices.Contains(v.CheckoutMethods, "self_hosted_card") {
			t.Errorf("%s: checkout_methods %v lack browser_automation or self_hosted_card", v.Slug, v.CheckoutMethods)
		}
		programmatic := slices.Contains(v.Capabilities, "programmatic_checkout")
		if programmatic != slices.Contains(v.CheckoutMethods, "native_api") {
			t.Errorf("%s: programmatic_checkout %t but native_api in %v", v.Slug, programmatic, v.CheckoutMethods)
		}
		if v.SuccessRate != nil {
			t.Errorf("%s: success_rate %v, but no purchases have been measured yet", v.Slug, *v.SuccessRate)
		}
	}
}

func TestSearchFiltersTheEmbeddedCatalogue(t *testing.T) {
	t.Parallel()
	all := []string{"amazon-business", "digikey", "shopify-stores", "bh-photo", "mcmaster-carr", "grainger", "newegg",
		"zoro", "amazon", "office-depot", "staples", "home-depot", "chewy", "etsy", "lowes", "walmart", "uline"}
	without := func(slug string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return s == slug })
	}
	tests := []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"no filter lists everything, most agent-friendly first", Filter{}, all},

		{"search matches a name", Filter{Search: "amazon"}, []string{"amazon-business", "amazon"}},
		{"search ignores case", Filter{Search: "AmAzOn"}, []string{"amazon-business", "amazon"}},
		{"search matches inside a name", Filter{Search: "depot"}, []string{"office-depot", "home-depot"}},
		{"search matches a name with punctuation", Filter{Search: "B&H"}, []string{"bh-photo"}},
		{"search matches a slug", Filter{Search: "bh-ph"}, []string{"bh-photo"}},
		{"search matches a slug that differs from the name", Filter{Search: "lowes"}, []string{"lowes"}},
		{"search matches the name that differs from the slug", Filter{Search: "lowe's"}, []string{"lowes"}},
		{"search with no match", Filter{Search: "no-such-store"}, []string{}},

		{"category office", Filter{Category: "office"}, []string{"amazon-business", "office-depot", "staples"}},
		{"category specialty", Filter{Category: "specialty"}, []string{"chewy", "etsy"}},
		{"category hardware", Filter{Category: "hardware"}, []string{"home-depot", "lowes"}},

		{"checkout native_api", Filter{Checkout: []string{"native_api"}}, []string{"amazon-business", "digikey"}},
		{"checkout matches any listed method", Filter{Checkout: []string{"x402", "native_api"}}, []string{"amazon-business", "digikey"}},
		{"checkout nobody offers", Filter{Checkout: []string{"x402", "acp", "partner_world"}}, []string{}},
		{"checkout everybody offers", Filter{Checkout: []string{"browser_automation"}}, all},

		{"capability programmatic_checkout", Filter{Capabilities: []string{"programmatic_checkout"}}, []string{"amazon-business", "digikey"}},
		{"capability stock_check", Filter{Capabilities: []string{"stock_check"}}, without("mcmaster-carr")},
		{"capabilities must all match", Filter{Capabilities: []string{"bulk_pricing", "po_numbers"}},
			[]string{"amazon-business", "digikey", "mcmaster-carr", "office-depot", "staples", "uline"}},
		{"five capabilities at once", Filter{Capabilities: []string{"business_invoicing", "tax_exemption", "po_numbers", "bulk_pricing", "stock_check"}},
			[]string{"amazon-business", "digikey", "office-depot", "staples", "uline"}},

		{"maturity verified", Filter{Maturity: []string{"verified"}},
			[]string{"amazon-business", "digikey", "shopify-stores", "mcmaster-carr", "amazon"}},
		{"maturity matches any listed level", Filter{Maturity: []string{"community", "draft"}}, []string{"chewy", "etsy", "uline"}},
		{"maturity nobody has", Filter{Maturity: []string{"draft"}}, []string{}},

		{"category and capability", Filter{Category: "industrial", Capabilities: []string{"bulk_pricing"}}, []string{"mcmaster-carr", "uline"}},
		{"category and maturity", Filter{Category: "industrial", Maturity: []string{"beta"}}, []string{"grainger", "zoro"}},
		{"category, checkout and maturity", Filter{Category: "electronics", Checkout: []string{"native_api"}, Maturity: []string{"verified"}},
			[]string{"digikey"}},
		{"search and category", Filter{Search: "depot", Category: "hardware"}, []string{"home-depot"}},
		{"category and capability of one vendor", Filter{Category: "retail", Capabilities: []string{"tax_exemption"}}, []string{"amazon"}},
		{"every filter at once", Filter{Search: "AMA", Category: "office", Checkout: []string{"native_api", "x402"},
			Capabilities: []string{"programmatic_checkout", "po_numbers"}, Maturity: []string{"verified", "beta"}}, []string{"amazon-business"}},
		{"filters that exclude each other", Filter{Category: "specialty", Capabilities: []string{"bulk_pricing"}}, []string{}},
		{"search outside the category", Filter{Search: "amazon", Category: "hardware"}, []string{}},
	}
	c := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := []string{}
			for _, v := range c.Search(tt.filter) {
				got = append(got, v.Slug)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Search(%+v) = %v, want %v", tt.filter, got, tt.want)
			}
		})
	}
}

func TestSkillLooksUpBySlugOnly(t *testing.T) {
	t.Parallel()
	c := Default()
	if s, ok := c.Skill("uline"); !ok || s.Vendor.Name != "Uline" || !strings.Contains(string(s.Markdown), "## Overview") {
		t.Fatalf("Skill(uline) = %+v, %t", s.Vendor, ok)
	}
	for _, slug := range []string{"", "Uline", "uline.md", "../uline", "nope"} {
		if _, ok := c.Skill(slug); ok {
			t.Errorf("Skill(%q) found a vendor", slug)
		}
	}
}
