// Package web embeds the built web client (web/dist, made by `npm run build`)
// so one binary serves the API and the client.
package web

import (
	"embed"
	"encoding/json"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built client, or nil when it has not been built (the API
// then serves no client, and says so at start).
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return nil
	}
	return sub
}

//go:embed src/lib/recipePhoto.json
var recipePhotoJSON []byte

// RecipePhotoSizes is the sizes attribute a recipe page shows its photo
// with (web/src/lib/recipePhoto.json, which the client reads too), so a
// preload the server writes picks the rendition the page will.
func RecipePhotoSizes() string {
	var v struct{ Sizes string }
	if err := json.Unmarshal(recipePhotoJSON, &v); err != nil {
		panic("web/src/lib/recipePhoto.json: " + err.Error())
	}
	return v.Sizes
}
