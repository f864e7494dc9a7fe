package bots

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// ClaimAttempt is an owner presenting a claim token.
type ClaimAttempt struct {
	OwnerID   string
	TokenHash string
	// FailureBudgets count failed attempts only, and refuse every attempt
	// (rate_limited) while one of them is spent: a guesser cannot multiply
	// a budget that is not per address (per account, service-wide).
	FailureBudgets []Limit
}

// ClaimBot gives the bot holding claimTokenHash to ownerID and activates its
// wallet. The token stops working at once.
func (s *Service) ClaimBot(ctx context.Context, ownerID, claimTokenHash string) (botpay.Bot, error) {
	return s.claim(ctx, ClaimAttempt{OwnerID: ownerID, TokenHash: claimTokenHash})
}

// claim gives the bot holding the attempt's token to its owner and
// activates its wallet, in one transaction. A token works once, and only
// within botpay.ClaimTokenLifetime of the bot's registration; a used,
// expired or unknown token answers the same 404 invalid_claim_token and
// counts against every failure budget.
func (s *Service) claim(ctx context.Context, a ClaimAttempt) (botpay.Bot, error) {
	now := s.clock.Now()
	var found ClaimableBot
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		if found, err = s.claimable(ctx, tx, a, now); err != nil || found.ID == "" {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE bots SET owner_id = $1, claimed_at = $2, claim_token_hash = NULL, updated_at = $2 WHERE id = $3`,
			a.OwnerID, kernel.MS(now), found.ID); err != nil {
			return err
		}
		return activateWallet(ctx, s.outbox, tx, found.ID, now)
	})
	if err == nil && found.ID == "" {
		err = errInvalidClaimToken
	}
	if err != nil {
		return botpay.Bot{}, wrapErr(err, "claim bot %s", a.OwnerID)
	}
	return s.OwnedBot(ctx, a.OwnerID, found.ID)
}

// ClaimableBot is the bot a claim token would claim, as the claim page
// names it to the person holding the token.
type ClaimableBot struct {
	ID, Name, OwnerEmail string
}

// claimPreview finds the bot a claim token would claim without claiming
// it. An unknown, used or expired token answers as claim does and counts
// against the same failure budgets, so looking is no cheaper for a guesser
// than claiming.
func (s *Service) claimPreview(ctx context.Context, a ClaimAttempt) (ClaimableBot, error) {
	var found ClaimableBot
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		found, err = s.claimable(ctx, tx, a, s.clock.Now())
		return err
	})
	if err == nil && found.ID == "" {
		err = errInvalidClaimToken
	}
	return found, wrapErr(err, "preview claim")
}

// claimable locks the unclaimed bot holding the attempt's token. A miss
// counts against every failure budget and finds no bot (an empty ID): the
// caller commits the count, then answers invalid_claim_token.
func (s *Service) claimable(ctx context.Context, t *kernel.Tx, a ClaimAttempt, now time.Time) (ClaimableBot, error) {
	for _, l := range a.FailureBudgets {
		if l.Max <= 0 {
			continue // no such budget
		}
		if err := s.rateLimits.RefuseWhenSpentIn(ctx, t, l, now); err != nil {
			return ClaimableBot{}, err
		}
	}
	var b ClaimableBot
	err := t.QueryRow(ctx, `SELECT id, name, owner_email FROM bots WHERE claim_token_hash = $1 AND owner_id IS NULL AND created_at > $2`+t.ForUpdate(),
		a.TokenHash, kernel.MS(now.Add(-botpay.ClaimTokenLifetime))).Scan(&b.ID, &b.Name, &b.OwnerEmail)
	if isNoRows(err) {
		return ClaimableBot{}, s.countClaimFailure(ctx, t, a.FailureBudgets, now)
	}
	return b, err
}

func (s *Service) countClaimFailure(ctx context.Context, t *kernel.Tx, budgets []Limit, now time.Time) error {
	for _, l := range budgets {
		if l.Max <= 0 {
			continue
		}
		if err := s.rateLimits.HitIn(ctx, t, l, now); err != nil {
			return err
		}
	}
	return nil
}

var errInvalidClaimToken = botpay.Errorf(botpay.KindNotFound, botpay.CodeInvalidClaimToken, "no unclaimed bot has this claim token")
