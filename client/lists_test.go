package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

func TestIteratorsFollowNextCursorToTheLastPage(t *testing.T) {
	t.Parallel()
	var cursors []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cursor := r.URL.Query().Get("cursor")
		cursors = append(cursors, cursor)
		if r.URL.Query().Get("limit") != "100" {
			t.Errorf("limit = %q, want 100", r.URL.Query().Get("limit"))
		}
		page := map[string]any{"transactions": []map[string]any{}, "has_more": false, "next_cursor": nil}
		switch cursor {
		case "":
			page["transactions"] = []map[string]any{{"id": 3}, {"id": 2}}
			page["has_more"], page["next_cursor"] = true, "c1"
		case "c1":
			page["transactions"] = []map[string]any{{"id": 1}}
		default:
			http.Error(w, `{"error":"invalid_cursor","message":"no"}`, http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(page)
	}))
	defer srv.Close()
	var ids []int64
	for tr, err := range New(srv.URL, "key").AllTransactions(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tr.ID)
	}
	if !slices.Equal(ids, []int64{3, 2, 1}) || !slices.Equal(cursors, []string{"", "c1"}) {
		t.Fatalf("ids %v over cursors %q, want [3 2 1] over first page and c1", ids, cursors)
	}
}

func TestIteratorsStopOnAnErrorAndOnARepeatedCursor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		status int
		body   string
	}{
		{"error answer", http.StatusBadRequest, `{"error":"invalid_cursor","message":"no"}`},
		{"same cursor forever", http.StatusOK, `{"sales":[{"sale_id":"s"}],"has_more":true,"next_cursor":"same"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls++
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			var errs int
			for _, err := range New(srv.URL, "key").AllSales(context.Background(), SaleFilter{}) {
				if err != nil {
					errs++
				}
			}
			if errs != 1 || calls > 2 {
				t.Fatalf("%d errors after %d calls, want one error and at most 2 calls", errs, calls)
			}
		})
	}
}

func TestNextCursorOfLinkReadsTheNextRelation(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`<https://pay.example/api/v1/bots/mine?cursor=abc&limit=2>; rel="next"`:      "abc",
		`<https://x/p?cursor=one>; rel="prev", <https://x/p?cursor=two>; rel="next"`: "two",
		`<https://x/p?cursor=multi>; rel="last next"`:                                "multi",
		`<https://x/p?cursor=one>; rel="prev"`:                                       "",
		`https://x/p?cursor=nobrackets; rel="next"`:                                  "",
		``:                                     "",
		`<https://x/p?cursor=upper>; REL=NEXT`: "upper",
		`<https://x/p?cursor=q>; title="x"; rel=next`: "q",
	}
	for header, want := range cases {
		if got := nextCursorOfLink([]string{header}); got != want {
			t.Errorf("nextCursorOfLink(%q) = %q, want %q", header, got, want)
		}
	}
}
