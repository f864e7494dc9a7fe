package x402

import (
	"encoding/base64"
	"encoding/json"
)

// Requirement is one entry of the accepts list of a 402 answer (x402 v1).
type Requirement struct {
	Scheme            string            `json:"scheme"`
	Network           string            `json:"network"`
	MaxAmountRequired string            `json:"maxAmountRequired"`
	Resource          string            `json:"resource"`
	Description       string            `json:"description"`
	MimeType          string            `json:"mimeType"`
	PayTo             string            `json:"payTo"`
	MaxTimeoutSeconds int               `json:"maxTimeoutSeconds"`
	Asset             string            `json:"asset"`
	Extra             map[string]string `json:"extra"`
}

// PaymentRequired is the body of a 402 answer.
type PaymentRequired struct {
	X402Version int           `json:"x402Version"`
	Error       string        `json:"error,omitempty"`
	Accepts     []Requirement `json:"accepts"`
}

// ExactUSDC builds the requirement for amount micro-units of the token of
// domain d, paid to payTo on d's chain for resource.
func ExactUSDC(d Domain, resource, description string, amount uint64, payTo Address, timeoutSeconds int) Requirement {
	return Requirement{Scheme: Scheme, Network: d.Network(), MaxAmountRequired: u(amount), Resource: resource,
		Description: description, MimeType: "application/json", PayTo: payTo.Hex(), MaxTimeoutSeconds: timeoutSeconds,
		Asset: d.Contract.Hex(), Extra: map[string]string{"name": d.Name, "version": d.Version}}
}

// SettleResponse is the JSON inside X-PAYMENT-RESPONSE and PAYMENT-RESPONSE.
type SettleResponse struct {
	Success     bool   `json:"success"`
	Transaction string `json:"transaction"`
	Network     string `json:"network"`
	Payer       string `json:"payer"`
	ErrorReason string `json:"errorReason,omitempty"`
	// Amount is the settled amount in v2 answers (PAYMENT-RESPONSE); v1
	// answers leave it out.
	Amount string `json:"amount,omitempty"`
}

// EncodeSettleResponse is the X-PAYMENT-RESPONSE value: base64 JSON.
func EncodeSettleResponse(r SettleResponse) string {
	b, _ := json.Marshal(r)
	return base64.StdEncoding.EncodeToString(b)
}
