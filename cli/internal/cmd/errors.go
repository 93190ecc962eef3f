package cmd

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"keel.dev/cli/auth"
	"keel.dev/cli/client"
)

// Exit codes, as the help text documents them.
const (
	exitOK      = 0
	exitUsage   = 1
	exitAPI     = 2
	exitAuth    = 3
	exitTimeout = 4
	exitFailed  = 5
)

// usageError is a mistake in the command line or its input files.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func exitCode(err error) int {
	var problem *client.Problem
	var failed *client.OperationFailed
	var retrieve *oauth2.RetrieveError
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &problem):
		if problem.Status == 401 || problem.Status == 403 {
			return exitAuth
		}
		return exitAPI
	case errors.Is(err, auth.ErrLoginRequired), errors.As(err, &retrieve):
		return exitAuth
	case errors.Is(err, client.ErrWaitTimeout):
		return exitTimeout
	case errors.As(err, &failed):
		return exitFailed
	case errors.As(err, &netErr), errors.As(err, &urlErr):
		return exitAPI
	default:
		return exitUsage
	}
}

// report writes err for a person: the problem's title, detail and field errors, its request id, and
// what to do about it.
func (a *app) report(err error) {
	fmt.Fprintf(a.errOut, "Error: %v\n", err)
	var problem *client.Problem
	if errors.As(err, &problem) && problem.RequestId != nil {
		fmt.Fprintf(a.errOut, "Request id: %s\n", *problem.RequestId)
	}
	if hint := suggestion(err); hint != "" {
		fmt.Fprintf(a.errOut, "Suggestion: %s\n", hint)
	}
}

// kindHints say what to do about the kinds of problem where the status alone does not tell.
var kindHints = map[string]string{
	"not-a-member":                    "'keel organizations me' lists your organizations; pass one of them to --org.",
	"name-taken":                      "choose another name, or look at the existing one with the matching get command.",
	"cloud-account-in-use":            "delete the instances that use it first: 'keel instances list'.",
	"deletion-protected":              "turn deletion protection off first: 'keel instances update NAME --deletion-protection=false'.",
	"cloud-account-not-verified":      "fix the role, then 'keel cloud-accounts verify NAME'.",
	"replacement-required":            "create a new instance with the new spec and move clients to it.",
	"subscription-ended":              "renew the subscription on AWS Marketplace; scaling down and deleting still work.",
	"entitlement-exceeded":            "scale another instance down, or raise the contract's aku entitlement on AWS Marketplace.",
	"trial-limit-exceeded":            "subscribe to Keel on AWS Marketplace and link the subscription to this organization.",
	"budget-exceeded":                 "'keel billing budget get' shows the guardrails; an admin can raise them with 'keel billing budget set'.",
	"listener-unauthenticated":        "Kafka users, ACLs and a CA certificate need an instance created with SASL_SSL listeners (the default).",
	"acl-exists":                      "the same ACL is already recorded: 'keel acls list --instance NAME --principal PRINCIPAL' shows it.",
	"too-many-failed-authentications": "too many refused tokens came from this address lately: wait as long as the error says, then sign in again with 'keel login'.",
}

// statusHints say what to do about a problem by its status.
var statusHints = map[int]string{
	401: "sign in again with 'keel login'.",
	403: "your role does not allow this here: ask an admin of the organization, or use --org for another one.",
	404: "check the name or id with the matching list command, and --org.",
	409: "it conflicts with the current state; 'keel operations list --instance NAME' shows an operation in progress, 'keel operations wait ID' waits for it.",
	412: "the instance changed since it was read; run the command again without --if-match to use its current ETag.",
	422: "the Idempotency-Key was used for another request: use a new --idempotency-key, or none (each command sends a fresh one).",
	503: "the cloud account did not answer; nothing changed, retry in a moment.",
}

func suggestion(err error) string {
	var problem *client.Problem
	var failed *client.OperationFailed
	var urlErr *url.Error
	switch {
	case errors.As(err, &problem):
		if hint, ok := kindHints[problem.Kind()]; ok {
			return hint
		}
		if hint, ok := statusHints[problem.Status]; ok {
			return hint
		}
		if problem.Status >= 500 {
			return "the control plane failed; retry, and quote the request id if it persists."
		}
	case errors.Is(err, auth.ErrLoginRequired):
		return "sign in with 'keel login' (or 'keel login --client-id ID --client-secret SECRET' for a service account)."
	case errors.Is(err, client.ErrWaitTimeout):
		return "the operation goes on; keep waiting with 'keel operations wait ID', or raise --timeout."
	case errors.As(err, &failed):
		return "'keel operations get " + failed.Operation.Id.String() + "' shows every step; fix the cause, then retry or 'keel instances repair'."
	case errors.As(err, &urlErr):
		if strings.Contains(urlErr.Error(), "connection refused") {
			return "is the control plane running at this address? Set it with --api-url or KEEL_API_URL."
		}
	}
	return ""
}
