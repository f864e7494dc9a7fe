package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
)

// listOrder is the direction a list walks its insertion positions.
type listOrder int

const (
	newestFirst listOrder = iota
	oldestFirst
)

// keyset finishes a list query whose WHERE clause is open: it seeks past
// the page's position on column (a unique, insertion-ordered integer with
// an index that leads with the list's scope), orders by it and reads one
// row more than the page holds, which tells whether another page follows.
// The seek is an index range scan, so the last page of a long list costs
// what the first does; OFFSET would read and drop every row before it.
func keyset(q string, args []any, column string, order listOrder, page botpay.PageRequest) (string, []any) {
	cmp, dir := " < $", " DESC"
	if order == oldestFirst {
		cmp, dir = " > $", ""
	}
	if page.After > 0 {
		args = append(args, page.After)
		q += ` AND ` + column + cmp + strconv.Itoa(len(args))
	}
	args = append(args, page.Limit+1)
	return q + ` ORDER BY ` + column + dir + ` LIMIT $` + strconv.Itoa(len(args)), args
}

// positioned reads rows whose last column is the item's position, so the
// existing scanners (which know nothing of positions) scan the rest.
type positioned struct {
	rows     *sql.Rows
	position int64
}

func (p *positioned) Scan(dest ...any) error {
	return p.rows.Scan(append(dest, &p.position)...)
}

// placed is an item with its position.
type placed[T any] struct {
	item     T
	position int64
}

// readPlaced runs a keyset query and keeps each item's position.
func readPlaced[T any](ctx context.Context, s *Store, q string, args []any,
	scan func(row interface{ Scan(...any) error }) (T, error)) ([]placed[T], error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	row := &positioned{rows: rows}
	var out []placed[T]
	for rows.Next() {
		item, err := scan(row)
		if err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
		out = append(out, placed[T]{item: item, position: row.position})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	return out, nil
}

// cutPage keeps the first limit items; when more were read, the last kept
// item's position is where the next page starts.
func cutPage[T any](items []placed[T], limit int) botpay.Page[T] {
	page := botpay.Page[T]{Items: []T{}}
	for i, p := range items {
		if i == limit {
			page.Next = items[limit-1].position
			break
		}
		page.Items = append(page.Items, p.item)
	}
	return page
}

// readPage runs a keyset query and cuts its extra row off into Next.
func readPage[T any](ctx context.Context, s *Store, q string, args []any, limit int,
	scan func(row interface{ Scan(...any) error }) (T, error)) (botpay.Page[T], error) {
	items, err := readPlaced(ctx, s, q, args, scan)
	if err != nil {
		return botpay.Page[T]{Items: []T{}}, err
	}
	return cutPage(items, limit), nil
}
