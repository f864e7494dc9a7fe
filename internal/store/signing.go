package store

import (
	"context"
	"database/sql"
	"fmt"
	"github.com/botpay/botpay/internal/ledger"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// SpentTotals is what is committed in the current UTC day and month, in
// cents: card spends and holds, plus signed, held and settled signing
// requests, for the bot and across its owner's bots.
type SpentTotals struct {
	BotDay, BotMonth, OwnerDay, OwnerMonth botpay.Money
}

// SigningDecider judges a request once the wallet is locked. It sees the
// bot's signer (key and rules) and the money numbers as of that moment,
// which nothing can change until the transaction ends, and signs r when it
// lets it be signed at once.
type SigningDecider func(sg Signer, spent SpentTotals, available botpay.Micro, r *botpay.SigningRequest) (botpay.SigningVerdict, error)

// ReserveSigning is the money side of a signing request, in one
// transaction: read the bot's signer and lock its processor wallet and
// compute what is committed (one round trip on PostgreSQL), let decide
// judge, and if allowed insert the request — signed (its amount reserved
// until the authorization expires) or pending (reserved until the approval
// window closes). Concurrent requests queue on the wallet's row, so
// signatures can never promise more than the balance.
func (s *Store) ReserveSigning(ctx context.Context, r botpay.SigningRequest, decide SigningDecider) (botpay.SigningRequest, botpay.SigningVerdict, error) {
	req, verdict, err := s.reserveSigning(ctx, r, nil, decide)
	return req, verdict, wrapErr(err, "reserve signing %s", r.BotID)
}

// ReserveSigningAgainst is ReserveSigning for a wallet whose balance is
// held elsewhere (on chain, in live mode): balance replaces the stored
// one, and the live reservations and the on-chain refunds not yet final
// are subtracted under the lock.
func (s *Store) ReserveSigningAgainst(ctx context.Context, r botpay.SigningRequest, balance ChainBalance, decide SigningDecider) (botpay.SigningRequest, botpay.SigningVerdict, error) {
	req, verdict, err := s.reserveSigning(ctx, r, &balance, decide)
	return req, verdict, wrapErr(err, "reserve signing %s", r.BotID)
}

func (s *Store) reserveSigning(ctx context.Context, r botpay.SigningRequest, balance *ChainBalance, decide SigningDecider) (botpay.SigningRequest, botpay.SigningVerdict, error) {
	now := s.clock.Now()
	r.CreatedAt = now
	var verdict botpay.SigningVerdict
	err := s.inTx(ctx, func(tx *Tx) error {
		var refunds botpay.Money // on-chain refunds promising the same tokens (chain_balance.go)
		var after []step
		if balance != nil {
			after = append(after, chainRefundsStep(r.BotID, balance.ReadAt, &refunds))
		}
		sg, w, spent, err := tx.lockSigner(ctx, r, now, after...)
		if err != nil {
			return err
		}
		if sg.Master != nil {
			if spent.OwnerDay, spent.OwnerMonth, err = tx.ownerSpent(ctx, r.OwnerID, now); err != nil {
				return err
			}
		}
		have := w.balance
		if balance != nil {
			have = balance.Micro - botpay.MicroOf(refunds)
		}
		if verdict, err = decide(sg, spent, have-w.reserved(), &r); err != nil || verdict.Blocked {
			return err
		}
		if verdict.NeedsApproval {
			exp := now.Add(botpay.SigningApprovalWindow)
			r.Status, r.ExpiresAt, r.ReservedUntil, r.Signature, r.Header = botpay.SigningPending, &exp, exp, "", ""
		} else {
			r.Status, r.ReservedUntil = botpay.SigningSigned, signatureReservedUntil(r.ValidBefore)
		}
		tx.reserve(r.BotID, w, ms(now), ms(r.ReservedUntil), r.Amount)
		ledger.CountSigning(tx.k, r.BotID, r.OwnerID, ms(now), r.Amount)
		// The insert travels with COMMIT; r.ID is known once inTx returns.
		if !verdict.NeedsApproval {
			r.PaymentRequired = "" // only an approval signs again
		}
		tx.atCommit(step{Query: `INSERT INTO signing_requests (bot_id, owner_id, status, resource_url, resource_host, recipient,
				amount_micro, nonce, valid_before, reserved_until, signature, header, approval_mode, expires_at, created_at, payment_required)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
			Args: []any{r.BotID, r.OwnerID, r.Status, r.ResourceURL, r.ResourceHost, r.Recipient, int64(r.Amount), strings.ToLower(r.Nonce),
				r.ValidBefore, ms(r.ReservedUntil), nullString(r.Signature), nullString(r.Header), r.ApprovalMode,
				msPtr(r.ExpiresAt), ms(now), nullString(r.PaymentRequired)},
			Dest: []any{&r.ID}})
		return nil
	})
	return r, verdict, err
}

// signatureReservedUntil is when a signature's funds stop being promised:
// not at its validBefore but as long as settlement still accepts it
// (botpay.SettlementTolerance later), or a second signature made in
// between could promise the same funds.
func signatureReservedUntil(validBefore int64) time.Time {
	return time.Unix(validBefore, 0).Add(botpay.SettlementTolerance)
}

// lockSigner reads the bot's Signer and locks its processor wallet
// (lockProcessorWallet), in one round trip when the bot's rules in memory
// are still its own, else reading them again.
func (tx *Tx) lockSigner(ctx context.Context, r botpay.SigningRequest, now time.Time, after ...step) (sg Signer, w lockedProcessor, spent SpentTotals, err error) {
	cfg := tx.s.signers.get(r.BotID)
	var row signerRow
	first := signerStep(r.BotID, r.OwnerID, &row)
	if cfg != nil {
		first = slimSignerStep(r.BotID, &row)
	}
	w, spent, err = tx.lockProcessorWallet(ctx, r.BotID, now, []step{first, tx.budgetLockStep(r.BotID)}, after)
	if err == nil && !row.found {
		err = ErrNoProcessorWallet
	}
	if err != nil {
		return sg, w, spent, err
	}
	if cfg != nil && cfg.walletID == row.walletID && cfg.version == row.version {
		return cfg.with(&row), w, spent, nil
	}
	if cfg != nil { // stale: the owner changed the configuration since
		row = signerRow{}
		if err := tx.pipeline(ctx, signerStep(r.BotID, r.OwnerID, &row)); err != nil {
			return sg, w, spent, err
		}
		if !row.found {
			return sg, w, spent, ErrNoProcessorWallet
		}
	}
	if sg, err = row.signer(); err != nil {
		return sg, w, spent, err
	}
	tx.s.signers.put(r.BotID, &signerConfig{walletID: row.walletID, version: row.version,
		guardrails: sg.Guardrails, master: sg.Master, procurement: sg.Procurement})
	return sg, w, spent, nil
}

func msPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ms(*t)
}

// lockProcessorWallet locks the bot's processor wallet row, then reads the
// reservations that ran out since its running total was last swept
// (reservations.go) and the bot's commitments of the UTC day and month.
// The reads must be a second statement: under READ COMMITTED a statement
// that waited for the row lock still sees the snapshot taken before it
// waited, so reads in the locking statement would miss what the previous
// lock holder just committed.
// Both statements, between first and after, travel in one round trip (a
// pipeline), and still run one after the other.
func (tx *Tx) lockProcessorWallet(ctx context.Context, botID string, now time.Time, first, after []step) (w lockedProcessor, spent SpentTotals, err error) {
	var found bool
	steps := append(first,
		step{Query: `SELECT balance_micro, reserved_micro, reserved_as_of FROM processor_wallets WHERE bot_id = $1` + tx.forUpdate(),
			Args: []any{botID}, Dest: []any{&w.balance, &w.total, &w.asOf}, Found: &found},
		step{Query: `SELECT (` + expiredReservations("$5", "$4") + `), day, month FROM ` + ledger.CommittedDays("bot_id"),
			Args: ledger.CommittedArgs("bot:"+botID, botID, now),
			Dest: []any{&w.expired, &spent.BotDay, &spent.BotMonth}})
	err = tx.pipeline(ctx, append(steps, after...)...)
	if err == nil && !found {
		return w, spent, ErrNoProcessorWallet
	}
	return w, spent, err
}

// budgetLockStep locks the bot's card wallet row, as every card checkout
// of the bot does first: the bot's daily and monthly budgets count both
// rails, so a signature judged under the processor wallet's lock alone
// could spend, beside a concurrent checkout, the same last dollars of
// them. Lock order: card wallet, processor wallet, owner (no transaction
// takes them in another order).
func (tx *Tx) budgetLockStep(botID string) step {
	var id string
	return step{Query: `SELECT id FROM wallets WHERE bot_id = $1` + tx.s.driver.LockForNoKeyUpdate("wallets"), Args: []any{botID},
		Dest: []any{&id}, Found: new(bool)} // a bot without a card wallet has no budget of it to race
}

// ownerSpent sums the commitments of all of the owner's bots (for master
// budgets), locking the owner row first as a checkout under a master
// budget does, so that signatures and checkouts of several bots of one
// owner cannot together pass it.
func (tx *Tx) ownerSpent(ctx context.Context, ownerID string, now time.Time) (day, month botpay.Money, err error) {
	var locked string
	if err := tx.queryRow(ctx, `SELECT id FROM owners WHERE id = $1`+tx.forUpdate(), ownerID).Scan(&locked); err != nil {
		return 0, 0, err
	}
	err = tx.queryRow(ctx, `SELECT day, month FROM `+ledger.CommittedDays("owner_id"), ledger.CommittedArgs("owner:"+ownerID, ownerID, now)...).
		Scan(&day, &month)
	return day, month, err
}

const signingColumns = `id, bot_id, owner_id, status, resource_url, resource_host, recipient, amount_micro, nonce, valid_before,
	reserved_until, COALESCE(signature, ''), COALESCE(header, ''), approval_mode, expires_at, decided_at, created_at,
	COALESCE(payment_required, '')`

func scanSigning(row scanner) (botpay.SigningRequest, error) {
	var r botpay.SigningRequest
	var reserved, created int64
	var expires, decided sql.NullInt64
	err := row.Scan(&r.ID, &r.BotID, &r.OwnerID, &r.Status, &r.ResourceURL, &r.ResourceHost, &r.Recipient, &r.Amount, &r.Nonce,
		&r.ValidBefore, &reserved, &r.Signature, &r.Header, &r.ApprovalMode, &expires, &decided, &created,
		&r.PaymentRequired)
	r.ReservedUntil, r.CreatedAt = fromMS(reserved), fromMS(created)
	if expires.Valid {
		t := fromMS(expires.Int64)
		r.ExpiresAt = &t
	}
	if decided.Valid {
		t := fromMS(decided.Int64)
		r.DecidedAt = &t
	}
	return r, err
}

// OwnedSigningRequest reads one of the owner's signing requests; another
// owner's is not found, exactly like a missing one.
func (s *Store) OwnedSigningRequest(ctx context.Context, ownerID string, id int64) (botpay.SigningRequest, error) {
	r, err := scanSigning(s.queryRow(ctx, `SELECT `+signingColumns+` FROM signing_requests WHERE id = $1 AND owner_id = $2`, id, ownerID))
	if isNoRows(err) {
		return r, botpay.ErrNotFound("signing request")
	}
	return r, wrapErr(err, "owned signing request %s", ownerID)
}

// PendingSigningRequests pages through an owner's undecided, unexpired
// requests, oldest first.
func (s *Store) PendingSigningRequests(ctx context.Context, ownerID string, page botpay.PageRequest) (botpay.Page[botpay.SigningRequest], error) {
	items, err := s.pendingSigning(ctx, ownerID, page)
	if err != nil {
		return botpay.Page[botpay.SigningRequest]{Items: []botpay.SigningRequest{}}, wrapErr(err, "pending signing requests %s", ownerID)
	}
	return cutPage(items, page.Limit), nil
}

func (s *Store) pendingSigning(ctx context.Context, ownerID string, page botpay.PageRequest) ([]placed[botpay.SigningRequest], error) {
	q, args := keyset(`SELECT `+signingColumns+`, seq FROM signing_requests
		WHERE owner_id = $1 AND status = 'pending' AND expires_at > $2`, []any{ownerID, ms(s.clock.Now())}, "seq", oldestFirst, page)
	return readPlaced(ctx, s, q, args, scanSigning)
}

// SigningDecision is the owner's answer to a held request. An approval
// carries the authorization the app signed for it.
type SigningDecision struct {
	Approve     bool
	Nonce       string
	ValidBefore int64
	Signature   string
	Header      string
	Event       botpay.EventData // purchase.approved or purchase.rejected
}

// Errors of deciding a signing request (docs/decisions.md, as for held
// purchases).
var (
	ErrAlreadyDecided  = botpay.Errorf(botpay.KindConflict, botpay.CodeAlreadyDecided, "the request has already been decided")
	ErrApprovalExpired = botpay.Errorf(botpay.KindGone, botpay.CodeExpired, "the approval window of the request has closed")
)

// DecideSigning applies the owner's decision to a pending request and
// emits purchase.approved (with the signed header) or purchase.rejected,
// in one transaction. Only a pending, unexpired request changes; a second
// decision is already_decided, a late one expired.
func (s *Store) DecideSigning(ctx context.Context, ownerID string, id int64, d SigningDecision) (botpay.SigningRequest, error) {
	now := s.clock.Now()
	var r botpay.SigningRequest
	err := s.inTx(ctx, func(tx *Tx) error {
		// The processor wallet first (reservations.go): taking the
		// request's row first deadlocked with the expiry sweep.
		if err := tx.lockWalletOfSigning(ctx, id, ownerID); err != nil {
			return err
		}
		var err error
		r, err = scanSigning(tx.queryRow(ctx, `SELECT `+signingColumns+` FROM signing_requests WHERE id = $1 AND owner_id = $2`+tx.forUpdate(), id, ownerID))
		if isNoRows(err) {
			return botpay.ErrNotFound("signing request")
		}
		if err != nil {
			return err
		}
		switch {
		case r.Status == botpay.SigningExpired:
			return ErrApprovalExpired
		case r.Status != botpay.SigningPending:
			return ErrAlreadyDecided
		case r.ExpiresAt != nil && !now.Before(*r.ExpiresAt):
			return ErrApprovalExpired
		}
		r.DecidedAt = &now
		oldUntil, newUntil := ms(r.ReservedUntil), int64(0)
		event := botpay.EventPurchaseRejected
		if d.Approve {
			event = botpay.EventPurchaseApproved
			r.Status, r.Nonce, r.ValidBefore, r.Signature, r.Header = botpay.SigningSigned, strings.ToLower(d.Nonce), d.ValidBefore, d.Signature, d.Header
			r.ReservedUntil = signatureReservedUntil(d.ValidBefore)
			newUntil = ms(r.ReservedUntil)
			_, err = tx.exec(ctx, `UPDATE signing_requests SET status = $1, nonce = $2, valid_before = $3, reserved_until = $4,
				signature = $5, header = $6, decided_at = $7 WHERE id = $8`, r.Status, r.Nonce, r.ValidBefore, ms(r.ReservedUntil),
				r.Signature, r.Header, ms(now), r.ID)
		} else {
			r.Status = botpay.SigningDenied
			ledger.CountSigning(tx.k, r.BotID, r.OwnerID, ms(r.CreatedAt), -r.Amount)
			_, err = tx.exec(ctx, `UPDATE signing_requests SET status = $1, decided_at = $2 WHERE id = $3`, r.Status, ms(now), r.ID)
		}
		if err == nil {
			err = tx.releaseReservation(ctx, r.BotID, r.Amount, oldUntil, newUntil)
		}
		if err != nil {
			return err
		}
		if d.Event == nil || d.Event.EventType() != event {
			return fmt.Errorf("decide signing %d: the decision's event is not %s", r.ID, event)
		}
		return tx.emit(botpay.NewEvent(r.BotID, d.Event, now))
	})
	return r, wrapErr(err, "decide signing %s", ownerID)
}
