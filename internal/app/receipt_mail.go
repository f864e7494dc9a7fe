package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/ratelimit"
)

// receipts is how internal/earning mails buyers their receipts: through
// the owner mail (retried when the mail server fails), within the store's
// rate-limit windows.
func (s *Service) receipts(c Config) earning.Receipts {
	return earning.Receipts{Mail: s.ownerMail, Limits: receiptLimits{s.windows},
		BaseURL: s.baseURL, PerBotPerDay: s.limits.ReceiptMailsPerBotPerDay, PerAddressPerDay: s.limits.ReceiptMailsPerAddressPerDay}
}

// sellerNames names the seller of a receipt from internal/bots, which
// app.New builds after internal/earning.
type sellerNames struct{ s *Service }

func (n sellerNames) SellerName(ctx context.Context, botID string) (string, error) {
	b, err := n.s.bots.Bot(ctx, botID)
	return b.Name, err
}

// receiptLimits counts receipts in the store's windows, unannounced: they
// are no answer's RateLimit headers.
type receiptLimits struct{ w *ratelimit.Windows }

func (l receiptLimits) TakeMailLimits(ctx context.Context, limits []earning.MailLimit) error {
	all := make([]ratelimit.Limit, len(limits))
	for i, m := range limits {
		all[i] = ratelimit.Limit{Bucket: m.Bucket, Max: m.Max, Window: m.Window, Unannounced: true}
	}
	return l.w.TakeAll(ctx, all)
}

// mailReceipt sends the receipt of a sale recorded inside a transaction of
// this package's (x402 settlement), once it has committed.
func (s *Service) mailReceipt(ctx context.Context, res botpay.SaleResult) {
	s.earning.MailReceipt(ctx, res)
}
