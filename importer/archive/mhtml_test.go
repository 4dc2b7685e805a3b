package archive

import (
	"testing"
)

// FuzzReadMHTML: a saved page either reads, with its page and no image
// over the limit, or fails with a reason; it never panics.
func FuzzReadMHTML(f *testing.F) {
	f.Add([]byte("MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/html\r\n" +
		"Content-Transfer-Encoding: quoted-printable\r\n\r\n<html>=3D</html>\r\n--b\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n" +
		"Content-Location: https://x.example/a.png\r\n\r\niVBORw0K\r\nGgo=\r\n--b--\r\n"))
	f.Add([]byte("From: x\r\n\r\nno body"))
	const maxImage = 64
	f.Fuzz(func(t *testing.T, b []byte) {
		page, err := readMHTML(b, maxImage)
		if err != nil {
			return
		}
		if page.html == nil {
			t.Fatal("read without its page")
		}
		for loc, img := range page.images {
			if len(img) > maxImage {
				t.Fatalf("image %q of %d bytes kept", loc, len(img))
			}
		}
	})
}
