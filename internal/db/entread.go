package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Direct reads.
//
// The ent client reaches PostgreSQL through database/sql on pgx's stdlib
// adapter: every value of every row is converted to a driver.Value by the
// adapter (a UUID becomes a 36-byte string), then converted again into ent's
// scan holders (sql.NullString, sql.NullTime, a UUID parsed back from that
// string). On a hot read of hundreds of rows that double conversion costs more
// CPU than PostgreSQL spends on the query.
//
// WithDirectReads wraps the service's ent driver so that a query on a context
// marked by DirectReads, outside any transaction, runs on the pgx pool itself
// and its rows are scanned by pgx straight from the wire format into ent's
// holders. The SQL, its arguments, the policies and hooks (which act before
// the driver is reached), the connection pool and the statement cache are the
// same; only the conversion layer is skipped. Transactions, Exec and unmarked
// queries take the wrapped driver unchanged.
//
// ScanRows goes one step further for a hot read: ent builds the statement
// (with its policies) and the caller scans the rows with pgx into its own
// values, without ent's per-row holders.

type directKey struct{}

// DirectReads marks ctx so that ent queries run on it (outside a transaction)
// use the direct read path of a driver opened with WithDirectReads.
func DirectReads(ctx context.Context) context.Context {
	if directFrom(ctx) {
		return ctx
	}
	return context.WithValue(ctx, directKey{}, true)
}

func directFrom(ctx context.Context) bool {
	on, _ := ctx.Value(directKey{}).(bool)
	return on
}

// WithDirectReads returns drv (an ent driver over pool through database/sql)
// with the direct read path on pool for contexts marked by DirectReads.
func WithDirectReads(drv dialect.Driver, pool *pgxpool.Pool) dialect.Driver {
	return &directDriver{Driver: drv, pool: pool}
}

type directDriver struct {
	dialect.Driver
	pool *pgxpool.Pool
}

// txBeginner is the transaction entry point of ent's SQL drivers with options.
type txBeginner interface {
	BeginTx(context.Context, *sql.TxOptions) (dialect.Tx, error)
}

// BeginTx passes a transaction with options to the wrapped driver.
func (d *directDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	b, ok := d.Driver.(txBeginner)
	if !ok {
		return nil, fmt.Errorf("db: driver %T does not begin transactions with options", d.Driver)
	}
	return b.BeginTx(ctx, opts)
}

// ExecContext and QueryContext pass database/sql calls (the ent client's
// ExecContext and QueryContext) to the wrapped driver, as is.
func (d *directDriver) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ex, ok := d.Driver.(interface {
		ExecContext(context.Context, string, ...any) (sql.Result, error)
	})
	if !ok {
		return nil, fmt.Errorf("db: driver %T does not support ExecContext", d.Driver)
	}
	return ex.ExecContext(ctx, query, args...)
}

func (d *directDriver) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	q, ok := d.Driver.(interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	})
	if !ok {
		return nil, fmt.Errorf("db: driver %T does not support QueryContext", d.Driver)
	}
	return q.QueryContext(ctx, query, args...)
}

// ErrNotDirect means ScanRows ran on a client whose driver has no direct
// read path (not opened by db.NewClient, or bound to a transaction): the
// query went through ent as usual and scan was not called.
var ErrNotDirect = errors.New("db: the ent client has no direct read path")

type scanKey struct{}

// scanSlot carries ScanRows' scanner to the driver.
type scanSlot struct {
	scan func(pgx.Rows) error
	used bool
}

// ScanRows runs query, an ent query issuing exactly one statement on the
// context it is given, and passes that statement's rows to scan instead of
// to ent, which sees an empty result. ent builds the statement and applies
// the policies, interceptors and predicates as for any query; the caller
// scans with pgx into its own values, without ent's per-row holders. scan
// must not keep rows. On a client without the direct path it returns
// ErrNotDirect after ent ran the query as usual.
func ScanRows(ctx context.Context, query func(context.Context) error, scan func(pgx.Rows) error) error {
	slot := &scanSlot{scan: scan}
	if err := query(context.WithValue(DirectReads(ctx), scanKey{}, slot)); err != nil {
		return err
	}
	if !slot.used {
		return ErrNotDirect
	}
	return nil
}

// Query implements dialect.Driver.
func (d *directDriver) Query(ctx context.Context, query string, args, v any) error {
	if !directFrom(ctx) {
		return d.Driver.Query(ctx, query, args, v)
	}
	vr, ok := v.(*entsql.Rows)
	if !ok {
		return d.Driver.Query(ctx, query, args, v)
	}
	slot, _ := ctx.Value(scanKey{}).(*scanSlot)
	if slot != nil && slot.used {
		return errors.New("db: ScanRows takes a query of one statement")
	}
	argv, ok := args.([]any)
	if !ok {
		return fmt.Errorf("db: invalid type %T, expect []any for args", args)
	}
	copied := false
	for i, a := range argv {
		// A google/uuid value goes to pgx in its binary form; as a
		// driver.Valuer it would be formatted to text and parsed back.
		if id, ok := a.(uuid.UUID); ok {
			if !copied { // the caller's slice stays as it is
				argv, copied = append([]any(nil), argv...), true
			}
			argv[i] = pgtype.UUID{Bytes: id, Valid: true}
		}
	}
	rows, err := d.pool.Query(ctx, query, argv...)
	if err != nil {
		return err
	}
	if slot == nil {
		*vr = entsql.Rows{ColumnScanner: &directRows{rows: rows}}
		return nil
	}
	slot.used = true
	cols := columnNames(rows)
	err = slot.scan(rows)
	rows.Close()
	if err == nil {
		err = rows.Err()
	}
	if err != nil {
		return err
	}
	*vr = entsql.Rows{ColumnScanner: noRows{columns: cols}}
	return nil
}

// noRows is the empty result ent sees of a statement ScanRows scanned.
type noRows struct{ columns []string }

func (noRows) Close() error                            { return nil }
func (noRows) ColumnTypes() ([]*sql.ColumnType, error) { return nil, errors.New("db: no column types") }
func (r noRows) Columns() ([]string, error)            { return r.columns, nil }
func (noRows) Err() error                              { return nil }
func (noRows) Next() bool                              { return false }
func (noRows) NextResultSet() bool                     { return false }
func (noRows) Scan(...any) error                       { return errors.New("db: no rows") }
func columnNames(rows pgx.Rows) []string {
	fds := rows.FieldDescriptions()
	out := make([]string, len(fds))
	for i, fd := range fds {
		out[i] = fd.Name
	}
	return out
}

// directRows gives pgx rows the shape ent scans (database/sql's Rows).
type directRows struct {
	rows pgx.Rows
	// holders are the pgx-native targets of the current row, per column,
	// reused from row to row; targets is what pgx scans into.
	holders []holder
	targets []any
}

func (r *directRows) Close() error {
	r.rows.Close()
	return nil
}

// ColumnTypes is not available on this path; ent asks for it only to scan
// columns of unknown type, which it then scans as any.
func (r *directRows) ColumnTypes() ([]*sql.ColumnType, error) {
	return nil, errors.New("db: column types are not available on direct reads")
}

func (r *directRows) Columns() ([]string, error) { return columnNames(r.rows), nil }

func (r *directRows) Err() error          { return r.rows.Err() }
func (r *directRows) Next() bool          { return r.rows.Next() }
func (r *directRows) NextResultSet() bool { return false }

// holder kinds: how a column reaches its ent destination.
const (
	kindAsIs     = iota // pgx scans into the destination itself
	kindUUID            // *uuid.UUID
	kindNullUUID        // *entsql.NullScanner around a *uuid.UUID
	kindString          // *sql.NullString
	kindInt             // *sql.NullInt64
	kindBool            // *sql.NullBool
	kindFloat           // *sql.NullFloat64
	kindTime            // *sql.NullTime from timestamptz
	kindAny             // *any: database/sql's driver.Value of the column
)

type holder struct {
	kind int
	uuid pgtype.UUID
	text pgtype.Text
	i64  pgtype.Int8
	b    pgtype.Bool
	f64  pgtype.Float8
	ts   pgtype.Timestamptz
}

// Scan scans the current row into ent's holders: UUIDs, strings, integers,
// booleans, floats and time stamps through pgx's native codecs, anything else
// by pgx into the destination itself (sql.Scanner destinations get the
// driver.Value database/sql would have passed).
func (r *directRows) Scan(dest ...any) error {
	fds := r.rows.FieldDescriptions()
	if len(dest) != len(fds) {
		return fmt.Errorf("db: %d destinations for %d columns", len(dest), len(fds))
	}
	if r.holders == nil {
		r.holders = make([]holder, len(fds))
		r.targets = make([]any, len(fds))
	}
	for i, d := range dest {
		h := &r.holders[i]
		h.kind = kindAsIs
		r.targets[i] = d
		switch d := d.(type) {
		case *uuid.UUID:
			h.kind, r.targets[i] = kindUUID, &h.uuid
		case *entsql.NullScanner:
			if _, ok := d.S.(*uuid.UUID); ok {
				h.kind, r.targets[i] = kindNullUUID, &h.uuid
			}
		case *sql.NullString:
			h.kind, r.targets[i] = kindString, &h.text
		case *sql.NullInt64:
			h.kind, r.targets[i] = kindInt, &h.i64
		case *sql.NullBool:
			h.kind, r.targets[i] = kindBool, &h.b
		case *sql.NullFloat64:
			h.kind, r.targets[i] = kindFloat, &h.f64
		case *sql.NullTime:
			if fds[i].DataTypeOID == pgtype.TimestamptzOID {
				h.kind, r.targets[i] = kindTime, &h.ts
			}
		case *any:
			h.kind, r.targets[i] = kindAny, nil
		}
	}
	if err := r.rows.Scan(r.targets...); err != nil {
		return err
	}
	raw := r.rows.RawValues()
	for i, d := range dest {
		h := &r.holders[i]
		switch h.kind {
		case kindUUID:
			if h.uuid.Valid { // NULL leaves it as uuid.UUID.Scan(nil) does
				*d.(*uuid.UUID) = h.uuid.Bytes
			}
		case kindNullUUID:
			ns := d.(*entsql.NullScanner)
			ns.Valid = h.uuid.Valid
			if h.uuid.Valid {
				*ns.S.(*uuid.UUID) = h.uuid.Bytes
			}
		case kindString:
			*d.(*sql.NullString) = sql.NullString{String: h.text.String, Valid: h.text.Valid}
		case kindInt:
			*d.(*sql.NullInt64) = sql.NullInt64{Int64: h.i64.Int64, Valid: h.i64.Valid}
		case kindBool:
			*d.(*sql.NullBool) = sql.NullBool{Bool: h.b.Bool, Valid: h.b.Valid}
		case kindFloat:
			*d.(*sql.NullFloat64) = sql.NullFloat64{Float64: h.f64.Float64, Valid: h.f64.Valid}
		case kindTime:
			if h.ts.Valid && h.ts.InfinityModifier != pgtype.Finite {
				return fmt.Errorf("db: column %s: infinite time stamp", fds[i].Name)
			}
			*d.(*sql.NullTime) = sql.NullTime{Time: h.ts.Time, Valid: h.ts.Valid}
		case kindAny:
			v, err := r.driverValue(i, raw[i])
			if err != nil {
				return err
			}
			*d.(*any) = v
		}
	}
	return nil
}

// driverValue decodes column i as database/sql would pass it on.
func (r *directRows) driverValue(i int, raw []byte) (any, error) {
	if raw == nil {
		return nil, nil
	}
	fd := r.rows.FieldDescriptions()[i]
	m := r.rows.Conn().TypeMap()
	t, ok := m.TypeForOID(fd.DataTypeOID)
	if !ok {
		return string(raw), nil
	}
	return t.Codec.DecodeDatabaseSQLValue(m, fd.DataTypeOID, fd.Format, raw)
}
