package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/roles"
)

// Column roles of `sdcopt-pipeline kanon` and `microagg`, as in `sdcopt
// kanon` and `sdcopt microagg` (package roles): quasi-identifiers (kanon
// --qi, microagg --cols) are protected, identifiers removed, sensitive and
// insensitive columns published unchanged after the leak check, columns in
// no role not published.

type roleFlags struct {
	identifier, sensitive, insensitive, keepRisky []string
}

// addRoleFlags adds the role flags; sensitiveDefault ends the help of
// --sensitive (e.g. " (adult default: income)").
func addRoleFlags(f *pflag.FlagSet, r *roleFlags, sensitiveDefault string) {
	f.StringSliceVar(&r.identifier, "identifier", nil, "identifying columns (names, record ids): removed from the output")
	f.StringSliceVar(&r.sensitive, "sensitive", nil, "sensitive columns, published unchanged"+sensitiveDefault)
	f.StringSliceVar(&r.insensitive, "insensitive", nil, "insensitive columns, published unchanged (columns in no role are not published)")
	f.StringSliceVar(&r.keepRisky, "keep-risky", nil, "publish these sensitive or insensitive columns although the leak check flags them (they determine a quasi-identifier, pin its exact value for many records, or are nearly unique)")
}

// given reports whether a role flag names a column.
func (r *roleFlags) given() bool {
	return len(r.identifier)+len(r.sensitive)+len(r.insensitive)+len(r.keepRisky) > 0
}

// roleData is what publishRoles reads of the data: the header, the
// quasi-identifiers (by name, and the flag that names them in errors) and
// the n records' cells (cell(i, j): record i, column j of header).
type roleData struct {
	header, qi []string
	qiFlag     string
	n          int
	cell       func(i, j int) string
}

// qiRoleData is the roleData of kanon's quasi-identifier data.
func qiRoleData(q *datasets.QIData) roleData {
	qi := make([]string, len(q.QICols))
	for a, j := range q.QICols {
		qi[a] = q.Header[j]
	}
	return roleData{header: q.Header, qi: qi, qiFlag: "--qi", n: len(q.Rows), cell: func(i, j int) string { return q.Records[q.Rows[i]][j] }}
}

// publishRoles assigns the roles of d's columns (the quasi-identifiers
// are d's; sensitive defaults to defSensitive without --sensitive, leaving
// out those named in another role), runs the leak check on the columns
// published unchanged (refusing the run, exit 2, for a finding not named
// in --keep-risky) and returns the assignment and the findings kept by
// --keep-risky (each also a warning on stderr).
func publishRoles(label string, d roleData, r *roleFlags, sensitiveGiven bool, defSensitive []string) (*roles.Assignment, []roles.Finding, error) {
	sensitive := r.sensitive
	if !sensitiveGiven {
		sensitive = nil
		for _, c := range defSensitive {
			named := false
			for _, l := range [][]string{d.qi, r.identifier, r.insensitive} {
				for _, x := range l {
					named = named || strings.TrimSpace(x) == c
				}
			}
			if !named {
				sensitive = append(sensitive, c)
			}
		}
	}
	a, err := roles.New(d.header,
		roles.List{Role: roles.QuasiIdentifier, Label: d.qiFlag, Columns: d.qi},
		roles.List{Role: roles.Identifier, Label: "--identifier", Columns: r.identifier},
		roles.List{Role: roles.Sensitive, Label: "--sensitive", Columns: sensitive},
		roles.List{Role: roles.Insensitive, Label: "--insensitive", Columns: r.insensitive})
	if err == nil {
		err = a.CheckKeep("--keep-risky", r.keepRisky)
	}
	if err != nil {
		return nil, nil, cli.BadInput("%s: %s", label, strings.TrimPrefix(err.Error(), "roles: "))
	}
	findings := roles.Check(a, d.n, d.cell, nil)
	if refused := roles.Unkept(findings, r.keepRisky); len(refused) > 0 {
		return nil, nil, cli.LeakRefusal(label, refused)
	}
	for _, f := range findings {
		fmt.Fprintf(os.Stderr, "sdcopt-pipeline: warning: publishing column %q as asked by --keep-risky, although %s\n", f.Column, f)
	}
	return a, findings, nil
}

// writeRoles reports the published and dropped columns.
func writeRoles(w io.Writer, a *roles.Assignment) {
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	fmt.Fprintf(w, "published %s\n", list(a.Names(a.Published())))
	fmt.Fprintf(w, "dropped: identifiers %s; in no role %s\n", list(a.Names(a.Columns(roles.Identifier))), list(a.Names(a.Columns(roles.Unclassified))))
}
