package payments

import (
	"strconv"

	"github.com/venueplatform/venue/internal/apperr"
)

// Locales the checkout preview writes its own human-readable texts in (the
// contract's locale: en or da). Texts the venue wrote (pass type and offer
// names) are shown as written.
const (
	LocaleEN = "en"
	LocaleDA = "da"
)

// CheckLocale accepts "" (English) and the checkout locales; anything else
// is 400 VALIDATION_ERROR.
func CheckLocale(locale string) error {
	switch locale {
	case "", LocaleEN, LocaleDA:
		return nil
	}
	return apperr.Validation("locale", "locale is en or da")
}

// AllowanceLabelIn is the selection in words in locale: "8 classes",
// "Unlimited" (en); "8 klasser", "Ubegrænset" (da).
func (s Selection) AllowanceLabelIn(locale string) string {
	if locale != LocaleDA {
		return s.AllowanceLabel()
	}
	if s.Unlimited {
		return "Ubegrænset"
	}
	if s.Quantity == 1 {
		return "1 klasse"
	}
	return strconv.Itoa(s.Quantity) + " klasser"
}

// SelectionRequiredMessage is the purchase obligation's message when a
// flexible membership is previewed without a selection, in locale.
func SelectionRequiredMessage(locale string) string {
	if locale == LocaleDA {
		return "Et fleksibelt medlemskab prissættes efter dit valg: vælg et antal klasser om måneden eller ubegrænset"
	}
	return "a flexible membership is priced by its selection: preview it with kind and quantity"
}
