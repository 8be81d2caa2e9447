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

// Column roles of `sdcopt-pipeline kanon`, as in `sdcopt kanon` (package
// roles): quasi-identifiers are generalized, identifiers removed,
// sensitive and insensitive columns published unchanged after the leak
// check, columns in no role not published.

type roleFlags struct {
	identifier, sensitive, insensitive, keepRisky []string
}

func addRoleFlags(f *pflag.FlagSet, r *roleFlags) {
	f.StringSliceVar(&r.identifier, "identifier", nil, "identifying columns (names, record ids): removed from the output")
	f.StringSliceVar(&r.sensitive, "sensitive", nil, "sensitive columns, published unchanged (adult default: "+strings.Join(datasets.AdultSensitive(), ",")+")")
	f.StringSliceVar(&r.insensitive, "insensitive", nil, "insensitive columns, published unchanged (columns in no role are not published)")
	f.StringSliceVar(&r.keepRisky, "keep-risky", nil, "publish these sensitive or insensitive columns although the leak check flags them (they determine a quasi-identifier or are nearly unique)")
}

// given reports whether a role flag names a column.
func (r *roleFlags) given() bool {
	return len(r.identifier)+len(r.sensitive)+len(r.insensitive)+len(r.keepRisky) > 0
}

// publishRoles assigns the roles of q's columns (the quasi-identifiers
// are q's; sensitive defaults to defSensitive without --sensitive, leaving
// out those named in another role), runs the leak check on the columns
// published unchanged (refusing the run, exit 2, for a finding not named
// in --keep-risky) and returns the assignment.
func publishRoles(label string, q *datasets.QIData, r *roleFlags, sensitiveGiven bool, defSensitive []string) (*roles.Assignment, error) {
	qi := make([]string, len(q.QICols))
	for a, j := range q.QICols {
		qi[a] = q.Header[j]
	}
	sensitive := r.sensitive
	if !sensitiveGiven {
		sensitive = nil
		for _, c := range defSensitive {
			named := false
			for _, l := range [][]string{qi, r.identifier, r.insensitive} {
				for _, x := range l {
					named = named || strings.TrimSpace(x) == c
				}
			}
			if !named {
				sensitive = append(sensitive, c)
			}
		}
	}
	a, err := roles.New(q.Header,
		roles.List{Role: roles.QuasiIdentifier, Label: "--qi", Columns: qi},
		roles.List{Role: roles.Identifier, Label: "--identifier", Columns: r.identifier},
		roles.List{Role: roles.Sensitive, Label: "--sensitive", Columns: sensitive},
		roles.List{Role: roles.Insensitive, Label: "--insensitive", Columns: r.insensitive})
	if err == nil {
		err = a.CheckKeep("--keep-risky", r.keepRisky)
	}
	if err != nil {
		return nil, cli.BadInput("%s: %s", label, strings.TrimPrefix(err.Error(), "roles: "))
	}
	findings := roles.Check(a, len(q.Rows), func(i, j int) string { return q.Records[q.Rows[i]][j] }, nil)
	if refused := roles.Unkept(findings, r.keepRisky); len(refused) > 0 {
		return nil, cli.LeakRefusal(label, refused)
	}
	for _, f := range findings {
		fmt.Fprintf(os.Stderr, "sdcopt-pipeline: warning: publishing column %q as asked by --keep-risky, although %s\n", f.Column, f)
	}
	return a, nil
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
