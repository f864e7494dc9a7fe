package bots

import "github.com/botpay/botpay/internal/botpay"

// addressBucket is a client address as a rate-limit key, as internal/app
// makes it: policy + ":" + the address, an IPv6 client by its /64.
func addressBucket(policy, clientIP string) string {
	return policy + ":" + botpay.AddressKey(clientIP)
}
