// Package catalogue owns what a venue offers for sale and how the public
// finds venues:
//
//   - the cross-venue directory (directory.go): venue search (text, city,
//     Haversine distance) and same-day discovery. These are the only reads
//     that span venues; they return public venue fields only, through plain
//     SQL over listed venues (named raw SQL sites), never a venue's private rows;
//   - a venue's sellable pass types (passtypes.go), shared by REST
//     (/venues/{slug}/pricing, the brand shop) and MCP (venue://passes);
//   - a venue's flash-sale offers for a placement surface (offers.go): which
//     offers a surface shows, their status and remaining capacity.
//
// Reads inside one venue go through ent, so the venue wall filters them.
package catalogue
