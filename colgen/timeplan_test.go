package colgen

import (
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/native/enumerate"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestTimePlanShares: the shares follow from the start and the options
// alone (deadlineMargin, a tenth for the polish, icsmStartDefault for the
// ICSM start, CloseTimeLimit for the gap-closing stage).
func TestTimePlanShares(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &fakeClock{t0}
	p := newTimePlan(t0, &Options{TimeLimit: 100 * time.Second}, c.now)
	if want := t0.Add(98 * time.Second); !p.end.Equal(want) {
		t.Fatalf("end %v, want %v", p.end, want)
	}
	if want := t0.Add(88 * time.Second); !p.loopEnd.Equal(want) || p.polishReserve != 10*time.Second {
		t.Fatalf("loopEnd %v reserve %v, want %v and 10s", p.loopEnd, p.polishReserve, want)
	}
	if b := p.icsmStartBox(); b != 25*time.Second {
		t.Fatalf("ICSM start box %v, want 25s", b)
	}
	c.advance(80 * time.Second)
	if b := p.icsmStartBox(); b != 8*time.Second {
		t.Fatalf("ICSM start box at 80 s: %v, want the 8 s left before loopEnd", b)
	}
	if d := p.closeDeadline(closeShare); !d.Equal(p.loopEnd) {
		t.Fatalf("close deadline %v, want loopEnd %v", d, p.loopEnd)
	}
	// The start's default box: a quarter up to 120 s, 30 s up to 360 s,
	// a twelfth beyond.
	for _, tc := range []struct{ limit, box time.Duration }{
		{60 * time.Second, 15 * time.Second}, {120 * time.Second, 30 * time.Second},
		{300 * time.Second, 30 * time.Second}, {600 * time.Second, 50 * time.Second},
		{1800 * time.Second, 150 * time.Second},
	} {
		if b := newTimePlan(t0, &Options{TimeLimit: tc.limit}, c.now).icsmLimit; b != tc.box {
			t.Errorf("limit %v: ICSM start box %v, want %v", tc.limit, b, tc.box)
		}
	}
	if b := newTimePlan(t0, &Options{TimeLimit: 600 * time.Second, ICSMTimeLimit: 7 * time.Second}, c.now).icsmLimit; b != 7*time.Second {
		t.Errorf("ICSMTimeLimit 7 s: box %v", b)
	}
	// Without ICSM the loop runs to the end.
	q := newTimePlan(t0, &Options{TimeLimit: 100 * time.Second, NoICSM: true}, c.now)
	if !q.loopEnd.Equal(q.end) || q.polishReserve != 0 {
		t.Fatalf("NoICSM: loopEnd %v end %v reserve %v", q.loopEnd, q.end, q.polishReserve)
	}
	// Without a limit: no deadlines; the gap-closing stage keeps its own.
	c = &fakeClock{t0}
	u := newTimePlan(t0, &Options{}, c.now)
	if !u.end.IsZero() || !u.loopEnd.IsZero() || u.icsmStartBox() != 0 || u.passed(u.loopEnd) {
		t.Fatalf("no limit: %+v", u)
	}
	if d := u.closeDeadline(1); !d.Equal(t0.Add(DefaultCloseTimeLimit)) {
		t.Fatalf("close deadline %v", d)
	}
	if b, note := u.polishBox(); b != 0 || note != "" {
		t.Fatalf("no limit: polish box %v %q", b, note)
	}
}

// TestPolishGetsItsShare: the polish gets the reserved share when the
// earlier phases keep theirs; when one overruns, the box shrinks or the
// polish is skipped, and the note names the phase and by how much.
func TestPolishGetsItsShare(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		endAt   time.Duration // when the close phase ends
		box     time.Duration // -1: skipped
		noteHas []string
	}{
		{"on time", 80 * time.Second, 18 * time.Second, nil},
		{"at loopEnd", 88 * time.Second, 10 * time.Second, nil},
		{"overran", 91 * time.Second, 7 * time.Second, []string{"cut short", "7.000 s of its reserved 10.000 s", "close phase ended 3.000 s after its share"}},
		{"overran past the end", 99 * time.Second, -1, []string{"skipped", "close phase ended 11.000 s after"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &fakeClock{t0}
			p := newTimePlan(t0, &Options{TimeLimit: 100 * time.Second}, clk.now)
			clk.advance(c.endAt)
			p.ended(PhaseClose)
			box, note := p.polishBox()
			if (c.box < 0) != (box < 0) || (c.box >= 0 && box != c.box) {
				t.Fatalf("box %v, want %v", box, c.box)
			}
			if len(c.noteHas) == 0 && note != "" {
				t.Fatalf("note %q, want none", note)
			}
			for _, w := range c.noteHas {
				if !strings.Contains(note, w) {
					t.Fatalf("note %q lacks %q", note, w)
				}
			}
		})
	}
}

// TestProgressDoesNotChangeTheRun: a slow progress callback (as a
// terminal's bar or a pipe's writes might be) leaves a run without a time
// limit exactly as pinned, and every report carries the phase and a
// lower bound that never decreases and never exceeds the incumbent.
func TestProgressDoesNotChangeTheRun(t *testing.T) {
	in := pinInputs()
	for _, i := range []int{0, 3} {
		c := in[i]
		opt := c.opt
		var reports []Progress
		opt.Progress = func(p Progress) {
			reports = append(reports, p)
			time.Sleep(time.Millisecond)
		}
		z := randomData(t, c.n, c.dim, c.seed)
		r, err := Run(z, c.k, &opt)
		if err != nil {
			t.Fatal(err)
		}
		p := pinCases[i]
		if abs(r.SSE-p.sse) > 1e-9*max(1, p.sse) || abs(r.LowerBound-p.bound) > 1e-7*max(1, p.bound) || r.Stopped != p.stopped {
			t.Fatalf("case %d: SSE %.12g bound %.12g %s, pinned %.12g %.12g %s", i, r.SSE, r.LowerBound, r.Stopped, p.sse, p.bound, p.stopped)
		}
		if r.Iterations != p.iterations || r.Columns != p.columns || r.Nodes != p.nodes || r.Source != p.source {
			t.Fatalf("case %d: iterations %d columns %d nodes %d source %s; pinned %d %d %d %s", i,
				r.Iterations, r.Columns, r.Nodes, r.Source, p.iterations, p.columns, p.nodes, p.source)
		}
		phases := map[string]bool{}
		last := 0.0
		for j, q := range reports {
			if q.Phase == "" {
				t.Fatalf("case %d: report %d has no phase", i, j)
			}
			phases[q.Phase] = true
			if q.LowerBound < last-1e-12 {
				t.Fatalf("case %d: report %d: bound fell from %.12g to %.12g", i, j, last, q.LowerBound)
			}
			last = q.LowerBound
			if q.LowerBound > q.BestSSE*(1+1e-9)+1e-12 {
				t.Fatalf("case %d: report %d: bound %.12g above the incumbent %.12g", i, j, q.LowerBound, q.BestSSE)
			}
			if g := GapPercent(q.BestSSE, q.LowerBound); abs(g-q.GapPercent) > 1e-9 {
				t.Fatalf("case %d: report %d: gap %g, want %g", i, j, q.GapPercent, g)
			}
		}
		want := []string{PhaseStart, PhaseMaster}
		if r.Nodes > 0 {
			want = append(want, PhaseBranch)
		}
		if r.CloseStatus != "" {
			want = append(want, PhaseClose)
		}
		for _, w := range want {
			if !phases[w] {
				t.Fatalf("case %d: no %s report (got %v)", i, w, phases)
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestShareAscentKeepsTheShares: in a run whose master is stuck at its
// start (k = 10), so that the ascent with exact shares takes turns in the
// loop, the ICSM start and the polish still get their whole shares of the
// time limit (icsmStartDefault, a quarter at this limit, and a tenth): the ascent only takes loop time, and
// no phase ends after the loop's deadline; the master having no bound of
// its own, the loop's tail goes to the polish (its note says "extended").
func TestShareAscentKeepsTheShares(t *testing.T) {
	limit := 8 * time.Second
	z := randomData(t, 400, 4, 27)
	res, err := Run(z, 10, &Options{TimeLimit: limit, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	t.Logf("ICSM start %.3f s, ascent %d steps %.3f s, master %d solves %.3f s, polish %.3f s, note %q, bound kind %s",
		st.ICSMSeconds, st.AscentSteps, st.AscentSeconds, st.MasterSolves, st.MasterSeconds, st.PolishSeconds, res.PolishNote, res.BoundKind)
	if st.AscentSteps == 0 {
		t.Fatal("the ascent with exact shares never ran: the instance does not test it")
	}
	// The master never had a bound of its own, so the loop's tail went to
	// the polish.
	if res.BoundKind != BoundShares || !strings.HasPrefix(res.PolishNote, "extended") {
		t.Fatalf("bound kind %s, polish note %q: want exact_shares and the loop's tail handed to the polish", res.BoundKind, res.PolishNote)
	}
	// Both ICSM runs have unlimited restarts and stop on their boxes only;
	// 2 % slack for the clock checks.
	if want := 0.98 * icsmStartDefault(limit).Seconds(); st.ICSMSeconds < want {
		t.Fatalf("ICSM start %.3f s, want its box (>= %.3f s)", st.ICSMSeconds, want)
	}
	if want := 0.98 * (limit / polishShare).Seconds(); st.PolishSeconds < want {
		t.Fatalf("polish %.3f s, want its tenth (>= %.3f s)", st.PolishSeconds, want)
	}
}

// TestHandOver: handOver gives the time left until loopEnd to the polish
// (its box and note say so), and does nothing once loopEnd has passed.
func TestHandOver(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := &fakeClock{t0}
	p := newTimePlan(t0, &Options{TimeLimit: 100 * time.Second}, clk.now)
	clk.advance(80 * time.Second)
	p.handOver()
	if !p.loopEnd.Equal(t0.Add(80*time.Second)) || !p.passed(p.loopEnd.Add(-time.Nanosecond)) {
		t.Fatalf("loopEnd %v after handOver at 80 s", p.loopEnd)
	}
	clk.advance(time.Second) // the loop's last solve returns
	p.ended(PhaseMaster)
	box, note := p.polishBox()
	if box != 17*time.Second || !strings.Contains(note, "extended: 17.000 s, its reserved 10.000 s and the master loop's last 8.000 s (the master had no bound of its own)") {
		t.Fatalf("box %v note %q, want 17 s and the extended note", box, note)
	}
	q := newTimePlan(t0, &Options{TimeLimit: 100 * time.Second}, clk.now)
	clk.advance(10 * time.Second) // 91 s: past q's loopEnd at 88 s
	end := q.loopEnd
	q.handOver()
	if !q.loopEnd.Equal(end) || q.handed != 0 {
		t.Fatalf("handOver after loopEnd moved it to %v (handed %v)", q.loopEnd, q.handed)
	}
}

// TestTailStart: the tail handed to the polish is the loop's last
// ascentTail share, cut to what tops the polish's reserve up to
// polishMinBox (60 s: the whole 15 %; 100 s: 2 s); from 120 s on the
// reserve is polishMinBox and nothing is handed over.
func TestTailStart(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := &fakeClock{t0}
	for _, c := range []struct {
		limit, loopStart, wantTail time.Duration
	}{
		{60 * time.Second, 15 * time.Second, time.Duration(0.15 * float64(37800*time.Millisecond))},
		{100 * time.Second, 25 * time.Second, 2 * time.Second},
	} {
		opt := &Options{TimeLimit: c.limit}
		r := &run{opt: opt, plan: newTimePlan(t0, opt, clk.now), loopStart: t0.Add(c.loopStart)}
		if got := r.plan.loopEnd.Sub(r.tailStart()); (got - c.wantTail).Abs() > time.Millisecond {
			t.Fatalf("limit %v: tail %v, want %v", c.limit, got, c.wantTail)
		}
	}
	if p := newTimePlan(t0, &Options{TimeLimit: 120 * time.Second}, clk.now); p.polishReserve < polishMinBox {
		t.Fatalf("120 s: reserve %v below polishMinBox %v", p.polishReserve, polishMinBox)
	}
}

// TestCloseDeadlineScales: by default the gap-closing stage gets the
// longer of DefaultCloseTimeLimit and its share of the loop's time left
// (all of it when no branch-and-price follows), never past loopEnd; an
// explicit CloseTimeLimit is kept as it is.
func TestCloseDeadlineScales(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &fakeClock{t0}
	p := newTimePlan(t0, &Options{TimeLimit: 1000 * time.Second}, c.now)
	c.advance(100 * time.Second)
	left := p.loopEnd.Sub(c.now()) // 880 - 100 = 780 s
	if d := p.closeDeadline(closeShare); !d.Equal(c.now().Add(left / 2)) {
		t.Fatalf("close deadline %v, want half the %v left", d.Sub(c.now()), left)
	}
	if d := p.closeDeadline(1); !d.Equal(p.loopEnd) {
		t.Fatalf("close deadline %v, want loopEnd", d.Sub(c.now()))
	}
	// Near the end of the loop the default limit, then loopEnd, bound it.
	c.advance(left - 100*time.Second)
	if d := p.closeDeadline(closeShare); !d.Equal(c.now().Add(DefaultCloseTimeLimit)) {
		t.Fatalf("close deadline %v with 100 s left, want %v", d.Sub(c.now()), DefaultCloseTimeLimit)
	}
	c.advance(70 * time.Second)
	if d := p.closeDeadline(closeShare); !d.Equal(p.loopEnd) {
		t.Fatalf("close deadline %v with 30 s left, want loopEnd", d.Sub(c.now()))
	}
	// An explicit limit does not scale.
	c = &fakeClock{t0}
	q := newTimePlan(t0, &Options{TimeLimit: 1000 * time.Second, CloseTimeLimit: 20 * time.Second}, c.now)
	c.advance(100 * time.Second)
	if d := q.closeDeadline(1); !d.Equal(c.now().Add(20 * time.Second)) {
		t.Fatalf("explicit close limit: deadline %v, want 20s", d.Sub(c.now()))
	}
}

// TestShareTurnWhileTheAscentPays: once the master has moved, the ascent
// on exactShares takes turns as soon as it pays (its bound rose within its
// last sharePaysSteps evaluations), at sharePaysRatio of the master's
// time, without waiting for the late turns at shareLateFrom of the loop
// (the rule before: no turn until then, and the bound of Tarragona and
// EIA k = 10 in 600 s flat from about 180 s to 360 s). Not when the
// ascent stopped paying, when the master has a bound of its own or was
// never stuck (no ascent yet, or one started by the late turns), and
// never without a time limit (the runs of TestPinnedRuns).
func TestShareTurnWhileTheAscentPays(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	z := randomData(t, 40, 2, 1)
	limit := 600 * time.Second
	loopStart := 150 * time.Second
	// state is a run whose master moved (not stalled), its ascent on
	// exactShares started and paying, at elapsed into the run; the turns
	// (re)started 30 s before with ascent seconds of ascent since.
	state := func(limit, elapsed time.Duration, ascent float64) (*run, *fakeClock) {
		clk := &fakeClock{t0}
		opt := &Options{TimeLimit: limit}
		r := newRun(z, 3, opt, newTimePlan(t0, opt, clk.now))
		r.loopStart = t0.Add(loopStart)
		r.res.LowerBound, r.res.BoundKind = 1, BoundShares
		r.masterMoved, r.stallIters = true, 0
		r.shareAscent, r.shareStartStuck = true, true
		r.asc = newAscent(make([]float64, z.N), 1)
		clk.advance(elapsed)
		r.shareFrom, r.shareSeconds = clk.now().Add(-30*time.Second), ascent
		return r, clk
	}
	// At 200 s, a tenth of the loop: 30 s since the turns started.
	early := 200 * time.Second
	// under and over: ascent seconds just under and over sharePaysRatio
	// times the master's in those 30 s (a: ascent, m = 30 − a: master).
	under := 0.95 * 30 * sharePaysRatio / (1 + sharePaysRatio)
	over := 1.05 * 30 * sharePaysRatio / (1 + sharePaysRatio)
	for _, c := range []struct {
		name   string
		change func(r *run)
		ascent float64
		limit  time.Duration
		want   bool
	}{
		{name: "pays, under its ratio", ascent: under, limit: limit, want: true},
		{name: "pays, over its ratio", ascent: over, limit: limit},
		{name: "stopped paying", ascent: 0, limit: limit, change: func(r *run) { r.asc.sinceBest = sharePaysSteps }},
		{name: "ascent done", ascent: 0, limit: limit, change: func(r *run) { r.asc.theta = 0 }},
		{name: "master never moved, not stalled", ascent: 0, limit: limit, change: func(r *run) { r.masterMoved = false }},
		{name: "master bound of its own", ascent: 0, limit: limit, change: func(r *run) { r.res.BoundKind = BoundLagrangian }},
		{name: "no ascent started", ascent: 0, limit: limit, change: func(r *run) { r.shareAscent, r.asc = false, nil }},
		{name: "ascent started by the late turns", ascent: 0, limit: limit, change: func(r *run) { r.shareStartStuck = false }},
		{name: "no time limit", ascent: 0, limit: 0},
		{name: "NoShareAscent", ascent: 0, limit: limit, change: func(r *run) { r.opt.NoShareAscent = true }},
	} {
		r, _ := state(c.limit, early, c.ascent)
		if c.change != nil {
			c.change(r)
		}
		if got := r.shareTurn(); got != c.want {
			t.Errorf("%s: shareTurn %v, want %v (loop fraction %.3f)", c.name, got, c.want, r.loopFraction())
		}
		// The turns in a row of iterate go on while shareClimbs holds
		// (and shareTurn allows them).
		if c.name == "pays, under its ratio" && !r.shareClimbs() || c.name == "stopped paying" && r.shareClimbs() {
			t.Errorf("%s: shareClimbs %v", c.name, r.shareClimbs())
		}
	}
	if r, _ := state(limit, early, 0); r.loopFraction() >= shareLateFrom {
		t.Fatalf("loop fraction %.3f at 200 s: the case does not test the turns before shareLateFrom", r.loopFraction())
	}
	// Past shareLateFrom the late turns' ratio ramps up from 0; an ascent
	// that pays keeps at least sharePaysRatio, one that does not gets the
	// ramp alone (just past shareLateFrom: about 0).
	lateAt := loopStart + time.Duration((shareLateFrom+0.01)*float64(limit-limit/polishShare-time.Duration(deadlineMargin*float64(limit))-loopStart))
	r, _ := state(limit, lateAt, 0)
	if !r.shareTurn() || !r.shareLate {
		t.Fatalf("late, paying: no turn (fraction %.3f)", r.loopFraction())
	}
	r.shareFrom, r.shareSeconds = r.plan.clock().Add(-30*time.Second), under
	if !r.shareTurn() {
		t.Fatalf("late, paying, under sharePaysRatio: no turn (fraction %.3f)", r.loopFraction())
	}
	r, _ = state(limit, lateAt, 0)
	r.asc.sinceBest = sharePaysSteps
	r.shareTurn() // the late turns start: accounting from now
	r.shareFrom, r.shareSeconds = r.plan.clock().Add(-30*time.Second), 3
	if r.shareTurn() {
		t.Fatalf("late, not paying: 3 s of ascent in 30 s just past shareLateFrom (fraction %.3f), want the ramp's ratio near 0", r.loopFraction())
	}
}

// TestNoTurnsInTheRegionShare: the ascent's turns before a master solve
// stop where the region bound's share begins, as the loop does (the turn
// loop used to check loopEnd alone: a turn that reached the share was
// followed by turns of no step, a spin until loopEnd, 50 s of a 600 s EIA
// run at k = 10). The case: a master that moved, an ascent on exactShares
// that pays, its turns under their ratio; more turns early in the loop,
// none at the region's share, where shareTurn alone would still allow one.
func TestNoTurnsInTheRegionShare(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	z := randomData(t, 40, 2, 1)
	limit := 600 * time.Second
	clk := &fakeClock{t0}
	opt := &Options{TimeLimit: limit}
	r := newRun(z, 3, opt, newTimePlan(t0, opt, clk.now))
	prep, err := enumerate.Prepare(r.d, 5)
	if err != nil {
		t.Fatal(err)
	}
	r.loopStart = t0.Add(150 * time.Second)
	r.res.LowerBound, r.res.BoundKind = 1, BoundShares
	r.masterMoved, r.stallIters = true, 0
	r.shareAscent, r.shareStartStuck = true, true
	r.asc = newAscent(make([]float64, z.N), 1)
	r.asc.ex = newExactShares(r.d, prep, 3, 1)
	// under: ascent seconds in the last 30 s under sharePaysRatio.
	under := 0.95 * 30 * sharePaysRatio / (1 + sharePaysRatio)
	clk.advance(200 * time.Second)
	r.shareFrom, r.shareSeconds = clk.now().Add(-30*time.Second), under
	if !r.moreTurns(1) {
		t.Fatal("early in the loop, paying, under its ratio: no more turns (the case tests nothing)")
	}
	clk.advance(r.regionStart().Sub(clk.now()))
	r.shareFrom, r.shareSeconds = clk.now().Add(-30*time.Second), under
	if !r.regionDue() || r.plan.passed(r.plan.loopEnd) {
		t.Fatalf("at %v: region due %v, loopEnd passed %v", clk.now().Sub(t0), r.regionDue(), r.plan.passed(r.plan.loopEnd))
	}
	if !r.shareTurn() || !r.shareClimbs() {
		t.Fatal("at the region's share shareTurn or shareClimbs fail anyway (the case tests nothing)")
	}
	if r.moreTurns(0) || r.moreTurns(1) {
		t.Fatal("turns of the ascent at the region's share")
	}
}
