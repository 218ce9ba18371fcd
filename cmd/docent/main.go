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

	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/textsafe"
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
	cmd, e := newRoot(getenv)
	cmd.SetArgs(args)
	cmd.SetIn(stdin)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	err := cmd.ExecuteContext(ctx)
	if ctx.Err() != nil && !(err == nil && e.stopped) {
		// Ctrl+C (or SIGTERM) stopped a command: whatever it printed last
		// is partial, and scripts must be able to tell.
		fmt.Fprintln(stderr, "docent: interrupted")
		return exitInterrupted
	}
	if err == nil {
		return 0
	}
	msg := err.Error()
	var busy *postgres.LockBusyError
	if errors.As(err, &busy) {
		msg += " (--lock-wait sets how long to wait)"
	}
	// The packages redact their own errors; this is the last guard.
	fmt.Fprintf(stderr, "docent: %s\n", textsafe.String(e.redactor().String(msg)))
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}
