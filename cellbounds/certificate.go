package cellbounds

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
)

// Certificates make every bound checkable without trusting an engine
// (Verify). A lower bound L of cell c is
//
//   - attained when an integer table with the released margins has x_c = L
//     (a witness: non-negative integers that reproduce every released
//     margin exactly), so no sharper lower bound exists;
//   - proven by a dual vector y over marginal cells of the down-closure
//     of the released margins (lp.CornerSystem): for every table x with
//     the margins, x_c = yᵀb + Σ_j d_j·x_j with d = e_c − Aᵀy, and
//     0 ≤ x_j ≤ u_j (u_j the least released marginal cell containing j),
//     so x_c ≥ yᵀb + Σ_j min(0, d_j)·u_j, and the integer x_c is at least
//     the ceiling of that. This holds for any y: an engine's round-off
//     only weakens the bound, never makes it wrong (Neumaier & Shcherbina's
//     safe bound). y is stored as integers over one denominator, so the
//     check is exact integer arithmetic;
//   - proven trivially: L = 0 (x ≥ 0), or for an upper bound U = u_c;
//   - or taken on an engine's word: an integer program solved to
//     optimality, its final gap recorded ("ip").
//
// Upper bounds alike, with max(0, d_j) and the floor. A bound is sharp when
// it is both attained and proven (by a dual vector, trivially, or by an
// IP on the engine's word).
type Certificates struct {
	Version int `json:"version"`
	// Vars are the table's variables and levels; cells are numbered
	// row-major over them (the first variable slowest), as everywhere.
	Vars []CertificateVar `json:"vars"`
	// Margins are the released margins (variable names joined by ':').
	Margins []string `json:"margins"`
	// DualMargins are the marginals the dual vectors refer to: subsets of
	// released margins (the empty one is the grand total, "").
	DualMargins []string `json:"dual_margins"`
	// Witnesses are integer tables with the released margins, in cell
	// order; bounds refer to them by index.
	Witnesses [][]int64 `json:"witnesses"`
	// Cells holds one entry per cell.
	Cells []CellCertificate `json:"cells"`
}

// CertificateVersion is the format version Certificates carry.
const CertificateVersion = 1

// CertificateVar is a variable with its levels.
type CertificateVar struct {
	Name   string   `json:"name"`
	Levels []string `json:"levels"`
}

// CellCertificate holds the evidence for one cell's bounds.
type CellCertificate struct {
	Lower BoundCertificate `json:"lower"`
	Upper BoundCertificate `json:"upper"`
}

// Proof kinds of a BoundCertificate.
const (
	ProofNone    = "none"    // valid (by the method) but no checkable proof
	ProofTrivial = "trivial" // 0 for a lower bound, u_c for an upper bound
	ProofDual    = "dual"    // Dual proves it
	ProofIP      = "ip"      // an integer program proved it, on the engine's word
)

// BoundCertificate is the evidence for one bound.
type BoundCertificate struct {
	Value int64 `json:"value"`
	// Proof is one of ProofNone, ProofTrivial, ProofDual, ProofIP.
	Proof string `json:"proof"`
	// Witness is the index of a witness table attaining Value, or -1.
	Witness int         `json:"witness"`
	Dual    *DualVector `json:"dual,omitempty"`
	// Engine and Gap describe an IP proof: the engine and its final
	// relative gap.
	Engine string   `json:"engine,omitempty"`
	Gap    *float64 `json:"gap,omitempty"`
}

// DualVector is a dual vector y with entries Numerator/Denominator on
// cells of the dual margins.
type DualVector struct {
	Denominator int64 `json:"denominator"`
	// Entries are (index into Certificates.DualMargins, cell of that
	// marginal table, numerator) triples; absent cells are 0.
	Entries [][3]int64 `json:"entries"`
}

// Verification statuses of a bound (CellVerification).
const (
	StatusProven     = "proven"           // attained by a witness and proven by a dual vector or trivially
	StatusEngineWord = "engine's word"    // attained, and proven by an IP on the engine's word
	StatusAttained   = "attained only"    // a witness, no proof
	StatusDualOnly   = "dual only"        // proven, no witness
	StatusNoEvidence = "no evidence"      // neither: valid by the method that computed it, not checkable
	StatusLoose      = "valid, not sharp" // looser than the certificate's bound, which proves it
	StatusInvalid    = "invalid"          // the evidence contradicts the bound
)

// CellVerification is what Verify found for one cell.
type CellVerification struct {
	Cell         int    `json:"cell"`
	Lower, Upper int64  `json:"-"`
	LowerStatus  string `json:"lower_status"`
	UpperStatus  string `json:"upper_status"`
	// Reason says why a bound is invalid.
	Reason string `json:"reason,omitempty"`
}

// Verification is the outcome of Verify.
type Verification struct {
	Cells  []CellVerification `json:"cells"`
	Counts map[string]int     `json:"counts"` // bounds per status
	// Invalid counts the cells with an invalid bound.
	Invalid int `json:"invalid"`
	// SharpBounds counts the bounds that verify and are sharp
	// (BoundCertificate.Sharp); SharpCells the cells whose two bounds are.
	SharpBounds int `json:"sharp_bounds"`
	SharpCells  int `json:"sharp_cells"`
	// Refused lists the claims refused that belong to no cell: witness
	// tables that are not tables with the margins (referenced or not) and,
	// with VerifyResult, fields of the result.
	Refused []string `json:"refused"`
	// NotChecked lists the fields of the result VerifyResult does not
	// check, with the reason.
	NotChecked []FieldNote `json:"not_checked,omitempty"`
}

// OK reports that nothing was found invalid or refused.
func (v *Verification) OK() bool { return v.Invalid == 0 && len(v.Refused) == 0 }

// ErrCertificate is wrapped when certificates do not belong to the margins
// (other variables or margins, wrong sizes): nothing can be checked.
var ErrCertificate = errors.New("cellbounds: certificates do not match the margins")

// WriteCertificates writes c as JSON.
func WriteCertificates(w io.Writer, c *Certificates) error {
	enc := json.NewEncoder(w)
	return enc.Encode(c)
}

// ReadCertificates reads certificates written by WriteCertificates.
func ReadCertificates(r io.Reader) (*Certificates, error) {
	var c Certificates
	dec := json.NewDecoder(r)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCertificate, err)
	}
	if c.Version != CertificateVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrCertificate, c.Version, CertificateVersion)
	}
	return &c, nil
}

// marginSpec names a margin by its variables joined with ':'.
func marginSpec(vars []model.Variable, sub []int) string {
	names := make([]string, len(sub))
	for i, v := range sub {
		names[i] = vars[v].Name
	}
	return strings.Join(names, ":")
}

// parseMarginSpec is the inverse of marginSpec ("" is the empty set).
func parseMarginSpec(vars []model.Variable, spec string) ([]int, error) {
	if spec == "" {
		return []int{}, nil
	}
	var sub []int
	for _, name := range strings.Split(spec, ":") {
		i := slices.IndexFunc(vars, func(v model.Variable) bool { return v.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown variable %q", name)
		}
		if len(sub) > 0 && sub[len(sub)-1] >= i {
			return nil, fmt.Errorf("margin %q: variables out of order", spec)
		}
		sub = append(sub, i)
	}
	return sub, nil
}

// checker verifies certificates against a margin set: the released
// margins, the marginals of the down-closure, the trivial upper bounds
// and, per dual margin, the projection of every cell.
type checker struct {
	ms    *model.MarginSet
	dims  []int
	n     int
	upper []int64
	// Per dual margin (indexed as Certificates.DualMargins): the subset,
	// its marginal counts (nil when it is no subset of a released margin)
	// and every full cell's cell in it.
	subs  [][]int
	marg  [][]int64
	proj  [][]int32
	witOK []error // per witness: nil when valid
}

func newChecker(ms *model.MarginSet, c *Certificates) (*checker, error) {
	dims := model.Dims(ms.Vars)
	ck := &checker{ms: ms, dims: dims, n: model.NumCells(dims)}
	if len(c.Vars) != len(ms.Vars) {
		return nil, fmt.Errorf("%w: %d variables, the margins have %d", ErrCertificate, len(c.Vars), len(ms.Vars))
	}
	for i, v := range c.Vars {
		if v.Name != ms.Vars[i].Name || !slices.Equal(v.Levels, ms.Vars[i].Levels) {
			return nil, fmt.Errorf("%w: variable %d is %s%v, the margins have %s%v", ErrCertificate, i+1, v.Name, v.Levels, ms.Vars[i].Name, ms.Vars[i].Levels)
		}
	}
	var released []string
	for _, m := range ms.Margins {
		released = append(released, marginSpec(ms.Vars, m.Vars))
	}
	if !slices.Equal(c.Margins, released) {
		return nil, fmt.Errorf("%w: certificates for margins %v, given %v", ErrCertificate, c.Margins, released)
	}
	if len(c.Cells) != ck.n {
		return nil, fmt.Errorf("%w: %d cells, the table has %d", ErrCertificate, len(c.Cells), ck.n)
	}
	ck.upper = lp.TrivialUppers(ms)
	lv := make([]int, len(dims))
	for _, spec := range c.DualMargins {
		sub, err := parseMarginSpec(ms.Vars, spec)
		if err != nil {
			return nil, fmt.Errorf("%w: dual margin %q: %v", ErrCertificate, spec, err)
		}
		marg, _ := lp.SubsetMarginal(ms, sub) // nil: not implied by the release
		proj := make([]int32, ck.n)
		for j := range proj {
			model.CellLevels(dims, j, lv)
			proj[j] = int32(model.Project(dims, sub, lv))
		}
		ck.subs, ck.marg, ck.proj = append(ck.subs, sub), append(ck.marg, marg), append(ck.proj, proj)
	}
	for _, w := range c.Witnesses {
		ck.witOK = append(ck.witOK, ck.checkWitness(w))
	}
	return ck, nil
}

// checkWitness: non-negative integers, one per cell, reproducing every
// released margin exactly.
func (ck *checker) checkWitness(w []int64) error {
	if len(w) != ck.n {
		return fmt.Errorf("witness of %d cells for a table of %d", len(w), ck.n)
	}
	for j, v := range w {
		if v < 0 {
			return fmt.Errorf("witness cell %d is negative (%d)", j, v)
		}
	}
	t := &model.Table{Vars: ck.ms.Vars, Counts: w}
	for _, m := range ck.ms.Margins {
		got, err := t.Collapse(m.Vars)
		if err != nil {
			return err
		}
		if !slices.Equal(got.Counts, m.Counts) {
			return fmt.Errorf("witness does not reproduce margin %s", model.MarginalName(ck.ms.Vars, m.Vars))
		}
	}
	return nil
}

// dualBound returns the integer bound that y proves for cell c: a lower
// bound (the ceiling) or an upper bound (the floor), exactly.
func (ck *checker) dualBound(y *DualVector, c int, upper bool) (int64, error) {
	if y.Denominator <= 0 {
		return 0, fmt.Errorf("dual denominator %d is not positive", y.Denominator)
	}
	// The dense numerators per dual margin used.
	dense := map[int][]int64{}
	num := new(big.Int) // Σ p·b
	t := new(big.Int)
	for _, e := range y.Entries {
		k, cell, p := int(e[0]), int(e[1]), e[2]
		if k < 0 || k >= len(ck.subs) {
			return 0, fmt.Errorf("dual entry refers to dual margin %d of %d", k, len(ck.subs))
		}
		if ck.marg[k] == nil {
			return 0, fmt.Errorf("dual margin %s is in no released margin", marginSpec(ck.ms.Vars, ck.subs[k]))
		}
		if cell < 0 || cell >= len(ck.marg[k]) {
			return 0, fmt.Errorf("dual entry refers to cell %d of a marginal of %d", cell, len(ck.marg[k]))
		}
		if dense[k] == nil {
			dense[k] = make([]int64, len(ck.marg[k]))
		}
		if math.Abs(float64(dense[k][cell])+float64(p)) > 1<<62 {
			return 0, errors.New("dual entries too large")
		}
		dense[k][cell] += p
		num.Add(num, t.Mul(big.NewInt(p), big.NewInt(ck.marg[k][cell])))
	}
	// Aᵀp per cell, exactly: every term is below 2^62 / (number of
	// margins) or we fall back to big integers.
	limit := float64(int64(1)<<62) / float64(len(dense)+1)
	for _, d := range dense {
		for _, p := range d {
			if math.Abs(float64(p)) > limit {
				return ck.dualBoundBig(dense, num, y.Denominator, c, upper), nil
			}
		}
	}
	D := y.Denominator
	for j := 0; j < ck.n; j++ {
		var s int64
		for k, d := range dense {
			s += d[ck.proj[k][j]]
		}
		dj := -s
		if j == c {
			dj += D
		}
		if (upper && dj > 0) || (!upper && dj < 0) {
			num.Add(num, t.Mul(big.NewInt(dj), big.NewInt(ck.upper[j])))
		}
	}
	return roundDiv(num, D, upper), nil
}

// dualBoundBig is dualBound's accumulation in big integers.
func (ck *checker) dualBoundBig(dense map[int][]int64, num *big.Int, D int64, c int, upper bool) int64 {
	s, t := new(big.Int), new(big.Int)
	for j := 0; j < ck.n; j++ {
		s.SetInt64(0)
		for k, d := range dense {
			s.Add(s, big.NewInt(d[ck.proj[k][j]]))
		}
		s.Neg(s)
		if j == c {
			s.Add(s, big.NewInt(D))
		}
		if (upper && s.Sign() > 0) || (!upper && s.Sign() < 0) {
			num.Add(num, t.Mul(s, big.NewInt(ck.upper[j])))
		}
	}
	return roundDiv(num, D, upper)
}

// roundDiv is floor(num/D) (upper) or ceil(num/D), clamped to int64.
func roundDiv(num *big.Int, D int64, upper bool) int64 {
	q, m := new(big.Int).QuoRem(num, big.NewInt(D), new(big.Int))
	// QuoRem truncates toward zero.
	if m.Sign() != 0 {
		if upper && num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		}
		if !upper && num.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
	}
	switch {
	case !q.IsInt64() && q.Sign() > 0:
		return math.MaxInt64
	case !q.IsInt64():
		return math.MinInt64
	}
	return q.Int64()
}

// Verify re-checks certificates against the margins and the reported
// bounds (lower, upper per cell; NaN where a bound is unknown). Every
// witness is checked in integer arithmetic (non-negative, every released
// margin reproduced exactly), every dual vector by the exact integer bound
// it proves (see Certificates). A bound is invalid when it is tighter than
// the certificate's value, the witness is invalid or does not attain that
// value, or the proof does not prove it. A reported bound looser than a
// proven certificate value is StatusLoose: valid, not sharp. The error is
// non-nil only when the certificates do not belong to the margins
// (ErrCertificate). Every witness table is checked, whether a bound refers
// to it or not: one that is not a table with the margins is reported in
// Refused. SharpBounds and SharpCells count the sharp bounds
// (BoundCertificate.Sharp) among those that verify.
func Verify(ms *model.MarginSet, lower, upper []float64, c *Certificates) (*Verification, error) {
	v, _, err := verify(ms, lower, upper, c)
	return v, err
}

// verify is Verify, also returning its checker.
func verify(ms *model.MarginSet, lower, upper []float64, c *Certificates) (*Verification, *checker, error) {
	ck, err := newChecker(ms, c)
	if err != nil {
		return nil, nil, err
	}
	if len(lower) != ck.n || len(upper) != ck.n {
		return nil, nil, fmt.Errorf("%w: %d/%d reported bounds for %d cells", ErrCertificate, len(lower), len(upper), ck.n)
	}
	v := &Verification{Counts: map[string]int{}, Refused: []string{}}
	// Every witness is a claim (a table with the margins), whether a bound
	// refers to it or not.
	for i, werr := range ck.witOK {
		if werr != nil {
			v.Refused = append(v.Refused, fmt.Sprintf("certificates: witness %d: %v", i, werr))
		}
	}
	for j := range c.Cells {
		cv := CellVerification{Cell: j}
		var reasons []string
		cv.LowerStatus = ck.verifyBound(&c.Cells[j].Lower, c.Witnesses, j, lower[j], false, &reasons)
		cv.UpperStatus = ck.verifyBound(&c.Cells[j].Upper, c.Witnesses, j, upper[j], true, &reasons)
		if c.Cells[j].Lower.Value > c.Cells[j].Upper.Value {
			cv.LowerStatus, cv.UpperStatus = StatusInvalid, StatusInvalid
			reasons = append(reasons, "lower bound above upper bound")
		}
		cv.Reason = strings.Join(reasons, "; ")
		v.Counts[cv.LowerStatus]++
		v.Counts[cv.UpperStatus]++
		if cv.LowerStatus == StatusInvalid || cv.UpperStatus == StatusInvalid {
			v.Invalid++
		}
		v.Cells = append(v.Cells, cv)
	}
	v.countSharp(c)
	return v, ck, nil
}

// CheckCounts marks as invalid every bound that excludes its cell's true
// count: counts[j] (the confidential table's count of cell j, where the
// bounds report it; negative = not reported) must lie in [lower[j],
// upper[j]], the bounds v verified. It panics when the lengths differ
// from v's cells.
func (v *Verification) CheckCounts(counts []int64, lower, upper []float64) {
	if len(counts) != len(v.Cells) || len(lower) != len(v.Cells) || len(upper) != len(v.Cells) {
		panic("cellbounds: CheckCounts: lengths differ from the verified cells")
	}
	for j := range v.Cells {
		cv := &v.Cells[j]
		n := counts[j]
		if n < 0 {
			continue
		}
		was := cv.LowerStatus == StatusInvalid || cv.UpperStatus == StatusInvalid
		var reasons []string
		if cv.Reason != "" {
			reasons = append(reasons, cv.Reason)
		}
		if float64(n) < lower[j] {
			reasons = append(reasons, fmt.Sprintf("lower: the count %d is below the bound %v", n, lower[j]))
			v.Counts[cv.LowerStatus]--
			cv.LowerStatus = StatusInvalid
			v.Counts[StatusInvalid]++
		}
		if float64(n) > upper[j] {
			reasons = append(reasons, fmt.Sprintf("upper: the count %d is above the bound %v", n, upper[j]))
			v.Counts[cv.UpperStatus]--
			cv.UpperStatus = StatusInvalid
			v.Counts[StatusInvalid]++
		}
		cv.Reason = strings.Join(reasons, "; ")
		if !was && (cv.LowerStatus == StatusInvalid || cv.UpperStatus == StatusInvalid) {
			v.Invalid++
		}
	}
}

// verifyBound checks one bound of cell c and returns its status.
func (ck *checker) verifyBound(b *BoundCertificate, wit [][]int64, c int, reported float64, upper bool, reasons *[]string) string {
	side := "lower"
	if upper {
		side = "upper"
	}
	fail := func(format string, args ...any) string {
		*reasons = append(*reasons, side+": "+fmt.Sprintf(format, args...))
		return StatusInvalid
	}
	// A reported bound looser than the certificate's value is valid when
	// the certificate proves its own value (or the reported bound is no
	// tighter than the trivial range); a tighter one is contradicted by
	// the certificate's witness or unproven.
	loose := false
	switch v := float64(b.Value); {
	case math.IsNaN(reported):
		return fail("certificate value %d, no reported bound", b.Value)
	case (!upper && reported < v) || (upper && reported > v):
		loose = true
	case reported != v:
		return fail("certificate value %d, reported bound %v", b.Value, reported)
	}
	attained := false
	if b.Witness >= 0 {
		switch {
		case b.Witness >= len(wit):
			return fail("witness %d of %d", b.Witness, len(wit))
		case ck.witOK[b.Witness] != nil:
			return fail("witness %d: %v", b.Witness, ck.witOK[b.Witness])
		case wit[b.Witness][c] != b.Value:
			return fail("witness %d has %d in the cell, not %d", b.Witness, wit[b.Witness][c], b.Value)
		}
		attained = true
	}
	proven, engine := false, false
	switch b.Proof {
	case ProofTrivial:
		if (!upper && b.Value > 0) || (upper && b.Value < ck.upper[c]) {
			return fail("not a trivial bound (trivial range [0,%d])", ck.upper[c])
		}
		proven = true
	case ProofDual:
		if b.Dual == nil {
			return fail("dual proof without a dual vector")
		}
		got, err := ck.dualBound(b.Dual, c, upper)
		if err != nil {
			return fail("%v", err)
		}
		if (!upper && got < b.Value) || (upper && got > b.Value) {
			return fail("the dual vector proves %d, not %d", got, b.Value)
		}
		proven = true
	case ProofIP:
		engine = true
	case ProofNone, "":
	default:
		return fail("unknown proof %q", b.Proof)
	}
	if loose {
		if proven || (!upper && reported <= 0) || (upper && reported >= float64(ck.upper[c])) {
			return StatusLoose
		}
		return StatusNoEvidence
	}
	switch {
	case attained && proven:
		return StatusProven
	case attained && engine:
		return StatusEngineWord
	case attained:
		return StatusAttained
	case proven:
		return StatusDualOnly
	case engine:
		return StatusEngineWord
	}
	return StatusNoEvidence
}

// Sharp reports whether a bound's evidence makes it the sharp integer
// bound. This is the one definition of "sharp" for certified bounds (the
// run's note and counts, the gap report and bounds verify all count with
// it): a bound is sharp when its value is
//
//   - proven: by a dual vector, trivially (0, or the least released
//     marginal cell containing the cell), or by an integer program solved
//     to optimality (on the engine's word), so no table with the margins
//     goes beyond it; and
//   - attained: a witness of the certificates, an integer table with the
//     released margins, has the cell at that value, so no valid bound is
//     tighter.
//
// Verify counts a bound sharp only when, besides, its witness and proof
// check and the reported bound equals the certificate's value.
func (b *BoundCertificate) Sharp() bool {
	return b.Witness >= 0 && (b.Proof == ProofDual || b.Proof == ProofTrivial || b.Proof == ProofIP)
}

// SharpBounds counts the sharp bounds of c (BoundCertificate.Sharp) and
// tells per cell whether both of its bounds are sharp.
func (c *Certificates) SharpBounds() (int, []bool) {
	n := 0
	cells := make([]bool, len(c.Cells))
	for j := range c.Cells {
		lo, up := c.Cells[j].Lower.Sharp(), c.Cells[j].Upper.Sharp()
		if lo {
			n++
		}
		if up {
			n++
		}
		cells[j] = lo && up
	}
	return n, cells
}

// AddWitness appends w, an integer table with the released margins (not
// checked here: the caller knows it, Verify checks it), to the witnesses
// and makes it the witness of every bound without one whose value it
// attains. It returns w's index. It does not look for a copy of w among
// the witnesses.
func (c *Certificates) AddWitness(w []int64) int {
	idx := len(c.Witnesses)
	c.Witnesses = append(c.Witnesses, w)
	c.markWitness(idx)
	return idx
}

// markWitness makes witness idx the witness of every bound without one
// whose value it attains.
func (c *Certificates) markWitness(idx int) {
	w := c.Witnesses[idx]
	for j := range c.Cells {
		if j >= len(w) {
			break
		}
		cc := &c.Cells[j]
		if cc.Lower.Witness < 0 && w[j] == cc.Lower.Value {
			cc.Lower.Witness = idx
		}
		if cc.Upper.Witness < 0 && w[j] == cc.Upper.Value {
			cc.Upper.Witness = idx
		}
	}
}

// linkWitnesses gives every bound without a witness the first witness
// that attains its value, if any.
func (c *Certificates) linkWitnesses() {
	for i := range c.Witnesses {
		c.markWitness(i)
	}
}

// rationalize writes an engine's dual values as integers over one
// denominator: each value's continued-fraction approximation with a
// denominator of at most maxDenominator; when their least common multiple
// exceeds maxCommon, the values are scaled by 2^30 and rounded instead.
// Either way the certificate stays valid (the bound it proves is exact
// for the rational vector); only its strength may suffer.
func rationalize(y []float64) (int64, []int64) {
	const (
		maxDenominator = 1 << 12
		maxCommon      = 1 << 30
	)
	D := int64(1)
	for _, v := range y {
		if v == 0 {
			continue
		}
		_, q := bestRational(v, maxDenominator)
		D = lcm(D, q)
		if D > maxCommon {
			D = 1 << 30
			break
		}
	}
	p := make([]int64, len(y))
	for i, v := range y {
		p[i] = int64(math.Round(v * float64(D)))
	}
	return D, p
}

// bestRational returns the continued-fraction convergent p/q of v with the
// largest q <= maxQ.
func bestRational(v float64, maxQ int64) (int64, int64) {
	if math.Abs(v-math.Round(v)) < 1e-12 {
		return int64(math.Round(v)), 1
	}
	p0, q0, p1, q1 := int64(0), int64(1), int64(1), int64(0)
	x := v
	for i := 0; i < 40; i++ {
		a := math.Floor(x)
		if math.Abs(a) > 1<<40 {
			break
		}
		ai := int64(a)
		p2, q2 := ai*p1+p0, ai*q1+q0
		if q2 > maxQ || q2 <= 0 {
			break
		}
		p0, q0, p1, q1 = p1, q1, p2, q2
		if math.Abs(float64(p1)/float64(q1)-v) < 1e-12*math.Max(1, math.Abs(v)) {
			break
		}
		f := x - a
		if f < 1e-15 {
			break
		}
		x = 1 / f
	}
	if q1 == 0 {
		return int64(math.Round(v)), 1
	}
	return p1, q1
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

func lcm(a, b int64) int64 {
	if a == 0 || b == 0 {
		return max(a, b)
	}
	g := gcd(a, b)
	if a/g > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a / g * b
}
