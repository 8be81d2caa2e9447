package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/primary"
)

// newTableCmd is `sdcopt table`, the commands on published tables
// (package tabular): primary rules and the audit of a suppressed table.
func newTableCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "table",
		Short: "Tables for publication: primary rules and the audit of a suppressed table",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return cli.BadInput("%s needs a subcommand (primary, audit, protect)", c.CommandPath())
		},
	}
	c.AddCommand(newTablePrimaryCmd(), newTableAuditCmd(), newTableProtectCmd())
	return c
}

// tablePrimarySettings are the flags of `sdcopt table primary`.
type tablePrimarySettings struct {
	data, table, dims      string
	response, respondent   string
	holding, weight, rules string
	request                string
	sep                    string
	topN                   int
	out, format, jj        string
}

func newTablePrimaryCmd() *cobra.Command {
	var s tablePrimarySettings
	c := &cobra.Command{
		Use:   "primary",
		Short: "Apply sensitivity rules to a table: mark the primary cells and their protection levels",
		Long: "sdcopt table primary builds a table from microdata (--data) or reads a table file\n" +
			"(--table), applies the sensitivity rules (--rules freq:3,p:15,nk:1:85,pq:15:50,\n" +
			"zero:protect, safety:10%, holding:off) to every cell, and writes the table file with\n" +
			"statuses, rules and protection levels to --out. The summary (cells, primary cells\n" +
			"by rule, empty cells) goes to stdout as text, json or csv.\n\n" +
			"--dims lists the spanning variables: name (flat: its codes under Total),\n" +
			"name:FILE.hrc (a τ-ARGUS hierarchy), name:FILE (a parent,child CSV file) or\n" +
			"name:prefix=1,3 (a code-prefix hierarchy: the first 1, then 3 characters).\n" +
			"Without --response the table counts records (a frequency table: freq, zero and\n" +
			"safety apply); a table file keeps no contributions, so only those apply too.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runTablePrimary(c.OutOrStdout(), &s)
		},
	}
	f := c.Flags()
	f.StringVar(&s.data, "data", "", "microdata CSV file to tabulate")
	f.StringVar(&s.table, "table", "", "table file to start from instead of --data (codes, value, freq[, status, cost, ...])")
	f.StringVar(&s.dims, "dims", "", "spanning variables, e.g. region:region.hrc,sector or region:prefix=1,3")
	f.StringVar(&s.response, "response", "", "numeric column summed in a magnitude table (default: a frequency table)")
	f.StringVar(&s.respondent, "respondent", "", "column identifying respondents (a respondent's records are summed); default: one record, one respondent")
	f.StringVar(&s.holding, "holding", "", "column of each respondent's holding (the rules are applied to holdings too)")
	f.StringVar(&s.weight, "weight", "", "column of sampling weights (concentration rules are refused on weighted tables)")
	f.StringVar(&s.request, "request", "", "column saying whether the respondent asked for protection (1/0, yes/no; empty: no): a cell is primary by \"request\" when one of its 2 largest contributors asked")
	f.IntVar(&s.topN, "top", tabular.DefaultTopN, "largest contributions kept per cell (nk:n needs n)")
	f.StringVar(&s.rules, "rules", "", "sensitivity rules, e.g. freq:3,p:15 (required)")
	f.StringVar(&s.sep, "sep", ",", "field separator of the input files: , or ; or tab")
	f.StringVar(&s.out, "out", "", "write the table file (statuses, rules, levels) to this file, atomically; it holds the confidential values (created 0600)")
	f.StringVar(&s.jj, "jj", "", "also write the cell suppression problem in the JJ format (τ-ARGUS, sdcTable) to this file (created 0600)")
	f.StringVar(&s.format, "format", "text", "summary format: text|json|csv")
	return c
}

// dimFlag is one parsed item of --dims.
type dimFlag struct {
	name, file string
	prefix     []int
}

// parseDims reads --dims: items separated by commas; an item of digits
// only continues the prefix lengths of the item before it
// ("region:prefix=1,3,sector").
func parseDims(spec string) ([]dimFlag, error) {
	var out []dimFlag
	var prefix []string // the lengths of the last item when it is a prefix
	finish := func() error {
		if prefix == nil {
			return nil
		}
		d := &out[len(out)-1]
		var err error
		if d.prefix, err = tabular.ParseLengths(strings.Join(prefix, ",")); err != nil {
			return cli.BadInput("--dims: %s: %v", d.name, err)
		}
		prefix = nil
		return nil
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if prefix != nil && item != "" && strings.Trim(item, "0123456789") == "" {
			prefix = append(prefix, item)
			continue
		}
		if err := finish(); err != nil {
			return nil, err
		}
		name, rest, _ := strings.Cut(item, ":")
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, cli.BadInput("--dims: empty variable name in %q", spec)
		}
		for _, d := range out {
			if d.name == name {
				return nil, cli.BadInput("--dims: variable %q twice", name)
			}
		}
		d := dimFlag{name: name}
		if p, ok := strings.CutPrefix(strings.TrimSpace(rest), "prefix="); ok {
			prefix = []string{p}
		} else {
			d.file = strings.TrimSpace(rest)
		}
		out = append(out, d)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out, nil
}

// loadHierarchy reads a --dims hierarchy file: .hrc is τ-ARGUS's format,
// anything else a parent,child CSV file.
func loadHierarchy(path string, sep rune) (*tabular.Hierarchy, error) {
	if strings.HasSuffix(strings.ToLower(path), ".hrc") {
		return tabular.LoadHRC(path, nil)
	}
	return tabular.LoadParentChild(path, &tabular.PCSettings{Sep: sep})
}

// tablePrimaryReport is the summary of `sdcopt table primary` (JSON).
type tablePrimaryReport struct {
	Method      string         `json:"method"` // "primary"
	Data        string         `json:"data,omitempty"`
	Table       string         `json:"table,omitempty"`
	Dims        []string       `json:"dims"`
	Response    string         `json:"response,omitempty"`
	Holding     string         `json:"holding,omitempty"`
	Weight      string         `json:"weight,omitempty"`
	Request     string         `json:"request,omitempty"`
	Rules       string         `json:"rules"` // the rule set, normalized (RuleSet.Spec)
	Out         string         `json:"out,omitempty"`
	JJ          string         `json:"jj,omitempty"`
	Cells       int            `json:"cells"`
	Empty       int            `json:"empty"`
	Primary     int            `json:"primary"`
	ByRule      map[string]int `json:"primary_by_rule"`
	MustPublish []string       `json:"must_publish_sensitive"` // must_publish cells on which a rule fired
	Seconds     float64        `json:"seconds"`
}

func runTablePrimary(w io.Writer, s *tablePrimarySettings) error {
	start := time.Now()
	if err := cli.CheckFormat(s.format, "text", "json", "csv"); err != nil {
		return err
	}
	switch {
	case s.data == "" && s.table == "":
		return cli.BadInput("give --data MICRODATA.csv or --table FILE")
	case s.data != "" && s.table != "":
		return cli.BadInput("give either --data or --table, not both")
	case s.dims == "":
		return cli.BadInput("--dims is required (e.g. --dims region:region.hrc,sector)")
	case s.rules == "":
		return cli.BadInput("--rules is required (e.g. --rules freq:3,p:15)")
	}
	if s.table != "" && (s.response != "" || s.respondent != "" || s.holding != "" || s.weight != "" || s.request != "") {
		return cli.BadInput("--response, --respondent, --holding, --weight and --request tabulate --data; a --table file is already a table")
	}
	if err := cli.IntRange("--top", s.topN, 1, 1000); err != nil {
		return err
	}
	sep, err := datasets.ParseSep(s.sep)
	if err != nil {
		return cli.BadInput("--sep: %v", err)
	}
	rs, err := primary.ParseRuleSet(s.rules)
	if err != nil {
		return cli.BadInput("--rules: %v", strings.TrimPrefix(err.Error(), "primary: "))
	}
	dims, err := parseDims(s.dims)
	if err != nil {
		return err
	}
	var files cli.Files
	files.Input("--data", s.data)
	files.Input("--table", s.table)
	for _, d := range dims {
		if d.file != "" {
			files.Input("--dims", d.file)
		}
	}
	files.Output("--out", s.out)
	files.Output("--jj", s.jj)
	if err := files.Check(); err != nil {
		return err
	}
	var tab *tabular.Table
	if s.data != "" {
		specs := make([]tabular.DimSpec, len(dims))
		for i, d := range dims {
			specs[i] = tabular.DimSpec{Column: d.name, Prefix: d.prefix}
			if d.file != "" {
				if specs[i].H, err = loadHierarchy(d.file, sep); err != nil {
					return libraryError("--dims", err)
				}
			}
		}
		tab, err = tabular.LoadMicrodata(s.data, specs, &tabular.BuildSettings{Response: s.response, Respondent: s.respondent,
			Holding: s.holding, Weight: s.weight, Request: s.request, TopN: s.topN, Sep: sep})
		if err != nil {
			return libraryError("", err)
		}
	} else if tab, err = loadTableFile(s.table, dims, sep); err != nil {
		return err
	}
	sum, err := tabular.ApplyPrimary(tab, rs)
	if err != nil {
		if s.table != "" && errors.Is(err, tabular.ErrPrimary) && !tab.Magnitude {
			return cli.BadInput("--rules: %v (a table file keeps no contributions: give --data and --response for nk, p and pq)", strings.TrimPrefix(err.Error(), "tabular: "))
		}
		return cli.BadInput("--rules: %v", strings.TrimPrefix(err.Error(), "tabular: "))
	}
	rep := &tablePrimaryReport{Method: "primary", Data: s.data, Table: s.table, Response: s.response, Holding: s.holding,
		Weight: s.weight, Request: s.request, Rules: rs.Spec(), Out: s.out, JJ: s.jj, Cells: sum.Cells, Empty: sum.Empty, Primary: sum.Primary,
		ByRule: sum.ByRule, MustPublish: []string{}}
	for _, d := range tab.Dims {
		rep.Dims = append(rep.Dims, d.Name)
	}
	for _, i := range sum.MustPublish {
		rep.MustPublish = append(rep.MustPublish, tab.CellName(i))
	}
	var outs cli.Outputs
	defer outs.Abort()
	if s.out != "" {
		if err := outs.WritePrivate(s.out, func(w io.Writer) error { return tabular.WriteTableFile(w, tab) }); err != nil {
			return cli.BadInput("--out: %v", err)
		}
	}
	if s.jj != "" {
		if err := outs.WritePrivate(s.jj, func(w io.Writer) error { return tabular.WriteJJ(w, tab.Linear()) }); err != nil {
			return cli.BadInput("--jj: %v", err)
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return emit(w, "", func(w io.Writer) error {
		if err := outs.Commit(); err != nil {
			return cli.BadInput("--out: %v", err)
		}
		return rep.write(w, s.format)
	})
}

// ruleNames returns the rules of a report in order of name.
func (r *tablePrimaryReport) ruleNames() []string {
	names := make([]string, 0, len(r.ByRule))
	for n := range r.ByRule {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (r *tablePrimaryReport) write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "csv":
		// One row per count: what, rule, cells.
		cw := csv.NewWriter(w)
		cw.Write([]string{"count", "rule", "cells"})
		cw.Write([]string{"cells", "", strconv.Itoa(r.Cells)})
		cw.Write([]string{"empty", "", strconv.Itoa(r.Empty)})
		cw.Write([]string{"primary", "", strconv.Itoa(r.Primary)})
		for _, n := range r.ruleNames() {
			cw.Write([]string{"primary_by_rule", n, strconv.Itoa(r.ByRule[n])})
		}
		cw.Write([]string{"must_publish_sensitive", "", strconv.Itoa(len(r.MustPublish))})
		cw.Flush()
		return cw.Error()
	}
	src := r.Data
	if src == "" {
		src = r.Table
	}
	fmt.Fprintf(w, "table     %s over %s\n", src, strings.Join(r.Dims, " × "))
	fmt.Fprintf(w, "rules     %s\n", r.Rules)
	fmt.Fprintf(w, "cells     %d (%d empty)\n", r.Cells, r.Empty)
	fmt.Fprintf(w, "primary   %d\n", r.Primary)
	for _, n := range r.ruleNames() {
		fmt.Fprintf(w, "  %-20s %d\n", n, r.ByRule[n])
	}
	for _, c := range r.MustPublish {
		fmt.Fprintf(w, "warning   must_publish cell (%s) is sensitive; it stays published\n", c)
	}
	if r.Out != "" {
		fmt.Fprintf(w, "written   %s\n", r.Out)
	}
	fmt.Fprintf(w, "seconds   %.3f\n", r.Seconds)
	return nil
}
