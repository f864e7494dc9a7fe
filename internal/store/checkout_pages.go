package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

const pageColumns = `id, bot_id, title, description, amount_cents, amount_locked, allowed_methods, success_url, page_type,
	digital_product_url, image_url, collect_buyer_name, view_count, payment_count, total_received_cents, created_at, expires_at,
	contact_email, refund_policy`

func scanPage(row interface{ Scan(...any) error }) (botpay.CheckoutPage, error) {
	var p botpay.CheckoutPage
	var amount, expires sql.NullInt64
	var methods string
	var success, digital, image, contact, refunds sql.NullString
	var created int64
	err := row.Scan(&p.ID, &p.BotID, &p.Title, &p.Description, &amount, &p.AmountLocked, &methods, &success, &p.PageType,
		&digital, &image, &p.CollectBuyerName, &p.ViewCount, &p.PaymentCount, &p.TotalReceived, &created, &expires,
		&contact, &refunds)
	if err != nil {
		return p, err
	}
	if amount.Valid {
		m := botpay.Money(amount.Int64)
		p.Amount = &m
	}
	if err := json.Unmarshal([]byte(methods), &p.AllowedMethods); err != nil {
		return p, err
	}
	p.SuccessURL, p.DigitalProductURL, p.ImageURL = success.String, digital.String, image.String
	p.ContactEmail, p.RefundPolicy = contact.String, refunds.String
	p.CreatedAt, p.ExpiresAt = fromMS(created), fromNullMS(expires)
	return p, nil
}

func nullCents(m *botpay.Money) sql.NullInt64 {
	if m == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(*m), Valid: true}
}

func nullMS(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: ms(t), Valid: true}
}

// CreateCheckoutPage stores a new page of a claimed bot.
func (s *Store) CreateCheckoutPage(ctx context.Context, p botpay.CheckoutPage) error {
	methods, err := json.Marshal(p.AllowedMethods)
	if err != nil {
		return wrapErr(err, "create checkout page")
	}
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO checkout_pages (id, bot_id, title, description, amount_cents, amount_locked,
			allowed_methods, success_url, page_type, digital_product_url, image_url, collect_buyer_name, created_at, expires_at,
			contact_email, refund_policy)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
			p.ID, p.BotID, p.Title, p.Description, nullCents(p.Amount), p.AmountLocked, string(methods), nullString(p.SuccessURL),
			p.PageType, nullString(p.DigitalProductURL), nullString(p.ImageURL), p.CollectBuyerName, ms(p.CreatedAt), nullMS(p.ExpiresAt),
			nullString(p.ContactEmail), nullString(p.RefundPolicy))
		return err
	}), "create checkout page")
}

// CheckoutPages pages through a bot's checkout pages, newest first.
func (s *Store) CheckoutPages(ctx context.Context, botID string, page botpay.PageRequest) (botpay.Page[botpay.CheckoutPage], error) {
	q, args := keyset(`SELECT `+pageColumns+`, seq FROM checkout_pages WHERE bot_id = $1`, []any{botID}, "seq", newestFirst, page)
	v, err := readPage(ctx, s, q, args, page.Limit, scanPage)
	return v, wrapErr(err, "checkout pages %s", botID)
}

// CheckoutPage reads any page by ID (the buyer side). botID, when not
// empty, restricts it to that bot's pages; either way a miss is
// checkout_page_not_found.
func (s *Store) CheckoutPage(ctx context.Context, id, botID string) (botpay.CheckoutPage, error) {
	p, err := scanPage(s.queryRow(ctx, `SELECT `+pageColumns+` FROM checkout_pages WHERE id = $1 AND ($2 = '' OR bot_id = $2)`, id, botID))
	if isNoRows(err) {
		return p, botpay.ErrCheckoutPageNotFound
	}
	return p, wrapErr(err, "checkout page %s", id)
}

// CountPageView adds one to a page's view_count and returns the page.
func (s *Store) CountPageView(ctx context.Context, id string) (botpay.CheckoutPage, error) {
	var p botpay.CheckoutPage
	err := s.inTx(ctx, func(tx *Tx) error {
		var err error
		p, err = scanPage(tx.queryRow(ctx, `UPDATE checkout_pages SET view_count = view_count + 1 WHERE id = $1 RETURNING `+pageColumns, id))
		if isNoRows(err) {
			return botpay.ErrCheckoutPageNotFound
		}
		return err
	})
	return p, wrapErr(err, "count page view %s", id)
}

func (t *Tx) lockPage(ctx context.Context, id string) (botpay.CheckoutPage, error) {
	p, err := scanPage(t.queryRow(ctx, `SELECT `+pageColumns+` FROM checkout_pages WHERE id = $1`+t.forUpdate(), id))
	if isNoRows(err) {
		return p, botpay.ErrCheckoutPageNotFound
	}
	return p, err
}
