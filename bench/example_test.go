package bench_test

import (
	"fmt"
	"os"

	"github.com/sdcopt/sdcopt/bench"
)

// Time MDAV on two sizes of seeded Gaussian data, print the runs'
// information loss (the times vary from run to run) and write the report
// as CSV.
func ExampleScaling() {
	rep, err := bench.Scaling(&bench.ScalingOptions{MDAVNs: []int{100, 200}, D: 2, Clusters: 2, Partition: 100, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Rows {
		fmt.Printf("%s n=%d k=%d %s %.4f\n", r.Method, r.N, r.K, r.Measure, r.Quality)
	}
	fmt.Println("fits:", len(rep.Fits))
	t := rep.Tables()[0]
	fmt.Println(t.Name, t.Columns)
	_ = bench.WriteCSV(os.Stdout, &bench.MDAVReport{Rows: []bench.MDAVRow{{Data: "census", N: 1080, D: 13, K: 3, IL: 5.6922}}})
	// Output:
	// mdav n=100 k=3 il 4.3061
	// mdav n=200 k=3 il 2.4397
	// fits: 1
	// runs [method n k quality measure seconds]
	// table,data,n,d,k,il,published,match,groups,seconds
	// mdav,census,1080,13,3,5.6922,,,0,0
}
