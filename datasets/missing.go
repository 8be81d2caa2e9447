package datasets

import "strings"

// MissingLabel is the category a missing categorical value becomes when
// it is kept (k-anonymity with keepMissing, categorical microdata): one
// category for every spelling of a missing value.
const MissingLabel = "?"

// IsMissing reports whether a cell marks a missing value: after trimming
// spaces, empty, "NA" (R's spelling) or "?" (the UCI files'). It is the
// one definition every reader of the package uses: ReadCSV (microdata
// that is microaggregated: refused, dropped or imputed, CSVOptions.Missing),
// ReadQI (quasi-identifiers: the record is dropped, or kept with
// keepMissing: a categorical value as the category MissingLabel, a
// numeric one as "any value", see ReadQIWith) and ReadMicrodata
// (categorical microdata of audit and serve: the category MissingLabel).
// Other spellings ("na", "N/A", "-", ".") are values like any other.
func IsMissing(cell string) bool {
	switch strings.TrimSpace(cell) {
	case "", "NA", "?":
		return true
	}
	return false
}
