package server

import (
	"time"

	"github.com/venueplatform/venue/internal/limits"
)

// The limits of the authentication endpoints (contract's Limits table where
// it names one; the rest are this service's choice, see spec/api.yaml).
var (
	loginPerIP      = limits.Policy{Name: "login", Limit: 30, Window: time.Minute}
	loginPerAccount = limits.Policy{Name: "login-account", Limit: 10, Window: 10 * time.Minute}
	signupPerIP     = limits.Policy{Name: "signup", Limit: 10, Window: time.Minute}
	refreshPerIP    = limits.Policy{Name: "refresh", Limit: 60, Window: time.Minute}
	passwordCode    = limits.Policy{Name: "password-code", Limit: 10, Window: 10 * time.Minute}
	resetPerIP      = limits.Policy{Name: "password-reset", Limit: 20, Window: 10 * time.Minute}
	resetPerAccount = limits.Policy{Name: "password-reset-account", Limit: 10, Window: 10 * time.Minute}
	accountState    = limits.Policy{Name: "account-state", Limit: 20, Window: time.Minute}
	changeCode      = limits.Policy{Name: "password-change-code", Limit: 10, Window: 10 * time.Minute}
	mfaChallenge    = limits.Policy{Name: "mfa-challenge", Limit: 5, Window: time.Minute}
	mfaVerify       = limits.Policy{Name: "mfa-verify", Limit: 5, Window: 5 * time.Minute}
	mfaConfirm      = limits.Policy{Name: "mfa-confirm", Limit: 5, Window: 5 * time.Minute}
	mfaEnroll       = limits.Policy{Name: "mfa-enroll", Limit: 10, Window: 10 * time.Minute}
	mfaBackupCodes  = limits.Policy{Name: "mfa-backup-codes", Limit: 5, Window: 10 * time.Minute}
	// Each user code takes 5 submissions (accounts); per user, 20 in 10
	// minutes lets one person approve several screens while guessing across
	// codes stays bounded.
	deviceApprove   = limits.Policy{Name: "device-approve", Limit: 20, Window: 10 * time.Minute}
	handoffMint     = limits.Policy{Name: "handoff-mint", Limit: 20, Window: time.Minute}
	handoffExchange = limits.Policy{Name: "handoff-exchange", Limit: 30, Window: time.Minute}
	mobileOTP       = limits.Policy{Name: "mobile-otp", Limit: 5, Window: 10 * time.Minute}
	mobileExchange  = limits.Policy{Name: "mobile-otp-exchange", Limit: 5, Window: 10 * time.Minute}
)

// operationLimits are the per-operation rules of the REST API.
var operationLimits = map[string]limits.Rule{
	"getGiftCardBalance":     {PerIP: &limits.GiftCardLookup},
	"getGiftCardPreview":     {PerIP: &limits.GiftCardLookup},
	"authLogin":              {PerIP: &loginPerIP, PerAccount: &loginPerAccount},
	"authSignup":             {PerIP: &signupPerIP},
	"authRefresh":            {PerIP: &refreshPerIP},
	"authPasswordForgot":     {PerIP: &passwordCode},
	"authPasswordReset":      {PerIP: &resetPerIP, PerAccount: &resetPerAccount},
	"authAccountState":       {PerIP: &accountState},
	"authPasswordChangeCode": {PerKey: &changeCode},
	"authPasswordChange":     {PerKey: &changeCode},
	"authMfaChallenge":       {PerKey: &mfaChallenge},
	"authMfaVerify":          {PerKey: &mfaVerify},
	"authMfaTotpConfirm":     {PerKey: &mfaConfirm},
	"authMfaTotpEnroll":      {PerKey: &mfaEnroll},
	"authMfaBackupCodes":     {PerKey: &mfaBackupCodes},
	"authDeviceApprove":      {PerKey: &deviceApprove},
	"authHandoffMint":        {PerKey: &handoffMint},
	"authHandoffExchange":    {PerIP: &handoffExchange},
	"authOtpRequest":         {PerIP: &mobileOTP},
	"authOtpExchange":        {PerIP: &mobileExchange},
}
