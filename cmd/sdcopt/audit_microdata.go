package main

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/model"
)

// auditMicroFlags select microdata instead of a table: --microdata FILE
// --vars V1,V2,... [--levels FILE] [--min-level-count M] [--max-cells N]
// [--protect-collapsed].
type auditMicroFlags struct {
	file     string
	vars     string
	levels   string
	minCount int
	maxCells int
	protect  bool
}

func (m *auditMicroFlags) register(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&m.file, "microdata", "", "the confidential microdata instead of --table: CSV, one row per respondent (the table is the cross-classification of --vars, never built)")
	f.StringVar(&m.vars, "vars", "", "with --microdata: the categorical variables (header names, comma-separated)")
	f.StringVar(&m.levels, "levels", "", "with --microdata: a levels file (CSV variable,level, one row per level in order; a row of a variable not in --vars is an error); default: the labels in the data, sorted (runs of digits as numbers: 2 before 10), never in the data's order")
	f.IntVar(&m.minCount, "min-level-count", 0, "with --microdata: merge the levels taken from the data that fewer than M records hold into one level \"(other)\" (a category held by one respondent is itself a disclosure: the levels are public); 0 = keep all")
	f.IntVar(&m.maxCells, "max-cells", 0, "with --microdata: most cells of the table over the variables of one decision (0 = 4194304); a larger one is denied as undecided")
	f.BoolVar(&m.protect, "protect-collapsed", false, "with --microdata: apply the policy also to the cells of the table over the variables of the history and the request (collapsed cells), unless a true release or the request is that table (its cells are then published, not pinned): denies a combination of margins that determines a collapsed cell none of them publishes; a first request is decided as without the flag")
}

// check accepts exactly one of --table and --microdata, and refuses the
// flags of the other: the long table's reading flags tf (--sep,
// --decimal, --count) do not apply to microdata, which are read
// comma-separated, and are refused rather than ignored.
func (m *auditMicroFlags) check(table string, tf *tableFlags) error {
	switch {
	case m.file != "" && tf.sep != ",":
		return cli.BadInput("--sep %q applies to --table; --microdata is read comma-separated", tf.sep)
	case m.file != "" && tf.decimal != ".":
		return cli.BadInput("--decimal %q applies to --table; --microdata has no numbers", tf.decimal)
	case m.file != "" && tf.count != "":
		return cli.BadInput("--count %q applies to --table; --microdata has one row per respondent, no count column", tf.count)
	case table == "" && m.file == "":
		return cli.BadInput("--table FILE or --microdata FILE --vars V1,V2,... is required")
	case table != "" && m.file != "":
		return cli.BadInput("--table and --microdata exclude each other")
	case m.file == "" && (m.vars != "" || m.levels != "" || m.protect || m.maxCells != 0 || m.minCount != 0):
		return cli.BadInput("--vars, --levels, --min-level-count, --max-cells and --protect-collapsed need --microdata")
	case m.file != "" && strings.TrimSpace(m.vars) == "":
		return cli.BadInput("--microdata needs --vars V1,V2,...")
	case m.maxCells < 0:
		return cli.BadInput("--max-cells %d is negative", m.maxCells)
	case m.minCount < 0:
		return cli.BadInput("--min-level-count %d is negative", m.minCount)
	}
	return nil
}

// load reads the microdata.
func (m *auditMicroFlags) load() (*datasets.Microdata, error) {
	md, err := datasets.LoadMicrodataWith(m.file, strings.Split(m.vars, ","), m.levels, datasets.LevelOptions{MinCount: m.minCount})
	if err != nil {
		if m.minCount > 1 && strings.Contains(err.Error(), "minimum count per level") {
			return nil, cli.BadInput("--min-level-count: %v", err)
		}
		return nil, cli.BadInput("%v", err)
	}
	return md, nil
}

// summary says how the levels of md were formed and the auditor's
// options (the load line of sdcopt serve load).
func (m *auditMicroFlags) summary(md *datasets.Microdata) string {
	var b strings.Builder
	if len(md.LevelsGiven) > 0 {
		fmt.Fprintf(&b, "levels of %s from %s, the others sorted", strings.Join(md.LevelsGiven, ","), m.levels)
	} else {
		b.WriteString("levels sorted")
	}
	if md.MinLevelCount > 1 {
		fmt.Fprintf(&b, ", levels held by fewer than %d records merged into %s", md.MinLevelCount, datasets.OtherLevel)
	}
	cells := m.maxCells
	if cells == 0 {
		cells = audit.DefaultMaxCells
	}
	fmt.Fprintf(&b, ", max cells %d, protect collapsed %v", cells, m.protect)
	return b.String()
}

// options are the auditor's microdata options.
func (m *auditMicroFlags) options() audit.MicrodataOptions {
	return audit.MicrodataOptions{MaxCells: m.maxCells, ProtectCollapsed: m.protect}
}

// cellCount is the number of cells of the cross-classification of vars,
// in words when it passes 10^18.
func cellCount(vars []model.Variable) string {
	n := new(big.Int).SetInt64(1)
	for _, v := range vars {
		n.Mul(n, big.NewInt(int64(len(v.Levels))))
	}
	if n.IsInt64() && n.Int64() < 1e18 {
		return n.String()
	}
	return fmt.Sprintf("about 10^%d", len(n.String())-1)
}

// auditor loads the microdata and returns its auditor.
func (m *auditMicroFlags) auditor(p audit.Policy, opt audit.Options) (*audit.Auditor, error) {
	md, err := m.load()
	if err != nil {
		return nil, err
	}
	a, err := audit.NewMicrodata(md, p, opt, m.options())
	if err != nil {
		return nil, libraryError("", err)
	}
	return a, nil
}
