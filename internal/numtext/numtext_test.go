package numtext

import (
	"errors"
	"math"
	"strconv"
	"testing"
)

func TestParseFloat(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		s    string
		want float64
		err  error // nil, ErrSyntax or ErrNotFinite
	}{
		{"12", 12, nil},
		{"-0.5", -0.5, nil},
		{"+3", 3, nil},
		{".5", 0.5, nil},
		{"5.", 5, nil},
		{"1.2e3", 1200, nil},
		{"1E-7", 1e-7, nil},
		{"1e+2", 100, nil},
		{"007", 7, nil},
		{"1e-400", 0, nil}, // underflow: the nearest representable value
		{"1e155", 1e155, nil},
		// Go literal syntax that strconv.ParseFloat reads (as 12, 10, 8,
		// 1000, 16): not numbers in a data file.
		{"1_2", 0, ErrSyntax},
		{"1_0", 0, ErrSyntax},
		{"0x1p3", 0, ErrSyntax},
		{"0x10", 0, ErrSyntax},
		{"1_000.5", 0, ErrSyntax},
		{"0b1", 0, ErrSyntax},
		{"0o7", 0, ErrSyntax},
		{"", 0, ErrSyntax},
		{" 1", 0, ErrSyntax},
		{"1 ", 0, ErrSyntax},
		{".", 0, ErrSyntax},
		{"-", 0, ErrSyntax},
		{"e5", 0, ErrSyntax},
		{"1e", 0, ErrSyntax},
		{"1e+", 0, ErrSyntax},
		{"1.2.3", 0, ErrSyntax},
		{"--1", 0, ErrSyntax},
		{"1,5", 0, ErrSyntax},
		{"١٢", 0, ErrSyntax}, // Arabic-Indic digits
		{"NaN", math.NaN(), ErrNotFinite},
		{"-inf", -inf, ErrNotFinite},
		{"+Infinity", inf, ErrNotFinite},
		{"1e400", inf, ErrNotFinite},
		{"-1e400", -inf, ErrNotFinite},
	}
	for _, c := range cases {
		got, err := ParseFloat(c.s)
		switch {
		case c.err == nil && err != nil:
			t.Errorf("ParseFloat(%q): %v", c.s, err)
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("ParseFloat(%q) = %v, %v; want an error wrapping %v", c.s, got, err, c.err)
		case math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(c.want) && got != c.want:
			t.Errorf("ParseFloat(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	if _, err := ParseFloat("1e400"); !errors.Is(err, strconv.ErrRange) {
		t.Errorf("1e400: %v does not wrap strconv.ErrRange", err)
	}
	if _, err := ParseFloat("NaN"); errors.Is(err, strconv.ErrRange) {
		t.Errorf("NaN: %v wraps strconv.ErrRange", err)
	}
}

// FuzzParseFloat: whatever ParseFloat accepts, strconv reads to the same
// value, and the text has no character outside the decimal notation.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"12", "1_2", "0x1p3", "1e400", "-.5e-3", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseFloat(s)
		if err != nil {
			return
		}
		w, serr := strconv.ParseFloat(s, 64)
		if serr != nil && !errors.Is(serr, strconv.ErrRange) || v != w {
			t.Fatalf("%q: %v, strconv %v (%v)", s, v, w, serr)
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(isDigit(c) || c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E') {
				t.Fatalf("%q accepted with %q", s, c)
			}
		}
	})
}
