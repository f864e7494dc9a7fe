package skills

import (
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/botpay/botpay/internal/botpay"
)

// maxSearchRunes bounds the search text.
const maxSearchRunes = 100

// Filter selects vendors (docs/api.md, docs/decisions.md). Zero
// fields select everything.
type Filter struct {
	// Search matches name or slug, case-insensitive substring.
	Search   string
	Category string
	// Checkout matches vendors offering any of the methods.
	Checkout []string
	// Capabilities matches vendors offering all of them.
	Capabilities []string
	// Maturity matches vendors at any of the levels.
	Maturity []string
}

// ParseFilter reads the query of GET /api/v1/bot/skills. Values must be
// spelled exactly as the API reference (docs/api.md) lists them; comma lists may have
// spaces around items, and a parameter given twice adds its values. Unknown
// values are a validation_error whose details name each parameter at fault.
func ParseFilter(q url.Values) (Filter, error) {
	problems := map[string]string{}
	f := Filter{
		Search:       strings.TrimSpace(q.Get("search")),
		Checkout:     commaList(q, "checkout", CheckoutMethods, problems),
		Capabilities: commaList(q, "capability", Capabilities, problems),
		Maturity:     commaList(q, "maturity", Maturities, problems),
	}
	if utf8.RuneCountInString(f.Search) > maxSearchRunes {
		problems["search"] = "must be at most 100 characters"
	}
	switch categories := commaList(q, "category", Categories, problems); {
	case len(categories) > 1:
		problems["category"] = "takes one category, one of " + strings.Join(Categories, ", ")
	case len(categories) == 1:
		f.Category = categories[0]
	}
	if len(problems) > 0 {
		return Filter{}, botpay.ValidationError(problems)
	}
	return f, nil
}

func commaList(q url.Values, param string, known []string, problems map[string]string) []string {
	var out []string
	for _, value := range q[param] {
		for item := range strings.SplitSeq(value, ",") {
			item = strings.TrimSpace(item)
			switch {
			case item == "" || slices.Contains(out, item):
			case !slices.Contains(known, item):
				problems[param] = "unknown value " + quote(item) + "; use one of " + strings.Join(known, ", ")
			default:
				out = append(out, item)
			}
		}
	}
	return out
}

// quote keeps hostile input short in error messages.
func quote(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return `"` + strings.ToValidUTF8(s, "?") + `"`
}

func (f Filter) matches(v Vendor) bool {
	if f.Search != "" {
		needle := strings.ToLower(f.Search)
		if !strings.Contains(strings.ToLower(v.Name), needle) && !strings.Contains(v.Slug, needle) {
			return false
		}
	}
	return (f.Category == "" || v.Category == f.Category) &&
		(len(f.Checkout) == 0 || v.hasAnyCheckout(f.Checkout)) &&
		v.hasAllCapabilities(f.Capabilities) &&
		(len(f.Maturity) == 0 || slices.Contains(f.Maturity, v.Maturity))
}

// ErrVendorNotFound is the 404 for a slug the catalogue does not hold.
func ErrVendorNotFound(slug string) *botpay.Error {
	return botpay.Errorf(botpay.KindNotFound, botpay.CodeVendorNotFound,
		"no vendor skill %s; GET /api/v1/bot/skills lists the vendors", quote(slug))
}
