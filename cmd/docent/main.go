// Command docent is a terminal chat assistant that answers support staff's
// questions from a product's documentation.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// exitInterrupted is the shell's convention for a command ended by SIGINT.
const exitInterrupted = 130

// run is main without the process: tests call it with their own arguments,
// streams and environment.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	cmd := newRootCmd(getenv)
	cmd.SetArgs(args)
	cmd.SetIn(stdin)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	err := cmd.ExecuteContext(ctx)
	if ctx.Err() != nil {
		// Ctrl+C (or SIGTERM) stopped a command: whatever it printed last
		// is partial, and scripts must be able to tell.
		fmt.Fprintln(stderr, "docent: interrupted")
		return exitInterrupted
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "docent: %v\n", err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}
