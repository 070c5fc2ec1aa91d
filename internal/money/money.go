// Package money converts between minor and major currency units by each ISO
// 4217 currency's exponent, and validates currency codes.
package money

import (
	"math"
	"strings"
)

// exponents lists the ISO 4217 currencies whose minor unit is not 1/100.
var exponents = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
	"PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// active lists active ISO 4217 currency codes.
var active = strings.Fields(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB
BRL BSD BTN BWP BYN BZD CAD CDF CHF CLF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR
FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS
KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN
MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG
SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYI UYU
UYW UZS VED VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL`)

var known = func() map[string]bool {
	m := make(map[string]bool, len(active))
	for _, c := range active {
		m[c] = true
	}
	return m
}()

// ValidCurrency reports whether code is an active ISO 4217 currency code
// (upper case).
func ValidCurrency(code string) bool { return known[code] }

// Exponent returns the number of minor-unit digits of currency.
func Exponent(currency string) int {
	if e, ok := exponents[strings.ToUpper(currency)]; ok {
		return e
	}
	return 2
}

// ToMajor converts an amount in minor units to major units.
func ToMajor(minor int64, currency string) float64 {
	return float64(minor) / math.Pow10(Exponent(currency))
}

// ToMinor converts an amount in major units to minor units, rounding to the
// nearest minor unit.
func ToMinor(major float64, currency string) int64 {
	return int64(math.Round(major * math.Pow10(Exponent(currency))))
}
