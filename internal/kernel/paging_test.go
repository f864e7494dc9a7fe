package kernel_test

import (
	"reflect"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

func TestAKeysetSeeksPastThePagesPositionAndReadsOneRowMore(t *testing.T) {
	t.Parallel()
	base := `SELECT id, seq FROM sales WHERE bot_id = $1`
	tests := []struct {
		name     string
		order    kernel.ListOrder
		page     botpay.PageRequest
		wantTail string
		wantArgs []any
	}{
		{"the first page, newest first", kernel.NewestFirst, botpay.PageRequest{Limit: 20},
			` ORDER BY seq DESC LIMIT $2`, []any{"bot", 21}},
		{"a later page, newest first", kernel.NewestFirst, botpay.PageRequest{Limit: 20, After: 99},
			` AND seq < $2 ORDER BY seq DESC LIMIT $3`, []any{"bot", int64(99), 21}},
		{"a later page, oldest first", kernel.OldestFirst, botpay.PageRequest{Limit: 5, After: 7},
			` AND seq > $2 ORDER BY seq LIMIT $3`, []any{"bot", int64(7), 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, args := kernel.Keyset(base, []any{"bot"}, "seq", tt.order, tt.page)
			if q != base+tt.wantTail || !reflect.DeepEqual(args, tt.wantArgs) {
				t.Fatalf("got %q %v, want %q %v", q, args, base+tt.wantTail, tt.wantArgs)
			}
		})
	}
}

func TestACutPageStartsTheNextAtItsLastItem(t *testing.T) {
	t.Parallel()
	read := []kernel.Placed[string]{{Item: "c", Position: 30}, {Item: "b", Position: 20}, {Item: "a", Position: 10}}
	if p := kernel.CutPage(read, 2); !reflect.DeepEqual(p.Items, []string{"c", "b"}) || p.Next != 20 {
		t.Errorf("a page of 2 from 3 rows: %v next %d, want [c b] next 20", p.Items, p.Next)
	}
	if p := kernel.CutPage(read, 3); len(p.Items) != 3 || p.Next != 0 {
		t.Errorf("the last page: %v next %d, want all three and no next", p.Items, p.Next)
	}
}
