package datasets

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/sdcopt/sdcopt/internal/sysmem"
)

// ErrTooLarge is wrapped by every error about a requested or implied size
// that would take more memory than MemoryLimit (or does not fit in an
// int): a synthetic generator asked for too many values, or a long-format
// table whose levels span too many cells. The check is made before
// anything is allocated, so the caller gets an error instead of the
// runtime's fatal "out of memory".
var ErrTooLarge = errors.New("datasets: too large for memory")

// memoryLimitOverride, when positive, replaces the default limit (tests
// and fuzz targets set it to keep single inputs small).
var memoryLimitOverride atomic.Int64

// MemoryLimit returns the most bytes that one generated data set or one
// dense table read by this package may take: half of the physical memory
// (sysinfo(2) on Linux; 8 GiB assumed elsewhere). Generators and loaders
// that would need more return an error wrapping ErrTooLarge.
func MemoryLimit() int64 {
	if v := memoryLimitOverride.Load(); v > 0 {
		return v
	}
	return sysmem.DefaultLimit()
}

// sizeProduct returns the product of non-negative factors, or -1 when it
// exceeds math.MaxInt (so also an int on every platform).
func sizeProduct(factors ...int) int64 {
	p := int64(1)
	for _, f := range factors {
		if f < 0 {
			panic("datasets: negative size factor")
		}
		if f != 0 && p > math.MaxInt/int64(f) {
			return -1
		}
		p *= int64(f)
	}
	return p
}

// sizeSum returns the sum of sizes from sizeProduct, or -1 when one is -1
// or the sum exceeds math.MaxInt.
func sizeSum(terms ...int64) int64 {
	s := int64(0)
	for _, t := range terms {
		if t < 0 || s > math.MaxInt-t {
			return -1
		}
		s += t
	}
	return s
}

// checkMemory returns nil when bytes (-1: more than fits in an int, from
// sizeProduct or sizeSum) is within MemoryLimit, and otherwise an error
// wrapping ErrTooLarge that says what was asked for, how many bytes it
// would take and the limit.
func checkMemory(what string, bytes int64) error {
	limit := MemoryLimit()
	if bytes >= 0 && bytes <= limit {
		return nil
	}
	need := fmt.Sprintf("%d bytes (%s)", bytes, sysmem.Human(float64(bytes)))
	if bytes < 0 {
		need = fmt.Sprintf("more than %d bytes (the size overflows an int)", int64(math.MaxInt))
	}
	return &tooLargeError{fmt.Sprintf("%s is too large for memory: it needs %s; the limit is %d bytes (%s, %s)",
		what, need, limit, sysmem.Human(float64(limit)), limitSource())}
}

// tooLargeError is an error wrapping ErrTooLarge with its own message
// (which says "too large" itself).
type tooLargeError struct{ msg string }

func (e *tooLargeError) Error() string { return e.msg }
func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// limitSource says where MemoryLimit comes from.
func limitSource() string {
	if memoryLimitOverride.Load() > 0 {
		return "set for testing"
	}
	return sysmem.DefaultSource()
}
