//go:build mcpbench && linux

package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ, 100
// on Linux).
const clockTick = 10 * time.Millisecond

// cpuMeter reads the CPU time spent so far by this process (the benchmark's
// clients and servers) and by the test database's server processes (the
// postmaster, its children, and the children it has reaped).
type cpuMeter struct {
	postmaster int
}

// newCPUMeter finds the postmaster of the pool's database server.
func newCPUMeter(ctx context.Context, pool *pgxpool.Pool) (*cpuMeter, error) {
	var backend int
	if err := pool.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return nil, err
	}
	st, err := procStat(backend)
	if err != nil {
		return nil, err
	}
	return &cpuMeter{postmaster: st.ppid}, nil
}

// self returns the CPU time of this process.
func (m *cpuMeter) self() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// db returns the CPU time of the database server.
func (m *cpuMeter) db() time.Duration {
	var total time.Duration
	if st, err := procStat(m.postmaster); err == nil {
		total += st.cpu + st.children
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if st, err := procStat(pid); err == nil && st.ppid == m.postmaster {
			total += st.cpu
		}
	}
	return total
}

type stat struct {
	ppid          int
	cpu, children time.Duration
}

// procStat reads the parent and the CPU times of pid from /proc/<pid>/stat.
func procStat(pid int) (stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, err
	}
	// The command name is in parentheses and may hold spaces: fields are
	// counted after its closing parenthesis (field 3, state, comes first).
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return stat{}, os.ErrInvalid
	}
	n := func(i int) time.Duration { // field i of stat(5), counting from 1
		v, _ := strconv.ParseInt(f[i-3], 10, 64)
		return time.Duration(v) * clockTick
	}
	ppid, _ := strconv.Atoi(f[4-3])
	return stat{ppid: ppid, cpu: n(14) + n(15), children: n(16) + n(17)}, nil
}
