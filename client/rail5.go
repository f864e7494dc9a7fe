package client

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/botpay/botpay/wire"
)

// Rail5 error codes (docs/decisions.md, docs/decisions.md).
const (
	CodeInvalidCardStatus     = "invalid_card_status"
	CodeApprovalRequired      = "approval_required"
	CodeKeyAlreadyReleased    = "key_already_released"
	CodeInvalidCheckoutStatus = "invalid_checkout_status"
)

// NewRail5Card is the body of CreateRail5Card (POST
// /api/v1/owner/bots/{bot_id}/rail5-cards). The full number only ever
// travels inside the encrypted card file the service sends to the bot.
// Number, CVV, ExpiryMonth and ExpiryYear are strings or integers.
type NewRail5Card = wire.CreateRail5CardRequest

// Rail5Card is the answer of CreateRail5Card: Status is "pending_delivery",
// then "confirmed".
type Rail5Card = wire.CreateRail5CardResponse

// CreateRail5Card registers a card; the bot receives it as a
// rail5.card.delivered event carrying the encrypted card file.
func (o *OwnerClient) CreateRail5Card(ctx context.Context, botID string, c NewRail5Card, opts ...CallOption) (*Rail5Card, error) {
	var out Rail5Card
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/rail5-cards"), c, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Rail5Delivery is the answer of ConfirmRail5Delivery.
type Rail5Delivery = wire.ConfirmRail5DeliveryResponse

// ConfirmRail5Delivery tells the service the card file is saved; the
// service then drops its copy. cardID may be empty (the oldest card
// awaiting delivery). 404 card_not_found without a card, 409
// invalid_card_status when none awaits delivery.
func (c *Client) ConfirmRail5Delivery(ctx context.Context, cardID string, opts ...CallOption) (*Rail5Delivery, error) {
	var in any
	if cardID != "" {
		in = wire.ConfirmRail5DeliveryRequest{CardID: &cardID}
	}
	var out Rail5Delivery
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/rail5/confirm-delivery", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Rail5CheckoutRequest is the body of Rail5Checkout (POST
// /api/v1/bot/rail5/checkout).
type Rail5CheckoutRequest = wire.Rail5CheckoutRequest

// Rail5Checkout is a rail5 spend, the answer of Rail5Checkout, Rail5Key and
// Rail5Complete: Status is approved, key_released, completed or failed; Key
// and Alg are set only by Rail5Key.
type Rail5Checkout = wire.Rail5Checkout

// Rail5Checkout asks to spend with a confirmed rail5 card: the same
// guardrails as Checkout, but a spend that would need the owner's approval
// is refused (403 approval_required).
func (c *Client) Rail5Checkout(ctx context.Context, req Rail5CheckoutRequest, opts ...CallOption) (*Rail5Checkout, error) {
	var out Rail5Checkout
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/rail5/checkout", req, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Rail5Key releases the card key of an approved rail5 checkout, once
// (409 key_already_released afterwards). Open the file with
// DecryptCardFile.
func (c *Client) Rail5Key(ctx context.Context, checkoutID string, opts ...CallOption) (*Rail5Checkout, error) {
	var out Rail5Checkout
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/rail5/key", wire.Rail5KeyRequest{CheckoutID: checkoutID}, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Rail5Complete reports the outcome of a rail5 checkout; reason is required
// when success is false.
func (c *Client) Rail5Complete(ctx context.Context, checkoutID string, success bool, reason string, opts ...CallOption) (*Rail5Checkout, error) {
	in := wire.Rail5CompleteRequest{CheckoutID: checkoutID, Success: success, Reason: optional(reason)}
	var out Rail5Checkout
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/rail5/complete", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// CardDetails are the contents of a rail5 card file. Keep them in memory
// only for the payment.
type CardDetails struct {
	Number      string `json:"number"`
	CVV         string `json:"cvv"`
	ExpiryMonth string `json:"expiry_month"`
	ExpiryYear  string `json:"expiry_year"`
	HolderName  string `json:"holder_name"`
}

// DecryptCardFile opens a card file (the file_content of
// rail5.card.delivered) with the base64 key of Rail5Key. The file is JSON
// {format "botpay.rail5.card", version 1, card_id, alg "AES-256-GCM", nonce,
// ciphertext} with base64 nonce and ciphertext; the associated data is
// "botpay.rail5.card:v1:" + card_id.
func DecryptCardFile(keyBase64, fileContent string) (*CardDetails, error) {
	var f struct {
		Format     string `json:"format"`
		Version    int    `json:"version"`
		CardID     string `json:"card_id"`
		Nonce      string `json:"nonce"`
		Ciphertext string `json:"ciphertext"`
	}
	if err := json.Unmarshal([]byte(fileContent), &f); err != nil || f.Format != "botpay.rail5.card" || f.Version != 1 {
		return nil, errors.New("botpay: not a rail5 card file")
	}
	key, err := base64.StdEncoding.DecodeString(keyBase64)
	if err != nil || len(key) != 32 {
		return nil, errors.New("botpay: the card key must be 32 bytes of base64")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	nonce, err1 := base64.StdEncoding.DecodeString(f.Nonce)
	sealed, err2 := base64.StdEncoding.DecodeString(f.Ciphertext)
	if err1 != nil || err2 != nil || len(nonce) != gcm.NonceSize() {
		return nil, errors.New("botpay: malformed card file")
	}
	plain, err := gcm.Open(nil, nonce, sealed, []byte(fmt.Sprintf("botpay.rail5.card:v1:%s", f.CardID)))
	if err != nil {
		return nil, errors.New("botpay: wrong key or damaged card file")
	}
	var d CardDetails
	if err := json.Unmarshal(plain, &d); err != nil {
		return nil, err
	}
	return &d, nil
}
