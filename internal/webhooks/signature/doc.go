// Package signature owns the Standard Webhooks signature of outbound webhooks: secrets of the
// form whsec_<base64>, the webhook-id, webhook-timestamp and webhook-signature headers, and
// the v1 scheme, a base64 HMAC-SHA256 over "id.timestamp.body".
//
// Senders call Sign with the subscription's secret right before each attempt (a fresh
// timestamp per attempt, the same id across retries). Receivers, and this service's tests,
// call Verify or a Verifier: several space-separated signatures are accepted so that a
// secret can be rotated without a gap, timestamps outside a tolerance are refused to limit
// replays, and signatures are compared in constant time.
package signature
