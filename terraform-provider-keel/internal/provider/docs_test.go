package provider

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var update = flag.Bool("update", false, "rewrite docs/ from the schemas and examples/")

// The registry's documentation (docs/, in the layout the Terraform registry reads) is rendered from the
// schemas' descriptions and the files in examples/: it cannot say something the provider does not do.
func TestDocsFollowTheSchemas(t *testing.T) {
	ctx := context.Background()
	p := New("docs")()
	var ps provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &ps)
	pages := map[string]string{
		"index.md": page("Keel Provider", "keel Provider", ps.Schema.MarkdownDescription, "examples/provider/provider.tf", "",
			providerAttributes(ps.Schema.Attributes)),
	}
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "keel"}, &meta)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		dir := "examples/resources/" + meta.TypeName
		pages["resources/"+strings.TrimPrefix(meta.TypeName, "keel_")+".md"] = page(meta.TypeName+" Resource - terraform-provider-keel",
			meta.TypeName+" (Resource)", s.Schema.MarkdownDescription, dir+"/resource.tf", dir+"/import.sh", resourceAttributes(s.Schema.Attributes))
	}
	for _, newDataSource := range p.DataSources(ctx) {
		d := newDataSource()
		var meta datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "keel"}, &meta)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		pages["data-sources/"+strings.TrimPrefix(meta.TypeName, "keel_")+".md"] = page(meta.TypeName+" Data Source - terraform-provider-keel",
			meta.TypeName+" (Data Source)", s.Schema.MarkdownDescription, "examples/data-sources/"+meta.TypeName+"/data-source.tf", "",
			dataSourceDocAttributes(s.Schema.Attributes))
	}
	for name, got := range pages {
		path := filepath.Join("..", "..", "docs", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil || string(want) != got {
			t.Errorf("docs/%s is not what the schema and examples say (go test ./internal/provider -update rewrites it)", name)
		}
	}
}

// The examples are formatted as terraform fmt wants.
func TestExamplesAreFormatted(t *testing.T) {
	out, err := exec.Command("terraform", "fmt", "-check", "-recursive", "-diff", "../../examples").CombinedOutput()
	if err != nil {
		t.Errorf("terraform fmt -check: %v\n%s", err, out)
	}
}

// docAttribute is one attribute as the docs describe it.
type docAttribute struct {
	name, description, kind       string
	required, optional, sensitive bool
	nested                        []docAttribute
}

func page(title, heading, description, example, importScript string, attributes []docAttribute) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\npage_title: %q\nsubcategory: \"\"\ndescription: |-\n  %s\n---\n\n# %s\n\n%s\n",
		title, strings.ReplaceAll(description, "\n", "\n  "), heading, description)
	fmt.Fprintf(&b, "\n## Example Usage\n\n```terraform\n%s```\n", readExample(example))
	b.WriteString("\n## Schema\n")
	writeAttributes(&b, "", attributes)
	if importScript != "" {
		fmt.Fprintf(&b, "\n## Import\n\nImport is supported using the following syntax:\n\n```shell\n%s```\n", readExample(importScript))
	}
	return b.String()
}

func readExample(path string) string {
	data, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		panic(err)
	}
	return string(data)
}

func writeAttributes(b *strings.Builder, parent string, attributes []docAttribute) {
	sections := []struct {
		title string
		in    func(docAttribute) bool
	}{
		{"Required", func(a docAttribute) bool { return a.required }},
		{"Optional", func(a docAttribute) bool { return a.optional }},
		{"Read-Only", func(a docAttribute) bool { return !a.required && !a.optional }},
	}
	for _, s := range sections {
		var lines []string
		for _, a := range attributes {
			if !s.in(a) {
				continue
			}
			line := fmt.Sprintf("- `%s` (%s", a.name, a.kind)
			if a.sensitive {
				line += ", Sensitive"
			}
			line += ")"
			if a.nested != nil {
				line += fmt.Sprintf(" (see [below for nested schema](#nestedatt--%s))", anchor(parent, a.name))
			}
			if a.description != "" {
				line += " " + a.description
			}
			lines = append(lines, line)
		}
		if len(lines) > 0 {
			fmt.Fprintf(b, "\n### %s\n\n%s\n", s.title, strings.Join(lines, "\n"))
		}
	}
	for _, a := range attributes {
		if a.nested != nil {
			id := anchor(parent, a.name)
			fmt.Fprintf(b, "\n<a id=\"nestedatt--%s\"></a>\n### Nested Schema for `%s`\n", id, strings.ReplaceAll(id, "--", "."))
			writeAttributes(b, id, a.nested)
		}
	}
}

func anchor(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "--" + name
}

func sorted(attributes []docAttribute) []docAttribute {
	sort.Slice(attributes, func(i, j int) bool { return attributes[i].name < attributes[j].name })
	return attributes
}

func kindOf(t attr.Type) string {
	switch t := t.(type) {
	case types.ListType:
		return "List of " + kindOf(t.ElemType)
	case types.MapType:
		return "Map of " + kindOf(t.ElemType)
	}
	switch t {
	case types.StringType:
		return "String"
	case types.Int64Type, types.Float64Type:
		return "Number"
	case types.BoolType:
		return "Boolean"
	}
	return "Attributes"
}

func providerAttributes(in map[string]pschema.Attribute) []docAttribute {
	var out []docAttribute
	for name, a := range in {
		out = append(out, docAttribute{name: name, description: describe(a), kind: kindOf(a.GetType()),
			required: a.IsRequired(), optional: a.IsOptional(), sensitive: a.IsSensitive()})
	}
	return sorted(out)
}

func resourceAttributes(in map[string]rschema.Attribute) []docAttribute {
	var out []docAttribute
	for name, a := range in {
		d := docAttribute{name: name, description: describe(a), kind: kindOf(a.GetType()),
			required: a.IsRequired(), optional: a.IsOptional(), sensitive: a.IsSensitive()}
		switch n := a.(type) {
		case rschema.ListNestedAttribute:
			d.kind, d.nested = "Attributes List", resourceAttributes(n.NestedObject.Attributes)
		case rschema.SingleNestedAttribute:
			d.kind, d.nested = "Attributes", resourceAttributes(n.Attributes)
		}
		out = append(out, d)
	}
	return sorted(out)
}

func dataSourceDocAttributes(in map[string]dschema.Attribute) []docAttribute {
	var out []docAttribute
	for name, a := range in {
		d := docAttribute{name: name, description: describe(a), kind: kindOf(a.GetType()),
			required: a.IsRequired(), optional: a.IsOptional(), sensitive: a.IsSensitive()}
		switch n := a.(type) {
		case dschema.ListNestedAttribute:
			d.kind, d.nested = "Attributes List", dataSourceDocAttributes(n.NestedObject.Attributes)
		case dschema.SingleNestedAttribute:
			d.kind, d.nested = "Attributes", dataSourceDocAttributes(n.Attributes)
		}
		out = append(out, d)
	}
	return sorted(out)
}

// describe is an attribute's Markdown description, or its plain one.
func describe(a interface {
	GetMarkdownDescription() string
	GetDescription() string
}) string {
	if d := a.GetMarkdownDescription(); d != "" {
		return d
	}
	return a.GetDescription()
}
