package billing

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passshare"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/notify"
)

// Pass sharing: staff let other members of the venue book with a member's
// pass. A share names a member of the venue; an invite names an e-mail
// address of someone who is not a member yet, and becomes a share when they
// join the venue or first book (the invite is claimed). A pass type's
// share_slots bound how many shares and open invites one pass holds (0, the
// default: not shareable). Bookings through a share take their clips from the
// owner's pass (package booking), at most monthly_cap a calendar month.

// Error codes and audit actions of pass sharing (the contract's).
const (
	CodeNoSlots            = "NO_SLOTS"
	CodeAlreadyShared      = "ALREADY_SHARED"
	CodeRecipientNotClient = "RECIPIENT_NOT_CLIENT"
	CodeOwnerRecipient     = "OWNER_RECIPIENT"
	CodeInvalidEmail       = "INVALID_EMAIL"
	CodeWriteFailed        = "WRITE_FAILED"
	CodePassNotActive      = "PASS_NOT_ACTIVE"
	CodeInviteNotPending   = "INVITE_NOT_PENDING"

	AuditShareCreated         = "pass_share_created"
	AuditShareInvited         = "pass_share_invited"
	AuditShareRevoked         = "pass_share_revoked"
	AuditShareInviteCancelled = "pass_share_invite_cancelled"

	// KindShareInvite is the outbox kind of an invite's e-mail.
	KindShareInvite = "pass_share.invite"
	// MaxShareCap is the largest monthly cap of a share.
	MaxShareCap = 1000
)

func shareRefusal(code, msg string) *apperr.Error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: code, Message: msg}
}

// ShareParams is a new share or invite of a pass: exactly one of
// RecipientUserID and Email; MonthlyCap nil means no cap; Notify sends an
// invite's e-mail (a share of an existing member is never announced).
type ShareParams struct {
	PassID          uuid.UUID
	RecipientUserID *uuid.UUID
	Email           string
	MonthlyCap      *int
	Notify          bool
}

// Shares is a pass's sharing: its shares and open invites, the slots of its
// pass type and how many are used.
type Shares struct {
	Pass      *ent.Pass
	Slots     int
	Used      int
	Shares    []*ent.PassShare
	Invites   []*ent.PassShare
	Recipient map[uuid.UUID]uuid.UUID // member id -> user id of the shares' recipients
}

// PassShares reads the active shares and open invites of a pass of the
// viewer's venue.
func (s *Service) PassShares(ctx context.Context, passID uuid.UUID) (*Shares, error) {
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).WithPassType().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, passNotFound()
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.client.PassShare.Query().Where(passshare.PassID(passID),
		passshare.StatusIn(passshare.StatusActive, passshare.StatusInvited)).
		Order(ent.Asc(passshare.FieldCreatedAt), ent.Asc(passshare.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := &Shares{Pass: p, Slots: p.Edges.PassType.ShareSlots, Used: len(rows), Recipient: map[uuid.UUID]uuid.UUID{}}
	var ids []uuid.UUID
	for _, r := range rows {
		if r.Status == passshare.StatusActive {
			out.Shares = append(out.Shares, r)
			ids = append(ids, *r.MemberID)
		} else {
			out.Invites = append(out.Invites, r)
		}
	}
	if len(ids) > 0 {
		ms, err := s.client.Member.Query().Where(member.IDIn(ids...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			out.Recipient[m.ID] = m.UserID
		}
	}
	return out, nil
}

// recipient resolves the person a share names to a member of the venue, or
// (for an e-mail of someone who is not a member) nil and the normalised
// address.
func (s *Service) recipient(ctx context.Context, c *ent.Client, p ShareParams) (*ent.Member, string, error) {
	if p.RecipientUserID != nil {
		m, err := c.Member.Query().Where(member.UserID(*p.RecipientUserID), member.StatusEQ(member.StatusActive)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, "", shareRefusal(CodeRecipientNotClient, "the recipient is not a client of this venue")
		}
		return m, "", err
	}
	email, err := members.NormalizeEmail(p.Email)
	if err != nil || len(email) > 254 {
		return nil, "", shareRefusal(CodeInvalidEmail, "the e-mail address is not valid")
	}
	m, err := c.Member.Query().Where(member.HasUserWith(user.Email(email)), member.StatusEQ(member.StatusActive)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, email, nil
	}
	return m, email, err
}

// AddPassShare shares an active pass of the viewer's venue with a member
// (a share) or an e-mail address of someone who is not a member (an
// invite), under the pass's row lock. Refusals, in this order: 400
// VALIDATION_ERROR (not exactly one recipient, a cap out of range), 404
// (pass), 422 INVALID_EMAIL, PASS_NOT_ACTIVE, RECIPIENT_NOT_CLIENT,
// OWNER_RECIPIENT, ALREADY_SHARED, NO_SLOTS; a failed write is 422
// WRITE_FAILED (write_state not_written). Each changes nothing.
func (s *Service) AddPassShare(ctx context.Context, p ShareParams) (*ent.PassShare, error) {
	if (p.RecipientUserID == nil) == (strings.TrimSpace(p.Email) == "") {
		return nil, apperr.Validation("recipient_user_id", "name exactly one of recipient_user_id and email")
	}
	if p.MonthlyCap != nil && (*p.MonthlyCap < 1 || *p.MonthlyCap > MaxShareCap) {
		return nil, apperr.Validation("monthly_cap", "monthly_cap must be 1 to 1000")
	}
	var out *ent.PassShare
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		ps, err := tx.Pass.Query().Where(pass.ID(p.PassID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return passNotFound()
		}
		if err != nil {
			return err
		}
		if p.RecipientUserID == nil {
			if _, err := members.NormalizeEmail(p.Email); err != nil {
				return shareRefusal(CodeInvalidEmail, "the e-mail address is not valid")
			}
		}
		if ps.Status != pass.StatusActive {
			return shareRefusal(CodePassNotActive, "only an active pass can be shared").With("status", string(ps.Status))
		}
		m, email, err := s.recipient(ctx, tx.Client(), p)
		if err != nil {
			return err
		}
		if m != nil && m.ID == ps.MemberID {
			return shareRefusal(CodeOwnerRecipient, "the pass's owner cannot be its recipient")
		}
		live, err := tx.PassShare.Query().Where(passshare.PassID(ps.ID),
			passshare.StatusIn(passshare.StatusActive, passshare.StatusInvited)).All(ctx)
		if err != nil {
			return err
		}
		for _, r := range live {
			if (m != nil && r.MemberID != nil && *r.MemberID == m.ID) || (m == nil && r.Email != nil && *r.Email == email) {
				return shareRefusal(CodeAlreadyShared, "the pass is already shared with this person").With("share_id", r.ID.String())
			}
		}
		pt, err := tx.PassType.Query().Where(passtype.ID(ps.PassTypeID)).Only(ctx)
		if err != nil {
			return err
		}
		if len(live) >= pt.ShareSlots {
			return shareRefusal(CodeNoSlots, "every share slot of this pass is taken").
				With("share_slots", pt.ShareSlots).With("used", len(live))
		}
		create := tx.PassShare.Create().SetPassID(ps.ID).SetOwnerMemberID(ps.MemberID).
			SetNillableMonthlyCap(p.MonthlyCap).SetNillableCreatedBy(actorID(ctx))
		action := AuditShareCreated
		details := map[string]any{"pass_id": ps.ID.String(), "owner_member_id": ps.MemberID.String(), "monthly_cap": p.MonthlyCap}
		if m != nil {
			create.SetMemberID(m.ID).SetStatus(passshare.StatusActive).SetClaimedAt(time.Now())
			details["recipient_member_id"] = m.ID.String()
		} else {
			create.SetEmail(email).SetStatus(passshare.StatusInvited)
			action = AuditShareInvited
			details["notified"] = p.Notify
		}
		if out, err = create.Save(ctx); err != nil {
			return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeWriteFailed,
				Message: "the share could not be saved", Cause: err}).With("write_state", "not_written")
		}
		details["share_id"] = out.ID.String()
		if m == nil && p.Notify {
			if _, err := notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
				To: email, Kind: KindShareInvite, Subject: "A pass has been shared with you",
				Body: "A member has shared their pass with you. Join the venue in the app with this e-mail " +
					"address to book classes with it.",
				Data:          map[string]any{"share_id": out.ID.String()},
				CorrelationID: "pass_share_invite:" + out.ID.String(),
			}); err != nil {
				return err
			}
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: action, Target: "pass:" + ps.ID.String(), Details: details})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// endShare moves a share of a pass of the viewer's venue from one of from
// to status to, under the pass's row lock: 404 for another pass's share.
func (s *Service) endShare(ctx context.Context, passID, id uuid.UUID, to passshare.Status, action string, refuse func(*ent.PassShare) error) (*ent.PassShare, error) {
	var out *ent.PassShare
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Pass.Query().Where(pass.ID(passID)).ForUpdate().Only(ctx); ent.IsNotFound(err) {
			return passNotFound()
		} else if err != nil {
			return err
		}
		r, err := tx.PassShare.Query().Where(passshare.ID(id), passshare.PassID(passID)).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("share")
		}
		if err != nil {
			return err
		}
		if err := refuse(r); err != nil {
			return err
		}
		if out, err = tx.PassShare.UpdateOne(r).SetStatus(to).SetEndedAt(time.Now()).Save(ctx); err != nil {
			return fmt.Errorf("billing: end share: %w", err)
		}
		d := map[string]any{"pass_id": passID.String(), "share_id": id.String(), "from": string(r.Status)}
		if r.MemberID != nil {
			d["recipient_member_id"] = r.MemberID.String()
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: action, Target: "pass:" + passID.String(), Details: d})
		return err
	})
	return out, err
}

// RevokePassShare ends a share of a pass: its recipient books with it no
// more (bookings already made stand). An invite is cancelled, not revoked;
// a share already revoked is 404 like an unknown one.
func (s *Service) RevokePassShare(ctx context.Context, passID, id uuid.UUID) (*ent.PassShare, error) {
	return s.endShare(ctx, passID, id, passshare.StatusRevoked, AuditShareRevoked, func(r *ent.PassShare) error {
		if r.Status != passshare.StatusActive {
			return apperr.NotFound("share")
		}
		return nil
	})
}

// CancelPassInvite cancels an open invite of a pass: 422
// INVITE_NOT_PENDING when it was claimed or cancelled already.
func (s *Service) CancelPassInvite(ctx context.Context, passID, id uuid.UUID) (*ent.PassShare, error) {
	return s.endShare(ctx, passID, id, passshare.StatusCancelled, AuditShareInviteCancelled, func(r *ent.PassShare) error {
		if r.Email == nil {
			return apperr.NotFound("invite")
		}
		if r.Status != passshare.StatusInvited {
			return shareRefusal(CodeInviteNotPending, "the invite is no longer pending").With("status", string(r.Status))
		}
		return nil
	})
}

// MaxShareSlots is the most share slots a pass type may give.
const MaxShareSlots = 20

// SetShareSlots sets how many members one pass of a pass type of the
// viewer's venue may be shared with (0: not shareable). Shares made before
// stay when the number goes down.
func (s *Service) SetShareSlots(ctx context.Context, passTypeID uuid.UUID, slots int) (*ent.PassType, error) {
	if slots < 0 || slots > MaxShareSlots {
		return nil, apperr.Validation("share_slots", "share_slots must be 0 to 20")
	}
	var out *ent.PassType
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		pt, err := tx.PassType.Query().Where(passtype.ID(passTypeID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("pass type")
		}
		if err != nil {
			return err
		}
		if out, err = tx.PassType.UpdateOne(pt).SetShareSlots(slots).Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "pass_type.share_slots_set", Target: "pass_type:" + pt.ID.String(),
			Details: map[string]any{"share_slots": slots, "previous": pt.ShareSlots}})
		return err
	})
	return out, err
}
