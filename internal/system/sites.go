package system

import (
	"maps"
	"slices"
)

// Kind says how a site crosses the venue wall.
type Kind string

// The kinds of sites.
const (
	// KindBypass is a site where ent policies allow the entity types it
	// lists, whatever the viewer (Allow).
	KindBypass Kind = "bypass"
	// KindRawSQL is a site that runs SQL outside ent, which no policy sees
	// (RawSQL).
	KindRawSQL Kind = "raw_sql"
	// KindElevation is a site that builds a viewer beyond the credential the
	// caller presented (Elevate).
	KindElevation Kind = "elevation"
	// KindIdentity is an entry point that attaches the caller's own
	// authenticated identity (Identify).
	KindIdentity Kind = "identity"
	// KindMembers is a site where a member viewer reaches other members'
	// rows of the entity types it lists, inside its venue: only the member
	// wall is lifted, the venue rules still judge the call (CrossMembers).
	KindMembers Kind = "members"
)

// SiteInfo is one registered site.
type SiteInfo struct {
	Kind Kind
	// Reason says why the site may bypass or cross the wall.
	Reason string
	// Entities are the ent entity types a bypass or members site may touch
	// (queried, eager-loaded, traversed or changed); empty for the other
	// kinds.
	Entities []string
}

// Sites returns a copy of the registry, by site name.
func Sites() map[string]SiteInfo {
	out := make(map[string]SiteInfo, len(registry))
	for name, s := range registry {
		s.Entities = slices.Clone(s.Entities)
		out[name] = s
	}
	return out
}

// Names returns the registered site names of kind k, sorted.
func Names(k Kind) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(registry)) {
		if registry[name].Kind == k {
			out = append(out, name)
		}
	}
	return out
}

func bypass(reason string, entities ...string) SiteInfo {
	return SiteInfo{Kind: KindBypass, Reason: reason, Entities: entities}
}

func members(reason string, entities ...string) SiteInfo {
	return SiteInfo{Kind: KindMembers, Reason: reason, Entities: entities}
}

func rawSQL(reason string) SiteInfo { return SiteInfo{Kind: KindRawSQL, Reason: reason} }

func elevation(reason string) SiteInfo { return SiteInfo{Kind: KindElevation, Reason: reason} }

func identity(reason string) SiteInfo { return SiteInfo{Kind: KindIdentity, Reason: reason} }

// registry is every door through or around the venue wall. Adding one is a
// decision: add it here with its reason (and, for a bypass, the entity types
// it touches). Names are nouns of the domain, not package paths, so they
// survive a move of the code that uses them.
var registry = map[string]SiteInfo{
	// Bypass sites: places where no venue viewer can exist yet, or where a
	// row must be read across venues for a reason bound to the caller.
	"apikey.lookup": bypass("authenticating a presented key, before any venue is known",
		"APIKey"),
	"events.record": bypass("writing an event and its webhook deliveries for a change the viewer was already allowed to make (read-only API keys included); rows stay bound to the viewer's venue and subscriptions are read for it explicitly",
		"Event", "WebhookDelivery", "WebhookSubscription"),
	"webhooks.deliver": bypass("the webhook delivery worker, which holds only a delivery id, loading and updating that delivery, its subscription and attempts",
		"Event", "WebhookAttempt", "WebhookDelivery", "WebhookSubscription"),
	"apikey.touch": bypass("recording a just-authenticated key's last use",
		"APIKey"),
	"venue.create": bypass("creating a venue (an Organization has no venue above it)",
		"FeatureProvisioning", "Organization"),
	"venue.list": bypass("listing all venues for the platform operator",
		"FeatureProvisioning", "Organization"),
	"venue.resolve": bypass("turning a public path slug into a venue",
		"APIKey", "FeatureProvisioning", "Organization"),
	"platform.killswitch": bypass("switching the platform kill switch",
		"PlatformSetting"),
	"installsecrets.ensure": bypass("generating or reading the installation's secrets at the server's start",
		"InstallationSecret"),
	"audit.record": bypass("writing an audit entry for a read-only viewer (the entry stays bound to its venue)",
		"AuditLog"),
	"members.enroll": bypass("finding or creating a person's global account when a venue enrols them",
		"Member", "User"),
	"accounts.signup": bypass("creating an account at sign-up, before anyone is signed in",
		"User"),
	"accounts.login": bypass("finding the account of a login's email and upgrading its password hash",
		"User"),
	"accounts.state": bypass("reading an email's account state for the account-state check",
		"User"),
	"accounts.password_code": bypass("finding an account and storing a code for a password reset or change",
		"AuthCode", "User"),
	"accounts.password_reset": bypass("spending a reset code and setting the password, signed out",
		"AuthCode", "Session", "User"),
	"accounts.password_change": bypass("setting the signed-in user's password and revoking their other sessions",
		"Session", "User"),
	"sessions.issue": bypass("opening a session and its first refresh token at sign-in",
		"RefreshToken", "Session"),
	"sessions.refresh": bypass("exchanging a refresh token, which is the only credential presented",
		"RefreshToken", "Session", "User"),
	"sessions.workspace": bypass("reading a bearer session's active organization and the user's relationship there, while the request is authenticated",
		"Member", "Session"),
	"mfa.status": bypass("reading whether a user has a confirmed second factor, for their own sign-in or profile",
		"MFAFactor"),
	"mfa.enroll": bypass("creating the signed-in user's pending TOTP factor (user-owned rows are created only at named sites)",
		"MFAFactor", "User"),
	"mfa.verify": bypass("checking and spending the signed-in user's own factor, challenge or backup code and marking their session",
		"MFABackupCode", "MFAChallenge", "MFAFactor", "RefreshToken", "Session", "User"),
	"mfa.challenge": bypass("creating a challenge of the signed-in user's session for their own confirmed factor",
		"MFAChallenge", "MFAFactor"),
	"mfa.backup_codes": bypass("replacing the signed-in user's backup codes",
		"MFABackupCode"),
	"mfa.reset": bypass("an admin with admin.users.manage removing the factors of a person related to their active venue",
		"MFABackupCode", "MFAChallenge", "MFAFactor", "Member"),
	"mfa.reset.key_issuer": bypass("reading, in an API key's own venue, the relationship of the staff member who issued it, to learn the authority the key carries",
		"Member"),
	"device.start": bypass("creating a TV device authorization, before anyone is signed in",
		"DeviceAuthorization"),
	"device.approve": bypass("a signed-in user deciding a device authorization that has no owner until then",
		"DeviceAuthorization"),
	"device.token": bypass("exchanging a device code, which is the only credential the TV presents",
		"DeviceAuthorization", "RefreshToken", "Session", "User"),
	"handoff.mint": bypass("storing the signed-in user's own hand-off code (user-owned rows are created only at named sites)",
		"HandoffCode"),
	"handoff.exchange": bypass("spending a hand-off code, which is the only credential presented",
		"HandoffCode", "RefreshToken", "Session", "User"),
	"otp.request": bypass("finding the account of an email and storing its mobile sign-in request, before anyone is signed in",
		"OTPRequest", "User"),
	"otp.exchange": bypass("spending a mobile sign-in request, whose code or token is the only credential presented",
		"OTPRequest", "RefreshToken", "Session", "User"),
	"me.favorites": bypass("checking that a venue exists (and is listed or related) and storing the signed-in user's own favourite",
		"FavoriteVenue", "Member", "Organization"),
	"me.memberships": bypass("listing the signed-in user's own relationships across venues (bound to the user's id)",
		"Member", "Organization"),
	"booking.waitlist_promotion": bypass("promoting the first waitlisted bookings of a class when a seat frees, whoever freed it (often another member): reading the class's waitlist, reading and charging the promoted members' own passes and confirming their bookings, all found through the class of the viewer's venue that the caller locked",
		"Booking", "Pass"),

	// Members sites: a member viewer reaching other members' rows of its own
	// venue for a step of the booking flow; the venue rules stay in force.
	"booking.waitlist_rank": members("giving a new waitlist place its rank: counting the ranked waitlist places of the class the caller locked in the viewer's venue, other members' places included (a count only, no row is returned)",
		"Booking"),
	"booking.waitlist_gap": members("moving up the waitlist places behind one that was left (a member's cancel, a promotion), other members' places included, in the class the caller locked in the viewer's venue; only their positions change",
		"Booking"),
	"booking.buddy_invitee": members("refusing a buddy invitation whose invitee already holds a live booking of the class: whether one exists, for the invitee and the class the viewer found in its venue (nothing of the booking is returned)",
		"Booking"),
	"bookings.own": bypass("listing the signed-in user's own bookings across the venues they are related to (bound to the user's member ids)",
		"Booking", "ClassInstance", "Member", "Organization"),
	"inquiries.redeliver": bypass("the sweep that delivers stored but undelivered booking inquiries of every venue to their staff (each delivery acts as its venue)",
		"Inquiry", "Organization"),
	"inquiries.mine": bypass("listing the signed-in user's own booking inquiries across venues, and those venues' names (bound to the user's id)",
		"Inquiry", "Organization"),
	"me.notify_preferences": bypass("reading and storing the signed-in user's own notification preferences, a global row bound to the user's id",
		"NotificationPreference"),
	"notify.preferences": bypass("a venue's message honouring each recipient's own notification preferences, read by the recipients' user ids",
		"NotificationPreference"),

	// Raw SQL sites: statements outside ent. Each is a lock, a statement ent
	// cannot express (GCRA, claims with ON CONFLICT, COPY, window totals), or
	// a worker's update of the one row it holds the id of.
	"booking.member_lock": rawSQL("the member's advisory transaction lock, so daily limits and pass charges hold under concurrent bookings (no rows read)"),
	"catalogue.directory": rawSQL("the public venue directory: geographic distance, trigram search and window totals across listed venues, which ent cannot express; it reads only public columns of listed venues"),
	"demo.lock":           rawSQL("the advisory session lock that lets one of several starting instances create the demo venue"),
	"events.river_tx":     rawSQL("River inserts its job rows through the pgx connection of a running events.WithTx transaction, which the ent driver begins on a dedicated connection; no venue rows are read"),
	"idempotency.keys":    rawSQL("claiming, completing, releasing and sweeping idempotency keys atomically (INSERT ... ON CONFLICT); keys are scoped by venue and principal in their scope column, and ent never reads them"),
	"importer.venue_lock": rawSQL("the venue's advisory transaction lock, one import per venue at a time (no rows read)"),
	"jobs.migrate_lock":   rawSQL("the advisory session lock around River's own migrations at start-up"),
	"join.client_id":      rawSQL("the venue's advisory join lock and the next platform client id (the largest C-number of the venue, a cast ent cannot express); bound to the joining venue's id"),
	"me.affinities":       rawSQL("ranking the signed-in user's listed venues by their own favourites, passes and bookings in one statement; bound to the user's id"),
	"members.emails":      rawSQL("finding enrolled people's accounts by email with a custom plan (plan_cache_mode), inside the members.enroll bypass"),
	"notify.deliver":      rawSQL("the notification worker, which holds only a delivery id, claiming and recording that one delivery, reading its attached files, and disabling a push token the provider rejected in the delivery's venue"),
	"notify.relay":        rawSQL("handing committed pending deliveries of every venue to River (FOR UPDATE SKIP LOCKED) and marking them dispatched; ids only"),
	"ratelimit.gcra":      rawSQL("the GCRA rate limit in one statement (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) and the prune of whole windows; keys are not venue rows"),
	"members.search_norm": rawSQL("normalising a member search query with the database's own function (venue_search_norm), so the query and the stored search columns fold alike; reads no rows"),
	"seed.copy":           rawSQL("venuectl seed: bulk-loading generated venues with COPY (new venues, no viewer exists) after checking which slugs exist"),

	"payments.inbound_event":  bypass("recording an inbound Stripe event by its id and queueing its job, after its signature verified; the event has no venue yet", "ProcessorEvent"),
	"payments.event_job":      bypass("the event job reading and marking the one recorded event it was given", "ProcessorEvent"),
	"payments.stale_attempts": bypass("the sweep of every venue's attempts left created or in flight by a server that died mid-call; it reads their ids and venues, then acts in each venue", "PaymentAttempt"),
	"payments.customer_email": bypass("reading the signed-in member's own account e-mail to name their Stripe customer", "Member", "User"),
	"payments.event_lookup":   bypass("account.updated names only the connected account: finding the venue row that holds it, read only, before acting in that venue", "VenuePayments"),
	"refunds.event_lookup":    bypass("a charge.refunded event names only the refunded intent: finding the payment row that holds it, read only, before acting in its venue", "Payment"),
	"payments.offer_claim":    rawSQL("claiming one place of a flash-sale offer for a checkout in one conditional UPDATE (live and below capacity), bound to the offer's id and the viewer's venue"),
	"payments.credit_lock":    rawSQL("the member's advisory transaction lock while a checkout spends their credit, so two spends cannot take the balance below zero (no rows read)"),

	// Elevation sites: a viewer the code builds, beyond the credential the
	// caller presented.
	"booking.as_member":             elevation("a signed-in user with an active relationship books in that venue as its member, for the call only"),
	"demo.operator":                 elevation("creating the demo venue's rows as its operator at the first start"),
	"discovery.venue_visitor":       elevation("discovery reads each found venue's public rows (its classes of the day) as a visitor of that venue"),
	"inquiries.in_venue":            elevation("a signed-in user files a booking inquiry inside the venue they address, for the call only (as joining does)"),
	"inquiries.redeliver_venue":     elevation("the inquiry sweep delivers each stored inquiry as an operator of the inquiry's own venue"),
	"inquiries.self":                elevation("reading the signed-in user's own account outside any workspace to fill an inquiry's contact fields"),
	"join.in_venue":                 elevation("a signed-in user joining a venue creates their relationship there, for the call only"),
	"join.self":                     elevation("reading the joining user's own account outside any workspace"),
	"me.features_visitor":           elevation("reading a related venue's own feature flags as its visitor"),
	"me.self":                       elevation("the signed-in user acting as themselves outside any workspace, to read and change their own account rows"),
	"payments.job_venue":            elevation("a payments job (inbound event, reconcile) holds only ids; it acts as an operator of the venue the attempt or the event's object names"),
	"notify.member_in_venue":        elevation("a signed-in user registers or removes their push device in a venue they are related to, as its member, for the call only"),
	"schedule.member_class_visitor": elevation("a member with an active relationship reads a class of the venue through the venue's public read"),
	"venue.foreign_selection":       elevation("a caller with a venue of its own naming another venue becomes a visitor of no venue, so queries answer no rows"),
	"venue.update_operator":         elevation("changing a venue's plan or flags from the admin CLI as the venue's operator, so the ordinary policies apply"),
	"venuectl.operator":             elevation("the platform operator at a shell acts in the venue named on the command line"),
	"refunds.job_venue":             elevation("a refunds job (inbound refund event, reconcile) holds only ids; it acts as an operator of the venue the attempt or the refunded payment names"),

	// Identity sites: the caller's own identity, attached once per entry
	// point after its credential was verified.
	"api.api_key":             identity("REST: a verified API key, bound to its venue with its scopes"),
	"api.bearer":              identity("REST: a verified session bearer token, with the session's active workspace, role and permissions"),
	"api.bearer_venue_header": identity("REST: a verified session bearer token acting, for one staff or /me call, in the venue its X-Organization-ID names, with the role and permissions the user holds there (venuectx.Guard)"),
	"auth.api_key":            identity("the authenticator reads a just-verified key's own venue as that key"),
	"mcp.api_key":             identity("MCP: a verified API key of a tools/call"),
	"mcp.audit_caller":        identity("MCP: the audit entry of a call refused before its viewer was attached is written as the caller's verified key"),
	"venue.public_visitor":    identity("an anonymous caller addressing one venue (by path slug or the venue header) is a visitor of that venue's public rows"),

	"appointments.busy": members("computing a service's free times: the busy spans (id, provider, busy_from, busy_until) of every member's seat-holding appointments of the asked providers in the asked window of the viewer's venue, nothing else of the rows",
		"Appointment"),
	"appointments.own": bypass("listing and reading the signed-in user's own appointments across the venues they are related to (bound to the user's member ids)",
		"Appointment", "Member", "Service"),
	"reports.sales_refresh": rawSQL("GET /admin/sales-snapshot?refresh=1 recomputes the viewer's venue's daily sales rollup for a date range with the database's own function (venue_sales_daily_refresh, the trigger's arithmetic), bound to the viewer's organization id; it reads and writes only that venue's payments and sales_dailies rows"),
	"reports.class_counts":  rawSQL("the attendance report and brand analytics count a venue's bookings and classes by venue-local date and action, and by class type brand, grouped in the database (ent cannot group by an expression); every table read is bound to the viewer's organization id"),
	"billing.job_venue":     elevation("a renewal's inbound event or job holds only ids; it acts as an operator of the venue the subscription's metadata names, whose row it then locks"),
	"billing.member_email":  bypass("reading a member's own account e-mail to send them their renewal receipt or the notice of a declined renewal", "Member", "User"),
	"appointments.release_holds": members("a booking releases the expired online-checkout holds (pending_payment past hold_expires_at) of any member that meet its provider's or room's busy span in the viewer's venue, with the other held appointments and the visit of each, so the time can be taken",
		"Appointment", "Visit"),

	"guests.token_lookup": bypass("a guest holds only an invitation's token: finding the one invitation whose stored digest matches it (and so its venue), read only, before acting in that venue",
		"GuestInvite"),
	"guests.expired_holds": bypass("the sweep of every venue's unpaid guest holds whose time is up; it reads their ids and venues, then acts in each venue",
		"GuestInvite"),
	"guests.token_venue": elevation("a guest with an invitation's token (no account, or not a member of the venue) acts on that one invitation as the venue's guest-invitation operator, for the call only"),
	"guests.waitlist": members("a freed seat of a class goes to the first guest waiting, whoever's invitation freed it: reading and moving the class's waiting guest invitations, in the class the caller locked in the viewer's venue",
		"GuestInvite"),
	"appointments.late_refund": elevation("a payment that came after its appointment's hold was released is refunded by a job holding only ids, and the member's confirm reads where that refund stands: both act as an operator of the venue the payment names, as staff refunding would"),
	"pos.lapsed_card_sales": bypass("the sweep of every venue's desk card sales left unpaid past their hold; it reads their ids and venues, then acts in each venue",
		"PosCardSale"),
	"payments.lapsed_holds": bypass("the sweep of every venue's unpaid checkouts whose hold lapsed; it reads their ids and venues, then gives back what each held in its venue",
		"Checkout"),
	"appointments.image_sweep": bypass("the sweep of published service images no service names any more: it reads only the image_url of the services (of every venue) whose ids the old files' keys carry, read only, to keep the files still named",
		"Service"),
	"billing.late_fee_sweep": bypass("the sweep of every venue's late fee policies; it reads the policies and their venues, then applies each venue's late fees in that venue as its operator",
		"LateFeePolicy"),
	"billing.reminder_sweep": bypass("the sweep of every venue's renewal reminder policies; it reads the policies and their venues, then queues each venue's reminders in that venue as its operator",
		"RenewalReminderPolicy"),
	"booking.shared_pass": members("a member booking with a pass another member shared with it (an active pass share of the caller's): reading that pass, taking or giving back its clip and pointing the caller's own booking at it; the shares read are the caller's own",
		"Pass"),
	"booking.share_claim": members("claiming the open pass-share invites sent to the caller's own e-mail address in the viewer's venue, which name no member until claimed",
		"PassShare"),
	"appointments.cancel_refund": elevation("a cancel that gives back an online payment (a member accepting the venue's refund terms, staff choosing to refund) reads whether the venue can refund the payment to its card, and the request and a job holding only ids make the refund the cancel decided: both act as an operator of the venue the payment names, as staff refunding would"),
}

// globals are the entity types without a venue, each with the reason it has
// none; every other entity carries the venue mixin (a test in package rule
// holds the schema to this list). Their policies keep them to their owner or
// to the bypass sites that list them.
var globals = map[string]string{
	"Organization":           "the venue itself; a viewer sees and changes only its own",
	"User":                   "a person's account, shared by every venue they are related to; a venue sees only the people related to it, a user only themselves",
	"PlatformSetting":        "the platform's switches (the kill switch); anyone reads them, only a bypass site changes them",
	"InstallationSecret":     "the installation's own secrets; only the bypass site of the server's start reaches them",
	"IdempotencyKey":         "a stored request answer, scoped by the venue or the public slug and the principal in its scope and principal columns (a public or signed-out caller has no venue); only the raw SQL site idempotency.keys reads and writes them, and its policy denies every ent query and mutation outside a bypass site that lists it (none does)",
	"Session":                "a user's own sign-in session; user-owned",
	"RefreshToken":           "a user's own refresh token; user-owned",
	"AuthCode":               "a user's own one-time code; user-owned",
	"MFAFactor":              "a user's own second factor; user-owned",
	"MFABackupCode":          "a user's own backup codes; user-owned",
	"MFAChallenge":           "a user's own second-factor challenge; user-owned",
	"DeviceAuthorization":    "a TV sign-in that has no owner until approved; only the device flow's bypass sites reach it",
	"HandoffCode":            "a user's own hand-off code; user-owned",
	"OTPRequest":             "a user's own mobile sign-in request; user-owned",
	"FavoriteVenue":          "a user's own favourite venue, across venues; user-owned",
	"NotificationPreference": "a person's own choice of what reaches them from every venue; user-owned, read by a venue's messages only through a bypass site by the recipients' ids",
	"ProcessorEvent":         "an inbound Stripe event, signed by Stripe, recorded by its id before anyone knows its venue; only the bypass sites of the event endpoint and its job reach it",
}

// Globals returns the entity types declared global, with their reasons.
func Globals() map[string]string { return maps.Clone(globals) }
