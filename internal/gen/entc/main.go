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
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"slices"

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
	if err := run(); err != nil {
		log.Fatalf("entc: %v", err)
	}
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

// componentsOnly reduces the entoas document to entity component schemas that
// the hand-written spec/api.yaml can $ref: edges are removed (they form
// cycles), sensitive fields are removed (entoas would publish them), and so
// are the generic responses and paths.
func componentsOnly(g *gen.Graph, spec *ogen.Spec) error {
	spec.Paths = nil
	spec.Components.Responses = nil
	spec.Components.Parameters = nil
	spec.Components.RequestBodies = nil
	spec.Info.Title = "Venue platform entity schemas"
	spec.Info.Description = "Generated from ent/schema by `go generate ./...`; do not edit."
	for _, n := range g.Nodes {
		s, ok := spec.Components.Schemas[n.Name]
		if !ok {
			continue
		}
		drop := map[string]bool{}
		for _, e := range n.Edges {
			drop[e.Name] = true
		}
		for _, f := range n.Fields {
			if f.Sensitive() {
				drop[f.Name] = true
			}
		}
		s.Properties = slices.DeleteFunc(s.Properties, func(p ogen.Property) bool { return drop[p.Name] })
		s.Required = slices.DeleteFunc(s.Required, func(name string) bool { return drop[name] })
	}
	return nil
}
