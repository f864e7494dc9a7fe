package earning

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// recordSale is RecordSale inside a caller's transaction (x402 settlement
// records the sale together with its claim on the authorization).
func (s *Service) recordSale(ctx context.Context, tx *kernel.Tx, in botpay.SaleInput) (botpay.SaleResult, error) {
	now := s.clock.Now()
	var res botpay.SaleResult
	err := func() error {
		sale := botpay.Sale{ID: botpay.NewID("sale_"), Method: in.Method, Status: botpay.SaleConfirmed,
			BuyerType: in.BuyerType, BuyerIdentifier: in.BuyerIdentifier, BuyerEmail: in.BuyerEmail, BuyerName: in.BuyerName,
			TxHash: in.TxHash, ExternalRef: in.ExternalRef, ConfirmedAt: now, CreatedAt: now}
		var err error
		switch {
		case in.LinkID != "":
			err = s.saleOfLink(ctx, tx, in, &sale, &res)
		case in.PageID == "" && in.BotID != "":
			err = saleOfResource(in, &sale)
		default:
			err = s.saleOfPage(ctx, tx, in, &sale, &res)
		}
		if err != nil {
			return err
		}
		if err := insertSale(ctx, tx, sale); err != nil {
			return err
		}
		switch {
		case res.Link != nil:
			err = completeLink(ctx, tx, res.Link.ID, sale.ID, now)
			res.Link.Completed, res.Link.SaleID, res.Link.PaidAt = true, sale.ID, now
		case res.Page != nil:
			_, err = tx.Exec(ctx, `UPDATE checkout_pages SET payment_count = payment_count + 1,
				total_received_cents = total_received_cents + $1 WHERE id = $2`, int64(sale.Amount), res.Page.ID)
			res.Page.PaymentCount++
			res.Page.TotalReceived += sale.Amount
		}
		if err != nil {
			return err
		}
		if res.Invoice != nil {
			if err := markInvoicePaid(ctx, tx, res.Invoice.ID, sale.ID, now); err != nil {
				return err
			}
			res.Invoice.Status, res.Invoice.SaleID, res.Invoice.PaidAt, res.Invoice.UpdatedAt = botpay.InvoicePaid, sale.ID, now, now
		}
		if !in.OnChain {
			if res.Wallet, res.Ledger, err = creditSale(ctx, tx, sale, now); err != nil {
				return err
			}
		}
		res.Sale = sale
		return s.outbox.Emit(tx, saleEvent(sale, now))
	}()
	return res, err
}

func (s *Service) saleOfPage(ctx context.Context, tx *kernel.Tx, in botpay.SaleInput, sale *botpay.Sale, res *botpay.SaleResult) error {
	page, err := lockPage(ctx, tx, in.PageID)
	if err != nil {
		return err
	}
	// A page's expiry ends its own offer; invoices billed through it stay
	// payable until paid or cancelled.
	if in.InvoiceRef == "" && page.Status(s.clock.Now()) == botpay.PageExpired {
		return botpay.Errorf(botpay.KindGone, botpay.CodeCheckoutPageExpired, "this checkout page has expired")
	}
	if !page.Allows(in.Method) {
		return botpay.Errorf(botpay.KindInvalid, botpay.CodeMethodNotAllowedOnPage, "this checkout page does not accept %s", in.Method)
	}
	res.Page = &page
	if in.InvoiceRef != "" {
		inv, err := lockInvoiceByRef(ctx, tx, page.ID, in.InvoiceRef)
		if err != nil {
			return err
		}
		if !inv.Payable() {
			return botpay.Errorf(botpay.KindConflict, botpay.CodeInvoiceNotPayable, "invoice %s is %s and cannot be paid", inv.ReferenceNumber, inv.Status)
		}
		res.Invoice = &inv
		sale.InvoiceID = inv.ID
	}
	if sale.Amount, err = botpay.SaleAmount(&page, res.Invoice, in.Amount); err != nil {
		return err
	}
	sale.BotID, sale.CheckoutPageID, sale.CheckoutTitle = page.BotID, page.ID, page.Title
	return nil
}

// saleOfResource is a sale of a bot's own resource, settled through the
// facilitator: no page or link to lock, the amount is what was paid.
func saleOfResource(in botpay.SaleInput, sale *botpay.Sale) error {
	if in.Amount == nil || *in.Amount <= 0 {
		return botpay.ValidationError(map[string]string{"amount": "must be a positive amount"})
	}
	sale.BotID, sale.Amount, sale.ResourceURL, sale.CheckoutTitle = in.BotID, *in.Amount, in.ResourceURL, in.ResourceURL
	return nil
}

func (s *Service) saleOfLink(ctx context.Context, tx *kernel.Tx, in botpay.SaleInput, sale *botpay.Sale, res *botpay.SaleResult) error {
	link, err := lockLink(ctx, tx, in.LinkID)
	if err != nil {
		return err
	}
	st := link.Status(s.clock.Now())
	if in.LinkHeld && st == botpay.LinkExpired {
		// The claim took the link while it was pending; the money it
		// brought is recorded even if the chain confirmed it after expiry.
		st = botpay.LinkPending
	}
	if st != botpay.LinkPending {
		return errLinkNotPending(st)
	}
	if !in.LinkHeld {
		if busy, err := s.claims.LinkBeingPaid(ctx, tx, link.ID); err != nil || busy {
			if err == nil {
				err = errLinkNotPending("being paid by an x402 payer")
			}
			return err
		}
	}
	if in.Amount != nil && *in.Amount != link.Amount {
		return botpay.ValidationError(map[string]string{"amount_usd": "must equal the link's amount " + link.Amount.USD()})
	}
	res.Link = &link
	sale.BotID, sale.PaymentLinkID, sale.CheckoutTitle, sale.Amount = link.BotID, link.ID, link.Description, link.Amount
	return nil
}

func insertSale(ctx context.Context, tx *kernel.Tx, s botpay.Sale) error {
	_, err := tx.Exec(ctx, `INSERT INTO sales (id, bot_id, checkout_page_id, payment_link_id, invoice_id, amount_cents,
		payment_method, status, buyer_type, buyer_identifier, buyer_email, buyer_name, tx_hash, external_ref, checkout_title,
		confirmed_at, created_at, resource_url) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
		s.ID, s.BotID, nullString(s.CheckoutPageID), nullString(s.PaymentLinkID), nullString(s.InvoiceID), int64(s.Amount),
		s.Method, s.Status, s.BuyerType, s.BuyerIdentifier, nullString(s.BuyerEmail), nullString(s.BuyerName),
		nullString(s.TxHash), nullString(s.ExternalRef), s.CheckoutTitle, nullMS(s.ConfirmedAt), ms(s.CreatedAt), nullString(s.ResourceURL))
	return err
}

// creditSale adds the sale to the bot's card wallet with its ledger row.
func creditSale(ctx context.Context, tx *kernel.Tx, s botpay.Sale, now time.Time) (botpay.Wallet, botpay.Transaction, error) {
	w := botpay.Wallet{BotID: s.BotID}
	err := tx.QueryRow(ctx, `UPDATE wallets SET balance_cents = balance_cents + $1, updated_at = $2 WHERE bot_id = $3
		RETURNING balance_cents, held_cents`, int64(s.Amount), ms(now), s.BotID).Scan(&w.Balance, &w.Held)
	if err != nil {
		return w, botpay.Transaction{}, err
	}
	desc := "Sale: " + s.CheckoutTitle
	switch {
	case s.PaymentLinkID != "":
		desc = "Payment link: " + s.CheckoutTitle
	case s.ResourceURL != "":
		desc = "x402 sale: " + s.ResourceURL
	}
	tr, err := ledger.Append(ctx, tx, s.BotID, botpay.TxSale, s.Amount, &w.Balance, desc, s.CreatedAt)
	return w, tr, err
}

func saleEvent(s botpay.Sale, now time.Time) botpay.Event {
	if s.PaymentLinkID != "" {
		return botpay.NewEvent(s.BotID, botpay.PaymentReceivedData{
			Amount: s.Amount, Currency: "USD", Source: "payment_link", ReferenceID: s.PaymentLinkID,
		}, now)
	}
	var email *string
	if s.BuyerEmail != "" {
		email = &s.BuyerEmail
	}
	return botpay.NewEvent(s.BotID, botpay.SaleCompletedData{
		SaleID: s.ID, Amount: s.Amount, Currency: "USD", BuyerEmail: email, Method: s.Method,
	}, now)
}

const saleColumns = `id, bot_id, checkout_page_id, payment_link_id, invoice_id, amount_cents, payment_method, status, buyer_type,
	buyer_identifier, buyer_email, buyer_name, tx_hash, external_ref, checkout_title, confirmed_at, created_at, refunded_cents, resource_url`

func scanSale(row interface{ Scan(...any) error }) (botpay.Sale, error) {
	var s botpay.Sale
	var page, link, inv, email, name, hash, ext, resource sql.NullString
	var confirmed sql.NullInt64
	var created int64
	err := row.Scan(&s.ID, &s.BotID, &page, &link, &inv, &s.Amount, &s.Method, &s.Status, &s.BuyerType, &s.BuyerIdentifier,
		&email, &name, &hash, &ext, &s.CheckoutTitle, &confirmed, &created, &s.Refunded, &resource)
	s.CheckoutPageID, s.PaymentLinkID, s.InvoiceID = page.String, link.String, inv.String
	s.BuyerEmail, s.BuyerName, s.TxHash, s.ExternalRef = email.String, name.String, hash.String, ext.String
	s.ConfirmedAt, s.CreatedAt, s.ResourceURL = fromNullMS(confirmed), fromMS(created), resource.String
	return s, err
}

// salesOf pages through a bot's sales, newest first.
func (s *Service) salesOf(ctx context.Context, botID string, f botpay.SaleFilter, page botpay.PageRequest) (botpay.Page[botpay.Sale], error) {
	q := `SELECT ` + saleColumns + `, seq FROM sales WHERE bot_id = $1`
	args := []any{botID}
	for _, c := range []struct{ col, val string }{
		{"checkout_page_id", f.CheckoutPageID}, {"status", f.Status}, {"payment_method", f.PaymentMethod},
	} {
		if c.val != "" {
			args = append(args, c.val)
			q += ` AND ` + c.col + ` = $` + strconv.Itoa(len(args))
		}
	}
	q, args = kernel.Keyset(q, args, "seq", kernel.NewestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, scanSale)
	return v, wrapErr(err, "sales %s", botID)
}

// SaleByTxHash finds the sale recorded for an on-chain payment.
func (s *Service) SaleByTxHash(ctx context.Context, hash string) (botpay.Sale, error) {
	sale, err := scanSale(s.db.QueryRow(ctx, `SELECT `+saleColumns+` FROM sales WHERE tx_hash = $1`, hash))
	if isNoRows(err) {
		return sale, botpay.ErrNotFound("sale")
	}
	return sale, wrapErr(err, "sale by tx hash")
}

// errLinkNotPending refuses a payment at a link that is not pending, or
// that another payer's authorization is already paying.
func errLinkNotPending(state string) error {
	return botpay.Errorf(botpay.KindConflict, botpay.CodePaymentLinkNotPending, "this payment link is %s and cannot be paid", state)
}
