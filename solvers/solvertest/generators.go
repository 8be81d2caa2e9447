package solvertest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcopt/sdcopt/solvers"
)

// RandomLP returns a feasible, bounded LP with m rows and n columns drawn
// from rng. It mixes every bound type the solver layer supports: boxed,
// lower-only, upper-only, fixed and free columns; equality, ≤, ≥, ranged and
// free rows. Feasibility comes from building the row bounds around A·x0 for
// a random point x0 inside the column bounds; boundedness from giving
// half-infinite columns an objective coefficient that pushes them towards
// their finite bound and putting every free column into a ranged row of its
// own. The sense is drawn at random.
func RandomLP(rng *rand.Rand, m, n int) *solvers.Problem {
	p := &solvers.Problem{Name: fmt.Sprintf("randlp_%dx%d", m, n)}
	if rng.IntN(2) == 1 {
		p.Sense = solvers.Maximize
	}
	dir := 1.0 // objective push towards the finite bound, for minimization
	if p.Sense == solvers.Maximize {
		dir = -1
	}
	x0 := make([]float64, n)
	type col struct {
		obj, lo, up float64
		free        bool
	}
	cols := make([]col, n)
	for j := range cols {
		c := col{obj: float64(rng.IntN(21) - 10)}
		base := float64(rng.IntN(11) - 5)
		switch k := rng.IntN(10); {
		case k < 4: // boxed
			c.lo, c.up = base, base+float64(1+rng.IntN(10))
			x0[j] = c.lo + rng.Float64()*(c.up-c.lo)
		case k < 6: // lower only
			c.lo, c.up = base, math.Inf(1)
			c.obj = dir * float64(1+rng.IntN(10))
			x0[j] = c.lo + 5*rng.Float64()
		case k < 7: // upper only
			c.lo, c.up = math.Inf(-1), base
			c.obj = -dir * float64(1+rng.IntN(10))
			x0[j] = c.up - 5*rng.Float64()
		case k < 8: // fixed
			c.lo, c.up = base, base
			x0[j] = base
		default: // free
			c.lo, c.up, c.free = math.Inf(-1), math.Inf(1), true
			x0[j] = 10*rng.Float64() - 5
		}
		cols[j] = c
	}
	// Random sparse rows.
	type term struct {
		col int
		val float64
	}
	rows := make([][]term, 0, m+n)
	for i := 0; i < m; i++ {
		var r []term
		for j := 0; j < n; j++ {
			if rng.Float64() < 0.4 {
				r = append(r, term{j, float64(rng.IntN(19) - 9)})
			}
		}
		rows = append(rows, r)
	}
	var lo, up []float64
	for i, r := range rows {
		ax := 0.0
		for _, t := range r {
			ax += t.val * x0[t.col]
		}
		s1, s2 := 1+5*rng.Float64(), 1+5*rng.Float64()
		var l, u float64
		switch k := rng.IntN(10); {
		case k < 2:
			l, u = ax, ax // equality
		case k < 5:
			l, u = math.Inf(-1), ax+s1
		case k < 8:
			l, u = ax-s1, math.Inf(1)
		case k < 9:
			l, u = ax-s1, ax+s2
		default:
			l, u = math.Inf(-1), math.Inf(1)
		}
		_ = i
		lo, up = append(lo, l), append(up, u)
	}
	// A ranged row of its own for every free column keeps the LP bounded.
	for j, c := range cols {
		if c.free {
			rows = append(rows, []term{{j, 1}})
			lo, up = append(lo, x0[j]-1-3*rng.Float64()), append(up, x0[j]+1+3*rng.Float64())
		}
	}
	for i := range rows {
		p.AddRow(lo[i], up[i], "")
	}
	byCol := make([][]term, n)
	for i, r := range rows {
		for _, t := range r {
			byCol[t.col] = append(byCol[t.col], term{i, t.val})
		}
	}
	for j, c := range cols {
		var ri []int
		var va []float64
		for _, t := range byCol[j] {
			ri = append(ri, t.col)
			va = append(va, t.val)
		}
		p.AddCol(c.obj, c.lo, c.up, solvers.Continuous, ri, va, "")
	}
	p.Offset = float64(rng.IntN(7) - 3)
	return p
}

// RandomIntegerProgram returns a small pure-integer program (n ≤ 6 columns
// with bounds inside [-2, 4], m random rows) that has a feasible point, so it
// can be solved by Enumerate.
func RandomIntegerProgram(rng *rand.Rand, m, n int) *solvers.Problem {
	p := &solvers.Problem{Name: fmt.Sprintf("randip_%dx%d", m, n)}
	if rng.IntN(2) == 1 {
		p.Sense = solvers.Maximize
	}
	x0 := make([]float64, n)
	los := make([]float64, n)
	ups := make([]float64, n)
	types := make([]solvers.VarType, n)
	for j := 0; j < n; j++ {
		if rng.IntN(3) == 0 {
			types[j], los[j], ups[j] = solvers.Binary, 0, 1
		} else {
			types[j] = solvers.Integer
			los[j] = float64(rng.IntN(3) - 2)
			ups[j] = los[j] + float64(1+rng.IntN(4))
		}
		x0[j] = los[j] + float64(rng.IntN(int(ups[j]-los[j])+1))
	}
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		ax := 0.0
		for j := range a[i] {
			if rng.Float64() < 0.7 {
				a[i][j] = float64(rng.IntN(13) - 6)
			}
			ax += a[i][j] * x0[j]
		}
		switch rng.IntN(4) {
		case 0:
			p.AddRow(ax, ax, "")
		case 1:
			p.AddRow(math.Inf(-1), ax+float64(rng.IntN(4)), "")
		case 2:
			p.AddRow(ax-float64(rng.IntN(4)), math.Inf(1), "")
		default:
			p.AddRow(ax-float64(rng.IntN(3)), ax+float64(rng.IntN(3)), "")
		}
	}
	for j := 0; j < n; j++ {
		var ri []int
		var va []float64
		for i := 0; i < m; i++ {
			if a[i][j] != 0 {
				ri = append(ri, i)
				va = append(va, a[i][j])
			}
		}
		p.AddCol(float64(rng.IntN(21)-10), los[j], ups[j], types[j], ri, va, "")
	}
	return p
}

// Enumerate solves a pure-integer program with finite bounds by visiting
// every integer point. It returns ok = false when no point is feasible. It
// panics if a column is continuous or unbounded (programmer error).
func Enumerate(p *solvers.Problem) (best float64, x []float64, ok bool) {
	n := p.NumCols()
	lo := make([]float64, n)
	up := make([]float64, n)
	for j := 0; j < n; j++ {
		if p.Type(j) == solvers.Continuous {
			panic("solvertest: Enumerate needs integer columns")
		}
		l, u := p.Bounds(j)
		if math.IsInf(l, 0) || math.IsInf(u, 0) {
			panic("solvertest: Enumerate needs finite bounds")
		}
		lo[j], up[j] = math.Ceil(l), math.Floor(u)
	}
	cur := append([]float64(nil), lo...)
	for {
		feasible := true
		ax := p.RowActivity(cur)
		for i := range ax {
			if ax[i] < p.RowLower[i]-1e-9 || ax[i] > p.RowUpper[i]+1e-9 {
				feasible = false
				break
			}
		}
		if feasible {
			v := p.ObjectiveValue(cur)
			better := !ok || (p.Sense == solvers.Minimize && v < best) || (p.Sense == solvers.Maximize && v > best)
			if better {
				best, x, ok = v, append([]float64(nil), cur...), true
			}
		}
		j := 0
		for j < n {
			if cur[j] < up[j] {
				cur[j]++
				break
			}
			cur[j] = lo[j]
			j++
		}
		if j == n {
			return best, x, ok
		}
	}
}

// Transportation returns a balanced transportation LP with m sources and n
// sinks: minimize Σ c_ij x_ij subject to Σ_j x_ij = s_i, Σ_i x_ij = d_j,
// x ≥ 0, integer costs in [1, 100].
func Transportation(rng *rand.Rand, m, n int) *solvers.Problem {
	p := &solvers.Problem{Name: fmt.Sprintf("transport_%dx%d", m, n)}
	supply := make([]float64, m)
	demand := make([]float64, n)
	total := 0.0
	for i := range supply {
		supply[i] = float64(10 + rng.IntN(91))
		total += supply[i]
	}
	// Spread the total over the sinks so the problem is balanced.
	rest := total
	for j := range demand {
		if j == n-1 {
			demand[j] = rest
			break
		}
		demand[j] = math.Floor(total / float64(n))
		rest -= demand[j]
	}
	for i := range supply {
		p.AddRow(supply[i], supply[i], "")
	}
	for j := range demand {
		p.AddRow(demand[j], demand[j], "")
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			p.AddCol(float64(1+rng.IntN(100)), 0, math.Inf(1), solvers.Continuous, []int{i, m + j}, []float64{1, 1}, "")
		}
	}
	return p
}

// SetPartitioning returns a set-partitioning problem with m rows and n
// columns: minimize Σ w_C x_C subject to Σ_{C ∋ i} x_C = 1 for every row i,
// 0 ≤ x ≤ 1, binary when integer is true. The first m columns are the
// singletons with a high cost, so the problem is always feasible; the other
// columns cover 2..maxSize random rows with a cost that rewards larger
// sets, as in the master problem of column generation.
func SetPartitioning(rng *rand.Rand, m, n, maxSize int, integer bool) *solvers.Problem {
	p := &solvers.Problem{Name: fmt.Sprintf("setpart_%dx%d", m, n)}
	for i := 0; i < m; i++ {
		p.AddRow(1, 1, "")
	}
	t := solvers.Continuous
	if integer {
		t = solvers.Binary
	}
	for k := 0; k < n; k++ {
		rows := SetPartitioningColumn(rng, m, k, maxSize)
		vals := make([]float64, len(rows))
		for i := range vals {
			vals[i] = 1
		}
		p.AddCol(SetPartitioningCost(rng, len(rows)), 0, 1, t, rows, vals, "")
	}
	return p
}

// SetPartitioningColumn draws the rows of column k of SetPartitioning.
func SetPartitioningColumn(rng *rand.Rand, m, k, maxSize int) []int {
	if k < m {
		return []int{k}
	}
	size := 2 + rng.IntN(maxSize-1)
	perm := rng.Perm(m)[:size]
	sortInts(perm)
	return perm
}

// SetPartitioningCost draws the cost of a column covering size rows.
func SetPartitioningCost(rng *rand.Rand, size int) float64 {
	if size == 1 {
		return 100
	}
	return float64(size)*(10+rng.Float64()*20) + rng.Float64()*10
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// Knapsack returns a multi-dimensional 0-1 knapsack: maximize Σ v_j x_j
// subject to m capacity rows Σ w_ij x_j ≤ cap_i, x binary, with weights
// correlated to values (the hard kind) and capacities half the row sums.
func Knapsack(rng *rand.Rand, m, n int) *solvers.Problem {
	p := &solvers.Problem{Name: fmt.Sprintf("knapsack_%dx%d", m, n), Sense: solvers.Maximize}
	w := make([][]float64, m)
	for i := range w {
		w[i] = make([]float64, n)
		sum := 0.0
		for j := range w[i] {
			w[i][j] = float64(1 + rng.IntN(100))
			sum += w[i][j]
		}
		p.AddRow(math.Inf(-1), math.Floor(sum/2), "")
	}
	for j := 0; j < n; j++ {
		ri := make([]int, m)
		va := make([]float64, m)
		v := 0.0
		for i := 0; i < m; i++ {
			ri[i], va[i] = i, w[i][j]
			v += w[i][j]
		}
		p.AddCol(v/float64(m)+float64(rng.IntN(10)), 0, 1, solvers.Binary, ri, va, "")
	}
	return p
}

// MarketSplit returns the optimization form of a Cornuéjols–Dawande market
// split instance with m rows and n = 10(m-1) binary columns: minimize the
// total slack Σ (s⁺_i + s⁻_i) subject to Σ_j a_ij x_j + s⁺_i - s⁻_i = d_i,
// a_ij uniform in [0, 99], d_i = ⌊Σ_j a_ij / 2⌋. Every x is feasible (the
// slacks absorb the difference), so an incumbent is found at once, while
// proving optimality is notoriously hard for branch and bound: the
// instance exercises time limits.
func MarketSplit(rng *rand.Rand, m int) *solvers.Problem {
	n := 10 * (m - 1)
	p := &solvers.Problem{Name: fmt.Sprintf("marketsplit_%d", m)}
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		sum := 0.0
		for j := range a[i] {
			a[i][j] = float64(rng.IntN(100))
			sum += a[i][j]
		}
		d := math.Floor(sum / 2)
		p.AddRow(d, d, "")
	}
	for j := 0; j < n; j++ {
		ri := make([]int, m)
		va := make([]float64, m)
		for i := 0; i < m; i++ {
			ri[i], va[i] = i, a[i][j]
		}
		p.AddCol(0, 0, 1, solvers.Binary, ri, va, "")
	}
	for i := 0; i < m; i++ {
		p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{i}, []float64{1}, "")
		p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{i}, []float64{-1}, "")
	}
	return p
}
