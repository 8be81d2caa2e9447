package shuttle

import (
	"fmt"
	"strconv"
	"strings"
)

// A block is a nonempty set of categories of one variable. A cell of T picks
// one block per variable; the full set of categories means "collapsed across
// that variable".

// family is the block family of one variable: the blocks a T-cell may use
// for it, and the splits b12 = b1 ∪ b2 (b1, b2 disjoint) within the family.
type family struct {
	cats    int
	kind    string     // FamilyAllSubsets or FamilyIntervals
	blocks  [][]int    // categories of every block, increasing
	single  []int32    // block id of the singleton {l}, for every category l
	full    int32      // block id of the full set
	triples [][3]int32 // (b1, b2, b12): b1 < b2 disjoint, b1 ∪ b2 = b12
}

// Names of the block families (Result.Families).
const (
	FamilyAllSubsets = "all subsets"
	FamilyIntervals  = "intervals + singleton complements"
)

// newFamily builds the block family of a variable with c categories: all
// 2^c - 1 nonempty subsets when c <= allMax, otherwise the contiguous
// intervals [a, b] of the ordered categories plus the complements of the
// inner singletons (the outer ones are intervals already).
func newFamily(c, allMax int) *family {
	f := &family{cats: c}
	if c <= allMax {
		f.kind = FamilyAllSubsets
		for mask := 1; mask < 1<<c; mask++ {
			var b []int
			for l := 0; l < c; l++ {
				if mask>>l&1 == 1 {
					b = append(b, l)
				}
			}
			f.blocks = append(f.blocks, b)
		}
	} else {
		f.kind = FamilyIntervals
		for a := 0; a < c; a++ {
			for b := a; b < c; b++ {
				blk := make([]int, 0, b-a+1)
				for l := a; l <= b; l++ {
					blk = append(blk, l)
				}
				f.blocks = append(f.blocks, blk)
			}
		}
		for j := 1; j+1 < c; j++ {
			blk := make([]int, 0, c-1)
			for l := 0; l < c; l++ {
				if l != j {
					blk = append(blk, l)
				}
			}
			f.blocks = append(f.blocks, blk)
		}
	}
	f.index()
	return f
}

func blockKey(b []int) string {
	var sb strings.Builder
	for i, l := range b {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(l))
	}
	return sb.String()
}

// index finds the singletons, the full set and every split within the
// family.
func (f *family) index() {
	id := make(map[string]int32, len(f.blocks))
	for i, b := range f.blocks {
		id[blockKey(b)] = int32(i)
	}
	f.single = make([]int32, f.cats)
	for l := 0; l < f.cats; l++ {
		s, ok := id[blockKey([]int{l})]
		if !ok {
			panic(fmt.Sprintf("shuttle: block family misses the singleton {%d}", l))
		}
		f.single[l] = s
	}
	all := make([]int, f.cats)
	for l := range all {
		all[l] = l
	}
	full, ok := id[blockKey(all)]
	if !ok {
		panic("shuttle: block family misses the full set")
	}
	f.full = full
	// Membership bitsets make the pairwise disjointness test cheap.
	words := (f.cats + 63) / 64
	bits := make([][]uint64, len(f.blocks))
	for i, b := range f.blocks {
		bits[i] = make([]uint64, words)
		for _, l := range b {
			bits[i][l/64] |= 1 << (l % 64)
		}
	}
	union := make([]int, 0, f.cats)
	for b1 := range f.blocks {
		for b2 := b1 + 1; b2 < len(f.blocks); b2++ {
			disjoint := true
			for w := range bits[b1] {
				if bits[b1][w]&bits[b2][w] != 0 {
					disjoint = false
					break
				}
			}
			if !disjoint {
				continue
			}
			union = mergeSorted(union[:0], f.blocks[b1], f.blocks[b2])
			if b12, ok := id[blockKey(union)]; ok {
				f.triples = append(f.triples, [3]int32{int32(b1), int32(b2), b12})
			}
		}
	}
}

func mergeSorted(dst, a, b []int) []int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i] < b[j]) {
			dst = append(dst, a[i])
			i++
		} else {
			dst = append(dst, b[j])
			j++
		}
	}
	return dst
}
