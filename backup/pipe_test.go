package backup

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestPipeCopy(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 1, copyBufferSize - 1, copyBufferSize, 3*copyBufferSize + 12345, 10 * copyBufferSize} {
		src := make([]byte, size)
		for i := range src {
			src[i] = byte(i * 7)
		}
		var dst bytes.Buffer
		// HalfReader makes short reads, as inflating does.
		for _, r := range []io.Reader{bytes.NewReader(src), iotest.HalfReader(bytes.NewReader(src))} {
			dst.Reset()
			if err := pipeCopy(&dst, r); err != nil {
				t.Fatalf("size %d: %v", size, err)
			}
			if !bytes.Equal(dst.Bytes(), src) {
				t.Fatalf("size %d: copied %d bytes, not the same", size, dst.Len())
			}
		}
	}
	readFail := errors.New("read failed")
	if err := pipeCopy(io.Discard, io.MultiReader(bytes.NewReader(make([]byte, 5*copyBufferSize)), iotest.ErrReader(readFail))); !errors.Is(err, readFail) {
		t.Errorf("read error: %v", err)
	}
	writeFail := errors.New("disk full")
	if err := pipeCopy(failingWriter{writeFail}, bytes.NewReader(make([]byte, 8*copyBufferSize))); !errors.Is(err, writeFail) {
		t.Errorf("write error: %v", err)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }
