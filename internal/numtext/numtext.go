// Package numtext reads the numbers of data files (CSV cells, counts,
// bounds, policy parameters) as people write them: plain decimal or
// scientific notation, nothing else.
//
// strconv.ParseFloat reads Go's literal syntax, in which "1_2" is 12,
// "0x1p3" is 8 and "Inf" is infinity. In a data file "1_2" is a code or a
// typing error, never twelve, so every reader of numbers in sdcopt goes
// through ParseFloat here, which accepts only
//
//	[+-] digits [. digits] [(e|E) [+-] digits]   (or [+-] . digits ...)
//
// and then lets strconv compute the value (correctly rounded).
package numtext

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrSyntax is wrapped by the errors of text that is not a number in
// decimal or scientific notation.
var ErrSyntax = errors.New("not a number in decimal or scientific notation")

// ErrNotFinite is wrapped by the errors of the words NaN and Inf (in any
// case, with a sign, "infinity" too) and of numbers too large for a
// float64 (such as 1e400, which also wrap strconv.ErrRange).
var ErrNotFinite = errors.New("not a finite number")

// ParseFloat reads s, which must be a number in plain decimal or
// scientific notation with no surrounding space: an optional sign, digits
// with at most one decimal point (at least one digit), then optionally e
// or E, an optional sign and digits ("12", "-0.5", ".5", "5.", "1.2e3",
// "1E-7"). Digit separators ("1_000"), hexadecimal ("0x1p3"), octal or
// binary prefixes, and spaces are refused with an error wrapping
// ErrSyntax; the words NaN and Inf with ErrNotFinite. A number too large
// for a float64 returns ±Inf and an error wrapping both ErrNotFinite and
// strconv.ErrRange; one too small to represent returns 0 (or the nearest
// subnormal) without error, as strconv does.
func ParseFloat(s string) (float64, error) {
	if !decimal(s) {
		if v, ok := nonFiniteWord(s); ok {
			return v, fmt.Errorf("%q: %w", s, ErrNotFinite)
		}
		return 0, fmt.Errorf("%q: %w", s, ErrSyntax)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
			return v, fmt.Errorf("%q: %w (%w)", s, ErrNotFinite, strconv.ErrRange)
		}
		if errors.Is(err, strconv.ErrRange) {
			return v, nil // underflow: the nearest representable value
		}
		return 0, fmt.Errorf("%q: %w", s, ErrSyntax) // not reached: decimal(s) holds
	}
	return v, nil
}

// decimal reports whether s is written in plain decimal or scientific
// notation (see ParseFloat).
func decimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// nonFiniteWord returns the value of NaN, Inf or Infinity (any case,
// optional sign).
func nonFiniteWord(s string) (float64, bool) {
	sign := 1
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case strings.EqualFold(s, "nan"):
		return math.NaN(), true
	case strings.EqualFold(s, "inf"), strings.EqualFold(s, "infinity"):
		return math.Inf(sign), true
	}
	return 0, false
}
