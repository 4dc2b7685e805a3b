package archivetest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"mime/quotedprintable"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// repackedVariants are the fourth round: exports as people pass them on
// after the app wrote them (zipped again, inside a folder, copied without
// their large files) and zips written on Windows systems of other
// languages, whose names are in the system's code page.
func repackedVariants() []Variant {
	return []Variant{
		{"mealie/export zipped again", "a Mealie v1 recipe export (a zip) compressed again with its download name (Windows Explorer's Send to > Compressed folder, deflated)", zipAgain("mealie-export-2024-05-01.zip", mealieV1SnakeExport(), false)},
		{"paprika/export in a folder zipped", "a Paprika 3 .paprikarecipes file kept in a folder that macOS Finder compressed (one top folder, __MACOSX/ beside, the inner zip stored)", paprikaInFolder()},
		{"tandoor/export zipped twice", "Tandoor's export.zip inside a folder zip inside another zip (a download of a synced folder of downloads)", zipAgain("Backups.zip", zipAgain("Backups/tandoor/export.zip", tandoorSameNames(), true), false)},
		{"nextcloud/thumbnails only", "Cookbook folders without full.jpg (a sync client told to skip large files): thumb.jpg (256 px) and thumb16.jpg in one, only thumb16.jpg in the other (lib/Helper/ImageService/ImageSize.php)", nextcloudThumbnails()},
		{"nextcloud/windows zip japanese", "Cookbook folders zipped on a Japanese Windows (Explorer writes names in the OEM code page 932, Shift-JIS, without the UTF-8 flag)", oemNextcloud(japanese.ShiftJIS, "肉じゃが", "ソース焼きそば")},
		{"nextcloud/windows zip chinese", "Cookbook folders zipped on a Chinese Windows (OEM code page 936, GBK, no UTF-8 flag)", oemNextcloud(simplifiedchinese.GBK, "番茄炒蛋", "红烧肉")},
		{"nextcloud/windows zip russian", "Cookbook folders zipped on a Russian Windows (OEM code page 866, no UTF-8 flag)", oemNextcloud(charmap.CodePage866, "Борщ", "Щи")},
		{"nextcloud/windows zip polish", "Cookbook folders zipped on a Polish Windows (OEM code page 852, no UTF-8 flag)", oemNextcloud(charmap.CodePage852, "Żurek", "Gołąbki")},
		{"nextcloud/windows zip danish", "Cookbook folders zipped on a Danish Windows (OEM code page 850, backslash separators, no UTF-8 flag)", oemNextcloud(charmap.CodePage850, "Smørrebrød", "Æbleskiver")},
		{"schema/json-ld files", "JSON-LD files saved with the extension the JSON-LD specification registers (.jsonld), one recipe each, the photo by a relative path", schemaJSONLDFiles()},
		{"schema/macos zip decomposed names", "JSON recipe files and their photos zipped by macOS Finder: names written decomposed (NFD, 'e' and a combining accent), the recipe's image path composed (NFC) as typed", schemaMacOSDecomposed()},
		{"tandoor/recipe.json alone", "the recipe.json of one Tandoor recipe zip (cookbook/integration/default.py), unpacked and uploaded on its own", []byte(tandoorRecipeJSON("0.5"))},
		{"paprika/recipe json not gzipped", "one Paprika 3 recipe's JSON without its gzip layer (a .paprikarecipe unpacked by a file manager)", paprikaUnpacked()},
		{"schema/saved pages mhtml", "recipe pages saved by Chrome or Edge as 'Webpage, Single File' (MHTML, RFC 2557: Snapshot-Content-Location, the page quoted-printable, images base64 by Content-Location) and zipped, beside a saved page that is no recipe", schemaMHTMLZip()},
		{"nextcloud/windows zip french", "Cookbook folders zipped by the DOS code page IBM 437 the zip format names (Info-ZIP on Windows, no UTF-8 flag): names whose bytes also read as Shift-JIS", oemNextcloud(charmap.CodePage437, "Gâteau basque", "Crêpes")},
	}
}

// zipAgain wraps an export in a zip of one file, stored or deflated, with
// the desktop.ini Explorer leaves in a folder whose view was customised.
func zipAgain(name string, export []byte, store bool) []byte {
	return Zip(File{Name: name, Data: export, Store: store}, File{Name: "desktop.ini", Data: []byte("[.ShellClassInfo]\r\nIconResource=C:\\Windows\\system32\\imageres.dll,-184\r\n")})
}

func paprikaInFolder() []byte {
	return Zip(
		File{Name: "Paprika Export/My Recipes.paprikarecipes", Data: paprikaPhotos(), Store: true},
		File{Name: "__MACOSX/Paprika Export/._My Recipes.paprikarecipes", Data: []byte("\x00\x05\x16\x07resource fork")},
	)
}

func nextcloudThumbnails() []byte {
	doc := func(name, id, line string) []byte {
		return []byte(`{"@type":"Recipe","name":"` + name + `","recipeYield":2,"recipeIngredient":["` + line + `"],"recipeInstructions":["Mix and serve."],` +
			`"image":"https://cloud.example.org/index.php/apps/cookbook/webapp/recipes/` + id + `/image?size=full"}`)
	}
	return Zip(
		File{Name: "Cookbook/Muesli/recipe.json", Data: doc("Muesli", "31", "100 g oats")},
		File{Name: "Cookbook/Muesli/thumb.jpg", Data: JPEG(50), Store: true},
		File{Name: "Cookbook/Muesli/thumb16.jpg", Data: PNG(51), Store: true},
		File{Name: "Cookbook/Lassi/recipe.json", Data: doc("Lassi", "32", "200 ml yoghurt")},
		File{Name: "Cookbook/Lassi/thumb16.jpg", Data: PNG(52), Store: true},
	)
}

// oemNextcloud zips two Cookbook folders named first and second (each
// recipe titled so too) as a Windows tool does: names in the code page
// enc without the UTF-8 flag, folders separated by backslashes.
func oemNextcloud(enc encoding.Encoding, first, second string) []byte {
	doc := func(name, line string) []byte {
		return []byte(`{"@type":"Recipe","name":"` + name + `","recipeYield":4,"recipeIngredient":["` + line + `"],"recipeInstructions":["Cook it."]}`)
	}
	return OEMZip(enc,
		File{Name: `Recipes\` + first + `\recipe.json`, Data: doc(first, "1 kg potatoes")},
		File{Name: `Recipes\` + first + `\full.jpg`, Data: JPEG(53), Store: true},
		File{Name: `Recipes\` + second + `\recipe.json`, Data: doc(second, "500 g cabbage")},
	)
}

// OEMZip builds a zip as Windows tools before the UTF-8 flag write it:
// each name in the code page enc, the flag off.
func OEMZip(enc encoding.Encoding, files ...File) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		name, err := enc.NewEncoder().String(f.Name)
		if err != nil {
			panic(err)
		}
		method := zip.Deflate
		if f.Store {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, NonUTF8: true, CreatorVersion: 0x0014})
		if err != nil {
			panic(err)
		}
		_, _ = w.Write(f.Data)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func schemaJSONLDFiles() []byte {
	doc := func(name, line, image string) []byte {
		return []byte(`{"@context":{"@vocab":"https://schema.org/"},"@type":"Recipe","name":"` + name + `","recipeYield":"2",` +
			`"recipeIngredient":["` + line + `"],"recipeInstructions":[{"@type":"HowToStep","text":"Cook it."}],"image":"` + image + `"}`)
	}
	return Zip(
		File{Name: "recipes/porridge.jsonld", Data: doc("Porridge", "80 g oats", "photos/porridge.jpg")},
		File{Name: "recipes/omelette.jsonld", Data: doc("Omelette", "3 eggs", "")},
		File{Name: "recipes/photos/porridge.jpg", Data: JPEG(54), Store: true},
	)
}

func schemaMacOSDecomposed() []byte {
	nfd := strings.NewReplacer("è", "e\u0300", "û", "u\u0302", "é", "e\u0301").Replace
	doc := `{"@context":"https://schema.org","@type":"Recipe","name":"Crème brûlée","recipeYield":"6","recipeIngredient":["500 ml cream","5 egg yolks"],` +
		`"recipeInstructions":"Bake in a water bath.","image":"Photos/Crème brûlée.jpg"}`
	return Zip(
		File{Name: nfd("Desserts/Crème brûlée.json"), Data: []byte(doc)},
		File{Name: nfd("Desserts/Photos/Crème brûlée.jpg"), Data: JPEG(55), Store: true},
		File{Name: nfd("__MACOSX/Desserts/Photos/._Crème brûlée.jpg"), Data: []byte("\x00\x05\x16\x07")},
	)
}

// paprikaUnpacked is the JSON inside the Paprika variant's one recipe.
func paprikaUnpacked() []byte {
	files, err := Unzip(paprikaPhotos())
	if err != nil {
		panic(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(files[0].Data))
	if err != nil {
		panic(err)
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		panic(err)
	}
	return doc
}

// mhtml writes a page saved from address as Chromium's "Webpage, Single
// File" does: the page quoted-printable, then each image base64 at the
// address it was loaded from.
func mhtml(address, page string, images map[string][]byte) []byte {
	const boundary = "----MultipartBoundary--Qw3rTy----"
	var b strings.Builder
	b.WriteString("From: <Saved by Blink>\r\nSnapshot-Content-Location: " + address + "\r\nSubject: saved\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/related;\r\n\ttype=\"text/html\";\r\n\tboundary=\"" + boundary + "\"\r\n\r\n\r\n")
	b.WriteString("--" + boundary + "\r\nContent-Type: text/html\r\nContent-ID: <frame-1@mhtml.blink>\r\n" +
		"Content-Transfer-Encoding: quoted-printable\r\nContent-Location: " + address + "\r\n\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(page))
	_ = qp.Close()
	b.WriteString("\r\n")
	for loc, data := range images {
		b.WriteString("--" + boundary + "\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\nContent-Location: " + loc + "\r\n\r\n")
		b.WriteString(wrap76(base64.StdEncoding.EncodeToString(data)) + "\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return []byte(b.String())
}

func schemaMHTMLZip() []byte {
	page := `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Minestrone</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Minestrone","image":"/img/minestrone.jpg",
"recipeYield":"6 servings","prepTime":"PT20M","cookTime":"PT40M","recipeIngredient":["2 carrots, diced","1 leek, sliced","100 g small pasta","1 l vegetable stock"],
"recipeInstructions":[{"@type":"HowToStep","text":"Sweat the carrots and leek for 10 minutes."},{"@type":"HowToStep","text":"Add the stock and simmer 20 minutes."},{"@type":"HowToStep","text":"Cook the pasta in the soup until tender."}]}</script>
</head><body><h1>Minestrone</h1><img src="/img/minestrone.jpg"></body></html>`
	other := `<!DOCTYPE html><html><head><title>About us</title></head><body><p>We cook soup.</p></body></html>`
	return Zip(
		File{Name: "Saved pages/Minestrone.mhtml", Data: mhtml("https://soup.example.com/recipes/minestrone", page,
			map[string][]byte{"https://soup.example.com/img/minestrone.jpg": JPEG(56)})},
		File{Name: "Saved pages/About us.mhtml", Data: mhtml("https://soup.example.com/about", other, nil)},
	)
}
