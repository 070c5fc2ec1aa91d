package pglocal

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGQUIT
}

// processAlive reports whether a process with this pid exists and is not a zombie: a process
// killed while its parent is gone lingers as one until init reaps it.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		_, perr := os.Stat("/proc/self")
		return perr != nil // without /proc, trust kill
	}
	// The state follows the parenthesised command name: "pid (comm) S ...".
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		if state := stat[i+2]; state == 'Z' || state == 'X' {
			return false
		}
	}
	return true
}

// isPostgresProcess reports whether pid is a live PostgreSQL server process. A crashed
// server's pid may belong to an unrelated process by now, which is why the name matters.
func isPostgresProcess(pid int) bool {
	if !processAlive(pid) {
		return false
	}
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		_, perr := os.Stat("/proc/self")
		return perr != nil // without /proc, trust the pid
	}
	name := strings.TrimSpace(string(comm))
	return name == "postgres" || name == "postmaster"
}
