package botpay

import (
	"net/url"
	"strings"
	"time"
)

// Procurement restricts where a bot may buy (docs/decisions.md). Empty
// allow lists allow everything; block lists win over allow lists. Merchants
// match by name, case-insensitively; a domain matches its own host and every
// subdomain of it.
type Procurement struct {
	AllowedDomains   []string
	BlockedDomains   []string
	AllowedMerchants []string
	BlockedMerchants []string
	// AllowedRecipients are the EIP-55 addresses a bot may sign payments
	// to; empty allows any the other lists allow.
	AllowedRecipients []string
	// BlockedRecipients are EIP-55 addresses a bot may never sign
	// payments to, whatever resource it names.
	BlockedRecipients []string
	UpdatedAt         time.Time
}

// BindsRecipient reports whether the owner has any allow- or block-list of
// domains, merchants or recipients: then a signature is made only for the
// payTo and amount the resource itself asks (docs/api.md), or a bot could
// name an innocent resource beside a blocked vendor's address.
func (p Procurement) BindsRecipient() bool {
	return len(p.AllowedDomains) > 0 || len(p.AllowedMerchants) > 0 || len(p.AllowedRecipients) > 0 ||
		len(p.BlockedDomains) > 0 || len(p.BlockedMerchants) > 0 || len(p.BlockedRecipients) > 0
}

// MerchantHost is the lower-case host of merchant_url, which may be a full
// URL ("https://shop.example.com/x") or a bare identifier ("example.com").
func MerchantHost(merchantURL string) string {
	s := strings.TrimSpace(merchantURL)
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// domainMatches reports whether host is domain or a subdomain of it.
// Entries may be written "example.com", "*.example.com" or ".example.com".
func domainMatches(host, domain string) bool {
	domain = strings.ToLower(strings.TrimSpace(domain))
	domain = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(domain, "*."), "."), ".")
	return host != "" && domain != "" && (host == domain || strings.HasSuffix(host, "."+domain))
}

func anyDomain(host string, domains []string) bool {
	for _, d := range domains {
		if domainMatches(host, d) {
			return true
		}
	}
	return false
}

func anyName(name string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(n), strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

// Refusal explains why the merchant is not allowed, or "" when it is.
func (p Procurement) Refusal(merchantName, merchantURL string) string {
	host := MerchantHost(merchantURL)
	switch {
	case anyName(merchantName, p.BlockedMerchants):
		return "merchant " + merchantName + " is blocked by your owner"
	case anyDomain(host, p.BlockedDomains):
		return "domain " + host + " is blocked by your owner"
	case len(p.AllowedMerchants) > 0 && !anyName(merchantName, p.AllowedMerchants):
		return "merchant " + merchantName + " is not on your owner's list of allowed merchants"
	case len(p.AllowedDomains) > 0 && !anyDomain(host, p.AllowedDomains):
		return "domain " + host + " is not on your owner's list of allowed domains"
	}
	return ""
}
