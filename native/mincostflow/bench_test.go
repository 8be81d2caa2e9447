package mincostflow_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/native/mincostflow"
)

// Dense uniform random costs in [0, 1000), seeded, b = 4.
// go test -run '^$' -bench . ./native/mincostflow/
func BenchmarkKRegular(b *testing.B) {
	const deg = 4
	for _, n := range []int{100, 300, 1000} {
		cost := randomCost(rand.New(rand.NewPCG(8, uint64(n))), n, 0, 0, 0)
		b.Run(fmt.Sprintf("n=%d/b=%d", n, deg), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := mincostflow.KRegular(n, deg, cost); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
