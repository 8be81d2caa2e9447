package microagg

import (
	"math/rand/v2"

	"github.com/sdcopt/sdcopt/model"
)

// gaussianClusters returns n records of d attributes drawn around nc
// centres (uniform in [-5, 5]^d) with unit normal noise, from the seed.
// Like the local-search paper's "Synthetic" set (Section 5.1) but of any
// size; it is local to the tests so that they do not depend on the
// datasets package.
func gaussianClusters(n, d, nc int, seed uint64) *model.Dataset {
	r := rand.New(rand.NewPCG(seed, 0x5dc0))
	centres := make([]float64, nc*d)
	for i := range centres {
		centres[i] = -5 + 10*r.Float64()
	}
	x := make([]float64, n*d)
	for i := 0; i < n; i++ {
		c := centres[r.IntN(nc)*d:]
		for j := 0; j < d; j++ {
			x[i*d+j] = c[j] + r.NormFloat64()
		}
	}
	ds, err := model.NewDataset(nil, n, d, x)
	if err != nil {
		panic(err)
	}
	return ds
}

// uniformData returns n records of d attributes uniform in [0, 1).
func uniformData(n, d int, seed uint64) *model.Dataset {
	r := rand.New(rand.NewPCG(seed, 0xda7a))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.Float64()
	}
	ds, err := model.NewDataset(nil, n, d, x)
	if err != nil {
		panic(err)
	}
	return ds
}
