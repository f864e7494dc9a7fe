package payments

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// signingFacts are what a signing transaction read under the processor
// wallet's lock: the facts the decision judges, and the wallet that signs
// and reserves.
type signingFacts struct {
	botpay.SigningFacts
	wallet botpay.ProcessorWallet
	locked lockedProcessor
}

// signingFacts reads the bot's signer, locks its processor wallet and
// computes what is committed (one round trip on PostgreSQL); with chain,
// the balance on chain less the on-chain refunds it does not show yet
// replaces the stored balance.
func (s *Service) signingFacts(ctx context.Context, tx *kernel.Tx, r botpay.SigningRequest, chain *chainBalance, now time.Time) (signingFacts, error) {
	var f signingFacts
	var refunds botpay.Money // on-chain refunds promising the same tokens
	var after []kernel.Step
	if chain != nil {
		after = append(after, chainRefundsStep(r.BotID, chain.ReadAt, &refunds))
	}
	sg, err := s.lockSigner(ctx, tx, r, now, &f, after...)
	if err != nil {
		return f, err
	}
	f.Frozen, f.Guardrails, f.Master, f.Procurement, f.wallet = sg.frozen, sg.guardrails, sg.master, sg.procurement, sg.wallet
	if sg.master != nil {
		if f.Spent.OwnerDay, f.Spent.OwnerMonth, err = ownerSpent(ctx, tx, r.OwnerID, now); err != nil {
			return f, err
		}
	}
	have := f.locked.balance
	if chain != nil {
		have = chain.Micro - botpay.MicroOf(refunds)
	}
	f.Available = have - f.locked.reserved()
	return f, nil
}

// writeSigning inserts a request the decision let through, signed or
// held, and reserves its amount; both travel with COMMIT (r.ID is known
// once the transaction returns).
func (s *Service) writeSigning(tx *kernel.Tx, f signingFacts, r *botpay.SigningRequest, verdict botpay.SigningVerdict, now time.Time) {
	if verdict.NeedsApproval {
		exp := now.Add(botpay.SigningApprovalWindow)
		r.Status, r.ExpiresAt, r.ReservedUntil, r.Signature, r.Header = botpay.SigningPending, &exp, exp, "", ""
	} else {
		r.Status, r.ReservedUntil = botpay.SigningSigned, botpay.SignatureReservedUntil(r.ValidBefore)
		r.PaymentRequired = "" // only an approval signs again
	}
	reserve(tx, r.BotID, f.locked, ms(now), ms(r.ReservedUntil), r.Amount)
	ledger.CountSigning(tx, r.BotID, r.OwnerID, ms(now), r.Amount)
	tx.AtCommit(kernel.Step{Query: `INSERT INTO signing_requests (bot_id, owner_id, status, resource_url, resource_host, recipient,
				amount_micro, nonce, valid_before, reserved_until, signature, header, approval_mode, expires_at, created_at, payment_required)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
		Args: []any{r.BotID, r.OwnerID, r.Status, r.ResourceURL, r.ResourceHost, r.Recipient, int64(r.Amount), strings.ToLower(r.Nonce),
			r.ValidBefore, ms(r.ReservedUntil), nullString(r.Signature), nullString(r.Header), r.ApprovalMode,
			msPtr(r.ExpiresAt), ms(now), nullString(r.PaymentRequired)},
		Dest: []any{&r.ID}})
}

// lockSigner reads the bot's signer and locks its processor wallet
// (lockProcessorWallet) into f, in one round trip when the bot's rules in
// memory are still its own, else reading them again.
func (s *Service) lockSigner(ctx context.Context, tx *kernel.Tx, r botpay.SigningRequest, now time.Time, f *signingFacts, after ...kernel.Step) (signer, error) {
	cfg := s.signers.Get(r.BotID)
	var row signerRow
	first := signerStep(r.BotID, r.OwnerID, &row)
	if cfg != nil {
		first = slimSignerStep(r.BotID, &row)
	}
	err := lockProcessorWallet(ctx, tx, r.BotID, now, f, []kernel.Step{first, budgetLockStep(tx, r.BotID)}, after)
	if err == nil && !row.found {
		err = ErrNoProcessorWallet
	}
	if err != nil {
		return signer{}, err
	}
	if cfg != nil && cfg.walletID == row.walletID && cfg.version == row.version {
		return cfg.with(&row), nil
	}
	if cfg != nil { // stale: the owner changed the configuration since
		row = signerRow{}
		if err := tx.Pipeline(ctx, signerStep(r.BotID, r.OwnerID, &row)); err != nil {
			return signer{}, err
		}
		if !row.found {
			return signer{}, ErrNoProcessorWallet
		}
	}
	sg, err := row.signer()
	if err != nil {
		return sg, err
	}
	s.signers.Put(r.BotID, &signerConfig{walletID: row.walletID, version: row.version,
		guardrails: sg.guardrails, master: sg.master, procurement: sg.procurement})
	return sg, nil
}

// lockProcessorWallet locks the bot's processor wallet row, then reads the
// reservations that ran out since its running total was last swept
// (reservations_sql.go) and the bot's commitments of the UTC day and month.
// The reads must be a second statement: under READ COMMITTED a statement
// that waited for the row lock still sees the snapshot taken before it
// waited, so reads in the locking statement would miss what the previous
// lock holder just committed.
// Both statements, between first and after, travel in one round trip (a
// pipeline), and still run one after the other.
func lockProcessorWallet(ctx context.Context, tx *kernel.Tx, botID string, now time.Time, f *signingFacts, first, after []kernel.Step) error {
	var found bool
	w := &f.locked
	steps := append(first,
		kernel.Step{Query: `SELECT balance_micro, reserved_micro, reserved_as_of FROM processor_wallets WHERE bot_id = $1` + tx.ForUpdate(),
			Args: []any{botID}, Dest: []any{&w.balance, &w.total, &w.asOf}, Found: &found},
		kernel.Step{Query: `SELECT (` + expiredReservations("$5", "$4") + `), day, month FROM ` + ledger.CommittedDays("bot_id"),
			Args: ledger.CommittedArgs("bot:"+botID, botID, now),
			Dest: []any{&w.expired, &f.Spent.BotDay, &f.Spent.BotMonth}})
	err := tx.Pipeline(ctx, append(steps, after...)...)
	if err == nil && !found {
		return ErrNoProcessorWallet
	}
	return err
}

// budgetLockStep locks the bot's card wallet row, as every card checkout
// of the bot does first: the bot's daily and monthly budgets count both
// rails, so a signature judged under the processor wallet's lock alone
// could spend, beside a concurrent checkout, the same last dollars of
// them. Lock order: card wallet, processor wallet, owner (no transaction
// takes them in another order).
func budgetLockStep(tx *kernel.Tx, botID string) kernel.Step {
	var id string
	return kernel.Step{Query: `SELECT id FROM wallets WHERE bot_id = $1` + tx.Driver().LockForNoKeyUpdate("wallets"), Args: []any{botID},
		Dest: []any{&id}, Found: new(bool)} // a bot without a card wallet has no budget of it to race
}

// ownerSpent sums the commitments of all of the owner's bots (for master
// budgets), locking the owner row first as a checkout under a master
// budget does, so that signatures and checkouts of several bots of one
// owner cannot together pass it.
func ownerSpent(ctx context.Context, tx *kernel.Tx, ownerID string, now time.Time) (day, month botpay.Money, err error) {
	var locked string
	if err := tx.QueryRow(ctx, `SELECT id FROM owners WHERE id = $1`+tx.ForUpdate(), ownerID).Scan(&locked); err != nil {
		return 0, 0, err
	}
	err = tx.QueryRow(ctx, `SELECT day, month FROM `+ledger.CommittedDays("owner_id"), ledger.CommittedArgs("owner:"+ownerID, ownerID, now)...).
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

func (s *Service) ownedSigningRequest(ctx context.Context, ownerID string, id int64) (botpay.SigningRequest, error) {
	r, err := scanSigning(s.db.QueryRow(ctx, `SELECT `+signingColumns+` FROM signing_requests WHERE id = $1 AND owner_id = $2`, id, ownerID))
	if isNoRows(err) {
		return r, botpay.ErrNotFound("signing request")
	}
	return r, wrapErr(err, "owned signing request %s", ownerID)
}

// pendingSigningRequests pages through an owner's undecided, unexpired
// requests, oldest first.
func (s *Service) pendingSigningRequests(ctx context.Context, ownerID string, page botpay.PageRequest) (botpay.Page[botpay.SigningRequest], error) {
	q, args := keysetOldestFirst(`SELECT `+signingColumns+`, seq FROM signing_requests
		WHERE owner_id = $1 AND status = 'pending' AND expires_at > $2`, []any{ownerID, ms(s.clock.Now())}, "seq", page)
	p, err := readPage(ctx, s.db, q, args, page.Limit, scanSigning)
	return p, wrapErr(err, "pending signing requests %s", ownerID)
}

// PendingSigning pages through the owner's held signing requests for the
// approvals list, oldest first, with one extra row and each one's position
// on the insertion sequence they share with held purchases, which the list
// merges them on.
func (s *Service) PendingSigning(ctx context.Context, ownerID string, page botpay.PageRequest) ([]kernel.Placed[botpay.SigningRequest], error) {
	q, args := kernel.Keyset(`SELECT `+signingColumns+`, seq FROM signing_requests
		WHERE owner_id = $1 AND status = 'pending' AND expires_at > $2`, []any{ownerID, ms(s.clock.Now())}, "seq", kernel.OldestFirst, page)
	v, err := kernel.ReadPlaced(ctx, s.db, q, args, scanSigning)
	return v, wrapErr(err, "pending signing %s", ownerID)
}
