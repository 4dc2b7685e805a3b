//go:build !linux

package backup

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// syncTree makes every file and directory under dir durable, one fsync each.
func syncTree(dir string) error {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	})
	if err != nil {
		return fmt.Errorf("sync restored files: %w", err)
	}
	return nil
}
