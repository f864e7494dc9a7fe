package api

import (
	"net/http"
	"net/url"

	"github.com/botpay/botpay/internal/botpay"
)

// maxPageLimit is the largest page of every list (docs/api.md).
const maxPageLimit = 100

// listRequest is one list call: what its cursors are bound to and how many
// items a page holds when the caller does not say.
type listRequest struct {
	scope        listScope
	defaultLimit int
}

// newList names a list for caller; filterKeys are the query parameters
// that narrow it, which its cursors are bound to as well.
func newList(r *http.Request, name, caller string, defaultLimit int, filterKeys ...string) listRequest {
	q, filter := r.URL.Query(), url.Values{}
	for _, k := range filterKeys {
		if q.Has(k) {
			filter[k] = q[k]
		}
	}
	return listRequest{scope: listScope{list: name, caller: caller, filter: filter.Encode()}, defaultLimit: defaultLimit}
}

// page reads limit, cursor and offset: limit must be 1-100 (400
// validation_error otherwise, never clamped); cursor must be a next_cursor
// this list handed out (400 invalid_cursor otherwise); offset is refused
// unless it is 0 (docs/decisions.md: an offset that was silently ignored
// handed clients the first page again and again).
func (s *Server) page(r *http.Request, l listRequest) (botpay.PageRequest, error) {
	page, position, err := s.pagePosition(r, l)
	if err != nil || position == nil {
		return page, err
	}
	page.After, err = decodePosition(position)
	return page, err
}

// pagePosition is page for any kind of position: it answers the checked
// position bytes of the cursor, nil on the first page.
func (s *Server) pagePosition(r *http.Request, l listRequest) (botpay.PageRequest, []byte, error) {
	limit, err := queryLimit(r, l.defaultLimit, maxPageLimit)
	if err != nil {
		return botpay.PageRequest{}, nil, err
	}
	q := r.URL.Query()
	if offset := q.Get("offset"); offset != "" && offset != "0" {
		return botpay.PageRequest{}, nil, botpay.ValidationError(map[string]string{"offset": "is not supported: " +
			"lists page with cursors; pass the next_cursor of the previous page as cursor"})
	}
	page := botpay.PageRequest{Limit: limit}
	cursors := q["cursor"]
	if len(cursors) > 1 {
		return page, nil, errInvalidCursor
	}
	if len(cursors) == 0 || cursors[0] == "" {
		return page, nil, nil
	}
	position, err := s.cursors.decode(l.scope, cursors[0])
	return page, position, err
}

// nextCursor is the next_cursor of a page: null on the last page.
func (s *Server) nextCursor(l listRequest, next int64) *string {
	if next == 0 {
		return nil
	}
	c := s.cursors.encode(l.scope, encodePosition(next))
	return &c
}

// pageEnd is what a list's answer says of the pages after this one:
// has_more, and next_cursor (null on the last page).
func (s *Server) pageEnd(l listRequest, next int64) (hasMore bool, cursor *string) {
	cursor = s.nextCursor(l, next)
	return cursor != nil, cursor
}

// linkNext names the next page of a bare-array list in a Link header
// (RFC 8288), keeping the caller's limit.
func (s *Server) linkNext(w http.ResponseWriter, r *http.Request, l listRequest, next int64) {
	cursor := s.nextCursor(l, next)
	if cursor == nil {
		return
	}
	q := url.Values{"cursor": {*cursor}}
	if limit := r.URL.Query().Get("limit"); limit != "" {
		q.Set("limit", limit)
	}
	w.Header().Set("Link", "<"+s.svc.BaseURL()+r.URL.Path+"?"+q.Encode()+`>; rel="next"`)
}
