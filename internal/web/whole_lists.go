package web

import (
	"context"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

// wholeListPage is the page size the dashboard reads whole lists with.
const wholeListPage = 100

// everything reads a list page by page to its end, for dashboard pages
// that show a whole list (an owner's bots, what awaits approval).
func everything[T any](read func(botpay.PageRequest) (botpay.Page[T], error)) ([]T, error) {
	page := botpay.PageRequest{Limit: wholeListPage}
	var out []T
	for {
		p, err := read(page)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if p.Next == 0 {
			return out, nil
		}
		page.After = p.Next
	}
}

// firstItems reads the first limit items of a list.
func firstItems[T any](limit int, read func(botpay.PageRequest) (botpay.Page[T], error)) ([]T, error) {
	p, err := read(botpay.PageRequest{Limit: limit})
	return p.Items, err
}

// allApprovals is everything that awaits the owner's decision.
func (p *Pages) allApprovals(ctx context.Context, owner botpay.Owner) ([]app.Approval, error) {
	return everything(func(pr botpay.PageRequest) (botpay.Page[app.Approval], error) {
		return p.svc.Approvals(ctx, owner, pr)
	})
}
