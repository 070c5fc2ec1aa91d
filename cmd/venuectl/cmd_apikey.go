package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func newAPIKeyCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "apikey", Short: "Issue, list and revoke API keys"}
	cmd.AddCommand(newAPIKeyCreateCmd(a), newAPIKeyListCmd(a), newAPIKeyRevokeCmd(a))
	return cmd
}

func newAPIKeyCreateCmd(a *app) *cobra.Command {
	var slug, name, scopes, createdBy string
	cmd := &cobra.Command{
		Use:   "create --venue S --name N --scopes s1,s2 [--created-by EMAIL]",
		Short: "Issue an organization-scoped API key (the secret is shown once)",
		Long: "Issue an organization-scoped API key. The secret is shown once.\n" +
			"A key with any write: scope needs --created-by, a staff email of the venue.\n" +
			"Scopes: " + strings.Join(scope.All, ", "),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := scope.Parse(scopes)
			if err != nil {
				return err
			}
			vctx, v, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			issued, err := apikey.Create(vctx, a.client, apikey.CreateParams{Name: name, Scopes: list, CreatedBy: createdBy})
			if err != nil {
				return err
			}
			k := issued.Key
			record(vctx, a, audit.Entry{Action: "apikey.create", Target: "api_key:" + k.ID.String(),
				Details: map[string]any{"name": k.Name, "scopes": k.Scopes, "created_by": k.CreatedByEmail}})
			out := struct {
				ID        string   `json:"id"`
				Key       string   `json:"key"`
				Scopes    []string `json:"scopes"`
				CreatedBy *string  `json:"created_by"`
			}{k.ID.String(), issued.Secret, k.Scopes, k.CreatedByEmail}
			return a.output(out, func(w io.Writer) {
				fmt.Fprintf(w, "key %q for %s (id %s)\nscopes: %s\n\n%s\n\nThe key is shown only now; store it safely.\n",
					k.Name, v.Slug, out.ID, strings.Join(out.Scopes, ", "), out.Key)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&slug, "venue", "", "the venue's slug (required)")
	f.StringVar(&name, "name", "", "a name for the key (required)")
	f.StringVar(&scopes, "scopes", "", "comma-separated scopes (required)")
	f.StringVar(&createdBy, "created-by", "", "email of the staff member issuing the key (required for write: scopes)")
	for _, n := range []string{"venue", "name", "scopes"} {
		_ = cmd.MarkFlagRequired(n)
	}
	return cmd
}

// keyJSON is an item of apikey list --json.
type keyJSON struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Scopes     []string `json:"scopes"`
	CreatedAt  string   `json:"created_at"`
	RevokedAt  *string  `json:"revoked_at"`
	LastUsedAt *string  `json:"last_used_at"`
}

func newAPIKeyListCmd(a *app) *cobra.Command {
	var slug string
	cmd := &cobra.Command{
		Use:   "list --venue S",
		Short: "List a venue's API keys (without secrets)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vctx, _, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			keys, err := apikey.List(vctx, a.client)
			if err != nil {
				return err
			}
			out := make([]keyJSON, len(keys))
			for i, k := range keys {
				out[i] = keyJSON{ID: k.ID.String(), Name: k.Name, Scopes: k.Scopes,
					CreatedAt: k.CreatedAt.UTC().Format(time.RFC3339), RevokedAt: timeOrNil(k.RevokedAt), LastUsedAt: timeOrNil(k.LastUsedAt)}
			}
			return a.output(out, func(w io.Writer) {
				if len(out) == 0 {
					fmt.Fprintln(w, "no keys")
					return
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tNAME\tCREATED\tLAST USED\tREVOKED\tSCOPES")
				for _, k := range out {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.CreatedAt, orDash(k.LastUsedAt), orDash(k.RevokedAt), strings.Join(k.Scopes, ","))
				}
				_ = tw.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&slug, "venue", "", "the venue's slug (required)")
	_ = cmd.MarkFlagRequired("venue")
	return cmd
}

func newAPIKeyRevokeCmd(a *app) *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:   "revoke --id ID",
		Short: "Revoke an API key at once",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			keyID, err := uuid.Parse(id)
			if err != nil {
				return fmt.Errorf("--id: not a key id: %q", id)
			}
			v, err := venue.ByAPIKey(cmd.Context(), a.client, keyID)
			if ent.IsNotFound(err) {
				return fmt.Errorf("API key %s not found", keyID)
			}
			if err != nil {
				return err
			}
			vctx := system.Elevate(cmd.Context(), "venuectl.operator", viewer.Operator{Org: v.ID, Name: operatorName})
			k, err := apikey.Revoke(vctx, a.client, keyID)
			if err != nil {
				return err
			}
			record(vctx, a, audit.Entry{Action: "apikey.revoke", Target: "api_key:" + k.ID.String(),
				Details: map[string]any{"name": k.Name}})
			out := struct {
				ID        string  `json:"id"`
				RevokedAt *string `json:"revoked_at"`
			}{k.ID.String(), timeOrNil(k.RevokedAt)}
			return a.output(out, func(w io.Writer) {
				fmt.Fprintf(w, "revoked key %s of %s at %s\n", out.ID, v.Slug, orDash(out.RevokedAt))
			})
		},
	}
	cmd.Flags().StringVar(&id, "id", "", "the key's id (required)")
	_ = cmd.MarkFlagRequired("id")
	return cmd
}

func orDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

func isNotFound(err error) bool {
	var nf *ent.NotFoundError
	return errors.As(err, &nf)
}
