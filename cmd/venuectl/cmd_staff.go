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
	cmd.AddCommand(newStaffCreateCmd(a), newStaffPermissionCmd(a, true), newStaffPermissionCmd(a, false))
	return cmd
}

// newStaffPermissionCmd builds `staff grant` (grant true) and `staff revoke`.
func newStaffPermissionCmd(a *app, grant bool) *cobra.Command {
	var slug, email, permissions string
	use, short, action := "grant", "Grant staff permissions", "staff.permissions_granted"
	if !grant {
		use, short, action = "revoke", "Revoke staff permissions", "staff.permissions_revoked"
	}
	cmd := &cobra.Command{
		Use:   use + " --venue S --email E --permissions p1,p2",
		Short: short + " (visible to the person's next request)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			perms, err := scope.ParsePermissions(permissions)
			if err != nil {
				return err
			}
			if len(perms) == 0 {
				return fmt.Errorf("no permissions given")
			}
			vctx, v, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			add, remove := perms, []string(nil)
			if !grant {
				add, remove = nil, perms
			}
			m, err := members.ChangePermissions(vctx, a.client, email, add, remove)
			if err != nil {
				return err
			}
			record(vctx, a, audit.Entry{Action: action, Target: "user:" + m.UserID.String(),
				UserID: &m.UserID, Details: map[string]any{"permissions": perms}})
			out := struct {
				UserID      string   `json:"user_id"`
				Permissions []string `json:"permissions"`
			}{m.UserID.String(), append([]string{}, m.Permissions...)}
			return a.output(out, func(w io.Writer) {
				fmt.Fprintf(w, "%s at %s now has: %v\n", email, v.Slug, out.Permissions)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&slug, "venue", "", "the venue's slug (required)")
	f.StringVar(&email, "email", "", "the staff member's email (required)")
	f.StringVar(&permissions, "permissions", "", "comma-separated staff permissions (required)")
	for _, name := range []string{"venue", "email", "permissions"} {
		_ = cmd.MarkFlagRequired(name)
	}
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
