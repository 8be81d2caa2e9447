//go:build cgo && coin

package coin

import (
	"fmt"
	"math"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// CLP and CBC check their time limits only inside their iteration loops.
// On large models the work before the first iteration (presolve, scaling,
// crash, the first factorization; CBC's preprocessing) was measured to
// run 3-5 s past a 3 s limit on a 10^6-column cell-bounds LP. An engine
// call is therefore stopped from outside as well when Params.HardStop asks
// for it: it runs on its own
// goroutine (a cgo call holds its own OS thread, so the Go runtime is not
// stalled by it), and when it has not returned by its time limit plus
// hardStopGrace the caller gets a time-limit result without a solution
// and goes on. The call itself cannot be interrupted: it is abandoned,
// runs on in the background until the engine stops by itself (at its
// next check of the limit), and then frees its model. A session whose
// call was abandoned is closed.

// hardStopGrace is solvers.HardStopGrace, how long past its time limit an
// engine call may run before it is abandoned. A variable so that a test
// can abandon a call early.
var hardStopGrace = solvers.HardStopGrace

// hardStop is the instant at which a call started now with prm is
// abandoned: its limit (Params.Limit: the time limit or the time left
// before the deadline) plus hardStopGrace; zero without a limit.
func hardStop(prm *solvers.Params) time.Time {
	l := prm.Limit()
	if l <= 0 || !prm.HardStop {
		return time.Time{}
	}
	return time.Now().Add(l + hardStopGrace(l))
}

// runStoppable runs call and reports whether it returned before stop
// (zero: call runs on the caller's goroutine, and always returns). When it
// did not, call runs on in the background and after, when not nil, runs
// once call has returned (to free what call uses).
func runStoppable(stop time.Time, call, after func()) bool {
	if stop.IsZero() {
		call()
		return true
	}
	done := make(chan struct{})
	go func() {
		call()
		close(done)
	}()
	t := time.NewTimer(time.Until(stop))
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
	}
	select {
	case <-done: // it returned just now
		return true
	default:
	}
	if after != nil {
		go func() {
			<-done
			after()
		}()
	}
	return false
}

// abandonedResult is the result of a call abandoned at its hard stop.
func abandonedResult(engine, what string, prm *solvers.Params, ran time.Duration) *solvers.Result {
	return &solvers.Result{Solver: engine, Status: solvers.TimeLimit, Abandoned: true, Objective: math.NaN(), BestBound: math.NaN(), Seconds: ran.Seconds(),
		Warnings: []string{fmt.Sprintf("%s did not stop at its time limit of %v; abandoned after %v (it finishes in the background; %s)",
			engine, prm.Limit().Round(time.Millisecond), ran.Round(time.Millisecond), what)}}
}
