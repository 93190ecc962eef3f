package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"keel.dev/cli/api"
)

// PollInterval is how often a waiting client reads an operation again.
const PollInterval = time.Second

// ErrWaitTimeout says an operation had not finished when the caller stopped waiting; it goes on.
var ErrWaitTimeout = errors.New("timed out")

// OperationFailed says an operation ended FAILED or CANCELLED; Operation is its final state.
type OperationFailed struct {
	Operation api.Operation
}

func (e *OperationFailed) Error() string {
	op := e.Operation
	msg := fmt.Sprintf("operation %s (%s) %s", op.Id, op.Type, op.State)
	stepMessage := ""
	if step := FailedStep(op); step != nil {
		msg += " at step " + step.Name
		if step.Message != nil && *step.Message != "" {
			stepMessage = *step.Message
			msg += ": " + stepMessage
		}
	}
	if op.Error != nil {
		msg += fmt.Sprintf(" [%s]", op.Error.Code)
		if op.Error.Message != stepMessage {
			msg += " " + op.Error.Message
		}
	}
	return msg
}

// FailedStep is the operation's failed step, if any.
func FailedStep(op api.Operation) *api.OperationStep {
	for i := range op.Steps {
		if op.Steps[i].State == api.StepStateFAILED {
			return &op.Steps[i]
		}
	}
	return nil
}

// Finished says whether an operation reached a final state.
func Finished(op api.Operation) bool {
	switch op.State {
	case api.OperationStateSUCCEEDED, api.OperationStateFAILED, api.OperationStateCANCELLED:
		return true
	}
	return false
}

// WaitOperation reads the operation until it finishes, calling seen with every state read. It returns the
// last answer read, with an *OperationFailed unless the operation SUCCEEDED, or an error wrapping
// ErrWaitTimeout when ctx ends first.
func WaitOperation(ctx context.Context, c *api.ClientWithResponses, id api.OperationId, seen func(api.Operation)) (*api.GetOperationResponse, error) {
	var last *api.GetOperationResponse
	stillRunning := func() error {
		if last == nil {
			return fmt.Errorf("operation %s not read before the deadline: %w", id, ErrWaitTimeout)
		}
		return fmt.Errorf("operation %s still %s: %w", id, last.JSON200.State, ErrWaitTimeout)
	}
	for {
		r, err := c.GetOperationWithResponse(ctx, id, nil)
		if err != nil {
			if ctx.Err() != nil {
				return last, stillRunning()
			}
			return last, err
		}
		last = r
		if seen != nil {
			seen(*r.JSON200)
		}
		if Finished(*r.JSON200) {
			if r.JSON200.State != api.OperationStateSUCCEEDED {
				return last, &OperationFailed{Operation: *r.JSON200}
			}
			return last, nil
		}
		select {
		case <-ctx.Done():
			return last, stillRunning()
		case <-time.After(PollInterval):
		}
	}
}
