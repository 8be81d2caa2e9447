//go:build cgo && lpsolve

package lpsolve

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// options is Params translated for lp_solve, checked once per Solve or
// NewSession.
type options struct {
	verbose    bool
	timeoutSec int64     // whole seconds, 0 = none
	deadline   time.Time // Params.Deadline: re-read at every solve
	relGap     float64
	absGap     float64
	feasTol    float64
	presolve   int // PRESOLVE_* bits chosen by the user (without the duals bits)
	epslevel   int // -1 = not set
	raw        []func(*lprec)
	warnings   []string
}

// named integer values accepted by the raw options, besides plain integers.
var rawNames = map[string]map[string]int{
	"pivoting": {
		// lp_solve's default rule is DEVEX with PRICE_ADAPTIVE (2 + 32).
		"firstindex": 0 + 32, "dantzig": 1 + 32, "devex": 2 + 32, "steepestedge": 3 + 32,
	},
	"bb_rule": {
		"first": 0, "gap": 1, "range": 2, "fraction": 3, "pseudocost": 4,
		"pseudononint": 5, "pseudoratio": 6,
	},
	"bb_floorfirst": {"ceiling": 0, "floor": 1, "automatic": 2},
	"simplex_type": {
		"primal_primal": 5, "dual_primal": 6, "primal_dual": 9, "dual_dual": 10,
	},
	"epslevel": {"tight": 0, "medium": 1, "loose": 2, "baggy": 3},
	"presolve": {"none": 0, "rows": 1, "cols": 2, "lindep": 4, "rows+cols": 3, "rows+cols+lindep": 7},
	"scaling":  {"none": 0, "default": 196},
	"improve":  {"none": 0, "default": 6},
}

var rawFloat = map[string]bool{"epsint": true, "epsel": true, "epsd": true, "epspivot": true}

var rawInt = map[string]bool{
	"scaling": true, "presolve": true, "pivoting": true, "improve": true, "bb_rule": true,
	"bb_depthlimit": true, "bb_floorfirst": true, "simplex_type": true, "epslevel": true,
}

// RawOptions lists the names accepted in Params.Raw.
func RawOptions() []string {
	var out []string
	for k := range rawInt {
		out = append(out, k)
	}
	for k := range rawFloat {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func parseOptions(prm *solvers.Params, session bool) (*options, error) {
	prm = prm.OrDefault()
	o := &options{
		verbose:  prm.Verbose,
		relGap:   prm.MIPRelGap,
		absGap:   prm.MIPAbsGap,
		feasTol:  prm.FeasTol,
		epslevel: -1,
	}
	if !(o.relGap > 0) {
		o.relGap = solvers.DefaultMIPRelGap
	}
	if !(o.absGap > 0) {
		o.absGap = solvers.DefaultMIPAbsGap
	}
	if prm.TimeLimit > 0 {
		o.timeoutSec = int64(math.Ceil(prm.TimeLimit.Seconds()))
		if float64(o.timeoutSec) != prm.TimeLimit.Seconds() {
			o.warnings = append(o.warnings, fmt.Sprintf("lp_solve counts the time limit in whole seconds: %v rounded up to %ds", prm.TimeLimit, o.timeoutSec))
		}
	}
	o.deadline = prm.Deadline
	if prm.Threads > 1 {
		o.warnings = append(o.warnings, fmt.Sprintf("lp_solve is single-threaded: Threads=%d ignored", prm.Threads))
	}
	names := make([]string, 0, len(prm.Raw))
	for k := range prm.Raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		val := strings.TrimSpace(prm.Raw[name])
		bad := func(why string) error {
			return solvers.Errorf(engineName, "options", solvers.ErrUnsupported, "raw option %q=%q: %s", name, prm.Raw[name], why)
		}
		switch {
		case rawFloat[name]:
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return nil, bad("want a positive number")
			}
			var f func(*lprec)
			switch name {
			case "epsint":
				f = func(l *lprec) { l.setEpsInt(v) }
			case "epsel":
				f = func(l *lprec) { l.setEpsEl(v) }
			case "epsd":
				f = func(l *lprec) { l.setEpsD(v) }
			case "epspivot":
				f = func(l *lprec) { l.setEpsPivot(v) }
			}
			o.raw = append(o.raw, f)
		case rawInt[name]:
			v, err := strconv.Atoi(val)
			if err != nil {
				nv, known := rawNames[name][strings.ToLower(val)]
				if !known {
					return nil, bad("want an integer or one of " + strings.Join(keys(rawNames[name]), ", "))
				}
				v = nv
			}
			if v < 0 && name != "bb_depthlimit" {
				return nil, bad("negative value")
			}
			var f func(*lprec)
			switch name {
			case "scaling":
				f = func(l *lprec) { l.setScaling(v) }
			case "presolve":
				if v&^7 != 0 {
					return nil, bad("only the row, column and linear-dependency presolve bits (1, 2, 4) are supported")
				}
				if v != 0 && session {
					return nil, bad("presolve removes rows and columns from the engine's model, which a session cannot allow")
				}
				o.presolve = v
				continue
			case "pivoting":
				f = func(l *lprec) { l.setPivoting(v) }
			case "improve":
				f = func(l *lprec) { l.setImprove(v) }
			case "bb_rule":
				f = func(l *lprec) { l.setBBRule(v) }
			case "bb_depthlimit":
				f = func(l *lprec) { l.setBBDepthLimit(v) }
			case "bb_floorfirst":
				f = func(l *lprec) { l.setBBFloorFirst(v) }
			case "simplex_type":
				f = func(l *lprec) { l.setSimplexType(v) }
			case "epslevel":
				o.epslevel = v
				continue
			}
			o.raw = append(o.raw, f)
		default:
			return nil, solvers.Errorf(engineName, "options", solvers.ErrUnsupported, "unknown raw option %q (known: %s)", name, strings.Join(RawOptions(), ", "))
		}
	}
	return o, nil
}

func keys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// apply sets the options that stay fixed for the life of an instance (the
// timeout and presolve bits are set before every solve).
func (o *options) apply(l *lprec) {
	l.setQuiet(o.verbose)
	l.setMIPGap(true, o.absGap)
	l.setMIPGap(false, o.relGap)
	if o.epslevel >= 0 {
		l.setEpsLevel(o.epslevel) // first: it resets every epsilon
	}
	if o.feasTol > 0 {
		l.setEpsB(o.feasTol)
	}
	for _, f := range o.raw {
		f(l)
	}
}
