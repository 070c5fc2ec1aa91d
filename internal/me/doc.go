// Package me owns the signed-in user's view of themselves: the profile and
// its editable fields, the relationships with venues seen as workspaces
// (owned, works at, member venues, past relationships), the session's active
// organization and the staff permissions it carries, the module flags of a
// venue the user belongs to, and the cross-origin sign-in check for embeds.
//
// # Workspaces and permissions
//
// A user acts in one venue at a time, the session's active organization
// (sessions.active_organization_id). Only an active owner or staff
// relationship is selectable; a client (member) relationship is not, so a
// member never reads a venue's private rows. Workspace reads the active
// organization, role and permissions from the database on every bearer
// request: a permission granted or revoked by the venue applies to the next
// request (the contract allows 60 s). An owner holds every permission of
// scope.Permissions.
//
// The user's own relationships across venues are read at the named system
// site "me.memberships": a member row is venue-owned and the user acts in no
// venue while listing them; the query is bound to the user's id.
package me
