// Package rule holds the privacy rules and hooks that make the venue a wall in
// the data layer; ent/schema attaches them to every entity. Rules named Deny*,
// Filter* and Allow* return privacy.Skip unless they decide, and every mutation
// policy ends in a deny.
//
// Every policy starts with AllowSystemSite: a context from a bypass site of
// package system passes for exactly the entity types the site lists, and
// every other type is judged by the rules after it. Inside a venue,
// FilterOwnMember holds a member viewer (a user acting as its member) to its
// own rows of the member-owned entities (MemberOwnedTypes).
package rule
