package enumerate

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// Options control Solve. The zero value (or a nil *Options) asks for the
// single best group with reduced cost below 0, on runtime.GOMAXPROCS(0)
// goroutines, without deadline.
type Options struct {
	// Workers is the number of goroutines; 0 = runtime.GOMAXPROCS(0).
	Workers int
	// MaxColumns is how many distinct groups with the smallest reduced
	// costs below Threshold are returned; 0 = 1.
	MaxColumns int
	// All collects every group with reduced cost < Threshold instead of
	// the MaxColumns best: pruning then uses Threshold only. When more
	// than MaxColumns groups qualify, the search stops with Overflow set
	// (Complete false, Columns a partial list).
	All bool
	// Threshold: only groups with reduced cost < Threshold are returned.
	// Callers pass e.g. -1e-9 to ask for clearly negative reduced costs.
	Threshold float64
	// Deadline stops the search when passed (Complete = false); the zero
	// time means no deadline.
	Deadline time.Time
	// Accept, when not nil, restricts the answer to the groups it accepts
	// (members ascending; the slice must not be retained): the branching
	// constraints of a branch-and-price node, for instance. The bounds
	// stay those of all groups, so they remain valid for the accepted
	// ones. It is called from several goroutines.
	Accept func(members []int) bool
	// Penalty, when not nil, adds a term pen(C) ≥ 0 to the reduced cost
	// of every group C: Columns, Threshold, the cutoff and LowerBound are
	// then about rc(C) + pen(C). pen must never decrease as records join
	// a group (pen(P) ≤ pen(P ∪ {v})), so that the penalty of a partial
	// group bounds that of all its completions and the search prunes on
	// it (the subset-row cut terms of a column generation, for instance).
	Penalty Penalty
}

// Penalty is the non-decreasing term of Options.Penalty.
type Penalty interface {
	// Extra returns pen(P ∪ {v}) − pen(P) ≥ 0 for a partial group P
	// (records in any order, not holding v; the slice must not be
	// retained). It is called from several goroutines.
	Extra(p []int, v int) float64
}

// PenaltyOf is pen(members) summed by Extra in the order of members: the
// value Solve adds to the reduced cost of a group (members ascending).
func PenaltyOf(pen Penalty, members []int) float64 {
	s := 0.0
	for i, v := range members {
		s += pen.Extra(members[:i], v)
	}
	return s
}

// Result is the outcome of one pricing call.
type Result struct {
	// Columns are the groups found, by ascending reduced cost, ties broken
	// by the lexicographic order of Members; every one is < Threshold.
	// When Complete, they are exactly the MaxColumns best groups of size
	// Eta with reduced cost < Threshold (fewer if fewer exist). The
	// ReducedCost values are those of model.SqDist.ReducedCost.
	Columns []model.Column
	// LowerBound is a valid lower bound on the minimum reduced cost over
	// all groups of size Eta. Complete with columns: Columns[0].ReducedCost
	// (the minimum). Complete without columns: Threshold (every group has
	// reduced cost >= Threshold). Incomplete: the minimum of the best found
	// (or Threshold) and the bounds first[a] of the first positions a whose
	// subtrees were not finished (see the package documentation); it is
	// never weaker than RootBound (up to rounding), and equals it when the
	// search stopped before finishing the first subtree.
	LowerBound float64
	// Complete reports that the search finished before the deadline (and,
	// with Options.All, without overflow).
	Complete bool
	// Overflow: with Options.All, more than MaxColumns groups qualify.
	Overflow bool
	// Nodes counts the search-tree nodes visited: partial groups whose
	// bound was computed plus complete groups whose reduced cost was
	// evaluated. With several workers it varies from run to run (the
	// cutoff is shared as it improves); Columns and LowerBound of a
	// complete search do not.
	Nodes int64
}

// Prepared holds the precomputation that depends only on the distance
// matrix: for every record v and q = 0..MaxEta-1 the sum of the q smallest
// distances from v to the other records. Build it once per matrix and call
// its Solve and RootBound with new duals and group sizes. It is safe for
// concurrent use (it is never modified after Prepare).
type Prepared struct {
	dist   *model.SqDist
	n      int
	maxEta int
	// nn[v*maxEta+q] = sum of the q smallest c_vj over j != v.
	nn []float64
	// nnBySize[q*n+v] = nn[v*maxEta+q]: the sums of one q side by side,
	// for the scans over all records of MinShares (anchored.go), which
	// read one q at a time.
	nnBySize []float64
	// Scratch recycled across calls.
	bufs, workers sync.Pool
}

// Prepare checks d (n×n values, finite, symmetric) and precomputes the
// nearest-distance sums for group sizes up to maxEta (1 <= maxEta <= n).
// The cost is O(n² · maxEta) time in the worst case and O(n · maxEta)
// memory; d is kept, not copied, and must not be modified afterwards.
func Prepare(d *model.SqDist, maxEta int) (*Prepared, error) {
	if d == nil {
		return nil, errors.New("enumerate: nil distance matrix")
	}
	n := d.N
	if n < 1 {
		return nil, fmt.Errorf("enumerate: distance matrix of %d records", n)
	}
	if len(d.D) != n*n {
		return nil, fmt.Errorf("enumerate: distance matrix has %d values for %d records", len(d.D), n)
	}
	if maxEta < 1 || maxEta > n {
		return nil, fmt.Errorf("enumerate: maximum group size %d outside 1..%d", maxEta, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := d.D[i*n+j], d.D[j*n+i]
			if math.IsNaN(a) || math.IsInf(a, 0) {
				return nil, fmt.Errorf("enumerate: distance (%d,%d) is %v", i, j, a)
			}
			if a != b {
				return nil, fmt.Errorf("enumerate: distance matrix not symmetric at (%d,%d): %v and %v", i, j, a, b)
			}
		}
	}
	pp := &Prepared{dist: d, n: n, maxEta: maxEta, nn: make([]float64, n*maxEta)}
	q := maxEta - 1
	small := make([]float64, 0, q)
	for v := 0; v < n; v++ {
		small = small[:0]
		row := d.D[v*n : (v+1)*n]
		for j, x := range row {
			if j != v {
				small = insertSmallest(small, q, x)
			}
		}
		s := 0.0
		for i, x := range small {
			s += x
			pp.nn[v*maxEta+i+1] = s
		}
	}
	pp.nnBySize = make([]float64, n*maxEta)
	for v := range n {
		for q := range maxEta {
			pp.nnBySize[q*n+v] = pp.nn[v*maxEta+q]
		}
	}
	return pp, nil
}

// N is the number of records.
func (pp *Prepared) N() int { return pp.n }

// MaxEta is the largest group size the precomputation supports.
func (pp *Prepared) MaxEta() int { return pp.maxEta }

// NearestSum returns the sum of the q smallest distances from record v to
// the other records, for 0 <= q < MaxEta (it panics outside: programmer
// error).
func (pp *Prepared) NearestSum(v, q int) float64 {
	if v < 0 || v >= pp.n || q < 0 || q >= pp.maxEta {
		panic(fmt.Sprintf("enumerate: NearestSum(%d, %d) outside %d records, q < %d", v, q, pp.n, pp.maxEta))
	}
	return pp.nn[v*pp.maxEta+q]
}

// insertSmallest keeps a (ascending, len <= q) as the q smallest values
// seen, inserting x.
func insertSmallest(a []float64, q int, x float64) []float64 {
	if q == 0 {
		return a
	}
	if len(a) == q {
		if x >= a[q-1] {
			return a
		}
		a = a[:q-1]
	}
	i := len(a)
	a = append(a, x)
	for i > 0 && a[i-1] > x {
		a[i] = a[i-1]
		i--
	}
	a[i] = x
	return a
}

// checkDuals validates lambda and eta against the prepared matrix.
func (pp *Prepared) checkDuals(lambda []float64, eta int) error {
	if pp == nil {
		return errors.New("enumerate: nil prepared matrix")
	}
	if len(lambda) != pp.n {
		return fmt.Errorf("enumerate: %d duals for %d records", len(lambda), pp.n)
	}
	for v, l := range lambda {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return fmt.Errorf("enumerate: dual of record %d is %v", v, l)
		}
	}
	if eta < 1 || eta > pp.n {
		return fmt.Errorf("enumerate: group size %d outside 1..%d", eta, pp.n)
	}
	if eta > pp.maxEta {
		return fmt.Errorf("enumerate: group size %d above the prepared maximum %d", eta, pp.maxEta)
	}
	return nil
}

// rootTerms returns t_v = s_v/(2·eta) − λ_v for every record, with s_v the
// sum of the eta−1 smallest distances from v to the other records.
func (pp *Prepared) rootTerms(lambda []float64, eta int) []float64 {
	t := make([]float64, pp.n)
	f := 1 / (2 * float64(eta))
	for v := range t {
		t[v] = pp.nn[v*pp.maxEta+eta-1]*f - lambda[v]
	}
	return t
}

// RootBound returns the sum of the eta smallest t_v = s_v/(2·eta) − λ_v,
// s_v the sum of the eta−1 smallest distances from v to other records: a
// lower bound on the reduced cost of every group of size eta, because
// Σ_{i<j∈C} c_ij = ½ Σ_{v∈C} Σ_{j∈C∖v} c_vj ≥ ½ Σ_{v∈C} s_v. It returns NaN
// for invalid input (see Solve for the conditions).
func (pp *Prepared) RootBound(lambda []float64, eta int) float64 {
	if err := pp.checkDuals(lambda, eta); err != nil {
		return math.NaN()
	}
	t := pp.rootTerms(lambda, eta)
	small := make([]float64, 0, eta)
	for _, x := range t {
		small = insertSmallest(small, eta, x)
	}
	s := 0.0
	for _, x := range small {
		s += x
	}
	return s
}

// RootBound is Prepared.RootBound for one instance (O(n² + n·Eta)); NaN if
// the instance is malformed.
func RootBound(p *model.PricingInstance) float64 {
	if p == nil || p.Check() != nil {
		return math.NaN()
	}
	pp, err := Prepare(p.Dist, p.Eta)
	if err != nil {
		return math.NaN()
	}
	return pp.RootBound(p.Lambda, p.Eta)
}

// Solve finds the groups of size p.Eta with the smallest reduced costs
// below opts.Threshold by complete enumeration with bounds (see the package
// documentation). It prepares p.Dist on every call; callers pricing many
// dual vectors on one matrix should use Prepare and Prepared.Solve.
func Solve(p *model.PricingInstance, opts *Options) (*Result, error) {
	if p == nil {
		return nil, errors.New("enumerate: nil pricing instance")
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("enumerate: %w", err)
	}
	pp, err := Prepare(p.Dist, p.Eta)
	if err != nil {
		return nil, err
	}
	return pp.Solve(p.Lambda, p.Eta, opts)
}

// Solve prices the duals lambda for groups of size eta (1 <= eta <=
// MaxEta). Errors: wrong number of duals, a non-finite dual, eta out of
// range, negative Workers or MaxColumns, NaN Threshold.
func (pp *Prepared) Solve(lambda []float64, eta int, opts *Options) (*Result, error) {
	if err := pp.checkDuals(lambda, eta); err != nil {
		return nil, err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("enumerate: %d workers", o.Workers)
	}
	if o.MaxColumns < 0 {
		return nil, fmt.Errorf("enumerate: MaxColumns %d", o.MaxColumns)
	}
	if math.IsNaN(o.Threshold) {
		return nil, errors.New("enumerate: NaN threshold")
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MaxColumns == 0 {
		o.MaxColumns = 1
	}
	return newSearch(pp, lambda, eta, &o).run(), nil
}
