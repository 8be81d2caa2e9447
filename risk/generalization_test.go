package risk

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcopt/sdcopt/model"
)

// handTable: five records of (age numeric, sex categorical {F, M}).
//
//	1: 20 M   2: 22 M   3: 25 F   4: 30 F   5: 31 M
func handTable() *model.QITable {
	return &model.QITable{
		Attrs: []model.QIAttr{
			{Name: "age", Kind: model.Numeric, Min: 20, Max: 31},
			{Name: "sex", Kind: model.Categorical, Categories: []string{"F", "M"}},
		},
		N: 5,
		X: []float64{20, 1, 22, 1, 25, 0, 30, 0, 31, 1},
	}
}

func box(lo, hi float64, set uint64) *model.Box {
	return &model.Box{Lo: []float64{lo, 0}, Hi: []float64{hi, 0}, Set: [][]uint64{nil, {set}}, Node: make([]int32, 2)}
}

// The hand-computed example. Published boxes (sex bit 0 = F, bit 1 = M):
//
//	B1 [20-22] {M}     contains 1, 2        c = 2
//	B2 [20-22] {M}     contains 1, 2        c = 2
//	B3 [25-30] {F}     contains 3, 4        c = 2
//	B4 [22-31] {F, M}  contains 2, 3, 4, 5  c = 4
//	B5 [30-31] {F, M}  contains 4, 5        c = 2
//
// Re-identification: max 1/2, mean (4·1/2 + 1/4)/5 = 0.45.
// Linkage: originals are in m = 2 (B1, B2), 3 (B1, B2, B4), 2 (B3, B4),
// 3 (B3, B4, B5), 2 (B4, B5) boxes: mean (3·1/2 + 2·1/3)/5 = 13/30, max 1/2.
func TestGeneralizationHand(t *testing.T) {
	tab := handTable()
	boxes := []*model.Box{box(20, 22, 2), box(20, 22, 2), box(25, 30, 1), box(22, 31, 3), box(30, 31, 3)}
	for _, k := range []int{1, 2} {
		r, err := Generalization(tab, boxes, k, nil)
		if err != nil {
			t.Fatalf("k = %d: %v", k, err)
		}
		if r.MaxReidentification != 0.5 || r.MinCandidates != 2 || math.Abs(r.MeanReidentification-0.45) > tol ||
			math.Abs(r.LinkageMean-13.0/30) > tol || r.LinkageMax != 0.5 || !r.Exact || r.K != k || r.N != 5 || r.Published != 5 {
			t.Errorf("k = %d: %+v", k, r)
		}
	}
	// k = 3: four boxes hold only 2 originals.
	if _, err := Generalization(tab, boxes, 3, nil); !errors.Is(err, ErrExceeds) {
		t.Errorf("k = 3: %v, want ErrExceeds", err)
	}
	// k = 1 with every record published as itself: c = 1 everywhere, and
	// every original is in its own box only: all probabilities 1.
	own := make([]*model.Box, tab.N)
	for i := range own {
		own[i] = tab.NewBox(i)
	}
	r, err := Generalization(tab, own, 1, nil)
	if err != nil || r.MaxReidentification != 1 || r.MeanReidentification != 1 || r.LinkageMean != 1 || r.LinkageMax != 1 {
		t.Errorf("k = 1, no generalization: %+v, %v", r, err)
	}
	// An original in no box: record 5 (31, M) with B1 and B3 only.
	cut := []*model.Box{box(20, 22, 2), box(25, 30, 1)}
	if _, err := Generalization(tab, cut, 1, nil); !errors.Is(err, ErrExceeds) {
		t.Errorf("uncovered original: %v, want ErrExceeds", err)
	}
	if _, err := Generalization(tab, boxes, 0, nil); !errors.Is(err, ErrParam) {
		t.Errorf("k = 0: %v, want ErrParam", err)
	}
	bad := []*model.Box{{Lo: []float64{0}, Hi: []float64{1}}}
	if _, err := Generalization(tab, bad, 1, nil); !errors.Is(err, ErrParam) {
		t.Errorf("a box of one attribute: %v, want ErrParam", err)
	}
}

// A hierarchy: categories a, b, c, d under ab = {a, b} and cd = {c, d},
// under the root *. Records a, b, c, d, d; boxes ab, ab, cd, cd, *:
// ab contains 2 records, cd 3, * 5. Re-identification: max 1/2, mean
// (2·1/2 + 2·1/3 + 1/5)/5 = 28/75. Linkage: a and b are in ab, ab, *
// (3 boxes), c and the d's in cd, cd, * (3): mean and max 1/3.
func TestGeneralizationHierarchy(t *testing.T) {
	h := &model.Hierarchy{
		NumLeaves: 4,
		Parent:    []int32{4, 4, 5, 5, 6, 6, -1},
		Names:     []string{"a", "b", "c", "d", "ab", "cd", "*"},
		Leaves:    []int32{1, 1, 1, 1, 2, 2, 4},
		Depth:     []int32{2, 2, 2, 2, 1, 1, 0},
	}
	tab := &model.QITable{
		Attrs: []model.QIAttr{{Name: "x", Kind: model.Categorical, Categories: []string{"a", "b", "c", "d"}, Hier: h}},
		N:     5,
		X:     []float64{0, 1, 2, 3, 3},
	}
	node := func(v int32) *model.Box {
		return &model.Box{Lo: []float64{0}, Hi: []float64{0}, Set: [][]uint64{nil}, Node: []int32{v}}
	}
	boxes := []*model.Box{node(4), node(4), node(5), node(5), node(6)}
	r, err := Generalization(tab, boxes, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxReidentification != 0.5 || math.Abs(r.MeanReidentification-28.0/75) > tol || math.Abs(r.LinkageMean-1.0/3) > tol || math.Abs(r.LinkageMax-1.0/3) > tol {
		t.Errorf("%+v", r)
	}
}

// randomTable has n records of a numeric attribute (0..5), a categorical
// one without hierarchy (4 codes) and one with the hierarchy of
// TestGeneralizationHierarchy; randomBoxes gives record j the box of
// itself and 0..3 random others (as freeform generalization does).
func randomTable(rng *rand.Rand, n int) *model.QITable {
	h := &model.Hierarchy{
		NumLeaves: 4,
		Parent:    []int32{4, 4, 5, 5, 6, 6, -1},
		Names:     []string{"a", "b", "c", "d", "ab", "cd", "*"},
		Leaves:    []int32{1, 1, 1, 1, 2, 2, 4},
		Depth:     []int32{2, 2, 2, 2, 1, 1, 0},
	}
	t := &model.QITable{
		Attrs: []model.QIAttr{
			{Name: "num", Kind: model.Numeric, Min: 0, Max: 5},
			{Name: "set", Kind: model.Categorical, Categories: []string{"p", "q", "r", "s"}},
			{Name: "hier", Kind: model.Categorical, Categories: []string{"a", "b", "c", "d"}, Hier: h},
		},
		N: n,
		X: make([]float64, 3*n),
	}
	for i := 0; i < n; i++ {
		t.X[3*i], t.X[3*i+1], t.X[3*i+2] = float64(rng.IntN(6)), float64(rng.IntN(4)), float64(rng.IntN(4))
	}
	return t
}

func randomBoxes(rng *rand.Rand, t *model.QITable) []*model.Box {
	boxes := make([]*model.Box, t.N)
	for j := range boxes {
		boxes[j] = t.NewBox(j)
		for x := rng.IntN(4); x > 0; x-- {
			t.Add(boxes[j], rng.IntN(t.N))
		}
	}
	return boxes
}

// bruteGeneralization counts with model.QITable.Contains over every pair.
func bruteGeneralization(t *model.QITable, boxes []*model.Box) (maxR, meanR, linkMean, linkMax float64) {
	m := make([]int, t.N)
	for _, b := range boxes {
		c := 0
		for i := 0; i < t.N; i++ {
			if t.Contains(b, i) {
				c++
				m[i]++
			}
		}
		maxR = math.Max(maxR, 1/float64(c))
		meanR += 1 / float64(c)
	}
	for _, v := range m {
		linkMean += 1 / float64(v)
		linkMax = math.Max(linkMax, 1/float64(v))
	}
	return maxR, meanR / float64(len(boxes)), linkMean / float64(t.N), linkMax
}

func TestGeneralizationBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		tab := randomTable(rng, 2+rng.IntN(60))
		boxes := randomBoxes(rng, tab)
		r, err := Generalization(tab, boxes, 1, &GeneralizationOptions{Workers: 1 + trial%3})
		if err != nil {
			t.Fatal(err)
		}
		maxR, meanR, lm, lx := bruteGeneralization(tab, boxes)
		if r.MaxReidentification != maxR || math.Abs(r.MeanReidentification-meanR) > tol || math.Abs(r.LinkageMean-lm) > tol || r.LinkageMax != lx || !r.Exact {
			t.Fatalf("trial %d: %+v; brute force max %v mean %v linkage %v max %v", trial, r, maxR, meanR, lm, lx)
		}
		// k one above the smallest count fails.
		if _, err := Generalization(tab, boxes, r.MinCandidates+1, nil); !errors.Is(err, ErrExceeds) {
			t.Fatalf("trial %d: k = %d: %v, want ErrExceeds", trial, r.MinCandidates+1, err)
		}
	}
}

// The sampled estimate: the largest probability stays exact; a sample of
// every record gives the exact means; a half sample is within a few
// standard errors of them (the spread of 1/c is below 0.5, so the
// standard error of a mean of 300 draws is below 0.03).
func TestGeneralizationSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tab := randomTable(rng, 600)
	boxes := randomBoxes(rng, tab)
	maxR, meanR, lm, _ := bruteGeneralization(tab, boxes)
	full, err := Generalization(tab, boxes, 1, &GeneralizationOptions{MaxWork: 1, Sample: 600, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if full.Exact || full.Sample != 600 || full.MaxReidentification != maxR || math.Abs(full.MeanReidentification-meanR) > tol || math.Abs(full.LinkageMean-lm) > tol {
		t.Errorf("sample of all: %+v; brute force max %v mean %v linkage %v", full, maxR, meanR, lm)
	}
	half, err := Generalization(tab, boxes, 1, &GeneralizationOptions{MaxWork: 1, Sample: 300, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if half.Exact || half.Sample != 300 || half.Seed != 7 || half.MaxReidentification != maxR ||
		math.Abs(half.MeanReidentification-meanR) > 0.05 || math.Abs(half.LinkageMean-lm) > 0.05 {
		t.Errorf("half sample: %+v; brute force max %v mean %v linkage %v", half, maxR, meanR, lm)
	}
	// The check in sampled mode: k one above the smallest count fails.
	if _, err := Generalization(tab, boxes, half.MinCandidates+1, &GeneralizationOptions{MaxWork: 1, Sample: 300, Seed: 7}); !errors.Is(err, ErrExceeds) {
		t.Errorf("sampled, k = %d: %v, want ErrExceeds", half.MinCandidates+1, err)
	}
	again, _ := Generalization(tab, boxes, 1, &GeneralizationOptions{MaxWork: 1, Sample: 300, Seed: 7})
	if again.MeanReidentification != half.MeanReidentification || again.LinkageMean != half.LinkageMean {
		t.Errorf("same seed, different estimates: %+v, %+v", again, half)
	}
}
