package pglocal

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
)

// pidFile is what a running server writes to postmaster.pid.
type pidFile struct {
	pid       int
	port      int
	socketDir string
	status    string
}

// readPidFile parses postmaster.pid: the pid, the data directory, the start time, the port,
// the first socket directory, the listen address, the shared memory key and the status, one
// a line, the later lines appearing as the server starts up. It returns nil without error when
// the file does not exist.
func readPidFile(path string) (*pidFile, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pglocal: read %s: %w", path, err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, strings.TrimSpace(sc.Text()))
	}
	if len(lines) == 0 {
		// A server writes the file in one go; an empty one is left by a crash while writing.
		return &pidFile{}, nil
	}
	pf := &pidFile{}
	pf.pid, _ = strconv.Atoi(lines[0])
	if len(lines) > 3 {
		pf.port, _ = strconv.Atoi(lines[3])
	}
	if len(lines) > 4 {
		pf.socketDir = lines[4]
	}
	if len(lines) > 7 {
		pf.status = lines[7]
	}
	return pf, nil
}

// removeStaleLock removes a socket lock file (.s.PGSQL.<port>.lock) whose server is gone. A
// server checks that itself, but is fooled when a crashed server's pid now belongs to another
// process, as happens in containers.
func removeStaleLock(path string, logger *slog.Logger) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if pid != 0 && isPostgresProcess(pid) {
		return
	}
	logger.Warn("removing stale socket lock file", "path", path, "pid", pid)
	_ = os.Remove(path)
}
