// Package api is the Keel API client, generated from the contract (contract/openapi.yaml)
// by `go generate ./...` before every build; the generated file is not committed, so a change to the
// contract reaches the CLI and the Terraform provider with no edit here.
package api

//go:generate go tool oapi-codegen -config oapi-codegen.yaml ../../contract/openapi.yaml
