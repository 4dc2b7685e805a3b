package jobs

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"larder/importer/fetch"
	"larder/repo"
)

// Jobs without a Fetcher of their own build one from the configuration, in
// which private addresses are closed unless IMPORT_ALLOW_PRIVATE_ADDRESSES
// opens them: a cookbook image "from a URL" on loopback is refused, and the
// server never sees a request. (The other tests hand the jobs a fetcher
// that may reach their loopback servers.)
func TestConfiguredFetcherRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	pic := testPNG(t, 8, 8)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write(pic)
	}))
	t.Cleanup(srv.Close)

	e := newJobEnv(t)
	if e.deps.Fetcher != nil || e.deps.Config.ImportAllowPrivate {
		t.Fatal("the environment must leave the fetcher to the default configuration")
	}
	b := &cookbookImageBundle{jobEnv: e, owner: e.user}
	cb, err := repo.CreateCookbook(context.Background(), b.db, b.owner.ID, repo.CookbookInput{Name: "Pies"})
	if err != nil {
		t.Fatal(err)
	}
	row := b.enqueue(t, DownloadCookbookImageArgs{CookbookID: cb.ID, URL: srv.URL + "/pie.png"})
	if code, _ := b.refused(t, row); code == nil || *code != fetch.CodeForbiddenAddress {
		t.Fatalf("error code %v, want %s", code, fetch.CodeForbiddenAddress)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the loopback server got %d requests", n)
	}
}

// An image download stops reading at the 20 MB limit: a server that would
// send 100 MB gets its writes refused soon after, instead of the worker
// holding the whole body in memory before the image check refuses it.
func TestImageDownloadStopsReadingAtTheLimit(t *testing.T) {
	t.Parallel()
	pic := testPNG(t, 8, 8)
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		n, _ := w.Write(pic)
		written.Add(int64(n))
		chunk := make([]byte, 1<<20)
		for range 100 {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)

	b := cookbookImageSetup(t, true)
	cb, err := repo.CreateCookbook(context.Background(), b.db, b.owner.ID, repo.CookbookInput{Name: "Pies"})
	if err != nil {
		t.Fatal(err)
	}
	row := b.enqueue(t, DownloadCookbookImageArgs{CookbookID: cb.ID, URL: srv.URL + "/huge.png"})
	if code, _ := b.refused(t, row); code == nil || *code != fetch.CodeTooLarge {
		t.Fatalf("error code %v, want %s", code, fetch.CodeTooLarge)
	}
	srv.CloseClientConnections()
	srv.Close() // waits for the handler: written is final
	// The limit plus what the sockets buffer; far below the 100 MB offered.
	if n := written.Load(); n > ImageMaxBytes+10<<20 {
		t.Fatalf("the server wrote %d MB before the download stopped", n>>20)
	}
}
