package spending

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
	"github.com/botpay/botpay/internal/x402"
)

// Procurement reads an owned bot's procurement controls.
func (s *Service) Procurement(ctx context.Context, owner botpay.Owner, botID string) (botpay.Procurement, error) {
	return s.readProcurement(ctx, owner.ID, botID)
}

// ProcurementChange is a PUT of procurement controls; nil lists keep their
// value.
type ProcurementChange struct {
	AllowedDomains, BlockedDomains, AllowedMerchants, BlockedMerchants, AllowedRecipients, BlockedRecipients *[]string
}

// SetProcurement merges a change into an owned bot's procurement controls.
func (s *Service) SetProcurement(ctx context.Context, owner botpay.Owner, botID string, c ProcurementChange) (botpay.Procurement, error) {
	cur, err := s.readProcurement(ctx, owner.ID, botID)
	if err != nil {
		return cur, err
	}
	p := validate.Problems{}
	if c.AllowedDomains != nil {
		cur.AllowedDomains = domainList(p, "allowed_domains", *c.AllowedDomains)
	}
	if c.BlockedDomains != nil {
		cur.BlockedDomains = domainList(p, "blocked_domains", *c.BlockedDomains)
	}
	if c.AllowedMerchants != nil {
		cur.AllowedMerchants = merchantList(p, "allowed_merchants", *c.AllowedMerchants)
	}
	if c.BlockedMerchants != nil {
		cur.BlockedMerchants = merchantList(p, "blocked_merchants", *c.BlockedMerchants)
	}
	if c.AllowedRecipients != nil {
		cur.AllowedRecipients = recipientList(p, "allowed_recipients", *c.AllowedRecipients)
	}
	if c.BlockedRecipients != nil {
		cur.BlockedRecipients = recipientList(p, "blocked_recipients", *c.BlockedRecipients)
	}
	if err := p.Err(); err != nil {
		return cur, err
	}
	cur.UpdatedAt = s.clock.Now()
	return cur, s.writeProcurement(ctx, owner.ID, botID, cur)
}

// domainList normalises domains to lower-case hosts; a URL is reduced to
// its host.
func domainList(p validate.Problems, field string, in []string) []string {
	if len(in) > 200 {
		p.Add(field, "must have at most 200 entries")
	}
	out := []string{}
	for _, d := range in {
		host := botpay.MerchantHost(strings.TrimPrefix(strings.TrimSpace(d), "*."))
		if host == "" || len(host) > 253 || strings.ContainsAny(host, " /") {
			p.Add(field, "entries must be domain names such as example.com")
			continue
		}
		out = append(out, host)
	}
	return out
}

func merchantList(p validate.Problems, field string, in []string) []string {
	if len(in) > 200 {
		p.Add(field, "must have at most 200 entries")
	}
	out := []string{}
	for i, m := range in {
		if v := p.Text(field+"["+strconv.Itoa(i)+"]", m, 1, 200, false); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// recipientList keeps 0x addresses in their EIP-55 form, once each.
func recipientList(p validate.Problems, field string, in []string) []string {
	if len(in) > 200 {
		p.Add(field, "must have at most 200 entries")
	}
	out := []string{}
	for _, raw := range in {
		a, err := x402.ParseAddress(strings.TrimSpace(raw))
		if err != nil {
			p.Add(field, "entries must be 0x addresses of 40 hex digits (mixed case must be a valid EIP-55 checksum)")
			continue
		}
		if !slices.Contains(out, a.Hex()) {
			out = append(out, a.Hex())
		}
	}
	return out
}
