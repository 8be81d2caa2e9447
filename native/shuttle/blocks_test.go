package shuttle

import "testing"

// TestFamilies checks the family sizes and split counts stated in doc.go.
func TestFamilies(t *testing.T) {
	for _, c := range []struct {
		cats, blocks, splits int
		kind                 string
	}{
		{1, 1, 0, FamilyAllSubsets},
		{2, 3, 1, FamilyAllSubsets},
		{3, 7, 6, FamilyAllSubsets},   // (3^3 - 2*2^3 + 1)/2
		{4, 15, 25, FamilyAllSubsets}, // (3^4 - 2*2^4 + 1)/2
		{5, 18, 26, FamilyIntervals},  // 15 intervals + 3 complements
		{10, 63, 181, FamilyIntervals},
	} {
		f := newFamily(c.cats, DefaultAllSubsetsMax)
		if len(f.blocks) != c.blocks || len(f.triples) != c.splits || f.kind != c.kind {
			t.Errorf("c=%d: %d blocks, %d splits, %q; want %d, %d, %q", c.cats, len(f.blocks), len(f.triples), f.kind,
				c.blocks, c.splits, c.kind)
		}
		// Every block but the singletons splits within the family.
		splits := make([]bool, len(f.blocks))
		for _, tr := range f.triples {
			splits[tr[2]] = true
		}
		for b, blk := range f.blocks {
			if len(blk) > 1 && !splits[b] {
				t.Errorf("c=%d: block %v has no split in the family", c.cats, blk)
			}
		}
	}
}
