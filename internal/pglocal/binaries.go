package pglocal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// minMajor is the oldest PostgreSQL release the schema supports.
const minMajor = 15

// searchGlob finds Debian-style installations of several PostgreSQL versions side by side.
// Tests replace it.
var searchGlob = "/usr/lib/postgresql/*/bin"

// binaries are the programs of one PostgreSQL installation.
type binaries struct {
	initdb, pgCtl, postgres string
	major                   int
}

var (
	versionDirRE    = regexp.MustCompile(`/postgresql/(\d+)/bin$`)
	versionOutputRE = regexp.MustCompile(`\(PostgreSQL\) (\d+)`)
)

// findBinaries returns the installation to use: the one on PATH, else the newest under
// searchGlob. With want > 0 (an existing cluster of that major version) it must be that
// version; otherwise at least minMajor.
func findBinaries(ctx context.Context, want int) (binaries, error) {
	var found []binaries
	seen := map[string]bool{}
	add := func(b binaries, ok bool) {
		if ok && !seen[b.pgCtl] {
			seen[b.pgCtl] = true
			found = append(found, b)
		}
	}
	add(fromPath(ctx))
	dirs, _ := filepath.Glob(searchGlob)
	var fromDirs []binaries
	for _, dir := range dirs {
		if b, ok := fromDir(ctx, dir); ok {
			fromDirs = append(fromDirs, b)
		}
	}
	sort.SliceStable(fromDirs, func(i, j int) bool { return fromDirs[i].major > fromDirs[j].major })
	for _, b := range fromDirs {
		add(b, true)
	}
	if len(found) == 0 {
		return binaries{}, fmt.Errorf("pglocal: %w", ErrNoBinaries)
	}
	var versions []string
	for _, b := range found {
		if (want > 0 && b.major == want) || (want == 0 && b.major >= minMajor) {
			return b, nil
		}
		versions = append(versions, fmt.Sprintf("%d (%s)", b.major, filepath.Dir(b.pgCtl)))
	}
	if want > 0 {
		return binaries{}, fmt.Errorf("pglocal: the data directory holds a PostgreSQL %d cluster but only PostgreSQL %s is installed: "+
			"install PostgreSQL %d, or use another data directory, or set DATABASE_URL", want, strings.Join(versions, ", "), want)
	}
	return binaries{}, fmt.Errorf("pglocal: %w (found only PostgreSQL %s; %d or newer is needed)",
		ErrNoBinaries, strings.Join(versions, ", "), minMajor)
}

// fromPath returns the installation whose initdb and pg_ctl are on PATH.
func fromPath(ctx context.Context) (binaries, bool) {
	initdb, err1 := exec.LookPath("initdb")
	pgCtl, err2 := exec.LookPath("pg_ctl")
	if err1 != nil || err2 != nil {
		return binaries{}, false
	}
	// Follow symlinks: pg_ctl starts the postgres beside its real location.
	initdb, err1 = filepath.EvalSymlinks(initdb)
	pgCtl, err2 = filepath.EvalSymlinks(pgCtl)
	if err1 != nil || err2 != nil {
		return binaries{}, false
	}
	initdb, _ = filepath.Abs(initdb)
	pgCtl, _ = filepath.Abs(pgCtl)
	postgres := filepath.Join(filepath.Dir(pgCtl), "postgres")
	if !executable(postgres) {
		return binaries{}, false
	}
	b := binaries{initdb: initdb, pgCtl: pgCtl, postgres: postgres}
	if m := versionDirRE.FindStringSubmatch(filepath.Dir(pgCtl)); m != nil {
		b.major, _ = strconv.Atoi(m[1])
	} else {
		b.major = versionOf(ctx, pgCtl)
	}
	return b, b.major > 0
}

// fromDir returns the installation in dir, a directory named .../postgresql/<major>/bin.
func fromDir(ctx context.Context, dir string) (binaries, bool) {
	b := binaries{
		initdb:   filepath.Join(dir, "initdb"),
		pgCtl:    filepath.Join(dir, "pg_ctl"),
		postgres: filepath.Join(dir, "postgres"),
	}
	if !executable(b.initdb) || !executable(b.pgCtl) || !executable(b.postgres) {
		return binaries{}, false
	}
	if m := versionDirRE.FindStringSubmatch(dir); m != nil {
		b.major, _ = strconv.Atoi(m[1])
	} else {
		b.major = versionOf(ctx, b.pgCtl)
	}
	return b, b.major > 0
}

// versionOf asks a program for its PostgreSQL major version; 0 when that fails.
func versionOf(ctx context.Context, program string) int {
	out, err := exec.CommandContext(ctx, program, "--version").Output()
	if err != nil {
		return 0
	}
	m := versionOutputRE.FindSubmatch(out)
	if m == nil {
		return 0
	}
	major, _ := strconv.Atoi(string(m[1]))
	return major
}

func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
