package skills

import (
	"slices"

	"github.com/botpay/botpay/internal/botpay"
)

// Categories, in the order of the API reference (docs/api.md).
var Categories = []string{"retail", "office", "hardware", "electronics", "industrial", "specialty"}

// CheckoutMethods a vendor can be bought from with (docs/api.md).
var CheckoutMethods = []string{"native_api", "acp", "x402", "partner_world", "self_hosted_card", "browser_automation"}

// Capabilities a vendor can offer a bot (docs/api.md).
var Capabilities = []string{"price_lookup", "stock_check", "programmatic_checkout", "business_invoicing",
	"bulk_pricing", "tax_exemption", "account_creation", "order_tracking", "returns", "po_numbers"}

// Maturities say how far a skill file can be trusted (docs/api.md).
var Maturities = []string{"verified", "beta", "community", "draft"}

// programmaticMethods place an order without a browser; a vendor claiming
// the programmatic_checkout capability must offer one of them.
var programmaticMethods = []string{"native_api", "acp", "x402"}

// Sections every skill file has, as level-2 headings, in this order.
var Sections = []string{"Overview", "Checkout methods", "Search patterns", "Shipping and returns", "Integration notes"}

// Vendor is a vendor skill entry (docs/api.md) without skill_url, which
// depends on the service's public address.
type Vendor struct {
	Slug              string
	Name              string
	Category          string
	URL               string
	CheckoutMethods   []string
	Capabilities      []string
	Maturity          string
	AgentFriendliness int
	GuestCheckout     bool
	BulkPricing       bool
	// FreeShippingAbove is nil when the store has no single order threshold
	// above which shipping is free.
	FreeShippingAbove *botpay.Money
	CatalogURL        string
	Version           string
	// LastVerified is a date, YYYY-MM-DD.
	LastVerified string
	// SuccessRate is the share of purchases that went through, 0-1; nil
	// until measured.
	SuccessRate *float64
}

// Skill is a vendor with its Markdown skill file.
type Skill struct {
	Vendor   Vendor
	Markdown []byte
	// ETag is a strong validator of the file together with the version and
	// maturity headers served with it.
	ETag string
}

func (v Vendor) hasAnyCheckout(methods []string) bool {
	return slices.ContainsFunc(methods, func(m string) bool { return slices.Contains(v.CheckoutMethods, m) })
}

func (v Vendor) hasAllCapabilities(caps []string) bool {
	for _, c := range caps {
		if !slices.Contains(v.Capabilities, c) {
			return false
		}
	}
	return true
}
