package archive

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
)

// A page saved by Chrome or Edge as "Webpage, Single File" is MHTML (RFC
// 2557): a MIME message whose first text/html part is the page and whose
// other parts are what it loaded, each named by the address it came from
// (Content-Location). The page is read like any saved page, at the address
// it was saved from (so a site's own reading applies, and relative links
// resolve as they did), and the recipe's photo is taken from the parts.

func isMHTMLName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".mhtml") || strings.HasSuffix(lower, ".mht")
}

// savedPage is an MHTML file's page and its images by address.
type savedPage struct {
	html    []byte
	address string // where the page was saved from
	images  map[string][]byte
}

// readMHTML splits an MHTML file into its page and images; an image part
// larger than maxImage is left out.
func readMHTML(b []byte, maxImage int64) (savedPage, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		return savedPage{}, fmt.Errorf("%w: not a saved page: %v", ErrCorrupt, err)
	}
	media, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(media, "multipart/") || params["boundary"] == "" {
		return savedPage{}, fmt.Errorf("%w: not a saved page: no multipart body", ErrCorrupt)
	}
	page := savedPage{address: msg.Header.Get("Snapshot-Content-Location"), images: map[string][]byte{}}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		// NextPart undoes quoted-printable itself; base64 is undone below.
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return savedPage{}, fmt.Errorf("%w: the saved page is cut short: %v", ErrCorrupt, err)
		}
		media, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		isPage := media == "text/html" && page.html == nil
		if !isPage && !strings.HasPrefix(media, "image/") {
			continue
		}
		var r io.Reader = p
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "base64") {
			r = base64.NewDecoder(base64.StdEncoding, newlineSkipper{p})
		}
		limit := maxImage
		if isPage {
			limit = maxPageBytes
		}
		data, err := io.ReadAll(io.LimitReader(r, limit+1))
		switch {
		case err != nil:
			return savedPage{}, fmt.Errorf("%w: a part of the saved page cannot be read: %v", ErrCorrupt, err)
		case isPage && int64(len(data)) > limit:
			return savedPage{}, tooLargeError{"the page in the saved page", limit}
		case isPage:
			page.html = data
			if loc := p.Header.Get("Content-Location"); loc != "" {
				page.address = loc
			}
		case int64(len(data)) <= limit:
			page.images[p.Header.Get("Content-Location")] = data
		}
	}
	if page.html == nil {
		return savedPage{}, fmt.Errorf("%w: the saved page holds no HTML", ErrInvalidRecipe)
	}
	return page, nil
}

// newlineSkipper drops the line breaks MIME wraps base64 in, which
// encoding/base64's decoder reads past only at its input's end.
type newlineSkipper struct{ r io.Reader }

func (s newlineSkipper) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	out := p[:0]
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			out = append(out, c)
		}
	}
	return len(out), err
}

// fromMHTML reads the recipe of a saved page, with its photo when the page
// holds it. A saved page that cannot be read (cut short, too large) is
// an entry that failed, since it may have been a recipe; one whose page
// holds no recipe data is not a recipe of the export.
func fromMHTML(entry string, b []byte, maxImage int64) (Recipe, bool) {
	page, err := readMHTML(b, maxImage)
	if err != nil {
		return Recipe{Entry: entry, Err: err}, true
	}
	address := page.address
	if !strings.HasPrefix(address, "http://") && !strings.HasPrefix(address, "https://") {
		address = entryURL(entry)
	}
	rec, ok := fromPage(entry, page.html, address)
	if !ok {
		return Recipe{}, false
	}
	if img, ok := page.images[rec.Recipe.ImageURL]; ok {
		rec.Image, rec.Recipe.ImageURL = img, ""
	}
	return rec, true
}

// maxSavedPageBytes bounds a saved page with its images, read whole.
const maxSavedPageBytes = 64 << 20
