package audit

import "slices"

// What MicrodataOptions.ProtectCollapsed protects.
//
// A cell y of the table over W (the variables of the history and the
// request) is a collapsed cell: the records that agree on W. The full
// cells' rule does not protect it: a collapsed cell pinned at 1 by the
// releases leaves the full cells inside it free in [0, 1] when variables
// outside W split them. ProtectCollapsed applies the policy to the
// non-empty collapsed cells too, with their own counts and their sharp
// bounds [L(y), U(y)] given the releases and the request, unless the
// table over W is itself published: a true release or the requested
// margin over W (up to variables with a single level, which split
// nothing). The cells of a published table are public by design, not
// pinned by a combination, and the full cells inside them keep the full
// cells' rule; applying the policy to them would deny every first
// request (its table over W is the requested margin, fixed exactly by
// itself) and every request over all the history's variables. So the
// flag protects what a combination of releases determines beyond what
// any single one publishes: e.g. [AB] and [AC] published, [BC] denied when
// with them it would pin a cell of the table over ABC.

// overWPublished reports whether a true release of h or the request sub
// (positions in the microdata) is the table over w: it holds every
// variable of w with two levels or more.
func (a *Auditor) overWPublished(h *History, sub, w []int) bool {
	md := a.micro.md
	covers := func(u []int) bool {
		for _, j := range w {
			if len(md.Vars[j].Levels) >= 2 && !slices.Contains(u, j) {
				return false
			}
		}
		return true
	}
	if covers(sub) {
		return true
	}
	for _, r := range h.Releases {
		if r.Simulated {
			continue // simulated values publish no true cell
		}
		if u, err := subsetOf(md.Vars, r.Margin); err == nil && covers(u) {
			return true
		}
	}
	return false
}
