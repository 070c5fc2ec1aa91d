package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/venuepayments"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/billingclock"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// clockAccount is the connected account a venue gets for the billing clock:
// it exists only at the fake Stripe of the command's own process.
const clockAccount = "acct_billing_clock"

// billingMonthJSON is one month of billing advance's output.
type billingMonthJSON struct {
	Month     string `json:"month"`
	Invoices  int    `json:"invoices"`
	Paid      int    `json:"paid"`
	Declined  int    `json:"declined"`
	Recovered int    `json:"recovered"`
	Overdue   int    `json:"overdue"`
	First     string `json:"first_number"`
	Last      string `json:"last_number"`
}

func newBillingCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "billing", Short: "Memberships that renew (development tools)"}
	cmd.AddCommand(newBillingAdvanceCmd(a))
	return cmd
}

func newBillingAdvanceCmd(a *app) *cobra.Command {
	var (
		slug             string
		months, count    int
		declinePct, hard int
	)
	cmd := &cobra.Command{
		Use:   "advance --venue S [--months 12] [--members 20] [--decline-percent 10]",
		Short: "Watch months of renewals, declines and recoveries on a venue against a fake Stripe",
		Long: `Development tool. Starts a fake Stripe inside this process, gives the venue --members new
members holding a monthly membership (renewing through the fake's subscriptions), then moves the
billing clock one month at a time for --months months: each month's renewals are invoiced and
charged (--decline-percent of first charges declined), declined invoices are charged again three
days later (--hard-decline-percent of those declined again and left overdue), and every event
goes through the service's real inbound path into the venue's invoices and payments. It prints
each month's figures. The venue must take no card payments yet (or have run this before): it is
given the fake's connected account, which is switched off at the end, so the venue answers
CARD_PAYMENTS_UNAVAILABLE until it connects a real account.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vctx, v, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			// The inbound events queue their jobs as the server's do: the job
			// tables must exist (the server makes them at its start).
			if _, err := jobs.Migrate(cmd.Context(), a.pool); err != nil {
				return err
			}
			out, err := advanceBilling(vctx, a.client, v.ID, months, count, declinePct, hard)
			if err != nil {
				return err
			}
			return a.output(out, func(w io.Writer) {
				fmt.Fprintf(w, "%-8s %8s %6s %9s %10s %8s  %s\n", "month", "invoices", "paid", "declined", "recovered", "overdue", "numbers")
				for _, m := range out {
					fmt.Fprintf(w, "%-8s %8d %6d %9d %10d %8d  %s..%s\n", m.Month, m.Invoices, m.Paid, m.Declined, m.Recovered, m.Overdue, m.First, m.Last)
				}
			})
		},
	}
	cmd.Flags().StringVar(&slug, "venue", "", "the venue's slug (required)")
	cmd.Flags().IntVar(&months, "months", 12, "months to advance (1 to 36)")
	cmd.Flags().IntVar(&count, "members", 20, "new members with a monthly membership (1 to 5000)")
	cmd.Flags().IntVar(&declinePct, "decline-percent", 10, "share of first renewal charges declined (0 to 100)")
	cmd.Flags().IntVar(&hard, "hard-decline-percent", 10, "share of declined renewals declined again at the retry (0 to 100)")
	_ = cmd.MarkFlagRequired("venue")
	return cmd
}

func advanceBilling(ctx context.Context, client *ent.Client, org uuid.UUID, months, count, declinePct, hard int) ([]billingMonthJSON, error) {
	switch {
	case months < 1 || months > 36:
		return nil, fmt.Errorf("--months must be 1 to 36")
	case count < 1 || count > 5000:
		return nil, fmt.Errorf("--members must be 1 to 5000")
	case declinePct < 0 || declinePct > 100 || hard < 0 || hard > 100:
		return nil, fmt.Errorf("percentages must be 0 to 100")
	}
	vp, err := client.VenuePayments.Query().Only(ctx)
	switch {
	case ent.IsNotFound(err):
		vp, err = client.VenuePayments.Create().SetAccountID(clockAccount).SetChargesEnabled(true).Save(ctx)
	case err == nil && (vp.AccountID == nil || *vp.AccountID != clockAccount):
		return nil, fmt.Errorf("the venue has a connected account of its own; the billing clock runs only on a venue without one")
	case err == nil:
		vp, err = client.VenuePayments.UpdateOne(vp).SetChargesEnabled(true).Save(ctx)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		_ = client.VenuePayments.Update().Where(venuepayments.AccountID(clockAccount)).SetChargesEnabled(false).Exec(ctx)
	}()

	const secret = "whsec_billing_clock"
	fake := stripetest.New()
	defer fake.Close()
	fake.AddAccount(clockAccount, true)
	fake.SetEventSecret(secret)
	fake.DeclineRenewals(func(sub string, invoice, attempt int) string {
		h := 0
		for _, c := range sub {
			h = h*31 + int(c)
		}
		h = (h + invoice*7919) % 10000
		if h < 0 {
			h = -h
		}
		switch {
		case attempt == 1 && h < declinePct*100:
			return "insufficient_funds"
		case attempt == 2 && h < declinePct*hard:
			return "card_declined"
		}
		return ""
	})
	start := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
	clock := &billingclock.Clock{Fake: fake, Now: time.Now()}
	pay := payments.New(client, payments.Config{
		Port: stripeport.New(stripeport.Config{SecretKey: "sk_test_billing_clock", APIBase: fake.URL}),
		Now:  func() time.Time { return clock.Now }, WebhookSecrets: []string{secret}})
	clock.Pay = pay
	svc := billing.New(pay)

	monthly := passtype.BillingIntervalMonth
	pt, err := client.PassType.Query().Where(passtype.Slug("billing-clock-monthly")).Only(ctx)
	if ent.IsNotFound(err) {
		pt, err = client.PassType.Create().SetName("Monthly membership (billing clock)").SetSlug("billing-clock-monthly").
			SetCategory(passtype.CategoryMembership).SetPriceMinor(49900).SetCurrency("DKK").SetIsRecurring(true).
			SetBillingInterval(monthly).SetBillingIntervalCount(1).SetClips(8).SetListed(false).Save(ctx)
	}
	if err != nil {
		return nil, err
	}
	run := uuid.NewString()[:8]
	var passes []uuid.UUID
	for i := range count {
		en, err := members.Enroll(ctx, client, members.EnrollParams{Email: fmt.Sprintf("clock-%s-%d@billing-clock.invalid", run, i), FirstName: "Clock"})
		if err != nil {
			return nil, err
		}
		p, err := client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(pt.ID).SetValidFrom(start.AddDate(0, -1, 0)).
			SetValidTo(start).Save(ctx)
		if err != nil {
			return nil, err
		}
		if err := client.PaymentCustomer.Create().SetMemberID(en.Member.ID).SetAccountID(clockAccount).
			SetCustomerID(fmt.Sprintf("cus_clock_%s_%d", run, i)).SetDefaultPaymentMethodID("pm_card_visa").Exec(ctx); err != nil {
			return nil, err
		}
		if _, err := svc.Start(ctx, p.ID); err != nil {
			return nil, err
		}
		passes = append(passes, p.ID)
	}
	var out []billingMonthJSON
	for m := 0; m < months; m++ {
		day := start.AddDate(0, m, 0)
		before := time.Now()
		if _, err := clock.Advance(ctx, day.Add(time.Hour)); err != nil {
			return nil, err
		}
		if _, err := clock.Advance(ctx, day.Add(stripetest.RetryAfter+time.Hour)); err != nil {
			return nil, err
		}
		row := billingMonthJSON{Month: day.Format("2006-01")}
		invs, err := client.Invoice.Query().Where(invoiceOfPasses(passes), invoiceCreatedAfter(before)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, in := range invs {
			row.Invoices++
			if row.First == "" || in.Number < row.First {
				row.First = in.Number
			}
			if in.Number > row.Last {
				row.Last = in.Number
			}
			switch {
			case string(in.Status) == "paid" && in.AttemptCount > 0:
				row.Paid++
				row.Declined++
				row.Recovered++
			case string(in.Status) == "paid":
				row.Paid++
			default:
				row.Declined++
				row.Overdue++
			}
		}
		out = append(out, row)
	}
	return out, nil
}
