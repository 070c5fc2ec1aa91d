package arch_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// module is the import path every package of the table is relative to.
const module = "github.com/venueplatform/venue"

// layer ranks the layers top to bottom: an import may point to its own
// layer or a larger one.
type layer int

// The layers; see doc.go for what each holds.
const (
	faces layer = iota
	conventions
	domain
	services
	wall
	storage
	// tests is no rank: test helpers may import anything and be imported
	// only from tests.
	tests
)

func (l layer) String() string {
	return [...]string{"faces", "conventions", "domain", "services", "wall", "storage", "test helpers"}[l]
}

// table places every package of the module, relative to module ("." is the
// module root; "x/..." is x and everything under it; an exact entry wins
// over a tree). A listed package that does not exist (yet, or any more) is
// logged, so the table can name a package before a fold creates it.
var table = map[string]layer{
	// Programs, entry points and the generated REST code they serve.
	".":                            faces, // generate.go: the go:generate directives
	"cmd/...":                      faces,
	"internal/handlers":            faces,
	"internal/mcp":                 faces,
	"internal/server":              faces,
	"internal/jobs":                faces, // the River workers: the jobs' face
	"internal/bench":               faces,
	"internal/webhooks/crashtest":  faces, // a program the webhook crash test runs
	"internal/payments/crashtest":  faces, // a program the payments crash test runs
	"internal/crashrig":            faces, // what the crash checks share: build, database, server process
	"internal/payments/stripetest": faces, // the fake Stripe of the tests and of the crash test
	"internal/gen/api":             faces, // the ogen server and client: REST's own types
	"internal/gen/apient":          faces, // ent rows into gen/api types
	"internal/gen/bundle":          faces, // generator programs
	"internal/gen/entc":            faces,
	"internal/gen/migrate":         faces,
	"internal/gen/mcpschema":       faces,

	// Renewals: the billing clock and the crash check.
	"internal/billing/billingclock": faces, // the billing clock of the tests and the bench, over the fake Stripe
	"internal/billing/crashtest":    faces, // a program the renewals crash test runs

	// What a face does with a request before and after the domain call.
	// They hold no business rule: credentials, idempotency, headers, rate
	// limits and the protocols' documents are the faces' business.
	"internal/auth":                     conventions,
	"internal/idempotency":              conventions,
	"internal/httpx":                    conventions,
	"internal/venuectx":                 conventions,
	"internal/limits":                   conventions,
	"internal/ratelimit":                conventions, // GCRA store of the limits faces apply
	"internal/mcptools":                 conventions, // MCP tools' names, scopes, input shapes
	"internal/gen/openapi":              conventions, // the bundled OpenAPI document
	"internal/gen/mcpschema/toolschema": conventions, // the generated tools/list

	// Business nouns, one package each.
	"internal/accounts":        domain,
	"internal/apikey":          domain,
	"internal/booking":         domain,
	"internal/catalogue":       domain,
	"internal/codemail":        domain,
	"internal/demo":            domain,
	"internal/frontdesk":       domain, // the front desk: check-in, attendance, day sheets, revenue
	"internal/importer":        domain,
	"internal/inquiries":       domain,
	"internal/me":              domain,
	"internal/members":         domain,
	"internal/platform":        domain,
	"internal/schedule":        domain,
	"internal/seed":            domain,
	"internal/venue":           domain,
	"internal/webhooks":        domain,
	"internal/webhooks/manage": domain,
	"internal/webhooks/store":  domain,
	"internal/payments/...":    domain, // card payments: Connect, checkout, attempts, inbound events; stripeport is its port to Stripe
	"internal/appointments":    domain,
	"internal/billing/fees":    domain, // no-show and late-cancel fees: list, settle externally, waive
	"internal/pos":             domain, // the front desk's sales: products and stock, desk sales, returns, end of day
	"internal/reports":         domain, // the owner's numbers: sales snapshot, attendance, brand analytics
	"internal/billing":         domain, // renewals: Stripe Billing subscriptions, invoices, failed payments, the billing desk
	"internal/feedback":        domain, // members' reviews of attended classes, a tip paid through payments
	"internal/promos":          domain, // promo codes: discounts at checkout and the desk, partner codes

	// Shared domain machinery: nouns use it, it never reaches up to a noun.
	"internal/audit":              services,
	"internal/events":             services,
	"internal/notify":             services,
	"internal/identity/...":       services,
	"internal/webhooks/deliver":   services,
	"internal/webhooks/dispatch":  services,
	"internal/webhooks/retry":     services,
	"internal/webhooks/signature": services,
	"internal/media":              services, // uploaded files (service images) behind a Store: the data folder, or an object store

	// The wall, and the typed vocabulary below every domain package. Paging
	// and optimistic-concurrency tokens are here, not with the conventions:
	// they carry no request, header or status, only the shape of a page and
	// of a guarded write, which every face's lists and writes share.
	"internal/viewer":      wall,
	"internal/rule":        wall,
	"internal/system":      wall,
	"internal/scope":       wall,
	"internal/apperr":      wall,
	"internal/money":       wall,
	"internal/pagination":  wall,
	"internal/concurrency": wall,
	"internal/input":       wall, // the input gate every face shares
	"ent/schema":           wall, // the venue mixin, policies and hooks
	"ent/runtime":          wall, // registers ent/schema's policies and hooks

	// What everything stands on. config is here because it imports nothing
	// of the project and every layer is handed its part of it; secretbox
	// seals secrets at rest for whoever stores one.
	"ent/...":            storage, // generated by entc
	"migrations":         storage,
	"internal/db":        storage,
	"internal/pglocal":   storage,
	"internal/model":     storage, // JSON value types of ent fields
	"internal/config":    storage,
	"internal/secretbox": storage,

	"internal/arch":     tests,
	"internal/logtest":  tests,
	"internal/negative": tests, // the negative-test suite and its generator
	"internal/smtptest": tests,
	"internal/pgtest":   tests,
	"ent/enttest":       tests,
}

// faceOnly are the packages only faces may import: the generated API and
// the HTTP conventions. Their layering says as much; the list gives the
// violation its own message, since it is the one the design names.
var faceOnly = []string{
	"internal/gen/api", "internal/auth", "internal/idempotency", "internal/httpx",
	"internal/venuectx", "internal/limits", "internal/ratelimit",
}

// upward are the imports that point up the layers on purpose, each with why.
// An entry whose import does not exist is logged.
var upward = map[[2]string]string{
	{"internal/db", "ent/runtime"}:     "opening the client registers ent/schema's policies and hooks, so no program reaches the database without the wall",
	{"internal/db", "internal/events"}: "the client's driver lets a transaction carry River jobs (events.NewDriver), so an event is enqueued with the change that causes it",
}

// graph is the module's packages and their non-test imports inside the
// module, all relative to module.
type graph map[string][]string

// place returns the layer of pkg: its exact entry, else the longest tree
// entry holding it.
func place(pkg string) (layer, bool) {
	if l, ok := table[pkg]; ok && !strings.HasSuffix(pkg, "/...") {
		return l, true
	}
	best, found := "", false
	var l layer
	for k, v := range table {
		root, ok := strings.CutSuffix(k, "/...")
		if ok && (pkg == root || strings.HasPrefix(pkg, root+"/")) && len(root) > len(best) {
			best, l, found = root, v, true
		}
	}
	return l, found
}

// check returns every broken rule of g, one line each, sorted.
func check(g graph) []string {
	var out []string
	for pkg, imports := range g {
		from, ok := place(pkg)
		if !ok {
			out = append(out, fmt.Sprintf("%s is in no layer: place it in the table of internal/arch/arch_test.go", pkg))
			continue
		}
		for _, imp := range imports {
			to, ok := place(imp)
			if !ok {
				continue // reported as a package of its own
			}
			if _, named := upward[[2]string{pkg, imp}]; named {
				continue
			}
			switch {
			case to == tests && from != tests:
				out = append(out, fmt.Sprintf("%s imports the test helper %s outside a test", pkg, imp))
			case from == tests:
				// Test helpers serve tests, which may import anything.
			case slices.Contains(faceOnly, imp) && from > conventions:
				out = append(out, fmt.Sprintf("%s (%s) imports %s, which only faces use: take what it gives as a value from the face (the viewer, a typed argument)", pkg, from, imp))
			case to < from:
				out = append(out, fmt.Sprintf("%s (%s) imports %s (%s): an import points to its own layer or below", pkg, from, imp, to))
			}
		}
	}
	slices.Sort(out)
	return out
}

// load reads the module's packages and their imports (no type checking, so
// a package that does not compile still shows its imports).
func load(t *testing.T) graph {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports}, module+"/...")
	require.NoError(t, err)
	g := graph{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			require.NotEqual(t, packages.ListError, e.Kind, "%s: %v", p.PkgPath, e)
		}
		rel, ok := relative(p.PkgPath)
		if !ok {
			continue
		}
		g[rel] = []string{}
		for path := range p.Imports {
			if r, ok := relative(path); ok {
				g[rel] = append(g[rel], r)
			}
		}
		slices.Sort(g[rel])
	}
	require.NotEmpty(t, g)
	return g
}

// relative returns path relative to module, if it is in the module.
func relative(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	return strings.CutPrefix(path, module+"/")
}

// TestLayers holds the module to the layer table: no import points up, no
// package below the faces imports HTTP conventions or the generated API, test
// helpers serve only tests, and every package has a layer.
func TestLayers(t *testing.T) {
	g := load(t)
	broken := check(g)
	require.Empty(t, broken, "layering broken:\n%s", strings.Join(broken, "\n"))

	byLayer := map[layer][]string{}
	for pkg := range g {
		l, _ := place(pkg)
		byLayer[l] = append(byLayer[l], pkg)
	}
	for l := faces; l <= tests; l++ {
		t.Logf("%-12s %3d  %s", l, len(byLayer[l]), summary(byLayer[l]))
	}
	for _, k := range slices.Sorted(maps.Keys(table)) {
		if !exists(g, k) {
			t.Logf("listed but missing: %s (%s)", k, table[k])
		}
	}
	for edge := range upward {
		if !slices.Contains(g[edge[0]], edge[1]) {
			t.Logf("named upward import not present: %s -> %s", edge[0], edge[1])
		}
	}
}

// TestCheckerCatchesViolations feeds check a synthetic graph with one
// violation of each rule beside allowed imports of each kind.
func TestCheckerCatchesViolations(t *testing.T) {
	g := graph{
		"internal/booking":   {"internal/auth", "internal/events", "internal/viewer", "ent"},
		"internal/schedule":  {"internal/gen/api", "internal/booking"},
		"internal/viewer":    {"internal/booking"},
		"internal/events":    {"internal/members"},
		"internal/members":   {"internal/pgtest", "internal/audit"},
		"internal/pgtest":    {"internal/db", "internal/handlers"},
		"internal/handlers":  {"internal/auth", "internal/gen/api", "internal/booking"},
		"internal/auth":      {"internal/httpx", "internal/viewer"},
		"internal/db":        {"ent/runtime", "internal/events"},
		"internal/brandnew":  {},
		"ent/brandnewentity": {"ent"},
	}
	require.Equal(t, []string{
		"internal/booking (domain) imports internal/auth, which only faces use: take what it gives as a value from the face (the viewer, a typed argument)",
		"internal/brandnew is in no layer: place it in the table of internal/arch/arch_test.go",
		"internal/events (services) imports internal/members (domain): an import points to its own layer or below",
		"internal/members imports the test helper internal/pgtest outside a test",
		"internal/schedule (domain) imports internal/gen/api, which only faces use: take what it gives as a value from the face (the viewer, a typed argument)",
		"internal/viewer (wall) imports internal/booking (domain): an import points to its own layer or below",
	}, check(g))
}

// summary lists a layer's packages, the generated ent packages as a count.
func summary(pkgs []string) string {
	slices.Sort(pkgs)
	var out []string
	generated := 0
	for _, p := range pkgs {
		if _, listed := table[p]; !listed && (p == "ent" || strings.HasPrefix(p, "ent/")) {
			generated++
			continue
		}
		out = append(out, strings.TrimPrefix(p, "internal/"))
	}
	if generated > 0 {
		out = append(out, fmt.Sprintf("ent/... (%d generated)", generated))
	}
	return strings.Join(out, " ")
}

// exists reports whether the table entry k names a package of g.
func exists(g graph, k string) bool {
	if root, ok := strings.CutSuffix(k, "/..."); ok {
		for pkg := range g {
			if pkg == root || strings.HasPrefix(pkg, root+"/") {
				return true
			}
		}
		return false
	}
	_, ok := g[k]
	return ok
}
