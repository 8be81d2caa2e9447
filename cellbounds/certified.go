package cellbounds

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// Certified is the method that computes sharp integer bounds with a
// certificate for every one (Certificates):
//
//  1. every bound starts trivial: [0, u_c], u_c the least released
//     marginal cell containing c;
//  2. linear programs over the corner system (lp.CornerSystem), warm
//     started in one engine session per worker (both cores), maximize and
//     then minimize every cell not yet settled; each gives a dual vector,
//     rationalized and checked exactly, that proves the rounded LP bound,
//     and each integral optimal vertex is a witness table for every cell
//     it attains (most lower bounds are 0 and settled this way without a
//     solve of their own);
//  3. the bounds no witness attains are searched for one: the LP with the
//     cell fixed at its bound and seeded random objectives (a different
//     vertex of the optimal face each time), then a short integer program
//     for any table with the cell at its bound;
//  4. a bound whose value no integer table reaches is settled by the
//     integer program of the cell (proof "ip", on the engine's word).
//
// What the time limit leaves unsettled keeps its proven or trivial value:
// valid, reported as not sharp.
const Certified = "certified"

// Settings of the certified method's search.
const (
	// certifiedRandomTries is the number of random-objective LPs tried
	// for a witness before the integer program.
	certifiedRandomTries = 2
	// certifiedWitnessTimeLimit bounds each witness search by integer
	// program.
	certifiedWitnessTimeLimit = 2 * time.Second
	// certifiedGiveUp is the number of consecutive failed witness searches
	// after which the search stops: on some margin sets (random 2^10
	// tables with all 3-way margins) every LP vertex is fractional and no
	// engine finds an integer table in seconds, and the proven bounds are
	// reported as they are.
	certifiedGiveUp = 8
	// faceSearchMaxCells is the largest table whose witness search tries
	// random objectives on the optimal face first: on larger tables each
	// such LP re-solves from a far basis (seconds at 2^10) and the short
	// integer program is the better use of the time.
	faceSearchMaxCells = 256
	// Without a time limit the witness search stops after
	// certifiedWitnessBudget times the time of the LP phases, and no
	// earlier than certifiedMinWitnessBudget: it is a search for evidence
	// of sharpness, the bounds are proven already. With a time limit it
	// may use all of it.
	certifiedWitnessBudget    = 3.0
	certifiedMinWitnessBudget = 10 * time.Second
	// bulkZeroRounds caps the rounds of bulkZeros.
	bulkZeroRounds = 8
	// lpTol is the tolerance of an LP value against the integer it rounds to.
	lpTol = 1e-6
)

// certifier holds the state of one certified run.
type certifier struct {
	ms       *model.MarginSet
	cs       *lp.CornerSystem
	ck       *checker
	n        int
	cells    []int // the cells worked on, in order (Settings.Cells)
	set      *Settings
	prm      *solvers.Params
	deadline time.Time
	seed     maphash.Seed

	mu    sync.Mutex
	certs *Certificates
	pool  map[uint64][]int // witness hash -> indices with that hash
	// witnessDeadline ends the search for witnesses (besides the run's
	// deadline): see certifiedWitnessBudget.
	witnessDeadline time.Time
	openLeft        int // bounds the witness search has not reached (mu)
	workers         int
	stats           CertifiedStats
	lpName          string
	ipName          string
}

// CertifiedStats count how the bounds were settled.
type CertifiedStats struct {
	LPSolves        int     `json:"lp_solves"`
	LPIterations    int64   `json:"lp_iterations"`
	LPSeconds       float64 `json:"lp_seconds"` // engine time of the LP solves
	DualProven      int     `json:"dual_proven"`
	TrivialProven   int     `json:"trivial_proven"`
	IPProven        int     `json:"ip_proven"`
	Witnesses       int     `json:"witnesses"`
	VertexWitnesses int     `json:"vertex_witnesses"` // integral optimal vertices
	RandomWitnesses int     `json:"random_witnesses"` // random-objective LPs on the optimal face
	MIPWitnesses    int     `json:"mip_witnesses"`    // short integer programs
	BulkWitnesses   int     `json:"bulk_witnesses"`   // tables minimizing the cells waiting for a zero
	IPSolves        int     `json:"ip_solves"`
	Sharp           int     `json:"sharp"`      // bounds attained and proven
	Unattained      int     `json:"unattained"` // bounds proven but not attained
	// Seconds per phase: LPs of the upper and lower bounds, witness search.
	UpperSeconds   float64 `json:"upper_seconds"`
	LowerSeconds   float64 `json:"lower_seconds"`
	WitnessSeconds float64 `json:"witness_seconds"`
	// OpenAfterLP counts the bounds no witness attained after the LPs.
	OpenAfterLP int `json:"open_after_lp"`
	// GaveUp reports that the witness search stopped after
	// certifiedGiveUp consecutive failures.
	GaveUp bool `json:"gave_up"`

	lpName string // the LP engine, for the note
}

// runCertifiedMethod runs Certified.
func runCertifiedMethod(ms *model.MarginSet, set *Settings) (*Run, error) {
	if pastDeadline(set.deadline) && !set.Certify {
		// Nothing to prove (certificates asked for are built, trivial).
		return trivialRun(ms, "time limit reached before the certified method started: trivial bounds"), nil
	}
	c, err := newCertifier(ms, set)
	if err != nil {
		return nil, err
	}
	if err := c.run(); err != nil {
		return nil, err
	}
	return c.result(), nil
}

func newCertifier(ms *model.MarginSet, set *Settings) (*certifier, error) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	c := &certifier{ms: ms, n: n, set: set, prm: set.Params.OrDefault(), seed: maphash.MakeSeed(), pool: map[uint64][]int{}}
	c.deadline = set.deadline
	if set.Cells != nil {
		seen := make([]bool, n)
		for _, j := range set.Cells {
			if j < 0 || j >= n {
				return nil, fmt.Errorf("cellbounds: Settings.Cells names cell %d of a table of %d cells", j, n)
			}
			if !seen[j] {
				seen[j] = true
				c.cells = append(c.cells, j)
			}
		}
	} else {
		c.cells = make([]int, n)
		for j := range c.cells {
			c.cells[j] = j
		}
	}
	if set.memLimit > 0 {
		if need := lp.CellBoundsMemory(ms, nil); need > set.memLimit {
			return nil, fmt.Errorf("%w: the certified method's model of %d cells needs about %s, more than the memory limit of %s",
				ErrTooLarge, n, fmtBytes(need), fmtBytes(set.memLimit))
		}
	}
	c.cs = lp.NewCornerSystem(ms, false)
	certs := &Certificates{Version: CertificateVersion, Cells: make([]CellCertificate, n)}
	for _, v := range ms.Vars {
		certs.Vars = append(certs.Vars, CertificateVar{Name: v.Name, Levels: v.Levels})
	}
	for _, m := range ms.Margins {
		certs.Margins = append(certs.Margins, marginSpec(ms.Vars, m.Vars))
	}
	for _, s := range c.cs.Subsets {
		certs.DualMargins = append(certs.DualMargins, marginSpec(ms.Vars, s))
	}
	c.certs = certs
	ck, err := newChecker(ms, certs)
	if err != nil {
		return nil, err
	}
	c.ck = ck
	for j := range certs.Cells {
		certs.Cells[j] = CellCertificate{
			Lower: BoundCertificate{Value: 0, Proof: ProofTrivial, Witness: -1},
			Upper: BoundCertificate{Value: ck.upper[j], Proof: ProofTrivial, Witness: -1},
		}
	}
	return c, nil
}

func (c *certifier) expired() bool {
	return !c.deadline.IsZero() && time.Now().After(c.deadline)
}

// params returns the engine parameters with the time left as the limit.
func (c *certifier) params(limit time.Duration) *solvers.Params {
	p := *c.prm
	if limit > 0 && (p.TimeLimit == 0 || limit < p.TimeLimit) {
		p.TimeLimit = limit
	}
	if !c.deadline.IsZero() {
		// Engines stop every solve at the deadline (wall-clock), also
		// the solves of sessions opened long before it, and an engine
		// still running at the deadline plus grace is abandoned (the
		// workers reopen their session: lpWorker.solveLP).
		p.Deadline = c.deadline
		p.HardStop = true
		left := time.Until(c.deadline)
		if left < time.Millisecond {
			left = time.Millisecond
		}
		if p.TimeLimit == 0 || left < p.TimeLimit {
			p.TimeLimit = left
		}
	}
	return &p
}

// task is one bound to settle.
type task struct {
	cell  int
	upper bool
}

// settled reports whether a bound is attained and proven (lock held).
func (c *certifier) settled(t task) bool {
	b := &c.certs.Cells[t.cell].Lower
	if t.upper {
		b = &c.certs.Cells[t.cell].Upper
	}
	return b.Sharp()
}

func (c *certifier) bound(t task) *BoundCertificate {
	if t.upper {
		return &c.certs.Cells[t.cell].Upper
	}
	return &c.certs.Cells[t.cell].Lower
}

// addWitness records an integer table (already checked to reproduce the
// margins) and marks every bound it attains (lock held). It returns the
// witness's index.
func (c *certifier) addWitness(w []int64) int {
	var hh maphash.Hash
	hh.SetSeed(c.seed)
	var b [8]byte
	for _, v := range w {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		hh.Write(b[:])
	}
	h := hh.Sum64()
	for _, i := range c.pool[h] {
		if slices.Equal(c.certs.Witnesses[i], w) {
			return i
		}
	}
	idx := c.certs.AddWitness(w)
	c.ck.witOK = append(c.ck.witOK, nil)
	c.pool[h] = append(c.pool[h], idx)
	c.stats.Witnesses++
	return idx
}

// integerTable returns x rounded when every value is within lpTol of a
// non-negative integer and the rounded table reproduces the margins.
func (c *certifier) integerTable(x []float64) ([]int64, bool) {
	if len(x) != c.n {
		return nil, false
	}
	w := make([]int64, c.n)
	for j, v := range x {
		r := math.Round(v)
		if math.Abs(v-r) > lpTol || r < 0 {
			return nil, false
		}
		w[j] = int64(r)
	}
	if c.ck.checkWitness(w) != nil {
		return nil, false
	}
	return w, true
}

// dualVector turns an engine's row duals over the corner system into a
// rational dual vector over the dual margins.
func (c *certifier) dualVector(y []float64) *DualVector {
	D, p := rationalize(y)
	dv := &DualVector{Denominator: D}
	for i, v := range p {
		if v != 0 {
			r := c.cs.Rows[i]
			dv.Entries = append(dv.Entries, [3]int64{int64(r.Subset), int64(r.Cell), v})
		}
	}
	return dv
}

// lpWorker holds one engine session over the corner system.
type lpWorker struct {
	c    *certifier
	s    solvers.Solver
	sess solvers.Session
	obj  []int // columns with a nonzero objective
	rng  *rand.Rand
}

func (c *certifier) newWorker(s solvers.Solver, id int) (*lpWorker, error) {
	sess, err := s.NewSession(c.cs.Problem, c.params(0))
	if err != nil {
		return nil, err
	}
	return &lpWorker{c: c, s: s, sess: sess, rng: rand.New(rand.NewPCG(uint64(id)+1, 0x63657274))}, nil
}

// solveLP solves the session's LP. When the engine abandoned the solve at
// its hard stop (the deadline plus grace; the session is then closed) the
// worker goes on with a new session, or, past the deadline, with
// expiredSession, whose solves stop at once: loading a model of millions
// of cells again would take seconds.
func (w *lpWorker) solveLP() (*solvers.Result, error) {
	r, err := w.sess.Solve()
	if err != nil || !r.Abandoned {
		return r, err
	}
	w.obj = nil // a new session has the zero objective
	if w.c.expired() {
		w.sess = expiredSession{}
		return r, nil
	}
	sess, err := w.s.NewSession(w.c.cs.Problem, w.c.params(0))
	if err != nil {
		return nil, err
	}
	w.sess = sess
	return r, nil
}

// expiredSession stands for a worker's session after its engine was
// abandoned past the deadline: every solve stops at once on the time
// limit, without a solution, and changes are ignored.
type expiredSession struct{}

func (expiredSession) Solve() (*solvers.Result, error) {
	return &solvers.Result{Status: solvers.TimeLimit, Objective: math.NaN(), BestBound: math.NaN()}, nil
}
func (expiredSession) AddCols(obj, lo, up []float64, types []solvers.VarType, start, rows []int, vals []float64) error {
	return nil
}
func (expiredSession) AddRows(lo, up []float64, start, cols []int, vals []float64) error { return nil }
func (expiredSession) SetObjective(cols []int, obj []float64) error                      { return nil }
func (expiredSession) SetSense(solvers.Sense) error                                      { return nil }
func (expiredSession) SetColBounds(j int, lo, up float64) error                          { return nil }
func (expiredSession) SetRowBounds(i int, lo, up float64) error                          { return nil }
func (expiredSession) NumCols() int                                                      { return 0 }
func (expiredSession) NumRows() int                                                      { return 0 }
func (expiredSession) Close() error                                                      { return nil }

// setObjective replaces the objective by obj on cols.
func (w *lpWorker) setObjective(cols []int, obj []float64) error {
	var all []int
	var vals []float64
	for _, j := range w.obj {
		all = append(all, j)
		vals = append(vals, 0)
	}
	all = append(all, cols...)
	vals = append(vals, obj...)
	// Later entries win for repeated columns; deduplicate for engines
	// that refuse duplicates.
	seen := map[int]int{}
	var dc []int
	var dv []float64
	for i, j := range all {
		if k, ok := seen[j]; ok {
			dv[k] = vals[i]
			continue
		}
		seen[j] = len(dc)
		dc = append(dc, j)
		dv = append(dv, vals[i])
	}
	if err := w.sess.SetObjective(dc, dv); err != nil {
		return err
	}
	w.obj = append(w.obj[:0], cols...)
	return nil
}

// lpResult is one LP bound.
type lpResult struct {
	t       task
	ok      bool // solved to optimality
	value   float64
	dual    *DualVector
	witness []int64
	iters   int64
	secs    float64
}

// solve computes the LP bound of t.
func (w *lpWorker) solve(t task) (*lpResult, error) {
	if err := w.setObjective([]int{t.cell}, []float64{1}); err != nil {
		return nil, err
	}
	sense := solvers.Minimize
	if t.upper {
		sense = solvers.Maximize
	}
	if err := w.sess.SetSense(sense); err != nil {
		return nil, err
	}
	r, err := w.solveLP()
	if err != nil {
		return nil, err
	}
	res := &lpResult{t: t, iters: r.Iterations, secs: r.Seconds}
	if r.Status != solvers.Optimal || !r.HasDuals {
		if r.Status == solvers.Infeasible {
			return nil, fmt.Errorf("%w: the LP of the margins is infeasible (%s)", ErrInfeasible, w.c.lpName)
		}
		return res, nil
	}
	res.ok, res.value = true, r.Objective
	res.dual = w.c.dualVector(r.Duals)
	if tab, ok := w.c.integerTable(r.X); ok {
		res.witness = tab
	}
	return res, nil
}

// faceWitness looks for an integral vertex with the cell fixed at value:
// LPs with seeded random objectives over the face.
func (w *lpWorker) faceWitness(t task, value int64) ([]int64, error) {
	u := w.c.ck.upper[t.cell]
	if err := w.sess.SetColBounds(t.cell, float64(value), float64(value)); err != nil {
		return nil, err
	}
	defer w.sess.SetColBounds(t.cell, 0, float64(u))
	cols := make([]int, w.c.n)
	obj := make([]float64, w.c.n)
	for try := 0; try < certifiedRandomTries; try++ {
		for j := range cols {
			cols[j], obj[j] = j, float64(w.rng.IntN(7)-3)
		}
		if err := w.setObjective(cols, obj); err != nil {
			return nil, err
		}
		if err := w.sess.SetSense(solvers.Minimize); err != nil {
			return nil, err
		}
		r, err := w.solveLP()
		if err != nil {
			return nil, err
		}
		if r.Status != solvers.Optimal {
			return nil, nil
		}
		if tab, ok := w.c.integerTable(r.X); ok {
			return tab, nil
		}
	}
	return nil, nil
}

func (c *certifier) run() error {
	ls, err := solvers.New(c.set.Solver, false)
	if err != nil {
		return err
	}
	c.lpName = ls.Name()
	if !ls.Capabilities().Incremental || !ls.Capabilities().Duals {
		return fmt.Errorf("%w: the certified method needs an LP engine with sessions and duals, not %s", solvers.ErrUnsupported, ls.Name())
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), 8))
	if c.n < 64 {
		workers = 1
	}
	var ws []*lpWorker
	for i := 0; i < workers; i++ {
		if c.expired() {
			// Loading a model of millions of cells into an engine takes
			// seconds: none after the deadline (the bounds stay trivial).
			if i == 0 {
				return nil
			}
			break
		}
		s := ls
		if i > 0 {
			if s, err = solvers.New(c.lpName, false); err != nil {
				return err
			}
		}
		w, err := c.newWorker(s, i)
		if err != nil {
			return err
		}
		defer func() { w.sess.Close() }() // the worker's last session (solveLP may replace it)
		ws = append(ws, w)
	}
	prog := progress(c.set, Certified)
	// Phase 1: upper bounds, then lower bounds, of the cells not settled.
	for _, upper := range []bool{true, false} {
		t0 := time.Now()
		var tasks []task
		for _, j := range c.cells {
			t := task{j, upper}
			if !c.settled(t) && !(upper && c.ck.upper[j] == 0) {
				tasks = append(tasks, t)
			}
		}
		if err := c.runTasks(ws, tasks, prog, func(w *lpWorker, t task) error {
			r, err := w.solve(t)
			if err != nil {
				return err
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			c.absorb(r)
			return nil
		}); err != nil {
			return err
		}
		if upper {
			c.stats.UpperSeconds = time.Since(t0).Seconds()
		} else {
			c.stats.LowerSeconds = time.Since(t0).Seconds()
		}
	}
	// Phase 2: witnesses for proven bounds no table attains yet. First in
	// bulk for the lower bounds 0: a table minimizing the sum of the cells
	// still waiting for a zero attains many at once.
	t0 := time.Now()
	defer func() { c.stats.WitnessSeconds = time.Since(t0).Seconds() }()
	if c.deadline.IsZero() {
		lpTime := c.stats.UpperSeconds + c.stats.LowerSeconds
		c.witnessDeadline = time.Now().Add(max(certifiedMinWitnessBudget, time.Duration(certifiedWitnessBudget*lpTime*float64(time.Second))))
	} else {
		c.witnessDeadline = c.deadline
	}
	if err := c.bulkZeros(ws[0]); err != nil {
		return err
	}
	var open []task
	for _, j := range c.cells {
		for _, upper := range []bool{true, false} {
			t := task{j, upper}
			if b := c.bound(t); b.Witness < 0 {
				open = append(open, t)
			}
		}
	}
	c.stats.OpenAfterLP = len(open)
	c.openLeft, c.workers = len(open), len(ws)
	failures := 0
	if err := c.runTasks(ws, open, prog, func(w *lpWorker, t task) error {
		c.mu.Lock()
		c.openLeft--
		b := c.bound(t)
		value, done := b.Value, b.Witness >= 0
		giveUp := failures >= certifiedGiveUp
		c.mu.Unlock()
		if done || giveUp || time.Now().After(c.witnessDeadline) {
			return nil
		}
		if c.n <= faceSearchMaxCells {
			tab, err := w.faceWitness(t, value)
			if err != nil {
				return err
			}
			if tab != nil {
				c.mu.Lock()
				c.addWitness(tab)
				c.stats.RandomWitnesses++
				failures = 0
				c.mu.Unlock()
				return nil
			}
		}
		found, err := c.mipWitness(t, value)
		c.mu.Lock()
		if found {
			failures = 0
		} else {
			failures++
			c.stats.GaveUp = failures >= certifiedGiveUp
		}
		c.mu.Unlock()
		return err
	}); err != nil {
		return err
	}
	return nil
}

// runTasks runs fn on every task across the workers, skipping tasks
// settled meanwhile and stopping at the deadline.
func (c *certifier) runTasks(ws []*lpWorker, tasks []task, prog func(int, int), fn func(*lpWorker, task) error) error {
	if len(tasks) == 0 {
		return nil
	}
	next := make(chan task)
	errs := make(chan error, len(ws))
	var done int
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				if err := fn(w, t); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var first error
feed:
	for _, t := range tasks {
		if c.expired() {
			break
		}
		c.mu.Lock()
		skip := c.settled(t)
		c.mu.Unlock()
		if skip {
			continue
		}
		select {
		case next <- t:
		case first = <-errs:
			break feed
		}
		done++
		if prog != nil {
			prog(done, len(tasks))
		}
	}
	close(next)
	wg.Wait()
	if first == nil {
		select {
		case first = <-errs:
		default:
		}
	}
	return first
}

// absorb records an LP bound (lock held): the exact bound its dual vector
// proves replaces the current one when tighter, and an integral vertex
// becomes a witness.
func (c *certifier) absorb(r *lpResult) {
	c.stats.LPSolves++
	c.stats.LPIterations += r.iters
	c.stats.LPSeconds += r.secs
	if !r.ok {
		return
	}
	b := c.bound(r.t)
	got, err := c.ck.dualBound(r.dual, r.t.cell, r.t.upper)
	if err == nil && ((r.t.upper && got < b.Value) || (!r.t.upper && got > b.Value)) {
		b.Value, b.Proof, b.Dual, b.Witness = got, ProofDual, r.dual, -1
		// Witnesses found before may attain the new value.
		for i, w := range c.certs.Witnesses {
			if w[r.t.cell] == got {
				b.Witness = i
				break
			}
		}
	}
	if r.witness != nil {
		before := c.stats.Witnesses
		c.addWitness(r.witness)
		if c.stats.Witnesses > before {
			c.stats.VertexWitnesses++
		}
	}
}

// mipWitness settles a bound by the integer program of its cell (max or
// min x_c, with a short time limit): an optimum equal to the proven bound
// is a witness of it; an optimum strictly inside replaces the bound, proven
// by the IP on the engine's word, with its solution as the witness; an
// incumbent equal to the proven bound, found before the limit, is a
// witness too.
func (c *certifier) mipWitness(t task, value int64) (bool, error) {
	if c.expired() {
		return false, nil
	}
	ms, err := c.newMIP()
	if err != nil {
		return false, nil // no MIP engine: the bound stays proven, not attained
	}
	c.mu.Lock()
	c.ipName = ms.Name()
	c.mu.Unlock()
	// First the feasibility problem: any integer table with the cell fixed
	// at the proven bound (no objective, so the engine stops at its first
	// solution). Only when that is proven infeasible is the bound not
	// attainable, and the cell's own IP decides it.
	p := c.integerProblem()
	p.ColLower[t.cell], p.ColUpper[t.cell] = float64(value), float64(value)
	if found, infeasible, err := c.solveWitness(ms, p, t, value); err != nil || found || !infeasible {
		return found, err
	}
	p = c.integerProblem()
	p.Obj[t.cell] = 1
	p.Sense = solvers.Minimize
	if t.upper {
		p.Sense = solvers.Maximize
	}
	found, _, err := c.solveWitness(ms, p, t, value)
	return found, err
}

// solveWitness solves one witness IP p for bound t with proven value
// value: a solution whose cell equals value is a witness; an optimal
// solution of the cell's own IP strictly inside replaces the bound (proof
// "ip", on the engine's word). infeasible reports a proven infeasible p.
func (c *certifier) solveWitness(ms solvers.Solver, p *solvers.Problem, t task, value int64) (found, infeasible bool, err error) {
	// Without a time limit each search gets certifiedWitnessTimeLimit; with
	// one, a fair share of the time left among the bounds still open (one
	// hard cell must not take the time of all the others).
	limit := certifiedWitnessTimeLimit
	if !c.deadline.IsZero() {
		c.mu.Lock()
		open := max(1, c.openLeft)
		c.mu.Unlock()
		limit = max(limit, time.Until(c.deadline)*time.Duration(c.workers)/time.Duration(open))
	}
	r, err := ms.Solve(p, c.params(limit))
	if err != nil {
		return false, false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.IPSolves++
	if !r.HasSolution {
		return false, r.Status == solvers.Infeasible, nil
	}
	tab, ok := c.integerTable(r.X)
	if !ok {
		return false, false, nil
	}
	idx := c.addWitness(tab)
	b := c.bound(t)
	switch {
	case tab[t.cell] == b.Value:
		c.stats.MIPWitnesses++
		return true, false, nil // addWitness marked it
	case r.Status == solvers.Optimal && p.Obj[t.cell] != 0 && p.ColLower[t.cell] != p.ColUpper[t.cell]:
		gap := r.Gap()
		b.Value, b.Proof, b.Dual, b.Witness, b.Engine, b.Gap = tab[t.cell], ProofIP, nil, idx, ms.Name(), &gap
		return true, false, nil
	}
	return false, false, nil
}

// bulkZeros finds witnesses for the lower bounds 0 in bulk: the LP, then
// a short integer program, minimizing the sum of the cells whose lower
// bound 0 no witness attains yet; every table found attains the zeros it
// has. Rounds repeat while they make progress.
func (c *certifier) bulkZeros(w *lpWorker) error {
	for round := 0; round < bulkZeroRounds && !c.expired() && time.Now().Before(c.witnessDeadline); round++ {
		c.mu.Lock()
		var pending []int
		for _, j := range c.cells {
			if b := &c.certs.Cells[j].Lower; b.Value == 0 && b.Witness < 0 {
				pending = append(pending, j)
			}
		}
		c.mu.Unlock()
		if len(pending) == 0 {
			return nil
		}
		ones := make([]float64, len(pending))
		for i := range ones {
			ones[i] = 1
		}
		if err := w.setObjective(pending, ones); err != nil {
			return err
		}
		if err := w.sess.SetSense(solvers.Minimize); err != nil {
			return err
		}
		r, err := w.solveLP()
		if err != nil {
			return err
		}
		var tab []int64
		if r.Status == solvers.Optimal {
			tab, _ = c.integerTable(r.X)
		}
		if tab == nil {
			ms, err := c.newMIP()
			if err != nil {
				return nil
			}
			p := c.integerProblem()
			for _, j := range pending {
				p.Obj[j] = 1
			}
			mr, err := ms.Solve(p, c.params(certifiedWitnessTimeLimit))
			if err != nil {
				return err
			}
			if mr.HasSolution {
				tab, _ = c.integerTable(mr.X)
			}
		}
		if tab == nil {
			return nil
		}
		c.mu.Lock()
		before := len(pending)
		c.addWitness(tab)
		c.stats.BulkWitnesses++
		after := 0
		for _, j := range pending {
			if c.certs.Cells[j].Lower.Witness < 0 {
				after++
			}
		}
		c.mu.Unlock()
		if after == before {
			return nil
		}
	}
	return nil
}

// TableMIP is the integer engine chosen for integer programs over the
// tables with given margins (witness searches here, the auditor's
// simulation) when the solver is "" or "auto": on these models CBC finds
// tables in a fraction of HiGHS-wasm's time (bench bounds, 2^8 with all
// 2-way margins: see bench/README.md), although the registry ranks HiGHS
// first for general MIPs.
const TableMIP = "cbc"

// NewTableMIP returns the integer engine for tables with given margins:
// the named solver, or for "" and "auto" TableMIP when it is available and
// the registry's MIP default otherwise.
func NewTableMIP(solver string) (solvers.Solver, error) {
	if solver == "" || solver == "auto" {
		if s, err := solvers.New(TableMIP, true); err == nil {
			return s, nil
		}
	}
	return solvers.New(solver, true)
}

// newMIP returns the engine of the integer programs.
func (c *certifier) newMIP() (solvers.Solver, error) { return NewTableMIP(c.set.Solver) }

// integerProblem returns a fresh integer copy of the corner system.
func (c *certifier) integerProblem() *solvers.Problem {
	p := *c.cs.Problem
	p.Obj = make([]float64, len(c.cs.Problem.Obj))
	p.ColLower = slices.Clone(c.cs.Problem.ColLower)
	p.ColUpper = slices.Clone(c.cs.Problem.ColUpper)
	p.ColType = make([]solvers.VarType, len(p.Obj))
	for j := range p.ColType {
		p.ColType[j] = solvers.Integer
	}
	return &p
}

// result assembles the run.
func (c *certifier) result() *Run {
	b := &model.CellBounds{Lower: make([]float64, c.n), Upper: make([]float64, c.n), Method: make([]string, c.n)}
	for j := range c.certs.Cells {
		cc := &c.certs.Cells[j]
		b.Lower[j], b.Upper[j], b.Method[j] = float64(cc.Lower.Value), float64(cc.Upper.Value), Certified
	}
	solver := c.lpName
	if c.ipName != "" && c.ipName != c.lpName {
		solver += "+" + c.ipName
	}
	c.stats.lpName = c.lpName
	r := &Run{Bounds: b, Solver: solver, Certificates: c.certs, CertifiedStats: &c.stats, sharpCell: make([]bool, c.n)}
	sharpCells := r.countCertified()
	if c.expired() && sharpCells < c.n {
		r.Stopped = StoppedTimeLimit
	}
	return r
}

// countCertified recomputes, from the certificates, the certified
// statistics that depend on the evidence (sharp and unattained bounds,
// proofs, witnesses), marks the cells whose two bounds are sharp
// (BoundCertificate.Sharp) and writes the note. It returns the number of
// sharp cells.
func (r *Run) countCertified() int {
	certs, st := r.Certificates, r.CertifiedStats
	n := len(certs.Cells)
	st.DualProven, st.TrivialProven, st.IPProven = 0, 0, 0
	for j := range certs.Cells {
		for _, bc := range []*BoundCertificate{&certs.Cells[j].Lower, &certs.Cells[j].Upper} {
			switch bc.Proof {
			case ProofDual:
				st.DualProven++
			case ProofTrivial:
				st.TrivialProven++
			case ProofIP:
				st.IPProven++
			}
		}
	}
	sharp, cells := certs.SharpBounds()
	st.Sharp, st.Unattained, st.Witnesses = sharp, 2*n-sharp, len(certs.Witnesses)
	sharpCells := 0
	for j, ok := range cells {
		if j < len(r.sharpCell) {
			r.sharpCell[j] = r.sharpCell[j] || ok
		}
		if ok {
			sharpCells++
		}
	}
	r.Note = fmt.Sprintf("%d of %d bounds sharp (attained by %d witness tables; proven by %d dual vectors, %d trivially, %d integer programs); %d LP solves (%s)",
		st.Sharp, 2*n, st.Witnesses, st.DualProven, st.TrivialProven, st.IPProven, st.LPSolves, st.lpName)
	if st.Unattained > 0 {
		r.Note += fmt.Sprintf("; %d bounds not sharp (proven but not attained by a witness table): valid, maybe not sharp", st.Unattained)
	}
	if st.GaveUp {
		r.Note += fmt.Sprintf(" (the witness search stopped after %d consecutive failures: no integral LP vertex, no integer table found by the engines)", certifiedGiveUp)
	}
	return sharpCells
}

// RecountCertified brings a certified run up to date after witness tables
// were added to its certificates (CertifiedGaps, Gaps.Widen, Gaps.Search):
// the certified statistics, the sharp cells (SharpCells, ValidCells,
// Sharp) and the note count the sharp bounds as BoundCertificate.Sharp
// defines them, as the gap report and Verify do. Runs without
// certificates are left alone.
func (r *Run) RecountCertified() {
	if r.Certificates == nil || r.CertifiedStats == nil || len(r.sharpCell) != len(r.Certificates.Cells) {
		return
	}
	r.countCertified()
	r.methodNote = r.Note
	r.finish()
}
