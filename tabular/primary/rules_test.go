package primary

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// tol is the absolute tolerance of the comparisons of protection levels:
// the reference numbers are hand computations on values of order 100, so
// a few ulps of 100 are plenty.
const tol = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// cell100 is the running example of the hand computations below: total
// X = 100 from four contributors 50, 30, 10, 10 (x1 = 50, x2 = 30, the
// remainder X − x1 − x2 = 20).
var cell100 = Cell{Value: 100, Freq: 4, Top: []float64{50, 30, 10, 10}}

func checkLevel(t *testing.T, name string, got Level, sens bool, upper, lower float64) {
	t.Helper()
	if got.Sensitive != sens || !near(got.Upper, upper) || !near(got.Lower, lower) {
		t.Errorf("%s = %+v, want sensitive %v upper %g lower %g", name, got, sens, upper, lower)
	}
}

func TestPPercent(t *testing.T) {
	c := cell100
	// Hand computation, p = 15: remainder 20 ≥ 0.15·50 = 7.5, safe;
	// upper = 7.5 − 20 = −12.5 (the margin by which it is safe).
	checkLevel(t, "p(15)", PPercent(c.Top, c.Freq, c.Value, 15), false, -12.5, -12.5)
	// Hand computation, p = 50: 20 < 0.5·50 = 25, sensitive; upper = 25 − 20
	// = 5: at 105 the second contributor estimates x1 ≤ 105 − 30 = 75,
	// 25 = 50 % of x1 above it.
	checkLevel(t, "p(50)", PPercent(c.Top, c.Freq, c.Value, 50), true, 5, 5)
	// Boundary, hand computation: X = 130 from 100, 15, 15, p = 15:
	// remainder 15 = 0.15·100 exactly. The rule is strict (X − x1 − x2 <
	// p/100·x1 is sensitive, Handbook Table "Sensitivity rules": doc.go), so the
	// cell is safe with upper level 0.
	checkLevel(t, "p(15) at the threshold", PPercent([]float64{100, 15, 15}, 3, 130, 15), false, 0, 0)
	// Single contributor, hand computation: X = x1 = 40, x2 = 0, remainder
	// 0 < 0.15·40 = 6: sensitive whatever p, upper = lower = 6.
	checkLevel(t, "p(15) single", PPercent([]float64{40}, 1, 40, 15), true, 6, 6)
	// Two contributors, hand computation: X = 70 from 40 and 30: the
	// second knows the first exactly; remainder 0 < 0.15·40, upper 6.
	checkLevel(t, "p(15) two", PPercent([]float64{40, 30}, 2, 70, 15), true, 6, 6)
}

func TestDominance(t *testing.T) {
	c := cell100
	// Hand computation, nk(1,85): 50 ≤ 85; upper = 100/85·50 − 100 =
	// −41.176470588235294 (= −3500/85).
	checkLevel(t, "nk(1,85)", Dominance(c.Top, c.Freq, c.Value, 1, 85), false, -3500.0/85, -3500.0/85)
	// Hand computation, nk(2,75): 50 + 30 = 80 > 75: sensitive; upper =
	// 100/75·80 − 100 = 20/3: at X' = 320/3, 75 % of X' is exactly 80.
	checkLevel(t, "nk(2,75)", Dominance(c.Top, c.Freq, c.Value, 2, 75), true, 20.0/3, 20.0/3)
	// Boundary, hand computation: nk(2,80): 80 = 80 % of 100 exactly; the
	// rule is strict (x1+…+xn > k/100·X is sensitive), so the cell is safe
	// with upper level 0.
	checkLevel(t, "nk(2,80) at the threshold", Dominance(c.Top, c.Freq, c.Value, 2, 80), false, 0, 0)
	// Fewer contributors than n, hand computation: X = 100 from 60 and 40,
	// nk(3,90): the two make 100 > 90; upper = 100/90·100 − 100 = 100/9.
	checkLevel(t, "nk(3,90) two contributors", Dominance([]float64{60, 40}, 2, 100, 3, 90), true, 100.0/9, 100.0/9)
	// Single contributor, hand computation: nk(1,85) on X = x1 = 40: 40 >
	// 34, upper = 100/85·40 − 40 = 600/85.
	checkLevel(t, "nk(1,85) single", Dominance([]float64{40}, 1, 40, 1, 85), true, 600.0/85, 600.0/85)
	// The lower level is capped at X, hand computation: nk(1,10) on X = 40
	// alone: upper = 10·40 − 40 = 360, lower = min(360, 40) = 40.
	checkLevel(t, "nk(1,10) single", Dominance([]float64{40}, 1, 40, 1, 10), true, 360, 40)
	// k = 100 never fires: S_n ≤ X always, hand computation upper = 100 −
	// 100 = 0 on a single contributor.
	checkLevel(t, "nk(1,100) single", Dominance([]float64{40}, 1, 40, 1, 100), false, 0, 0)
}

func TestPQ(t *testing.T) {
	c := cell100
	// Hand computation, pq(15,50): q/100·remainder = 10 ≥ 0.15·50 = 7.5,
	// safe; upper = p/q·x1 − R = 0.3·50 − 20 = −5.
	checkLevel(t, "pq(15,50)", PQ(c.Top, c.Freq, c.Value, 15, 50), false, -5, -5)
	// Hand computation, pq(25,30): 0.3·20 = 6 < 0.25·50 = 12.5, sensitive;
	// upper = 25/30·50 − 20 = 65/3 ≈ 21.67. The intruder knows the
	// remainder within 30 %, so at X + U estimates x1 ≤ 100 + 65/3 − 30 −
	// 0.7·20 = 77.67, 27.67 above x1 = 50, more than the 25 % = 12.5 the
	// rule asks (the Handbook's level protects to p* = 100·25/30 % against
	// the intruder without prior knowledge, doc.go).
	checkLevel(t, "pq(25,30)", PQ(c.Top, c.Freq, c.Value, 25, 30), true, 65.0/3, 65.0/3)
	// pq(p,100) is the p % rule: levels identical.
	for _, p := range []float64{15, 50} {
		if a, b := PQ(c.Top, c.Freq, c.Value, p, 100), PPercent(c.Top, c.Freq, c.Value, p); a != b {
			t.Errorf("pq(%g,100) = %+v, p(%g) = %+v", p, a, p, b)
		}
	}
	// Sensitivity of pq(p,q) equals that of p(100·p/q): pq(25,30) ~
	// p(83.33…): 20 < 0.8333·50 = 41.67, sensitive (hand computation).
	if !PPercent(c.Top, c.Freq, c.Value, 100*25.0/30).Sensitive {
		t.Error("p(83.3) should find the cell sensitive")
	}
	// Prior knowledge makes a cell sensitive that the p % rule passes, hand
	// computation: X = 130 from 100, 15, 15 is at the p(15) threshold
	// (safe); pq(15,75): 0.75·15 = 11.25 < 0.15·100 = 15, sensitive, upper
	// 0.15/0.75·100 − 15 = 5. pq(15,100) is that p % boundary: safe,
	// upper 0.
	checkLevel(t, "pq(15,75)", PQ([]float64{100, 15, 15}, 3, 130, 15, 75), true, 5, 5)
	checkLevel(t, "pq(15,100) at the threshold", PQ([]float64{100, 15, 15}, 3, 130, 15, 100), false, 0, 0)
}

func TestMinFrequency(t *testing.T) {
	s := SafetyRange{Percent: 10}
	// Hand computation: freq(3) on 2 contributors, X = 200: sensitive, 10 %
	// of 200 = 20 both ways.
	checkLevel(t, "freq(3) f=2", MinFrequency(2, 200, 3, s), true, 20, 20)
	// Boundary: exactly n contributors is safe (the rule is 0 < f < n).
	checkLevel(t, "freq(3) f=3", MinFrequency(3, 200, 3, s), false, 0, 0)
	// Empty cells are never sensitive under the frequency rule.
	checkLevel(t, "freq(3) f=0", MinFrequency(0, 0, 3, s), false, 0, 0)
	// The larger of the absolute and percentage ranges: max(5, 10 % of 20
	// = 2) = 5.
	checkLevel(t, "freq(3) abs", MinFrequency(1, 20, 3, SafetyRange{Percent: 10, Absolute: 5}), true, 5, 5)
	// freq(1) never fires (0 < f < 1 is empty).
	checkLevel(t, "freq(1) f=1", MinFrequency(1, 20, 1, s), false, 0, 0)
}

// TestPPercentProperties checks on seeded random cells that the p % rule
// finds a cell sensitive exactly when its upper level is positive, and
// that the level is what the rule needs: at the interval's upper end X +
// max(upper, 0) the second contributor's estimate X + U − x2 of x1 errs by
// at least p % of x1, with equality when the cell is sensitive. Likewise
// for the (n,k) rule (at X + U the top n make at most k %) and the pq rule
// (the intruder's estimate X + U − x2 − (1 − q/100)·remainder).
func TestPPercentProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 1))
	for it := 0; it < 5000; it++ {
		f := 1 + rng.IntN(8)
		xs := make([]float64, f)
		for i := range xs {
			xs[i] = math.Round(1000*math.Pow(rng.Float64(), 3)) + 1
		}
		slices.SortFunc(xs, func(a, b float64) int { return -cmpf(a, b) })
		var x float64
		for _, v := range xs {
			x += v
		}
		x1, x2 := xs[0], top(xs, f, 2)
		rest := x - x1 - x2
		p := float64(1 + rng.IntN(100))
		q := p + float64(rng.IntN(int(101-p)))
		n := 1 + rng.IntN(3)
		k := float64(1 + rng.IntN(100))
		eps := 1e-9 * x // relative to the cell's magnitude

		l := PPercent(xs, f, x, p)
		if l.Sensitive != (l.Upper > 0) {
			t.Fatalf("p(%g) on %v: sensitive %v, upper %g", p, xs, l.Sensitive, l.Upper)
		}
		u := math.Max(l.Upper, 0)
		if err := (x + u - x2) - x1; err < p/100*x1-eps || (l.Sensitive && err > p/100*x1+eps) {
			t.Fatalf("p(%g) on %v: at X+U = %g the estimate errs by %g, want p%% of x1 = %g", p, xs, x+u, err, p/100*x1)
		}

		l = PQ(xs, f, x, p, q)
		if l.Sensitive != (l.Upper > 0) {
			t.Fatalf("pq(%g,%g) on %v: sensitive %v, upper %g", p, q, xs, l.Sensitive, l.Upper)
		}
		u = math.Max(l.Upper, 0)
		if err := (x + u - x2 - (1-q/100)*rest) - x1; err < p/100*x1-eps {
			t.Fatalf("pq(%g,%g) on %v: at X+U the estimate errs by %g < %g", p, q, xs, err, p/100*x1)
		}
		// ... and it is the level of the p* % rule, p* = 100·p/q: at X + U
		// the estimate X + U − x2 errs by exactly p*/100·x1 when sensitive.
		if err := (x + u - x2) - x1; l.Sensitive && math.Abs(err-p/q*x1) > eps {
			t.Fatalf("pq(%g,%g) on %v: at X+U the estimate X+U−x2 errs by %g, want p/q·x1 = %g", p, q, xs, err, p/q*x1)
		}

		l = Dominance(xs, f, x, n, k)
		if l.Sensitive != (l.Upper > 0) {
			t.Fatalf("nk(%d,%g) on %v: sensitive %v, upper %g", n, k, xs, l.Sensitive, l.Upper)
		}
		var s float64
		for i := 1; i <= n; i++ {
			s += top(xs, f, i)
		}
		u = math.Max(l.Upper, 0)
		if s > k/100*(x+u)+eps || (l.Sensitive && s < k/100*(x+u)-eps) {
			t.Fatalf("nk(%d,%g) on %v: at X+U = %g the top make %g, k%% is %g", n, k, xs, x+u, s, k/100*(x+u))
		}
		if f == 1 && (!PPercent(xs, f, x, p).Sensitive || (k < 100 && !Dominance(xs, f, x, n, k).Sensitive)) {
			t.Fatalf("single contributor %v not sensitive under p(%g) or nk(%d,%g)", xs, p, n, k)
		}
		if l.Lower > x || (l.Upper <= x && l.Lower != l.Upper) {
			t.Fatalf("nk(%d,%g) on %v: lower %g, upper %g, X %g", n, k, xs, l.Lower, l.Upper, x)
		}
	}
}

func cmpf(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Cell
		m    int
		ok   bool
	}{
		{"good", cell100, 2, true},
		{"few contributors need few tops", Cell{Value: 5, Freq: 1, Top: []float64{5}}, 3, true},
		{"unsorted", Cell{Value: 5, Freq: 2, Top: []float64{2, 3}}, 2, false},
		{"short", Cell{Value: 5, Freq: 3, Top: []float64{3}}, 2, false},
		{"negative", Cell{Value: 5, Freq: 2, Top: []float64{6, -1}}, 2, false},
		{"negative freq", Cell{Freq: -1}, 0, false},
		{"unsorted holding", Cell{Value: 5, Freq: 2, Top: []float64{3, 2}, HoldingTop: []float64{1, 4}}, 2, false},
	} {
		err := tc.c.Check(tc.m)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrCell)) {
			t.Errorf("%s: Check = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestHandbookExamples checks the worked examples of the Handbook on
// Statistical Disclosure Control, chapter 4 (online edition,
// sdcTools/HandbookSDC, chapters/04/…-02-Disclosure-Control-Concepts…qmd,
// the successor of Hundepool et al. 2012, ch. 4).
func TestHandbookExamples(t *testing.T) {
	// Example 1 (Sect. "Sensitive cells in magnitude tables"): X = 100,000,
	// x1 = 50,000, x2 = 49,000 is safe under the (1,90) rule, but the
	// second contributor's estimate 51,000 is only 2 % above x1. So the
	// cell is exactly at the p(2) threshold (R = 1,000 = 0.02·50,000:
	// safe, strict rule) and sensitive under p(2.5).
	top := []float64{50000, 49000, 1000}
	checkLevel(t, "Ex.1 nk(1,90)", Dominance(top, 3, 100000, 1, 90), false, 100.0/90*50000-100000, 100.0/90*50000-100000)
	checkLevel(t, "Ex.1 p(2)", PPercent(top, 3, 100000, 2), false, 0, 0)
	// p(2.5): upper = 0.025·50,000 − 1,000 = 250 (hand computation).
	checkLevel(t, "Ex.1 p(2.5)", PPercent(top, 3, 100000, 2.5), true, 250, 250)

	// Example 2: p = 10, k = 100·100/110 = 90.9; X = 110,000, x1 = 52,000,
	// x2 = 50,000. Safe under p(10) (the estimate 60,000 is 15.4 % above
	// x1); unsafe under (2,90.9) as 102,000 > 100,000. Levels by hand:
	// p(10): 5,200 − 8,000 = −2,800; nk(2,90.9): 110/100·102,000 −
	// 110,000 = 2,200.
	top = []float64{52000, 50000, 8000}
	checkLevel(t, "Ex.2 p(10)", PPercent(top, 3, 110000, 10), false, -2800, -2800)
	checkLevel(t, "Ex.2 nk(2,90.9)", Dominance(top, 3, 110000, 2, 10000.0/110), true, 2200, 2200)

	// Example 4 (Sect. "Secondary tabular data protection methods"): X =
	// 330 from 300, 20, 10 is unsafe under (1,85); the upper bound must
	// reach 100/85·300 = 352.94, an upper level of 22.94 (22.941176…).
	top = []float64{300, 20, 10}
	checkLevel(t, "Ex.4 nk(1,85)", Dominance(top, 3, 330, 1, 85), true, 100.0/85*300-330, 100.0/85*300-330)
	if l := Dominance(top, 3, 330, 1, 85); math.Abs(330+l.Upper-352.94) > 0.005 {
		t.Errorf("Ex.4: upper bound %g, the Handbook's 352.94", 330+l.Upper)
	}
}
