package datasets

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/internal/numtext"
)

// Dialect is how a CSV file writes fields and numbers: the field
// separator and the decimal mark. The zero value is the comma-separated
// file with a decimal point. Spreadsheets in most of continental Europe
// save "CSV" as Sep ';' and Decimal ',' ("1234,5;Madrid").
type Dialect struct {
	Sep     rune // field separator: ',', ';' or '\t' (0 means ',')
	Decimal rune // decimal mark of numbers: '.' or ',' (0 means '.')
}

// sep returns the field separator, ',' for the zero value.
func (d Dialect) sep() rune {
	if d.Sep == 0 {
		return ','
	}
	return d.Sep
}

// decimal returns the decimal mark, '.' for the zero value.
func (d Dialect) decimal() rune {
	if d.Decimal == 0 {
		return '.'
	}
	return d.Decimal
}

// Check reports an unsupported dialect: a separator other than ',', ';'
// and tab, a decimal mark other than '.' and ',', and a decimal comma in a
// comma-separated file (every number would be split in two fields).
func (d Dialect) Check() error {
	switch d.sep() {
	case ',', ';', '\t':
	default:
		return fmt.Errorf("datasets: unsupported field separator %q (want ',', ';' or tab)", d.Sep)
	}
	switch d.decimal() {
	case '.', ',':
	default:
		return fmt.Errorf("datasets: unsupported decimal mark %q (want '.' or ',')", d.Decimal)
	}
	if d.sep() == ',' && d.decimal() == ',' {
		return fmt.Errorf("datasets: a decimal comma needs another field separator than ',' (';' or tab)")
	}
	return nil
}

// ParseSep reads a separator as given on a command line: ",", ";", "tab"
// or a tab character.
func ParseSep(s string) (rune, error) {
	switch s {
	case ",":
		return ',', nil
	case ";":
		return ';', nil
	case "\t", "tab", `\t`:
		return '\t', nil
	}
	return 0, fmt.Errorf("field separator %q: want ',', ';' or tab", s)
}

// ParseDecimal reads a decimal mark as given on a command line: "." or ",".
func ParseDecimal(s string) (rune, error) {
	switch s {
	case ".":
		return '.', nil
	case ",":
		return ',', nil
	}
	return 0, fmt.Errorf("decimal mark %q: want '.' or ','", s)
}

// parseFloat reads a number written with the dialect's decimal mark, as
// numtext.ParseFloat reads it with a point (plain decimal or scientific
// notation). With a decimal comma a point is refused: "1.234" may be a
// thousands separator, which is never read as a decimal point.
func (d Dialect) parseFloat(s string) (float64, error) {
	if d.decimal() == ',' {
		if strings.ContainsRune(s, '.') {
			return 0, fmt.Errorf("%q: %w (the decimal mark is ',')", s, numtext.ErrSyntax)
		}
		s = strings.Replace(s, ",", ".", 1)
	}
	return numtext.ParseFloat(s)
}

// formatFloat writes v as FormatValue does, or with decimals digits after
// the decimal mark when decimals >= 0, with the dialect's decimal mark.
func (d Dialect) formatFloat(v float64, decimals int) string {
	s := FormatValue(v)
	if decimals >= 0 {
		s = FormatRounded(v, decimals)
	}
	if d.decimal() == ',' {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// decimalsOf returns the number of decimals a number written as s (with
// the point as decimal mark, in plain decimal or scientific notation)
// needs: "12" 0, "12.50" 2, "1.5e3" 0, "1e-3" 3.
func decimalsOf(s string) int {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(s[i+1:])
		if err != nil { // an exponent beyond an int: the value is 0 or not finite
			return 0
		}
		exp = e
	}
	frac := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		frac = len(mant) - i - 1
	}
	return min(maxDecimals, max(0, frac-exp))
}

// FormatRounded writes v rounded to decimals digits after the decimal
// point (0: an integer), with no "-0".
func FormatRounded(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:]
	}
	return s
}

// Rounded is the value v reads back as once written with decimals digits
// after the decimal point, as the protected files are written
// (FormatRounded; decimals < 0: full precision, v itself): the value a
// reader of the published file sees, on which its disclosure risk is
// measured.
func Rounded(v float64, decimals int) float64 {
	if decimals < 0 {
		return v
	}
	x, err := strconv.ParseFloat(FormatRounded(v, decimals), 64)
	if err != nil { // cannot happen: FormatFloat's output reads back
		return v
	}
	return x
}

// maxDecimals caps the decimals found in a source: beyond 17 significant
// digits a float64 holds nothing more.
const maxDecimals = 17
