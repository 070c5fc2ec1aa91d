// Package store is the dispatch.Store of the service on its ent entities: it loads a
// WebhookDelivery with its subscription's URL and secrets and the event envelope, records
// each attempt as a WebhookAttempt and the delivery's new state, and disables subscriptions.
//
// The worker holds only a delivery id and no viewer, so every read and write here runs at
// the system call site "webhooks.deliver", naming rows by id.
package store
