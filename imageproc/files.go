package imageproc

import "larder/filestore"

// StoredFiles lists every file of an image stored under key: the image, the
// renditions recorded for it, and the rendition of each of Sizes that its
// key implies (filestore.VariantKey). The implied ones cover renditions an
// image job wrote without recording them: it was still running when the
// image was replaced, or it died before it could record them. Deleting
// them all leaves nothing of the image behind; a missing file is no error
// to filestore.Store.Delete.
func StoredFiles(key string, recorded map[string]string) []string {
	seen := map[string]bool{key: true}
	files := []string{key}
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			files = append(files, k)
		}
	}
	for _, k := range recorded {
		add(k)
	}
	for _, size := range Sizes() {
		if k, err := filestore.VariantKey(key, size.Name); err == nil {
			add(k)
		}
	}
	return files
}
