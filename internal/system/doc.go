// Package system keeps the doors through and around the venue wall, each a
// named site in one registry (sites.go) with its kind and reason:
//
//   - bypass sites (Allow) let ent policies allow the entity types they list,
//     where no venue viewer can exist yet (creating a venue, resolving a
//     public slug, authenticating a key, a worker holding only a row id);
//   - members sites (CrossMembers) lift only the member wall for the entity
//     types they list: a member viewer reaches other members' rows of its
//     venue for one step (a waitlist rank), while the venue rules still apply;
//   - raw SQL sites (RawSQL) run statements outside ent, which no policy sees;
//   - elevation sites (Elevate) build a viewer beyond the caller's credential
//     (a member acting in a venue, an operator of a job or the CLI);
//   - identity sites (Identify) attach the caller's own authenticated identity
//     once per entry point.
//
// A test reads the module with type information and fails on a raw SQL call
// or viewer.NewContext whose function names no registered site of its kind,
// on a name used but not registered, and on a registered name never used.
package system
