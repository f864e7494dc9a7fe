package payments

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

func msPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ms(*t)
}

func moneyPtr(v *int64) *botpay.Money {
	if v == nil {
		return nil
	}
	m := botpay.Money(*v)
	return &m
}

type scanner = kernel.Scanner

// keysetOldestFirst finishes a list query whose WHERE clause is open: it
// seeks past the page's position on column (insertion-ordered, indexed
// after the list's scope), oldest first, and reads one row more than the
// page holds, which tells whether another page follows.
func keysetOldestFirst(q string, args []any, column string, page botpay.PageRequest) (string, []any) {
	if page.After > 0 {
		args = append(args, page.After)
		q += ` AND ` + column + ` > $` + strconv.Itoa(len(args))
	}
	args = append(args, page.Limit+1)
	return q + ` ORDER BY ` + column + ` LIMIT $` + strconv.Itoa(len(args)), args
}

// positioned reads rows whose last column is the item's position, so a
// scanner that knows nothing of positions scans the rest.
type positioned struct {
	rows     *sql.Rows
	position int64
}

func (p *positioned) Scan(dest ...any) error {
	return p.rows.Scan(append(dest, &p.position)...)
}

// readPage runs a keyset query and cuts its extra row off into Next.
func readPage[T any](ctx context.Context, db *kernel.DB, q string, args []any, limit int,
	scan func(row scanner) (T, error)) (botpay.Page[T], error) {
	page := botpay.Page[T]{Items: []T{}}
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return page, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	row := &positioned{rows: rows}
	var last int64
	for rows.Next() {
		item, err := scan(row)
		if err != nil {
			return botpay.Page[T]{Items: []T{}}, fmt.Errorf("list: %w", err)
		}
		if len(page.Items) == limit {
			page.Next = last
			break
		}
		page.Items, last = append(page.Items, item), row.position
	}
	if err := rows.Err(); err != nil {
		return botpay.Page[T]{Items: []T{}}, fmt.Errorf("list: %w", err)
	}
	return page, nil
}

// The NULL and no-rows helpers of the kernel, by their short names here.
var (
	nullString = kernel.NullString
	isNoRows   = kernel.IsNoRows
)
