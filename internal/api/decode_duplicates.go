package api

import "github.com/botpay/botpay/internal/botpay"

// refuseDuplicateKeys answers 400 validation_error, naming the member, when
// a JSON body names the same member twice at any depth: the decoder would
// keep the last one silently ({"amount_usd":1,"amount_usd":500000} funded
// $500,000), while a reviewer, proxy or log reader may see the first.
func refuseDuplicateKeys(data []byte) error {
	if path, found := botpay.DuplicateJSONKey(data); found {
		return botpay.ValidationError(map[string]string{path: "is given more than once"})
	}
	return nil
}
