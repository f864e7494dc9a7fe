package kernel

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
)

// ListOrder is the direction a list walks its insertion positions.
type ListOrder int

// The two directions of a list.
const (
	NewestFirst ListOrder = iota
	OldestFirst
)

// Keyset finishes a list query whose WHERE clause is open: it seeks past
// the page's position on column (a unique, insertion-ordered integer with
// an index that leads with the list's scope), orders by it and reads one
// row more than the page holds, which tells whether another page follows.
// The seek is an index range scan, so the last page of a long list costs
// what the first does; OFFSET would read and drop every row before it.
func Keyset(q string, args []any, column string, order ListOrder, page botpay.PageRequest) (string, []any) {
	cmp, dir := " < $", " DESC"
	if order == OldestFirst {
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
// scanners (which know nothing of positions) scan the rest.
type positioned struct {
	rows     *sql.Rows
	position int64
}

func (p *positioned) Scan(dest ...any) error {
	return p.rows.Scan(append(dest, &p.position)...)
}

// Placed is an item of a list with its position.
type Placed[T any] struct {
	Item     T
	Position int64
}

// ReadPlaced runs a Keyset query (its last column the position) and keeps
// each item's position, for lists merged from several queries.
func ReadPlaced[T any](ctx context.Context, db *DB, q string, args []any,
	scan func(row Scanner) (T, error)) ([]Placed[T], error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	row := &positioned{rows: rows}
	var out []Placed[T]
	for rows.Next() {
		item, err := scan(row)
		if err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
		out = append(out, Placed[T]{Item: item, Position: row.position})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	return out, nil
}

// CutPage keeps the first limit items; when more were read, the last kept
// item's position is where the next page starts.
func CutPage[T any](items []Placed[T], limit int) botpay.Page[T] {
	page := botpay.Page[T]{Items: []T{}}
	for i, p := range items {
		if i == limit {
			page.Next = items[limit-1].Position
			break
		}
		page.Items = append(page.Items, p.Item)
	}
	return page
}

// ReadPage runs a Keyset query and cuts its extra row off into Next.
func ReadPage[T any](ctx context.Context, db *DB, q string, args []any, limit int,
	scan func(row Scanner) (T, error)) (botpay.Page[T], error) {
	items, err := ReadPlaced(ctx, db, q, args, scan)
	if err != nil {
		return botpay.Page[T]{Items: []T{}}, err
	}
	return CutPage(items, limit), nil
}
