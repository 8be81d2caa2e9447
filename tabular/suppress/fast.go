package suppress

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// The fast method (MethodFast) protects each primary cell by a hypercube
// of its table, then audits the whole pattern and repairs what the audit
// finds.
//
// # Hypercubes in hierarchical tables
//
// In one dimension with hierarchy h the relations are x = Σ children(x)
// for every non-leaf code x. Call s a balanced vector of h when
// s(x) = Σ_{c ∈ children(x)} s(c) at every non-leaf x. For a table over
// dimensions 1..k with balanced vectors s_1..s_k, the deviation
// d(c_1..c_k) = δ·Π s_e(c_e) satisfies every relation of the table: a
// relation of dimension e with the other codes fixed sums to
// Π_{f≠e} s_f(c_f) · (Σ s_e(children) − s_e(x)) = 0. With s_e ∈ {−1, 0, 1}
// its support is the "hypercube" of Repsilber's GHMITER (Hundepool et al.
// 2012, Statistical Disclosure Control, chapter 4, on the hypercube method): in
// a flat dimension s_e is a pair of codes (+1 at the primary cell's code,
// −1 at another leaf, or +1 at the total), and in a hierarchy it is a
// path: the chain from the primary cell's code down to one of its leaves
// (+1), joined either to a sibling's chain down to a leaf (−1) or to the
// chain of ancestors up to the root (+1). These are the candidates of
// dimOptions; the product of one candidate per dimension is a cube.
//
// A cube protects primary cell p for its upper level U when every corner
// may be suppressed and can move by U the way its sign says (a corner of
// sign −1 needs LB ≥ U, its value above its prior lower bound by U); then
// the attacker can follow d with δ = U, whatever else is suppressed
// (suppressing more only enlarges P(y)). The lower level is the same with
// the signs reversed. The cube's cost is the cost of its corners not yet
// suppressed; for each target (in cell order, upper before lower) the
// cheapest cube among the candidates is suppressed. To bound the search,
// each dimension keeps its cubeCombos^(1/k) cheapest candidates, ranked by
// the cells of the cube's edges through p (the corners that differ from p
// in that dimension only), and the products of the kept candidates are
// compared exactly.
//
// Unlike GHMITER the cube lives in the whole hierarchical table, not in a
// non-hierarchical subtable: the balanced vectors make every relation of
// every level hold at once, so a cube chosen for a table of one System is
// a valid deviation of that table. For a table this makes the pattern
// safe by construction (every target keeps its cube as a witness); in a
// System a corner may also lie in another table's relations, and a
// target without any feasible cube is left open.
//
// # The decision audit
//
// A cube is also a proof. With its signs w ∈ {−1, 0, 1} over the corners
// (+1 where the corner moves the target's way) and δ the level, the true
// table plus δ·w is a point of the attacker's polytope: the relations
// hold since A w = 0, the bounds since every corner can move by δ. So the
// attacker's interval of the target cell reaches its level, and every
// corner's interval is wider than one point. When every target has a
// cube, intervals.Decide checks the kept cubes exactly (A w = 0 in
// integer arithmetic over every relation of the table or System, the
// bounds of the full audit's priors in big.Rat, each corner suppressed
// in the final pattern) and, when every primary cell's levels are
// reached and every suppressed cell is moved, the audit's verdict is a
// pass, proven without an LP: Audit on the exact intervals answers the
// same questions (a level reached or not, an interval one point or not)
// with LP ends and tolerances. Result.Decided says so, and Result.Audit
// is then a Report without findings. The repairs below add their
// deviations as moves when these are integer multiples of one step (the
// level, or 1: an LP vertex on integer data), and the decision is tried
// again before each full audit. A cube of one table of a System whose
// corners lie in another table's relations is refused by the check, and
// a requirement no move meets leaves the decision open: then, and with
// Settings.ExactAudit, the full audit below runs.
//
// # Audit and repair
//
// Otherwise the pattern is audited like every pattern of the package:
// the attacker LPs of intervals.Compute over the whole table or System,
// and intervals.Audit. Every under-protected (or disclosed) primary cell is
// repaired by the protection LP of the heuristic (heuristic.go), over the
// whole problem: min Σ w_j (u_j + v_j) over u − v ∈ {d : A d = 0} within
// the capacities, u_p ≥ level (or v_p ≥ level), w_j = 0 on suppressed
// cells and c_j·(1 + ε) (at least ε) elsewhere; the cells it moves are
// suppressed, and the attacker can follow the same d. The audit runs
// again until it passes (at most maxRepairRounds rounds), so what is
// returned passes the audit of the whole system, not of each subtable.
// A suppressed secondary cell the audit finds disclosed is published, as
// in Solve.
//
// No lower bound is computed: the LP relaxation needs the separation loop
// (one attacker LP per target and round), which is what makes the
// optimal method slow; Result.LowerBound is 0.

// Constants of the fast method.
const (
	// cubeCombos bounds the cubes compared per target: each of the k
	// dimensions keeps its ⌊cubeCombos^(1/k)⌋ cheapest candidates (at
	// least 2).
	cubeCombos = 2000
	// maxDimOptions bounds the balanced vectors listed per dimension.
	maxDimOptions = 4096
	// maxRepairRounds bounds the audit-and-repair rounds. One round
	// suffices in exact arithmetic (each repair's d stays feasible).
	maxRepairRounds = 5
	// maxCubePasses bounds the passes of the cube phase (the first
	// choice, then the re-choices with the other cubes' corners free).
	maxCubePasses = 10
)

// SolveFast finds a safe secondary suppression pattern for t with
// hypercubes, an audit of the whole table and repairs (see MethodFast),
// in seconds where Solve takes minutes; its cost is not minimal. The
// audit is decided by the cubes and the repairs' integral deviations
// when they meet every requirement (Result.Decided; exact, no LP), else,
// or with Settings.ExactAudit, it is intervals.Compute and
// intervals.Audit, followed by repairs. The
// input checks, errors and Result are those of Solve, with Stop
// StopHeuristic and LowerBound 0; Settings.Schedule is not used, and the
// time limit (Params.TimeLimit, Params.Deadline) only cuts the cube
// phase's later passes short: the first cubes, the audit and the repairs
// always run to the end, as the pattern's safety depends on them. A nil
// t panics.
func SolveFast(t *tabular.Table, s *Settings) (*Result, error) {
	geo := []cubeTable{{t: t}}
	home := func(g int) (int, int) { return 0, g }
	return solveFast(tableSource(t), geo, home, s, tableAudit(t, s), tableDecide(t, s))
}

// SolveSystemFast is SolveFast for linked tables: each primary cell's
// cube is taken in the first table that holds it, and the audit and
// repairs are over the whole System.
func SolveSystemFast(sys *tabular.System, s *Settings) (*Result, error) {
	geo := make([]cubeTable, len(sys.Tables))
	for k, t := range sys.Tables {
		geo[k] = cubeTable{t: t, glob: sys.Global[k]}
	}
	home := func(g int) (int, int) {
		r := sys.Cells[g].Refs[0]
		return r.Table, r.Cell
	}
	return solveFast(systemSource(sys), geo, home, s, systemAudit(sys, s), systemDecide(sys, s))
}

// decideFunc decides the audit of a pattern from moves (intervals.Decide).
type decideFunc func(st []tabular.Status, levels intervals.Levels, moves []intervals.Move) (*intervals.Decision, error)

// tableDecide returns the decision audit of t under a pattern, with the
// prior bounds of the full audit (auditSettings).
func tableDecide(t *tabular.Table, s *Settings) decideFunc {
	return func(st []tabular.Status, levels intervals.Levels, moves []intervals.Move) (*intervals.Decision, error) {
		c := *t
		c.Cells = slices.Clone(t.Cells)
		for i := range c.Cells {
			c.Cells[i].Status = st[i]
		}
		return intervals.Decide(&c, levels, moves, auditSettings(s))
	}
}

// systemDecide is tableDecide for a System.
func systemDecide(sys *tabular.System, s *Settings) decideFunc {
	return func(st []tabular.Status, levels intervals.Levels, moves []intervals.Move) (*intervals.Decision, error) {
		c := *sys
		c.Cells = slices.Clone(sys.Cells)
		for i := range c.Cells {
			c.Cells[i].Status = st[i]
		}
		return intervals.DecideSystem(&c, levels, moves, auditSettings(s))
	}
}

// cubeTable is a table in which cubes are built.
type cubeTable struct {
	t    *tabular.Table
	glob []int // source cell of each cell of t; nil: the same index
}

func (ct *cubeTable) global(i int) int {
	if ct.glob == nil {
		return i
	}
	return ct.glob[i]
}

// dimOption is a balanced vector of one dimension: codes[0] is the
// primary cell's code, with sign +1.
type dimOption struct {
	codes []int
	signs []float64
}

// downChains returns up to limit chains from x down to a leaf (each
// starting with x), in the order of the children.
func downChains(h *tabular.Hierarchy, x, limit int) [][]int {
	if h.IsLeaf(x) {
		return [][]int{{x}}
	}
	var out [][]int
	for _, c := range h.Children(x) {
		for _, ch := range downChains(h, c, limit-len(out)) {
			out = append(out, append([]int{x}, ch...))
			if len(out) >= limit {
				return out
			}
		}
	}
	return out
}

// dimOptions returns the balanced vectors of h with +1 at x that the
// fast method considers (see the comment at the top of this file): a
// chain down from x joined to the ancestors of x, or to a sibling's chain
// down with sign −1; for the root, the chain down alone.
func dimOptions(h *tabular.Hierarchy, x int) []dimOption {
	downs := downChains(h, x, maxDimOptions)
	plus := func(codes []int) []float64 {
		s := make([]float64, len(codes))
		for k := range s {
			s[k] = 1
		}
		return s
	}
	par := h.Parent(x)
	var out []dimOption
	if par < 0 {
		for _, a := range downs {
			out = append(out, dimOption{codes: a, signs: plus(a)})
		}
		return out
	}
	var anc []int
	for q := par; q >= 0; q = h.Parent(q) {
		anc = append(anc, q)
	}
	for _, a := range downs {
		codes := append(slices.Clone(a), anc...)
		out = append(out, dimOption{codes: codes, signs: plus(codes)})
		for _, y := range h.Children(par) {
			if y == x {
				continue
			}
			for _, b := range downChains(h, y, maxDimOptions-len(out)) {
				codes := append(slices.Clone(a), b...)
				signs := plus(codes)
				for k := len(a); k < len(codes); k++ {
					signs[k] = -1
				}
				out = append(out, dimOption{codes: codes, signs: signs})
				if len(out) >= maxDimOptions {
					return out
				}
			}
		}
	}
	return out
}

// fastSearch is the state of one SolveFast.
type fastSearch struct {
	m   *model
	s   *Settings
	sup []bool // per master variable
	// use counts, per master variable, the cubes that have it as a
	// corner (during the cube phase: sup[v] is use[v] > 0).
	use  []int
	res  *Result
	heur *heuristic
	// moves are the kept cubes as moves of the attacker (see cubes).
	moves []intervals.Move
	// opts caches dimOptions, which every target of a code and every
	// pass asks for again.
	opts map[dimCode][]dimOption
}

// dimCode is a code of a hierarchy.
type dimCode struct {
	h *tabular.Hierarchy
	x int
}

// dimOptions is the package's dimOptions, computed once per code (the
// options are only read).
func (fs *fastSearch) dimOptions(h *tabular.Hierarchy, x int) []dimOption {
	k := dimCode{h, x}
	o, ok := fs.opts[k]
	if !ok {
		if fs.opts == nil {
			fs.opts = map[dimCode][]dimOption{}
		}
		o = dimOptions(h, x)
		fs.opts[k] = o
	}
	return o
}

// corner evaluates source cell g as a corner of sign sign of a cube for
// target t: whether it can be suppressed and move by the level the way
// the sign says, and the cost of suppressing it (0 when it is).
func (fs *fastSearch) corner(t target, g int, sign float64) (cost float64, fresh, ok bool) {
	m := fs.m
	c := m.colOf[g]
	if c < 0 {
		return 0, false, false
	}
	room := m.ub[c]
	if (sign > 0) != t.up {
		room = m.lb[c]
	}
	if room < t.level-levelTol*math.Max(1, t.level) {
		return 0, false, false
	}
	v := m.vr[c]
	if v < 0 || fs.use[v] > 0 {
		return 0, false, true
	}
	return m.cost[v], true, true
}

// cubeCost returns the cost and the number of new cells of the cube of
// opts around codes (codes is used as scratch and restored), or ok false
// when a corner is unusable or the cost exceeds bound.
func (fs *fastSearch) cubeCost(t target, ct *cubeTable, codes []int, opts []*dimOption, bound float64, visit func(g int, sign float64)) (cost float64, fresh int, ok bool) {
	nd := len(codes)
	// Scratch on the stack for tables of up to 8 dimensions.
	var origBuf, idxBuf [8]int
	orig, idx := origBuf[:0], idxBuf[:0]
	if nd > len(origBuf) {
		orig, idx = make([]int, 0, nd), make([]int, 0, nd)
	}
	orig = append(orig, codes...)
	idx = idx[:nd]
	defer copy(codes, orig)
	for {
		sign := 1.0
		for d := range nd {
			codes[d] = opts[d].codes[idx[d]]
			sign *= opts[d].signs[idx[d]]
		}
		g := ct.global(ct.t.Index(codes))
		c, f, cok := fs.corner(t, g, sign)
		if !cok {
			return 0, 0, false
		}
		if visit != nil {
			visit(g, sign)
		}
		cost += c
		if f {
			fresh++
		}
		if cost > bound {
			return 0, 0, false
		}
		d := nd - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < len(opts[d].codes) {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return cost, fresh, true
		}
	}
}

// cube returns the master variables of the cheapest cube that protects
// target t, whose primary cell is cell local of ct (corners in use by
// other cubes cost nothing), the cube as a move of the attacker (its
// corners, by source cell, with the signs of the deviation that follows
// the target's direction, and the level as its step) and whether there
// is one.
func (fs *fastSearch) cube(t target, ct *cubeTable, local int) ([]int, intervals.Move, bool) {
	codes := ct.t.CodeIndices(local, nil)
	nd := len(codes)
	keep := max(2, int(math.Floor(math.Pow(cubeCombos, 1/float64(nd))+1e-9)))
	type scored struct {
		o     dimOption
		cost  float64
		fresh int
	}
	short := make([][]scored, nd)
	one := make([]*dimOption, nd)
	self := make([]dimOption, nd)
	for d := range nd {
		self[d] = dimOption{codes: []int{codes[d]}, signs: []float64{1}}
		one[d] = &self[d]
	}
	for d := range nd {
		var sc []scored
		for _, o := range fs.dimOptions(ct.t.Dims[d].H, codes[d]) {
			one[d] = &o
			cost, fresh, ok := fs.cubeCost(t, ct, codes, one, math.Inf(1), nil)
			if ok {
				sc = append(sc, scored{o, cost, fresh})
			}
		}
		one[d] = &self[d]
		if len(sc) == 0 {
			return nil, intervals.Move{}, false
		}
		slices.SortStableFunc(sc, func(a, b scored) int {
			if c := cmp.Compare(a.cost, b.cost); c != 0 {
				return c
			}
			return cmp.Compare(a.fresh, b.fresh)
		})
		short[d] = sc[:min(len(sc), keep)]
	}
	// Compare the products of the kept candidates, in order.
	idx := make([]int, nd)
	opts := make([]*dimOption, nd)
	var best []int
	bestCost, bestFresh := math.Inf(1), 0
	for {
		for d := range nd {
			opts[d] = &short[d][idx[d]].o
		}
		cost, fresh, ok := fs.cubeCost(t, ct, codes, opts, bestCost, nil)
		if ok && (cost < bestCost || cost == bestCost && fresh < bestFresh) {
			best, bestCost, bestFresh = slices.Clone(idx), cost, fresh
			if fresh == 0 {
				break // nothing new to suppress: no cube is cheaper
			}
		}
		d := nd - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < len(short[d]) {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			break
		}
	}
	if best == nil {
		return nil, intervals.Move{}, false
	}
	for d := range nd {
		opts[d] = &short[d][best[d]].o
	}
	vars := []int{} // not nil: a cube of primary cells only is a cube
	mv := intervals.Move{Step: t.level}
	fs.cubeCost(t, ct, codes, opts, math.Inf(1), func(g int, sign float64) {
		if v := fs.m.vr[fs.m.colOf[g]]; v >= 0 {
			vars = append(vars, v)
		}
		w := 1
		if (sign > 0) != t.up {
			w = -1
		}
		mv.Cells = append(mv.Cells, g)
		mv.Mult = append(mv.Mult, w)
	})
	return vars, mv, true
}

// cubes chooses a cube for every target, in order, then, while the
// cost falls (at most maxCubePasses passes, and not past the deadline),
// chooses each target's cube again with the other cubes' corners at no
// cost: a corner no cube keeps is published. Every target keeps a cube
// that protects it (within its table), so each pass leaves the pattern
// as safe as before. It returns the targets without a cube, and keeps
// the cubes kept as moves in fs.moves.
func (fs *fastSearch) cubes(geo []cubeTable, home func(int) (int, int), deadline time.Time) []int {
	m := fs.m
	certs := make([][]int, len(m.targets))
	moves := make([]intervals.Move, len(m.targets))
	var open []int
	choose := func(ti int) {
		t := m.targets[ti]
		for _, v := range certs[ti] {
			fs.use[v]--
		}
		k, local := home(t.cell)
		vars, mv, ok := fs.cube(t, &geo[k], local)
		if ok {
			// The kept candidates need not include the old cube: keep it
			// when none of them is usable.
			certs[ti], moves[ti] = vars, mv
		}
		for _, v := range certs[ti] {
			fs.use[v]++
		}
	}
	cost := func() float64 {
		c := 0.0
		for v, n := range fs.use {
			if n > 0 {
				c += m.cost[v]
			}
		}
		return c
	}
	for ti := range m.targets {
		choose(ti)
		if certs[ti] == nil {
			open = append(open, ti)
		}
	}
	last := cost()
	fs.res.CubePasses = 1
	for pass := 1; pass < maxCubePasses; pass++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		for ti := range m.targets {
			if certs[ti] != nil {
				choose(ti)
			}
		}
		fs.res.CubePasses++
		c := cost()
		if c >= last-1e-9*math.Max(1, last) {
			break
		}
		last = c
	}
	for ti := range certs {
		if certs[ti] != nil {
			fs.res.Cubes++
			fs.moves = append(fs.moves, moves[ti])
		}
	}
	for v, n := range fs.use {
		fs.sup[v] = n > 0
	}
	return open
}

// openRepair opens the protection LP (once).
func (fs *fastSearch) openRepair() error {
	if fs.heur != nil {
		return nil
	}
	s := fs.s
	prm := s.Params.OrDefault()
	lpPrm := &solvers.Params{FeasTol: prm.FeasTol}
	hsv, err := solvers.New(s.LPSolver, false)
	if err != nil {
		return err
	}
	fs.res.LPEngine = hsv.Name()
	psv, err := s.protectionSolver()
	if err != nil {
		return err
	}
	fs.res.ProtectionEngine = psv.Name()
	// The witness LP and the attacker's fallback are not used here.
	fs.heur, err = newHeuristic(fs.m, nil, hsv, psv, lpPrm)
	return err
}

// repair suppresses, for each target of tis, the cells that the
// protection LP moves (see the comment at the top of this file).
func (fs *fastSearch) repair(tis []int) error {
	defer func(t time.Time) { fs.res.HeuristicSeconds += time.Since(t).Seconds() }(time.Now())
	if err := fs.openRepair(); err != nil {
		return err
	}
	m, h := fs.m, fs.heur
	nc := len(m.cell)
	var cols []int
	var obj []float64
	for c := range nc {
		w := 0.0
		if v := m.vr[c]; v >= 0 && !fs.sup[v] {
			w = m.cost[v] + protectEps*math.Max(1, m.cost[v])
		}
		for _, k := range []int{c, nc + c} {
			if h.w[k] != w {
				cols, obj = append(cols, k), append(obj, w)
				h.w[k] = w
			}
		}
	}
	if len(cols) > 0 {
		if err := h.prot.SetObjective(cols, obj); err != nil {
			return err
		}
	}
	for _, ti := range tis {
		t := m.targets[ti]
		flow, r, err := h.flowSolve(h.prot, t, 1)
		if err != nil {
			return err
		}
		if r != nil && r.Abandoned {
			if err := h.openProt(); err != nil {
				return err
			}
		}
		if flow == nil {
			if r != nil && r.Status == solvers.Infeasible {
				return fmt.Errorf("%w: primary cell (%s) cannot reach its level %g even with every other cell suppressed", ErrInfeasible, m.src.name(t.cell), t.level)
			}
			st := "no result"
			if r != nil {
				st = r.Status.String()
			}
			return fmt.Errorf("%w: protection LP of cell (%s), engine %s: %s", ErrNotSolved, m.src.name(t.cell), h.psv.Name(), st)
		}
		if mv, ok := flowMove(m, t, r.X); ok {
			fs.moves = append(fs.moves, mv)
		}
		for c, f := range flow {
			v := m.vr[c]
			if v < 0 || fs.sup[v] || f <= flowTol*math.Max(1, t.level) {
				continue
			}
			fs.sup[v] = true
			h.w[c], h.w[nc+c] = 0, 0
			if err := h.prot.SetObjective([]int{c, nc + c}, []float64{0, 0}); err != nil {
				return err
			}
		}
	}
	return nil
}

// flowMove returns the protection LP's deviation d = u − v (x: its
// solution) for target t as a move of the attacker when every d_c is an
// integer multiple of one step, the level or 1 (within flowTol: the
// engine's round-off), with those multiples; intervals.Decide then
// checks it exactly, so that a rounded d which is not a deviation, or
// does not reach the level, proves nothing.
func flowMove(m *model, t target, x []float64) (intervals.Move, bool) {
	nc := len(m.cell)
	for _, step := range []float64{t.level, 1} {
		if !(step > 0) {
			continue
		}
		mv := intervals.Move{Step: step}
		ok := true
		for c := range nc {
			q := (x[c] - x[nc+c]) / step
			w := math.Round(q)
			if math.Abs(q-w) > flowTol*math.Max(1, math.Abs(q)) || math.Abs(w) > 1<<20 {
				ok = false
				break
			}
			if w != 0 {
				mv.Cells = append(mv.Cells, m.cell[c])
				mv.Mult = append(mv.Mult, int(w))
			}
		}
		if ok {
			return mv, true
		}
	}
	return intervals.Move{}, false
}

func solveFast(src source, geo []cubeTable, home func(int) (int, int), s *Settings, audit func([]tabular.Status) (*intervals.Result, error), decide decideFunc) (*Result, error) {
	start := time.Now()
	s, m, err := prepare(src, s)
	if err != nil {
		return nil, err
	}
	res := &Result{Method: MethodFast, Stop: StopHeuristic}
	m.countTargets(res)
	if len(m.targets) == 0 {
		res.Stop = StopNoPrimary
	}
	fs := &fastSearch{m: m, s: s, sup: make([]bool, len(m.col)), use: make([]int, len(m.col)), res: res}
	defer func() {
		if fs.heur != nil {
			fs.heur.close()
		}
	}()
	progress := func(phase string) {
		if s.Progress != nil {
			s.Progress(Progress{Phase: phase, Cost: m.patternCost(fs.sup), Elapsed: time.Since(start)})
		}
	}

	// Phase 1: a cube per target.
	prm := s.Params.OrDefault()
	deadline := prm.Deadline
	if prm.TimeLimit > 0 && (deadline.IsZero() || start.Add(prm.TimeLimit).Before(deadline)) {
		deadline = start.Add(prm.TimeLimit)
	}
	pending := fs.cubes(geo, home, deadline)
	progress("cubes")

	// Phase 2: audit the whole problem, repair, again.
	levels := func(i int) (float64, float64) {
		if src.status(i) != tabular.Primary {
			return 0, 0
		}
		lo, up, _ := src.levels(i)
		return lo, up
	}
	byCell := map[int][]int{}
	for ti, t := range m.targets {
		byCell[t.cell] = append(byCell[t.cell], ti)
	}
	pattern := func() {
		res.Status = make([]tabular.Status, src.n)
		for i := range res.Status {
			st := src.status(i)
			if st == tabular.Secondary {
				st = tabular.Safe
			}
			res.Status[i] = st
		}
		for v, on := range fs.sup {
			if on {
				res.Status[m.cell[m.col[v]]] = tabular.Secondary
			}
		}
	}
	for round := 0; ; round++ {
		if len(pending) > 0 {
			if err := fs.repair(pending); err != nil {
				return nil, err
			}
			res.RepairRounds++
			progress("repair")
		}
		pattern()
		// The cubes and the repairs' integral deviations decide the
		// audit exactly (intervals.Decide) when they meet every
		// requirement; otherwise the full audit runs.
		if !s.ExactAudit {
			d, err := decide(res.Status, levels, fs.moves)
			if err != nil {
				return nil, fmt.Errorf("suppress: auditing the pattern: %w", err)
			}
			if d.OK() {
				res.Audit, res.Decided, res.moves = d.Report(), true, fs.moves
				break
			}
		}
		ir, err := audit(res.Status)
		if err != nil {
			return nil, fmt.Errorf("suppress: auditing the pattern: %w", err)
		}
		// A secondary cell the attacker recomputes protects nothing (see
		// Solve): publish it.
		kept := ir.Intervals[:0:0]
		for _, iv := range ir.Intervals {
			if iv.Status == tabular.Secondary && iv.Disclosed() {
				res.Status[iv.Cell] = tabular.Safe
				fs.sup[m.vr[m.colOf[iv.Cell]]] = false
				res.Republished++
				continue
			}
			kept = append(kept, iv)
		}
		ir.Intervals = kept
		res.Audit = intervals.Audit(ir, levels)
		pending = pending[:0]
		for _, fl := range [][]intervals.Finding{res.Audit.UnderProtected, res.Audit.Disclosed} {
			for _, f := range fl {
				if f.Status == tabular.Primary {
					pending = append(pending, byCell[f.Cell]...)
				}
			}
		}
		slices.Sort(pending)
		pending = slices.Compact(pending)
		if len(pending) == 0 || round >= maxRepairRounds {
			break
		}
	}
	res.Secondary, res.Cost = 0, 0
	for v, on := range fs.sup {
		if on {
			res.Secondary++
			res.Cost += m.cost[v]
		}
	}
	if fs.heur != nil {
		res.HeuristicLPs = fs.heur.solves
	}
	if res.Cost > 0 {
		res.Gap = 1
	}
	res.Seconds = time.Since(start).Seconds()
	if !res.Audit.OK() {
		return res, fmt.Errorf("%w: %d primary cells under-protected, %d suppressed cells disclosed", ErrUnsafe, len(res.Audit.UnderProtected), len(res.Audit.Disclosed))
	}
	return res, nil
}
