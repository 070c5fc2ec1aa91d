// Command entc generates the ent packages under ent/ and the entity component
// schemas in spec/ent.gen.json from ent/schema. It runs from the repository
// root through `go generate ./...`.
//
// On a checkout without generated code (ent/privacy missing) it first runs a
// bootstrap pass with the build tag entbootstrap, which leaves out the schema
// files that import generated packages, then the full pass.
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strings"

	"entgo.io/contrib/entoas"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
	"github.com/ogen-go/ogen"
)

const (
	schemaDir    = "./ent/schema"
	targetDir    = "./ent"
	entPackage   = "github.com/venueplatform/venue/ent"
	specPath     = "spec/ent.gen.json"
	templatePath = "internal/gen/entc/venue.tmpl"
)

func main() {
	log.SetFlags(0)
	if reexec() {
		return
	}
	// The formatting pass allocates heavily and briefly; collecting less
	// often saves a tenth of the run.
	debug.SetGCPercent(400)
	if err := run(); err != nil {
		log.Fatalf("entc: %v", err)
	}
}

// childEnv marks the re-executed process.
const childEnv = "VENUE_ENTC_CHILD"

// reexec runs this command again with a private user cache directory and
// reports whether it did (the child's outcome is then this process's).
//
// ent formats every generated file with golang.org/x/tools/imports, which
// reads the whole goimports module index of the user cache for each file (the
// index a developer's editor keeps): several seconds over ~700 files. The
// generated files import everything they use, so the index is never needed;
// pointing the user cache at an empty directory skips it. The index directory
// is fixed when the process starts, hence the second process. GOCACHE and
// GOMODCACHE are passed explicitly so the go commands ent runs keep the real
// build and module caches.
func reexec() bool {
	if os.Getenv(childEnv) != "" {
		return false
	}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		return false
	}
	caches := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(caches) != 2 {
		return false
	}
	tmp, err := os.MkdirTemp("", "entc-cache-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(tmp)
	self, err := os.Executable()
	if err != nil {
		return false
	}
	cmd := exec.Command(self, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), childEnv+"=1", "XDG_CACHE_HOME="+tmp,
		"GOCACHE="+caches[0], "GOMODCACHE="+caches[1])
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			os.RemoveAll(tmp)
			os.Exit(exit.ExitCode())
		}
		log.Fatalf("entc: %v", err)
	}
	return true
}

func run() error {
	if _, err := os.Stat("ent/privacy/privacy.go"); errors.Is(err, fs.ErrNotExist) {
		if err := entc.Generate(schemaDir, config(), entc.BuildTags("entbootstrap"), entc.TemplateFiles(templatePath)); err != nil {
			return fmt.Errorf("bootstrap pass: %w", err)
		}
	}
	var spec bytes.Buffer
	ex, err := entoas.NewExtension(
		entoas.DefaultPolicy(entoas.PolicyExclude),
		entoas.SimpleModels(),
		entoas.WriteTo(&spec),
		entoas.Mutations(componentsOnly),
	)
	if err != nil {
		return fmt.Errorf("entoas: %w", err)
	}
	if err := entc.Generate(schemaDir, config(), entc.Extensions(ex), entc.TemplateFiles(templatePath)); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	spec.WriteByte('\n')
	return os.WriteFile(specPath, spec.Bytes(), 0o644)
}

func config() *gen.Config {
	return &gen.Config{
		Target:  targetDir,
		Package: entPackage,
		Features: []gen.Feature{
			gen.FeaturePrivacy,
			gen.FeatureEntQL,
			gen.FeatureIntercept,
			gen.FeatureUpsert,
			gen.FeatureLock,
			gen.FeatureVersionedMigration,
			gen.FeatureExecQuery,
		},
	}
}

// componentsOnly reduces the entoas document to the entity component schemas
// that spec/api.yaml $refs: only entities annotated with schema.APIShape are
// published (so no component goes unused), each as its read shape (see
// readShape); paths and the generic responses go.
func componentsOnly(g *gen.Graph, spec *ogen.Spec) error {
	spec.Paths = nil
	spec.Components.Responses = nil
	spec.Components.Parameters = nil
	spec.Components.RequestBodies = nil
	spec.Info.Title = "Venue platform entity schemas"
	spec.Info.Description = "Generated from ent/schema by `go generate ./...`; do not edit."
	schemas := map[string]*ogen.Schema{}
	for _, n := range g.Nodes {
		c, err := published(n)
		if err != nil {
			return err
		}
		if c == nil {
			continue
		}
		s, err := readShape(c.Fields)
		if err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		if _, dup := schemas[c.Name]; dup {
			return fmt.Errorf("%s: component %q is published twice", n.Name, c.Name)
		}
		schemas[c.Name] = s
	}
	spec.Components.Schemas = schemas
	return writeMappers(g)
}

// apiShape mirrors the schema-level annotation schema.APIShape (ent/schema
// cannot be imported here: it needs the generated packages).
type apiShape struct {
	Component string   `json:"component"`
	Omit      []string `json:"omit"`
}

const apiShapeName = "APIShape"

// component is what an entity publishes: the component's name (the
// entity's, or its APIShape's) and its fields in order.
type component struct {
	Name   string
	Fields []*gen.Field
}

// published returns n's component, or nil when n publishes none. Its fields
// are n's id and fields without sensitive ones (entoas would publish them),
// the ones marked entoas.Skip, and the inherited ones its APIShape omits.
// Edges are never published (they would form cycles).
func published(n *gen.Type) (*component, error) {
	raw, ok := n.Annotations[apiShapeName]
	if !ok || raw == nil {
		return nil, nil
	}
	buf, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var shape apiShape
	if err := json.Unmarshal(buf, &shape); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", n.Name, apiShapeName, err)
	}
	all := append([]*gen.Field{n.ID}, n.Fields...)
	for _, name := range shape.Omit {
		if !slices.ContainsFunc(all, func(f *gen.Field) bool { return f.Name == name }) {
			return nil, fmt.Errorf("%s: %s omits unknown field %q", n.Name, apiShapeName, name)
		}
	}
	c := &component{Name: cmp.Or(shape.Component, n.Name)}
	for _, f := range all {
		ant, err := entoas.FieldAnnotation(f)
		if err != nil {
			return nil, err
		}
		if f.Sensitive() || ant.Skip || slices.Contains(shape.Omit, f.Name) {
			continue
		}
		c.Fields = append(c.Fields, f)
	}
	return c, nil
}

// readShape is the component of an entity as the API answers it (the
// contract's convention): every field is always present, so all are required;
// a nillable field is its schema or null; defaults, which only describe
// creation, are left out; a field's comment is its description.
func readShape(fields []*gen.Field) (*ogen.Schema, error) {
	s := ogen.NewSchema().SetType("object")
	for _, f := range fields {
		fs, err := entoas.OgenSchema(f)
		if err != nil {
			return nil, err
		}
		c := *fs // entoas shares one schema value per Go type
		c.Default = nil
		p := &c
		if f.Nillable {
			p = &ogen.Schema{OneOf: []*ogen.Schema{p, {Type: "null"}}}
		}
		if f.Comment() != "" {
			p.Description = f.Comment()
		}
		s.Properties = append(s.Properties, ogen.Property{Name: f.Name, Schema: p})
		s.Required = append(s.Required, f.Name)
	}
	return s, nil
}
