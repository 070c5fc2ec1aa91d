package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/user"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

func (e *payEnv) history(c *api.Client, limit int, after string) (*api.PaymentHistoryResponse, error) {
	p := api.ListMyPaymentHistoryParams{XOrganizationID: e.venue.ID}
	if limit > 0 {
		p.Limit = api.NewOptInt(limit)
	}
	if after != "" {
		p.After = api.NewOptString(after)
	}
	return c.ListMyPaymentHistory(e.ctx, p)
}

// TestPaymentHistory: every payment row of the member in any state, newest
// first, cursor paged with the contract's limits, member_money_version 2;
// another member's rows never show; a page that cannot be read is 503
// PAYMENT_HISTORY_UNAVAILABLE.
func TestPaymentHistory(t *testing.T) {
	e := newPayEnv(t, false, false)
	res, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "h-1")
	require.NoError(t, err)
	m := e.studio.client.Member.Query().Where(member.HasUserWith(user.Email("buyer@pay.example"))).OnlyX(e.op)
	c := e.studio.client
	c.Payment.Create().SetMemberID(m.ID).SetAmountMinor(5000).SetCurrency("DKK").SetStatus(payment.StatusFailed).SaveX(e.op)
	c.Payment.Create().SetMemberID(m.ID).SetAmountMinor(300).SetCurrency("KWD").SetStatus(payment.StatusPending).SaveX(e.op)
	other := e.memberClient(t, "other-hist@pay.example")
	om := c.Member.Query().Where(member.HasUserWith(user.Email("other-hist@pay.example"))).OnlyX(e.op)
	c.Payment.Create().SetMemberID(om.ID).SetAmountMinor(777).SetCurrency("DKK").
		SetStatus(payment.StatusSucceeded).SetPaidAt(time.Now()).SaveX(e.op)

	first, err := e.history(e.member, 2, "")
	require.NoError(t, err)
	require.Equal(t, api.PaymentHistoryMetaMemberMoneyVersion2, first.Meta.MemberMoneyVersion)
	require.True(t, first.Meta.HasMore)
	require.Len(t, first.Data, 2)
	require.Equal(t, api.PaymentHistoryEntryStatusPending, first.Data[0].Status)
	require.Equal(t, 3, first.Data[0].CurrencyExponent, "KWD has three digits")
	require.True(t, first.Data[0].PaidAt.Null)
	require.Equal(t, api.PaymentHistoryEntryStatusFailed, first.Data[1].Status)
	second, err := e.history(e.member, 2, first.Meta.NextCursor.Value)
	require.NoError(t, err)
	require.False(t, second.Meta.HasMore)
	require.True(t, second.Meta.NextCursor.Null)
	require.Len(t, second.Data, 1)
	bought := second.Data[0]
	require.Equal(t, api.PaymentHistoryEntryStatusSucceeded, bought.Status)
	require.Equal(t, int64(120000), bought.AmountMinor)
	require.Equal(t, "10-clip card", bought.Description)
	require.Equal(t, res.Data.PassID.Value, bought.PassID.Value)
	require.Equal(t, res.Data.PaymentIntentID.Value, bought.ProcessorPaymentID.Value)

	// The default page is 25; the other member sees only their own row.
	all, err := e.history(e.member, 0, "")
	require.NoError(t, err)
	require.Equal(t, 25, all.Meta.Limit)
	require.Len(t, all.Data, 3)
	theirs, err := e.history(other, 0, "")
	require.NoError(t, err)
	require.Len(t, theirs.Data, 1)
	require.Equal(t, int64(777), theirs.Data[0].AmountMinor)

	// A cursor of another member's list, or a tampered one, is 400.
	_, err = e.history(other, 2, first.Meta.NextCursor.Value)
	es := hookErr(t, err, 400, "VALIDATION_ERROR")
	require.Equal(t, "after", es.Response.Error.Details.Parameter.Value)
	_, err = e.history(e.member, 2, first.Meta.NextCursor.Value+"x")
	hookErr(t, err, 400, "VALIDATION_ERROR")

	// The payments table held by another transaction: the page cannot be
	// read within its budget, so 503, and the next read works again.
	tx, err := e.pool.Begin(e.ctx)
	require.NoError(t, err)
	_, err = tx.Exec(e.ctx, `LOCK TABLE payments IN ACCESS EXCLUSIVE MODE`)
	require.NoError(t, err)
	_, err = e.history(e.member, 0, "")
	hookErr(t, err, 503, payments.CodeHistoryUnavailable)
	require.NoError(t, tx.Rollback(e.ctx))
	again, err := e.history(e.member, 0, "")
	require.NoError(t, err)
	require.Len(t, again.Data, 3)
}
