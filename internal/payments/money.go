package payments

// VATShare is the VAT inside a VAT-inclusive total at rateBP basis points:
// round_half_up(total x rate / (10000 + rate)), in integers.
func VATShare(totalMinor int64, rateBP int) int64 {
	if totalMinor <= 0 || rateBP <= 0 {
		return 0
	}
	num := totalMinor * int64(rateBP)
	den := int64(10000 + rateBP)
	return (2*num + den) / (2 * den)
}

// FeeShare is the platform's application fee of a total at feeBP basis
// points, rounded half up.
func FeeShare(totalMinor int64, feeBP int) int64 {
	if totalMinor <= 0 || feeBP <= 0 {
		return 0
	}
	return (totalMinor*int64(feeBP) + 5000) / 10000
}
