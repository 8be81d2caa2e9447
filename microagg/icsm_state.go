package microagg

import (
	"math"
	"slices"

	"github.com/sdcopt/sdcopt/model"
)

// icsmState is a clustering held with what the move weights need: per
// group (slot) its members, size, centroid and SSE, and per record
// b(x) = ||x - centroid of its group||². Slots are renumbered only by
// Tour2Assignment; every change of a group's content gives it a new
// version, which is how cached moves know they are stale.
type icsmState struct {
	x       []float64 // standardized records, row-major
	n, d, k int

	slot    []int32   // record -> slot
	members [][]int32 // slot -> records
	cen     []float64 // slot*d: centroids
	gsse    []float64 // slot: SSE of the group
	rad     []float64 // slot: max distance of a member to the centroid
	ver     []uint64  // slot: content version
	b       []float64 // record: squared distance to its centroid
	sse     float64   // sum of gsse

	nextVer   uint64
	verSlot   map[uint64]int32 // version -> slot of the current groups
	tourStart int32            // the record farthest from the data centroid
	workers   int
}

func (s *icsmState) row(i int32) []float64 { return s.x[int(i)*s.d : (int(i)+1)*s.d] }
func (s *icsmState) centroid(p int) []float64 {
	return s.cen[p*s.d : (p+1)*s.d]
}
func (s *icsmState) size(p int) int { return len(s.members[p]) }
func (s *icsmState) numGroups() int { return len(s.members) }

// newICSMState holds the clustering c of z.
func newICSMState(z *model.Dataset, k int, c *model.Clustering, workers int) *icsmState {
	s := &icsmState{x: z.X, n: z.N, d: z.D, k: k, workers: workers, b: make([]float64, z.N)}
	s.load(c.Group, c.NumGroups)
	s.tourStart = s.farthestFromMean()
	return s
}

// load replaces the whole clustering (every group gets a new version).
func (s *icsmState) load(group []int, ng int) {
	s.slot = make([]int32, s.n)
	s.members = make([][]int32, ng)
	for i, g := range group {
		s.slot[i] = int32(g)
		s.members[g] = append(s.members[g], int32(i))
	}
	s.cen = make([]float64, ng*s.d)
	s.gsse = make([]float64, ng)
	s.rad = make([]float64, ng)
	s.ver = make([]uint64, ng)
	s.verSlot = make(map[uint64]int32, ng)
	s.sse = 0
	for p := range ng {
		s.refresh(p)
		s.sse += s.gsse[p]
	}
}

// refresh recomputes slot p's centroid, SSE, radius and its members' b
// from scratch (two passes), and gives it a new version.
func (s *icsmState) refresh(p int) {
	c := s.centroid(p)
	clear(c)
	m := s.members[p]
	for _, i := range m {
		for t, v := range s.row(i) {
			c[t] += v
		}
	}
	inv := 1 / float64(len(m))
	for t := range c {
		c[t] *= inv
	}
	sse, rad := 0.0, 0.0
	for _, i := range m {
		q := sqDist(s.row(i), c)
		s.b[i] = q
		sse += q
		rad = math.Max(rad, q)
	}
	s.gsse[p] = sse
	s.rad[p] = math.Sqrt(rad)
	delete(s.verSlot, s.ver[p])
	s.nextVer++
	s.ver[p] = s.nextVer
	s.verSlot[s.ver[p]] = int32(p)
}

// recomputeSSE is the SSE of the current clustering from scratch (for
// the Check mode and the final report).
func (s *icsmState) recomputeSSE() float64 {
	z := &model.Dataset{N: s.n, D: s.d, X: s.x}
	return model.SSE(z, s.clustering())
}

// clustering returns the current clustering (groups numbered by slot).
func (s *icsmState) clustering() *model.Clustering {
	g := make([]int, s.n)
	for i, p := range s.slot {
		g[i] = int(p)
	}
	return &model.Clustering{Group: g, NumGroups: len(s.members)}
}

// reassign applies new groups to the records in moved (newSlot[j] is the
// new slot of moved[j]), then refreshes the touched slots. It returns the
// change of the SSE.
func (s *icsmState) reassign(moved []int32, newSlot []int32) float64 {
	touched := make(map[int32]bool, 2*len(moved))
	for j, i := range moved {
		touched[s.slot[i]] = true
		touched[newSlot[j]] = true
	}
	for p := range touched {
		m := s.members[p][:0]
		for _, i := range s.members[p] {
			if !slices.Contains(moved, i) {
				m = append(m, i)
			}
		}
		s.members[p] = m
	}
	for j, i := range moved {
		s.slot[i] = newSlot[j]
		s.members[newSlot[j]] = append(s.members[newSlot[j]], i)
	}
	delta := 0.0
	for p := range touched {
		old := s.gsse[p]
		s.refresh(int(p))
		delta += s.gsse[p] - old
	}
	s.sse += delta
	return delta
}

// Move weights of Mortazavi & Jalili, Section 4.1, in the form used here:
// with a(x, q) = ||x - c_q||², b(y) = ||y - c_{group(y)}||² and m_q = |G_q|,
//
//	R1(x, G_q, y) = a(x, q) - b(y) - ||x - y||²/m_q    (x replaces y in G_q)
//	R2(x, G_q)    = m_q/(m_q+1) · a(x, q)              (x joins G_q; m_q < 2k-1)
//	R3(G_p, x)    = -m_p/(m_p-1) · b(x)                (x leaves G_p; m_p > k)
//
// Each is the exact change of that one group's SSE (R1 is Equation 3
// rewritten: with S' = S - y + x the group SSE changes by
// ||x||² - ||y||² - (||S'||² - ||S||²)/m_q).

// r2 is the weight of x joining slot q (whose distance term is aq), +Inf
// when q is full.
func (s *icsmState) r2(q int, aq float64) float64 {
	m := s.size(q)
	if m >= 2*s.k-1 {
		return math.Inf(1)
	}
	return float64(m) / float64(m+1) * aq
}

// r3 is the weight of record x leaving its slot p, +Inf when p has only
// k records.
func (s *icsmState) r3(p int, x int32) float64 {
	m := s.size(p)
	if m <= s.k {
		return math.Inf(1)
	}
	return -float64(m) / float64(m-1) * s.b[x]
}

// setGroups replaces the clustering by groups (lists of records). A group
// whose content equals a current group keeps its centroid, SSE and
// version (so cached moves that involve it stay valid); the others are
// computed afresh with new versions. Slots are renumbered in the order of
// groups.
func (s *icsmState) setGroups(groups [][]int32) {
	ng := len(groups)
	oldMembers, oldCen, oldSSE, oldRad, oldVer := s.members, s.cen, s.gsse, s.rad, s.ver
	kept := make([]int32, ng)
	used := make([]bool, len(oldMembers))
	for g, m := range groups {
		o := s.slot[m[0]]
		same := len(m) == len(oldMembers[o]) && !used[o]
		for _, i := range m {
			if !same || s.slot[i] != o {
				same = false
				break
			}
		}
		kept[g] = -1
		if same {
			kept[g] = o
			used[o] = true
		}
	}
	s.members = groups
	s.cen = make([]float64, ng*s.d)
	s.gsse = make([]float64, ng)
	s.rad = make([]float64, ng)
	s.ver = make([]uint64, ng)
	s.verSlot = make(map[uint64]int32, ng)
	for g, m := range groups {
		for _, i := range m {
			s.slot[i] = int32(g)
		}
	}
	s.sse = 0
	for g := range groups {
		if o := kept[g]; o >= 0 {
			copy(s.centroid(g), oldCen[int(o)*s.d:(int(o)+1)*s.d])
			s.gsse[g], s.rad[g], s.ver[g] = oldSSE[o], oldRad[o], oldVer[o]
			s.verSlot[s.ver[g]] = int32(g)
		} else {
			s.refresh(g)
		}
		s.sse += s.gsse[g]
	}
}
