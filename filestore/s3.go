package filestore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config locates a bucket of an S3-compatible object store (AWS S3,
// SeaweedFS, Garage, MinIO, R2, B2, versitygw).
type S3Config struct {
	// Endpoint is the server's base address, http:// or https://
	// ("https://s3.eu-west-1.amazonaws.com", "http://127.0.0.1:7070").
	Endpoint string
	Bucket   string
	Region   string
	// AccessKeyID and SecretAccessKey sign every request (AWS signature
	// version 4, which sends x-amz-content-sha256).
	AccessKeyID     string
	SecretAccessKey string
	// PathStyle addresses the bucket as ENDPOINT/BUCKET/KEY instead of
	// BUCKET.ENDPOINT/KEY; self-hosted servers usually need it.
	PathStyle bool
	// Prefix is prepended to every key ("larder/"), so that one bucket can
	// hold several things. It ends with a slash or is empty.
	Prefix string
}

// S3 is a Store in an S3 bucket. It uses minio-go, a client made for
// S3-compatible servers as much as for AWS, in one module: it streams a Put
// of unknown length as a multipart upload of PartSize parts (aborted, so
// nothing becomes visible, when the reader or the context fails), and its
// objects support ranged reads.
type S3 struct {
	client *minio.Client
	bucket string
	prefix string
}

var _ Store = (*S3)(nil)

// partSize bounds the memory of one upload: minio-go holds one part at a
// time when streaming a reader of unknown length.
const partSize = 16 << 20

// NewS3 returns the store for cfg. It does not contact the server; Check
// does.
func NewS3(cfg S3Config) (*S3, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("S3 endpoint %q: want http://host[:port] or https://host[:port]", cfg.Endpoint)
	}
	if cfg.Bucket == "" {
		return nil, errors.New("S3 bucket: required")
	}
	if cfg.Prefix != "" && !strings.HasSuffix(cfg.Prefix, "/") {
		cfg.Prefix += "/"
	}
	lookup := minio.BucketLookupDNS
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	client, err := minio.New(u.Host, &minio.Options{
		Creds:        credentials.NewStaticV4(cfg.AccessKeyID, cfg.SecretAccessKey, ""),
		Secure:       u.Scheme == "https",
		Region:       cfg.Region,
		BucketLookup: lookup,
	})
	if err != nil {
		return nil, fmt.Errorf("S3 client: %w", err)
	}
	return &S3{client: client, bucket: cfg.Bucket, prefix: cfg.Prefix}, nil
}

// WithPrefix returns a store sharing this one's client whose keys live
// under this store's prefix followed by sub ("uploads", "backups").
func (s *S3) WithPrefix(sub string) *S3 {
	c := *s
	c.prefix = s.prefix + strings.Trim(sub, "/") + "/"
	return &c
}

// Client is the underlying client and the bucket; tests and the storage
// migration use them to look at the bucket directly.
func (s *S3) Client() (*minio.Client, string) { return s.client, s.bucket }

func (s *S3) object(key string) string { return s.prefix + key }

// Put streams r to the object; see Store.Put. S3 makes an object visible
// only once its PUT or its multipart upload completes, and minio-go aborts
// the multipart upload when reading fails.
func (s *S3) Put(ctx context.Context, key string, r io.Reader) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	// A reader that knows its length (an image in memory) goes up in one
	// PUT straight from it; any other streams as a multipart upload, one
	// part buffered at a time.
	size := int64(-1)
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len())
	}
	_, err := s.client.PutObject(ctx, s.bucket, s.object(key), ctxReader{ctx, r}, size, minio.PutObjectOptions{
		PartSize:    partSize,
		NumThreads:  1,
		ContentType: "application/octet-stream", // the API decides the served type, never the store
	})
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// Open returns the object under key. The value is a *minio.Object: an
// io.ReadSeeker and io.ReaderAt doing ranged reads.
func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := ValidateKey(key); err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, s.object(key), minio.GetObjectOptions{})
	if err != nil {
		return nil, s.wrap("open", key, err)
	}
	// GetObject is lazy: Stat makes the request and reports a missing key.
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		return nil, s.wrap("open", key, err)
	}
	return obj, nil
}

// Stat describes the object under key.
func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if err := ValidateKey(key); err != nil {
		return Info{}, err
	}
	oi, err := s.client.StatObject(ctx, s.bucket, s.object(key), minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s.wrap("stat", key, err)
	}
	return Info{Size: oi.Size, Modified: oi.LastModified}, nil
}

// Delete removes the object; S3 answers a missing key with success.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, s.object(key), minio.RemoveObjectOptions{}); err != nil {
		return s.wrap("delete", key, err)
	}
	return nil
}

// Walk lists the objects under the prefix; S3 lists keys in lexical
// (UTF-8 byte) order, as Store.Walk promises. Objects whose names are not
// valid keys are skipped, as Local skips such files.
func (s *S3) Walk(ctx context.Context, fn func(key string, size int64) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the listing goroutine when fn fails
	for oi := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix, Recursive: true}) {
		if oi.Err != nil {
			return fmt.Errorf("walk %s: %w", s.prefix, oi.Err)
		}
		key := strings.TrimPrefix(oi.Key, s.prefix)
		if ValidateKey(key) != nil {
			continue
		}
		if err := fn(key, oi.Size); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Check asks whether the bucket exists (and the credentials work).
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("object store: %w", err)
	}
	if !ok {
		return fmt.Errorf("object store: bucket %q does not exist", s.bucket)
	}
	return nil
}

func (s *S3) wrap(op, key string, err error) error {
	resp := minio.ToErrorResponse(err)
	if resp.Code == minio.NoSuchKey || resp.StatusCode == http.StatusNotFound && resp.Code != minio.NoSuchBucket {
		return fmt.Errorf("%s %s: %w", op, key, ErrNotFound)
	}
	return fmt.Errorf("%s %s: %w", op, key, err)
}

// CreateBucket makes the bucket unless it exists, and reports whether it
// did (admin storage create-bucket).
func (s *S3) CreateBucket(ctx context.Context, region string) (bool, error) {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return false, fmt.Errorf("object store: %w", err)
	}
	if ok {
		return false, nil
	}
	if err := s.client.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{Region: region}); err != nil {
		return false, fmt.Errorf("create bucket %s: %w", s.bucket, err)
	}
	return true, nil
}
