package botpay

import (
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"
)

// Payment methods a checkout page may allow (docs/api.md).
const (
	MethodX402            = "x402"
	MethodUSDCDirect      = "usdc_direct"
	MethodProcessorOnramp = "processor_onramp"
	MethodL2Pay           = "l2_pay"
)

// methodLabels name the methods for a buyer, in plain words (pages,
// receipts and receipt e-mails).
var methodLabels = map[string]string{
	MethodProcessorOnramp: "Card",
	MethodUSDCDirect:      "USDC transfer",
	MethodL2Pay:           "Crypto on Base",
	MethodX402:            "USDC from a wallet or an agent",
}

// MethodLabel names a payment method for a buyer; an unknown one keeps its
// API name.
func MethodLabel(m string) string {
	if label, ok := methodLabels[m]; ok {
		return label
	}
	return m
}

// CheckoutMethods lists every method in the interface's order.
var CheckoutMethods = []string{MethodX402, MethodUSDCDirect, MethodProcessorOnramp, MethodL2Pay}

// Checkout page types (docs/api.md).
const (
	PageProduct        = "product"
	PageEvent          = "event"
	PageDigitalProduct = "digital_product"
)

// Checkout page, payment link, invoice and sale states.
const (
	PageActive  = "active"
	PageExpired = "expired"

	LinkPending   = "pending"
	LinkCompleted = "completed"
	LinkExpired   = "expired"

	InvoiceDraft     = "draft"
	InvoiceSent      = "sent"
	InvoiceViewed    = "viewed"
	InvoicePaid      = "paid"
	InvoiceCancelled = "cancelled"

	SaleConfirmed = "confirmed"
	SalePending   = "pending"
)

// Buyer types of a sale (docs/api.md).
const (
	BuyerWallet = "wallet"
	BuyerEmail  = "email"
)

// Events of the earning side (docs/api.md).
const (
	EventWalletSaleCompleted         = "wallet.sale.completed"
	EventWalletPaymentReceived       = "wallet.payment.received"
	PaymentLinkLifetime              = 24 * time.Hour
	InvoiceDefaultDue                = 30 * 24 * time.Hour
	MinPaymentLink             Money = 50
	MaxPaymentLink             Money = 1_000_000
)

// Error codes of the earning side (docs/api.md, docs/decisions.md).
const (
	CodeCheckoutPageNotFound   = "checkout_page_not_found"
	CodeCheckoutPageExpired    = "checkout_page_expired"
	CodeMissingInvoiceID       = "missing_invoice_id"
	CodeOnlyDraftsCanBeSent    = "only_draft_invoices_can_be_sent"
	CodeSendFailed             = "send_failed"
	CodePaymentLinkNotPending  = "payment_link_not_pending"
	CodeInvoiceNotPayable      = "invoice_not_payable"
	CodeInvoiceAlreadyPaid     = "invoice_already_paid"
	CodeMethodNotAllowedOnPage = "method_not_allowed_on_page"
	CodeDuplicatePayment       = "duplicate_payment"
)

// ErrCheckoutPageNotFound is the 404 for pages that are missing or another
// bot's.
var ErrCheckoutPageNotFound = &Error{Kind: KindNotFound, Code: CodeCheckoutPageNotFound, Message: "checkout page not found"}

// CheckoutPage is a bot's hosted page (docs/api.md). Amount is nil for
// pay-what-you-want; ExpiresAt is zero when the page never expires.
type CheckoutPage struct {
	ID             string
	BotID          string
	Title          string
	Description    string
	Amount         *Money
	AmountLocked   bool
	AllowedMethods []string
	// ContactEmail and RefundPolicy complete the seller line buyers see
	// on the page, its invoices and receipts ("" when not given).
	ContactEmail      string
	RefundPolicy      string
	SuccessURL        string
	PageType          string
	DigitalProductURL string
	ImageURL          string
	CollectBuyerName  bool
	ViewCount         int64
	PaymentCount      int64
	TotalReceived     Money
	CreatedAt         time.Time
	ExpiresAt         time.Time
}

// Status is "expired" once ExpiresAt has passed, "active" otherwise.
func (p *CheckoutPage) Status(now time.Time) string {
	if !p.ExpiresAt.IsZero() && !now.Before(p.ExpiresAt) {
		return PageExpired
	}
	return PageActive
}

// Allows reports whether the page accepts method.
func (p *CheckoutPage) Allows(method string) bool {
	for _, m := range p.AllowedMethods {
		if m == method {
			return true
		}
	}
	return false
}

// AcceptsWallet reports whether a buyer's wallet may pay the page with a
// signed USDC transfer (x402 or usdc_direct).
func (p *CheckoutPage) AcceptsWallet() bool {
	return p.Allows(MethodX402) || p.Allows(MethodUSDCDirect)
}

// WalletMethod is the method a signed USDC transfer is recorded as on the
// page: x402 where the page accepts it, otherwise usdc_direct (a page that
// accepts only direct USDC transfers is paid through the same route).
func (p *CheckoutPage) WalletMethod() string {
	if p.Allows(MethodX402) || !p.Allows(MethodUSDCDirect) {
		return MethodX402
	}
	return MethodUSDCDirect
}

// PaymentLink is a one-off request for money (docs/api.md).
type PaymentLink struct {
	ID          string
	BotID       string
	Amount      Money
	Description string
	PayerEmail  string
	Completed   bool
	SaleID      string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	PaidAt      time.Time
}

// Status is derived so that a link is "expired" the moment ExpiresAt passes,
// whether or not anything touched it (docs/decisions.md).
func (l *PaymentLink) Status(now time.Time) string {
	switch {
	case l.Completed:
		return LinkCompleted
	case !now.Before(l.ExpiresAt):
		return LinkExpired
	default:
		return LinkPending
	}
}

// LineItem is one invoice line. Quantity is a decimal text ("2", "1.5").
type LineItem struct {
	Description string
	Quantity    string
	UnitPrice   Money
	Amount      Money
}

// MaxQuantity bounds one line's quantity.
const MaxQuantity = 1_000_000

// ParseQuantity reads a positive quantity with at most four decimals and
// returns its canonical text.
func ParseQuantity(text string) (string, error) {
	r, err := ParseDecimal(text)
	if err != nil {
		return "", fmt.Errorf("must be a number")
	}
	if r.Sign() <= 0 {
		return "", fmt.Errorf("must be greater than 0")
	}
	if r.Cmp(big.NewRat(MaxQuantity, 1)) > 0 {
		return "", fmt.Errorf("must be at most %d", MaxQuantity)
	}
	scaled := new(big.Rat).Mul(r, big.NewRat(10000, 1))
	if !scaled.IsInt() {
		return "", fmt.Errorf("must have at most 4 decimal places")
	}
	s := r.FloatString(4)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s, nil
}

// LineAmount is quantity × unit price, rounded half away from zero to the
// cent (both are non-negative).
func LineAmount(quantity string, unit Money) Money {
	q, err := ParseDecimal(quantity)
	if err != nil {
		return 0
	}
	v := new(big.Rat).Mul(q, big.NewRat(int64(unit), 1))
	v.Add(v, big.NewRat(1, 2))
	return Money(new(big.Int).Quo(v.Num(), v.Denom()).Int64())
}

// Invoice is a bill a bot sends (docs/api.md).
type Invoice struct {
	ID              string
	BotID           string
	ReferenceNumber string
	CheckoutPageID  string
	Status          string
	RecipientName   string
	RecipientEmail  string
	RecipientType   string
	LineItems       []LineItem
	Subtotal        Money
	Tax             Money
	Total           Money
	DueDate         time.Time
	SenderName      string
	SenderEmail     string
	Notes           string
	SaleID          string
	SentAt          time.Time
	ViewedAt        time.Time
	PaidAt          time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
	Refunded        Money // what refunds of the paying sale gave back
	// PayToken is the unguessable token of the payment URL. It is derived
	// from the invoice id (never stored) and set by the use cases that hand
	// the invoice to its bot, owner or buyer.
	PayToken string
}

// PaymentURL is the relative buyer page of the invoice, with its token.
func (i *Invoice) PaymentURL() string {
	return "/pay/" + i.CheckoutPageID + "?" + i.PayQuery()
}

// PayQuery is the query naming the invoice on its page's buyer URLs
// (page, PDF, x402): ref and the token t.
func (i *Invoice) PayQuery() string {
	q := "ref=" + url.QueryEscape(i.ReferenceNumber)
	if i.PayToken != "" {
		q += "&t=" + url.QueryEscape(i.PayToken)
	}
	return q
}

// Payable reports whether a buyer may pay the invoice now.
func (i *Invoice) Payable() bool {
	switch i.Status {
	case InvoiceDraft, InvoiceSent, InvoiceViewed:
		return i.Total > 0
	}
	return false
}

// FormatReference renders INV-YYYY-NNNNNN.
func FormatReference(year int, seq int64) string {
	return fmt.Sprintf("INV-%04d-%06d", year, seq)
}

// Sale is one payment received (docs/api.md).
type Sale struct {
	ID              string
	BotID           string
	CheckoutPageID  string // empty for payment-link sales
	PaymentLinkID   string // empty for checkout-page sales
	InvoiceID       string
	Amount          Money
	Method          string
	Status          string
	BuyerType       string
	BuyerIdentifier string
	BuyerEmail      string
	BuyerName       string
	TxHash          string
	ExternalRef     string
	CheckoutTitle   string
	ConfirmedAt     time.Time
	CreatedAt       time.Time
	Refunded        Money // what refunds of this sale gave back so far
	// ResourceURL names what an x402 payment settled through the
	// facilitator bought (a resource of the bot's own API); such a sale has
	// no checkout page or payment link.
	ResourceURL string
}

// SaleAmount decides what a buyer pays on a checkout page: an invoice's
// total, a locked price, or the buyer's own amount where the page lets
// them choose. requested is nil when the buyer named no amount.
func SaleAmount(p *CheckoutPage, inv *Invoice, requested *Money) (Money, error) {
	invalid := func(msg string) error { return ValidationError(map[string]string{"amount_usd": msg}) }
	switch {
	case inv != nil:
		if requested != nil && *requested != inv.Total {
			return 0, invalid("must equal the invoice total " + inv.Total.USD())
		}
		return inv.Total, nil
	case p.Amount != nil && (p.AmountLocked || requested == nil):
		if requested != nil && *requested != *p.Amount {
			return 0, invalid("must equal the page's price " + p.Amount.USD())
		}
		return *p.Amount, nil
	case requested == nil:
		return 0, invalid("is required: this page lets the buyer choose the amount")
	case *requested <= 0:
		return 0, invalid("must be greater than 0")
	case *requested > MaxPageAmount:
		return 0, invalid("must be at most " + MaxPageAmount.USD())
	}
	return *requested, nil
}

// MaxPageAmount bounds a checkout page's price and a buyer's chosen amount.
const MaxPageAmount Money = 100_000_000
