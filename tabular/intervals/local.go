package intervals

import (
	"slices"

	"github.com/sdcopt/sdcopt/solvers"
)

// LocalDepth is the largest distance d, in the graph joining a cell to
// the relations that contain it, of the local relaxations that Compute
// tries before a cell's own solve in its component (see doc.go, "Local
// relaxations"): d = 1 keeps the relations of the cell, d = 2 adds the
// relations of their other cells, and so on.
const LocalDepth = 3

// localMinRows is the least number of relations of a component whose
// cells try local relaxations: the relaxation at d = 3 has a few hundred
// rows in a 3-way table, and a warm-started solve of a component not
// much larger costs less than it. A variable so that tests can try them
// on small components.
var localMinRows = 500

// localMinDepth is the first distance tried: at d = 1 (the cell's own
// relations) the relaxation's bound was never reached by a seen point on
// that table where the one-relation bounds of provenBySeen were not.
const localMinDepth = 2

// localNeighbourhood returns the live rows within distance d of variable
// j (rows whose undetermined cells are at most d−1 rows away from j) and
// the undetermined variables of those rows, both increasing.
func (a *attacker) localNeighbourhood(j, d int) (rows, vars []int) {
	open := func(v int) bool { return a.fix == nil || !a.fix.is[v] }
	live := func(i int) bool { return a.fix == nil || a.fix.live[i] }
	seenRow := map[int]bool{}
	seenVar := map[int]bool{j: true}
	frontier := []int{j}
	vars = []int{j}
	for step := 0; step < d && len(frontier) > 0; step++ {
		var next []int
		for _, v := range frontier {
			for _, i := range a.varRows[v] {
				if seenRow[i] || !live(i) {
					continue
				}
				seenRow[i] = true
				rows = append(rows, i)
				for _, e := range a.rows[i] {
					if open(e.v) && !seenVar[e.v] {
						seenVar[e.v] = true
						vars = append(vars, e.v)
						next = append(next, e.v)
					}
				}
			}
		}
		frontier = next
	}
	slices.Sort(rows)
	slices.Sort(vars)
	return rows, vars
}

// localBound solves min or max x_j over the relations within distance d
// of j, the other cells keeping only their prior bounds. That LP is a
// relaxation of the component's, so its optimum bounds x_j's end, and its
// row duals, lifted to the whole problem and 0 on every other row, are a
// certificate of that bound (a cell outside the neighbourhood meets no
// row with a nonzero dual, so its reduced cost is 0). ok is false when
// the local LP is not solved to optimality (an unbounded relaxation
// proves nothing finite) or when its duals do not prove its optimum
// (checked by the exact check of Verify, with or without
// Settings.NoCertificates). rows and vars are localNeighbourhood's.
func (a *attacker) localBound(sv solvers.Solver, j int, rows, vars []int, sense solvers.Sense, s *Settings) (v float64, cert *Certificate, ok bool, err error) {
	if len(rows) == 0 {
		return 0, nil, false, nil
	}
	local := make(map[int]int, len(vars))
	for l, v := range vars {
		local[v] = l
	}
	p := a.subproblem(component{vars: vars, rows: rows}, local, false)
	p.Sense = sense
	p.Obj[local[j]] = 1
	r, err := sv.Solve(p, s.Params)
	if err != nil {
		return 0, nil, false, err
	}
	if r.Status != solvers.Optimal || !r.HasDuals {
		return 0, nil, false, nil
	}
	v = snap(r.Objective) + 0
	cert = newCertificate(r, sense, v)
	for k, i := range cert.Rows {
		cert.Rows[k] = rows[i]
	}
	if a.fix != nil {
		cert.Rows, cert.Y = a.fix.lift(a, cert.Rows, cert.Y)
	}
	for k, x := range cert.Vars {
		cert.Vars[k] = vars[x]
	}
	// The bound is used only when its duals prove it: CLP's presolve
	// has been seen to call an unbounded local LP optimal (max x_j = 0
	// where x_j is unbounded), and a wrong local bound would be taken
	// for a sharp end as soon as a seen point reaches it.
	if a.check(j, sense, v, cert) != nil {
		return 0, nil, false, nil
	}
	if s.NoCertificates {
		cert = nil
	}
	return v, cert, true, nil
}

// provenLocally tries the local relaxations of distance localMinDepth to
// LocalDepth for variable j's end on the side of sense. The end is
// proven, and sharp, when a feasible point seen so far reaches a local
// bound (seen is the extreme value of x_j in them). The search stops
// early when the neighbourhood is the whole component.
func (a *attacker) provenLocally(sv solvers.Solver, j int, sense solvers.Sense, seen float64, compRows int, s *Settings, st *compStats) (float64, *Certificate, bool, error) {
	for d := localMinDepth; d <= LocalDepth; d++ {
		rows, vars := a.localNeighbourhood(j, d)
		v, cert, ok, err := a.localBound(sv, j, rows, vars, sense, s)
		st.localSolves++
		if err != nil {
			return 0, nil, false, err
		}
		if !ok {
			continue
		}
		if reaches(seen, v, sense) {
			return v, cert, true, nil
		}
		if len(rows) >= compRows {
			break
		}
	}
	return 0, nil, false, nil
}
