package arch_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDocMap holds the map of doc.go (every package by layer) equal to the
// table the layering test enforces, so the package documentation, and the
// README drawn from it, cannot drift from the rules.
func TestDocMap(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(src), "// # The map\n")
	require.True(t, ok, "doc.go has no '# The map' section")

	labels := map[string]layer{}
	for l := faces; l <= tests; l++ {
		labels[l.String()] = l
	}
	inDoc := map[string]layer{}
	var current layer
	started := false
	for _, line := range strings.Split(after, "\n") {
		body, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			if started {
				break // the map is one indented block
			}
			continue
		}
		started = true
		if !strings.HasPrefix(body, " ") {
			found := false
			for label, l := range labels {
				if rest, ok := strings.CutPrefix(body, label+" "); ok {
					current, body, found = l, rest, true
					break
				}
			}
			require.True(t, found, "doc.go map line names no layer: %q", line)
		}
		for _, pkg := range strings.Fields(body) {
			_, dup := inDoc[pkg]
			require.False(t, dup, "doc.go map lists %s twice", pkg)
			inDoc[pkg] = current
		}
	}
	require.Equal(t, table, inDoc, "the map in doc.go and the table of arch_test.go differ")
}
