package tabular

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchDims returns a hierarchical region (Total → regions →
// municipalities, 1 + r + r·m codes) × two flat variables with f1 and f2
// leaves: (1 + r + r·m)·(f1 + 1)·(f2 + 1) cells.
func benchDims(b *testing.B, r, m, f1, f2 int) []Dimension {
	var parents, kids []string
	for i := range r {
		reg := "R" + strconv.Itoa(i)
		parents, kids = append(parents, DefaultRoot), append(kids, reg)
		for j := range m {
			parents, kids = append(parents, reg), append(kids, fmt.Sprintf("%s-%d", reg, j))
		}
	}
	h, err := NewHierarchy("", parents, kids)
	if err != nil {
		b.Fatal(err)
	}
	flat := func(n int) *Hierarchy {
		l := make([]string, n)
		for i := range l {
			l[i] = strconv.Itoa(i)
		}
		f, err := NewFlat("", l)
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	return []Dimension{{"region", h}, {"sector", flat(f1)}, {"size", flat(f2)}}
}

// BenchmarkBuild tabulates seeded synthetic records (a lognormal
// response, holdings) into a magnitude table; the large case has
// 111·31·29 = 99,789 cells and 200,000 records.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		name              string
		r, m, f1, f2, rec int
	}{
		{"cells=1.1k", 5, 4, 6, 6, 10_000},      // 26·7·7 = 1,274 cells
		{"cells=100k", 10, 10, 30, 28, 200_000}, // 111·31·29 = 99,789 cells
	} {
		dims := benchDims(b, c.r, c.m, c.f1, c.f2)
		rng := rand.New(rand.NewPCG(45, 1))
		leaves := make([][]int, len(dims))
		for d, dim := range dims {
			leaves[d] = dim.H.Leaves()
		}
		type rec struct {
			leaf []int
			y    float64
			hold string
		}
		recs := make([]rec, c.rec)
		for i := range recs {
			l := make([]int, len(dims))
			for d := range l {
				l[d] = leaves[d][rng.IntN(len(leaves[d]))]
			}
			recs[i] = rec{l, math.Exp(3 + 1.5*rng.NormFloat64()), "H" + strconv.Itoa(rng.IntN(c.rec/4))}
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				bl := NewBuilder(dims, &BuilderSettings{Magnitude: true, Holdings: true})
				for i, r := range recs {
					bl.Add(r.leaf, r.y, 1, strconv.Itoa(i), r.hold)
				}
				t := bl.Table()
				if t.Len() != (1+c.r+c.r*c.m)*(c.f1+1)*(c.f2+1) {
					b.Fatalf("%d cells", t.Len())
				}
			}
		})
	}
}

// BenchmarkRelations lists the relations of the 99,789-cell table.
func BenchmarkRelations(b *testing.B) {
	t := NewTable(benchDims(b, 10, 10, 30, 28))
	for b.Loop() {
		n := 0
		for range t.Relations() {
			n++
		}
		if n != t.NumRelations() {
			b.Fatalf("%d relations, NumRelations %d", n, t.NumRelations())
		}
	}
}
