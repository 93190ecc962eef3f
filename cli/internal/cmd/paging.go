package cmd

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

// paging is how a list command pages: every page by default, or one page with --limit/--cursor.
type paging struct {
	limit  int
	cursor string
}

func (p *paging) register(cmd *cobra.Command) {
	cmd.Flags().IntVar(&p.limit, "limit", 0, "return one page of at most this many items (1-100) instead of all")
	cmd.Flags().StringVar(&p.cursor, "cursor", "", "the nextCursor of the previous page (with --limit)")
}

// fetchPage gets one page: its body, its items and the next cursor.
type fetchPage[T any] func(cursor *string, limit int) ([]byte, []T, *string, error)

// listPages returns the page asked for, or all pages merged into one page document of the same shape
// ({"items": [...], "nextCursor": null}), so scripts read one format either way.
func listPages[T any](p paging, fetch fetchPage[T]) ([]byte, []T, error) {
	if p.limit != 0 || p.cursor != "" {
		limit := p.limit
		if limit == 0 {
			limit = 20
		}
		body, items, _, err := fetch(optional(p.cursor), limit)
		return body, items, err
	}
	var all []T
	raw := []json.RawMessage{}
	var cursor *string
	for {
		body, items, next, err := fetch(cursor, 100)
		if err != nil {
			return nil, nil, err
		}
		var page struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, nil, err
		}
		raw = append(raw, page.Items...)
		all = append(all, items...)
		if next == nil {
			break
		}
		cursor = next
	}
	body, err := json.Marshal(struct {
		Items      []json.RawMessage `json:"items"`
		NextCursor *string           `json:"nextCursor"`
	}{raw, nil})
	return body, all, err
}

// optional is a flag's value to send as an optional parameter: left out when it is the zero value.
func optional[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
