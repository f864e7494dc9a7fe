package bots

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Claim attaches the bot holding claimToken to owner. Every attempt counts
// per owner and per client address; failed ones also count against the
// owner's daily failure budget and a service-wide hourly one, which new
// addresses do not refill (a spent global budget only delays claims: a
// token carries about 66 bits, docs/security.md).
func (s *Service) Claim(ctx context.Context, owner botpay.Owner, claimToken, clientIP string) (botpay.Bot, error) {
	claimToken = botpay.NormalizeClaimToken(claimToken)
	if claimToken == "" {
		return botpay.Bot{}, botpay.ValidationError(map[string]string{"claim_token": "is required"})
	}
	for _, bucket := range []string{"claim-owner:" + owner.ID, addressBucket("claim-ip", clientIP)} {
		if err := s.rateLimits.Take(ctx, Limit{Bucket: bucket, Max: s.limits.ClaimPerHour, Window: time.Hour}); err != nil {
			return botpay.Bot{}, err
		}
	}
	return s.claim(ctx, ClaimAttempt{OwnerID: owner.ID, TokenHash: botpay.Digest(claimToken),
		FailureBudgets: []Limit{
			{Bucket: "claim-failures-owner:" + owner.ID, Max: s.limits.ClaimFailuresPerOwnerPerDay, Window: 24 * time.Hour},
			{Bucket: "claim-failures", Max: s.limits.ClaimFailuresPerHour, Window: time.Hour},
		}})
}

// ClaimPreview names the bot claimToken would claim and the e-mail it named
// as its owner, for the claim page. It counts per client address as a
// claim does, and an unknown token counts against the service-wide failure
// budget, so the page is no oracle for guessers.
func (s *Service) ClaimPreview(ctx context.Context, claimToken, clientIP string) (ClaimableBot, error) {
	claimToken = botpay.NormalizeClaimToken(claimToken)
	if claimToken == "" {
		return ClaimableBot{}, botpay.ValidationError(map[string]string{"claim_token": "is required"})
	}
	if err := s.rateLimits.Take(ctx, Limit{Bucket: addressBucket("claim-ip", clientIP), Max: s.limits.ClaimPerHour, Window: time.Hour}); err != nil {
		return ClaimableBot{}, err
	}
	return s.claimPreview(ctx, ClaimAttempt{TokenHash: botpay.Digest(claimToken),
		FailureBudgets: []Limit{{Bucket: "claim-failures", Max: s.limits.ClaimFailuresPerHour, Window: time.Hour}}})
}
