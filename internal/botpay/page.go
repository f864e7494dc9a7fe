package botpay

// Lists page with keyset cursors (docs/decisions.md, "Lists page with
// keyset cursors"): every list has one fixed, total order that follows
// insertion, each item has an integer position in it, and a page is "the
// next Limit items after this position". Positions never move, so items
// inserted or removed while a client pages can neither be repeated nor
// push an item it has not seen yet out of its way.

// PageRequest asks for one page of a list.
type PageRequest struct {
	// After is the position of the last item of the previous page; 0
	// asks for the first page.
	After int64
	// Limit is the most items the page may hold (1-100 at the API).
	Limit int
}

// Page is one page of a list.
type Page[T any] struct {
	Items []T
	// Next is the position of the page's last item when more items
	// follow, and 0 on the last page.
	Next int64
}

// MapPage converts a page's items and keeps its position.
func MapPage[T, U any](p Page[T], convert func(T) U) Page[U] {
	out := Page[U]{Items: make([]U, len(p.Items)), Next: p.Next}
	for i, item := range p.Items {
		out.Items[i] = convert(item)
	}
	return out
}

// CodeInvalidCursor answers a cursor the service did not issue for this
// list, or one that was altered (400).
const CodeInvalidCursor = "invalid_cursor"
