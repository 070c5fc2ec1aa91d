//go:build !linux && !darwin

package pglocal

import (
	"context"
	"errors"
	"log/slog"
	"os/exec"
	"runtime"
)

var errUnsupported = errors.New("pglocal: a managed PostgreSQL is not supported on " + runtime.GOOS +
	": set DATABASE_URL to use an existing server")

func supported() error { return errUnsupported }

func runAsUser(string, bool) (*credential, error)                   { return nil, errUnsupported }
func setProcAttr(*exec.Cmd, *credential, bool)                      {}
func startTied(cmd *exec.Cmd) error                                 { return cmd.Start() }
func processAlive(int) bool                                         { return false }
func isPostgresProcess(int) bool                                    { return false }
func fileOwner(string) (uint32, error)                              { return 0, errUnsupported }
func chown(string, *credential) error                               { return errUnsupported }
func chownTree(string, *credential) error                           { return errUnsupported }
func ensureTraversable(string, *credential, *slog.Logger) error     { return errUnsupported }
func lockDir(context.Context, string, *slog.Logger) (func(), error) { return nil, errUnsupported }
