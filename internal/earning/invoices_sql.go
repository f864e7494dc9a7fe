package earning

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

const invoiceColumns = `id, bot_id, reference_number, checkout_page_id, status, recipient_name, recipient_email, recipient_type,
	line_items, subtotal_cents, tax_cents, total_cents, due_date, sender_name, sender_email, notes, sale_id,
	sent_at, viewed_at, paid_at, created_at, updated_at, refunded_cents`

// storedLine is the JSON form of a line item in the invoices table.
type storedLine struct {
	Description string `json:"description"`
	Quantity    string `json:"quantity"`
	UnitCents   int64  `json:"unit_cents"`
	AmountCents int64  `json:"amount_cents"`
}

func scanInvoice(row kernel.Scanner) (botpay.Invoice, error) {
	var i botpay.Invoice
	var lines string
	var sale sql.NullString
	var due, created, updated int64
	var sent, viewed, paid sql.NullInt64
	err := row.Scan(&i.ID, &i.BotID, &i.ReferenceNumber, &i.CheckoutPageID, &i.Status, &i.RecipientName, &i.RecipientEmail,
		&i.RecipientType, &lines, &i.Subtotal, &i.Tax, &i.Total, &due, &i.SenderName, &i.SenderEmail, &i.Notes, &sale,
		&sent, &viewed, &paid, &created, &updated, &i.Refunded)
	if err != nil {
		return i, err
	}
	var stored []storedLine
	if err := json.Unmarshal([]byte(lines), &stored); err != nil {
		return i, err
	}
	for _, l := range stored {
		i.LineItems = append(i.LineItems, botpay.LineItem{Description: l.Description, Quantity: l.Quantity,
			UnitPrice: botpay.Money(l.UnitCents), Amount: botpay.Money(l.AmountCents)})
	}
	i.SaleID = sale.String
	i.DueDate, i.CreatedAt, i.UpdatedAt = fromMS(due), fromMS(created), fromMS(updated)
	i.SentAt, i.ViewedAt, i.PaidAt = fromNullMS(sent), fromNullMS(viewed), fromNullMS(paid)
	return i, nil
}

// insertInvoice draws the next reference number of the creation year and
// stores the draft, after checking that the page belongs to the bot.
func (s *Service) insertInvoice(ctx context.Context, inv *botpay.Invoice) error {
	stored := make([]storedLine, len(inv.LineItems))
	for k, l := range inv.LineItems {
		stored[k] = storedLine{Description: l.Description, Quantity: l.Quantity, UnitCents: int64(l.UnitPrice), AmountCents: int64(l.Amount)}
	}
	lines, err := json.Marshal(stored)
	if err != nil {
		return wrapErr(err, "create invoice")
	}
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var owner string
		err := tx.QueryRow(ctx, `SELECT bot_id FROM checkout_pages WHERE id = $1`, inv.CheckoutPageID).Scan(&owner)
		if isNoRows(err) || (err == nil && owner != inv.BotID) {
			return botpay.ErrCheckoutPageNotFound
		}
		if err != nil {
			return err
		}
		year := inv.CreatedAt.UTC().Year()
		var seq int64
		// One statement both creates the year's counter and advances it,
		// so concurrent creators on any replica get distinct numbers.
		err = tx.QueryRow(ctx, `INSERT INTO invoice_sequences (year, last) VALUES ($1, 1)
			ON CONFLICT (year) DO UPDATE SET last = invoice_sequences.last + 1 RETURNING last`, year).Scan(&seq)
		if err != nil {
			return err
		}
		inv.ReferenceNumber = botpay.FormatReference(year, seq)
		_, err = tx.Exec(ctx, `INSERT INTO invoices (id, bot_id, reference_number, checkout_page_id, status, recipient_name,
			recipient_email, recipient_type, line_items, subtotal_cents, tax_cents, total_cents, due_date, sender_name,
			sender_email, notes, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)`,
			inv.ID, inv.BotID, inv.ReferenceNumber, inv.CheckoutPageID, inv.Status, inv.RecipientName, inv.RecipientEmail,
			inv.RecipientType, string(lines), int64(inv.Subtotal), int64(inv.Tax), int64(inv.Total), ms(inv.DueDate),
			inv.SenderName, inv.SenderEmail, inv.Notes, ms(inv.CreatedAt))
		return err
	}), "create invoice")
}

// invoicesOf pages through a bot's invoices, newest first.
func (s *Service) invoicesOf(ctx context.Context, botID string, f botpay.InvoiceFilter, page botpay.PageRequest) (botpay.Page[botpay.Invoice], error) {
	q := `SELECT ` + invoiceColumns + `, seq FROM invoices WHERE bot_id = $1`
	args := []any{botID}
	if f.Status != "" {
		args = append(args, f.Status)
		q += ` AND status = $` + strconv.Itoa(len(args))
	}
	if f.CheckoutPageID != "" {
		args = append(args, f.CheckoutPageID)
		q += ` AND checkout_page_id = $` + strconv.Itoa(len(args))
	}
	q, args = kernel.Keyset(q, args, "seq", kernel.NewestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, scanInvoice)
	return v, wrapErr(err, "invoices %s", botID)
}

// InvoiceByRef reads the invoice with reference ref on page pageID; a
// mismatch is the same not_found as a missing invoice.
func (s *Service) InvoiceByRef(ctx context.Context, pageID, ref string) (botpay.Invoice, error) {
	i, err := scanInvoice(s.db.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE reference_number = $1 AND checkout_page_id = $2`, ref, pageID))
	if isNoRows(err) {
		return i, botpay.ErrNotFound("invoice")
	}
	return i, wrapErr(err, "invoice by ref %s", pageID)
}

// invoice reads an invoice by ID (the invoice a receipt's sale paid).
func (s *Service) invoice(ctx context.Context, id string) (botpay.Invoice, error) {
	inv, err := scanInvoice(s.db.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1`, id))
	if err != nil {
		return inv, fmt.Errorf("read invoice %s: %w", id, err)
	}
	return inv, nil
}

// markInvoiceSent moves a bot's draft to sent. A missing or foreign invoice
// is not_found; one that is not a draft is only_draft_invoices_can_be_sent.
// When the invoice will be e-mailed (it has a recipient address) each of
// mailLimits admits one more mail in the same transaction, so a refusal
// (rate_limited) leaves the draft and every count unchanged, and replicas
// count in the same rows. Limits are taken in the order given (the bot's
// before its owner's), so concurrent senders lock the bucket rows in one
// order on every replica.
func (s *Service) markInvoiceSent(ctx context.Context, botID, id string, mailLimits ...Limit) (botpay.Invoice, error) {
	now := s.clock.Now()
	var inv botpay.Invoice
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		inv, err = scanInvoice(tx.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1 AND bot_id = $2`+tx.ForUpdate(), id, botID))
		if isNoRows(err) {
			return botpay.ErrNotFound("invoice")
		}
		if err != nil {
			return err
		}
		if inv.Status != botpay.InvoiceDraft {
			return botpay.Errorf(botpay.KindInvalid, botpay.CodeOnlyDraftsCanBeSent, "only draft invoices can be sent; this one is %s", inv.Status)
		}
		if inv.RecipientEmail != "" {
			for _, l := range mailLimits {
				if err := s.rates.TakeIn(ctx, tx, l, now); err != nil {
					return err
				}
			}
		}
		inv.Status, inv.SentAt, inv.UpdatedAt = botpay.InvoiceSent, now, now
		_, err = tx.Exec(ctx, `UPDATE invoices SET status = $1, sent_at = $2, updated_at = $2 WHERE id = $3`, inv.Status, ms(now), id)
		return err
	})
	return inv, wrapErr(err, "mark invoice sent %s", id)
}

// MarkInvoiceViewed moves a sent invoice to viewed (the buyer opened its
// payment page) and returns it as it is now, with its payment token.
func (s *Service) MarkInvoiceViewed(ctx context.Context, id string) (botpay.Invoice, error) {
	now := s.clock.Now()
	var inv botpay.Invoice
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE invoices SET status = $1, viewed_at = $2, updated_at = $2 WHERE id = $3 AND status = $4`,
			botpay.InvoiceViewed, ms(now), id, botpay.InvoiceSent); err != nil {
			return err
		}
		var err error
		inv, err = scanInvoice(tx.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1`, id))
		return err
	})
	if err != nil {
		return inv, wrapErr(err, "mark invoice viewed %s", id)
	}
	return s.WithPayToken(inv), nil
}

// cancelInvoice cancels an unpaid invoice of one of the owner's bots.
// Cancelling a cancelled invoice answers it unchanged.
func (s *Service) cancelInvoice(ctx context.Context, ownerID, id string) (botpay.Invoice, error) {
	now := s.clock.Now()
	var inv botpay.Invoice
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		inv, err = scanInvoice(tx.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE id = $1
			AND bot_id IN (SELECT id FROM bots WHERE owner_id = $2)`+tx.ForUpdate(), id, ownerID))
		if isNoRows(err) {
			return botpay.ErrNotFound("invoice")
		}
		switch {
		case err != nil:
			return err
		case inv.Status == botpay.InvoiceCancelled:
			return nil
		case inv.Status == botpay.InvoicePaid:
			return botpay.Errorf(botpay.KindConflict, botpay.CodeInvoiceAlreadyPaid, "a paid invoice cannot be cancelled")
		}
		inv.Status, inv.UpdatedAt = botpay.InvoiceCancelled, now
		_, err = tx.Exec(ctx, `UPDATE invoices SET status = $1, updated_at = $2 WHERE id = $3`, inv.Status, ms(now), id)
		return err
	})
	return inv, wrapErr(err, "cancel invoice %s", id)
}

func lockInvoiceByRef(ctx context.Context, tx *kernel.Tx, pageID, ref string) (botpay.Invoice, error) {
	i, err := scanInvoice(tx.QueryRow(ctx, `SELECT `+invoiceColumns+` FROM invoices WHERE reference_number = $1 AND checkout_page_id = $2`+tx.ForUpdate(), ref, pageID))
	if isNoRows(err) {
		return i, botpay.ErrNotFound("invoice")
	}
	return i, err
}

func markInvoicePaid(ctx context.Context, tx *kernel.Tx, id, saleID string, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE invoices SET status = $1, sale_id = $2, paid_at = $3, updated_at = $3 WHERE id = $4`,
		botpay.InvoicePaid, saleID, ms(now), id)
	return err
}
