package x402

import "errors"

// Expect is what a seller requires of a payment.
type Expect struct {
	PayTo     Address
	Amount    uint64 // micro-USDC
	Exact     bool   // the amount must equal Amount (locked prices); else at least 1 and at most Amount when Amount > 0
	Now       int64  // Unix seconds
	Tolerance int64  // seconds of clock skew allowed at both ends of the window
	// ExpiryMargin, when set, replaces Tolerance at the end of the window:
	// the authorization must stay valid that many seconds past Now, long
	// enough for its transaction to be mined (a facilitator's margin).
	ExpiryMargin int64
}

// Verification failures; each names what is wrong with the payment.
var (
	ErrWrongChain     = errors.New("x402: the authorization is for another chain")
	ErrWrongToken     = errors.New("x402: the authorization is for another token")
	ErrWrongRecipient = errors.New("x402: the authorization pays another recipient")
	ErrWrongAmount    = errors.New("x402: the authorized amount does not match the price")
	ErrNotYetValid    = errors.New("x402: the authorization is not valid yet")
	ErrExpired        = errors.New("x402: the authorization has expired")
	ErrWrongSigner    = errors.New("x402: the signature was not made by the payer")
)

// Verify checks a payment against what the seller expects and d, the token
// domain, and returns nil only when the signature recovers to the payer
// named in the authorization.
func Verify(p Payment, d Domain, e Expect) error {
	a := p.Authorization
	switch {
	case p.ChainID != 0 && p.ChainID != d.ChainID:
		return ErrWrongChain
	case !p.Token.IsZero() && p.Token != d.Contract:
		return ErrWrongToken
	case a.To != e.PayTo:
		return ErrWrongRecipient
	case e.Exact && a.Value != e.Amount, !e.Exact && (a.Value == 0 || (e.Amount > 0 && a.Value > e.Amount)):
		return ErrWrongAmount
	case e.Now >= 0 && a.ValidAfter > uint64(e.Now+e.Tolerance):
		return ErrNotYetValid
	case e.ExpiryMargin > 0 && a.ValidBefore <= uint64(e.Now+e.ExpiryMargin):
		return ErrExpired
	case e.ExpiryMargin == 0 && e.Now-e.Tolerance >= 0 && a.ValidBefore <= uint64(e.Now-e.Tolerance):
		return ErrExpired
	}
	signer, err := Recover(d.Digest(a), p.Signature)
	if err != nil {
		return err
	}
	if signer != a.From {
		return ErrWrongSigner
	}
	return nil
}
