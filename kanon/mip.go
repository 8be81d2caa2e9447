package kanon

import (
	"errors"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// mipGrace is how long past the deadline solveMIP waits for an engine
// that has not returned: the engines check their own time limit only
// between certain steps. HiGHS 1.15 (wasm) was measured spending 30-240 s
// past a 4-10 s limit on 27 Adult records, k = 3, inside its root node
// (the log stops after the randomized-rounding line; with no time limit
// the same step takes minutes) until solvers/highs stopped such solves
// itself at the limit plus 0.5 s + 5 %; CBC was measured 2.8 s past a 1 s
// limit and 6 s past 20 s on the same model.
func mipGrace(limit time.Duration) time.Duration {
	return time.Second + limit/20
}

// solveMIP solves one partition exactly with ip.SolveKAnonMIP (the
// GCP-optimal k-regular graph containing the identity), engine
// o.MIPSolver ("" = auto), default MIP gaps. The partition's bound is the
// engine's best bound on the partition's GCP.
//
// With a deadline (Options.TimeLimit, one for the whole Anonymize), the
// engine's time limit is the time left, and the engine runs in its own
// goroutine: when it has not returned by the deadline plus mipGrace, the
// partition is solved by the hungarian heuristic instead (no bound, not
// optimal, fellBack set) and the engine call is abandoned; so is a
// partition whose engine stopped at the limit without a feasible graph.
// An abandoned CBC call (C code, not interruptible) runs on in the
// background to its end and its result is dropped; HiGHS stops itself
// shortly after its time limit (see solvers/highs).
func solveMIP(t *model.QITable, k int, o *Options, deadline time.Time) (partResult, error) {
	if k == 1 {
		m := make([][]int32, t.N)
		for j := range m {
			m[j] = []int32{int32(j)}
		}
		return partResult{matched: m, bound: 0, optimal: true}, nil
	}
	prm := solvers.DefaultParams()
	if deadline.IsZero() {
		r, err := ip.SolveKAnonMIP(t, k, o.MIPSolver, prm)
		if err != nil {
			return partResult{}, err
		}
		return partResult{matched: r.Graph.Matched, bound: r.Bound, optimal: r.Optimal, solver: r.Solver}, nil
	}
	left := time.Until(deadline)
	if left <= 0 {
		return mipFallback(t, k, false) // started after the deadline
	}
	prm.TimeLimit = left
	type answer struct {
		r   *ip.KAnonMIPResult
		err error
	}
	done := make(chan answer, 1) // buffered: an abandoned call still ends
	go func() {
		r, err := ip.SolveKAnonMIP(t, k, o.MIPSolver, prm)
		done <- answer{r, err}
	}()
	timer := time.NewTimer(left + mipGrace(o.TimeLimit))
	defer timer.Stop()
	select {
	case a := <-done:
		if errors.Is(a.err, ip.ErrNoSolution) {
			// Stopped by the time limit before any feasible graph.
			return mipFallback(t, k, true)
		}
		if a.err != nil {
			return partResult{}, a.err
		}
		return partResult{matched: a.r.Graph.Matched, bound: a.r.Bound, optimal: a.r.Optimal, solver: a.r.Solver}, nil
	case <-timer.C:
		return mipFallback(t, k, true)
	}
}

// mipFallback solves a partition whose MIP did not finish in time by the
// hungarian rounds (exact assignments per round, fast on the small
// partitions the MIP takes); interrupted: the engine had been started.
func mipFallback(t *model.QITable, k int, interrupted bool) (partResult, error) {
	m, err := runRounds(t, k, roundHungarian)
	return partResult{matched: m, bound: math.NaN(), fellBack: true, interrupted: interrupted}, err
}
