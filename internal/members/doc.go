// Package members enrols people in a venue: it finds or creates the person's
// global User by email and creates or updates the Member row (role,
// permissions, client display id) of the viewer's venue.
//
// A User is global and unique by (lower-cased) email; a venue sees it only
// through a Member row. Finding a user by email, creating one, and creating
// the Member row that first links a user to a venue therefore happen at the
// named system call site "members.enroll": before that row exists, the user is
// invisible to the venue viewer. The Member row is still bound to the viewer's
// venue by the create hook; everything else runs as the viewer.
//
// Decisions:
//   - A new user gets EnrollParams.AccountState, by default
//     password_never_used (nobody has set a password yet); the importer passes
//     imported_unclaimed.
//   - An existing user's name and phone are not changed by a venue, except
//     while the account is imported_unclaimed (never claimed by the person),
//     when the newest enrolment refreshes them.
//   - An empty Role keeps the role of an existing member (new members are
//     "member"); nil Permissions keep the existing permissions.
//   - Permissions are checked against scope.Permissions.
//
// EnrollAll does the same for many people with a handful of queries per
// thousand, for imports.
package members
