package config_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/config"
)

// TestREADMETable: the README's configuration table is the one the setting
// definitions make (config.MarkdownTable); change Settings, then paste the
// table this test prints on failure.
func TestREADMETable(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(raw)
	start := strings.Index(readme, "\n## Configuration\n")
	require.GreaterOrEqual(t, start, 0, "the README has a Configuration section")
	section := readme[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+4]
	}
	var table []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "|") {
			table = append(table, line)
		} else if len(table) > 0 {
			break
		}
	}
	require.Equal(t, config.MarkdownTable(), strings.Join(table, "\n")+"\n",
		"README.md's configuration table differs from the setting definitions")
}
