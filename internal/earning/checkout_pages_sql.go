package earning

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

const pageColumns = `id, bot_id, title, description, amount_cents, amount_locked, allowed_methods, success_url, page_type,
	digital_product_url, image_url, collect_buyer_name, view_count, payment_count, total_received_cents, created_at, expires_at,
	contact_email, refund_policy`

func scanPage(row kernel.Scanner) (botpay.CheckoutPage, error) {
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

// insertPage stores a new page of a claimed bot.
func (s *Service) insertPage(ctx context.Context, p botpay.CheckoutPage) error {
	methods, err := json.Marshal(p.AllowedMethods)
	if err != nil {
		return wrapErr(err, "create checkout page")
	}
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO checkout_pages (id, bot_id, title, description, amount_cents, amount_locked,
			allowed_methods, success_url, page_type, digital_product_url, image_url, collect_buyer_name, created_at, expires_at,
			contact_email, refund_policy)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
			p.ID, p.BotID, p.Title, p.Description, nullCents(p.Amount), p.AmountLocked, string(methods), nullString(p.SuccessURL),
			p.PageType, nullString(p.DigitalProductURL), nullString(p.ImageURL), p.CollectBuyerName, ms(p.CreatedAt), nullMS(p.ExpiresAt),
			nullString(p.ContactEmail), nullString(p.RefundPolicy))
		return err
	}), "create checkout page")
}

// pagesOf pages through a bot's checkout pages, newest first.
func (s *Service) pagesOf(ctx context.Context, botID string, page botpay.PageRequest) (botpay.Page[botpay.CheckoutPage], error) {
	q, args := kernel.Keyset(`SELECT `+pageColumns+`, seq FROM checkout_pages WHERE bot_id = $1`, []any{botID}, "seq", kernel.NewestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, scanPage)
	return v, wrapErr(err, "checkout pages %s", botID)
}

// CheckoutPage reads any page by ID (the buyer side) without counting a
// view; a miss is checkout_page_not_found.
func (s *Service) CheckoutPage(ctx context.Context, id string) (botpay.CheckoutPage, error) {
	p, err := scanPage(s.db.QueryRow(ctx, `SELECT `+pageColumns+` FROM checkout_pages WHERE id = $1`, id))
	if isNoRows(err) {
		return p, botpay.ErrCheckoutPageNotFound
	}
	return p, wrapErr(err, "checkout page %s", id)
}

// CountPageView adds one to a page's view_count and returns the page.
func (s *Service) CountPageView(ctx context.Context, id string) (botpay.CheckoutPage, error) {
	var p botpay.CheckoutPage
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		p, err = scanPage(tx.QueryRow(ctx, `UPDATE checkout_pages SET view_count = view_count + 1 WHERE id = $1 RETURNING `+pageColumns, id))
		if isNoRows(err) {
			return botpay.ErrCheckoutPageNotFound
		}
		return err
	})
	return p, wrapErr(err, "count page view %s", id)
}

func lockPage(ctx context.Context, tx *kernel.Tx, id string) (botpay.CheckoutPage, error) {
	p, err := scanPage(tx.QueryRow(ctx, `SELECT `+pageColumns+` FROM checkout_pages WHERE id = $1`+tx.ForUpdate(), id))
	if isNoRows(err) {
		return p, botpay.ErrCheckoutPageNotFound
	}
	return p, err
}
