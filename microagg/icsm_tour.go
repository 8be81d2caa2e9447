package microagg

import (
	"math"
	"sync"
)

// tour converts the clustering to a tour of all records in the manner of
// MDAV-MHM (Mortazavi & Jalili, Section 4.2): start with the group of the
// record farthest from the centroid of the data, at that record; visit a
// group's records by nearest point next; then continue with the unvisited
// group that holds the record nearest to the last record of the tour,
// entering it at that record. Ties go to the lower record index. The
// nearest record is searched group by group with the lower bound
// (||P - c_g|| - r_g)²₊ on a group's distances, so a step costs O(c·d)
// plus the groups that cannot be ruled out.
func (s *icsmState) tour() []int32 {
	n, ng := s.n, s.numGroups()
	cur := s.tourStart
	open := make([]int32, ng) // unvisited groups
	for p := range open {
		open[p] = int32(p)
	}
	where := make([]int, ng) // position of a group in open
	for p := range where {
		where[p] = p
	}
	path := make([]int32, 0, n)
	inGroup := make([]int32, 0, 2*s.k)
	for {
		p := s.slot[cur]
		// Visit p from cur by nearest point next.
		inGroup = append(inGroup[:0], s.members[p]...)
		for j, i := range inGroup {
			if i == cur {
				inGroup[0], inGroup[j] = inGroup[j], inGroup[0]
				break
			}
		}
		for j := 1; j < len(inGroup); j++ {
			last := s.row(inGroup[j-1])
			best, bd := j, math.Inf(1)
			for t := j; t < len(inGroup); t++ {
				q := sqDist(s.row(inGroup[t]), last)
				if q < bd || (q == bd && inGroup[t] < inGroup[best]) {
					best, bd = t, q
				}
			}
			inGroup[j], inGroup[best] = inGroup[best], inGroup[j]
		}
		path = append(path, inGroup...)
		// Remove p from the open groups.
		w, lastOpen := where[p], open[len(open)-1]
		open[w], where[lastOpen] = lastOpen, w
		open = open[:len(open)-1]
		if len(open) == 0 {
			break
		}
		// Nearest record of an open group to the end of the path.
		end := s.row(path[len(path)-1])
		bestG, bestLB := int32(-1), math.Inf(1)
		lbs := make([]float64, 0, len(open))
		for _, g := range open {
			dc := math.Sqrt(sqDist(end, s.centroid(int(g)))) - s.rad[g]
			lb := 0.0
			if dc > 0 {
				lb = dc * dc
			}
			lbs = append(lbs, lb)
			if lb < bestLB {
				bestG, bestLB = g, lb
			}
		}
		cur = -1
		bd := math.Inf(1)
		scan := func(g int32) {
			for _, i := range s.members[g] {
				q := sqDist(s.row(i), end)
				if q < bd || (q == bd && i < cur) {
					cur, bd = i, q
				}
			}
		}
		scan(bestG)
		for j, g := range open {
			if g != bestG && lbs[j] <= bd {
				scan(g)
			}
		}
	}
	return path
}

// tour2Assignment is Tour2Assignment (Algorithm 5): the best partition of
// the tour, read as a cycle, into consecutive groups of k..2k-1 records.
// A partition of a cycle has a group boundary among any 2k-1 consecutive
// positions, so the optimum is the best over the 2k-1 rotations of the
// linear optimal partition (the shortest path of PartitionSequence). The
// rotations are solved on the workers. It returns the groups and their
// SSE.
func (s *icsmState) tour2Assignment(path []int32) ([][]int32, float64) {
	n := len(path)
	rots := min(2*s.k-1, n)
	if n < 2*s.k {
		return [][]int32{append([]int32(nil), path...)}, math.NaN()
	}
	// The SSE of every run of m = k..2k-1 consecutive tour positions
	// (cyclically) is the same for all rotations: compute them once,
	// O(n·k·d), then each rotation is an O(n·k) shortest path.
	seg := s.segmentSSE(path)
	costs := make([]float64, rots)
	lasts := make([][]int32, rots)
	var wg sync.WaitGroup
	workers := max(1, min(s.workers, rots))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cost := make([]float64, n+1)
			for r := w; r < rots; r += workers {
				costs[r], lasts[r] = partitionRotation(seg, n, s.k, r, cost)
			}
		}()
	}
	wg.Wait()
	best := 0
	for r := 1; r < rots; r++ {
		if costs[r] < costs[best] {
			best = r
		}
	}
	// Cut the rotated tour into the groups of the best rotation.
	last := lasts[best]
	var sizes []int
	for j := n; j > 0; j -= int(last[j]) {
		sizes = append(sizes, int(last[j]))
	}
	groups := make([][]int32, 0, len(sizes))
	pos := best
	for g := len(sizes) - 1; g >= 0; g-- {
		m := sizes[g]
		grp := make([]int32, m)
		for t := range m {
			grp[t] = path[(pos+t)%n]
		}
		groups = append(groups, grp)
		pos += m
	}
	return groups, costs[best]
}

// segmentSSE returns seg with seg[i*k + m-k] the SSE of the m records
// at tour positions i, i+1, ..., i+m-1 (mod n), for k <= m <= 2k-1. The
// runs are grown record by record from i with Welford's update of the
// mean and sum of squares; the starts are spread over the workers.
func (s *icsmState) segmentSSE(path []int32) []float64 {
	n, k, d := len(path), s.k, s.d
	seg := make([]float64, n*k)
	workers := max(1, s.workers)
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mean := make([]float64, d)
			for i := w * chunk; i < min(n, (w+1)*chunk); i++ {
				clear(mean)
				sse := 0.0
				for m := 1; m <= 2*k-1; m++ {
					pos := i + m - 1
					if pos >= n {
						pos -= n
					}
					inv := 1 / float64(m)
					for t, v := range s.row(path[pos]) {
						delta := v - mean[t]
						mean[t] += delta * inv
						sse += delta * (v - mean[t])
					}
					if m >= k {
						seg[i*k+m-k] = sse
					}
				}
			}
		}()
	}
	wg.Wait()
	return seg
}

// partitionRotation is the optimal partition of the tour rotated by rot
// (position j is tour position (j+rot) mod n) into runs of k..2k-1, from
// the run costs seg. It returns the least SSE and the size of the last
// run of the best partition of every prefix (a fresh slice); cost is
// scratch of length n+1. Ties go to the shorter last run.
func partitionRotation(seg []float64, n, k, rot int, cost []float64) (float64, []int32) {
	last := make([]int32, n+1)
	cost[0] = 0
	for j := 1; j <= n; j++ {
		cost[j] = math.Inf(1)
		for m := k; m <= 2*k-1 && m <= j; m++ {
			start := j - m + rot
			if start >= n {
				start -= n
			}
			if c := cost[j-m] + seg[start*k+m-k]; c < cost[j] {
				cost[j], last[j] = c, int32(m)
			}
		}
	}
	return cost[n], last
}

// farthestFromMean returns the record farthest from the centroid of the
// data (ties to the lower index): where every tour starts. The data do
// not change, so it is computed once per state.
func (s *icsmState) farthestFromMean() int32 {
	mean := make([]float64, s.d)
	for i := range s.n {
		for t, v := range s.row(int32(i)) {
			mean[t] += v
		}
	}
	for t := range mean {
		mean[t] /= float64(s.n)
	}
	start, far := int32(0), -1.0
	for i := range s.n {
		if q := sqDist(s.row(int32(i)), mean); q > far {
			start, far = int32(i), q
		}
	}
	return start
}
