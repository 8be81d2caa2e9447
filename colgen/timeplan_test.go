package colgen

import (
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestTimePlanShares: the shares follow from the start and the options
// alone (deadlineMargin, a tenth for the polish, a quarter for the ICSM
// start, CloseTimeLimit for the gap-closing stage).
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
	if d := p.closeDeadline(); !d.Equal(p.loopEnd) {
		t.Fatalf("close deadline %v, want loopEnd %v", d, p.loopEnd)
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
	if d := u.closeDeadline(); !d.Equal(t0.Add(DefaultCloseTimeLimit)) {
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
