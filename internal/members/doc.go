// Package members owns a venue's members, for every face: enrolment by
// staff and imports, a person's own join, the staff permissions of a member,
// and the staff-facing reads (search and detail).
//
// Enrolment (Enroll, EnrollAll) finds or creates the person's global User by
// email and creates or updates the Member row (role, permissions, client
// display id) of the viewer's venue.
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
//
// Joining (GetJoinState, Join) lets a signed-in person become a member of a
// venue: the join state of a venue for the user, and the join itself (one
// active member relationship, the venue's next client id, an audit entry and
// a member.created event, in one transaction). The join acts as the user
// inside the venue being joined (a viewer.User whose Org is that venue) for
// the duration of the call only: the member row, audit entry and event are
// created under the ordinary venue policies, without a system bypass. The
// session's workspace is not changed.
//
// The staff reads (Search, Get) find members by name, email, phone or client
// display id with a hard ceiling, and read one member's detail (profile,
// active passes, most recent bookings). Search reads about a page of index
// entries at any venue size: the member row carries normalised search
// columns (names both ways round, email, reversed phone digits, client id),
// which a database trigger on members and users keeps in step with every
// writer, each indexed by (organization_id, column text_pattern_ops, id); a
// query is a few prefix ranges with a LIMIT, ranked exact name, name prefix,
// then email, client id or phone ending (see Search). Staff, operators and
// API keys search; a public visitor or a person acting as a member gets
// ErrSearchDenied. MCP (search_members, get_member_details,
// venue://members, venue://member) calls them, and so should any REST read
// of the same data: the queries exist once. A member of another venue is not
// found, exactly like an unknown one.
package members
