package web

import "net/url"

// invoiceParams reads which invoice a buyer URL or form names: its reference
// number (ref) and the payment URL's token (t). The token is checked by the
// use case (app.Service.InvoiceByRef and friends); a missing or wrong one
// is answered like an unknown invoice.
func invoiceParams(v url.Values) (ref, token string) {
	return v.Get("ref"), v.Get("t")
}
