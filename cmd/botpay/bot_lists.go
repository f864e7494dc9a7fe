package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/botpay/botpay/client"
)

// listing describes one list verb: where its items stand in the answer,
// how to fetch a page, and its table.
type listing[T any] struct {
	verb    string
	field   string
	columns []string
	row     func(T) []string
	page    func(ctx context.Context, c *client.Client, l client.ListOptions) (*client.Page[T], error)
}

// paging is the flags every list verb takes.
type paging struct {
	all    bool
	limit  int
	cursor string
}

func (p *paging) register(fs *flag.FlagSet) {
	fs.BoolVar(&p.all, "all", false, "follow next_cursor to the last page")
	fs.IntVar(&p.limit, "limit", 0, "items per page, 1-100 (the service's default when 0)")
	fs.StringVar(&p.cursor, "cursor", "", "next_cursor of the previous page")
}

// listVerb builds a verb that prints one page of l, or every page with
// --all; filters adds the verb's own flags.
func listVerb[T any](l listing[T], filters func(fs *flag.FlagSet)) botVerb {
	var p paging
	return botVerb{
		flags: func(fs *flag.FlagSet) {
			p.register(fs)
			if filters != nil {
				filters(fs)
			}
		},
		run: func(ctx context.Context, s *botSession, args []string) error {
			if err := expectArgs(args, 0, "no argument"); err != nil {
				return err
			}
			return runListing(ctx, s, l, p)
		},
	}
}

var errCursorRepeated = errors.New("the service answered the same next_cursor twice; paging stopped")

func runListing[T any](ctx context.Context, s *botSession, l listing[T], p paging) error {
	options := client.ListOptions{Limit: p.limit, Cursor: p.cursor}
	if p.all && options.Limit == 0 {
		options.Limit = 100
	}
	var items []T
	var raw []json.RawMessage
	for {
		page, err := l.page(ctx, s.api, options)
		if err != nil {
			return err
		}
		items = append(items, page.Items...)
		if !p.all {
			return printListing(s, l, items, page)
		}
		raw = append(raw, rawItems(s.answer.last(), l.field)...)
		if page.NextCursor == "" {
			break
		}
		if page.NextCursor == options.Cursor {
			return errCursorRepeated
		}
		options.Cursor = page.NextCursor
	}
	if s.json {
		// Every page's items, as they came, in the shape of a last page.
		if raw == nil {
			raw = []json.RawMessage{}
		}
		return json.NewEncoder(s.out).Encode(map[string]any{l.field: raw, "has_more": false, "next_cursor": nil})
	}
	return printListing(s, l, items, &client.Page[T]{})
}

func printListing[T any](s *botSession, l listing[T], items []T, page *client.Page[T]) error {
	if s.json {
		printRaw(s.out, s.answer.last())
		return nil
	}
	if len(items) == 0 {
		fmt.Fprintf(s.out, "no %s\n", l.verb)
	} else {
		t := newTable(s.out, l.columns...)
		for _, item := range items {
			t.row(l.row(item)...)
		}
		t.flush()
	}
	if page.HasMore {
		fmt.Fprintf(s.out, "more: botpay bot %s --cursor %s (or --all)\n", l.verb, page.NextCursor)
	}
	return nil
}

// rawItems is the array member field of a list answer, item by item.
func rawItems(body []byte, field string) []json.RawMessage {
	var answer map[string]json.RawMessage
	var items []json.RawMessage
	if json.Unmarshal(body, &answer) == nil {
		json.Unmarshal(answer[field], &items)
	}
	return items
}
