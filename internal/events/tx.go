package events

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/system"
)

// Errors of the transaction helper.
var (
	// ErrNoTx means Record was called outside WithTx, or with a client other than the
	// transaction's: the event and its webhook jobs would not commit with the change.
	ErrNoTx = errors.New("events: Record must run inside events.WithTx with tx.Client()")
	// ErrDriver means the ent client was not opened through db.NewClient (NewDriver), so
	// its transactions cannot carry River jobs.
	ErrDriver = errors.New("events: the ent client was not opened with events.NewDriver (db.NewClient)")
)

// WithTx runs fn in one PostgreSQL transaction of client and commits it when fn returns
// nil; it rolls back when fn returns an error or panics, and returns fn's error as is (so
// apperr values reach the caller unchanged).
//
// fn gets a context that carries the transaction and the *ent.Tx to make the change with.
// Record, called with that context and tx.Client(), writes the event row, one webhook
// delivery per matching subscription and their River jobs in this same transaction: a
// rolled-back change leaves nothing, a committed one is never lost.
//
//	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
//		b, err := tx.Booking.Create()....Save(ctx)
//		if err != nil {
//			return err
//		}
//		_, err = events.Record(ctx, tx.Client(), events.BookingCreated, map[string]any{
//			"booking_id": b.ID.String(), "status": string(b.Status),
//		})
//		return err
//	})
//
// client must come from db.NewClient (every client of the service does). A WithTx
// inside fn with tx.Client() joins the running transaction (no savepoint) instead of
// failing, so functions that take a client compose. Keep fn free of outside side effects
// (HTTP calls, e-mails): it may be rolled back.
func WithTx(ctx context.Context, client *ent.Client, fn func(ctx context.Context, tx *ent.Tx) error) error {
	return WithTxOptions(ctx, client, nil, fn)
}

// WithTxOptions is WithTx with transaction options (isolation level, read only).
func WithTxOptions(ctx context.Context, client *ent.Client, opts *sql.TxOptions, fn func(ctx context.Context, tx *ent.Tx) error) (err error) {
	if st, ok := ctx.Value(txKey{}).(*txState); ok && st.client == client {
		return fn(ctx, st.tx)
	}
	slot := &beginSlot{}
	tx, err := client.BeginTx(context.WithValue(ctx, beginKey{}, slot), opts)
	if err != nil {
		return fmt.Errorf("events: begin: %w", err)
	}
	if slot.conn == nil {
		_ = tx.Rollback()
		return ErrDriver
	}
	st := &txState{tx: tx, client: tx.Client(), conn: slot.conn}
	done := false
	defer func() {
		if !done {
			_ = tx.Rollback() // fn panicked
		}
	}()
	if err := fn(context.WithValue(ctx, txKey{}, st), tx); err != nil {
		done = true
		_ = tx.Rollback()
		return err
	}
	done = true
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("events: commit: %w", err)
	}
	return nil
}

// InTx reports whether ctx carries a transaction of WithTx.
func InTx(ctx context.Context) bool {
	_, ok := ctx.Value(txKey{}).(*txState)
	return ok
}

// txState is the transaction WithTx runs: the ent side and the pgx connection under it.
type txState struct {
	tx     *ent.Tx
	client *ent.Client
	conn   *pgx.Conn
}

type txKey struct{}

// beginSlot receives the connection of a transaction the driver begins for WithTx.
type beginSlot struct{ conn *pgx.Conn }

type beginKey struct{}

// NewDriver returns the ent driver of the service over db (a database/sql pool opened on
// pgx with stdlib.OpenDBFromPool). It is entsql's PostgreSQL driver, except that a
// transaction begun by WithTx runs on a dedicated connection whose pgx connection is kept,
// so that River (which inserts through pgx) can insert jobs into the same transaction.
func NewDriver(db *sql.DB) dialect.Driver {
	return &driver{Driver: entsql.OpenDB(dialect.Postgres, db), db: db}
}

type driver struct {
	*entsql.Driver
	db *sql.DB
}

// Tx implements dialect.Driver.
func (d *driver) Tx(ctx context.Context) (dialect.Tx, error) { return d.BeginTx(ctx, nil) }

// BeginTx begins a transaction; for WithTx on a connection of its own whose pgx
// connection it reports.
func (d *driver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	slot, ok := ctx.Value(beginKey{}).(*beginSlot)
	if !ok {
		return d.Driver.BeginTx(ctx, opts)
	}
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var pc *pgx.Conn
	if err := conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("events: database/sql driver %T is not pgx", dc)
		}
		pc = c.Conn()
		return nil
	}); err != nil {
		_ = conn.Close()
		return nil, err
	}
	tx, err := conn.BeginTx(system.RawSQL(ctx, "events.river_tx"), opts)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	slot.conn = pc
	return &entsql.Tx{Conn: entsql.Conn{ExecQuerier: tx}, Tx: connTx{Tx: tx, conn: conn}}, nil
}

// connTx ends the transaction and returns its connection to the pool.
type connTx struct {
	*sql.Tx
	conn *sql.Conn
}

func (t connTx) Commit() error {
	err := t.Tx.Commit()
	return errors.Join(err, t.conn.Close())
}

func (t connTx) Rollback() error {
	err := t.Tx.Rollback()
	return errors.Join(err, t.conn.Close())
}

// pgxTx presents the connection of a running WithTx transaction as a pgx.Tx for River's
// InsertTx: statements run on that connection, inside the transaction database/sql began on
// it. It cannot begin, commit or roll back: WithTx does that.
type pgxTx struct{ conn *pgx.Conn }

var errTxOwned = errors.New("events: the transaction belongs to events.WithTx")

func (t pgxTx) Begin(context.Context) (pgx.Tx, error) { return nil, errTxOwned }
func (t pgxTx) Commit(context.Context) error          { return errTxOwned }
func (t pgxTx) Rollback(context.Context) error        { return errTxOwned }
func (t pgxTx) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	return t.conn.CopyFrom(system.RawSQL(ctx, "events.river_tx"), table, cols, src)
}
func (t pgxTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return t.conn.SendBatch(system.RawSQL(ctx, "events.river_tx"), b)
}
func (t pgxTx) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }
func (t pgxTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return t.conn.Prepare(ctx, name, sql)
}
func (t pgxTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return t.conn.Exec(system.RawSQL(ctx, "events.river_tx"), sql, args...)
}
func (t pgxTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return t.conn.Query(system.RawSQL(ctx, "events.river_tx"), sql, args...)
}
func (t pgxTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return t.conn.QueryRow(system.RawSQL(ctx, "events.river_tx"), sql, args...)
}
func (t pgxTx) Conn() *pgx.Conn { return t.conn }
