package money

import "fmt"

// Format writes an amount in minor units with its currency's minor digits
// and code: 500.00 DKK, 5000 JPY, 1.250 KWD.
func Format(minor int64, currency string) string {
	exp := Exponent(currency)
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	if exp == 0 {
		return fmt.Sprintf("%s%d %s", sign, minor, currency)
	}
	unit := int64(1)
	for range exp {
		unit *= 10
	}
	return fmt.Sprintf("%s%d.%0*d %s", sign, minor/unit, exp, minor%unit, currency)
}
