package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
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
func (s *Store) ClaimBot(ctx context.Context, ownerID, claimTokenHash string) (botpay.Bot, error) {
	return s.Claim(ctx, ClaimAttempt{OwnerID: ownerID, TokenHash: claimTokenHash})
}

// Claim gives the bot holding the attempt's token to its owner and
// activates its wallet, in one transaction. A token works once, and only
// within botpay.ClaimTokenLifetime of the bot's registration; a used,
// expired or unknown token answers the same 404 invalid_claim_token and
// counts against every failure budget.
func (s *Store) Claim(ctx context.Context, a ClaimAttempt) (botpay.Bot, error) {
	now := s.clock.Now()
	var botID string
	var missed bool
	err := s.inTx(ctx, func(tx *Tx) error {
		missed = false
		for _, l := range a.FailureBudgets {
			if l.Max <= 0 {
				continue // no such budget
			}
			if _, _, err := tx.refuseWhenSpent(ctx, l, now); err != nil {
				return err
			}
		}
		err := tx.queryRow(ctx, `SELECT id FROM bots WHERE claim_token_hash = $1 AND owner_id IS NULL AND created_at > $2`+tx.forUpdate(),
			a.TokenHash, ms(now.Add(-botpay.ClaimTokenLifetime))).Scan(&botID)
		if isNoRows(err) {
			missed = true
			return tx.countClaimFailure(ctx, a.FailureBudgets, now)
		}
		if err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE bots SET owner_id = $1, claimed_at = $2, claim_token_hash = NULL, updated_at = $2 WHERE id = $3`,
			a.OwnerID, ms(now), botID); err != nil {
			return err
		}
		return tx.activateWallet(ctx, botID, now)
	})
	if err == nil && missed {
		err = errInvalidClaimToken
	}
	if err != nil {
		return botpay.Bot{}, wrapErr(err, "claim bot %s", a.OwnerID)
	}
	return s.OwnedBot(ctx, a.OwnerID, botID)
}

func (t *Tx) countClaimFailure(ctx context.Context, budgets []Limit, now time.Time) error {
	for _, l := range budgets {
		if l.Max <= 0 {
			continue
		}
		if err := t.hit(ctx, l, now); err != nil {
			return err
		}
	}
	return nil
}

var errInvalidClaimToken = botpay.Errorf(botpay.KindNotFound, botpay.CodeInvalidClaimToken, "no unclaimed bot has this claim token")
