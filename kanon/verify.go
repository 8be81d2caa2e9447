package kanon

import (
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/model"
)

// Verify checks a published generalization: g contains the identity round
// and every connected component is regular of degree >= k
// (model.GenGraph.CheckAnonymous: a k-regular freeform graph, or
// Mondrian's complete bipartite classes), every edge's original
// lies inside its published box, and gcp equals the GCP recomputed from
// scratch (from the graph's own boxes, and, when boxes are given, from the
// published boxes too; relative tolerance 1e-9). boxes may be nil: then
// only the graph is checked (with its own boxes).
func Verify(t *model.QITable, boxes []*model.Box, g *model.GenGraph, k int, gcp float64) error {
	if t == nil || g == nil {
		return fmt.Errorf("kanon: verify: nil table or graph")
	}
	if err := t.Check(); err != nil {
		return fmt.Errorf("kanon: verify: %w", err)
	}
	if g.N != t.N {
		return fmt.Errorf("kanon: verify: graph of %d records for a table of %d", g.N, t.N)
	}
	if k < 1 || k > t.N {
		return fmt.Errorf("kanon: verify: %w: k = %d for %d records", ErrK, k, t.N)
	}
	if err := g.CheckAnonymous(k); err != nil {
		return fmt.Errorf("kanon: verify: %w", err)
	}
	want := t.GCP(g)
	if !closeRel(gcp, want) {
		return fmt.Errorf("kanon: verify: reported GCP %.15g, recomputed %.15g", gcp, want)
	}
	if boxes == nil {
		return nil
	}
	if len(boxes) != t.N {
		return fmt.Errorf("kanon: verify: %d published boxes for %d records", len(boxes), t.N)
	}
	sum := 0.0
	for j, b := range boxes {
		if err := checkBox(t, b); err != nil {
			return fmt.Errorf("kanon: verify: published record %d: %w", j, err)
		}
		for _, i := range g.Matched[j] {
			if !t.Contains(b, int(i)) {
				return fmt.Errorf("kanon: verify: original %d is outside the box of published record %d", i, j)
			}
		}
		sum += t.NCPSum(b)
	}
	if d := t.D(); d > 0 {
		if got := sum / float64(t.N*d); !closeRel(gcp, got) {
			return fmt.Errorf("kanon: verify: reported GCP %.15g, GCP of the published boxes %.15g", gcp, got)
		}
	}
	return nil
}

func closeRel(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkBox validates the shape of a box (so that Contains and NCPSum
// cannot panic).
func checkBox(t *model.QITable, b *model.Box) error {
	d := t.D()
	if b == nil || len(b.Lo) != d || len(b.Hi) != d || len(b.Set) != d || len(b.Node) != d {
		return fmt.Errorf("malformed box")
	}
	for a := range t.Attrs {
		at := &t.Attrs[a]
		switch {
		case at.Kind == model.Numeric:
			if !(b.Lo[a] <= b.Hi[a]) {
				return fmt.Errorf("attribute %s: empty interval [%v, %v]", at.Name, b.Lo[a], b.Hi[a])
			}
		case at.Hier != nil:
			if b.Node[a] < 0 || int(b.Node[a]) >= len(at.Hier.Parent) {
				return fmt.Errorf("attribute %s: hierarchy node %d out of range", at.Name, b.Node[a])
			}
		default:
			if len(b.Set[a]) != (len(at.Categories)+63)/64 {
				return fmt.Errorf("attribute %s: category set of %d words", at.Name, len(b.Set[a]))
			}
		}
	}
	return nil
}
