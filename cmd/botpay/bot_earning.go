package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"

	"github.com/botpay/botpay/client"
)

func transactionsVerb() botVerb {
	return listVerb(listing[client.Transaction]{verb: "transactions", field: "transactions",
		columns: []string{"ID", "TYPE", "AMOUNT", "BALANCE AFTER", "CREATED", "DESCRIPTION"},
		row: func(tx client.Transaction) []string {
			return []string{strconv.FormatInt(tx.ID, 10), tx.Type, usdNumber(tx.AmountUSD), usdNumberOrNone(tx.BalanceAfterUSD), stamp(tx.CreatedAt.Time), tx.Description}
		},
		page: func(ctx context.Context, c *client.Client, l client.ListOptions) (*client.Page[client.Transaction], error) {
			return c.TransactionsPage(ctx, l)
		}}, nil)
}

func pagesVerb() botVerb {
	return listVerb(listing[client.CheckoutPage]{verb: "pages", field: "checkout_pages",
		columns: []string{"ID", "TITLE", "AMOUNT", "STATUS", "TYPE", "URL"},
		row: func(p client.CheckoutPage) []string {
			return []string{p.CheckoutPageID, p.Title, usdOrNone(p.AmountUSD), p.Status, p.PageType, p.CheckoutURL}
		},
		page: func(ctx context.Context, c *client.Client, l client.ListOptions) (*client.Page[client.CheckoutPage], error) {
			return c.CheckoutPagesPage(ctx, l)
		}}, nil)
}

func invoicesVerb() botVerb {
	var f client.InvoiceFilter
	return listVerb(listing[client.Invoice]{verb: "invoices", field: "invoices",
		columns: []string{"ID", "REFERENCE", "STATUS", "TOTAL", "RECIPIENT", "DUE"},
		row: func(i client.Invoice) []string {
			return []string{i.InvoiceID, i.ReferenceNumber, i.Status, usd(i.TotalUSD), i.RecipientEmail, i.DueDate.UTC().Format("2006-01-02")}
		},
		page: func(ctx context.Context, c *client.Client, l client.ListOptions) (*client.Page[client.Invoice], error) {
			return c.InvoicesPage(ctx, f, l)
		}}, func(fs *flag.FlagSet) {
		fs.StringVar(&f.Status, "status", "", "only invoices of this status")
		fs.StringVar(&f.CheckoutPageID, "page", "", "only invoices of this checkout page")
	})
}

func salesVerb() botVerb {
	var f client.SaleFilter
	return listVerb(listing[client.Sale]{verb: "sales", field: "sales",
		columns: []string{"ID", "AMOUNT", "METHOD", "STATUS", "BUYER", "CREATED", "TX"},
		row: func(s client.Sale) []string {
			return []string{s.SaleID, usd(s.AmountUSD), s.PaymentMethod, s.Status, s.BuyerType, stamp(s.CreatedAt.Time), orDashPtr(s.TXHash)}
		},
		page: func(ctx context.Context, c *client.Client, l client.ListOptions) (*client.Page[client.Sale], error) {
			return c.SalesPage(ctx, f, l)
		}}, func(fs *flag.FlagSet) {
		fs.StringVar(&f.Status, "status", "", "only sales of this status")
		fs.StringVar(&f.CheckoutPageID, "page", "", "only sales of this checkout page")
		fs.StringVar(&f.PaymentMethod, "method", "", "only sales paid this way")
	})
}

var messagesListing = listing[client.PendingMessage]{verb: "messages", field: "messages",
	columns: []string{"ID", "EVENT", "AT", "DATA"},
	row: func(m client.PendingMessage) []string {
		return []string{strconv.FormatInt(m.MessageID, 10), m.Event, stamp(m.Timestamp.Time), compactJSON(m.Data)}
	},
	page: func(ctx context.Context, c *client.Client, l client.ListOptions) (*client.Page[client.PendingMessage], error) {
		return c.MessagesPage(ctx, l)
	}}

// messagesVerb lists pending messages, or with `ack ID...` acknowledges
// them.
func messagesVerb() botVerb {
	list := listVerb(messagesListing, nil)
	return botVerb{flags: list.flags, run: func(ctx context.Context, s *botSession, args []string) error {
		if len(args) == 0 || args[0] != "ack" {
			return list.run(ctx, s, args)
		}
		return ackMessages(ctx, s, args[1:])
	}}
}

func ackMessages(ctx context.Context, s *botSession, args []string) error {
	if len(args) == 0 {
		return usageError("botpay bot messages ack needs message ids")
	}
	ids := make([]int64, len(args))
	for i, a := range args {
		id, err := strconv.ParseInt(a, 10, 64)
		if err != nil || id <= 0 {
			return usageError("message id %q is not a positive integer", a)
		}
		ids[i] = id
	}
	res, err := s.api.Ack(ctx, ids, idempotencyKey(""))
	if err != nil {
		return err
	}
	if s.json {
		printRaw(s.out, s.answer.last())
		return nil
	}
	fields(s.out, "acknowledged", joinIDs(res.Acknowledged), "not found", joinIDs(res.NotFound))
	return nil
}

func joinIDs(ids []int64) string {
	if len(ids) == 0 {
		return "-"
	}
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprint(id)
	}
	return out
}
