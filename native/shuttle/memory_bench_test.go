package shuttle

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// memBenchTime bounds each run of BenchmarkShuttleMemory: the correction
// step on these tables is a long integer search (doc.go); the benchmark is
// about memory, and the deadline keeps one run to seconds.
const memBenchTime = 10 * time.Second

// peakHeap samples runtime.MemStats.HeapInuse every millisecond while f
// runs and returns the largest value above the one before f.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(time.Millisecond)
		defer tk.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapInuse)
	return peak - base
}

// BenchmarkShuttleMemory runs Bounds (with the correction step, the
// default memory limit and a deadline of memBenchTime) on seeded 2^k
// tables with all 2-way margins and reports the peak heap above the
// baseline (peak-MiB, sampled every millisecond) against Estimate
// (est-shuttle-MiB, est-correction-MiB), and whether the correction step
// ran (corrected: 0 when the limit made Bounds skip it) or was stopped
// (time-stopped). Sizes the limit refuses are skipped.
func BenchmarkShuttleMemory(b *testing.B) {
	for _, k := range []int{8, 10, 12} {
		b.Run(fmt.Sprintf("2^%d/2-way", k), func(b *testing.B) {
			dims := make([]int, k)
			for i := range dims {
				dims[i] = 2
			}
			ms := mustReleased(b, poissonTable(b, dims, 4, uint64(k)), allKWay(k, 2))
			m := Estimate(ms, nil)
			if m.Shuttle > DefaultMemoryLimit() {
				b.Skipf("T needs %s, more than the limit %s", humanBytes(m.Shuttle), humanBytes(DefaultMemoryLimit()))
			}
			var r *Result
			var peak uint64
			for b.Loop() {
				opt := DefaultOptions()
				opt.Deadline = time.Now().Add(memBenchTime)
				var err error
				peak = max(peak, peakHeap(func() { r, err = Bounds(ms, opt) }))
				if errors.Is(err, ErrTooLarge) {
					b.Skip(err)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			const mib = 1 << 20
			b.ReportMetric(float64(peak)/mib, "peak-MiB")
			b.ReportMetric(float64(m.Shuttle)/mib, "est-shuttle-MiB")
			b.ReportMetric(float64(m.Correction)/mib, "est-correction-MiB")
			corrected, timeStopped := 1.0, 0.0
			if r.Stopped == StoppedMemoryLimit && r.Nodes == 0 {
				corrected = 0
			}
			if r.Stopped == StoppedTimeLimit {
				timeStopped = 1
			}
			b.ReportMetric(corrected, "corrected")
			b.ReportMetric(timeStopped, "time-stopped")
			b.ReportMetric(float64(r.Nodes), "nodes")
		})
	}
}
