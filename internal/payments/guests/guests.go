// Package guests owns guest invitations: a member (the host) offers a guest
// place at a class they hold a seat in, the guest opens it by its token
// without an account, and the place is paid by the guest or by the host
// through the card payments of package payments (an attempt row before every
// Stripe write, activation once under the invitation's row lock, whichever
// of the answer, Stripe's event and reconcile comes first).
//
// The guest's seat is held on the class like any booking's: a guest
// invitation in status held or paid counts in class_instances.booked_count
// (a database trigger beside the bookings' one), and every invitation that
// takes a seat does so under the class's row lock, the lock bookings take,
// after reading that count, so bookings and guests together never overbook a
// class. Tokens are 32 random bytes (base64url); only their SHA-256 digest is
// stored, so the table cannot hand out a working link.
package guests

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classguestprice"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/guestinvite"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Purpose is the payment attempt purpose of a guest place's charge.
const Purpose = paymentattempt.PurposeGuestInviteCharge

func init() { payments.RegisterSubject(Purpose, inviteSubject{}) }

// Limits.
const (
	// MaxSpots is how many guest places one request may create (contract:
	// guest spots per request 1 to 20) and how many open places a host may
	// have at one class.
	MaxSpots = 20
	// HoldFor is how long an unpaid place holds its seat (at most until the
	// class starts).
	HoldFor = 24 * time.Hour
	// GuestPassSlug names the pass type whose price is the guest price.
	GuestPassSlug = "guest-pass"
)

// States of an invitation as the guest sees it (contract).
const (
	StateNeedsAccount = "needs_account"
	StatePayable      = "payable"
	StateAlreadyPaid  = "already_paid"
	StateCancelled    = "cancelled"
	StateExpired      = "expired"
	StateClassStarted = "class_started"
	StateClassFull    = "class_full"
)

// Reasons a host may not invite a guest to a class.
const (
	ReasonNoSeat       = "no_confirmed_booking"
	ReasonNotBookable  = "class_not_bookable"
	ReasonNoGuestPrice = "no_guest_price"
	ReasonLimit        = "guest_limit_reached"
)

// Error codes.
const (
	CodeAlreadyClaimed = "ALREADY_CLAIMED"
	CodeNotEligible    = "GUEST_NOT_ELIGIBLE"
)

// Service manages guest invitations over one ent client.
type Service struct {
	client *ent.Client
	pay    *payments.Service
	now    func() time.Time
}

// New returns a Service charging through pay; now nil is time.Now.
func New(client *ent.Client, pay *payments.Service, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{client: client, pay: pay, now: now}
}

// Price is the guest price of a venue and the ordinary price it compares
// with (display only).
type Price struct {
	AmountMinor    int64
	CompareAtMinor *int64
	Currency       string
}

// Sources of a guest price.
const (
	SourceClass     = "class"      // staff's price of the class (classprice.go)
	SourceGuestPass = "guest_pass" // the guest-pass pass type's price
	SourceDropIn    = "drop_in"    // the cheapest active listed drop-in
)

// guestPrice is the guest price of class classID in the viewer's venue:
// staff's price of the class when set, else the price of the venue's active
// pass type of slug guest-pass (typically unlisted); either against the
// cheapest active listed drop-in as compare-at. Without both, the cheapest
// active listed drop-in itself, with no compare-at. ok is false when the
// venue sells none of them; source says which rule priced it.
func guestPrice(ctx context.Context, c *ent.Client, classID uuid.UUID) (p Price, source string, ok bool, err error) {
	drop, err := c.PassType.Query().
		Where(passtype.CategoryEQ(passtype.CategoryDropIn), passtype.Active(true), passtype.Listed(true),
			passtype.IsRecurring(false), passtype.SlugNEQ(GuestPassSlug)).
		Order(ent.Asc(passtype.FieldPriceMinor), ent.Asc(passtype.FieldID)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return Price{}, "", false, fmt.Errorf("guests: drop-in price: %w", err)
	}
	own, err := c.ClassGuestPrice.Query().Where(classguestprice.ClassInstanceID(classID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return Price{}, "", false, fmt.Errorf("guests: class guest price: %w", err)
	}
	guest, err := c.PassType.Query().Where(passtype.Slug(GuestPassSlug), passtype.Active(true)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return Price{}, "", false, fmt.Errorf("guests: guest price: %w", err)
	}
	compared := func(p Price) Price {
		if drop != nil && strings.EqualFold(drop.Currency, p.Currency) && drop.PriceMinor > p.AmountMinor {
			v := drop.PriceMinor
			p.CompareAtMinor = &v
		}
		return p
	}
	switch {
	case own != nil:
		return compared(Price{AmountMinor: own.AmountMinor, Currency: strings.ToUpper(own.Currency)}), SourceClass, true, nil
	case guest != nil:
		return compared(Price{AmountMinor: guest.PriceMinor, Currency: strings.ToUpper(guest.Currency)}), SourceGuestPass, true, nil
	case drop != nil:
		return Price{AmountMinor: drop.PriceMinor, Currency: strings.ToUpper(drop.Currency)}, SourceDropIn, true, nil
	}
	return Price{}, "", false, nil
}

// Eligibility says whether a host may invite a guest to a class.
type Eligibility struct {
	Eligible bool
	// Reason is empty when eligible, else one of the Reason constants.
	Reason string
	Price  *Price
	// Open are the host's invitations of the class that still hold or wait
	// for a place, or are paid.
	Open []*ent.GuestInvite
}

// Eligibility reads whether the member hostID of the viewer's venue may
// invite a guest to classID. An unknown, unlisted or another venue's class
// is 404 NOT_FOUND.
func (s *Service) Eligibility(ctx context.Context, hostID, classID uuid.UUID) (*Eligibility, error) {
	cl, err := s.client.ClassInstance.Query().Where(classinstance.ID(classID), classinstance.Listed(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("class")
	}
	if err != nil {
		return nil, fmt.Errorf("guests: class: %w", err)
	}
	return s.eligibility(ctx, s.client, hostID, cl)
}

func (s *Service) eligibility(ctx context.Context, c *ent.Client, hostID uuid.UUID, cl *ent.ClassInstance) (*Eligibility, error) {
	out := &Eligibility{}
	open, err := c.GuestInvite.Query().
		Where(guestinvite.MemberID(hostID), guestinvite.ClassInstanceID(cl.ID),
			guestinvite.StatusIn(guestinvite.StatusHeld, guestinvite.StatusPaid, guestinvite.StatusUnseated, guestinvite.StatusWaitlisted)).
		Order(ent.Asc(guestinvite.FieldCreatedAt), ent.Asc(guestinvite.FieldSpot)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("guests: open invitations: %w", err)
	}
	out.Open = open
	price, _, ok, err := guestPrice(ctx, c, cl.ID)
	if err != nil {
		return nil, err
	}
	if ok {
		out.Price = &price
	}
	seated, err := c.Booking.Query().Where(entbooking.ClassInstanceID(cl.ID), entbooking.MemberID(hostID),
		entbooking.StatusIn(entbooking.StatusConfirmed, entbooking.StatusCheckedIn)).Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("guests: host booking: %w", err)
	}
	switch {
	case cl.Status != classinstance.StatusScheduled || !s.now().Before(cl.StartTime):
		out.Reason = ReasonNotBookable
	case !seated:
		out.Reason = ReasonNoSeat
	case !ok:
		out.Reason = ReasonNoGuestPrice
	case len(open) >= MaxSpots:
		out.Reason = ReasonLimit
	default:
		out.Eligible = true
	}
	return out, nil
}

func notEligible(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotEligible,
		Message: "the member cannot invite a guest to this class"}).With("reason", reason).With("next_step", nil)
}

// CreateParams are a host's new guest places.
type CreateParams struct {
	ClassID uuid.UUID
	// Payer is guest or host.
	Payer         guestinvite.Payer
	ReturnBaseURL string
	Spots         int
	GuestName     string
	GuestEmail    string
	// RequestKey is the digest of the request's Idempotency-Key: a retry
	// of the same request finds the places it made.
	RequestKey string
}

// Created is one new place and its token (empty when the place was made
// by an earlier run of the same request: the token is not kept).
type Created struct {
	Invite *ent.GuestInvite
	Token  string
}

// Create makes p.Spots guest places at a class for the member hostID of the
// viewer's venue, under the class's row lock: each takes a free seat (held,
// counted in the class's booked count) or, with none left, is unseated (the
// guest may join the guest waiting list). The host must hold a confirmed
// seat in the class, the class must be bookable and the venue must have a
// guest price, else 422 GUEST_NOT_ELIGIBLE; more than 20 open places at the
// class is the same with reason guest_limit_reached.
func (s *Service) Create(ctx context.Context, hostID uuid.UUID, p CreateParams) ([]Created, error) {
	if p.RequestKey == "" {
		return nil, apperr.Validation("Idempotency-Key", "required")
	}
	if p.Spots == 0 {
		p.Spots = 1
	}
	if p.Spots < 1 || p.Spots > MaxSpots {
		return nil, apperr.Validation("spots", fmt.Sprintf("between 1 and %d", MaxSpots))
	}
	if err := checkReturnURL(p.ReturnBaseURL); err != nil {
		return nil, err
	}
	var out []Created
	err := withTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		cl, err := lockClass(ctx, c, p.ClassID)
		if err != nil {
			return err
		}
		prev, err := c.GuestInvite.Query().
			Where(guestinvite.MemberID(hostID), guestinvite.RequestKey(p.RequestKey)).
			Order(ent.Asc(guestinvite.FieldSpot)).All(ctx)
		if err != nil {
			return fmt.Errorf("guests: earlier request: %w", err)
		}
		if len(prev) > 0 {
			for _, inv := range prev {
				out = append(out, Created{Invite: inv})
			}
			return nil
		}
		el, err := s.eligibility(ctx, c, hostID, cl)
		if err != nil {
			return err
		}
		if !el.Eligible {
			return notEligible(el.Reason)
		}
		if len(el.Open)+p.Spots > MaxSpots {
			return notEligible(ReasonLimit)
		}
		free := cl.Capacity - cl.BookedCount
		hold := s.holdUntil(cl)
		for i := 1; i <= p.Spots; i++ {
			token, hash, err := newToken()
			if err != nil {
				return err
			}
			st := guestinvite.StatusHeld
			if free <= 0 {
				st = guestinvite.StatusUnseated
			}
			free--
			inv, err := c.GuestInvite.Create().
				SetMemberID(hostID).SetClassInstanceID(cl.ID).SetTokenHash(hash).SetPayer(p.Payer).
				SetStatus(st).SetPriceMinor(el.Price.AmountMinor).SetNillableCompareAtMinor(el.Price.CompareAtMinor).
				SetCurrency(el.Price.Currency).SetReturnBaseURL(p.ReturnBaseURL).
				SetGuestName(p.GuestName).SetGuestEmail(p.GuestEmail).
				SetRequestKey(p.RequestKey).SetSpot(i).SetHoldExpiresAt(hold).Save(ctx)
			if err != nil {
				return fmt.Errorf("guests: create: %w", err)
			}
			out = append(out, Created{Invite: inv, Token: token})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// holdUntil is when a seat taken now stops being held unpaid.
func (s *Service) holdUntil(cl *ent.ClassInstance) time.Time {
	t := s.now().Add(HoldFor)
	if cl.StartTime.Before(t) {
		t = cl.StartTime
	}
	return t.UTC()
}

func checkReturnURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil || u.Fragment != "" {
		return apperr.Validation("return_base_url", "an absolute http(s) URL without credentials or fragment")
	}
	return nil
}

// newToken is a fresh invitation token and its stored digest.
func newToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("guests: token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), nil
}

// HashToken is the stored digest of a token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func lockClass(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.ClassInstance, error) {
	cl, err := c.ClassInstance.Query().Where(classinstance.ID(id)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("class")
	}
	if err != nil {
		return nil, fmt.Errorf("guests: lock class: %w", err)
	}
	return cl, nil
}

// Withdraw cancels one of the host's places that is not paid; its seat is
// freed (and offered to the first guest waiting at the class). A paid place
// is 409 ALREADY_PAID, one whose payment is under way 409 PAYMENT_PENDING;
// another member's or unknown is 404. Withdrawing twice changes nothing.
func (s *Service) Withdraw(ctx context.Context, id uuid.UUID) (*ent.GuestInvite, error) {
	inv, err := s.client.GuestInvite.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("guest invitation")
	}
	if err != nil {
		return nil, fmt.Errorf("guests: invitation: %w", err)
	}
	err = withTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		if _, err := lockClass(ctx, c, inv.ClassInstanceID); err != nil {
			return err
		}
		if inv, err = c.GuestInvite.Query().Where(guestinvite.ID(id)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		switch inv.Status {
		case guestinvite.StatusPaid:
			return alreadyPaid()
		case guestinvite.StatusCancelled:
			return nil
		}
		live, err := c.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(inv.ID)).Exist(ctx)
		if err != nil {
			return err
		}
		if live {
			return paymentPending()
		}
		freed := inv.Status == guestinvite.StatusHeld
		if inv, err = c.GuestInvite.UpdateOne(inv).SetStatus(guestinvite.StatusCancelled).
			ClearWaitlistPosition().SetCancelledAt(s.now()).Save(ctx); err != nil {
			return err
		}
		if freed {
			return s.promote(ctx, c, inv.ClassInstanceID)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return inv, nil
}

func alreadyPaid() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: payments.CodeAlreadyPaid,
		Message: "the guest place is already paid"}).With("next_step", nil)
}

func paymentPending() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: payments.CodePending,
		Message: "a payment of this guest place is in progress"}).With("next_step", "refresh")
}

// promote gives free seats of a class, whose lock the caller holds, to the
// guests waiting for it, first come first served; the rest move up.
func (s *Service) promote(ctx context.Context, c *ent.Client, classID uuid.UUID) error {
	cl, err := c.ClassInstance.Get(ctx, classID) // the count as the trigger left it
	if err != nil {
		return err
	}
	free := cl.Capacity - cl.BookedCount
	if free <= 0 || cl.Status != classinstance.StatusScheduled || !s.now().Before(cl.StartTime) {
		return nil
	}
	// System call site: the waiting guests are other hosts' invitations of
	// the class locked above; only their place in the line changes.
	wctx := system.CrossMembers(ctx, "guests.waitlist")
	waiting, err := c.GuestInvite.Query().
		Where(guestinvite.ClassInstanceID(classID), guestinvite.StatusEQ(guestinvite.StatusWaitlisted)).
		Order(ent.Asc(guestinvite.FieldWaitlistPosition)).All(wctx)
	if err != nil {
		return err
	}
	hold := s.holdUntil(cl)
	for i, w := range waiting {
		if i < free {
			if err := c.GuestInvite.UpdateOne(w).SetStatus(guestinvite.StatusHeld).ClearWaitlistPosition().
				SetHoldExpiresAt(hold).Exec(wctx); err != nil {
				return err
			}
			continue
		}
		if err := c.GuestInvite.UpdateOne(w).SetWaitlistPosition(i - free + 1).Exec(wctx); err != nil {
			return err
		}
	}
	return nil
}

// Resolved is an invitation as its token shows it.
type Resolved struct {
	Invite *ent.GuestInvite
	Class  *ent.ClassInstance
	Venue  *ent.Organization
	State  string
}

// errNoInvite is every token that opens nothing: unknown, malformed.
func errNoInvite() error { return apperr.NotFound("guest invitation") }

// byToken finds the invitation of token in any venue and returns it with
// the context of its venue (as the operator of guest invitations).
func (s *Service) byToken(ctx context.Context, token string) (context.Context, *ent.GuestInvite, error) {
	if len(token) != 43 {
		return nil, nil, errNoInvite()
	}
	// System call site: a guest holds only the token; its digest finds the
	// one invitation (and so its venue) before anything acts in that venue.
	inv, err := s.client.GuestInvite.Query().Where(guestinvite.TokenHash(HashToken(token))).
		Only(system.Allow(ctx, "guests.token_lookup"))
	if ent.IsNotFound(err) {
		return nil, nil, errNoInvite()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("guests: token: %w", err)
	}
	vctx := system.Elevate(ctx, "guests.token_venue", viewer.Operator{Org: inv.OrganizationID, Name: "guest_invite"})
	return vctx, inv, nil
}

// Resolve reads the invitation of token and its state for the guest; an
// unknown token is 404. Reading brings a payment waiting on the bank or
// 3-D Secure up to date from Stripe (read only).
func (s *Service) Resolve(ctx context.Context, token string) (*Resolved, error) {
	vctx, inv, err := s.byToken(ctx, token)
	if err != nil {
		return nil, err
	}
	if inv.Status == guestinvite.StatusHeld {
		if err := s.pay.RefreshSubject(vctx, inv.ID); err != nil {
			return nil, err
		}
	}
	return s.resolved(vctx, inv.ID)
}

func (s *Service) resolved(ctx context.Context, id uuid.UUID) (*Resolved, error) {
	inv, err := s.client.GuestInvite.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("guests: invitation: %w", err)
	}
	cl, err := s.client.ClassInstance.Get(ctx, inv.ClassInstanceID)
	if err != nil {
		return nil, fmt.Errorf("guests: class: %w", err)
	}
	org, err := s.client.Organization.Query().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("guests: venue: %w", err)
	}
	return &Resolved{Invite: inv, Class: cl, Venue: org, State: s.state(inv, cl)}, nil
}

// state is the guest's view of an invitation now.
func (s *Service) state(inv *ent.GuestInvite, cl *ent.ClassInstance) string {
	now := s.now()
	switch {
	case inv.Status == guestinvite.StatusPaid:
		return StateAlreadyPaid
	case inv.Status == guestinvite.StatusCancelled || cl.Status == classinstance.StatusCancelled:
		return StateCancelled
	case cl.Status != classinstance.StatusScheduled || !now.Before(cl.StartTime):
		return StateClassStarted
	case inv.Status == guestinvite.StatusExpired || (inv.Status == guestinvite.StatusHeld && !now.Before(inv.HoldExpiresAt)):
		return StateExpired
	case inv.Status == guestinvite.StatusUnseated || inv.Status == guestinvite.StatusWaitlisted:
		return StateClassFull
	case inv.ClaimedUserID != nil:
		return StateNeedsAccount
	}
	return StatePayable
}

// Checkout is a started payment of a guest place.
type Checkout struct {
	Resolved *Resolved
	Charge   payments.ChargeResult
}

// GuestCheckout starts (or resumes) the guest's payment of the invitation of
// token without an account: a payment intent on the venue's connected
// account for the frozen guest price, through the payments attempt path.
// Refusals: 404 unknown token; 409 ALREADY_CLAIMED once the invitation is
// linked to an account; 409 ALREADY_PAID; 403 ACCESS_DENIED (reason
// host_pays) when the host pays; 409 STALE with details.state when the
// invitation is not payable (cancelled, expired, class started or full);
// the payments errors (unavailable, declined, pending, unknown outcome).
func (s *Service) GuestCheckout(ctx context.Context, token string) (*Checkout, error) {
	vctx, inv, err := s.byToken(ctx, token)
	if err != nil {
		return nil, err
	}
	if inv.ClaimedUserID != nil {
		return nil, (&apperr.Error{Status: http.StatusConflict, Code: CodeAlreadyClaimed,
			Message: "the invitation is linked to an account; sign in to continue"}).With("next_step", nil)
	}
	if inv.Payer == guestinvite.PayerHost {
		return nil, apperr.AccessDenied("host_pays", "the host pays for this guest place")
	}
	return s.charge(vctx, inv, "")
}

// charge charges inv in ctx (the venue's): a payable place only.
func (s *Service) charge(ctx context.Context, inv *ent.GuestInvite, paymentMethod string) (*Checkout, error) {
	r, err := s.resolved(ctx, inv.ID)
	if err != nil {
		return nil, err
	}
	switch r.State {
	case StateAlreadyPaid:
		return nil, alreadyPaid()
	case StatePayable, StateNeedsAccount:
	default:
		return nil, (&apperr.Error{Status: http.StatusConflict, Code: "STALE",
			Message: "the guest place cannot be paid"}).With("state", r.State).With("next_step", nil)
	}
	if live, ok, err := s.pay.LiveCharge(ctx, inv.ID); err != nil {
		return nil, err
	} else if ok {
		return &Checkout{Resolved: r, Charge: *live}, nil // the payment the guest started: the same intent
	}
	res, err := s.pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: Purpose, SubjectID: inv.ID, PaymentMethodID: paymentMethod})
	if err != nil {
		return nil, err
	}
	if r, err = s.resolved(ctx, inv.ID); err != nil {
		return nil, err
	}
	return &Checkout{Resolved: r, Charge: *res}, nil
}

// CheckoutURL is where a guest finishes a payment: the invitation's return
// base URL with the invitation's id in the query and the intent's client
// secret and the connected account in the fragment (never sent to a server).
func CheckoutURL(inv *ent.GuestInvite, c payments.ChargeResult) string {
	u, err := url.Parse(inv.ReturnBaseURL)
	if err != nil {
		return inv.ReturnBaseURL
	}
	q := u.Query()
	q.Set("guest_invite", inv.ID.String())
	u.RawQuery = q.Encode()
	f := url.Values{}
	if c.IntentID != "" {
		f.Set("payment_intent", c.IntentID)
	}
	if c.ClientSecret != "" && c.Status != payments.StatusPaid {
		f.Set("payment_intent_client_secret", c.ClientSecret)
	}
	if c.AccountID != "" {
		f.Set("stripe_account", c.AccountID)
	}
	u.Fragment = f.Encode()
	return u.String()
}

// Claim links the invitation of token to the signed-in user userID: from
// then on the guest pays signed in (SignedInCheckout) and the public
// checkout answers ALREADY_CLAIMED. A second claim by the same user changes
// nothing; by another user it is 409 ALREADY_CLAIMED; the host cannot claim
// their own invitation (400).
func (s *Service) Claim(ctx context.Context, token string, userID uuid.UUID) (*Resolved, error) {
	vctx, inv, err := s.byToken(ctx, token)
	if err != nil {
		return nil, err
	}
	host, err := s.client.Member.Get(vctx, inv.MemberID)
	if err != nil {
		return nil, fmt.Errorf("guests: host: %w", err)
	}
	if host.UserID == userID {
		return nil, apperr.Validation("token", "the host cannot claim their own guest place")
	}
	err = withTx(vctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.GuestInvite.Query().Where(guestinvite.ID(inv.ID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		switch {
		case cur.ClaimedUserID != nil && *cur.ClaimedUserID == userID:
			return nil
		case cur.ClaimedUserID != nil:
			return (&apperr.Error{Status: http.StatusConflict, Code: CodeAlreadyClaimed,
				Message: "the invitation is linked to another account"}).With("next_step", nil)
		case cur.Status == guestinvite.StatusCancelled || cur.Status == guestinvite.StatusExpired:
			return (&apperr.Error{Status: http.StatusConflict, Code: "STALE",
				Message: "the invitation can no longer be claimed"}).With("state", s.StateOf(ctx, cur)).With("next_step", nil)
		}
		return tx.GuestInvite.UpdateOne(cur).SetClaimedUserID(userID).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return s.resolved(vctx, inv.ID)
}

// StateOf is an invitation's state as its guest sees it now.
func (s *Service) StateOf(ctx context.Context, inv *ent.GuestInvite) string {
	cl, err := s.client.ClassInstance.Get(ctx, inv.ClassInstanceID)
	if err != nil {
		return StateExpired
	}
	return s.state(inv, cl)
}

// SignedInCheckout is the payment of a guest place by a signed-in user:
// the host of a place the host pays (hostMemberIDs: the user's member ids),
// or the guest who claimed it. Anyone else is 404 (the token opens nothing
// for them).
func (s *Service) SignedInCheckout(ctx context.Context, token string, userID uuid.UUID, paymentMethod string) (*Checkout, error) {
	vctx, inv, err := s.byToken(ctx, token)
	if err != nil {
		return nil, err
	}
	host, err := s.client.Member.Get(vctx, inv.MemberID)
	if err != nil {
		return nil, fmt.Errorf("guests: host: %w", err)
	}
	isHost := host.UserID == userID
	isClaimant := inv.ClaimedUserID != nil && *inv.ClaimedUserID == userID
	switch {
	case inv.Payer == guestinvite.PayerHost && isHost:
	case inv.Payer == guestinvite.PayerGuest && isClaimant:
	case inv.Payer == guestinvite.PayerGuest && isHost:
		return nil, apperr.AccessDenied("guest_pays", "the guest pays for this guest place")
	default:
		return nil, errNoInvite()
	}
	return s.charge(vctx, inv, paymentMethod)
}

// WaitlistResult is a guest's place on a class's guest waiting list.
type WaitlistResult struct {
	Position         int
	AlreadyOnWaiting bool
	Invite           *ent.GuestInvite
}

// JoinWaitlist puts the guest of an unseated invitation on the class's guest
// waiting list (after every guest already waiting); joining again answers
// the same place with already_on_waitlist. A seat freed by a guest place
// (withdrawn, expired) goes to the first guest waiting, who then holds it
// and may pay. An invitation that holds a seat, is paid or can no longer be
// used is 409 STALE with details.state.
func (s *Service) JoinWaitlist(ctx context.Context, token string) (*WaitlistResult, error) {
	vctx, inv, err := s.byToken(ctx, token)
	if err != nil {
		return nil, err
	}
	var out WaitlistResult
	err = withTx(vctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		cl, err := lockClass(ctx, c, inv.ClassInstanceID)
		if err != nil {
			return err
		}
		cur, err := c.GuestInvite.Get(ctx, inv.ID)
		if err != nil {
			return err
		}
		if cur.Status == guestinvite.StatusWaitlisted && cur.WaitlistPosition != nil {
			out = WaitlistResult{Position: *cur.WaitlistPosition, AlreadyOnWaiting: true, Invite: cur}
			return nil
		}
		if st := s.state(cur, cl); st != StateClassFull {
			return (&apperr.Error{Status: http.StatusConflict, Code: "STALE",
				Message: "the invitation cannot join the waiting list"}).With("state", st).With("next_step", nil)
		}
		n, err := c.GuestInvite.Query().Where(guestinvite.ClassInstanceID(cl.ID),
			guestinvite.StatusEQ(guestinvite.StatusWaitlisted)).Count(ctx)
		if err != nil {
			return err
		}
		if cur, err = c.GuestInvite.UpdateOne(cur).SetStatus(guestinvite.StatusWaitlisted).
			SetWaitlistPosition(n + 1).Save(ctx); err != nil {
			return err
		}
		out = WaitlistResult{Position: n + 1, Invite: cur}
		return s.promote(ctx, c, cl.ID)
	})
	if err != nil {
		return nil, err
	}
	if cur, err := s.client.GuestInvite.Get(vctx, inv.ID); err == nil && cur.Status == guestinvite.StatusHeld {
		out.Invite, out.Position = cur, 0 // a seat was free: held now
	}
	return &out, nil
}

func withTx(ctx context.Context, c *ent.Client, fn func(ctx context.Context, tx *ent.Tx) error) error {
	return events.WithTx(ctx, c, fn)
}
