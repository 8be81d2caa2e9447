package colgen

import (
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
)

// evalAnchored is exactShares.eval by a branch and bound per record
// (enumerate.Prepared.MinShares): it finds each record's smallest share
// μ_v = min(0, min_{C∋v} rc_C/|C|) over the groups of k..2k−1 records
// without listing the groups of negative reduced cost, so it has no cap
// and is exact whenever it finishes before the deadline; cut short, each
// record keeps a lower bound on μ_v (the open part of its search), so the
// bound Σ_v (λ_v + μ_v) stays valid. The supergradient (g not nil and
// exact) is eval's, from the groups attaining the μ_v; cut short, g
// holds the same formula over the best groups found (e.partial), an
// estimate the ascent may step with when the bound still improved.
func (e *exactShares) evalAnchored(lambda []float64, deadline time.Time, g []float64) (float64, bool) {
	n, k := e.d.N, e.k
	opts := &enumerate.SharesOptions{Workers: e.workers, Deadline: deadline, Hints: e.hints}
	if e.hasBeat {
		beat := e.beat
		opts.Beat = &beat
	}
	res, err := e.prep.MinShares(lambda, k, min(2*k-1, n), opts)
	if err != nil {
		return math.Inf(-1), false
	}
	e.abandoned, e.estimate = res.Abandoned, res.Estimate
	if res.Exact {
		// The groups attaining the shares seed the next call (the
		// ascent's next duals are close): most records then start with
		// their final share as cutoff.
		e.hints = e.hints[:0]
		seen := make(map[*int]bool)
		for _, c := range res.Group {
			if c != nil && !seen[&c[0]] {
				seen[&c[0]] = true
				e.hints = append(e.hints, c)
			}
		}
	}
	e.Nodes += res.Nodes
	copy(e.share, res.Share)
	// The groups found, as eval's listing leaves them (groups, argmin):
	// the box master takes its columns from them (shareColumns).
	e.groups = e.groups[:0]
	idx := make(map[*int]int32)
	for v := range n {
		e.argmin[v] = -1
		c := res.Group[v]
		if c == nil {
			continue
		}
		i, ok := idx[&c[0]]
		if !ok {
			i = int32(len(e.groups))
			idx[&c[0]] = i
			rc := e.d.GroupCost(c)
			for _, u := range c {
				rc -= lambda[u]
			}
			e.groups = append(e.groups, model.Column{Members: c, ReducedCost: rc})
		}
		e.argmin[v] = i
	}
	b, mag := sharesSum(lambda, e.share)
	b -= sharesSlack * mag
	// Cut short, g is only an estimate (from the best groups found): the
	// ascent may still step with it (ascent.step, partialStep).
	e.partial = !res.Exact && g != nil
	if g != nil {
		for v := range n {
			g[v] = 1
		}
		for v := range n {
			if c := res.Group[v]; c != nil {
				w := 1 / float64(len(c))
				for _, u := range c {
					g[u] -= w
				}
			}
		}
	}
	return b, res.Exact
}

// weights is the diagonal scaling D of the ascent's steps on exactShares
// (ascent.step moves λ along D·g, Polyak's step measured in ‖g‖_D²): each
// record's start dual over their mean, at least a tenth of it; start is
// read on the first call only (the ascent's start duals, the
// nearest-neighbour duals). At the start every share is 0 and g = 1, so
// the first steps scale the start duals up: on Tarragona k = 10 the
// nearest-neighbour duals times 1.4 still give every record the share 0
// (a bound of 26.7 IL against 19.2), while the same sum added evenly
// makes thousands of groups negative in the dense part of the data,
// whose duals are small.
func (e *exactShares) weights(start []float64) []float64 {
	if e.scale != nil {
		return e.scale
	}
	n := len(start)
	mean := 0.0
	for _, x := range start {
		mean += x
	}
	mean /= float64(n)
	e.scale = make([]float64, n)
	for i, x := range start {
		e.scale[i] = 1
		if mean > 0 {
			e.scale[i] = max(x, mean/10) / mean
		}
	}
	return e.scale
}

// scaleInc is the first increment of the factor of the ascent's scaling
// phase; it doubles after each evaluation that rose and took less than
// scaleCheap, and halves after each that did not rise.
const (
	scaleInc   = 0.05
	scaleCheap = 250 * time.Millisecond
)

// scaleStep is a step of the scaling phase that opens the ascent on
// exactShares: the bound at the start duals times a factor, raised from
// 1 by scaleInc (the increment doubling while the evaluations rise and
// are cheap, halving when one falls or is cut short; the bound is
// concave in λ, so along this ray it rises to one maximum and falls).
// When the increment falls below scaleInc/4 the phase ends, the ascent
// goes on from the best point (with its supergradient), and its
// steps along D·g (weights) keep to the start duals' proportions. On
// Tarragona k = 10 the factor 1.4 gives 26.7 IL with every share 0 (the
// nearest-neighbour duals give 19.2; BenchmarkShares), while plain
// subgradient steps from them made thousands of groups of the data's
// dense part negative within a few steps. It returns the bound (−Inf
// when the deadline passed first).
func (a *ascent) scaleStep(deadline time.Time) float64 {
	e := a.ex
	if e.start == nil {
		e.start, e.factor, e.inc = slices.Clone(a.best), 1, scaleInc
	}
	f := e.factor + e.inc
	for i, x := range e.start {
		a.lambda[i] = f * x
	}
	t0 := time.Now()
	e.hasBeat, e.beat = true, a.bestVal
	val, exact := e.eval(a.lambda, deadline, a.g)
	if math.IsInf(val, -1) {
		copy(a.lambda, a.best)
		return val
	}
	a.Steps++
	a.sinceBest++
	if val > a.bestVal+1e-9*math.Max(1, math.Abs(a.bestVal)) {
		a.bestVal, e.factor = val, f
		a.sinceBest = 0
		copy(a.best, a.lambda)
		if exact {
			a.lastOK = time.Since(t0)
			e.gLast = append(e.gLast[:0], a.g...)
			if a.lastOK < scaleCheap {
				e.inc *= 2
			}
			return val
		}
		e.gLast = nil // the supergradient of an evaluation cut short is an estimate
	} else if e.inc /= 2; e.inc >= scaleInc/4 {
		// The bound fell, or its evaluation was cut short: half the
		// increment from the best factor.
		copy(a.lambda, a.best)
		return val
	}
	// The increment has shrunk to a quarter of scaleInc: the ascent goes
	// on from the best point.
	e.scaled = true
	copy(a.lambda, a.best)
	if e.gLast != nil {
		e.gBest = e.gLast // the next step starts from the best point (ascent.step)
	}
	return val
}
