package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"keel.dev/cli/api"
)

// ProblemTypePrefix starts every problem type the API defines.
const ProblemTypePrefix = "https://keel.dev/problems/"

// Problem is an API answer with a 4xx or 5xx status, as the RFC 9457 document the API sent (or one
// made up from the status when the body is not a problem document).
type Problem struct {
	api.Problem
}

// Kind is the problem type's last segment (validation-failed, precondition-failed, …), or "".
func (p *Problem) Kind() string {
	return strings.TrimPrefix(string(p.Type), ProblemTypePrefix)
}

func (p *Problem) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d)", p.Title, p.Status)
	if p.Detail != nil && *p.Detail != "" {
		fmt.Fprintf(&b, ": %s", *p.Detail)
	}
	if p.Errors != nil {
		for _, e := range *p.Errors {
			fmt.Fprintf(&b, "\n  %s: %s", e.Field, e.Message)
		}
	}
	return b.String()
}

// problemDoer turns every answer that is not 2xx or 3xx into a *Problem, so callers handle success only.
type problemDoer struct {
	next *http.Client
}

func (d *problemDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.next.Do(req)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s answered %s and its body could not be read: %w", req.Method, req.URL, resp.Status, err)
	}
	return nil, problemOf(resp, body)
}

func problemOf(resp *http.Response, body []byte) *Problem {
	p := &Problem{}
	if json.Unmarshal(body, &p.Problem) != nil || p.Status == 0 || p.Title == "" {
		detail := strings.TrimSpace(string(bytes.ToValidUTF8(body, nil)))
		if len(detail) > 300 {
			detail = detail[:300] + "…"
		}
		p.Problem = api.Problem{Type: "about:blank", Title: http.StatusText(resp.StatusCode), Status: resp.StatusCode}
		if detail != "" {
			p.Detail = &detail
		}
	}
	if p.RequestId == nil {
		if id := resp.Header.Get("X-Request-Id"); id != "" {
			p.RequestId = &id
		}
	}
	return p
}

func newKey() string {
	return uuid.NewString()
}
