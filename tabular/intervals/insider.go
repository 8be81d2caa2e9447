package intervals

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/tabular"
)

// DefaultMaxInsiders is how many insiders InsiderAudit audits when
// InsiderSettings.MaxInsiders is 0. Each costs one Compute (two LPs per
// suppressed cell) unless its knowledge changes no prior bound.
const DefaultMaxInsiders = 50

// ErrInsider is the sentinel of a table the insider audit cannot model:
// a magnitude table with a negative cell value (an insider's own
// contributions bound the cells it contributes to from below only when
// every contribution is non-negative).
var ErrInsider = errors.New("intervals: insider audit not possible")

// InsiderKind says what an insider is.
type InsiderKind int

const (
	// Respondent: one respondent (or one holding, with Insider.Holding),
	// known by its ID in the cells' Top (TopHolding) lists.
	Respondent InsiderKind = iota
	// Coalition: the two contributors (respondents or holdings) of a
	// suppressed cell with two, pooling what they know.
	Coalition
	// CellInsider: the contributor(s) of a suppressed cell with Freq 1
	// (or 2, as a coalition) whose contributors the table does not name
	// (a table file, or a Top list shorter than Freq): it knows that
	// cell's value exactly, and that every cell containing it is at
	// least as large.
	CellInsider
)

var insiderKindNames = [...]string{"respondent", "coalition", "cell"}

// String returns "respondent", "coalition" or "cell".
func (k InsiderKind) String() string {
	if k < 0 || int(k) >= len(insiderKindNames) {
		return fmt.Sprintf("InsiderKind(%d)", int(k))
	}
	return insiderKindNames[k]
}

// Insider is one audited insider: who it is and why it was chosen.
type Insider struct {
	Kind    InsiderKind
	Holding bool     // IDs are holdings (TopHolding), not respondents
	IDs     []string // the respondents or holdings (one, or two for a coalition); nil for a CellInsider
	Cell    int      // CellInsider: the cell it knows; −1 otherwise
	// Reason is the first reason it was chosen, as text: "alone in (…)",
	// "the two contributors of (…)", "one of the two contributors of
	// (…)", "largest contributor of (…)".
	Reason string
	// Reused is true when its knowledge changed no suppressed cell's prior
	// bounds, so the plain intervals were used (no solve).
	Reused bool
	Solves int // LPs or MIPs solved for it
}

// Name returns "respondent r7", "holding h2", "coalition r1+r2" or "cell
// (region=N, sector=a)" (the cell's name given by name).
func (in *Insider) Name(name func(int) string) string {
	switch in.Kind {
	case CellInsider:
		return "cell (" + name(in.Cell) + ")"
	case Coalition:
		return "coalition " + strings.Join(in.IDs, "+")
	}
	if in.Holding {
		return "holding " + strings.Join(in.IDs, "+")
	}
	return "respondent " + strings.Join(in.IDs, "+")
}

// InsiderFinding is one primary cell that an insider's knowledge breaks
// while the plain audit passes it.
type InsiderFinding struct {
	Insider int    // index in InsiderReport.Insiders
	Cell    int    // the primary cell
	Name    string // its name
	Value   float64
	// Lower and Upper are the cell's interval given the published cells,
	// the relations, the prior and the insider's knowledge.
	Lower, Upper float64
	// Own is the insider's known contribution to the cell (0 when it
	// contributes nothing it knows of).
	Own float64
	// Requirement names what was required: "levels" (the cell's own
	// protection levels) or "levels+p*(P)" (also the insider's level of
	// a p % or pq rule, P = p or 100·p/q; InsiderAudit's doc).
	Requirement string
	// NeedLower and NeedUpper: the interval must reach at or below
	// NeedLower and at or above NeedUpper.
	NeedLower, NeedUpper float64
	// ShortBelow is Lower − NeedLower when positive, ShortAbove is
	// NeedUpper − Upper when positive (beyond AuditTol).
	ShortBelow, ShortAbove float64
	// Disclosed: the interval is one point (the insider recomputes the
	// cell).
	Disclosed bool
}

// LargestEstimate is the largest contributor's estimate of the others in
// a primary cell of a magnitude table (InsiderAudit's doc).
type LargestEstimate struct {
	Cell  int
	Name  string
	Value float64 // X
	ID    string  // the largest contributor (Top[0])
	X1    float64 // its contribution
	Freq  int
	// Lower and Upper: the cell's interval as the largest contributor
	// knows it (from its insider audit when it was audited, else the
	// plain interval raised to at least X1; FromInsider says which).
	Lower, Upper float64
	FromInsider  bool
	// Outsider: the plain audit already breaks the cell (its plain
	// interval misses its levels or is one point); OK ignores the
	// estimate then.
	Outsider bool
	// OthersLower and OthersUpper: its estimate of the others' total,
	// [Lower − X1, Upper − X1]; when Freq is 2 that is its estimate of
	// the second contributor X2 = X − X1.
	OthersLower, OthersUpper float64
	// NeedLower and NeedUpper: what the estimate of the others must
	// reach (the requirement of InsiderFinding, minus X1).
	NeedLower, NeedUpper float64
	Requirement          string
	Within               bool // the estimate reaches both
}

// InsiderReport is the outcome of InsiderAudit.
type InsiderReport struct {
	Insiders []Insider // audited, in order of priority
	// Candidates is the number of insiders found; those beyond
	// MaxInsiders (Candidates − len(Insiders)) were not audited.
	Candidates int
	Findings   []InsiderFinding  // in order of insider, then cell
	Largest    []LargestEstimate // one per primary cell with Top and Freq ≥ 2, in cell order (none for weighted tables)
	Solves     int
	// Decided counts the (insider, primary cell) pairs that InsiderDecide
	// decided from a witness point, without a solve (0 for InsiderAudit).
	Decided int
}

// OK reports whether no insider breaks a primary cell and every largest
// contributor's estimate is within tolerance (on cells the plain audit
// passes).
func (r *InsiderReport) OK() bool {
	if len(r.Findings) > 0 {
		return false
	}
	for _, l := range r.Largest {
		if !l.Within && !l.Outsider {
			return false
		}
	}
	return true
}

// Skipped is the number of insiders found but not audited.
func (r *InsiderReport) Skipped() int { return r.Candidates - len(r.Insiders) }

// InsiderSettings are the options of InsiderAudit; nil means defaults.
type InsiderSettings struct {
	// Settings are those of the plain audit (engine, parameters, integer
	// intervals, the outsider's Prior); default nil. Each insider's
	// intervals are computed with them, the Prior narrowed by the
	// insider's knowledge (certificates are not kept).
	Settings *Settings
	// MaxInsiders caps the number of insiders audited, in order of
	// priority (see InsiderAudit). Default DefaultMaxInsiders; negative:
	// no cap.
	MaxInsiders int
}

// InsiderAudit checks the suppressed cells of t against insiders: its
// respondents (or holdings) who know their own contributions, and
// coalitions of the two contributors of a cell. r is the plain result,
// Compute(t, s.Settings), reused for insiders whose knowledge changes no
// prior bound (nil: computed here). See the package documentation,
// section Insiders, for the model, the insiders chosen and the
// requirement. Errors: ErrInsider (wrapped) for a magnitude table with a
// negative value, and Compute's errors. A nil t panics.
func InsiderAudit(t *tabular.Table, r *Result, s *InsiderSettings) (*InsiderReport, error) {
	if s == nil {
		s = &InsiderSettings{}
	}
	base, r, a, rep, cands, err := startInsiders(t, r, s)
	if err != nil {
		return nil, err
	}
	largestRes := map[string]*Result{}
	for k := range cands {
		in := &cands[k]
		kn := a.knowledge(in)
		res := r
		if a.changes(kn) {
			set := *base
			set.Prior, set.NoCertificates = a.prior(kn), true
			var err error
			if res, err = Compute(t, &set); err != nil {
				return nil, fmt.Errorf("insider %s: %w", in.Name(t.CellName), err)
			}
			in.Solves = res.Solves
			rep.Solves += res.Solves
		} else {
			in.Reused = true
		}
		if in.Kind == Respondent && !in.Holding {
			largestRes[in.IDs[0]] = res
		}
		for _, iv := range res.Intervals {
			if iv.Status != tabular.Primary || kn.whole[iv.Cell] || a.outsider[iv.Cell] {
				continue
			}
			f := a.check(in, kn, &iv)
			if f.ShortBelow > 0 || f.ShortAbove > 0 || f.Disclosed {
				f.Insider = k
				rep.Findings = append(rep.Findings, f)
			}
		}
	}
	rep.Insiders = cands
	if a.identities() {
		rep.Largest = a.largestOf(r, func(id string, cell int) (*Interval, bool) {
			if res, ok := largestRes[id]; ok {
				return res.Lookup(cell)
			}
			return nil, false
		})
	}
	return rep, nil
}

// knowledge is what one insider knows: lb[i] ≤ its contribution to cell
// i (exact where exact[i]), and whole[i] when it makes up cell i alone.
type knowledge struct {
	lb    []float64
	exact []bool
	whole []bool
}

type insiderAudit struct {
	t       *tabular.Table
	s       *Settings
	rels    []tabular.Relation
	nonNeg  bool
	baseLo  func(i int) (float64, float64)
	covered []bool // Top lists every contributor
	// outsider: primary cells the plain audit already breaks
	outsider map[int]bool
}

// outsiderBreaks returns the primary cells whose plain interval misses
// their levels or is one point (Audit's verdicts).
func outsiderBreaks(t *tabular.Table, r *Result) map[int]bool {
	rep := Audit(r, func(i int) (float64, float64) { return t.Cells[i].Lower, t.Cells[i].Upper })
	out := map[int]bool{}
	for _, f := range rep.UnderProtected {
		out[f.Cell] = true
	}
	for _, f := range rep.Disclosed {
		if f.Status == tabular.Primary {
			out[f.Cell] = true
		}
	}
	return out
}

// identities reports whether the contributions of t can be used: a
// magnitude table without weights (a weighted table keeps unweighted
// contributions beside weighted values, and a respondent need not know
// its weight).
func (a *insiderAudit) identities() bool { return a.t.Magnitude && !a.t.Weighted }

func newInsiderAudit(t *tabular.Table, s *Settings) *insiderAudit {
	a := &insiderAudit{t: t, s: s, nonNeg: true}
	for rel := range t.Relations() {
		a.rels = append(a.rels, rel)
	}
	a.covered = make([]bool, len(t.Cells))
	for i := range t.Cells {
		c := &t.Cells[i]
		a.covered[i] = a.identities() && c.Freq > 0 && len(c.Top) >= c.Freq
	}
	a.baseLo = func(i int) (float64, float64) {
		if s.Prior != nil {
			return s.Prior(i, t.Cells[i].Value)
		}
		return 0, math.Inf(1)
	}
	return a
}

// candidates lists the insiders in order of priority: those alone in a
// suppressed cell (singletons: respondents, holdings, cells), the
// coalitions of the two contributors of a suppressed cell, each of those
// two alone, the largest contributor (respondent, then holding) of each
// primary cell; within a class in cell order, duplicates dropped.
func (a *insiderAudit) candidates() []Insider {
	t := a.t
	var out []Insider
	seen := map[string]bool{}
	add := func(in Insider) {
		key := fmt.Sprintf("%d/%v/%d/%s", in.Kind, in.Holding, in.Cell, strings.Join(in.IDs, "\x00"))
		if in.Kind == Coalition {
			ids := slices.Clone(in.IDs)
			slices.Sort(ids)
			key = fmt.Sprintf("%d/%v/%s", in.Kind, in.Holding, strings.Join(ids, "\x00"))
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, in)
		}
	}
	resp := func(id string, holding bool, why string) Insider {
		return Insider{Kind: Respondent, Holding: holding, IDs: []string{id}, Cell: -1, Reason: why}
	}
	for class := 0; class < 4; class++ {
		for i := range t.Cells {
			c := &t.Cells[i]
			if !c.Status.Suppressed() {
				continue
			}
			name := "(" + t.CellName(i) + ")"
			hpair := a.identities() && len(c.TopHolding) == 2 && a.sumIs(c.TopHolding, c.Value)
			hsingle := a.identities() && len(c.TopHolding) == 1 && a.sumIs(c.TopHolding, c.Value)
			switch class {
			case 0: // singletons
				if c.Freq == 1 && a.covered[i] {
					add(resp(c.Top[0].ID, false, "alone in "+name))
				} else if c.Freq == 1 {
					add(Insider{Kind: CellInsider, Cell: i, Reason: "the single contributor of " + name})
				}
				if hsingle && c.Freq > 1 {
					add(resp(c.TopHolding[0].ID, true, "alone in "+name))
				}
			case 1: // coalitions
				if c.Freq == 2 && a.covered[i] {
					add(Insider{Kind: Coalition, IDs: []string{c.Top[0].ID, c.Top[1].ID}, Cell: -1, Reason: "the two contributors of " + name})
				} else if c.Freq == 2 {
					add(Insider{Kind: CellInsider, Cell: i, Reason: "the two contributors of " + name})
				}
				if hpair && c.Freq > 2 {
					add(Insider{Kind: Coalition, Holding: true, IDs: []string{c.TopHolding[0].ID, c.TopHolding[1].ID}, Cell: -1,
						Reason: "the two contributors of " + name})
				}
			case 2: // each of a pair
				if c.Freq == 2 && a.covered[i] {
					add(resp(c.Top[0].ID, false, "one of the two contributors of "+name))
					add(resp(c.Top[1].ID, false, "one of the two contributors of "+name))
				}
				if hpair && c.Freq > 2 {
					add(resp(c.TopHolding[0].ID, true, "one of the two contributors of "+name))
					add(resp(c.TopHolding[1].ID, true, "one of the two contributors of "+name))
				}
			case 3: // largest contributors of primary cells
				if c.Status != tabular.Primary || !a.identities() {
					continue
				}
				if len(c.Top) > 0 {
					add(resp(c.Top[0].ID, false, "largest contributor of "+name))
				}
				if len(c.TopHolding) > 0 {
					add(resp(c.TopHolding[0].ID, true, "largest contributor of "+name))
				}
			}
		}
	}
	return out
}

// sumIs reports whether the contributions sum to v (within AuditTol).
func (a *insiderAudit) sumIs(cs []tabular.Contribution, v float64) bool {
	s := 0.0
	for _, c := range cs {
		s += c.Value
	}
	return math.Abs(s-v) <= AuditTol*math.Max(1, math.Abs(v))
}

// list returns the contributions of cell i the insider is named in.
func (a *insiderAudit) list(in *Insider, i int) []tabular.Contribution {
	if in.Holding {
		return a.t.Cells[i].TopHolding
	}
	return a.t.Cells[i].Top
}

// knowledge derives what in knows of every cell. Its contributions are
// read from the Top (TopHolding) lists where they name it (exact), and
// bounded below elsewhere through the relations: its contribution to a
// total is at least the sum of its known contributions to the parts.
func (a *insiderAudit) knowledge(in *Insider) *knowledge {
	t := a.t
	n := len(t.Cells)
	kn := &knowledge{lb: make([]float64, n), exact: make([]bool, n), whole: make([]bool, n)}
	var contains []bool
	if in.Kind == CellInsider {
		contains = make([]bool, n)
		contains[in.Cell] = true
		kn.lb[in.Cell], kn.exact[in.Cell], kn.whole[in.Cell] = t.Cells[in.Cell].Value, true, true
	} else {
		for i := range t.Cells {
			cs := a.list(in, i)
			found, sum := 0, 0.0
			for _, c := range cs {
				if slices.Contains(in.IDs, c.ID) {
					found++
					sum += c.Value
				}
			}
			if found == 0 {
				continue
			}
			kn.lb[i], kn.exact[i] = sum, found == len(in.IDs)
			if in.Holding {
				// A holding (or two) whose contributions make up all of
				// the cell.
				kn.whole[i] = kn.exact[i] && math.Abs(sum-t.Cells[i].Value) <= AuditTol*math.Max(1, math.Abs(sum))
			} else {
				kn.whole[i] = a.covered[i] && found == t.Cells[i].Freq
			}
		}
	}
	// Propagate lower bounds (and containment) up the relations until
	// nothing changes; each pass reaches at least one level higher.
	for pass := 0; pass <= len(a.rels); pass++ {
		changed := false
		for _, rel := range a.rels {
			s, has := 0.0, false
			for _, p := range rel.Parts {
				s += kn.lb[p]
				if contains != nil && contains[p] {
					has = true
				}
			}
			if s > kn.lb[rel.Total]+AuditTol*math.Max(1, s) && !kn.exact[rel.Total] {
				kn.lb[rel.Total], changed = s, true
			}
			if has && !contains[rel.Total] {
				contains[rel.Total], changed = true, true
			}
		}
		if !changed {
			break
		}
	}
	if contains != nil {
		// A cell containing the known one with as many contributors has
		// the same contributors: the insider makes it up too.
		f := t.Cells[in.Cell].Freq
		for i := range t.Cells {
			if contains[i] && f > 0 && t.Cells[i].Freq == f {
				kn.whole[i], kn.exact[i], kn.lb[i] = true, true, t.Cells[i].Value
			}
		}
	}
	return kn
}

// changes reports whether kn narrows the prior of a suppressed cell.
func (a *insiderAudit) changes(kn *knowledge) bool {
	for i := range a.t.Cells {
		if !a.t.Cells[i].Status.Suppressed() {
			continue
		}
		lo, up := a.baseLo(i)
		if kn.whole[i] && (lo < a.t.Cells[i].Value || up > a.t.Cells[i].Value) {
			return true
		}
		if kn.lb[i] > lo {
			return true
		}
	}
	return false
}

// prior returns the outsider's prior narrowed by kn.
func (a *insiderAudit) prior(kn *knowledge) func(int, float64) (float64, float64) {
	return func(i int, v float64) (float64, float64) {
		lo, up := a.baseLo(i)
		if kn.whole[i] {
			return v, v
		}
		lo = math.Max(lo, math.Min(kn.lb[i], up))
		return lo, up
	}
}

// pStar returns the largest p* of the p % and pq rules in a cell's Rule
// ("freq(3)+p(15)+holding:pq(10,50)") at the respondent or holding level:
// p for p(p), 100·p/q for pq(p,q); 0 when none.
func pStar(rule string, holding bool) float64 {
	best := 0.0
	for _, r := range strings.Split(rule, "+") {
		r = strings.TrimSpace(r)
		h := strings.HasPrefix(r, "holding:")
		r = strings.TrimPrefix(r, "holding:")
		if h != holding {
			continue
		}
		var args string
		var pq bool
		switch {
		case strings.HasPrefix(r, "p(") && strings.HasSuffix(r, ")"):
			args = r[2 : len(r)-1]
		case strings.HasPrefix(r, "pq(") && strings.HasSuffix(r, ")"):
			args, pq = r[3:len(r)-1], true
		default:
			continue
		}
		f := strings.Split(args, ",")
		p, err := strconv.ParseFloat(strings.TrimSpace(f[0]), 64)
		if err != nil || p <= 0 {
			continue
		}
		if pq {
			if len(f) != 2 {
				continue
			}
			q, err := strconv.ParseFloat(strings.TrimSpace(f[1]), 64)
			if err != nil || q <= 0 {
				continue
			}
			p = 100 * p / q
		} else if len(f) != 1 {
			continue
		}
		best = math.Max(best, p)
	}
	return best
}

// requirement returns what the interval of primary cell j must reach
// against insider in (InsiderAudit's doc): NeedLower, NeedUpper, the
// insider's own contribution and the requirement's name.
func (a *insiderAudit) requirement(in *Insider, kn *knowledge, j int) (needLo, needHi, own float64, name string) {
	c := &a.t.Cells[j]
	x := c.Value
	up, lo := c.Upper, c.Lower
	own = kn.lb[j]
	name = "levels"
	if in.Kind != CellInsider && kn.exact[j] && own > 0 {
		if p := pStar(c.Rule, in.Holding); p > 0 {
			// The largest contribution that is not the insider's.
			xt, ok := 0.0, false
			cs := a.list(in, j)
			for _, ct := range cs {
				if !slices.Contains(in.IDs, ct.ID) {
					xt, ok = ct.Value, true
					break
				}
			}
			if ok {
				ur := p/100*xt - (x - own - xt)
				lr := math.Min(ur, x-own)
				up, lo = math.Max(up, ur), math.Max(lo, lr)
				name = "levels+p*(" + strconv.FormatFloat(p, 'g', -1, 64) + ")"
			}
		}
	}
	needLo, needHi = math.Max(x-lo, own), x+up
	return needLo, needHi, own, name
}

func (a *insiderAudit) check(in *Insider, kn *knowledge, iv *Interval) InsiderFinding {
	needLo, needHi, own, name := a.requirement(in, kn, iv.Cell)
	f := InsiderFinding{Cell: iv.Cell, Name: iv.Name, Value: iv.Value, Lower: iv.Lower, Upper: iv.Upper, Own: own,
		Requirement: name, NeedLower: needLo, NeedUpper: needHi, Disclosed: iv.Disclosed()}
	tol := AuditTol * math.Max(1, math.Abs(iv.Value))
	if s := iv.Lower - needLo; s > tol {
		f.ShortBelow = s
	}
	if s := needHi - iv.Upper; s > tol {
		f.ShortAbove = s
	}
	return f
}

// largestOf returns the largest contributor's estimate of the others in
// every primary cell with Top and at least two contributors; byID gives
// the cell's interval as that contributor knows it, when it was audited.
func (a *insiderAudit) largestOf(r *Result, byID func(id string, cell int) (*Interval, bool)) []LargestEstimate {
	var out []LargestEstimate
	for _, iv0 := range r.Intervals {
		c := &a.t.Cells[iv0.Cell]
		if iv0.Status != tabular.Primary || len(c.Top) == 0 || c.Freq < 2 {
			continue
		}
		x1 := c.Top[0]
		in := &Insider{Kind: Respondent, IDs: []string{x1.ID}, Cell: -1}
		kn := a.knowledge(in)
		e := LargestEstimate{Cell: iv0.Cell, Name: iv0.Name, Value: iv0.Value, ID: x1.ID, X1: x1.Value, Freq: c.Freq,
			Outsider: a.outsider[iv0.Cell]}
		iv := iv0
		if p, ok := byID(x1.ID, iv0.Cell); ok {
			iv, e.FromInsider = *p, true
		}
		e.Lower, e.Upper = math.Max(iv.Lower, math.Min(x1.Value, iv.Upper)), iv.Upper
		needLo, needHi, _, name := a.requirement(in, kn, iv0.Cell)
		e.OthersLower, e.OthersUpper = e.Lower-x1.Value, e.Upper-x1.Value
		e.NeedLower, e.NeedUpper, e.Requirement = needLo-x1.Value, needHi-x1.Value, name
		tol := AuditTol * math.Max(1, math.Abs(iv0.Value))
		e.Within = e.Lower <= needLo+tol && e.Upper >= needHi-tol &&
			math.Abs(e.Upper-e.Lower) > SnapTol*math.Max(1, math.Abs(iv0.Value))
		out = append(out, e)
	}
	return out
}

// startInsiders is the common start of InsiderAudit and InsiderDecide:
// the plain audit's settings, the plain result r (computed when nil),
// the audit's state, an empty report and the insiders to audit (capped
// by s.MaxInsiders).
func startInsiders(t *tabular.Table, r *Result, s *InsiderSettings) (*Settings, *Result, *insiderAudit, *InsiderReport, []Insider, error) {
	base := &Settings{}
	if s.Settings != nil {
		c := *s.Settings
		base = &c
	}
	if err := insiderNonNegative(t); err != nil {
		return nil, nil, nil, nil, nil, err
	}
	if r == nil {
		var err error
		if r, err = Compute(t, base); err != nil {
			return nil, nil, nil, nil, nil, err
		}
	}
	a := newInsiderAudit(t, base)
	a.outsider = outsiderBreaks(t, r)
	cands := a.candidates()
	rep := &InsiderReport{Candidates: len(cands)}
	limit := s.MaxInsiders
	if limit == 0 {
		limit = DefaultMaxInsiders
	}
	if limit > 0 && len(cands) > limit {
		cands = cands[:limit]
	}
	return base, r, a, rep, cands, nil
}
