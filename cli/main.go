// keel is the command-line client of the Keel control plane.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"keel.dev/cli/internal/cmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cmd.Execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
