package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// paymentsJSON is the output of payments connect and status.
type paymentsJSON struct {
	Venue            string `json:"venue"`
	AccountID        string `json:"account_id"`
	ChargesEnabled   bool   `json:"charges_enabled"`
	DetailsSubmitted bool   `json:"details_submitted"`
}

func newPaymentsCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "payments", Short: "A venue's card payments (its Stripe connected account)"}
	cmd.AddCommand(newPaymentsConnectCmd(a), newPaymentsStatusCmd(a))
	return cmd
}

// paymentsService is the payments domain on the Stripe settings of the
// environment (VENUE_STRIPE_SECRET_KEY, VENUE_STRIPE_API_BASE).
func (a *app) paymentsService() (*payments.Service, error) {
	c, err := config.Load(nil, a.lookup, io.Discard)
	if err != nil {
		return nil, err
	}
	pc := payments.Config{}
	if c.Payments.SecretKey != "" {
		pc.Port = stripeport.New(stripeport.Config{SecretKey: c.Payments.SecretKey, APIBase: c.Payments.APIBase, Timeout: c.Payments.Timeout})
	}
	return payments.New(a.client, pc), nil
}

func newPaymentsConnectCmd(a *app) *cobra.Command {
	var slug, account string
	cmd := &cobra.Command{
		Use:   "connect --venue S --account acct_...",
		Short: "Attach a Stripe connected account to a venue and read whether it may take charges",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vctx, v, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			svc, err := a.paymentsService()
			if err != nil {
				return err
			}
			st, err := svc.Attach(vctx, account)
			if err != nil {
				return err
			}
			return a.printPayments(v.Slug, st)
		},
	}
	cmd.Flags().StringVar(&slug, "venue", "", "the venue's slug (required)")
	cmd.Flags().StringVar(&account, "account", "", "the connected account id, acct_... (required)")
	_ = cmd.MarkFlagRequired("venue")
	_ = cmd.MarkFlagRequired("account")
	return cmd
}

func newPaymentsStatusCmd(a *app) *cobra.Command {
	var slug string
	cmd := &cobra.Command{
		Use:   "status --venue S",
		Short: "A venue's connected account as last reported by Stripe",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vctx, v, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			svc, err := a.paymentsService()
			if err != nil {
				return err
			}
			st, err := svc.Status(vctx)
			if err != nil {
				return err
			}
			return a.printPayments(v.Slug, st)
		},
	}
	cmd.Flags().StringVar(&slug, "venue", "", "the venue's slug (required)")
	_ = cmd.MarkFlagRequired("venue")
	return cmd
}

func (a *app) printPayments(slug string, st *payments.ConnectStatus) error {
	out := paymentsJSON{Venue: slug, AccountID: st.AccountID, ChargesEnabled: st.ChargesEnabled, DetailsSubmitted: st.DetailsSubmitted}
	return a.output(out, func(w io.Writer) {
		if out.AccountID == "" {
			fmt.Fprintf(w, "%s: no connected account (card payments off)\n", slug)
			return
		}
		fmt.Fprintf(w, "%s: %s, charges enabled: %t, details submitted: %t\n", slug, out.AccountID, out.ChargesEnabled, out.DetailsSubmitted)
	})
}
