package archive

import (
	"path"
	"strings"
)

// Nextcloud Cookbook keeps each recipe in a folder of its own: recipe.json,
// a schema.org Recipe (name, description, url, image, prepTime, cookTime,
// totalTime, recipeCategory, keywords, recipeYield, tool, recipeIngredient,
// recipeInstructions, nutrition), and the photo as full.jpg (with the
// thumbnails thumb.jpg and thumb16.jpg). An export is a zip of those
// folders. The JSON is read by the schema.org rules; the photo in the
// folder is preferred to the image address, which points to the Nextcloud
// server the export came from.

func isNextcloud(names []string) bool {
	for _, n := range names {
		if path.Base(n) == "recipe.json" && strings.Contains(n, "/") {
			return true
		}
	}
	return false
}

func (z *zipArchive) nextcloud() *Archive {
	return z.perEntry(FormatNextcloud, func(n string) bool { return path.Base(n) == "recipe.json" }, z.nextcloudRecipe)
}

func (z *zipArchive) nextcloudRecipe(name string) Recipe {
	m, err := z.readObject(name)
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	if _, ok := m["@type"]; !ok {
		m["@type"] = "Recipe" // older versions leave it out
	}
	rec := fromSchemaNode(name, m)
	if rec.Err != nil {
		return rec
	}
	dir := path.Dir(name)
	for _, img := range []string{"full.jpg", "full.jpeg", "full.png", "full.webp"} {
		if f := z.file(path.Join(dir, img)); f != nil {
			rec.Image = z.readImage(f)
			break
		}
	}
	if rec.Image != nil {
		rec.Recipe.ImageURL = ""
	}
	return rec
}
