package colgen

import (
	"fmt"
	"time"
)

// timePlan shares Options.TimeLimit among the phases of a run. It is
// fixed when the run starts, from the start time and the options alone:
// nothing a phase or the progress callback does moves a share.
//
//   - end: everything stops here, deadlineMargin before the limit, to
//     leave time for the final checks;
//   - loopEnd: the start, the master loop, the gap-closing stage and
//     branch-and-price stop here; unless NoICSM, it is polishReserve (a
//     tenth of the limit) before end, the share of the ICSM polish;
//   - the ICSM start gets ICSMTimeLimit (default icsmStartDefault: a
//     quarter of the limit up to 120 s, 30 s up to 360 s, a twelfth
//     beyond) but never past loopEnd;
//   - the gap-closing stage gets CloseTimeLimit, by default the longer
//     of DefaultCloseTimeLimit and a share of the loop's time left (half
//     of it, all of it when no branch-and-price follows), but never past
//     loopEnd;
//   - a master loop without a bound of its own by its last 15 % hands
//     that tail (up to a 12 s polish) to the polish (handOver,
//     run.stuckTail): loopEnd moves to that moment.
//
// Without a TimeLimit all deadlines are zero (none), except the
// gap-closing stage's own CloseTimeLimit.
type timePlan struct {
	start         time.Time
	end, loopEnd  time.Time
	polishReserve time.Duration
	icsmLimit     time.Duration // the ICSM start's box before loopEnd caps it (0 = none)
	closeLimit    time.Duration
	// closeScaled: closeLimit is the default, which a long loop's share
	// replaces (closeDeadline).
	closeScaled bool
	clock       func() time.Time
	// overran is the last phase that ended after loopEnd, late by how much.
	overran string
	late    time.Duration
	// handed is the loop time handOver gave to the polish.
	handed time.Duration
}

// polishShare is the share of Options.TimeLimit reserved for the ICSM
// polish.
const polishShare = 10

func newTimePlan(start time.Time, opt *Options, clock func() time.Time) timePlan {
	p := timePlan{start: start, clock: clock, icsmLimit: opt.ICSMTimeLimit, closeLimit: opt.CloseTimeLimit}
	if p.closeLimit <= 0 {
		p.closeLimit, p.closeScaled = DefaultCloseTimeLimit, true
	}
	if opt.TimeLimit > 0 {
		p.end = start.Add(opt.TimeLimit - time.Duration(deadlineMargin*float64(opt.TimeLimit)))
		p.loopEnd = p.end
		if !opt.NoICSM {
			p.polishReserve = opt.TimeLimit / polishShare
			p.loopEnd = p.end.Add(-p.polishReserve)
		}
		if p.icsmLimit == 0 {
			p.icsmLimit = icsmStartDefault(opt.TimeLimit)
		}
	}
	return p
}

// icsmStartMin is the ICSM start's default box from a limit of 120 s to
// one of 360 s (icsmStartDefault).
const icsmStartMin = 30 * time.Second

// icsmStartDefault is the ICSM start's default time box for a limit:
// a quarter of it up to 120 s, then icsmStartMin, and a twelfth of it
// from 360 s on (50 s at 600 s, 150 s at 1800 s). The start's restarts
// are independent draws (perturbed copies of the MDAV clustering, each
// run to convergence), whose best improves more and more slowly with
// their number, while a long limit is spent on the bound: with the
// ICSM alone at k = 10 (seed 1, 2 cores), 45 s and 150 s of restarts
// gave IL 1.9397 and 1.9397 on EIA, 30.4796 and 30.4664 on Tarragona,
// 11.6051 and 11.5998 on Census; in 600 s runs the box of 45 s instead
// of 150 s raised EIA's bound from 1.8263 to 1.8320 IL, the IL the same
// (bench/README.md, "The ICSM start's share of a long run").
func icsmStartDefault(limit time.Duration) time.Duration {
	return min(limit/4, max(icsmStartMin, limit/12))
}

// passed: the deadline t is set and the clock is past it.
func (p *timePlan) passed(t time.Time) bool { return !t.IsZero() && p.clock().After(t) }

// icsmStartBox is the time box of the ICSM start from now (0 = none).
func (p *timePlan) icsmStartBox() time.Duration {
	box := p.icsmLimit
	if !p.loopEnd.IsZero() {
		if left := p.loopEnd.Sub(p.clock()); box == 0 || left < box {
			box = left
		}
	}
	return box
}

// closeDeadline is the deadline of the gap-closing stage starting now:
// closeLimit from now, never past loopEnd. By default (no
// Options.CloseTimeLimit), when share of the loop's time left is longer
// than DefaultCloseTimeLimit, it gets that share instead: the stage's
// rounds over more and more groups (closeGap) use whatever time a long
// limit leaves, and share is 1 when no branch-and-price follows.
func (p *timePlan) closeDeadline(share float64) time.Time {
	now := p.clock()
	d := now.Add(p.closeLimit)
	if p.closeScaled && !p.loopEnd.IsZero() {
		if s := now.Add(time.Duration(share * float64(p.loopEnd.Sub(now)))); s.After(d) {
			d = s
		}
	}
	if !p.loopEnd.IsZero() && p.loopEnd.Before(d) {
		d = p.loopEnd
	}
	return d
}

// ended records that phase has just ended: when that is after loopEnd,
// the phase overran its share (the engines check their clocks coarsely)
// and took time from the polish.
func (p *timePlan) ended(phase string) {
	if p.loopEnd.IsZero() {
		return
	}
	if late := p.clock().Sub(p.loopEnd); late > 0 {
		p.overran, p.late = phase, late
	}
}

// handOver ends the loop's share now: the time left until loopEnd goes
// to the polish (whose box runs to end). Nothing without a time limit or
// when loopEnd has passed.
func (p *timePlan) handOver() {
	now := p.clock()
	if p.loopEnd.IsZero() || !now.Before(p.loopEnd) {
		return
	}
	p.handed += p.loopEnd.Sub(now)
	p.loopEnd = now
}

// polishBox is the ICSM polish's time box from now: the time left until
// end (0 = none without a limit; at least a millisecond). It is negative
// when no time is left, with a note saying the polish is skipped and
// which phase overran its share; the note also says when the box is
// shorter than the reserved share (by more than 1 %), and when handOver
// gave it the loop's tail.
func (p *timePlan) polishBox() (time.Duration, string) {
	if p.end.IsZero() {
		return 0, ""
	}
	left := p.end.Sub(p.clock())
	why := ""
	if p.overran != "" {
		why = fmt.Sprintf(": the %s phase ended %.3f s after its share", p.overran, p.late.Seconds())
	}
	switch {
	case left <= 0:
		return -1, fmt.Sprintf("skipped: no time left of its reserved %.3f s%s", p.polishReserve.Seconds(), why)
	case left < p.polishReserve-p.polishReserve/100:
		return max(left, time.Millisecond), fmt.Sprintf("cut short: %.3f s of its reserved %.3f s%s", left.Seconds(), p.polishReserve.Seconds(), why)
	case p.handed > 0:
		return left, fmt.Sprintf("extended: %.3f s, its reserved %.3f s and the master loop's last %.3f s (the master had no bound of its own)",
			left.Seconds(), p.polishReserve.Seconds(), p.handed.Seconds())
	}
	return max(left, time.Millisecond), ""
}
