package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux the tool runs on).
const clockTick = 10 * time.Millisecond

// cpuMeter samples the CPU time used by this process (the load generator
// and the in-process servers) and, when it is on this machine and known,
// by the managed PostgreSQL (the postmaster and its children). CPU per
// request is what a busy shared machine disturbs least: a step that got
// less of the machine is slower but not costlier.
type cpuMeter struct {
	// pgDataDir is the managed cluster's data directory; empty without one.
	pgDataDir string
}

// cpuSample is one reading; db is negative when unknown.
type cpuSample struct {
	self, db time.Duration
}

// sample reads the meter.
func (m cpuMeter) sample() cpuSample {
	s := cpuSample{self: selfCPU(), db: -1}
	if m.pgDataDir != "" {
		if d, ok := postgresCPU(m.pgDataDir); ok {
			s.db = d
		}
	}
	return s
}

// postgresCPU sums the CPU time of the postmaster of dataDir (its own, and
// that of its children that have exited) and of its live children, from
// /proc. It reports false where /proc is not there.
func postgresCPU(dataDir string) (time.Duration, bool) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	pm, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if err != nil {
		return 0, false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	var ticks int64
	found := false
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, ok := procStat(pid)
		if !ok {
			continue
		}
		switch {
		case pid == pm:
			ticks += f.utime + f.stime + f.cutime + f.cstime
			found = true
		case f.ppid == pm:
			ticks += f.utime + f.stime
		}
	}
	return time.Duration(ticks) * clockTick, found
}

type statFields struct {
	ppid                         int
	utime, stime, cutime, cstime int64
}

// procStat parses /proc/<pid>/stat.
func procStat(pid int) (statFields, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return statFields{}, false
	}
	// The command may hold spaces and parentheses: fields start after the
	// last ')'. Then: state ppid ... utime(14) stime(15) cutime(16) cstime(17).
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return statFields{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 15 {
		return statFields{}, false
	}
	num := func(k int) int64 { n, _ := strconv.ParseInt(f[k], 10, 64); return n }
	// f[0] is field 3 (state), so field n is f[n-3].
	return statFields{ppid: int(num(1)), utime: num(11), stime: num(12), cutime: num(13), cstime: num(14)}, true
}
