package cmd

import (
	"fmt"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"keel.dev/cli/api"
)

// The nouns of an instance's Kafka access (users, acls, topics) take the instance with --instance, as the
// API nests them under it.

// instanceScope is the --instance flag a noun gives all its verbs.
type instanceScope struct {
	ref string
}

func (s *instanceScope) register(noun *cobra.Command) {
	noun.PersistentFlags().StringVar(&s.ref, "instance", "", "the instance (name or id)")
	_ = noun.MarkPersistentFlagRequired("instance")
}

// run runs fn with an API client and the id of the instance --instance names.
func (s *instanceScope) run(a *app, fn func(cmd *cobra.Command, args []string, c *api.ClientWithResponses, instance uuid.UUID) error) func(*cobra.Command, []string) error {
	return a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
		inst, err := a.instance(cmd.Context(), c, s.ref)
		if err != nil {
			return err
		}
		return fn(cmd, args, c, inst.JSON200.Id)
	})
}

// checkFirst runs check before run, so that a usage error is reported before any API call.
func checkFirst(check func() error, run func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(); err != nil {
			return err
		}
		return run(cmd, args)
	}
}

// passwordShownOnce tells the person at the command that the password just printed cannot be read again.
func (a *app) passwordShownOnce(user, again string) {
	fmt.Fprintf(a.errOut, "The password of Kafka user %s is shown this once: store it now. %s\n", user, again)
}
