package db

// MigrateFS and PendingFS expose the runner over any file system to the tests.
var (
	MigrateFS = migrate
	PendingFS = pending
)
