// Package schema defines every entity of the venue platform, its fields, edges
// and indexes, and wires the tenancy rules (policies and hooks) that make the
// venue a wall in the data layer. The generated packages under ent/ are derived
// from it by `go generate ./...`.
//
// Files without a build tag attach policies and hooks that import generated
// packages; they carry `//go:build !entbootstrap` so that a checkout without the
// generated code can run a first, rule-free generation pass.
package schema
