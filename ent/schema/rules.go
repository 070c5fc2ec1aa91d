//go:build !entbootstrap

package schema

import (
	"entgo.io/ent"

	"github.com/venueplatform/venue/ent/hook"
	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/rule"
)

// Policy of the VenueMixin: every query, update and delete is filtered to the
// viewer's venue, and a member viewer's to its own rows of the member-owned
// entities; every referenced row must be visible to the viewer.
func (VenueMixin) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			rule.FilterVenue(),
			rule.FilterOwnMember(),
		},
		Mutation: privacy.MutationPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			rule.DenyIfReadOnly(),
			rule.OnWrites(rule.FilterVenue()),
			rule.OnWrites(rule.FilterOwnMember()),
			rule.DenyOtherMembersCreate(),
			rule.DenyForeignReferences(),
			rule.AllowIfVenueViewer(),
			privacy.AlwaysDenyRule(),
		},
	}
}

// Hooks of the VenueMixin: organization_id comes from the viewer.
func (VenueMixin) Hooks() []ent.Hook {
	return []ent.Hook{rule.SetVenueOnCreate()}
}

// Policy of the Organization: a viewer sees and changes only its own venue;
// venues are created only at system call sites.
func (Organization) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			rule.FilterOwnVenue(),
		},
		Mutation: privacy.MutationPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			rule.DenyIfReadOnly(),
			privacy.OnMutationOperation(privacy.AlwaysDenyRule(), ent.OpCreate),
			rule.OnWrites(rule.FilterOwnVenue()),
			rule.AllowIfVenueViewer(),
			privacy.AlwaysDenyRule(),
		},
	}
}

// Policy of the User: a venue sees only the people related to it, a signed-in
// user outside any workspace only themselves; accounts are created only at
// system call sites (sign-up, enrolment, import).
func (User) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			rule.FilterSelf(),
			rule.FilterUsersOfVenue(),
		},
		Mutation: privacy.MutationPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			rule.DenyIfReadOnly(),
			privacy.OnMutationOperation(privacy.AlwaysDenyRule(), ent.OpCreate),
			rule.OnWrites(rule.FilterSelf()),
			rule.OnWrites(rule.FilterUsersOfVenue()),
			rule.DenyForeignReferences(),
			rule.AllowIfVenueViewer(),
			privacy.AlwaysDenyRule(),
		},
	}
}

// Policy of the PlatformSetting: anyone may read the platform switches; only
// system call sites change them.
func (PlatformSetting) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{privacy.AlwaysAllowRule()},
		Mutation: privacy.MutationPolicy{rule.AllowSystemSite(), privacy.AlwaysDenyRule()},
	}
}

// Hooks of the AuditLog: entries are append-only.
func (AuditLog) Hooks() []ent.Hook {
	return []ent.Hook{
		hook.Reject(ent.OpUpdate | ent.OpUpdateOne | ent.OpDelete | ent.OpDeleteOne),
	}
}

// userOwnedPolicy is the policy of the global entities that belong to one
// user (sessions, refresh tokens, codes): a user viewer sees and changes only
// their own rows; nobody else, and nobody creates them, except at the named
// system sites of the authentication flows.
func userOwnedPolicy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			rule.FilterOwnRows(),
			privacy.AlwaysAllowRule(),
		},
		Mutation: privacy.MutationPolicy{
			rule.AllowSystemSite(),
			rule.DenyIfNoViewer(),
			privacy.OnMutationOperation(privacy.AlwaysDenyRule(), ent.OpCreate),
			rule.OnWrites(rule.FilterOwnRows()),
			privacy.AlwaysAllowRule(),
		},
	}
}

// Policy of the Session.
func (Session) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the RefreshToken.
func (RefreshToken) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the AuthCode.
func (AuthCode) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the MFAFactor.
func (MFAFactor) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the MFABackupCode.
func (MFABackupCode) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the MFAChallenge.
func (MFAChallenge) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the DeviceAuthorization: nobody, outside the named system sites
// of the device flow (a pending authorization has no owner yet).
func (DeviceAuthorization) Policy() ent.Policy { return sitesOnlyPolicy() }

// Policy of the InstallationSecret: nobody but the system site of the
// server's start.
func (InstallationSecret) Policy() ent.Policy { return sitesOnlyPolicy() }

// sitesOnlyPolicy is the policy of a global entity that no viewer reaches:
// only the system sites that list it.
func sitesOnlyPolicy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.AllowSystemSite(), privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{rule.AllowSystemSite(), privacy.AlwaysDenyRule()},
	}
}

// Policy of the HandoffCode.
func (HandoffCode) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the OTPRequest.
func (OTPRequest) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the FavoriteVenue.
func (FavoriteVenue) Policy() ent.Policy { return userOwnedPolicy() }

// Policy of the IdempotencyKey: a declared global entity (its reason is in
// the registry of package system). The idempotency store reads and writes it
// with raw SQL at its named site; no ent query or mutation reaches it outside
// a bypass site that lists it.
func (IdempotencyKey) Policy() ent.Policy { return sitesOnlyPolicy() }
