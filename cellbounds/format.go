package cellbounds

import (
	"math"
	"strconv"
)

// FormatBound writes a bound as the reports print it: an integer as an
// integer, anything else with 2 decimals, +Inf as "inf" and NaN (not
// computed) as "?".
func FormatBound(v float64) string {
	switch {
	case math.IsNaN(v):
		return "?"
	case math.IsInf(v, 1):
		return "inf"
	case v == math.Round(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// FormatInterval writes [lo,up] with FormatBound.
func FormatInterval(lo, up float64) string {
	return "[" + FormatBound(lo) + "," + FormatBound(up) + "]"
}
