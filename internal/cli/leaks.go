package cli

import (
	"fmt"
	"strings"

	"github.com/sdcopt/sdcopt/roles"
)

// LeakRefusal is the bad-input error of a run whose leak check
// (roles.Check) flagged columns the user did not name with --keep-risky:
// each refused column with its evidence, then the ways out. label names
// the data file.
func LeakRefusal(label string, refused []roles.Finding) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: refusing to publish columns that would undo the protection of the quasi-identifiers:", label)
	var cols []string
	for _, f := range refused {
		fmt.Fprintf(&b, "\n  column %q (%s): %s", f.Column, f.Kind, f)
		if len(cols) == 0 || cols[len(cols)-1] != f.Column {
			cols = append(cols, f.Column)
		}
	}
	fmt.Fprintf(&b, "\nleave such a column out of --sensitive and --insensitive (it is then not published), "+
		"make it a quasi-identifier, or publish it anyway with --keep-risky %s", strings.Join(cols, ","))
	return BadInput("%s", b.String())
}
