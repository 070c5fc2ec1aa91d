package config_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// envFuncs are the functions of package os that read or change the process
// environment.
var envFuncs = map[string]bool{
	"Getenv": true, "LookupEnv": true, "Setenv": true, "Unsetenv": true,
	"Clearenv": true, "Environ": true, "ExpandEnv": true,
}

// envAllowed are the files outside package config and the main packages that
// may touch the environment, each with its reason. Test files are held to
// the same rule (tests configure through t.Setenv and config.FromEnvironment).
var envAllowed = map[string]string{
	"internal/pgtest/pgtest.go": "TEST_DATABASE_URL points the test suite at a PostgreSQL server of the " +
		"developer's; it is a switch of the tests, not a setting of the service",
	"internal/pglocal/pglocal.go": "passes this process's environment, minus PG* variables, to the " +
		"PostgreSQL programs it starts (PATH, locale); it reads no setting",
	"internal/importer/large_test.go": "VENUE_WRITE_LARGE_DOC saves the generated import document of " +
		"one test for a developer to inspect",
}

// TestEnvironmentIsReadOnlyByConfig: no package other than config and the
// commands (package main) reads or sets the process environment; everything
// else takes its settings as typed values from the command that started it.
func TestEnvironmentIsReadOnlyByConfig(t *testing.T) {
	root := filepath.Join("..", "..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel != "." {
			switch {
			case rel == "ent", rel == "internal/config", strings.HasPrefix(d.Name(), "."), d.Name() == "testdata":
				return filepath.SkipDir // generated code, this package, tooling
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(rel, ".go") || envAllowed[rel] != "" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil // commands read their configuration
		}
		osName := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "os" {
				osName = "os"
				if imp.Name != nil {
					osName = imp.Name.Name
				}
			}
		}
		if osName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || !envFuncs[sel.Sel.Name] {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == osName {
				found = append(found, rel+": os."+sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	sort.Strings(found)
	require.Empty(t, found, "read settings in package config (a Setting) and pass the typed value down")
	for path := range envAllowed {
		require.FileExists(t, filepath.Join(root, path), "an allowed file that is gone leaves the list")
	}
}
