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
}
