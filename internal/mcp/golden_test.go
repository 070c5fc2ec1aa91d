package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/platform"
	"github.com/venueplatform/venue/internal/ratelimit"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/golden")

// TestGolden replays the JSON-RPC transcripts of testdata/golden: each file
// holds a request (the sections key, method, setup and request) and the
// exact answer (response). Run with -update to rewrite the answers.
//
// Sections: key names a fixture key (none: no X-API-Key header); method is
// the HTTP method (POST when absent); setup may be "killswitch"; request is a
// text/template over the fixture's values (.Today, .OtherClass, .Anna, ...).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	shared := newFixture(t, 1000)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			require.NoError(t, err)
			sec := map[string]string{}
			for _, fl := range ar.Files {
				sec[fl.Name] = strings.TrimSpace(string(fl.Data))
			}
			f := shared
			if sec["setup"] == "killswitch" {
				f = newFixture(t, 1000)
				_, err := platform.SetKillSwitch(context.Background(), f.client, true, "golden")
				require.NoError(t, err)
			}
			key := f.keys[sec["key"]]
			if sec["key"] == "limited" {
				f.exhaust(key)
			}
			got := f.exchange(sec["method"], key, f.render(sec["request"]))
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "response" {
						ar.Files[i].Data = []byte(got)
					}
				}
				require.NoError(t, os.WriteFile(file, txtar.Format(ar), 0o644))
				return
			}
			require.Equal(t, sec["response"], strings.TrimSpace(got), "run go test ./internal/mcp -run TestGolden -update to accept")
		})
	}
}

// render fills a request template with the fixture's values.
func (f *fixture) render(s string) string {
	tmpl := template.Must(template.New("request").Parse(s))
	var b bytes.Buffer
	require.NoError(f.t, tmpl.Execute(&b, map[string]string{
		"Today":      f.today.Format(day),
		"OtherClass": f.otherClass.String(),
		"Anna":       f.anna.String(),
		"Membership": f.membership.String(),
		"Unknown":    "0b5b8a4e-1f0e-4a57-9d55-3c1f1f7e2a10",
	}))
	return b.String()
}

// exchange sends one HTTP request and renders the answer: status line,
// the headers that matter, and the body indented.
func (f *fixture) exchange(method, key, body string) string {
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequest(method, f.url, strings.NewReader(body))
	require.NoError(f.t, err)
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(f.t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(f.t, err)
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d\n", resp.StatusCode)
	for _, h := range []string{"Allow", "Content-Type"} {
		if v := resp.Header.Get(h); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", h, v)
		}
	}
	b.WriteString("\n")
	if len(out) == 0 {
		b.WriteString("(no body)\n")
		return b.String()
	}
	var pretty bytes.Buffer
	require.NoError(f.t, json.Indent(&pretty, out, "", "  "), string(out))
	b.Write(pretty.Bytes())
	b.WriteString("\n")
	return b.String()
}

// exhaust spends the key's rate-limit window so that the next request is
// refused and may retry within a second (retry_after_seconds is then 1).
func (f *fixture) exhaust(key string) {
	k, err := apikey.Lookup(context.Background(), f.client, key)
	require.NoError(f.t, err)
	_, err = f.pool.Exec(context.Background(),
		`INSERT INTO rate_limits (key, tat) VALUES ($1, now() + interval '60.5 seconds')
		 ON CONFLICT (key) DO UPDATE SET tat = excluded.tat`, ratelimit.APIKey(k.ID))
	require.NoError(f.t, err)
}
