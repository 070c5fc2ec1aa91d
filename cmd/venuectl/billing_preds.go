package main

import (
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/predicate"
)

func invoiceOfPasses(ids []uuid.UUID) predicate.Invoice { return invoice.PassIDIn(ids...) }

func invoiceCreatedAfter(t time.Time) predicate.Invoice { return invoice.CreatedAtGTE(t) }
