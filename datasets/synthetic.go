package datasets

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// Parameters of the generators (Mortazavi & Jalili, Section 5.1).
const (
	sigmaMin, sigmaMax = 0.1, 0.3    // per-cluster standard deviation σ_c, Sim-2/Sim-3
	sim1Low, sim1High  = -1000, 1000 // Sim-1 value range
	simClusters        = 5           // Sim-2/Sim-3: c clusters ...
	simPerCluster      = 20          // ... of 20 records each
	simDimMin          = 4           // Sim-2/Sim-3: d uniform in 4..8
	simDimMax          = 8
	syntheticN         = 10000 // Synthetic: 10,000 records
	syntheticD         = 10    // of 10 attributes
	syntheticClusters  = 10    // in 10 Gaussian clusters
)

// Second PCG words, one per generator, so that equal seeds of different
// generators give unrelated streams.
const (
	streamGauss = 0x5dc0_9a55_0001
	streamSim1  = 0x5dc0_9a55_0002
	streamSim2  = 0x5dc0_9a55_0003
	streamSim3  = 0x5dc0_9a55_0004
)

// SyntheticNames lists the generators Synthetic accepts by name; it also
// accepts "gauss-N-D-C" for GaussianClusters(N, D, C, seed).
func SyntheticNames() []string { return []string{"synthetic", "sim1", "sim2", "sim3"} }

// Synthetic generates the named data set with the given seed:
//
//	synthetic   10,000 x 10, GaussianClusters(10000, 10, 10, seed)
//	sim1        100 x 10, every value uniform on [-1000, 1000]
//	sim2        5 clusters x 20 records, d uniform in 4..8, centres uniform
//	            in [0,1]^d, σ_c uniform in [0.1, 0.3], records N(centre, σ_c² I_d)
//	sim3        as sim2 with centres uniform in [0,2]^d
//	gauss-N-D-C GaussianClusters(N, D, C, seed)
//
// "sim-1", "sim-2", "sim-3" are accepted too. The same name and seed always
// give the same data. Errors: an unknown name, bad gauss parameters (see
// GaussianClusters), and a data set larger than MemoryLimit (wrapping
// ErrTooLarge, checked before anything is allocated).
func Synthetic(name string, seed uint64) (*model.Dataset, error) {
	gen, err := parseGenerator(strings.ToLower(name))
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	return gen(seed)
}

type generator func(seed uint64) (*model.Dataset, error)

func parseGenerator(name string) (generator, error) {
	switch strings.ReplaceAll(name, "-", "") {
	case "synthetic":
		if err := checkGauss(name, syntheticN, syntheticD, syntheticClusters); err != nil {
			return nil, err
		}
		return func(seed uint64) (*model.Dataset, error) {
			return GaussianClusters(syntheticN, syntheticD, syntheticClusters, seed)
		}, nil
	case "sim1":
		return sim1, nil
	case "sim2":
		return func(seed uint64) (*model.Dataset, error) { return simClustered(seed, streamSim2, 1) }, nil
	case "sim3":
		return func(seed uint64) (*model.Dataset, error) { return simClustered(seed, streamSim3, 2) }, nil
	}
	if rest, ok := strings.CutPrefix(name, "gauss-"); ok {
		p := strings.Split(rest, "-")
		if len(p) != 3 {
			return nil, fmt.Errorf("generator %q: want gauss-N-D-C with integers N (records), D (attributes), C (clusters)", name)
		}
		var v [3]int
		for i, what := range [3]string{"N", "D", "C"} {
			var err error
			if v[i], err = strconv.Atoi(p[i]); err != nil {
				if errors.Is(err, strconv.ErrRange) {
					return nil, &tooLargeError{fmt.Sprintf("generator %q: %s = %s is too large (it does not fit in an int)", name, what, p[i])}
				}
				return nil, fmt.Errorf("generator %q: %s = %q is not an integer (want gauss-N-D-C with integers N (records), D (attributes), C (clusters))", name, what, p[i])
			}
		}
		if err := checkGauss(name, v[0], v[1], v[2]); err != nil {
			return nil, err
		}
		return func(seed uint64) (*model.Dataset, error) { return GaussianClusters(v[0], v[1], v[2], seed) }, nil
	}
	return nil, fmt.Errorf("unknown generator %q (want one of %s, or gauss-N-D-C)", name, strings.Join(SyntheticNames(), ", "))
}

// checkGauss checks the parameters of GaussianClusters, the memory the
// data set takes included (see gaussianBytes); what names the data set in
// the messages.
func checkGauss(what string, n, d, clusters int) error {
	switch {
	case n < 1:
		return fmt.Errorf("%s: N = %d records: need at least 1", what, n)
	case d < 1:
		return fmt.Errorf("%s: D = %d attributes: need at least 1", what, d)
	case clusters < 1:
		return fmt.Errorf("%s: C = %d clusters: need at least 1", what, clusters)
	case clusters > n:
		return fmt.Errorf("%s: C = %d clusters for N = %d records: need clusters <= records", what, clusters, n)
	}
	return checkMemory(fmt.Sprintf("%s (%d records x %d attributes, %d clusters)", what, n, d, clusters), gaussianBytes(n, d, clusters))
}

// gaussianBytes is the memory gaussian allocates: 8 bytes for each of the
// n*d values, the clusters*d centre coordinates and the clusters spreads,
// and attrNameBytes for each attribute name (-1: overflow).
func gaussianBytes(n, d, clusters int) int64 {
	return sizeSum(sizeProduct(8, n, d), sizeProduct(8, clusters, d), sizeProduct(8, clusters), sizeProduct(attrNameBytes, d))
}

// attrNameBytes bounds the memory of one generated attribute name ("v17"):
// a string header and its text.
const attrNameBytes = 16 + 24

// GaussianClusters generates n records of d attributes around `clusters`
// centres drawn uniformly from [0,1]^d; cluster c has its own σ_c drawn
// uniformly from [0.1, 0.3], and its records are N(centre_c, σ_c² I_d).
// Record i belongs to cluster i mod clusters, so the clusters are
// interleaved in record order and their sizes differ by at most one. This
// is the Sim-2 recipe of Mortazavi & Jalili (Section 5.1) for any size; the
// paper's Synthetic set (10,000 x 10, 10 clusters) does not state its
// centres and spreads, and Synthetic uses this function for it.
//
// Errors: n, d or clusters below 1, clusters > n, and a data set larger
// than MemoryLimit (wrapping ErrTooLarge; checked before allocating).
func GaussianClusters(n, d, clusters int, seed uint64) (*model.Dataset, error) {
	if err := checkGauss("gaussian clusters", n, d, clusters); err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	r := rand.New(rand.NewPCG(seed, streamGauss))
	return gaussian(r, n, d, clusters, 1), nil
}

// gaussian draws the centres in [0, span]^d, then σ_c, then the records.
func gaussian(r *rand.Rand, n, d, clusters int, span float64) *model.Dataset {
	centres := make([]float64, clusters*d)
	for i := range centres {
		centres[i] = span * r.Float64()
	}
	sigma := make([]float64, clusters)
	for c := range sigma {
		sigma[c] = sigmaMin + (sigmaMax-sigmaMin)*r.Float64()
	}
	x := make([]float64, n*d)
	for i := 0; i < n; i++ {
		c := i % clusters
		ctr, row := centres[c*d:(c+1)*d], x[i*d:(i+1)*d]
		for j := range row {
			row[j] = ctr[j] + sigma[c]*r.NormFloat64()
		}
	}
	ds, err := model.NewDataset(nil, n, d, x)
	if err != nil {
		panic(err) // shapes are right by construction
	}
	return ds
}

// sim1 is Sim-1: 100 records x 10 attributes, each uniform on [-1000, 1000].
func sim1(seed uint64) (*model.Dataset, error) {
	const n, d = 100, 10
	if err := checkMemory("sim1 (100 records x 10 attributes)", sizeSum(sizeProduct(8, n, d), sizeProduct(attrNameBytes, d))); err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	r := rand.New(rand.NewPCG(seed, streamSim1))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = sim1Low + (sim1High-sim1Low)*r.Float64()
	}
	return model.NewDataset(nil, n, d, x)
}

// simClustered is Sim-2 (span 1) and Sim-3 (span 2): d uniform in 4..8,
// then 5 clusters of 20 records with centres in [0, span]^d.
func simClustered(seed, stream uint64, span float64) (*model.Dataset, error) {
	r := rand.New(rand.NewPCG(seed, stream))
	d := simDimMin + r.IntN(simDimMax-simDimMin+1)
	if err := checkGauss("sim2/sim3", simClusters*simPerCluster, d, simClusters); err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	return gaussian(r, simClusters*simPerCluster, d, simClusters, span), nil
}
