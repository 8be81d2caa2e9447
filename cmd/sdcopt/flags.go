package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/internal/numtext"
)

// decimalFlags makes every integer and float flag of c and its
// subcommands read decimal text only, as the data files are read
// (numtext): pflag reads integers with Go's literal syntax (base 0), so
// --k 010 was 8, --k 0x10 16 and --k 1_0 10, and floats as Go literals,
// so --time-limit 1_0 was 10 and 0x1p3 was 8. Integers keep leading zeros
// as decimal (010 is 10); the words NaN and Inf still reach the flags'
// own range checks, which name the flag and its range.
func decimalFlags(c *cobra.Command) {
	wrap := func(f *pflag.Flag) {
		switch f.Value.Type() {
		case "int", "int32", "int64", "uint", "uint32", "uint64", "float32", "float64":
			f.Value = decimalValue{f.Value}
		}
	}
	c.Flags().VisitAll(wrap)
	c.PersistentFlags().VisitAll(wrap)
	for _, s := range c.Commands() {
		decimalFlags(s)
	}
}

// decimalValue is a numeric flag value that accepts decimal text only.
type decimalValue struct{ pflag.Value }

func (v decimalValue) Set(s string) error {
	switch v.Type() {
	case "float32", "float64":
		if _, err := numtext.ParseFloat(s); err != nil && !errors.Is(err, numtext.ErrNotFinite) {
			return fmt.Errorf("%q is not a number in decimal or scientific notation", s)
		}
		return v.Value.Set(s)
	case "uint", "uint32", "uint64":
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return fmt.Errorf("%q is out of range", s)
			}
			return fmt.Errorf("%q is not a non-negative decimal integer", s)
		}
		return v.Value.Set(strconv.FormatUint(n, 10))
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return decimalIntError(s, err)
	}
	return v.Value.Set(strconv.FormatInt(n, 10))
}

func decimalIntError(s string, err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%q is out of range", s)
	}
	return fmt.Errorf("%q is not a decimal integer", s)
}
