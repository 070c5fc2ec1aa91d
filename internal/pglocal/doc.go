// Package pglocal owns a PostgreSQL cluster that this process manages itself: the server's
// embedded default when no database URL is given, and the engine behind the test database
// (package pgtest).
//
// Start finds the PostgreSQL server binaries (initdb, pg_ctl and postgres on PATH or under
// /usr/lib/postgresql/*/bin), creates a cluster in a data directory on first use and starts it
// listening on a private unix socket only, never on TCP. A cluster that another process already
// runs in the same data directory is reused instead of started twice. When the process runs as
// root, every PostgreSQL program runs as an unprivileged system user (postgres, else nobody),
// because PostgreSQL refuses to run as root.
//
// The cluster's superuser is "venue", authenticated by trust over the private socket; Start
// creates a database named "venue". The server's own log goes to postgres.log in the data
// directory.
package pglocal
