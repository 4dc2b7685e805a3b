package handlers

import (
	"os"
	"testing"
)

// The web client's types are generated from a copy of the served OpenAPI
// document, web/src/lib/openapi.json (npm run gen:api in web/ writes both;
// web/src/lib/api.gen.test.ts checks the types against the copy). A route
// or schema changed here without regenerating fails this test.
func TestWebClientOpenAPICopyIsCurrent(t *testing.T) {
	t.Parallel()
	doc, err := buildOpenAPI("client")
	if err != nil {
		t.Fatal(err)
	}
	copyOf, err := os.ReadFile("../web/src/lib/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(copyOf) != string(doc)+"\n" {
		t.Fatal("web/src/lib/openapi.json differs from the served OpenAPI document: run `npm run gen:api` in web/ and commit the result")
	}
}
