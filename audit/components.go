package audit

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/model"
)

// Splitting by components (reducible with an empty separator, Dobra &
// Fienberg, Theorem 2). When the variable sets of the released margins and
// the request fall into k > 1 connected components W_1, ..., W_k (two sets
// are connected when they share a variable), every margin is over one
// component, and an integer table over W has the margins exactly when
// each of its collapses to W_i has those of W_i (all with the same total
// N): any k integer tables with total N are the collapses of some table
// over W (match their N units one by one). So for a cell y = (y_1, ...,
// y_k) over W, with [L_i, U_i] the sharp bounds of y_i over W_i,
//
//	max(0, L_1 + ... + L_k - (k-1) N) <= n(y) <= min(U_1, ..., U_k),
//
// both ends attained (the units can be matched to overlap as much, or as
// little, as the counts allow: Fréchet's bounds for k events). Each
// component's table is collapsed from the records on its own, so W itself
// may span far more cells than any one of them. The full cells are then
// checked as in microdata.go: the lower end is 0 when the variables
// outside W have two cells or more.

// components returns the connected components of the variable sets
// (each sorted, in order of their smallest variable).
func components(k int, sets [][]int) [][]int {
	parent := make([]int, k)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	used := make([]bool, k)
	for _, s := range sets {
		for _, j := range s {
			used[j] = true
			parent[find(j)] = find(s[0])
		}
	}
	byRoot := map[int]int{}
	var out [][]int
	for j := range k {
		if !used[j] {
			continue
		}
		r := find(j)
		i, ok := byRoot[r]
		if !ok {
			i = len(out)
			byRoot[r] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], j)
	}
	return out
}

// restrict returns the releases of h over the variables of comp, in the
// layout of the table over comp.
func restrict(h *History, comp []int) *History {
	hc := &History{Version: h.Version, Vars: make([]HistoryVar, len(comp)), Releases: []Release{}}
	in := map[string]bool{}
	for i, j := range comp {
		hc.Vars[i] = h.Vars[j]
		in[h.Vars[j].Name] = true
	}
	for _, r := range h.Releases {
		if in[r.Margin[0]] {
			hc.Releases = append(hc.Releases, r)
		}
	}
	return hc
}

// decideSplit decides req when the margins fall into several components:
// on the request's component (which finds disclosures there, implied
// margins and simulations), then, for a release, jointly over every
// component (see above). A release the joint check does not allow is
// denied, also in simulate mode.
func (a *Auditor) decideSplit(h *History, req Request, sub []int, comps [][]int, start, deadline time.Time) (*Decision, error) {
	md := a.micro.md
	cr := slices.IndexFunc(comps, func(c []int) bool { return slices.Contains(c, sub[0]) })
	inners := make([]*Auditor, len(comps))
	for i, c := range comps {
		in, err := a.micro.auditor(c, a)
		if err != nil {
			return nil, err
		}
		inners[i] = in
	}
	d, err := inners[cr].decideBy(restrict(h, comps[cr]), req, deadline)
	if err != nil {
		return nil, err
	}
	op := d.Operator
	sizes := make([]string, len(comps))
	for i, in := range inners {
		sizes[i] = fmt.Sprintf("%s (%d cells)", strings.Join(a.names(comps[i]), ":"), len(in.table.Counts))
	}
	note := fmt.Sprintf(" (decided on %d independent components %s, collapsed from %d records over %d variables)",
		len(comps), strings.Join(sizes, ", "), md.N, len(md.Vars))
	if d.Outcome != Released || op.Implied {
		op.Explanation += note
		op.Seconds = time.Since(start).Seconds()
		return d, nil
	}
	// The joint check over every component.
	ivs := make([]*intervals, len(comps))
	sharp := true
	for i, in := range inners {
		view, err := in.publicView(restrict(h, comps[i]))
		if err != nil {
			return nil, err
		}
		ms := view
		if i == cr {
			var pos []int
			for p, j := range comps[i] {
				if slices.Contains(sub, j) {
					pos = append(pos, p)
				}
			}
			truth, err := in.table.Collapse(pos)
			if err != nil {
				return nil, err
			}
			ms = &model.MarginSet{Vars: view.Vars, Margins: append(slices.Clone(view.Margins), truth)}
		}
		if ivs[i], err = in.bounds(ms, view, &OperatorReport{}, deadline, true); err != nil {
			return nil, err
		}
		sharp = sharp && ivs[i].sharp
	}
	inW := make([]bool, len(md.Vars))
	for _, c := range comps {
		for _, j := range c {
			inW[j] = true
		}
	}
	pad := false
	for j, v := range md.Vars {
		if !inW[j] && len(v.Levels) >= 2 {
			pad = true
		}
	}
	if op.Evidence == nil {
		op.Evidence = &Evidence{}
	}
	n, k := int64(md.N), int64(len(comps))
	cells := 0
	for x, lv := range a.micro.levels {
		q := a.policy.RequiredWidth(a.micro.counts[x])
		if q == 0 {
			continue
		}
		cells++
		hi, inHi := int64(math.MaxInt64), int64(math.MaxInt64)
		var sumLo, sumInLo int64
		known := true
		for i, c := range comps {
			y := 0
			for _, j := range c {
				y = y*len(md.Vars[j].Levels) + int(lv[j])
			}
			iv := ivs[i]
			hi, inHi = min(hi, iv.hi[y]), min(inHi, iv.inHi[y])
			sumLo, sumInLo = sumLo+iv.lo[y], sumInLo+iv.inLo[y]
			known = known && iv.inHi[y] >= iv.inLo[y]
		}
		var lo, inLo int64
		if !pad {
			lo, inLo = max(0, sumLo-(k-1)*n), max(0, sumInLo-(k-1)*n)
		}
		if hi-lo >= q && known && inHi-inLo >= q {
			if sharp {
				op.Evidence.Sharp++
			} else {
				op.Evidence.Witness++
			}
			continue
		}
		var parts []string
		for j, in := range inW {
			if in {
				parts = append(parts, md.Vars[j].Name+"="+md.Vars[j].Levels[lv[j]])
			}
		}
		risk := CellRisk{Cell: -1, Label: strings.Join(parts, ",") + " (a full cell; the components joined)", Count: a.micro.counts[x],
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
	if len(op.Disclosed) > 0 || len(op.Undecided) > 0 {
		d.Outcome, d.Counts, d.Simulated = Denied, nil, false
		op.Explanation = a.reason(op) + "; found by the joint check of the components"
	} else {
		op.Explanation += fmt.Sprintf("; the %d non-empty full cells keep their width jointly", cells)
	}
	op.Explanation += note
	op.Seconds = time.Since(start).Seconds()
	return d, nil
}
