// Command gen writes openapi.json, docs/api.md and the Go wire types
// (wire/types_gen.go) from openapi.yaml; run it
// with `go generate ./internal/openapi`.
package main

import (
	"fmt"
	"os"

	"github.com/botpay/botpay/internal/openapi/build"
	"github.com/botpay/botpay/internal/openapi/gotypes"
	"github.com/botpay/botpay/internal/openapi/reference"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// run is started in internal/openapi (go generate's directory).
func run() error {
	src, err := os.ReadFile("openapi.yaml")
	if err != nil {
		return err
	}
	doc, err := build.Document(src)
	if err != nil {
		return err
	}
	out, err := build.JSON(doc)
	if err != nil {
		return err
	}
	if err := os.WriteFile("openapi.json", out, 0o644); err != nil {
		return err
	}
	ref := reference.New(doc, reference.MarkdownBaseURL)
	if err := os.WriteFile("../../docs/api.md", reference.Markdown(ref), 0o644); err != nil {
		return err
	}
	types, err := gotypes.Generate(doc, "wire")
	if err != nil {
		return err
	}
	return os.WriteFile("../../wire/types_gen.go", types, 0o644)
}
