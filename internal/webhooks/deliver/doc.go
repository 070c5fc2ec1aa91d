// Package deliver owns the HTTP side of a webhook attempt: one POST to a subscriber's URL,
// guarded against server-side request forgery, and the classified result of it.
//
// Guard. Only https URLs are sent to (http when Options.AllowHTTP is set). The address the
// connection is actually made to is checked in the dialer's Control function, after DNS
// resolution, so a name that resolves to a public address when the subscription is saved and
// to an internal one at delivery time (DNS rebinding) is still refused. Refused are loopback,
// private (RFC 1918 and IPv6 unique local), link-local, carrier-grade NAT, multicast,
// unspecified, broadcast and reserved addresses, unless Options.AllowPrivate is set; cloud
// metadata addresses are refused even then. No proxy from the environment is used, since a
// proxy would make the connection on our behalf, out of the guard's sight.
//
// Send. Redirects are not followed: a 3xx is a failed attempt, because following one would
// let a receiver point us at any address, and receivers are expected to register their final
// URL. Each attempt has a timeout (10 s by default), reads at most a capped amount of the
// response, keeps a short snippet of it for the delivery history, and carries a fresh
// correlation id in X-Request-Id so that both sides' logs can be matched.
//
// Classes. 2xx is delivered. 410 Gone means the receiver asks us to stop: the caller disables
// the subscription. Everything else is retried on the schedule of package retry: 429, 5xx,
// timeouts, connection and TLS failures, 3xx, and the other 4xx too, because a 400, 401, 403
// or 404 from a receiver is most often a deployment or configuration mistake on its side that
// gets fixed within the retry window, and dropping events for it would lose data; the attempt
// history shows the status meanwhile. A blocked address is retried as well (DNS answers
// change and nothing is sent), and only an unusable URL is final.
package deliver
