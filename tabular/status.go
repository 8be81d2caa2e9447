package tabular

import (
	"fmt"
	"strings"
)

// Status is what happens to a cell on publication.
type Status int

// The statuses of a cell. The zero value is Safe.
const (
	Safe        Status = iota // published as is
	Primary                   // sensitive by a primary rule (Cell.Rule says which): suppressed
	Secondary                 // suppressed to protect primary cells
	MustPublish               // must not be suppressed (a protected cell in τ-ARGUS)
	Empty                     // no contributors: structurally zero, known to be 0
	numStatus
)

var statusNames = [numStatus]string{"safe", "primary", "secondary", "must_publish", "empty"}

// String returns the lower_snake_case name used in files and JSON.
func (s Status) String() string {
	if s < 0 || s >= numStatus {
		return fmt.Sprintf("status(%d)", int(s))
	}
	return statusNames[s]
}

// Suppressed reports whether the cell's value is withheld (Primary or
// Secondary).
func (s Status) Suppressed() bool { return s == Primary || s == Secondary }

// ParseStatus reads a status, case-insensitively, in any of the
// spellings of the tools that write them:
//
//	safe          "safe", "s"
//	primary       "primary", "u" (unsafe: τ-ARGUS and sdcTable), "unsafe"
//	secondary     "secondary", "x" (sdcTable), "m" (τ-ARGUS)
//	must_publish  "must_publish", "z" (sdcTable), "p" (τ-ARGUS: protected), "protected"
//	empty         "empty", "e"
func ParseStatus(s string) (Status, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "safe", "s":
		return Safe, nil
	case "primary", "u", "unsafe":
		return Primary, nil
	case "secondary", "x", "m":
		return Secondary, nil
	case "must_publish", "z", "p", "protected":
		return MustPublish, nil
	case "empty", "e":
		return Empty, nil
	}
	return 0, fmt.Errorf("tabular: unknown status %q (want safe/s, primary/u, secondary/x/m, must_publish/z/p or empty/e)", s)
}
