// Package output renders API answers as a table for people, or as the API's own JSON (or the same
// document in YAML) for scripts.
package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"go.yaml.in/yaml/v3"
)

// Formats are the values -o accepts.
var Formats = []string{"table", "json", "yaml"}

// Printer writes one answer in the chosen format.
type Printer struct {
	Format string
	Out    io.Writer
}

// Print writes body (the API's JSON, unchanged but indented) as JSON or YAML, or calls table.
func (p Printer) Print(body []byte, table func(*Table)) error {
	switch p.Format {
	case "json":
		var buf bytes.Buffer
		if err := json.Indent(&buf, body, "", "  "); err != nil {
			return fmt.Errorf("the API answered something that is not JSON: %w", err)
		}
		buf.WriteByte('\n')
		_, err := p.Out.Write(buf.Bytes())
		return err
	case "yaml":
		out, err := ToYAML(body)
		if err != nil {
			return err
		}
		_, err = p.Out.Write(out)
		return err
	default:
		t := &Table{w: tabwriter.NewWriter(p.Out, 0, 4, 2, ' ', 0)}
		table(t)
		return t.w.Flush()
	}
}

// ToYAML renders a JSON document as block-style YAML with the same keys in the same order.
func ToYAML(body []byte) ([]byte, error) {
	var doc yaml.Node
	// JSON is YAML: parsing it keeps key order and each scalar's type; only the flow style must go.
	if err := yaml.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("the API answered something that is not JSON: %w", err)
	}
	blockStyle(&doc)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// Table is aligned columns; a detail view is a two-column table of labels and values.
type Table struct {
	w *tabwriter.Writer
}

// Row writes one line of cells.
func (t *Table) Row(cells ...any) {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = Cell(c)
	}
	fmt.Fprintln(t.w, strings.Join(parts, "\t"))
}

// Blank ends a block of columns with an empty line.
func (t *Table) Blank() {
	fmt.Fprintln(t.w)
}

// Cell renders a value for a table: "-" for nothing, times in UTC to the second.
func Cell(v any) string {
	switch x := v.(type) {
	case nil:
		return "-"
	case string:
		if x == "" {
			return "-"
		}
		return x
	case *string:
		if x == nil {
			return "-"
		}
		return Cell(*x)
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	case *time.Time:
		if x == nil {
			return "-"
		}
		return Cell(*x)
	case *int:
		if x == nil {
			return "-"
		}
		return fmt.Sprint(*x)
	case *int64:
		if x == nil {
			return "-"
		}
		return fmt.Sprint(*x)
	case float32:
		return formatNumber(float64(x))
	case float64:
		return formatNumber(x)
	default:
		return fmt.Sprint(v)
	}
}

func formatNumber(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.2f", f)
}
