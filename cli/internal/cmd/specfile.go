package cmd

import (
	"encoding/json"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// readDocument reads a request body from a YAML or JSON file ("-" for stdin). ${NAME} in the file is
// replaced by the environment variable NAME, so one spec serves several accounts; an unset variable is
// an error rather than an empty id. The document is sent as it is: the API validates it.
func (a *app) readDocument(path string) (map[string]any, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(a.in)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, usageError{err}
	}
	var missing []string
	expanded := os.Expand(string(data), func(name string) string {
		value, ok := os.LookupEnv(name)
		if !ok {
			missing = append(missing, name)
		}
		return value
	})
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, usagef("%s refers to unset environment variables: %s", path, strings.Join(missing, ", "))
	}
	doc := map[string]any{}
	if err := yaml.Unmarshal([]byte(expanded), &doc); err != nil {
		return nil, usagef("%s is neither YAML nor JSON: %v", path, err)
	}
	return doc, nil
}

// object is the map at key in doc, created when missing, for flags that set a nested field.
func object(doc map[string]any, key string) (map[string]any, error) {
	switch v := doc[key].(type) {
	case nil:
		m := map[string]any{}
		doc[key] = m
		return m, nil
	case map[string]any:
		return v, nil
	default:
		return nil, usagef("%q in the spec is not an object", key)
	}
}

// subnetPlacements parses --subnet ZONE=SUBNET values.
func subnetPlacements(values []string) ([]any, error) {
	subnets := make([]any, 0, len(values))
	for _, v := range values {
		zone, subnet, ok := strings.Cut(v, "=")
		if !ok || zone == "" || subnet == "" {
			return nil, usagef("--subnet %q: use ZONE=SUBNET-ID, e.g. us-east-1a=subnet-0123456789abcdef0", v)
		}
		subnets = append(subnets, map[string]any{"availabilityZone": zone, "subnetId": subnet})
	}
	return subnets, nil
}

// field is a flag that sets one field of a request document: path is dotted ("wal.type").
type field struct {
	flag  string
	path  string
	value func() any
}

// applyFields sets the fields whose flags were given, creating the objects on their paths.
func applyFields(cmd *cobra.Command, doc map[string]any, fields []field) error {
	for _, f := range fields {
		if !cmd.Flags().Changed(f.flag) {
			continue
		}
		keys := strings.Split(f.path, ".")
		obj := doc
		for _, k := range keys[:len(keys)-1] {
			var err error
			if obj, err = object(obj, k); err != nil {
				return err
			}
		}
		obj[keys[len(keys)-1]] = f.value()
	}
	return nil
}

// requestBody is the document of -f (when given) with the flags' fields applied over it, as JSON.
func (a *app) requestBody(cmd *cobra.Command, file string, fields []field, missing string) ([]byte, error) {
	doc := map[string]any{}
	if file != "" {
		var err error
		if doc, err = a.readDocument(file); err != nil {
			return nil, err
		}
	}
	if err := applyFields(cmd, doc, fields); err != nil {
		return nil, err
	}
	if len(doc) == 0 {
		return nil, usagef("%s", missing)
	}
	return json.Marshal(doc)
}
