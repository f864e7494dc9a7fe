package facilitator

import (
	"context"
	"strconv"

	"github.com/botpay/botpay/internal/x402"
)

// Payee is what the facilitator needs of the service: the token, the
// calling bot's processor wallet, the rate limits, and the one x402
// settlement path (sandbox settler or relayer) that records each payment
// as a sale of the bot.
type Payee interface {
	Domain() x402.Domain
	Live() bool
	// Relayer is the address that sends settlements on chain; false in
	// sandbox mode.
	Relayer() (x402.Address, bool)
	// TakeFacilitatorCall counts one call (CallVerify or CallSettle) of
	// the bot, or refuses it with rate_limited.
	TakeFacilitatorCall(ctx context.Context, botID, call string) error
	// ProcessorAddress is the bot's processor wallet; false when it has none.
	ProcessorAddress(ctx context.Context, botID string) (x402.Address, bool, error)
	// CheckX402Resource runs every check of a settlement without sending
	// anything; reason is "" when the payment would settle.
	CheckX402Resource(ctx context.Context, p Payment) (reason string, err error)
	// SettleX402Resource settles once per authorization and records the
	// sale; the same authorization again answers the first transaction.
	// reason is the x402 error code of a refused payment.
	SettleX402Resource(ctx context.Context, p Payment) (tx, reason string, err error)
}

// Payment is a checked request on its way to the payee.
type Payment struct {
	BotID       string
	ResourceURL string
	Payment     x402.Payment
	PayTo       x402.Address
	Amount      uint64 // micro-units, whole cents
}

// The calls counted by the rate limit.
const (
	CallVerify = "verify"
	CallSettle = "settle"
)

// Facilitator answers a bot's facilitator calls.
type Facilitator struct{ Payee Payee }

// Kind is one (version, scheme, network) the facilitator settles.
type Kind struct {
	X402Version int    `json:"x402Version"`
	Scheme      string `json:"scheme"`
	Network     string `json:"network"`
}

// SupportedResponse is the answer of GET …/supported.
type SupportedResponse struct {
	Kinds      []Kind              `json:"kinds"`
	Extensions []string            `json:"extensions"`
	Signers    map[string][]string `json:"signers"`
}

// VerifyResponse is the answer of POST …/verify.
type VerifyResponse struct {
	IsValid        bool           `json:"isValid"`
	InvalidReason  string         `json:"invalidReason,omitempty"`
	InvalidMessage string         `json:"invalidMessage,omitempty"`
	Payer          string         `json:"payer,omitempty"`
	Extra          map[string]any `json:"extra,omitempty"`
}

// SettleResponse is the answer of POST …/settle. A failed settlement still
// names transaction ("") and network: the stock middleware reads both.
type SettleResponse struct {
	Success      bool           `json:"success"`
	ErrorReason  string         `json:"errorReason,omitempty"`
	ErrorMessage string         `json:"errorMessage,omitempty"`
	Payer        string         `json:"payer,omitempty"`
	Transaction  string         `json:"transaction"`
	Network      string         `json:"network"`
	Amount       string         `json:"amount,omitempty"`
	Extra        map[string]any `json:"extra,omitempty"`
}

// Supported names the one chain and token of the service in both
// versions: the exact CAIP-2 id, which the stock middleware matches
// exactly at start.
func (f Facilitator) Supported() SupportedResponse {
	d := f.Payee.Domain()
	signers := []string{}
	if relayer, ok := f.Payee.Relayer(); ok {
		signers = append(signers, relayer.Hex())
	}
	return SupportedResponse{
		Kinds: []Kind{{X402Version: x402.Version, Scheme: x402.Scheme, Network: d.Network()},
			{X402Version: x402.Version2, Scheme: x402.Scheme, Network: d.CAIP2()}},
		Extensions: []string{x402.ExtensionPaymentIdentifier},
		Signers:    map[string][]string{"eip155:*": signers},
	}
}

// Verify runs every check of a settlement without sending anything. The
// error is a rate limit, a body that is no facilitator call (ErrBody), or
// a failure of the service; a payment that would not settle is a valid
// answer with isValid false.
func (f Facilitator) Verify(ctx context.Context, botID string, body []byte) (VerifyResponse, error) {
	if err := f.Payee.TakeFacilitatorCall(ctx, botID, CallVerify); err != nil {
		return VerifyResponse{}, err
	}
	req, pay, err := f.check(ctx, botID, body)
	out := VerifyResponse{Payer: payerOf(req), Extra: f.modeExtra()}
	if err == nil {
		var reason string
		if reason, err = f.Payee.CheckX402Resource(ctx, pay); err == nil && reason != "" {
			err = refuse(reason, "%s", reasonMessage(reason))
		}
	}
	if refusal, ok := err.(*Refusal); ok {
		out.InvalidReason, out.InvalidMessage = refusal.Reason, refusal.Message
		return out, nil
	}
	out.IsValid = err == nil
	return out, err
}

// Settle settles a payment into the calling bot's processor wallet, once
// per authorization.
func (f Facilitator) Settle(ctx context.Context, botID string, body []byte) (SettleResponse, error) {
	if err := f.Payee.TakeFacilitatorCall(ctx, botID, CallSettle); err != nil {
		return SettleResponse{}, err
	}
	req, pay, err := f.check(ctx, botID, body)
	out := SettleResponse{Payer: payerOf(req), Network: req.Network, Extra: f.modeExtra()}
	if out.Network == "" {
		out.Network = f.Payee.Domain().CAIP2()
	}
	if err == nil {
		var tx, reason string
		tx, reason, err = f.Payee.SettleX402Resource(ctx, pay)
		if err == nil && reason != "" {
			err = refuse(reason, "%s", reasonMessage(reason))
		}
		out.Transaction = tx
	}
	if refusal, ok := err.(*Refusal); ok {
		out.Transaction, out.ErrorReason, out.ErrorMessage = "", refusal.Reason, refusal.Message
		return out, nil
	}
	if err != nil {
		return SettleResponse{}, err
	}
	out.Success, out.Amount = true, strconv.FormatUint(req.Amount, 10)
	return out, nil
}

// check reads the request and refuses what this facilitator never
// settles: another chain or token, a payee other than the bot's own
// processor wallet, an amount the sales ledger (whole cents) cannot hold.
func (f Facilitator) check(ctx context.Context, botID string, body []byte) (Request, Payment, error) {
	req, err := ParseRequest(body)
	if err != nil {
		return req, Payment{}, err
	}
	d := f.Payee.Domain()
	if (req.Version == x402.Version && req.Network != d.Network()) || (req.Version == x402.Version2 && req.Network != d.CAIP2()) {
		return req, Payment{}, refuse(ReasonWrongNetwork, "this facilitator settles on %s (%s) only", d.CAIP2(), d.Network())
	}
	if req.Asset != d.Contract {
		return req, Payment{}, refuse(ReasonWrongToken, "this facilitator settles the token %s only", d.Contract.Hex())
	}
	own, ok, err := f.Payee.ProcessorAddress(ctx, botID)
	if err != nil {
		return req, Payment{}, err
	}
	if !ok || own != req.PayTo {
		return req, Payment{}, refuse(ReasonInvalidPayee, "payTo must be the calling bot's own processor wallet")
	}
	if req.Amount == 0 || req.Amount%microPerCent != 0 {
		return req, Payment{}, refuse(ReasonAmountNotCents, "the amount must be a positive whole number of cents (a multiple of %d micro-units)", microPerCent)
	}
	return req, Payment{BotID: botID, ResourceURL: req.ResourceURL, Payment: req.Payment, PayTo: req.PayTo, Amount: req.Amount}, nil
}

// microPerCent: sales are recorded in cents, so a settled amount must be
// a whole number of them.
const microPerCent = 10_000

func payerOf(r Request) string {
	if r.Payment.Authorization.From.IsZero() {
		return ""
	}
	return r.Payment.Authorization.From.Hex()
}

// modeExtra marks every answer of a sandbox service: nothing moved on a
// chain, the transaction is simulated.
func (f Facilitator) modeExtra() map[string]any {
	if f.Payee.Live() {
		return nil
	}
	return map[string]any{"sandbox": true}
}
