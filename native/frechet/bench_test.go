package frechet

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// chain returns the margin set [AB] [BC] ... of a random table with k
// variables of l levels each and about 10 units per cell.
func chain(b *testing.B, k, l int) *model.MarginSet {
	dims := make([]int, k)
	for i := range dims {
		dims[i] = l
	}
	rng := rand.New(rand.NewPCG(uint64(k), uint64(l)))
	tab := randomTable(rng, dims, 0)
	for i := range tab.Counts {
		tab.Counts[i] = int64(rng.IntN(21))
	}
	var spec []string
	for i := 0; i+1 < k; i++ {
		spec = append(spec, tab.Vars[i].Name+tab.Vars[i+1].Name)
	}
	return marginSet(b, tab, strings.Join(spec, ","))
}

func BenchmarkBoundsChain(b *testing.B) {
	for _, c := range []struct{ k, l int }{{5, 5}, {8, 4}, {6, 10}} {
		ms := chain(b, c.k, c.l)
		b.Run(fmt.Sprintf("k=%d/levels=%d/cells=%d", c.k, c.l, model.NumCells(model.Dims(ms.Vars))), func(b *testing.B) {
			for b.Loop() {
				if _, err := Bounds(ms); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAutoworkers(b *testing.B) {
	tab := autoworkers(b)
	s3 := marginSet(b, tab, "BF,ABCE,ADE")
	s5 := marginSet(b, tab, "BF,BC,BE,AB,AC,AE,CE,DE,AD")
	b.Run("Bounds/BF,ABCE,ADE", func(b *testing.B) {
		for b.Loop() {
			if _, err := Bounds(s3); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Decompose/section5", func(b *testing.B) {
		for b.Loop() {
			if _, err := Decompose(s5); err != nil {
				b.Fatal(err)
			}
		}
	})
}
