// Package media keeps the files the venues upload (service images) behind a
// small Store: the local filesystem under the data folder by default, and
// any object store with the same four calls (an S3-compatible bucket) when
// one is configured. An upload is staged the way a pre-signed object-store
// upload is: the service hands out a one-time upload path (a random token
// whose marker object names the venue, the target and the expiry), the
// client PUTs the bytes there, and a finalize call checks them (decoding
// the image) before they are published under their permanent key.
package media

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotFound is a key the store does not hold.
var ErrNotFound = errors.New("media: not found")

// ErrTooLarge is a body longer than the limit of a Put.
var ErrTooLarge = errors.New("media: too large")

// Store holds objects by key (slash-separated, no "..").
type Store interface {
	// Put stores at most max bytes of r at key (ErrTooLarge beyond, and
	// nothing stored).
	Put(ctx context.Context, key string, r io.Reader, max int64) error
	// Get opens key (ErrNotFound when absent).
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes key; an absent key is no error.
	Delete(ctx context.Context, key string) error
}

// Local is a Store on the local filesystem under Dir.
type Local struct{ Dir string }

// validKey refuses keys that could leave the store's folder.
func validKey(key string) bool {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains(key, "\\") {
		return false
	}
	for _, p := range strings.Split(key, "/") {
		if p == "" || p == "." || p == ".." {
			return false
		}
	}
	return true
}

func (l Local) path(key string) (string, error) {
	if !validKey(key) {
		return "", ErrNotFound
	}
	return filepath.Join(l.Dir, filepath.FromSlash(key)), nil
}

// Put writes the object to a temporary file first and renames it into
// place, so a reader never sees half an object.
func (l Local) Put(_ context.Context, key string, r io.Reader, max int64) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	n, err := io.Copy(f, io.LimitReader(r, max+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if n > max {
		return ErrTooLarge
	}
	return os.Rename(f.Name(), p)
}

// Get opens the object's file.
func (l Local) Get(_ context.Context, key string) (io.ReadCloser, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	return f, err
}

// Delete removes the object's file.
func (l Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Object is a stored object's key and when it was last written.
type Object struct {
	Key     string
	ModTime time.Time
}

// Lister is a Store that lists its objects under a key prefix (an
// S3-compatible store lists by prefix too); the sweep of staged uploads
// needs it.
type Lister interface {
	List(ctx context.Context, prefix string) ([]Object, error)
}

// List walks the files under prefix (a folder key such as "uploads/"),
// temporary files of unfinished writes included.
func (l Local) List(_ context.Context, prefix string) ([]Object, error) {
	root, err := l.path(strings.TrimSuffix(prefix, "/"))
	if err != nil {
		return nil, err
	}
	var out []Object
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(l.Dir, p)
		if err != nil {
			return err
		}
		out = append(out, Object{Key: filepath.ToSlash(rel), ModTime: info.ModTime()})
		return nil
	})
	return out, err
}
