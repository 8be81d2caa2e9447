package audit

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/frechet"
)

// Splitting a decision at clique separators with known margins (Dobra &
// Fienberg, Theorem 2 on reducible graphs; Theorem 1 is the case where
// every piece is a released margin).
//
// Let M be the margins of a decision: the public view (every release with
// its released values) plus the requested margin with its true values,
// all over subsets of W (microdata.go). frechet.Decompose splits the
// independence graph of M at clique separators S whose margin n_S is
// known (S lies inside a margin of M, so n_S is a collapse of it; the
// empty separator, with n_∅ = N, joins connected components) into pieces
// K_1, ..., K_m in a perfect sequence, S_i = K_i ∩ (K_1 ∪ ... ∪ K_{i-1}).
// Every margin of M is a clique, so it lies inside one piece; M_i is the
// margins inside K_i plus n_S of the separators next to K_i.
//
// Tables. An integer table over W has M exactly when its collapse to
// every K_i has M_i. Conversely, integer tables T_1, ..., T_m over the
// pieces, T_i with M_i, all agree on the separators' margins, and they are
// the collapses of integer tables over W: glue them along the sequence;
// for a separator cell s the cells of K_1 ∪ ... ∪ K_{i-1} and of K_i with
// x_S = s form a transportation problem with row sums from the table glued
// so far, column sums from T_i and total n_S(s), and any integer transport
// plan is a glued table. In such a plan a cell (a, b) can take any value
// in [max(0, r_a + c_b − n_S(s)), min(r_a, c_b)] (Fréchet). Hence, for a
// cell y over W and y_i its cell over K_i:
//
//  1. Sharp bounds (Theorem 2): with [L_i, U_i] the sharp integer bounds of
//     y_i given M_i,
//     U(y) = min_i U_i(y_i),  L(y) = max(0, Σ_i L_i(y_i) − Σ_S n_S(y_S))
//     (the max(0, ·) of the successive gluings nests into the flat form
//     because L_i(y_i) ≤ n_S(y_S)).
//  2. Proofs: with proven intervals [lo_i, hi_i] ⊇ [L_i, U_i] the same
//     formulas give a proven interval of y (min and the sum are monotone).
//  3. Attained values: with integer tables of the pieces attaining inHi_i
//     (resp. inLo_i) at y_i, the glued tables attain min_i inHi_i and
//     max(0, Σ_i inLo_i − Σ_S n_S(y_S)) at y, so these ends of y's interval
//     are attained by integer tables of the whole (one table for each end).
//     Every piece table the auditor knows has M_i: the certified method's
//     witnesses are computed over M_i, the true piece table has M_i when
//     every margin of M_i is true (checked), and the local moves from it
//     stay in the kernel of M_i's margin system.
//
// Cells the policy checks. The policy protects the non-empty full cells x
// = (y, z) (z over V \ W), not the cells of the pieces and not the cells of
// a released margin, which are public: a piece cell determined by M_i does
// not determine the full cells inside it. By microdata.go, a full cell
// ranges over [0, U(y)] when V \ W has two cells or more, and over [L(y),
// U(y)] otherwise. So:
//
//   - V \ W has two cells or more (the usual case): x keeps its required
//     width q(x) iff U(y) = min_i U_i(y_i) ≥ q(x), i.e. iff every piece
//     cell y_i keeps q(x) as an upper bound. Per piece, the most demanding
//     full cell inside y_i decides, which is exactly what the auditor of
//     the piece's table checks (its refinement: the full cells inside a
//     piece cell, the variables outside the piece free). The decision on W
//     is therefore the conjunction of the pieces' decisions, with the
//     pieces' own evidence: a piece proving a disclosure (hi_i < q) proves
//     it in the whole (by 2.); every piece attaining q (inHi_i ≥ q) attains
//     it in the whole (by 3., with the lower end 0 attained by moving the
//     units of y to another z). A piece left undecided leaves the full cell
//     undecided unless another piece proves its disclosure. No table over W
//     is built, and each piece's decision keeps its own shortcuts (local
//     moves first, bounds for the open cells only).
//   - V \ W has one cell (W holds every variable with two levels or more):
//     x = y and the width U(y) − L(y) couples the pieces through the sum
//     in L. Every non-empty full cell is checked jointly: the pieces'
//     proven and attained intervals of every cell (computed on the pieces'
//     tables) combine by 2. and 3. into the cell's proven and attained
//     intervals, a disclosure where the proven width is below q, safe where
//     the attained width reaches it, undecided otherwise.
//   - ProtectCollapsed also protects the non-empty cells y of the table
//     over W (unless a true release or the request is that table,
//     collapsed.go) with their own counts n_W(y) and the interval [L(y), U(y)]:
//     they are the projections of the non-empty full cells, and they are
//     checked jointly as in the previous case (the pieces' own cells are
//     not protected: the policy names the table over W). When V \ W has
//     one cell they are the full cells.
//
// Simulate mode: a request the split denies is answered from a table
// simulated over the pieces of the view that hold the request's variables
// and those between them (simulatePieces).
//
// Not split (the table over W decides, as before): margins that
// contradict each other (only possible with simulated releases; the table
// over W reports the contradiction), and margins that do not split.

// separated is the decomposition of one decision's margins.
type separated struct {
	w      []int // the variables of the decision, positions in the microdata
	dec    *frechet.Decomposition
	truth  *model.Table // the requested margin, counted from the records
	pieces []*Auditor   // the auditor of each piece's table
	vars   [][]int      // each piece's variables, positions in the microdata
	pad    bool         // the variables outside w have two cells or more
}

// decideSeparated decides req on the pieces of the decomposition of the
// view and the request at clique separators with known margins (see
// above). It returns a nil decision and no error when the margins do not
// split or the split is not used for this request; the caller then decides
// on the table over w.
func (a *Auditor) decideSeparated(h *History, req Request, sub, w []int, start, deadline time.Time) (*Decision, error) {
	md := a.micro.md
	mode := req.Mode
	if mode == "" {
		mode = ModeRelease
	}
	s, err := a.separate(h, sub, w)
	if err != nil || s == nil {
		return nil, err
	}
	d := &Decision{RequestID: req.RequestID, Requester: req.Requester, Time: req.Time, Margin: a.names(sub), Mode: mode,
		PolicyVersion: a.policy.Version(), Operator: &OperatorReport{Disclosed: []CellRisk{}, Undecided: []CellRisk{}, Evidence: &Evidence{}, Sharp: true}}
	op := d.Operator
	op.deadline = deadline
	var ok bool
	if s.pad {
		ok, err = a.checkPieces(s, op, deadline)
		if ok && err == nil && a.micro.mopt.ProtectCollapsed && len(op.Disclosed) == 0 && !a.overWPublished(h, sub, w) {
			ok, err = a.checkCollapsedCells(s, op, deadline)
		}
	} else {
		// The full cells are the cells of the table over W, with the same
		// counts: ProtectCollapsed adds nothing.
		ok, err = a.checkJoint(s, op, deadline)
	}
	if err != nil || !ok {
		return nil, err
	}
	sizes := make([]string, len(s.pieces))
	for i, in := range s.pieces {
		sizes[i] = fmt.Sprintf("%s (%s)", strings.Join(a.names(s.vars[i]), ":"), plural(len(in.table.Counts), "cell"))
	}
	seps := make([]string, len(s.dec.Separators))
	for i, sp := range s.dec.Separators {
		seps[i] = "[" + strings.Join(a.names(toPositions(s.w, sp.Vars)), ":") + "]"
	}
	note := fmt.Sprintf(" (decided on %d pieces %s split at the separators %s, collapsed from %d records over %d variables; no table over all %d variables built)",
		len(s.pieces), strings.Join(sizes, ", "), strings.Join(seps, " "), md.N, len(md.Vars), len(s.w))
	if len(op.Disclosed) == 0 && len(op.Undecided) == 0 {
		d.Outcome, d.Counts = Released, s.truth.Counts
		op.Explanation = fmt.Sprintf("every one of the %d checked cells keeps the width the policy requires given the %d earlier releases and this margin",
			op.Cells, len(h.Releases)) + note
		op.Seconds = time.Since(start).Seconds()
		return d, nil
	}
	if mode == ModeSimulate && a.policy.AllowSimulate {
		return a.simulatePieces(h, sub, w, d, req.Seed, note, start, deadline)
	}
	d.Outcome = Denied
	op.Explanation = a.reason(op) + note
	op.Seconds = time.Since(start).Seconds()
	return d, nil
}

// viewOver is the public view of h over the variables w (positions in
// the microdata; the margins' variables are positions in w), with pos
// mapping a microdata position to its position in w (-1 outside); nil
// when two releases of the same variables disagree (the table over w
// reports it).
func (a *Auditor) viewOver(h *History, w []int) (*model.MarginSet, []int) {
	md := a.micro.md
	pos := make([]int, len(md.Vars))
	for j := range pos {
		pos[j] = -1
	}
	wvars := make([]model.Variable, len(w))
	for i, j := range w {
		pos[j], wvars[i] = i, md.Vars[j]
	}
	ms := &model.MarginSet{Vars: wvars}
	for _, r := range h.Releases {
		rs, err := subsetOf(md.Vars, r.Margin)
		if err != nil {
			return nil, nil // CheckHistory passed; the table over w reports it
		}
		ws := toPositions(pos, rs)
		if m, ok := ms.MarginalOf(ws); ok {
			if !slices.Equal(m.Counts, r.Counts) {
				return nil, nil
			}
			continue
		}
		ms.Margins = append(ms.Margins, &model.Marginal{Vars: ws, Counts: r.Counts})
	}
	return ms, pos
}

// toPositions maps positions through pos: out[i] = pos[vs[i]] (microdata
// positions to positions in the table over W, and positions into W to the
// microdata positions W holds).
func toPositions(pos, vs []int) []int {
	out := make([]int, len(vs))
	for i, j := range vs {
		out[i] = pos[j]
	}
	return out
}

// separate builds the margins of the decision over w (the public view of
// h and the true requested margin over sub) and decomposes them; nil when
// they do not split or contradict each other.
func (a *Auditor) separate(h *History, sub, w []int) (*separated, error) {
	md := a.micro.md
	ms, pos := a.viewOver(h, w)
	if ms == nil {
		return nil, nil
	}
	truth, err := md.Collapse(sub, 8*int64(a.micro.mopt.MaxCells))
	if err != nil {
		return nil, nil
	}
	ws := toPositions(pos, sub)
	if m, ok := ms.MarginalOf(ws); ok {
		if !slices.Equal(m.Counts, truth.Counts) {
			return nil, nil
		}
	} else {
		ms.Margins = append(ms.Margins, &model.Marginal{Vars: ws, Counts: truth.Counts})
	}
	dec, err := frechet.Decompose(ms)
	if err != nil || len(dec.Components) < 2 {
		return nil, nil
	}
	s := &separated{w: w, dec: dec, truth: truth}
	for j, v := range md.Vars {
		if pos[j] < 0 && len(v.Levels) >= 2 {
			s.pad = true
		}
	}
	// The request's piece first: its new margin is where a disclosure is
	// likeliest; then the smaller tables first (a disclosure anywhere ends
	// the decision). The separators keep their Parent/Child numbering;
	// only their variables and margins are used below.
	cells := func(c frechet.Component) int { return model.NumCells(model.Dims(c.Margins.Vars)) }
	slices.SortStableFunc(dec.Components, func(x, y frechet.Component) int {
		xr, yr := model.IsSubset(ws, x.Vars), model.IsSubset(ws, y.Vars)
		switch {
		case xr != yr && xr:
			return -1
		case xr != yr:
			return 1
		}
		return cells(x) - cells(y)
	})
	for _, c := range dec.Components {
		vs := toPositions(w, c.Vars)
		in, err := a.micro.auditor(vs, a, true)
		if err != nil {
			return nil, err
		}
		s.pieces = append(s.pieces, in)
		s.vars = append(s.vars, vs)
	}
	return s, nil
}

// checkPieces decides every piece on its own table (V \ W has two cells
// or more: the conjunction above), stopping at the first piece with a
// disclosure. It reports false when a piece's margins admit no integer
// table (simulated releases; the table over W reports it).
func (a *Auditor) checkPieces(s *separated, op *OperatorReport, deadline time.Time) (bool, error) {
	var methods []string
	for i, in := range s.pieces {
		ms := s.dec.Components[i].Margins
		pop := &OperatorReport{Disclosed: []CellRisk{}, Undecided: []CellRisk{}, deadline: deadline}
		iv, err := in.bounds(ms, &model.MarginSet{Vars: ms.Vars}, pop, deadline, false)
		if errors.Is(err, cellbounds.ErrInfeasible) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		in.check(iv, pop)
		mergeReport(op, pop, strings.Join(a.names(s.vars[i]), ":"))
		if !slices.Contains(methods, pop.Method) {
			methods = append(methods, pop.Method)
		}
		op.Method = "separators(" + strings.Join(methods, ",") + ")"
		if len(op.Disclosed) > 0 {
			break // decided: denied
		}
	}
	return true, nil
}

// mergeReport adds a piece's report to the decision's.
func mergeReport(op, pop *OperatorReport, piece string) {
	op.Cells += pop.Cells
	op.Sharp = op.Sharp && pop.Sharp
	op.Cached = op.Cached || pop.Cached
	for _, r := range pop.Disclosed {
		r.Label += " in the piece " + piece
		op.Disclosed = append(op.Disclosed, r)
	}
	for _, r := range pop.Undecided {
		r.Label += " in the piece " + piece
		op.Undecided = append(op.Undecided, r)
	}
	if e := pop.Evidence; e != nil {
		op.Evidence.Add(*e)
	}
}

// checkJoint checks every non-empty full cell against the intervals
// combined from the pieces' (V \ W has one cell: see above).
func (a *Auditor) checkJoint(s *separated, op *OperatorReport, deadline time.Time) (bool, error) {
	var cells []jointCell
	for x, lv := range a.micro.levels {
		cells = append(cells, jointCell{lv, a.micro.counts[x], "a full cell; the pieces joined"})
	}
	return a.checkCombined(s, cells, op, deadline)
}

// checkCollapsedCells checks the non-empty cells of the table over W,
// with their own counts, against the intervals combined from the pieces'
// (ProtectCollapsed; the table over W is not built: its non-empty cells
// are the projections of the non-empty full cells).
func (a *Auditor) checkCollapsedCells(s *separated, op *OperatorReport, deadline time.Time) (bool, error) {
	byKey := map[string]int{}
	var cells []jointCell
	key := make([]byte, 0, 4*len(s.w))
	for x, lv := range a.micro.levels {
		key = key[:0]
		for _, j := range s.w {
			key = append(key, byte(lv[j]), byte(lv[j]>>8), byte(lv[j]>>16), byte(lv[j]>>24))
		}
		if c, ok := byKey[string(key)]; ok {
			cells[c].count += a.micro.counts[x]
			continue
		}
		byKey[string(key)] = len(cells)
		cells = append(cells, jointCell{lv, a.micro.counts[x], "collapsed cell; the pieces joined"})
	}
	return a.checkCombined(s, cells, op, deadline)
}

// jointCell is a cell checked on the pieces' combined intervals: a full
// cell (its levels) or a cell of the table over W (the levels of one full
// cell inside it, of which only W's are read), with its count.
type jointCell struct {
	lv    []int32
	count int64
	what  string
}

// checkCombined computes every cell of every piece (proven and attained
// intervals) and checks cells on their combination (2. and 3. above). It
// reports false when a piece's margins admit no integer table.
func (a *Auditor) checkCombined(s *separated, cells []jointCell, op *OperatorReport, deadline time.Time) (bool, error) {
	md := a.micro.md
	ivs := make([]*intervals, len(s.pieces))
	var methods []string
	sharp := true
	for i, in := range s.pieces {
		ms := s.dec.Components[i].Margins
		pop := &OperatorReport{}
		iv, err := in.bounds(ms, &model.MarginSet{Vars: ms.Vars}, pop, deadline, true)
		if errors.Is(err, cellbounds.ErrInfeasible) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		ivs[i] = iv
		sharp = sharp && iv.sharp
		op.Cached = op.Cached || pop.Cached
		if !slices.Contains(methods, iv.method) {
			methods = append(methods, iv.method)
		}
	}
	op.Sharp = op.Sharp && sharp
	if op.Method == "" {
		op.Method = "separators(" + strings.Join(methods, ",") + ")"
	}
	sepVars := make([][]int, len(s.dec.Separators))
	for i, sp := range s.dec.Separators {
		sepVars[i] = toPositions(s.w, sp.Vars)
	}
	index := func(vs []int, lv []int32) int {
		y := 0
		for _, j := range vs {
			y = y*len(md.Vars[j].Levels) + int(lv[j])
		}
		return y
	}
	for _, c := range cells {
		q := a.policy.RequiredWidth(c.count)
		if q == 0 {
			continue
		}
		op.Cells++
		hi, inHi := int64(math.MaxInt64), int64(math.MaxInt64)
		var sumLo, sumInLo int64
		known := true
		for i, iv := range ivs {
			y := index(s.vars[i], c.lv)
			hi, inHi = min(hi, iv.hi[y]), min(inHi, iv.inHi[y])
			sumLo, sumInLo = sumLo+iv.lo[y], sumInLo+iv.inLo[y]
			known = known && iv.inHi[y] >= iv.inLo[y]
		}
		for i, sp := range s.dec.Separators {
			n := sp.Marginal.Counts[index(sepVars[i], c.lv)]
			sumLo, sumInLo = sumLo-n, sumInLo-n
		}
		lo, inLo := max(0, sumLo), max(0, sumInLo)
		if hi-lo >= q && known && inHi-inLo >= q {
			if sharp {
				op.Evidence.Sharp++
			} else {
				op.Evidence.Witness++
			}
			continue
		}
		var parts []string
		for _, j := range s.w {
			parts = append(parts, md.Vars[j].Name+"="+md.Vars[j].Levels[c.lv[j]])
		}
		risk := CellRisk{Cell: -1, Label: strings.Join(parts, ",") + " (" + c.what + ")", Count: c.count,
			Lower: lo, Upper: hi, AttainedLower: inLo, AttainedUpper: inHi, Required: q}
		if hi-lo < q {
			op.Disclosed = append(op.Disclosed, risk)
			if sharp {
				op.Evidence.Sharp++
			} else {
				op.Evidence.Proven++
			}
		} else {
			op.Undecided = append(op.Undecided, risk)
			op.Evidence.Undecided++
		}
	}
	return true, nil
}

// tooLargeText says which table exceeds MaxCells, in cells (Collapse's
// limit is in bytes, 8 a cell).
func tooLargeText(err error, maxCells int) string {
	var tl *datasets.TooLargeError
	if !errors.As(err, &tl) {
		return fmt.Sprintf("%v (the max-cells limit is %s)", err, plural(maxCells, "cell"))
	}
	return fmt.Sprintf("the table over %s (%s levels) has %s cells, more than the max-cells limit of %s",
		tl.Vars, tl.Dims, tl.Cells, plural(maxCells, "cell"))
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// tooLarge is the decision when a table the decision needs exceeds
// MaxCells: denied as undecided, without evidence.
func (a *Auditor) tooLarge(req Request, sub []int, err error, start time.Time) *Decision {
	mode := req.Mode
	if mode == "" {
		mode = ModeRelease
	}
	d := &Decision{RequestID: req.RequestID, Requester: req.Requester, Time: req.Time, Margin: a.names(sub), Mode: mode,
		PolicyVersion: a.policy.Version(), Outcome: Denied, Operator: &OperatorReport{Disclosed: []CellRisk{},
			Undecided: []CellRisk{{Cell: -1, Label: "every cell"}}}}
	d.Operator.Explanation = "undecided: " + tooLargeText(err, a.micro.mopt.MaxCells)
	d.Operator.Seconds = time.Since(start).Seconds()
	return d
}

// simulatePieces answers a denied request in simulate mode from a table
// simulated over part of W (see the derivation above): the public view
// (without the request) is decomposed at its clique separators with known
// margins; U is the union of the pieces that hold a variable of the
// request, the pieces on the tree paths between them, and the request's
// variables in no released margin. The table over U is drawn (Simulate)
// from the view's margins inside U and the margins of the separators
// joining U to the other pieces. It extends to a table over W with every
// released margin: the pieces outside U hang off U at those separators,
// each with some table having its margins (the view has a table, as every
// release was consistent with the ones before it), and they glue along the
// separators' margins. So the simulated margin is consistent with the
// view, as the one drawn over W would be (the two are different draws). It
// returns nil (the table over w simulates) when the view does not split
// or U would exceed MaxCells.
func (a *Auditor) simulatePieces(h *History, sub, w []int, d *Decision, seed uint64, note string, start, deadline time.Time) (*Decision, error) {
	view, pos := a.viewOver(h, w)
	if view == nil || len(view.Margins) == 0 {
		return nil, nil
	}
	dec, err := frechet.Decompose(view)
	if err != nil {
		return nil, nil
	}
	ws := toPositions(pos, sub)
	n := len(dec.Components)
	need := make([]bool, n)
	in := make([]bool, n)
	anyNeed := false
	for i, c := range dec.Components {
		in[i] = true
		for _, v := range ws {
			if slices.Contains(c.Vars, v) {
				need[i], anyNeed = true, true
			}
		}
	}
	if !anyNeed {
		return nil, nil
	}
	// The least subtree of the decomposition's tree that holds the needed
	// pieces: drop the leaves that are not needed until none is left.
	degree := func(i int) int {
		k := 0
		for _, sp := range dec.Separators {
			if (sp.Parent == i && in[sp.Child]) || (sp.Child == i && in[sp.Parent]) {
				k++
			}
		}
		return k
	}
	for changed := true; changed; {
		changed = false
		for i := range n {
			if in[i] && !need[i] && degree(i) <= 1 {
				in[i], changed = false, true
			}
		}
	}
	inU := make([]bool, len(w))
	for i, c := range dec.Components {
		if in[i] {
			for _, v := range c.Vars {
				inU[v] = true
			}
		}
	}
	for _, v := range ws {
		inU[v] = true // also the request's variables in no released margin
	}
	var u []int // positions in w
	upos := make([]int, len(w))
	for v, ok := range inU {
		upos[v] = -1
		if ok {
			upos[v] = len(u)
			u = append(u, v)
		}
	}
	ms := &model.MarginSet{Vars: make([]model.Variable, len(u))}
	for i, v := range u {
		ms.Vars[i] = view.Vars[v]
	}
	if model.NumCells(model.Dims(ms.Vars)) > a.micro.mopt.MaxCells {
		return nil, nil
	}
	inside := func(vs []int) bool {
		for _, v := range vs {
			if !inU[v] {
				return false
			}
		}
		return true
	}
	for _, m := range view.Margins {
		if inside(m.Vars) {
			ms.Margins = append(ms.Margins, &model.Marginal{Vars: toPositions(upos, m.Vars), Counts: m.Counts})
		}
	}
	for _, sp := range dec.Separators {
		if in[sp.Parent] == in[sp.Child] {
			continue
		}
		sv := toPositions(upos, sp.Vars)
		if _, ok := ms.MarginalOf(sv); !ok {
			ms.Margins = append(ms.Margins, &model.Marginal{Vars: sv, Counts: sp.Marginal.Counts})
		}
	}
	op := d.Operator
	why := a.reason(op)
	unames := strings.Join(a.names(toPositions(w, u)), ":")
	left := time.Until(deadline)
	if left <= 0 {
		d.Outcome = Denied
		op.Explanation = why + "; no time left to simulate within the decision's time limit" + note
		op.Seconds = time.Since(start).Seconds()
		return d, nil
	}
	sim, err := Simulate(ms, seed, a.opt.Solver, left)
	switch {
	case errors.Is(err, ErrNoTable):
		d.Outcome = Denied
		op.Explanation = why + "; simulation impossible: no integer table has every released margin" + note
	case errors.Is(err, ErrSimulationLimit):
		d.Outcome = Denied
		op.Explanation = why + "; the simulation found no table within the decision's time limit" + note
	case err != nil:
		return nil, err
	default:
		m, err := sim.Collapse(toPositions(upos, ws))
		if err != nil {
			return nil, err
		}
		d.Outcome, d.Counts, d.Simulated = Simulated, m.Counts, true
		op.SimulationSeed, op.SimulationMethod = seed, SimulationMethod
		op.Explanation = why + fmt.Sprintf("; answered from a table over %s (%d cells) simulated from the public releases inside it and its separators' margins", unames, len(sim.Counts)) + note
	}
	op.Seconds = time.Since(start).Seconds()
	return d, nil
}
