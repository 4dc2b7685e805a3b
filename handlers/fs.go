package handlers

import (
	"io/fs"
	"net/http"
)

// filesystemFS adapts an fs.FS to the http.FileSystem Fiber's middleware wants.
func filesystemFS(f fs.FS) http.FileSystem { return http.FS(f) }
