package botpay

import "net/http"

// HTTPStatus is the single mapping from error kinds to HTTP statuses, used
// by the JSON API and the HTML pages alike.
func (k Kind) HTTPStatus() int {
	switch k {
	case KindInvalid:
		return http.StatusBadRequest
	case KindUnauthenticated:
		return http.StatusUnauthorized
	case KindPaymentRequired:
		return http.StatusPaymentRequired
	case KindForbidden:
		return http.StatusForbidden
	case KindNotFound:
		return http.StatusNotFound
	case KindConflict:
		return http.StatusConflict
	case KindGone:
		return http.StatusGone
	case KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case KindRateLimited:
		return http.StatusTooManyRequests
	case KindMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case KindUnavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}
