package enumerate

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sdcopt/sdcopt/model"
)

// topList is the shared list of the best groups found so far, ordered by
// (reduced cost, members lexicographically). Its cutoff — the reduced cost
// a group must not exceed to enter — is Threshold until the list is full
// and then the reduced cost of its last entry; it only decreases, and is
// read without the lock by the workers.
type topList struct {
	mu   sync.Mutex
	k    int
	thr  float64
	cols []model.Column
	cut  atomic.Uint64 // math.Float64bits of the cutoff
	// all: collect every group below thr (Options.All); the cutoff stays
	// thr, the list is sorted once at the end, and a group beyond k sets
	// overflow and stop.
	all      bool
	overflow bool
	stop     *atomic.Bool
}

func newTopList(k int, thr float64) *topList {
	t := &topList{k: k, thr: thr, cols: make([]model.Column, 0, k+1)}
	t.cut.Store(math.Float64bits(thr))
	return t
}

func (t *topList) cutoff() float64 { return math.Float64frombits(t.cut.Load()) }

// colLess orders groups by reduced cost, then members lexicographically.
func colLess(rcA float64, a []int, rcB float64, b []int) bool {
	if rcA != rcB {
		return rcA < rcB
	}
	return slices.Compare(a, b) < 0
}

// offer inserts the group (members ascending, not retained) if it has
// reduced cost below the threshold and belongs to the k best.
func (t *topList) offer(members []int, rc float64) {
	if !(rc < t.thr) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.all {
		if len(t.cols) == t.k {
			t.overflow = true
			t.stop.Store(true)
			return
		}
		t.cols = append(t.cols, model.Column{Members: slices.Clone(members), ReducedCost: rc})
		return
	}
	n := len(t.cols)
	if n == t.k {
		last := t.cols[n-1]
		if !colLess(rc, members, last.ReducedCost, last.Members) {
			return
		}
	}
	i := n
	for i > 0 && colLess(rc, members, t.cols[i-1].ReducedCost, t.cols[i-1].Members) {
		i--
	}
	t.cols = slices.Insert(t.cols, i, model.Column{Members: slices.Clone(members), ReducedCost: rc})
	if len(t.cols) > t.k {
		t.cols = t.cols[:t.k]
	}
	if len(t.cols) == t.k {
		t.cut.Store(math.Float64bits(t.cols[t.k-1].ReducedCost))
	}
}

// sortAll orders the collected groups (Options.All) as the ranked list.
func (t *topList) sortAll() { slices.SortFunc(t.cols, compareCols) }

// compareCols orders columns by (reduced cost, members), colLess's order.
func compareCols(a, b model.Column) int {
	switch {
	case colLess(a.ReducedCost, a.Members, b.ReducedCost, b.Members):
		return -1
	case colLess(b.ReducedCost, b.Members, a.ReducedCost, a.Members):
		return 1
	}
	return 0
}
