package provider

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"keel.dev/cli/client"
)

// addError reports err as an error diagnostic: a problem document with its field errors and request id.
func addError(diags *diag.Diagnostics, summary string, err error) {
	detail := err.Error()
	var problem *client.Problem
	if errors.As(err, &problem) && problem.RequestId != nil {
		detail += fmt.Sprintf("\nRequest id: %s", *problem.RequestId)
	}
	diags.AddError(summary, detail)
}

// isNotFound says whether the API answered 404 (the object is gone, or belongs to another organization).
func isNotFound(err error) bool {
	var problem *client.Problem
	return errors.As(err, &problem) && problem.Status == 404
}
