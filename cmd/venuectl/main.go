package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // venue time zones resolve on hosts without a zone database

	"golang.org/x/term"
)

func main() {
	os.Exit(run())
}

func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := &app{stdout: os.Stdout, stderr: os.Stderr, interactive: term.IsTerminal(int(os.Stderr.Fd()))}
	err := newRootCmd(a, os.Getenv).ExecuteContext(ctx)
	if cerr := a.close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "venuectl:", err)
		return 1
	}
	return 0
}
