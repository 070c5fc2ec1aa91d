// Package pgtest owns the test database of `go test ./...`: a PostgreSQL server that needs
// nothing started by hand, and a fresh, migrated database for every test that asks for one.
//
// A package that uses it runs its tests through Main:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// and a test calls New (a connection URL) or NewPool (a pool) for a database of its own,
// cloned from a template database that has all migrations applied and dropped when the test
// ends, so tests are isolated from each other and may run in parallel.
//
// The server is the one TEST_DATABASE_URL points at when that variable is set (its user
// needs the CREATEDB privilege); otherwise a throwaway cluster of package pglocal in a
// temporary directory, one per test binary, started on first use, stopped and removed when
// the tests end. The cluster ends with the test binary even when that crashes, and a later
// run removes the directories that crashed runs left behind.
package pgtest
