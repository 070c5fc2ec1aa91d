// Package manage is what staff do with a venue's webhooks, for the REST handlers (and any
// other entry point): subscriptions (create with a secret shown once, change, rotate the
// secret with an overlap, disable), the delivery history and its attempts, replaying one
// delivery and pinging a subscription.
//
// Every function checks the caller first: a staff session of the venue holding
// PermissionManage (owners hold every permission). API keys never manage webhooks: no
// API-key scope covers them, and subscriptions carry signing secrets. Rows are read and
// written through the venue wall (a foreign id is not found); writes that cause deliveries
// (replay, ping) insert their River jobs in the same transaction (events.WithTx).
package manage
