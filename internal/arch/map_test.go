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

// TestReadmeMap holds the README's Layout drawing to the same table: every
// package of the table is named in the layer the table places it in (the
// drawing may shorten "internal/a, b" and name a tree "x/..."), and every
// internal package it names exists in the table, except the "(next: ...)"
// line of capabilities still to come. Test helpers are left out of the
// drawing.
func TestReadmeMap(t *testing.T) {
	src, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(src), "## Layout\n")
	require.True(t, ok, "README has no Layout section")
	_, block, ok := strings.Cut(after, "```\n")
	require.True(t, ok, "README Layout has no drawing")
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok, "README Layout drawing is not closed")

	labels := map[string]layer{}
	for l := faces; l <= storage; l++ {
		labels[l.String()] = l
	}
	drawn := map[string]layer{}
	current, started := layer(-1), false
	for _, line := range strings.Split(block, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			word, _, _ := strings.Cut(line, " ")
			l, ok := labels[word]
			require.True(t, ok, "README Layout line names no layer: %q", line)
			current, started = l, true
			continue
		}
		require.True(t, started, "README Layout starts without a layer: %q", line)
		entry, ok := strings.CutPrefix(line, "  ")
		if !ok || strings.HasPrefix(entry, " ") || strings.HasPrefix(entry, "(") {
			continue // a description's continuation, or capabilities to come
		}
		names, _, _ := strings.Cut(entry, "  ")
		for _, tok := range strings.FieldsFunc(names, func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
			name := strings.TrimSuffix(tok, "/")
			if rest, ok := strings.CutPrefix(name, "internal/"); ok {
				name = rest
				_, known := table["internal/"+name]
				require.True(t, known || strings.HasSuffix(name, "/..."), "README Layout names internal/%s, which the table does not place", name)
			}
			drawn[name] = current
		}
	}
	for pkg, l := range table {
		if l == tests || !strings.HasPrefix(pkg, "internal/") {
			continue
		}
		name := strings.TrimPrefix(pkg, "internal/")
		got, ok := drawn[name]
		if !ok {
			for d, dl := range drawn {
				if tree, isTree := strings.CutSuffix(d, "/..."); isTree && strings.HasPrefix(name, tree+"/") {
					got, ok = dl, true
				}
			}
		}
		require.True(t, ok, "README Layout does not draw %s", pkg)
		require.Equal(t, l, got, "README Layout draws %s in another layer than the table", pkg)
	}
}
