package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedFilesAreCurrent fails while the committed output differs from
// what the Go definitions generate: run `go generate ./...`.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	files, err := render()
	require.NoError(t, err)
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("toolschema", name))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "%s is stale: run go run ./internal/gen/mcpschema", name)
	}
}

func TestDeterministic(t *testing.T) {
	a, err := render()
	require.NoError(t, err)
	b, err := render()
	require.NoError(t, err)
	require.Equal(t, a, b)
}
