package hungarian_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/native/hungarian"
)

// Dense uniform random costs in [0, 1000), seeded; the target use is
// n = partition size (about 1000-5000), solved k times per partition.
// go test -run '^$' -bench . ./native/hungarian/
func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 2000} {
		cost := randomCost(rand.New(rand.NewPCG(8, uint64(n))), n, 0, 0, 0)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := hungarian.Solve(n, cost); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
