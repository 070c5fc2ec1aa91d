package pglocal

import (
	"errors"
	"syscall"
)

// setParentDeathSignal does nothing: macOS has no parent-death signal, so a throwaway
// server outlives a process that dies without calling Stop.
func setParentDeathSignal(*syscall.SysProcAttr) {}

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// isPostgresProcess reports whether pid is running; macOS offers no cheap way to check that
// it is a PostgreSQL process.
func isPostgresProcess(pid int) bool { return processAlive(pid) }
