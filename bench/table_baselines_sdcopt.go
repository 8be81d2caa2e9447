package bench

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/suppress"
)

// SdcoptOptimalTool is the tool name of sdcopt's own optimal secondary
// suppression (package tabular/suppress) in TableBaselines: it runs in this
// process, on the table and primary cells of our rule (the cells' costs are
// their values, empty cells are never suppressed), under the same time
// limit as the R tools, and needs no R.
const SdcoptOptimalTool = "sdcopt:optimal"

// isRTool reports whether the tool runs through the R script.
func isRTool(tool string) bool { return tool != SdcoptOptimalTool }

// runOptimal protects ours (the table with our primary cells and their
// levels; it is not changed) with suppress.Solve under limit (0: none),
// fills row with its time, cost, lower bound and gap, and audits the
// pattern with auditTable like every other tool's. A failure of Solve
// is the row's error, not the benchmark's.
func runOptimal(row *TableBaselineRow, ours *tabular.Table, limit time.Duration, solver string) {
	row.Version, row.Check = "sdcopt suppress.Solve", "intervals audit in Solve"
	// Outsiders only, like the R tools' patterns it is compared with.
	s := &suppress.Settings{Params: &solvers.Params{TimeLimit: limit}, Empty: suppress.EmptyNever, Insiders: suppress.InsidersOff}
	res, err := suppress.Solve(ours, s)
	if res != nil {
		sec := res.Seconds
		row.ToolSeconds, row.ProtectSeconds = &sec, &sec
		cost, bound, gap := res.Cost, res.LowerBound, res.Gap
		row.Cost, row.LowerBound, row.Gap, row.Stop = &cost, &bound, &gap, res.Stop.String()
		mip := res.MIPEngine
		if mip == "" {
			mip = "none solved"
		}
		row.Version = fmt.Sprintf("sdcopt suppress.Solve (MIP %s, LP %s)", mip, res.LPEngine)
		if res.Audit != nil {
			// the primary cells Solve's audit finds under-protected or
			// disclosed, each once
			failed := map[int]bool{}
			for _, f := range res.Audit.UnderProtected {
				failed[f.Cell] = true
			}
			for _, f := range res.Audit.Disclosed {
				if f.Status == tabular.Primary {
					failed[f.Cell] = true
				}
			}
			n := len(failed)
			row.CheckFailures = &n
		}
	}
	switch {
	case err != nil && (res == nil || !errors.Is(err, suppress.ErrUnsafe)):
		row.Status, row.Message = "error", err.Error()
		return
	case err != nil:
		// ErrUnsafe: the pattern comes with the error; our audit says where.
		row.Message = err.Error()
	}
	row.Status = "ok"
	if res.Stop == suppress.StopTimeLimit {
		row.Message = strings.TrimPrefix(row.Message+"; ", "; ") + fmt.Sprintf("stopped by the time limit (%v) with a safe pattern", limit)
	}
	pat := *ours
	pat.Cells = make([]tabular.Cell, len(ours.Cells))
	copy(pat.Cells, ours.Cells)
	res.Apply(&pat)
	if err := auditTable(row, ours, &pat, solver); err != nil {
		row.Status, row.Message = "error", err.Error()
	}
}
