package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/roles"
)

// Attribute roles and the leak check of `sdcopt kanon` and `sdcopt
// microagg` (package roles): flags, the refusal, and the report of what is
// published.

// roleFlags are the role flags beside the quasi-identifiers (--qi for
// kanon, --cols for microagg).
type roleFlags struct {
	identifier  []string
	sensitive   []string
	insensitive []string
	keepRisky   []string
}

func addRoleFlags(f interface {
	StringSliceVar(*[]string, string, []string, string)
}, r *roleFlags, sensitiveDefault string) {
	f.StringSliceVar(&r.identifier, "identifier", nil, "identifying columns (names, record ids): removed from the output")
	f.StringSliceVar(&r.sensitive, "sensitive", nil, "sensitive columns, published unchanged"+sensitiveDefault)
	f.StringSliceVar(&r.insensitive, "insensitive", nil, "insensitive columns, published unchanged (columns in no role are not published)")
	f.StringSliceVar(&r.keepRisky, "keep-risky", nil, "publish these sensitive or insensitive columns although the leak check flags them (they determine a quasi-identifier, pin its exact value for many records, or are nearly unique)")
}

// publishReport says which columns a run publishes and which it drops; it
// is part of the JSON reports of kanon and microagg.
type publishReport struct {
	Published []string      `json:"published_columns"` // in file order (the input's)
	Roles     rolesReport   `json:"roles"`
	Dropped   []string      `json:"dropped_columns"` // identifiers and unclassified columns
	KeptRisky []leakFinding `json:"kept_risky,omitempty"`
}

type rolesReport struct {
	QuasiIdentifier []string `json:"quasi_identifier"`
	Sensitive       []string `json:"sensitive"`
	Insensitive     []string `json:"insensitive"`
	Identifier      []string `json:"identifier"`
	Unclassified    []string `json:"unclassified"`
}

// leakFinding is a roles.Finding in the JSON report.
type leakFinding struct {
	Column   string  `json:"column"`
	Kind     string  `json:"kind"`
	QI       string  `json:"qi,omitempty"`
	Share    float64 `json:"share"`
	Evidence string  `json:"evidence"`
}

// assignRoles builds the roles of header from the quasi-identifiers qi
// (named by qiFlag in errors) and the role flags, with sensitive taking
// defSensitive when --sensitive was not given (those of defSensitive named
// in another role are left out). Errors are bad input.
func assignRoles(label string, header, qi []string, qiFlag string, r *roleFlags, changed func(string) bool, defSensitive []string) (*roles.Assignment, error) {
	sensitive := r.sensitive
	if !changed("sensitive") {
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
	a, err := roles.New(header,
		roles.List{Role: roles.QuasiIdentifier, Label: qiFlag, Columns: qi},
		roles.List{Role: roles.Identifier, Label: "--identifier", Columns: r.identifier},
		roles.List{Role: roles.Sensitive, Label: "--sensitive", Columns: sensitive},
		roles.List{Role: roles.Insensitive, Label: "--insensitive", Columns: r.insensitive})
	if err != nil {
		return nil, cli.BadInput("%s: %s", label, strings.TrimPrefix(err.Error(), "roles: "))
	}
	if err := a.CheckKeep("--keep-risky", r.keepRisky); err != nil {
		return nil, cli.BadInput("%s: %s", label, strings.TrimPrefix(err.Error(), "roles: "))
	}
	return a, nil
}

// checkLeaks runs the leak check on n records (cell gives record i's cell
// of column j). Findings on columns outside --keep-risky refuse the run
// (bad input, exit 2) with the evidence and the ways out; those kept are
// returned for the report, with a warning on stderr.
func checkLeaks(label string, a *roles.Assignment, n int, cell func(i, j int) string, r *roleFlags) ([]leakFinding, error) {
	findings := roles.Check(a, n, cell, nil)
	if refused := roles.Unkept(findings, r.keepRisky); len(refused) > 0 {
		return nil, cli.LeakRefusal(label, refused)
	}
	var kept []leakFinding
	for _, f := range findings {
		fmt.Fprintf(os.Stderr, "sdcopt: warning: publishing column %q as asked by --keep-risky, although %s\n", f.Column, f)
		kept = append(kept, leakFinding{Column: f.Column, Kind: f.Kind.String(), QI: f.QI, Share: f.Share, Evidence: f.String()})
	}
	return kept, nil
}

// newPublishReport describes the columns of a and, unless quiet, says on
// stderr which are not published.
func newPublishReport(a *roles.Assignment, kept []leakFinding, quiet bool) publishReport {
	names := func(r roles.Role) []string { return a.Names(a.Columns(r)) }
	p := publishReport{
		Published: a.Names(a.Published()),
		Roles: rolesReport{
			QuasiIdentifier: names(roles.QuasiIdentifier), Sensitive: names(roles.Sensitive), Insensitive: names(roles.Insensitive),
			Identifier: names(roles.Identifier), Unclassified: names(roles.Unclassified),
		},
		Dropped:   a.Names(a.Dropped()),
		KeptRisky: kept,
	}
	if !quiet {
		if ids := p.Roles.Identifier; len(ids) > 0 {
			fmt.Fprintf(os.Stderr, "sdcopt: removed (identifiers): %s\n", strings.Join(ids, ", "))
		}
		if u := p.Roles.Unclassified; len(u) > 0 {
			fmt.Fprintf(os.Stderr, "sdcopt: not published (in no role; name them with --sensitive or --insensitive to publish them unchanged): %s\n", strings.Join(u, ", "))
		}
	}
	return p
}

// writePublishText writes the roles part of a text report; pad aligns
// the values with the report's other lines.
func writePublishText(w io.Writer, p *publishReport, pad int) {
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	line := func(key, val string) { fmt.Fprintf(w, "%-*s%s\n", pad, key, val) }
	line("published", list(p.Published))
	line("roles", fmt.Sprintf("quasi-identifiers %s; sensitive %s; insensitive %s", list(p.Roles.QuasiIdentifier), list(p.Roles.Sensitive), list(p.Roles.Insensitive)))
	line("dropped", fmt.Sprintf("identifiers %s; in no role %s", list(p.Roles.Identifier), list(p.Roles.Unclassified)))
	for _, f := range p.KeptRisky {
		line("kept risky", f.Evidence)
	}
}
