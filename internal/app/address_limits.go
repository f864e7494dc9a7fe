package app

import "github.com/botpay/botpay/internal/botpay"

// addressBucket is the one place a client address becomes a rate-limit
// key: policy + ":" + the address, an IPv6 client by its /64 (one
// subscriber's network hands out a whole /64, so its addresses are one
// client).
func addressBucket(policy, clientIP string) string {
	return policy + ":" + botpay.AddressKey(clientIP)
}
