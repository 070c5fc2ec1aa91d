package accounts

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/deviceauthorization"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/system"
)

// Settings of the TV device flow.
const (
	// DeviceCodeTTL is how long a device authorization can be approved and
	// exchanged.
	DeviceCodeTTL = 10 * time.Minute
	// DevicePollInterval is the polling interval the device is told.
	DevicePollInterval = 5 * time.Second
	// MaxDeviceAttempts is how many approval submissions a user code takes.
	MaxDeviceAttempts = 5
	// AMRDevice is the amr of a session opened by the device flow.
	AMRDevice = "device"
	// DefaultDeviceVerificationURI is where users type user codes, unless
	// configured (VENUE_DEVICE_VERIFICATION_URI).
	DefaultDeviceVerificationURI = "https://venue.example/device"
)

// Errors of the device token poll, named by the contract.
var (
	// ErrAuthorizationPending is a poll before the user decided.
	ErrAuthorizationPending = &apperr.Error{Status: http.StatusBadRequest, Code: "AUTHORIZATION_PENDING", Message: "the user has not approved the sign-in yet"}
	// ErrExpiredToken is a poll after the device code expired.
	ErrExpiredToken = &apperr.Error{Status: http.StatusBadRequest, Code: "EXPIRED_TOKEN", Message: "the device code has expired; start again"}
	// ErrDeviceDenied is a poll of a denied sign-in.
	ErrDeviceDenied = &apperr.Error{Status: http.StatusForbidden, Code: apperr.CodeAccessDenied, Message: "the user denied the sign-in"}
)

// DeviceAuthorization is a new device sign-in, as the TV shows it.
type DeviceAuthorization struct {
	DeviceCode      string
	UserCode        string
	VerificationURI string
	ExpiresIn       int
	Interval        int
}

// StartDevice creates a device authorization. Expired ones older than an
// hour are swept first, so their user codes can be drawn again.
func (s *Service) StartDevice(ctx context.Context) (*DeviceAuthorization, error) {
	ctx = system.Allow(ctx, "device.start")
	now := s.now()
	if _, err := s.client.DeviceAuthorization.Delete().
		Where(deviceauthorization.ExpiresAtLT(now.Add(-time.Hour))).Exec(ctx); err != nil {
		return nil, err
	}
	for range 5 {
		dc, uc := codes.NewDeviceCode(), codes.NewUserCode()
		norm, err := codes.NormalizeUserCode(uc)
		if err != nil {
			return nil, err
		}
		hash, err := codes.HashOpaque(dc)
		if err != nil {
			return nil, err
		}
		err = s.client.DeviceAuthorization.Create().SetDeviceCodeHash(hash).SetUserCode(norm).
			SetExpiresAt(now.Add(DeviceCodeTTL)).Exec(ctx)
		if ent.IsConstraintError(err) {
			continue // a user code still in use; draw again
		}
		if err != nil {
			return nil, fmt.Errorf("create device authorization: %w", err)
		}
		return &DeviceAuthorization{
			DeviceCode: dc, UserCode: uc, VerificationURI: s.deviceURI,
			ExpiresIn: int(DeviceCodeTTL / time.Second), Interval: int(DevicePollInterval / time.Second),
		}, nil
	}
	return nil, fmt.Errorf("device authorization: no free user code")
}

// DecideDevice approves (or, with deny, refuses) the pending device sign-in
// of userCode for the signed-in user. Every submission of an existing code
// counts; the sixth and later fail. Every failure is ErrInvalidCode.
func (s *Service) DecideDevice(ctx context.Context, userCode string, deny bool) error {
	v, err := userViewer(ctx)
	if err != nil {
		return err
	}
	norm, err := codes.NormalizeUserCode(userCode)
	if err != nil {
		return ErrInvalidCode
	}
	ctx = system.Allow(ctx, "device.approve")
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	da, err := tx.DeviceAuthorization.Query().Where(deviceauthorization.UserCode(norm)).ForUpdate().Only(ctx)
	if err != nil {
		return notFoundAsInvalid(err)
	}
	if da, err = tx.DeviceAuthorization.UpdateOne(da).AddAttempts(1).Save(ctx); err != nil {
		return err
	}
	refused := da.Attempts > MaxDeviceAttempts || da.Status != deviceauthorization.StatusPending ||
		!s.now().Before(da.ExpiresAt)
	if !refused {
		st := deviceauthorization.StatusApproved
		if deny {
			st = deviceauthorization.StatusDenied
		}
		if err := tx.DeviceAuthorization.UpdateOne(da).SetStatus(st).SetUserID(v.UserID).Exec(ctx); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if refused {
		return ErrInvalidCode
	}
	return nil
}

// DeviceToken answers the device's poll: the session once approved (the
// code is consumed by a conditional update, so exactly one poll wins), or
// the contract's pending, expired, denied or invalid answer.
func (s *Service) DeviceToken(ctx context.Context, deviceCode string) (*Session, error) {
	hash, err := codes.HashOpaque(deviceCode)
	if err != nil {
		return nil, ErrInvalidCode
	}
	ctx = system.Allow(ctx, "device.token")
	da, err := s.client.DeviceAuthorization.Query().Where(deviceauthorization.DeviceCodeHash(hash)).Only(ctx)
	if err != nil {
		return nil, notFoundAsInvalid(err)
	}
	switch {
	case da.Status == deviceauthorization.StatusConsumed:
		return nil, ErrInvalidCode
	case !s.now().Before(da.ExpiresAt):
		return nil, ErrExpiredToken
	case da.Status == deviceauthorization.StatusDenied:
		return nil, ErrDeviceDenied
	case da.Status == deviceauthorization.StatusPending || da.UserID == nil:
		return nil, ErrAuthorizationPending
	}
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	n, err := tx.DeviceAuthorization.Update().Where(deviceauthorization.ID(da.ID),
		deviceauthorization.StatusEQ(deviceauthorization.StatusApproved)).
		SetStatus(deviceauthorization.StatusConsumed).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, ErrInvalidCode
	}
	u, err := tx.User.Get(ctx, *da.UserID)
	if err != nil {
		return nil, err
	}
	sess, refresh, err := s.openSession(ctx, tx, u, []string{AMRDevice})
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	out, err := s.answer(sess, u, refresh)
	return s.flagMFA(ctx, out, err)
}
