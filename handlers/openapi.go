package handlers

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// The API reference is kept as one JSON fragment per resource in openapi/,
// each holding "paths" and "components"; they are merged at start. base.json
// holds the document's head and the shared components.
//
//go:embed openapi/*.json
var openapiFiles embed.FS

var (
	openapiOnce sync.Once
	openapiDoc  []byte
	openapiErr  error
)

// OpenAPI returns the merged OpenAPI document with the given version.
func OpenAPI(version string) ([]byte, error) {
	openapiOnce.Do(func() { openapiDoc, openapiErr = buildOpenAPI(version) })
	return openapiDoc, openapiErr
}

func buildOpenAPI(version string) ([]byte, error) {
	names, err := fs.Glob(openapiFiles, "openapi/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	doc := map[string]any{}
	for _, name := range names {
		raw, err := openapiFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var part map[string]any
		if err := json.Unmarshal(raw, &part); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := mergeInto(doc, part, name); err != nil {
			return nil, err
		}
	}
	if info, ok := doc["info"].(map[string]any); ok {
		info["version"] = version
	}
	return json.MarshalIndent(doc, "", "  ")
}

// mergeInto merges src into dst recursively; the same leaf defined twice is
// an error, so two fragments cannot silently overwrite each other.
func mergeInto(dst, src map[string]any, where string) error {
	for k, v := range src {
		existing, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		a, aok := existing.(map[string]any)
		b, bok := v.(map[string]any)
		if !aok || !bok {
			return fmt.Errorf("openapi: %s defines %q again", where, k)
		}
		if err := mergeInto(a, b, where); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) openapi(c *fiber.Ctx) error {
	doc, err := OpenAPI(s.Version)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(doc)
}
