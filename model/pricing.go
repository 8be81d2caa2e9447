package model

import "fmt"

// SqDist is the full matrix of squared Euclidean distances between the
// records of a data set: D[i*N+j] = ||x_i - x_j||². It is the edge weight
// c_ij of the column-generation model for microaggregation (Gentile,
// Spagnolo-Arrizabalaga & Castro, Section 4), where the SSE of a group C is
// w_C = Σ_{i<j ∈ C} c_ij / |C| (their Equation (8), Proposition 3.1).
type SqDist struct {
	N int
	D []float64
}

// NewSqDist computes the distance matrix of ds (N² values).
func NewSqDist(ds *Dataset) *SqDist {
	n, d := ds.N, ds.D
	m := &SqDist{N: n, D: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		xi := ds.Row(i)
		for j := i + 1; j < n; j++ {
			xj := ds.Row(j)
			s := 0.0
			for a := 0; a < d; a++ {
				t := xi[a] - xj[a]
				s += t * t
			}
			m.D[i*n+j] = s
			m.D[j*n+i] = s
		}
	}
	return m
}

// At returns c_ij.
func (m *SqDist) At(i, j int) float64 { return m.D[i*m.N+j] }

// GroupCost returns w_C = Σ_{i<j ∈ C} c_ij / |C|, the SSE of the group
// (Equation (8)). It is 0 for fewer than two members.
func (m *SqDist) GroupCost(members []int) float64 {
	if len(members) < 2 {
		return 0
	}
	s := 0.0
	for a, i := range members {
		row := m.D[i*m.N:]
		for _, j := range members[a+1:] {
			s += row[j]
		}
	}
	return s / float64(len(members))
}

// PartitionCost returns Σ_C w_C over groups: the SSE of a clustering given
// as its groups.
func (m *SqDist) PartitionCost(groups [][]int) float64 {
	s := 0.0
	for _, g := range groups {
		s += m.GroupCost(g)
	}
	return s
}

// ReducedCost returns w_C - Σ_{v ∈ C} λ_v, the reduced cost of group C in
// the set-partitioning master problem with duals lambda (Equation (10)).
func (m *SqDist) ReducedCost(lambda []float64, members []int) float64 {
	s := m.GroupCost(members)
	for _, v := range members {
		s -= lambda[v]
	}
	return s
}

// PricingInstance is one pricing subproblem of fixed size: find a group of
// exactly Eta distinct records minimizing the reduced cost
// Σ_{i<j ∈ C} c_ij / Eta - Σ_{v ∈ C} Lambda_v.
type PricingInstance struct {
	Dist   *SqDist
	Lambda []float64
	Eta    int
}

// Check reports a malformed instance.
func (p *PricingInstance) Check() error {
	if p.Dist == nil {
		return fmt.Errorf("model: pricing instance without distances")
	}
	n := p.Dist.N
	if len(p.Dist.D) != n*n {
		return fmt.Errorf("model: distance matrix has %d values for %d records", len(p.Dist.D), n)
	}
	if len(p.Lambda) != n {
		return fmt.Errorf("model: %d duals for %d records", len(p.Lambda), n)
	}
	if p.Eta < 1 || p.Eta > n {
		return fmt.Errorf("model: pricing group size %d with %d records", p.Eta, n)
	}
	return nil
}

// Column is a priced group: its members (ascending record indices) and its
// reduced cost under the instance's duals.
type Column struct {
	Members     []int
	ReducedCost float64
}
