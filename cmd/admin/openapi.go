package main

import (
	"context"
	"flag"
	"io"

	"larder"
	"larder/handlers"
)

func init() {
	commands["openapi"] = command{usage: "[--version V]: print the API's OpenAPI document, as GET /api/openapi.json serves it", run: runOpenAPI}
}

// runOpenAPI prints the API reference without a running service; the web
// client's types are generated from it (npm run gen:api).
func runOpenAPI(_ context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("openapi", flag.ContinueOnError)
	version := fs.String("version", larder.Version(), "the document's info.version")
	if err := fs.Parse(args); err != nil {
		return err
	}
	doc, err := handlers.OpenAPI(*version)
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(doc, '\n'))
	return err
}
