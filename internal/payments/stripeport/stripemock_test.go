package stripeport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v79"

	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// startStripeMock builds and starts stripe-mock (a pinned tool dependency of
// the module) on loopback ports and returns its HTTP address.
func startStripeMock(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "stripe-mock")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/stripe/stripe-mock").CombinedOutput()
	require.NoError(t, err, "build stripe-mock: %s", out)
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = cmd.Stdout
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`Listening for HTTP at address: (\S+)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a
	case <-time.After(60 * time.Second):
		t.Fatal("stripe-mock did not start")
		return ""
	}
}

// TestPortAgainstStripeMock: every call of the port is a request Stripe's
// own API description accepts (stripe-mock validates the shapes), and its
// answer is read back.
func TestPortAgainstStripeMock(t *testing.T) {
	base := startStripeMock(t)
	p := stripeport.New(stripeport.Config{SecretKey: "sk_test_123", APIBase: base})
	ctx := context.Background()

	in, err := p.CreatePaymentIntent(ctx, stripeport.IntentParams{Account: "acct_123", IdempotencyKey: "v1:checkout_charge:a:create",
		AmountMinor: 120000, Currency: "DKK", ApplicationFeeMinor: 1200, PaymentMethod: "pm_card_visa",
		Description: "10-clip card", Metadata: map[string]string{"attempt_id": "a", "checkout_id": "c"}})
	require.NoError(t, err)
	require.NotEmpty(t, in.ID)
	require.NotEmpty(t, in.Status)

	unconfirmed, err := p.CreatePaymentIntent(ctx, stripeport.IntentParams{Account: "acct_123", IdempotencyKey: "v1:checkout_charge:b:create",
		AmountMinor: 5000, Currency: "JPY"})
	require.NoError(t, err)
	require.NotEmpty(t, unconfirmed.ClientSecret)

	got, err := p.GetPaymentIntent(ctx, "acct_123", in.ID)
	require.NoError(t, err)
	require.Equal(t, in.ID, got.ID)
	_, err = p.FindPaymentIntent(ctx, "acct_123", "a")
	require.NoError(t, err)

	acct, err := p.CreateAccount(ctx, "v1:connect_account:x:create", "DK", "owner@venue.example")
	require.NoError(t, err)
	require.NotEmpty(t, acct)
	a, err := p.GetAccount(ctx, acct)
	require.NoError(t, err)
	require.NotEmpty(t, a.ID)
	link, err := p.CreateAccountLink(ctx, acct, "https://venue.example/refresh", "https://venue.example/done")
	require.NoError(t, err)
	require.NotEmpty(t, link.URL)

	cus, err := p.CreateCustomer(ctx, "acct_123", "v1:customer:m:acct_123", "m@venue.example", map[string]string{"member_id": "m"})
	require.NoError(t, err)
	require.NotEmpty(t, cus)
	si, err := p.CreateSetupIntent(ctx, "acct_123", "v1:setup_card:m:k", cus, map[string]string{"member_id": "m"})
	require.NoError(t, err)
	require.NotEmpty(t, si.ClientSecret)
	_, err = p.CreateEphemeralKey(ctx, "acct_123", cus) // stripe-mock's fixture has no secret
	require.NoError(t, err)
	cards, err := p.ListCards(ctx, "acct_123", cus)
	require.NoError(t, err)
	require.NotEmpty(t, cards)
	require.NoError(t, p.SetDefaultCard(ctx, "acct_123", "v1:default_card:m:k", cus, cards[0].ID))
}

func TestVerifyEvent(t *testing.T) {
	body, err := json.Marshal(map[string]any{"id": "evt_1", "object": "event", "api_version": stripe.APIVersion,
		"type": "payment_intent.succeeded", "account": "acct_1",
		"data": map[string]any{"object": map[string]any{"id": "pi_1", "object": "payment_intent", "status": "succeeded"}}})
	require.NoError(t, err)
	now := time.Now()

	ev, err := stripeport.VerifyEvent(body, stripeport.SignedTestPayload(body, "whsec_connect", now), "whsec_platform", "whsec_connect")
	require.NoError(t, err, "the Connect secret verifies")
	require.Equal(t, "evt_1", ev.ID)
	require.Equal(t, "acct_1", ev.Account)
	in, err := stripeport.IntentFromObject(ev.Object)
	require.NoError(t, err)
	require.Equal(t, "succeeded", in.Status)

	_, err = stripeport.VerifyEvent(body, stripeport.SignedTestPayload(body, "whsec_other", now), "whsec_platform")
	require.ErrorIs(t, err, stripeport.ErrBadSignature)
	_, err = stripeport.VerifyEvent(body, stripeport.SignedTestPayload(body, "whsec_platform", now.Add(-6*time.Minute)), "whsec_platform")
	require.ErrorIs(t, err, stripeport.ErrBadSignature, "older than 300 s")
	tampered := append([]byte{}, body...)
	tampered[len(tampered)-2] = ' '
	_, err = stripeport.VerifyEvent(tampered, stripeport.SignedTestPayload(body, "whsec_platform", now), "whsec_platform")
	require.ErrorIs(t, err, stripeport.ErrBadSignature)

	old, _ := json.Marshal(map[string]any{"id": "evt_2", "object": "event", "api_version": "2020-08-27", "type": "x", "data": map[string]any{"object": map[string]any{}}})
	_, err = stripeport.VerifyEvent(old, stripeport.SignedTestPayload(old, "whsec_platform", now), "whsec_platform")
	require.ErrorIs(t, err, stripeport.ErrBadSignature, "another API version")
	_, err = stripeport.VerifyEvent(body, stripeport.SignedTestPayload(body, "whsec_platform", now))
	require.ErrorIs(t, err, stripeport.ErrBadSignature, "no secret configured")
}

// TestBillingAgainstStripeMock: the Billing calls are requests Stripe's API
// description accepts (a product and a subscription with inline price data,
// its update, an invoice read, paid by card and out of band).
func TestBillingAgainstStripeMock(t *testing.T) {
	base := startStripeMock(t)
	p := stripeport.New(stripeport.Config{SecretKey: "sk_test_123", APIBase: base})
	ctx := context.Background()
	sub, err := p.CreateSubscription(ctx, stripeport.SubscriptionParams{
		Account: "acct_123", IdempotencyKey: "v1:subscription_create:a1:create", Customer: "cus_123",
		PaymentMethod: "pm_123", ProductName: "Monthly", AmountMinor: 49900, Currency: "DKK",
		Interval: "month", IntervalCount: 1, FirstChargeAt: time.Now().Add(30 * 24 * time.Hour),
		Metadata: map[string]string{"subscription_id": "s1", "organization_id": "o1"}})
	require.NoError(t, err)
	require.NotEmpty(t, sub.ID)
	require.NotEmpty(t, sub.Product)
	_, err = p.UpdateSubscription(ctx, stripeport.SubscriptionUpdate{Account: "acct_123", IdempotencyKey: "k2", ID: sub.ID,
		NextChargeAt: time.Now().Add(40 * 24 * time.Hour), AmountMinor: 39900, Currency: "DKK", Interval: "month",
		IntervalCount: 1, Product: sub.Product})
	require.NoError(t, err)
	// Move to Flexible ends the old subscription at a date (cancel_at).
	_, err = p.UpdateSubscription(ctx, stripeport.SubscriptionUpdate{Account: "acct_123", IdempotencyKey: "k2c", ID: sub.ID,
		CancelAt: time.Now().Add(40 * 24 * time.Hour)})
	require.NoError(t, err)
	inv, err := p.GetInvoice(ctx, "acct_123", "in_123")
	require.NoError(t, err)
	require.NotEmpty(t, inv.ID)
	_, err = p.PayInvoice(ctx, "acct_123", "k3", "in_123", "pm_123")
	require.NoError(t, err)
	_, err = p.PayInvoiceOutOfBand(ctx, "acct_123", "k4", "in_123")
	require.NoError(t, err)
	// An externally billed membership stops Stripe retrying its open invoices.
	_, err = p.SetInvoiceAutoAdvance(ctx, "acct_123", "k5", "in_123", false)
	require.NoError(t, err)
}
