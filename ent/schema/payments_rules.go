//go:build !entbootstrap

package schema

import "entgo.io/ent"

// Policy of the ProcessorEvent: nobody but the named system sites of the
// inbound event endpoint and its job (the event arrives before any viewer).
func (ProcessorEvent) Policy() ent.Policy { return sitesOnlyPolicy() }
