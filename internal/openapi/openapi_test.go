package openapi_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/openapi"
	"github.com/botpay/botpay/internal/openapi/build"
	"github.com/botpay/botpay/internal/openapi/contract"
	"github.com/botpay/botpay/internal/openapi/gotypes"
	"github.com/botpay/botpay/internal/openapi/reference"
)

// The served document is what the YAML source generates, and so is
// docs/api.md and the Go wire types: editing one without `go generate ./internal/openapi` fails.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := build.Document(src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := build.JSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(openapi.JSON, want) {
		t.Error("openapi.json is stale: run go generate ./internal/openapi")
	}
	md, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(md, reference.Markdown(reference.New(doc, reference.MarkdownBaseURL))) {
		t.Error("docs/api.md is stale: run go generate ./internal/openapi")
	}
	types, err := os.ReadFile("../../wire/types_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if fresh, err := gotypes.Generate(doc, "wire"); err != nil || !bytes.Equal(types, fresh) {
		t.Errorf("wire/types_gen.go is stale (%v): run go generate ./internal/openapi", err)
	}
}

// The document is valid OpenAPI 3.1 by libopenapi-validator's schema of
// the specification.
func TestDocumentIsValidOpenAPI31(t *testing.T) {
	t.Parallel()
	if !bytes.Contains(openapi.JSON, []byte(`"openapi": "3.1.`)) {
		t.Fatal("not an OpenAPI 3.1 document")
	}
	c, err := contract.New(openapi.JSON)
	if err != nil {
		t.Fatal(err)
	}
	if problems := c.ValidateDocument(); len(problems) > 0 {
		t.Fatalf("the document is not valid OpenAPI 3.1:\n%s", strings.Join(problems, "\n"))
	}
}

// The served document names the service's base URL as its one server and
// is otherwise the generated document, byte for byte.
func TestServedDocumentNamesTheServiceBaseURL(t *testing.T) {
	t.Parallel()
	got, err := openapi.WithServer("https://pay.example.com")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Servers []struct{ URL string } `json:"servers"`
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "https://pay.example.com" {
		t.Errorf("servers = %+v, want the one base URL", doc.Servers)
	}
	var source struct {
		Servers []struct{ Description string } `json:"servers"`
	}
	if err := json.Unmarshal(openapi.JSON, &source); err != nil {
		t.Fatal(err)
	}
	same, err := openapi.WithServer("http://127.0.0.1:8080")
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(openapi.JSON, []byte(source.Servers[0].Description), []byte("This service (its BOTPAY_BASE_URL)."), 1)
	if !bytes.Equal(same, want) {
		t.Error("WithServer changes more of the document than its server")
	}
}
