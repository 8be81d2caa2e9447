package datasets

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sdcopt/sdcopt/internal/sysmem"
)

// setMemoryLimit makes MemoryLimit return limit until the test ends.
func setMemoryLimit(tb testing.TB, limit int64) {
	tb.Helper()
	old := memoryLimitOverride.Swap(limit)
	tb.Cleanup(func() { memoryLimitOverride.Store(old) })
}

func TestMemoryLimitDefault(t *testing.T) {
	lim := MemoryLimit()
	// Any machine that runs the tests has between 256 MiB and 64 TiB.
	if lim < 128<<20 || lim > 32<<40 {
		t.Errorf("MemoryLimit() = %d", lim)
	}
	if phys := sysmem.Physical(); phys != 0 && uint64(lim) != phys/2 {
		t.Errorf("MemoryLimit() = %d, want half of %d", lim, phys)
	}
}

func TestSizeArithmetic(t *testing.T) {
	if got := sizeProduct(8, 1000, 10); got != 80000 {
		t.Errorf("sizeProduct = %d", got)
	}
	if got := sizeProduct(8, math.MaxInt/4); got != -1 {
		t.Errorf("overflowing product = %d, want -1", got)
	}
	if got := sizeProduct(0, math.MaxInt, math.MaxInt); got != 0 {
		t.Errorf("product with a zero = %d, want 0", got)
	}
	if got := sizeSum(math.MaxInt-1, 1); got != math.MaxInt {
		t.Errorf("sizeSum = %d", got)
	}
	if got := sizeSum(math.MaxInt, 1); got != -1 {
		t.Errorf("overflowing sum = %d, want -1", got)
	}
	if got := sizeSum(3, -1); got != -1 {
		t.Errorf("sum with an overflow = %d, want -1", got)
	}
}

func TestGeneratorsTooLarge(t *testing.T) {
	// The example of the bug report: 10^12 x 10 values are 80 TB; before
	// the check the process died with "fatal error: out of memory".
	_, err := Synthetic("gauss-1000000000000-10-5", 1)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	// 8 bytes x (10^13 values + 50 centre coordinates + 5 spreads) + 40 x 10 names.
	want := fmt.Sprintf("gauss-1000000000000-10-5 (1000000000000 records x 10 attributes, 5 clusters) is too large for memory: "+
		"it needs 80000000000840 bytes (80.0 TB); the limit is %d bytes", MemoryLimit())
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q\nwant it to contain %q", err, want)
	}
	// ParseSpec checks the same, before any generator runs.
	if _, err := ParseSpec("synthetic:gauss-1000000000000-10-5"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ParseSpec: err = %v, want ErrTooLarge", err)
	}
	if _, err := Load("synthetic:gauss-1000000000000-10-5:3", nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Load: err = %v, want ErrTooLarge", err)
	}
	// N*D overflowing an int, and a parameter that does not fit in one.
	for _, name := range []string{"gauss-4611686018427387904-4611686018427387904-1", "gauss-99999999999999999999-2-1", "gauss-2-99999999999999999999-1"} {
		_, err := Synthetic(name, 1)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: err = %v, want ErrTooLarge", name, err)
		}
	}
	if _, err := GaussianClusters(1<<40, 1<<40, 1, 1); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("GaussianClusters(2^40, 2^40): err = %v, want an overflow wrapping ErrTooLarge", err)
	}
	// Many attributes of one record: the names count too.
	if _, err := GaussianClusters(1, math.MaxInt/64, 1, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("GaussianClusters(1, huge): err = %v", err)
	}
	// SyntheticQI: 10^12 records of 8 attributes.
	if _, err := NewSyntheticQI(1_000_000_000_000, 1); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "64000000000000 bytes") {
		t.Errorf("NewSyntheticQI(10^12): err = %v", err)
	}
	func() {
		defer func() {
			r := recover()
			if err, ok := r.(error); !ok || !errors.Is(err, ErrTooLarge) {
				t.Errorf("SyntheticQI(10^12) panicked with %v, want an error wrapping ErrTooLarge", r)
			}
		}()
		SyntheticQI(1_000_000_000_000, 1)
	}()
}

func TestGeneratorsAtTheLimit(t *testing.T) {
	// Exactly the bytes gaussianBytes counts fit; one less does not.
	const n, d, c = 50, 3, 4
	need := gaussianBytes(n, d, c)
	setMemoryLimit(t, need)
	if _, err := GaussianClusters(n, d, c, 1); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	setMemoryLimit(t, need-1)
	_, err := GaussianClusters(n, d, c, 1)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf("it needs %d bytes", need)) {
		t.Errorf("one byte over: err = %v", err)
	}
	setMemoryLimit(t, 8*8*10)
	if _, err := NewSyntheticQI(10, 1); err != nil {
		t.Errorf("SyntheticQI at the limit: %v", err)
	}
	if _, err := NewSyntheticQI(11, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("SyntheticQI over the limit: err = %v", err)
	}
	// The fixed-size generators are checked too.
	setMemoryLimit(t, 1000)
	for _, name := range SyntheticNames() {
		if _, err := Synthetic(name, 1); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s under a 1000-byte limit: err = %v", name, err)
		}
	}
}

func TestGeneratorsBadSizes(t *testing.T) {
	for _, tc := range []struct {
		n, d, c int
		want    string
	}{
		{0, 1, 1, "N = 0 records: need at least 1"},
		{-5, 1, 1, "N = -5 records: need at least 1"},
		{5, 0, 1, "D = 0 attributes: need at least 1"},
		{5, 2, 0, "C = 0 clusters: need at least 1"},
		{5, 2, 6, "C = 6 clusters for N = 5 records: need clusters <= records"},
	} {
		_, err := GaussianClusters(tc.n, tc.d, tc.c, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrTooLarge) {
			t.Errorf("GaussianClusters(%d, %d, %d): err = %v, want %q", tc.n, tc.d, tc.c, err, tc.want)
		}
		name := fmt.Sprintf("gauss-%d-%d-%d", tc.n, tc.d, tc.c)
		if tc.n < 0 {
			continue // "gauss--5-1-1" is a syntax error
		}
		if _, err := ParseSpec("synthetic:" + name); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSpec(%s): err = %v, want %q", name, err, tc.want)
		}
	}
	if _, err := Synthetic("gauss-10-x-2", 1); err == nil || !strings.Contains(err.Error(), `D = "x" is not an integer`) {
		t.Errorf("gauss-10-x-2: err = %v", err)
	}
	for _, n := range []int{0, -1} {
		if _, err := NewSyntheticQI(n, 1); err == nil || !strings.Contains(err.Error(), "need at least 1") {
			t.Errorf("NewSyntheticQI(%d): err = %v", n, err)
		}
	}
}

func TestTableTooLarge(t *testing.T) {
	// Three rows list three cells, but the table over 3 levels in each of
	// 8 variables has 3^8 = 6561 cells (52488 bytes).
	text := "A,B,C,D,E,F,G,H,count\n" +
		"a,a,a,a,a,a,a,a,1\n" +
		"b,b,b,b,b,b,b,b,1\n" +
		"c,c,c,c,c,c,c,c,1\n"
	path := writeFile(t, "wide.csv", text)
	setMemoryLimit(t, 52488)
	if _, err := LoadTableCSV(path, nil); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	setMemoryLimit(t, 52487)
	_, err := LoadTableCSV(path, nil)
	var de *DataError
	if !errors.As(err, &de) || !errors.Is(err, ErrTooLarge) || de.File != path {
		t.Fatalf("err = %v, want a *DataError on %s wrapping ErrTooLarge", err, path)
	}
	want := path + ": the table over 3 x 3 x 3 x 3 x 3 x 3 x 3 x 3 levels (6561 cells) is too large for memory: it needs 52488 bytes"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q\nwant it to start with %q", err, want)
	}
	// Margins: each file is small, but the margin over the merged levels
	// of A (3 + 3) and B (3) has 18 cells.
	ab1 := writeFile(t, "ab1.csv", "A,B,count\na,x,1\nb,y,1\nc,z,1\n")
	a2 := writeFile(t, "a2.csv", "A,count\nd,1\ne,1\nf,1\n")
	setMemoryLimit(t, 8*18-1)
	_, err = LoadMarginFiles([]string{a2, ab1}, nil)
	if !errors.As(err, &de) || !errors.Is(err, ErrTooLarge) || de.File != ab1 || !strings.Contains(err.Error(), "margin [AB]: the table over 6 x 3 levels") {
		t.Errorf("merged margin: err = %v", err)
	}
}
