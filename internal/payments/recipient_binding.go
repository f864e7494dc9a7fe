package payments

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/x402"
)

// ResourceFetchTimeout bounds the whole read of a resource's 402 answer.
const ResourceFetchTimeout = 5 * time.Second

// maxRequirementsBody bounds what is read of that answer.
const maxRequirementsBody = 64 << 10

// bindRecipient asks the resource itself what it charges, through the
// outbound guard, and lets the request be signed only if the resource's
// x402 requirements name the request's recipient as payTo and an amount at
// least the request's: procurement controls judge the resource's domain,
// so the recipient must be the one that domain asks to be paid, not one a
// bot made up (docs/api.md).
func (s *Service) bindRecipient(ctx context.Context, resourceURL string, to x402.Address, amount int64) error {
	ctx, cancel := context.WithTimeout(ctx, ResourceFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, resourceURL, nil)
	if err != nil {
		return &GuardrailBlocked{Reason: "resource_url cannot be requested"}
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.resources.Do(req)
	if err != nil {
		s.log.InfoContext(ctx, "resource not reached for recipient binding", "err", err)
		return &GuardrailBlocked{Reason: "the resource could not be reached to confirm whom it asks to be paid"}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired {
		return &GuardrailBlocked{Reason: "the resource did not answer 402 with x402 payment requirements (HTTP " + strconv.Itoa(resp.StatusCode) + ")"}
	}
	accepts, err := readRequirements(io.LimitReader(resp.Body, maxRequirementsBody))
	if err != nil {
		return &GuardrailBlocked{Reason: "the resource's 402 answer carries no readable x402 payment requirements"}
	}
	return matchRequirements(accepts, to, amount)
}

// requirement is the part of an x402 v1 payment requirement the binding
// reads; maxAmountRequired is a decimal string in the specification, and
// a bare number is taken too.
type requirement struct {
	PayTo             string          `json:"payTo"`
	MaxAmountRequired json.RawMessage `json:"maxAmountRequired"`
}

func readRequirements(body io.Reader) ([]requirement, error) {
	var doc struct {
		Accepts []requirement `json:"accepts"`
	}
	if err := json.NewDecoder(body).Decode(&doc); err != nil {
		return nil, err
	}
	if len(doc.Accepts) == 0 {
		return nil, io.ErrUnexpectedEOF
	}
	return doc.Accepts, nil
}

// matchRequirements accepts when one requirement pays to and asks at least
// amount (a signature for less than the price is the bot's own business;
// one for more is never made).
func matchRequirements(accepts []requirement, to x402.Address, amount int64) error {
	samePayee := false
	for _, r := range accepts {
		payTo, err := x402.ParseAddress(r.PayTo)
		if err != nil || payTo != to {
			continue
		}
		samePayee = true
		asked, err := strconv.ParseUint(strings.Trim(string(r.MaxAmountRequired), `"`), 10, 64)
		if err == nil && asked >= uint64(amount) {
			return nil
		}
	}
	if !samePayee {
		return &GuardrailBlocked{Reason: "recipient_address is not the payTo the resource asks to be paid"}
	}
	return &GuardrailBlocked{Reason: "the resource asks less than amount_usdc"}
}
