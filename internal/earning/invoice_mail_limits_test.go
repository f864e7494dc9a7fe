package earning

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// The defaults are DESIGN's: 50 invoice e-mails per bot and 200 per owner
// in a rolling day, the bot's limit taken first.
func TestInvoiceMailLimitsDefaultTo50PerBotAnd200PerOwnerADay(t *testing.T) {
	s := &Service{limits: OfferLimits{}.withDefaults()}
	got := s.invoiceMailLimits(botpay.Bot{ID: "bot_1", OwnerID: "own_1"})
	if len(got) != 2 || got[0].Bucket != "invoice-mails-bot:bot_1" || got[0].Max != 50 || got[0].Window != 24*time.Hour ||
		got[1].Bucket != "invoice-mails-owner:own_1" || got[1].Max != 200 || got[1].Window != 24*time.Hour {
		t.Fatalf("limits = %+v", got)
	}
}
