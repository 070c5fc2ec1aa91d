//go:build linux || darwin

package pglocal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

func supported() error { return nil }

// runAsUser returns the user PostgreSQL must run as: nil (this process's user) unless this
// process is root. As root, an existing cluster keeps the owner of its data directory;
// otherwise the system user postgres, else nobody.
func runAsUser(dataDir string, initialized bool) (*credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	if initialized {
		fi, err := os.Stat(dataDir)
		if err != nil {
			return nil, fmt.Errorf("pglocal: %w", err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 0 {
			cred := &credential{uid: st.Uid, gid: st.Gid, name: strconv.Itoa(int(st.Uid))}
			if u, err := user.LookupId(strconv.Itoa(int(st.Uid))); err == nil {
				cred.name = u.Username
				if gid, err := strconv.ParseUint(u.Gid, 10, 32); err == nil {
					cred.gid = uint32(gid)
				}
			}
			return cred, nil
		}
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil || uid == 0 {
			continue
		}
		return &credential{uid: uint32(uid), gid: uint32(gid), name: name}, nil
	}
	return nil, errors.New("pglocal: this process runs as root, which PostgreSQL refuses, and neither " +
		"system user postgres nor nobody exists to run it as: create a user postgres, run as another user, or set DATABASE_URL")
}

// setProcAttr makes cmd run as cred in a process group of its own; with tieToParent the
// kernel sends it SIGQUIT (PostgreSQL's immediate shutdown) when this process ends.
func setProcAttr(cmd *exec.Cmd, cred *credential, tieToParent bool) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if cred != nil {
		attr.Credential = &syscall.Credential{Uid: cred.uid, Gid: cred.gid}
	}
	if tieToParent {
		setParentDeathSignal(attr)
	}
	cmd.SysProcAttr = attr
}

// tiedThread is an OS thread that lives as long as the process. The kernel sends the
// parent-death signal when the thread that forked a child ends, not the process, and Go may
// end threads; children tied to this process are therefore forked from this thread.
var tiedThread struct {
	once sync.Once
	work chan func()
}

// startTied starts cmd from tiedThread.
func startTied(cmd *exec.Cmd) error {
	tiedThread.once.Do(func() {
		tiedThread.work = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked, so the thread never ends
			for f := range tiedThread.work {
				f()
			}
		}()
	})
	errc := make(chan error, 1)
	tiedThread.work <- func() { errc <- cmd.Start() }
	return <-errc
}

// lockDir takes an exclusive lock on dir that other processes (and other calls in this one)
// wait for, and returns its release.
func lockDir(ctx context.Context, dir string, logger *slog.Logger) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	logged := false
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(fd, syscall.LOCK_UN)
				_ = f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			_ = f.Close()
			return nil, err
		}
		if !logged {
			logger.Info("waiting for another process starting PostgreSQL in the same data directory")
			logged = true
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func fileOwner(path string) (uint32, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, fmt.Errorf("pglocal: %w", err)
	}
	return fi.Sys().(*syscall.Stat_t).Uid, nil
}

func chown(path string, cred *credential) error {
	if err := os.Chown(path, int(cred.uid), int(cred.gid)); err != nil {
		return fmt.Errorf("pglocal: %w", err)
	}
	return nil
}

func chownTree(root string, cred *credential) error {
	err := filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, int(cred.uid), int(cred.gid))
	})
	if err != nil {
		return fmt.Errorf("pglocal: give the data directory to %s: %w", cred, err)
	}
	return nil
}

// ensureTraversable lets cred search every directory above path, adding the one execute bit
// it lacks (never a read bit) and saying so.
func ensureTraversable(path string, cred *credential, logger *slog.Logger) error {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("pglocal: %w", err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		var need fs.FileMode
		switch {
		case st.Uid == cred.uid:
			need = 0o100
		case st.Gid == cred.gid:
			need = 0o010
		default:
			need = 0o001
		}
		if fi.Mode().Perm()&need == 0 {
			mode := fi.Mode()&(fs.ModePerm|fs.ModeSticky|fs.ModeSetgid|fs.ModeSetuid) | need
			logger.Warn("letting the PostgreSQL user traverse a directory above the data directory",
				"dir", dir, "user", cred.name, "mode", mode.String())
			if err := os.Chmod(dir, mode); err != nil {
				return fmt.Errorf("pglocal: %s must be traversable by %s: %w", dir, cred, err)
			}
		}
		if parent := filepath.Dir(dir); parent == dir {
			return nil
		}
	}
}
