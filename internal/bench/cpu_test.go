package bench

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProcStatAndSelfCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	f, ok := procStat(os.Getpid())
	require.True(t, ok)
	require.Equal(t, os.Getppid(), f.ppid)
	x := 0
	for i := range 20_000_000 {
		x += i
	}
	require.Positive(t, x)
	require.Positive(t, selfCPU())
	_, ok = postgresCPU(t.TempDir()) // no postmaster.pid
	require.False(t, ok)
}
