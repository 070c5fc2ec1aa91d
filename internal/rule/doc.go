// Package rule holds the privacy rules and hooks that make the venue a wall in
// the data layer; ent/schema attaches them to every entity. Rules named Deny*,
// Filter* and Allow* return privacy.Skip unless they decide, and every mutation
// policy ends in a deny.
package rule
