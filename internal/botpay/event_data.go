package botpay

import "strconv"

// EventData is the data of one event type, as bots receive it in a webhook
// delivery or a pending message; its JSON tags are the wire contract
// (the EventData_<type> schemas of the OpenAPI document).
type EventData interface {
	EventType() string
}

// EventAmount is a dollar amount an event carries: Money (cents) for the
// card wallet, its purchases and sales, Micro (micro-USDC) for the processor
// wallet and its signing requests. Each encodes as the JSON number it has
// always been (12.50; 1.5), so one event type serves both rails without
// rounding a micro-USDC amount or reformatting a cent one.
type EventAmount interface {
	MarshalJSON() ([]byte, error)
	eventAmount()
}

func (Money) eventAmount() {}
func (Micro) eventAmount() {}

// EventCheckoutID is checkout_id of the purchase.* events: a held
// purchase's id (a string, pur_…), or a held signing request's integer id,
// which bots have always received as a JSON number equal to approval_id.
type EventCheckoutID struct {
	purchase string
	signing  int64
}

// PurchaseCheckoutID names a held card purchase.
func PurchaseCheckoutID(id string) EventCheckoutID { return EventCheckoutID{purchase: id} }

// SigningCheckoutID names a held signing request.
func SigningCheckoutID(id int64) EventCheckoutID { return EventCheckoutID{signing: id} }

func (c EventCheckoutID) MarshalJSON() ([]byte, error) {
	if c.purchase == "" {
		return strconv.AppendInt(nil, c.signing, 10), nil
	}
	return strconv.AppendQuote(nil, c.purchase), nil
}

// WalletActivatedData is wallet.activated: the owner claimed the bot.
type WalletActivatedData struct {
	WalletID string `json:"wallet_id"`
	Rail     string `json:"rail"`
	Message  string `json:"message"`
}

// WalletFundedData is wallet.funded. Rail is set for the processor
// wallet only (whose wallet_id is its address); the card wallet's event
// has never carried it.
type WalletFundedData struct {
	WalletID   string      `json:"wallet_id"`
	Rail       string      `json:"rail,omitempty"`
	Amount     EventAmount `json:"amount"`
	Currency   string      `json:"currency"`
	NewBalance EventAmount `json:"new_balance"`
}

// WalletTopupCompletedData is wallet.topup.completed: a funding covered
// one of the bot's top-up requests.
type WalletTopupCompletedData struct {
	WalletID   string `json:"wallet_id"`
	Amount     Money  `json:"amount"`
	Currency   string `json:"currency"`
	NewBalance Money  `json:"new_balance"`
}

// SpendAuthorizedData is wallet.spend.authorized.
type SpendAuthorizedData struct {
	Amount           Money  `json:"amount"`
	Currency         string `json:"currency"`
	Vendor           string `json:"vendor"`
	Description      string `json:"description"`
	RemainingBalance Money  `json:"remaining_balance"`
}

// SpendDeclinedData is wallet.spend.declined, of a card or a rail5
// checkout.
type SpendDeclinedData struct {
	Amount   Money  `json:"amount"`
	Currency string `json:"currency"`
	Vendor   string `json:"vendor"`
	Reason   string `json:"reason"`
}

// BalanceLowData is wallet.balance.low.
type BalanceLowData struct {
	WalletID       string `json:"wallet_id"`
	CurrentBalance Money  `json:"current_balance"`
	Currency       string `json:"currency"`
	Message        string `json:"message"`
}

// PaymentReceivedData is wallet.payment.received: a payment link was paid.
type PaymentReceivedData struct {
	Amount      Money  `json:"amount"`
	Currency    string `json:"currency"`
	Source      string `json:"source"`
	ReferenceID string `json:"reference_id"`
}

// SaleCompletedData is wallet.sale.completed. BuyerEmail is null, not
// absent, when the buyer gave none.
type SaleCompletedData struct {
	SaleID     string  `json:"sale_id"`
	Amount     Money   `json:"amount"`
	Currency   string  `json:"currency"`
	BuyerEmail *string `json:"buyer_email"`
	Method     string  `json:"method"`
}

// PurchaseApprovedData is purchase.approved, of a held card purchase or a
// held signing request. A signing request's adds what the bot needs to pay
// with it: approval_id, resource_url, the signed x_payment_header with its
// signature and valid_before, and the header paying the vendor's own offer
// when the request carried its 402.
type PurchaseApprovedData struct {
	CheckoutID             EventCheckoutID `json:"checkout_id"`
	ApprovalID             int64           `json:"approval_id,omitempty"`
	Amount                 EventAmount     `json:"amount"`
	Currency               string          `json:"currency"`
	Vendor                 string          `json:"vendor"`
	ResourceURL            string          `json:"resource_url,omitempty"`
	Description            string          `json:"description"`
	ApprovalMode           string          `json:"approval_mode"`
	XPaymentHeader         string          `json:"x_payment_header,omitempty"`
	Signature              string          `json:"signature,omitempty"`
	ValidBefore            int64           `json:"valid_before,omitempty"`
	PaymentSignatureHeader string          `json:"payment_signature_header,omitempty"`
	XPaymentStandardHeader string          `json:"x_payment_standard_header,omitempty"`
}

// PurchaseRejectedData is purchase.rejected, of a held card purchase or a
// held signing request (which adds approval_id and resource_url).
type PurchaseRejectedData struct {
	CheckoutID  EventCheckoutID `json:"checkout_id"`
	ApprovalID  int64           `json:"approval_id,omitempty"`
	Amount      EventAmount     `json:"amount"`
	Currency    string          `json:"currency"`
	Vendor      string          `json:"vendor"`
	ResourceURL string          `json:"resource_url,omitempty"`
	Reason      string          `json:"reason"`
}

// PurchaseExpiredData is purchase.expired, of a held card purchase or a
// held signing request (which adds approval_id).
type PurchaseExpiredData struct {
	CheckoutID EventCheckoutID `json:"checkout_id"`
	ApprovalID int64           `json:"approval_id,omitempty"`
	Amount     EventAmount     `json:"amount"`
	Currency   string          `json:"currency"`
	Vendor     string          `json:"vendor"`
	Message    string          `json:"message"`
}

// Rail5CardDeliveredData is rail5.card.delivered. Its file_content is
// scrubbed from the stored event once the bot confirms delivery.
type Rail5CardDeliveredData struct {
	CardID        string `json:"card_id"`
	CardName      string `json:"card_name"`
	CardLast4     string `json:"card_last4"`
	FileContent   string `json:"file_content"`
	SuggestedPath string `json:"suggested_path"`
	Instructions  string `json:"instructions"`
}

// Rail5CheckoutCompletedData is rail5.checkout.completed.
type Rail5CheckoutCompletedData struct {
	CardID      string `json:"card_id"`
	Amount      Money  `json:"amount"`
	Currency    string `json:"currency"`
	Vendor      string `json:"vendor"`
	Description string `json:"description"`
}

// Rail5CheckoutFailedData is rail5.checkout.failed.
type Rail5CheckoutFailedData struct {
	CardID   string `json:"card_id"`
	Amount   Money  `json:"amount"`
	Currency string `json:"currency"`
	Vendor   string `json:"vendor"`
	Reason   string `json:"reason"`
}

// RailsUpdatedData is rails.updated. Rail is null for a change of no
// rail (a rotated API key, which adds previous_key_expires_at).
type RailsUpdatedData struct {
	Action               string     `json:"action"`
	Rail                 *string    `json:"rail"`
	BotID                string     `json:"bot_id"`
	Message              string     `json:"message"`
	PreviousKeyExpiresAt *Timestamp `json:"previous_key_expires_at,omitempty"`
}

// RefundCompletedData is wallet.refund.completed: checkout_id for a
// refunded purchase, sale_id for a refunded sale. Reason is present even
// when empty.
type RefundCompletedData struct {
	RefundID   string `json:"refund_id"`
	Amount     Money  `json:"amount"`
	Currency   string `json:"currency"`
	NewBalance Money  `json:"new_balance"`
	Reason     string `json:"reason"`
	CheckoutID string `json:"checkout_id,omitempty"`
	SaleID     string `json:"sale_id,omitempty"`
}

func (WalletActivatedData) EventType() string        { return EventWalletActivated }
func (WalletFundedData) EventType() string           { return EventWalletFunded }
func (WalletTopupCompletedData) EventType() string   { return EventWalletTopupCompleted }
func (SpendAuthorizedData) EventType() string        { return EventSpendAuthorized }
func (SpendDeclinedData) EventType() string          { return EventSpendDeclined }
func (BalanceLowData) EventType() string             { return EventBalanceLow }
func (PaymentReceivedData) EventType() string        { return EventWalletPaymentReceived }
func (SaleCompletedData) EventType() string          { return EventWalletSaleCompleted }
func (PurchaseApprovedData) EventType() string       { return EventPurchaseApproved }
func (PurchaseRejectedData) EventType() string       { return EventPurchaseRejected }
func (PurchaseExpiredData) EventType() string        { return EventPurchaseExpired }
func (Rail5CardDeliveredData) EventType() string     { return EventRail5Delivered }
func (Rail5CheckoutCompletedData) EventType() string { return EventRail5Completed }
func (Rail5CheckoutFailedData) EventType() string    { return EventRail5Failed }
func (RailsUpdatedData) EventType() string           { return EventRailsUpdated }
func (RefundCompletedData) EventType() string        { return EventRefundCompleted }
