package jobs

import (
	"bufio"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"larder/importer/archive/archivetest"
	"larder/repo"
	"larder/repo/repotest"
)

// BenchmarkImportArchive imports a Mealie export of 1,000 recipes, each
// with a 640×480 JPEG photo, through the job as a worker runs it (spool
// from the file store, detect, read, re-encode and store each image,
// create each recipe with its follow-up jobs in its own transaction) into
// a fresh account, and reports recipes per second, the largest live Go
// heap seen during the import (as marked by the garbage collector; the
// test's own copy of the export included) and the process's peak resident
// memory (fixture generation included). Run it once:
//
//	go test ./jobs -run '^$' -bench BenchmarkImportArchive -benchtime 1x
//
// Figures are in bench/README.md.
func BenchmarkImportArchive(b *testing.B) {
	const n = 1000
	recipes := archivetest.Samples(n, false)
	for i := range recipes {
		recipes[i].Image = archivetest.Photo(i, 640, 480)
	}
	export := archivetest.MealieExport(recipes)
	recipes = nil
	db := repotest.DB(b)
	b.Logf("export: %d recipes, %.1f MB", n, float64(len(export))/(1<<20))
	runtime.GC()

	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		bundle := importSetupOn(b, db, loopbackFetcher())
		key := bundle.storeArchive(b, export)
		row := bundle.enqueue(b, ImportArchiveArgs{UserID: bundle.user.ID, FileKey: key, FileName: "bench.zip", Visibility: repo.VisibilityPrivate}, nil)
		runtime.GC()
		stop := sampleHeap()
		b.StartTimer()

		start := time.Now()
		workJob[ImportArchiveArgs](b, db, &ImportArchiveWorker{deps: bundle.deps}, row)
		elapsed := time.Since(start)

		b.StopTimer()
		peak := stop()
		res := bundle.archiveResult(b, row)
		if res.Created != n {
			b.Fatalf("created %d of %d (%d failed)", res.Created, n, res.Failed)
		}
		b.ReportMetric(float64(n)/elapsed.Seconds(), "recipes/s")
		b.ReportMetric(float64(peak)/(1<<20), "peak-live-heap-MB")
		b.ReportMetric(float64(peakRSS())/(1<<10), "peak-RSS-MB")
		b.StartTimer()
	}
}

// sampleHeap records the largest live heap (as of the last collection)
// every 5 ms until the returned function is called, which returns it.
func sampleHeap() func() uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// peakRSS is the process's peak resident set in kB (VmHWM), 0 where /proc
// does not say.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}
