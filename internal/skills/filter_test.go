package skills

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
)

func TestParseFilterReadsEveryParameter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		query string
		want  Filter
	}{
		{"nothing", "", Filter{}},
		{"empty values are no filter", "search=&category=&checkout=&capability=&maturity=", Filter{}},
		{"search is trimmed", "search=+Home+Depot+", Filter{Search: "Home Depot"}},
		{"category", "category=industrial", Filter{Category: "industrial"}},
		{"checkout list", "checkout=native_api,x402", Filter{Checkout: []string{"native_api", "x402"}}},
		{"spaces and empty items are ignored", "checkout=+native_api+,,acp,", Filter{Checkout: []string{"native_api", "acp"}}},
		{"repeated parameter adds values", "capability=returns&capability=po_numbers", Filter{Capabilities: []string{"returns", "po_numbers"}}},
		{"duplicates collapse", "maturity=beta,beta", Filter{Maturity: []string{"beta"}}},
		{"every parameter", "search=uline&category=industrial&checkout=browser_automation&capability=bulk_pricing,returns&maturity=community",
			Filter{Search: "uline", Category: "industrial", Checkout: []string{"browser_automation"},
				Capabilities: []string{"bulk_pricing", "returns"}, Maturity: []string{"community"}}},
		{"unknown parameters are ignored", "limit=5&sort=name", Filter{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, _ := url.ParseQuery(tt.query)
			got, err := ParseFilter(q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseFilter(%s) = %+v, want %+v", tt.query, got, tt.want)
			}
		})
	}
}

func TestParseFilterRefusesUnknownValuesNamingTheParameter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		query string
		want  []string // parameters named in details
	}{
		{"unknown category", "category=groceries", []string{"category"}},
		{"category spelled in capitals", "category=Retail", []string{"category"}},
		{"two categories", "category=retail,office", []string{"category"}},
		{"unknown checkout method in a list", "checkout=native_api,paypal", []string{"checkout"}},
		{"unknown capability", "capability=returns,teleport", []string{"capability"}},
		{"unknown maturity", "maturity=stable", []string{"maturity"}},
		{"search too long", "search=" + strings.Repeat("a", 101), []string{"search"}},
		{"several parameters at once", "category=food&maturity=gold&checkout=cash&capability=x",
			[]string{"category", "maturity", "checkout", "capability"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, _ := url.ParseQuery(tt.query)
			_, err := ParseFilter(q)
			e := botpay.AsError(err)
			if e == nil || e.Kind != botpay.KindInvalid || e.Code != botpay.CodeValidation {
				t.Fatalf("ParseFilter(%s) error = %v, want validation_error", tt.query, err)
			}
			if len(e.Details) != len(tt.want) {
				t.Errorf("details = %v, want exactly %v", e.Details, tt.want)
			}
			for _, param := range tt.want {
				if e.Details[param] == "" {
					t.Errorf("details %v do not name %s", e.Details, param)
				}
			}
		})
	}
}

func TestParseFilterMessageListsTheAllowedValues(t *testing.T) {
	t.Parallel()
	_, err := ParseFilter(url.Values{"checkout": {"paypal"}})
	msg := botpay.AsError(err).Details["checkout"]
	if !strings.Contains(msg, `"paypal"`) || !strings.Contains(msg, strings.Join(CheckoutMethods, ", ")) {
		t.Errorf("checkout problem %q should quote the value and list the allowed ones", msg)
	}
}
