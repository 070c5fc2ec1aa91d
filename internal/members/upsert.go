package members

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
)

// upsertMembers creates or updates the Member rows of out's users in the
// viewer's venue. Reads and updates run as the viewer (ctx); only creates use
// the system context sctx.
func upsertMembers(ctx, sctx context.Context, client *ent.Client, org uuid.UUID, ps []EnrollParams, out []Enrolled) error {
	byUser, byRef, err := existingMembers(ctx, client, ps, out)
	if err != nil {
		return err
	}
	var creates []*ent.MemberCreate
	var createdIdx []int
	for i, p := range ps {
		uid := out[i].User.ID
		if p.ImportRef != "" {
			if m, ok := byRef[p.ImportRef]; ok && m.UserID != uid {
				return &ItemError{i, "email", fmt.Errorf("import ref %q already belongs to a member with another email", p.ImportRef)}
			}
		}
		m, ok := byUser[uid]
		if !ok {
			c := client.Member.Create().SetID(uuid.New()).SetUserID(uid).SetOrganizationID(org)
			c.SetRole(member.RoleMember)
			if p.Role != "" {
				c.SetRole(member.Role(p.Role))
			}
			if p.Status != "" {
				c.SetStatus(member.Status(p.Status))
			}
			if p.Permissions != nil {
				c.SetPermissions(p.Permissions)
			}
			if p.ClientDisplayID != "" {
				c.SetClientDisplayID(p.ClientDisplayID)
			}
			if !p.JoinedAt.IsZero() {
				c.SetJoinedAt(p.JoinedAt)
			}
			if p.ImportRef != "" {
				c.SetImportRef(p.ImportRef)
			}
			creates = append(creates, c)
			createdIdx = append(createdIdx, i)
			continue
		}
		nm, err := updateMember(ctx, client, m, p)
		if err != nil {
			return &ItemError{i, "email", fmt.Errorf("update member: %w", err)}
		}
		out[i].Member = nm
	}
	for start := 0; start < len(creates); start += batch {
		end := min(start+batch, len(creates))
		rows, err := client.Member.CreateBulk(creates[start:end]...).Save(sctx)
		if err != nil {
			return fmt.Errorf("create members: %w", err)
		}
		for k, m := range rows {
			i := createdIdx[start+k]
			out[i].Member, out[i].CreatedMember = m, true
		}
	}
	return nil
}

// existingMembers loads the venue's members of the given users and of the
// given import refs.
func existingMembers(ctx context.Context, client *ent.Client, ps []EnrollParams, out []Enrolled) (byUser map[uuid.UUID]*ent.Member, byRef map[string]*ent.Member, err error) {
	byUser = make(map[uuid.UUID]*ent.Member, len(ps))
	byRef = make(map[string]*ent.Member)
	for start := 0; start < len(ps); start += batch {
		end := min(start+batch, len(ps))
		ids := make([]uuid.UUID, 0, end-start)
		refs := make([]string, 0, end-start)
		for i := start; i < end; i++ {
			ids = append(ids, out[i].User.ID)
			if ps[i].ImportRef != "" {
				refs = append(refs, ps[i].ImportRef)
			}
		}
		pred := member.UserIDIn(ids...)
		if len(refs) > 0 {
			pred = member.Or(pred, member.ImportRefIn(refs...))
		}
		rows, err := client.Member.Query().Where(pred).All(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("find members: %w", err)
		}
		for _, m := range rows {
			byUser[m.UserID] = m
			if m.ImportRef != nil {
				byRef[*m.ImportRef] = m
			}
		}
	}
	return byUser, byRef, nil
}

// updateMember applies the fields of p that differ from m; it writes nothing
// when nothing changes.
func updateMember(ctx context.Context, client *ent.Client, m *ent.Member, p EnrollParams) (*ent.Member, error) {
	u := client.Member.UpdateOne(m)
	changed := false
	if p.Role != "" && string(m.Role) != p.Role {
		u.SetRole(member.Role(p.Role))
		changed = true
	}
	if p.Status != "" && string(m.Status) != p.Status {
		u.SetStatus(member.Status(p.Status))
		changed = true
	}
	if p.Permissions != nil && !slices.Equal(p.Permissions, m.Permissions) {
		u.SetPermissions(p.Permissions)
		changed = true
	}
	if p.ClientDisplayID != "" && (m.ClientDisplayID == nil || *m.ClientDisplayID != p.ClientDisplayID) {
		u.SetClientDisplayID(p.ClientDisplayID)
		changed = true
	}
	if !p.JoinedAt.IsZero() && !m.JoinedAt.Equal(p.JoinedAt) {
		u.SetJoinedAt(p.JoinedAt)
		changed = true
	}
	if p.ImportRef != "" && (m.ImportRef == nil || *m.ImportRef != p.ImportRef) {
		u.SetImportRef(p.ImportRef)
		changed = true
	}
	if !changed {
		return m, nil
	}
	return u.Save(ctx)
}
