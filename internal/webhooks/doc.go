// Package webhooks holds the configuration shared by the parts of outbound webhooks: the
// sender's allowances (private targets, plain http), the retry schedule and the worker
// concurrency, read from the environment (Config, FromEnv). The parts live in its
// subpackages: signature (Standard Webhooks), deliver (the guarded HTTP attempt), retry
// (the schedule), dispatch (the River worker) and store (its persistence on ent).
package webhooks
