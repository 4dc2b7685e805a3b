package archive

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"larder/importer/extract"
)

// Paprika's .paprikarecipes export is a zip with one <name>.paprikarecipe
// entry per recipe, each a gzipped JSON object (read from Mealie's Paprika
// migration and Paprika's own documentation): name, description,
// ingredients (one text, a line each), directions (one text, steps
// separated by blank lines or numbers), notes, servings, prep_time,
// cook_time and total_time (text: "10 mins"), source, source_url,
// categories (names), photo_data (the photo, base64-encoded JPEG; null
// when the photo was added to the gallery, photos[].data, instead, with
// photo and photo_hash naming it) and image_url, with nutritional_info,
// difficulty, rating and further photos that have no place here.

var paprikaUnmapped = []string{"nutritional_info", "difficulty", "rating", "photos", "on_favorites", "in_trash"}

func (z *zipArchive) paprika() *Archive {
	return z.perEntry(FormatPaprika, func(n string) bool { return strings.HasSuffix(strings.ToLower(n), ".paprikarecipe") }, z.paprikaRecipe)
}

// openGzip opens one gzipped JSON file: a recipe exported from Paprika on
// its own (.paprikarecipe), else a JSON document of recipes that was
// gzipped, read like an uncompressed one.
func openGzip(r io.ReaderAt, size int64, lim Limits) (*Archive, error) {
	if size > lim.MaxDocumentBytes {
		return nil, fmt.Errorf("%w: a gzipped file of %d MB", ErrTooLarge, size>>20)
	}
	gz := make([]byte, size)
	if _, err := r.ReadAt(gz, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read archive: %w", err)
	}
	doc, err := gunzip(gz, "", lim)
	if err != nil {
		return nil, err
	}
	if !looksLikeJSON(jsonText(doc)) {
		return nil, fmt.Errorf("%w: the gzipped file is not JSON", ErrUnknownFormat)
	}
	return openJSONDocument(doc, lim)
}

// isPaprikaRecipe: Paprika's recipe objects carry its text fields
// ingredients and directions (schema.org's are recipeIngredient and
// recipeInstructions).
func isPaprikaRecipe(m map[string]any) bool {
	_, ing := m["ingredients"]
	_, dir := m["directions"]
	return ing || dir
}

// gunzip unpacks the gzipped document of the entry name ("" for the
// uploaded file) within the limits: at most MaxDocumentBytes, and no more
// than MaxRatio times its packed size (plus a megabyte).
func gunzip(gz []byte, name string, lim Limits) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("%w: not gzipped JSON: %v", ErrCorrupt, err)
	}
	max := min(lim.MaxDocumentBytes, int64(len(gz))*lim.MaxRatio+1<<20)
	doc, err := io.ReadAll(io.LimitReader(zr, max+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if int64(len(doc)) > max {
		return nil, fileTooLarge(name, max)
	}
	return doc, nil
}

func (z *zipArchive) paprikaRecipe(name string, f *zip.File) Recipe {
	gz, err := z.read(f, z.lim.MaxDocumentBytes)
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	doc, err := gunzip(gz, clipName(f.Name), z.lim)
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	m, err := decodeObject(doc)
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	return paprikaRecipe(name, m, z.lim.MaxImageBytes)
}

func paprikaRecipe(entry string, m map[string]any, maxImage int64) Recipe {
	r := extract.Recipe{
		Title:       str(m, "name"),
		Description: str(m, "description"),
		Categories:  labels(m["categories"]),
	}
	if r.Title == "" {
		r.Title = strings.TrimSuffix(path.Base(entry), path.Ext(entry))
	}
	if u := str(m, "source_url"); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		r.SourceURL = u
	}
	r.Servings, r.ServingsUnit = extract.Servings(str(m, "servings")), extract.YieldUnit(str(m, "servings"))
	r.PrepMinutes = extract.Minutes(str(m, "prep_time"))
	r.CookMinutes = extract.Minutes(str(m, "cook_time"))
	r.TotalMinutes = extract.Minutes(str(m, "total_time"))
	r.IngredientSections = textSections(str(m, "ingredients"), false)
	r.InstructionSections = textSections(str(m, "directions"), true)
	if len(r.IngredientSections) == 0 && len(r.InstructionSections) == 0 {
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: the recipe has no ingredients or directions", ErrInvalidRecipe)}
	}
	finish(&r)
	r.Description = withNotes(r.Description, []string{str(m, "notes")})
	rec := Recipe{Entry: entry, Recipe: r, Unmapped: present(m, paprikaUnmapped...)}
	if src := str(m, "source"); src != "" && r.SourceURL == "" {
		rec.Unmapped = append(rec.Unmapped, "source")
	}
	var gallery bool
	rec.Image, gallery, rec.ImageErr = paprikaPhoto(m, maxImage)
	if gallery && len(list(m["photos"])) == 1 {
		// The one photo of the gallery was taken: nothing is left out.
		rec.Unmapped = slices.DeleteFunc(rec.Unmapped, func(s string) bool { return s == "photos" })
	}
	if rec.Image == nil {
		if u := str(m, "image_url"); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
			rec.Recipe.ImageURL = u
		}
	}
	return rec
}

// paprikaPhoto picks the recipe's main photo. It is photo_data, embedded in
// the recipe. A recipe whose photo was added through the gallery has
// photo_data null and its photos in photos[]: the main one is the entry
// whose filename is the recipe's photo (or whose hash is its photo_hash),
// and only when no entry is named so, the first. gallery says the photo
// came from photos[]; err says why a photo the recipe holds was not read.
func paprikaPhoto(m map[string]any, maxImage int64) (img []byte, gallery bool, err error) {
	if data := str(m, "photo_data"); data != "" {
		if img, err = base64Image(data, maxImage); err == nil {
			return img, false, nil
		}
	}
	photos := list(m["photos"])
	if len(photos) == 0 {
		return nil, false, err
	}
	main := obj(photos[0])
	name, hash := str(m, "photo"), str(m, "photo_hash")
	for _, p := range photos {
		if o := obj(p); (name != "" && str(o, "filename") == name) || (hash != "" && str(o, "hash") == hash) {
			main = o
			break
		}
	}
	if str(main, "data") == "" {
		return nil, false, err
	}
	if img, gErr := base64Image(str(main, "data"), maxImage); gErr == nil {
		return img, true, nil
	} else if err == nil {
		err = gErr
	}
	return nil, false, err
}

// base64Image decodes a photo written in base64, with or without line
// breaks (MIME encoders wrap at 76 columns) and with or without the
// "data:image/jpeg;base64," that starts a data address (RFC 2397), which
// holds the same bytes; it fails when the text is not base64 or the photo
// is larger than maxImage.
func base64Image(data string, maxImage int64) ([]byte, error) {
	if rest, ok := strings.CutPrefix(data, "data:"); ok {
		if _, payload, ok := strings.Cut(rest, ";base64,"); ok {
			data = payload
		}
	}
	if int64(len(data)) > maxImage*4/3+maxImage/38+4 {
		return nil, fmt.Errorf("the photo is larger than %d MB", maxImage>>20)
	}
	img, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(data), ""))
	if err != nil {
		return nil, fmt.Errorf("the photo is not base64: %w", err)
	}
	return img, nil
}

// textSections reads a block of lines as written in Paprika and similar
// apps: a line ending with ":" (or the app's "# Heading" style) names a
// group, and so does a short line in capitals ("SAUCE") when the block's
// other lines are not in capitals (some write a whole list so). Steps are
// separated by blank lines, or are one per line; a single block is split
// by the page reader's rules.
func textSections(text string, steps bool) []extract.Section {
	var b sections
	var paras []string
	if steps && strings.Contains(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		for p := range strings.SplitSeq(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
			if p = strings.Join(extract.Lines(p), " "); p != "" {
				paras = append(paras, p)
			}
		}
	} else {
		paras = extract.Lines(text)
		if steps && len(paras) == 1 {
			paras = extract.Steps(paras[0])
		}
	}
	caps := slices.ContainsFunc(paras, func(l string) bool { return !inCapitals(l) })
	for _, line := range paras {
		if heading, ok := groupHeading(line); ok {
			b.section(heading)
			continue
		}
		if caps && inCapitals(line) && utf8.RuneCountInString(line) <= 40 && !strings.ContainsAny(line, "0123456789") {
			b.section(strings.TrimSpace(line))
			continue
		}
		b.item(line)
	}
	return b.done()
}

// groupHeading recognizes a line naming a group: "For the sauce:", "#
// Sauce".
func groupHeading(line string) (string, bool) {
	l := strings.TrimSpace(line)
	if strings.HasPrefix(l, "#") {
		return strings.TrimSpace(strings.TrimLeft(l, "#")), true
	}
	if len(l) > 2 && len(l) <= 60 && strings.HasSuffix(l, ":") && !strings.ContainsAny(l, "0123456789") {
		return strings.TrimSuffix(l, ":"), true
	}
	return "", false
}

// inCapitals: the line has at least three letters and none in lower case.
func inCapitals(line string) bool {
	letters := 0
	for _, r := range line {
		switch {
		case unicode.IsLower(r):
			return false
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters >= 3
}
