package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestEveryOperationImplemented fails while an operation of the spec is served
// by the embedded api.UnimplementedHandler instead of a method of Handler in
// this package.
func TestEveryOperationImplemented(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	own := map[string]bool{}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
					continue
				}
				if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
					if id, ok := star.X.(*ast.Ident); ok && id.Name == "Handler" {
						own[fn.Name.Name] = true
					}
				}
			}
		}
	}
	iface := reflect.TypeOf((*api.Handler)(nil)).Elem()
	var missing []string
	for i := range iface.NumMethod() {
		if name := iface.Method(i).Name; !own[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("operations without a handler: %s", strings.Join(missing, ", "))
	}
}
