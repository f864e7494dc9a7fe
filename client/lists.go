package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// Every list of the service pages with cursors: a page holds at most Limit
// items (1-100) and, when more follow, a NextCursor that asks for the next
// page. Cursors are opaque and only good for the list, caller and filters
// they came from (400 invalid_cursor otherwise). Pages never repeat or skip
// an item that existed when paging began, even while items are added. The
// All... methods walk every page with iterators:
//
//	for tx, err := range bot.AllTransactions(ctx) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(tx.ID, tx.AmountUSD)
//	}

// ListOptions choose one page of a list.
type ListOptions struct {
	// Limit is 1-100; 0 takes the list's default.
	Limit int
	// Cursor is the NextCursor of the previous page; "" asks for the first.
	Cursor string
}

func (l ListOptions) query(filters url.Values) url.Values {
	q := url.Values{}
	for k, v := range filters {
		if len(v) > 0 && v[0] != "" {
			q[k] = v
		}
	}
	if l.Limit != 0 {
		q.Set("limit", strconv.Itoa(l.Limit))
	}
	if l.Cursor != "" {
		q.Set("cursor", l.Cursor)
	}
	return q
}

// Page is one page of a list.
type Page[T any] struct {
	Items []T
	// HasMore says another page follows.
	HasMore bool
	// NextCursor asks for the next page (ListOptions.Cursor); "" on the
	// last page.
	NextCursor string
}

// iteratorPageSize is the page size of the All... iterators: the largest,
// for the fewest requests.
const iteratorPageSize = 100

// listCall fetches one page of a list whose answer holds its items under
// field, beside has_more and next_cursor.
func listCall[T any](ctx context.Context, t transport, token, path, field string, filters url.Values,
	l ListOptions, opts []CallOption) (*Page[T], error) {
	var raw map[string]json.RawMessage
	err := t.do(ctx, call{method: http.MethodGet, path: path, query: l.query(filters), token: token, out: &raw}, opts)
	if err != nil {
		return nil, err
	}
	page := &Page[T]{}
	var next *string
	for name, into := range map[string]any{field: &page.Items, "has_more": &page.HasMore, "next_cursor": &next} {
		if v, ok := raw[name]; ok {
			if err := decodeJSON(v, into); err != nil {
				return nil, fmt.Errorf("botpay: GET %s: decoding %s: %w", path, name, err)
			}
		}
	}
	if next != nil {
		page.NextCursor = *next
	}
	return page, nil
}

var errCursorRepeated = errors.New("botpay: the service answered the same next_cursor twice; paging stopped")

// iterate walks a list from its first page to its last.
func iterate[T any](fetch func(ListOptions) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		options := ListOptions{Limit: iteratorPageSize}
		for {
			page, err := fetch(options)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range page.Items {
				if !yield(item, nil) {
					return
				}
			}
			if page.NextCursor == "" {
				return
			}
			if page.NextCursor == options.Cursor {
				var zero T
				yield(zero, errCursorRepeated)
				return
			}
			options.Cursor = page.NextCursor
		}
	}
}
