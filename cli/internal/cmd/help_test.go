package cmd

import (
	"testing"

	"github.com/spf13/cobra"
)

// Every command people type has a short description and examples in its --help.
func TestEveryCommandHasExamples(t *testing.T) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" || (c.Parent() != nil && c.Parent().Name() == "completion") {
			return
		}
		if c.Short == "" {
			t.Errorf("%s has no short description", c.CommandPath())
		}
		if c.Example == "" {
			t.Errorf("%s has no examples", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := (&app{}).rootCommand()
	root.InitDefaultCompletionCmd()
	walk(root)
}
