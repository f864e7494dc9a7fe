package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// CreateOwner inserts an owner with its first token (a session until
// expires, or with expires zero an API token, as AddOwnerToken). A taken e-mail is 409
// email_taken.
func (s *Store) CreateOwner(ctx context.Context, o botpay.Owner, passwordHash, tokenHash string, expires time.Time) error {
	err := s.inTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `INSERT INTO owners (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)`,
			o.ID, o.Email, passwordHash, ms(o.CreatedAt)); err != nil {
			return err
		}
		return tx.addOwnerToken(ctx, o.ID, tokenHash, o.CreatedAt, expires)
	})
	if errors.Is(err, ErrUnique) {
		return botpay.Errorf(botpay.KindConflict, botpay.CodeEmailTaken, "an owner account with this e-mail already exists; log in instead")
	}
	return wrapErr(err, "create owner")
}

func (t *Tx) addOwnerToken(ctx context.Context, ownerID, tokenHash string, now, expires time.Time) error {
	kind := botpay.OwnerTokenSession
	if expires.IsZero() {
		kind, expires = botpay.OwnerTokenAPIToken, now.Add(OwnerAPITokenLife)
	}
	_, err := t.exec(ctx, `INSERT INTO owner_tokens (token_hash, id, kind, owner_id, created_at, expires_at, last_used_at)
		VALUES ($1, $2, $3, $4, $5, $6, $5)`, tokenHash, botpay.NewID("tok_"), kind, ownerID, ms(now), ms(expires))
	return err
}

// OwnerAPITokenLife is how long an owner API token lives after its last
// use: each use renews it (at most once an hour, OwnerByTokenHash).
const OwnerAPITokenLife = 90 * 24 * time.Hour

// AddOwnerToken issues another bearer token (each login gets its own, so
// logging out of one place revokes only that one): a dashboard session that
// stops authenticating at expires, or with expires zero an API token that
// lives OwnerAPITokenLife after its last use.
func (s *Store) AddOwnerToken(ctx context.Context, ownerID, tokenHash string, expires time.Time) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error { return tx.addOwnerToken(ctx, ownerID, tokenHash, s.clock.Now(), expires) }), "add owner token %s", ownerID)
}

// RevokeOwnerToken ends a token.
func (s *Store) RevokeOwnerToken(ctx context.Context, tokenHash string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE owner_tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL`, ms(s.clock.Now()), tokenHash)
		return err
	}), "revoke owner token")
}

// ownerColumns are an owner's columns in the order scanOwner reads them.
const ownerColumns = `o.id, o.email, o.created_at, o.email_verified_at`

func scanOwner(row interface{ Scan(...any) error }, extra ...any) (botpay.Owner, error) {
	var o botpay.Owner
	var created int64
	var verified sql.NullInt64
	err := row.Scan(append([]any{&o.ID, &o.Email, &created, &verified}, extra...)...)
	o.CreatedAt, o.EmailVerifiedAt = fromMS(created), fromNullMS(verified)
	return o, err
}

// OwnerCredentials returns an owner and its password hash by e-mail.
func (s *Store) OwnerCredentials(ctx context.Context, email string) (botpay.Owner, string, error) {
	var hash string
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+`, o.password_hash FROM owners o WHERE o.email = $1`, email), &hash)
	if isNoRows(err) {
		return o, "", botpay.ErrNotFound("owner")
	}
	return o, hash, wrapErr(err, "owner credentials")
}

// OwnerByTokenHash authenticates an owner token that is neither revoked
// nor past its expiry. A use more than tokenUseEvery after the last one
// recorded is written down, and renews an API token (sliding expiry).
func (s *Store) OwnerByTokenHash(ctx context.Context, tokenHash string) (botpay.Owner, error) {
	var stored, kind string
	var used sql.NullInt64
	now := s.clock.Now()
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+`, t.token_hash, t.kind, t.last_used_at FROM owner_tokens t
		JOIN owners o ON o.id = t.owner_id WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`,
		tokenHash, ms(now)), &stored, &kind, &used)
	if isNoRows(err) || (err == nil && !botpay.DigestsEqual(stored, tokenHash)) {
		return o, botpay.ErrNotFound("owner token")
	}
	if err == nil && now.Sub(fromNullMS(used)) >= tokenUseEvery {
		err = s.touchOwnerToken(ctx, tokenHash, kind)
	}
	return o, wrapErr(err, "owner by token hash")
}

// OwnerByID loads an owner.
func (s *Store) OwnerByID(ctx context.Context, id string) (botpay.Owner, error) {
	o, err := scanOwner(s.queryRow(ctx, `SELECT `+ownerColumns+` FROM owners o WHERE o.id = $1`, id))
	if isNoRows(err) {
		return o, botpay.ErrNotFound("owner")
	}
	return o, wrapErr(err, "owner by id %s", id)
}

// CreatePairingCode stores a pairing code digest valid until expires, at most
// perHour codes per owner per rolling hour. A digest that collides with a
// live code is reported as ErrUnique so the caller draws another code.
func (s *Store) CreatePairingCode(ctx context.Context, ownerID, codeHash string, expires time.Time, perHour int) error {
	now := s.clock.Now()
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		l := Limit{Bucket: "pairing:" + ownerID, Max: perHour, Window: time.Hour}
		if err := tx.take(ctx, l, now); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `DELETE FROM pairing_codes WHERE code_hash = $1 AND (used_at IS NOT NULL OR expires_at <= $2)`, codeHash, ms(now)); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO pairing_codes (code_hash, owner_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			codeHash, ownerID, ms(now), ms(expires))
		return err
	}), "create pairing code %s", ownerID)
}

// MasterGuardrails returns the owner's master guardrails, or nil when the
// owner never set them.
func (s *Store) MasterGuardrails(ctx context.Context, ownerID string) (*botpay.MasterGuardrails, error) {
	v, err := scanMasterGuardrails(s.queryRow(ctx, masterGuardrailsQuery, ownerID))
	return v, wrapErr(err, "master guardrails %s", ownerID)
}

const masterGuardrailsQuery = `SELECT per_transaction_cents, daily_budget_cents, monthly_budget_cents, updated_at
		FROM master_guardrails WHERE owner_id = $1`

func scanMasterGuardrails(row interface{ Scan(...any) error }) (*botpay.MasterGuardrails, error) {
	var m botpay.MasterGuardrails
	var per, daily, monthly *int64
	var updated int64
	err := row.Scan(&per, &daily, &monthly, &updated)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m.PerTransaction, m.DailyBudget, m.MonthlyBudget = moneyPtr(per), moneyPtr(daily), moneyPtr(monthly)
	m.UpdatedAt = fromMS(updated)
	return &m, nil
}

// SetMasterGuardrails replaces the owner's master guardrails and tells every
// claimed bot of the owner with rails.updated (limits_updated).
func (s *Store) SetMasterGuardrails(ctx context.Context, ownerID string, m botpay.MasterGuardrails) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO master_guardrails (owner_id, per_transaction_cents, daily_budget_cents, monthly_budget_cents, updated_at)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (owner_id) DO UPDATE SET per_transaction_cents = excluded.per_transaction_cents,
				daily_budget_cents = excluded.daily_budget_cents, monthly_budget_cents = excluded.monthly_budget_cents,
				updated_at = excluded.updated_at`,
			ownerID, centsPtr(m.PerTransaction), centsPtr(m.DailyBudget), centsPtr(m.MonthlyBudget), ms(m.UpdatedAt))
		if err != nil {
			return err
		}
		ids, err := tx.ownerBotIDs(ctx, ownerID)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := tx.emit(railsUpdated(id, botpay.ActionLimitsUpdated, "master guardrails changed", m.UpdatedAt)); err != nil {
				return err
			}
		}
		return nil
	}), "set master guardrails %s", ownerID)
}

func (t *Tx) ownerBotIDs(ctx context.Context, ownerID string) ([]string, error) {
	rows, err := t.query(ctx, `SELECT id FROM bots WHERE owner_id = $1 ORDER BY seq`, ownerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func railsUpdated(botID, action, message string, now time.Time) botpay.Event {
	rail := botpay.RailCardWallet
	return botpay.NewEvent(botID, botpay.RailsUpdatedData{
		Action: action, Rail: &rail, BotID: botID, Message: message,
	}, now)
}

func moneyPtr(v *int64) *botpay.Money {
	if v == nil {
		return nil
	}
	m := botpay.Money(*v)
	return &m
}

func centsPtr(m *botpay.Money) *int64 {
	if m == nil {
		return nil
	}
	v := int64(*m)
	return &v
}
