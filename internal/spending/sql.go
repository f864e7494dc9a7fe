package spending

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

func nullTime(t time.Time) sql.NullInt64 {
	return sql.NullInt64{Int64: kernel.MS(t), Valid: !t.IsZero()}
}

func fromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMS(v.Int64)
}

func fromNullableMS(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := fromMS(*v)
	return &t
}

func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

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

// readPlaced runs a keyset query and keeps each item's position.
func readPlaced[T any](ctx context.Context, db *kernel.DB, q string, args []any,
	scan func(row interface{ Scan(...any) error }) (T, error)) ([]T, []int64, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("list: %w", err)
	}
	defer rows.Close()
	row := &positioned{rows: rows}
	var items []T
	var positions []int64
	for rows.Next() {
		item, err := scan(row)
		if err != nil {
			return nil, nil, fmt.Errorf("list: %w", err)
		}
		items, positions = append(items, item), append(positions, row.position)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("list: %w", err)
	}
	return items, positions, nil
}
