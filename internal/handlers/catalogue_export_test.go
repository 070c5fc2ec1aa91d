package handlers

// SetDiscoveryFault makes the discovery summary of the venue slugs for which
// f returns an error fail, until the returned function restores it.
func SetDiscoveryFault(f func(slug string) error) (restore func()) {
	prev := discoveryFault
	discoveryFault = f
	return func() { discoveryFault = prev }
}
