package main

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/members"
)

func enroll(op context.Context, client *ent.Client, i int) (uuid.UUID, error) {
	en, err := members.Enroll(op, client, members.EnrollParams{Email: fmt.Sprintf("m%d@renewcrash.example", i), FirstName: "M"})
	if err != nil {
		return uuid.Nil, err
	}
	return en.Member.ID, nil
}
