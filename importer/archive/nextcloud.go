package archive

import (
	"archive/zip"
	"fmt"
	"path"
	"strings"

	"larder/importer/extract"
)

// Nextcloud Cookbook keeps each recipe in a folder of its own: recipe.json,
// a schema.org Recipe (name, description, url, image, prepTime, cookTime,
// totalTime, recipeCategory, keywords, recipeYield, tool, recipeIngredient,
// recipeInstructions, nutrition), and the photo as full.jpg (with the
// thumbnails thumb.jpg and thumb16.jpg). An export is a zip of those
// folders. The JSON is read by the schema.org rules; the photo in the
// folder is preferred to the image address, which points to the Nextcloud
// server the export came from.

// isNextcloud: a folder's recipe.json, or one at the top when a single
// recipe folder's contents were zipped (Tandoor's recipe.json, the other
// format of that name, is told apart before by its steps).
func isNextcloud(names []string) bool {
	for _, n := range names {
		if path.Base(n) == "recipe.json" {
			return true
		}
	}
	return false
}

func (z *zipArchive) nextcloud() *Archive {
	return z.perEntry(FormatNextcloud, func(n string) bool { return path.Base(n) == "recipe.json" }, z.nextcloudRecipe)
}

// nextcloudPhotos are the names Cookbook gives a recipe's photo, best
// first (lib/Helper/ImageService/ImageSize.php): the full-size photo, then
// the 256-pixel thumbnail, which is all a folder holds when full.jpg was
// left out (a sync client skipping large files, a hand-made copy). The
// first that reads is taken; upper-case extensions count too (a folder
// copied through another system may have them renamed). The 16-pixel
// thumb16.jpg is an icon, not a photo: it is never taken, and the recipe
// keeps the image address of the server it came from instead.
var nextcloudPhotos = []string{"full.jpg", "full.jpeg", "full.png", "full.webp", "thumb.jpg", "thumb.jpeg", "thumb.png"}

func (z *zipArchive) nextcloudRecipe(name string, f *zip.File) Recipe {
	m, err := z.readObjectFile(f)
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	if _, ok := m["@type"]; !ok {
		m["@type"] = "Recipe" // older versions leave it out
	}
	plainLines(m, "recipeIngredient", false)
	plainLines(m, "recipeInstructions", true)
	rec := fromSchemaNode(name, m, entryURL(name))
	if rec.Err != nil {
		return rec
	}
	photos := map[string]string{}
	for _, n := range z.inDir(path.Dir(name)) {
		photos[strings.ToLower(path.Base(n))] = n
	}
	// fullErr is why a full-size photo the folder holds was not read; when
	// a thumbnail is taken instead, the recipe says why its photo is
	// smaller than the one the user had.
	var fullErr error
	for _, img := range nextcloudPhotos {
		n, ok := photos[img]
		if !ok {
			continue
		}
		z.setImage(&rec, z.file(n))
		full := strings.HasPrefix(img, "full.")
		switch {
		case rec.Image != nil && !full && fullErr != nil:
			rec.Warning = fmt.Sprintf("the full-size photo could not be read (%v); the thumbnail was used", fullErr)
		case rec.Image == nil && full && fullErr == nil:
			fullErr = rec.ImageErr
		}
		if rec.Image != nil {
			break
		}
	}
	if rec.Image != nil {
		rec.Recipe.ImageURL = ""
	} else {
		z.localImage(&rec)
	}
	return rec
}

// plainLines writes the lines of a list field as Cookbook shows them: each
// is Markdown (RecipeIngredient.vue, RecipeInstruction.vue), and a step's
// line breaks stay inside the step (white-space: pre-line), so joined is
// true for steps. Other shapes of the field (a single text, objects) are
// left to the schema.org rules.
func plainLines(m map[string]any, key string, joined bool) {
	items := list(m[key])
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			continue
		}
		if joined {
			s = strings.Join(extract.Lines(s), " ")
		}
		items[i] = plainMarkdown(s)
	}
}
