// Package reports owns the owner's numbers: the sales snapshot (read from the
// daily sales rollup the database keeps beside the payments, see
// migrations/*_sales_daily_trigger.sql), the attendance report and brand
// analytics, for every face (REST with its CSV downloads, MCP). It only reads
// venue data through ent under the caller's viewer; the one statement outside
// ent is the rollup's recompute (site reports.sales_refresh).
package reports
