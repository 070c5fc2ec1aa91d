package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/scope"
)

func newStaffCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "staff", Short: "Manage a venue's staff"}
	cmd.AddCommand(newStaffCreateCmd(a))
	return cmd
}

func newStaffCreateCmd(a *app) *cobra.Command {
	var slug, email, first, last, permissions string
	cmd := &cobra.Command{
		Use:   "create --venue S --email E --first-name F --last-name L [--permissions p1,p2]",
		Short: "Create a staff user of a venue (or make an existing person staff)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			perms, err := scope.ParsePermissions(permissions)
			if err != nil {
				return err
			}
			vctx, v, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			e, err := members.Enroll(vctx, a.client, members.EnrollParams{
				Email: email, FirstName: first, LastName: last, Role: "staff", Permissions: perms,
			})
			if err != nil {
				return err
			}
			record(vctx, a, audit.Entry{Action: "staff.create", Target: "user:" + e.User.ID.String(),
				UserID: &e.User.ID, Details: map[string]any{"email": e.User.Email, "permissions": perms}})
			out := struct {
				UserID string `json:"user_id"`
				Email  string `json:"email"`
			}{e.User.ID.String(), e.User.Email}
			return a.output(out, func(w io.Writer) {
				fmt.Fprintf(w, "%s is staff of %s (user id %s)\n", out.Email, v.Slug, out.UserID)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&slug, "venue", "", "the venue's slug (required)")
	f.StringVar(&email, "email", "", "the person's email (required)")
	f.StringVar(&first, "first-name", "", "first name (required)")
	f.StringVar(&last, "last-name", "", "last name (required)")
	f.StringVar(&permissions, "permissions", "", "comma-separated staff permissions")
	for _, name := range []string{"venue", "email", "first-name", "last-name"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}
