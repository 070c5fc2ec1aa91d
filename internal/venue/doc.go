// Package venue creates, changes, lists and resolves venues (organizations)
// together with their feature provisioning row.
//
// Venues sit above the venue wall, so this package holds a few of the named
// system call sites of package system:
//
//   - "venue.create": a new venue and its FeatureProvisioning row (no venue
//     viewer exists before the venue does);
//   - "venue.list": every venue, for the operator's `venuectl venue list`;
//   - "venue.resolve": a venue named from outside by slug or id (Lookup, the
//     one such lookup: venuectl, public REST reads that name the venue in the
//     path, the venue headers, joining and inquiries), and the venue of an API
//     key named by id (venuectl apikey revoke --id).
//
// Update needs no bypass: it resolves the slug and then acts as an operator
// of that venue, through the ordinary policies.
package venue
