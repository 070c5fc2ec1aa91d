package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestListOps(t *testing.T) {
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"--list-ops"})
	require.NoError(t, cmd.Execute())
	for _, op := range []string{"schedule", "schedule-baseline", "schedule-key", "venues-geo"} {
		require.Contains(t, out.String(), op)
	}
}

func TestBadFlagsFailBeforeAnyWork(t *testing.T) {
	for _, args := range [][]string{
		{"--ops", "nope"},
		{"--concurrency", "0"},
		{"--target", "http://127.0.0.1:1"},
		{"--duration", "0s"},
	} {
		cmd := newRootCmd()
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetArgs(args)
		require.Error(t, cmd.Execute(), "%v", args)
	}
}
