// Package jobs owns durable background work on River (github.com/riverqueue/river) over the
// application's pgx pool: River's own tables (Migrate), and the River client with this
// service's workers registered (NewClient), today the webhook delivery worker of package
// dispatch on its own queue.
//
// Work that a change causes is enqueued with Client.InsertTx in the transaction of that
// change: a rolled-back change leaves no job, a committed one is worked even after a crash,
// at least once. Any instance may insert; the instances that call Start also work jobs.
package jobs
