package filestore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Generations lets a restore replace every stored file at once, on any
// store. Files live under "<generation>/<key>" of Base ("" keeps them at
// the top); the current generation is read from the database on every
// call (Current), so every API and worker process switches the moment the
// restore's transaction commits, with nothing to invalidate.
//
// A restore writes the backup's files under a NewGeneration, switches the
// generation in its transaction, then removes everything else
// (RemoveOtherGenerations); a failure part-way removes the new generation
// instead, leaving the old one whole.
type Generations struct {
	Base    Store
	Current func(ctx context.Context) (string, error)
}

var _ Store = Generations{}

var generationName = regexp.MustCompile(`^gen-[0-9a-f]{16}$`)

// NewGeneration returns a fresh generation name.
func NewGeneration() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "gen-" + hex.EncodeToString(b)
}

// IsGeneration reports whether a key's first segment names a generation;
// such keys are never files of the top-level generation "".
func IsGeneration(segment string) bool { return generationName.MatchString(segment) }

// InGeneration returns the Base key of key in generation g.
func InGeneration(g, key string) string {
	if g == "" {
		return key
	}
	return g + "/" + key
}

func (s Generations) key(ctx context.Context, key string) (string, error) {
	if err := ValidateKey(key); err != nil {
		return "", err
	}
	g, err := s.Current(ctx)
	if err != nil {
		return "", err
	}
	if g == "" && IsGeneration(strings.SplitN(key, "/", 2)[0]) {
		return "", fmt.Errorf("%w %q: names a generation", ErrInvalidKey, key)
	}
	return InGeneration(g, key), nil
}

func (s Generations) Put(ctx context.Context, key string, r io.Reader) error {
	k, err := s.key(ctx, key)
	if err != nil {
		return err
	}
	return s.Base.Put(ctx, k, r)
}

func (s Generations) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	k, err := s.key(ctx, key)
	if err != nil {
		return nil, err
	}
	return s.Base.Open(ctx, k)
}

func (s Generations) Stat(ctx context.Context, key string) (Info, error) {
	k, err := s.key(ctx, key)
	if err != nil {
		return Info{}, err
	}
	return s.Base.Stat(ctx, k)
}

func (s Generations) Delete(ctx context.Context, key string) error {
	k, err := s.key(ctx, key)
	if err != nil {
		return err
	}
	return s.Base.Delete(ctx, k)
}

// Walk lists the files of the current generation, with their keys
// relative to it.
func (s Generations) Walk(ctx context.Context, fn func(key string, size int64) error) error {
	g, err := s.Current(ctx)
	if err != nil {
		return err
	}
	return s.Base.Walk(ctx, func(key string, size int64) error {
		first, rest, _ := strings.Cut(key, "/")
		switch {
		case g == "" && IsGeneration(first):
			return nil
		case g == "":
			return fn(key, size)
		case first == g && rest != "":
			return fn(rest, size)
		}
		return nil
	})
}

func (s Generations) Check(ctx context.Context) error {
	if _, err := s.Current(ctx); err != nil {
		return err
	}
	return s.Base.Check(ctx)
}

// RemoveGeneration deletes every file of generation g from base.
func RemoveGeneration(ctx context.Context, base Store, g string) error {
	return removeWhere(ctx, base, func(first string) bool { return first == g })
}

// RemoveOtherGenerations deletes every file of base that is not in
// generation keep: the replaced files after a restore, and whatever a
// crashed restore left.
func RemoveOtherGenerations(ctx context.Context, base Store, keep string) error {
	return removeWhere(ctx, base, func(first string) bool {
		if keep == "" {
			return IsGeneration(first)
		}
		return first != keep
	})
}

func removeWhere(ctx context.Context, base Store, drop func(first string) bool) error {
	var keys []string
	err := base.Walk(ctx, func(key string, _ int64) error {
		if first, _, _ := strings.Cut(key, "/"); drop(first) {
			keys = append(keys, key)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := base.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}
