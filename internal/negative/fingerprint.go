package negative

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Volatile are the tables a refused request may legitimately change, with
// the reason; the fingerprint leaves them out.
var Volatile = map[string]string{
	"rate_limits":      "every request is charged to a rate-limit bucket before its values are read (the test also empties it)",
	"idempotency_keys": "a key is claimed as the request is about to run; a refused request releases or records it",
	"audit_logs":       "refusals of MCP tool calls are audited (one chokepoint for every tools/call)",
}

// VolatileColumns are columns a refused request may legitimately write,
// with the reason; the fingerprint leaves them out of their table's rows.
var VolatileColumns = map[string][]string{
	// A credential that authenticated records its use before the
	// operation reads its values.
	"api_keys": {"last_used_at", "updated_at"},
	"sessions": {"last_used_at", "updated_at"},
}

// Fingerprint is the row count and an md5 of the rows of every table, keyed
// by table.
type Fingerprint map[string]string

// Take fingerprints every base table of the database except Volatile ones
// (and the exclude list), in one statement.
func Take(ctx context.Context, pool *pgxpool.Pool, exclude ...string) (Fingerprint, error) {
	rows, err := pool.Query(ctx, `SELECT table_schema, table_name FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
		ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	tables, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var schema, name string
		err := r.Scan(&schema, &name)
		return pgx.Identifier{schema, name}.Sanitize(), err
	})
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, t := range exclude {
		skip[t] = true
	}
	var parts []string
	for _, t := range tables {
		name := t[strings.LastIndex(t, ".")+1:]
		name = strings.Trim(name, `"`)
		if _, ok := Volatile[name]; ok || skip[name] {
			continue
		}
		// Rows ordered by their text: the same order as by primary key for
		// equal contents, and defined for tables without one.
		row := "to_jsonb(t)"
		for _, c := range VolatileColumns[name] {
			row += " - " + quote(c)
		}
		parts = append(parts, fmt.Sprintf(`SELECT %s, count(*) || ':' || coalesce(md5(string_agg((%s)::text, ',' ORDER BY (%s)::text)), '') FROM %s t`,
			quote(name), row, row, t))
	}
	fp := Fingerprint{}
	if len(parts) == 0 {
		return fp, nil
	}
	rows, err = pool.Query(ctx, strings.Join(parts, " UNION ALL "))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var name, sum string
		if err := rows.Scan(&name, &sum); err != nil {
			return nil, err
		}
		fp[name] = sum
	}
	return fp, rows.Err()
}

// Changed lists the tables whose rows differ between fp and after.
func (fp Fingerprint) Changed(after Fingerprint) []string {
	var out []string
	for t, sum := range fp {
		if after[t] != sum {
			out = append(out, t)
		}
	}
	for t := range after {
		if _, ok := fp[t]; !ok {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
