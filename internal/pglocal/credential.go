package pglocal

import "fmt"

// credential is the system user PostgreSQL runs as when this process is root.
type credential struct {
	uid, gid uint32
	name     string
}

// String names the user for log messages; a nil credential is this process's own user.
func (c *credential) String() string {
	if c == nil {
		return "current user"
	}
	return fmt.Sprintf("%s (uid %d)", c.name, c.uid)
}
