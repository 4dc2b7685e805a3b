package handlers

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/imageproc"
	"larder/repo"
	"larder/web"
)

// recipePagePath is the client's page of one recipe.
var recipePagePath = regexp.MustCompile(`^/recipes/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$`)

// recipePageHead is what the head of index.html gains on the page of a
// public recipe, so that a shared link opens fast on a phone and reads well
// where it is shared:
//   - a preview of the link (title, description and photo, as Open Graph
//     tags);
//   - the recipe as GET /api/recipes/{id} answers a visitor who is not
//     signed in, in a JSON data block (id "recipe-data") the client reads
//     instead of asking the API once its scripts have run;
//   - a preload of the photo the page leads with, so the phone asks for it
//     with the page itself.
//
// It is "" for every other page, and for a private or shared recipe: a
// visitor learns nothing about whether one exists.
func (s *Server) recipePageHead(c *fiber.Ctx) string {
	m := recipePagePath.FindStringSubmatch(c.Path())
	if m == nil || s.DB == nil {
		return ""
	}
	id, err := uuid.Parse(m[1])
	if err != nil {
		return ""
	}
	rec, err := repo.GetRecipe(c.UserContext(), s.DB, id, repo.Viewer{})
	if err != nil || !repo.ReadableByAnyone(rec.Visibility) {
		// Not found, not public, or the database is out of reach: the
		// page works without its preview.
		return ""
	}
	read, err := s.recipeRead(c, rec)
	if err != nil {
		return ""
	}
	// encoding/json writes <, > and & as \u escapes, so the data cannot
	// close its script element.
	data, err := json.Marshal(read)
	if err != nil {
		return ""
	}
	// Open Graph wants absolute addresses.
	origin := strings.TrimSuffix(s.Config.AppURL, "/")
	var b strings.Builder
	meta := func(property, content string) {
		fmt.Fprintf(&b, `<meta property="%s" content="%s" />`, property, html.EscapeString(content))
	}
	fmt.Fprintf(&b, `<title>%s · Larder</title>`, html.EscapeString(rec.Title))
	meta("og:type", "article")
	meta("og:site_name", "Larder")
	meta("og:title", rec.Title)
	meta("og:url", origin+c.Path())
	if rec.Description != "" {
		meta("og:description", rec.Description)
	}
	if photo := s.imageURL(rec.ImageKey, true); photo != nil {
		meta("og:image", origin+*photo)
		fmt.Fprintf(&b, `<link rel="preload" as="image" href="%s"`, html.EscapeString(*photo))
		if set := srcSet(s.variantURLs(rec.ImageKey, rec.ImageVariants, true)); set != "" {
			fmt.Fprintf(&b, ` imagesrcset="%s" imagesizes="%s"`, html.EscapeString(set), html.EscapeString(web.RecipePhotoSizes()))
		}
		b.WriteString(` fetchpriority="high" />`)
	}
	fmt.Fprintf(&b, `<script type="application/json" id="recipe-data" data-id="%s">%s</script>`, rec.ID, data)
	return b.String()
}

// srcSet is the srcset of an image's renditions (name → address), as the
// client writes it (web/src/lib/format.ts) from the widths imageproc makes.
func srcSet(variants map[string]string) string {
	var parts []string
	sizes := imageproc.Sizes()
	slices.SortFunc(sizes, func(a, b imageproc.Size) int { return a.Width - b.Width })
	for _, size := range sizes {
		if u, ok := variants[size.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s %dw", u, size.Width))
		}
	}
	return strings.Join(parts, ", ")
}

// withHead returns index.html with head written just before </head>, and
// its own <title> dropped when head brings one.
func withHead(index []byte, head string) []byte {
	page := string(index)
	if strings.Contains(head, "<title>") {
		if start := strings.Index(page, "<title>"); start >= 0 {
			if end := strings.Index(page[start:], "</title>"); end >= 0 {
				page = page[:start] + page[start+end+len("</title>"):]
			}
		}
	}
	at := strings.Index(page, "</head>")
	if at < 0 {
		return index
	}
	return []byte(page[:at] + head + page[at:])
}
