package shuttle

import (
	"math"

	"github.com/sdcopt/sdcopt/internal/sysmem"
	"github.com/sdcopt/sdcopt/model"
)

// DefaultMemoryLimit is the memory limit used when Options.MemoryLimit is
// 0: half of the physical memory (sysinfo(2) on Linux; 8 GiB assumed where
// it cannot be read).
func DefaultMemoryLimit() int64 { return sysmem.DefaultLimit() }

// Bytes per item of the structures Bounds allocates (Estimate). They count
// the Go slices only (no allocator or GC overhead: with the default GOGC
// the heap may briefly reach about twice the live bytes).
const (
	// bytesPerDep: d1, d2, d12 (int32 each) and the dependency's three
	// entries in the CSR adjacency (int32 each).
	bytesPerDep = 24
	// bytesPerTCell: adjStart and its fill copy (int32 each), lo and hi
	// (int64 each), inq (bool), the trail stamp (uint32), the ring queue
	// (int32) and the copies of lo and hi kept in the Result (int64 each).
	bytesPerTCell = 4 + 4 + 16 + 1 + 4 + 4 + 16
	// bytesPerCell: fullT (int32), ShuttleBounds and Bounds (two float64
	// each), LowerSharp and UpperSharp (bool each).
	bytesPerCell = 4 + 2*16 + 2
	// bytesPerTrailEntry is one trail entry (int32 cell, two int64 bounds,
	// padded) counted 1.5 times: the trail grows by doubling and the old
	// array is live while it is copied.
	bytesPerTrailEntry = 36
	// bytesPerLevel is a search level's own memory besides the trail: its
	// re-fitted table (8 bytes a cell, counted separately) and its stack
	// frame.
	bytesPerLevel = 256
)

// Memory is Estimate's account of the memory Bounds needs, in bytes.
type Memory struct {
	// TCells is |T| and Deps the number of two-cell dependencies (both
	// exact, saturating at math.MaxInt64).
	TCells, Deps int64
	// Shuttle is what Bounds allocates before and during the shuttle
	// propagation: the block families, T with its dependencies and their
	// adjacency, the bounds of every T-cell and the results. Bounds
	// refuses (ErrTooLarge) when it exceeds the memory limit.
	Shuttle int64
	// Correction is the correction step's worst case for one dive of its
	// search to a first integer table: one level per full-table cell, each
	// recording at most every T-cell once on the trail (24 bytes, 36 with
	// the growth of the array) and keeping a re-fitted table (8 bytes a
	// cell), plus the fixed structures of the search (the margins'
	// projections, the guesses). Measured on 2^10 and 2^12 tables with all
	// 2-way margins, a level records 25-60% of T, so this is within a small
	// factor of what a dive takes. Bounds skips the correction step
	// (Result.Stopped = StoppedMemoryLimit) when Shuttle + Correction
	// exceeds the memory limit, and stops a search that outgrows it.
	Correction int64
}

// Total is Shuttle + Correction (saturating).
func (m Memory) Total() int64 { return satAdd(m.Shuttle, m.Correction) }

// Estimate returns the memory that Bounds needs for the margin set ms
// with the options opt (nil: DefaultOptions()), computed from the table's
// dimensions and the margins alone: nothing of T is built. It panics on a
// nil ms.
func Estimate(ms *model.MarginSet, opt *Options) Memory {
	if opt == nil {
		opt = DefaultOptions()
	}
	dims := model.Dims(ms.Vars)
	return estimate(dims, ms.Margins, opt.allSubsetsMax(), len(opt.Marginals) > 0)
}

func estimate(dims []int, margins []*model.Marginal, allMax int, extraTargets bool) Memory {
	var m Memory
	size := int64(1)
	blocks := make([]int64, len(dims))
	triples := make([]int64, len(dims))
	var famBytes int64
	for i, c := range dims {
		blocks[i], triples[i] = familySize(c, allMax)
		famBytes = satAdd(famBytes, familyBytes(c, blocks[i], triples[i], allMax))
		size = satMul(size, blocks[i])
	}
	var deps int64
	for i := range dims {
		if blocks[i] > 0 {
			deps = satAdd(deps, satMul(triples[i], size/blocks[i]))
		}
	}
	if size == math.MaxInt64 {
		deps = math.MaxInt64
	}
	n := int64(model.NumCells(dims))
	m.TCells, m.Deps = size, deps
	m.Shuttle = satAdd(satAdd(satMul(deps, bytesPerDep), satMul(size, bytesPerTCell)),
		satAdd(satMul(n, bytesPerCell), famBytes))

	// The correction step: the margins' projections (int32 per cell and
	// margin, for the first fit and for the re-fits), the guesses and the
	// first fit (8 bytes a cell each), the certified extremes of every
	// target, then one dive of n levels.
	targets := n
	if extraTargets {
		targets = satAdd(targets, size) // at most every T-cell
	}
	fixed := satAdd(satMul(n, 8*int64(len(margins))), satMul(n, 24))
	fixed = satAdd(fixed, satMul(targets, 16))
	level := satAdd(satAdd(satMul(size, bytesPerTrailEntry), satMul(n, 8)), bytesPerLevel)
	m.Correction = satAdd(fixed, satMul(n, level))
	return m
}

// familySize returns the number of blocks and of splits b12 = b1 ∪ b2 of
// the block family of a variable with c categories (newFamily), in closed
// form: with all subsets, 2^c - 1 blocks and (3^c - 2^(c+1) + 1)/2 splits
// (unordered pairs of disjoint nonempty subsets); with intervals and inner
// singleton complements, c(c+1)/2 + (c-2) blocks and C(c+1, 3) interval
// splits [a, m] ∪ [m+1, b], plus two per inner category j: [0, j-1] ∪
// [j+1, c-1] (its complement) and {j} ∪ complement (the full set).
// Saturates at math.MaxInt64.
func familySize(c, allMax int) (blocks, triples int64) {
	if c <= allMax {
		if c >= 39 {
			return math.MaxInt64, math.MaxInt64
		}
		p3 := int64(1)
		for i := 0; i < c; i++ {
			p3 *= 3
		}
		return int64(1)<<c - 1, (p3 - int64(2)<<c + 1) / 2
	}
	cc := int64(c)
	blocks = satAdd(satMul(cc, cc+1)/2, cc-2)
	triples = satAdd(satMul(satMul(cc+1, cc), cc-1)/6, 2*(cc-2))
	return blocks, triples
}

// familyBytes estimates the memory of a block family and of its
// construction: the categories of every block (8 bytes each, plus a slice
// header), the map from block keys to ids (about 4 bytes a category in a
// key, plus 48 bytes an entry), the membership bitsets and the splits (12
// bytes each).
func familyBytes(c int, blocks, triples int64, allMax int) int64 {
	var cats int64 // total categories over the blocks
	if c <= allMax {
		cats = satMul(int64(c), int64(1)<<max(c-1, 0))
	} else {
		cc := int64(c)
		cats = satAdd(satMul(satMul(cc, cc+1), cc+2)/6, satMul(cc-2, cc-1))
	}
	words := int64((c + 63) / 64)
	b := satAdd(satMul(cats, 8+4), satMul(blocks, 24+48+24+8*words))
	return satAdd(b, satMul(triples, 12))
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// humanBytes formats a byte count for messages (sysmem.Human).
func humanBytes(b int64) string {
	if b == math.MaxInt64 {
		return "more than 9.2 EB"
	}
	return sysmem.Human(float64(b))
}

// trivialBounds returns the bounds every table with the margins satisfies
// without any propagation: [0, min over the released margins of the
// margin cell containing the cell].
func trivialBounds(dims []int, margins []*model.Marginal) *model.CellBounds {
	n := model.NumCells(dims)
	b := model.NewCellBounds(n)
	lv := make([]int, len(dims))
	for c := 0; c < n; c++ {
		model.CellLevels(dims, c, lv)
		up := int64(math.MaxInt64)
		for _, m := range margins {
			up = min(up, m.Counts[model.Project(dims, m.Vars, lv)])
		}
		b.Lower[c], b.Upper[c] = 0, float64(up)
	}
	return b
}
