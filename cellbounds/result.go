package cellbounds

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// The result of `sdcopt bounds --format json` makes claims beyond the
// bounds: each cell's labels and count, the attained values and gaps, the
// counts of sharp bounds, the margins. VerifyResult checks every one of
// them against the margins, the certificates and (when given) the table,
// or lists it in Verification.NotChecked with the reason; a field it does
// not know is refused.

// ErrResult is wrapped when a result file cannot be read as the JSON of
// sdcopt bounds, or is the result of another table (bad input: nothing is
// checked).
var ErrResult = errors.New("cellbounds: bad bounds result")

// ResultFile is a result of `sdcopt bounds --format json` as read by
// ReadResultFile: every field kept, so that none goes unnoticed.
type ResultFile struct {
	Top   map[string]json.RawMessage
	Cells []map[string]json.RawMessage
}

// ReadResultFile reads the JSON result of sdcopt bounds.
func ReadResultFile(r io.Reader) (*ResultFile, error) {
	var doc map[string]json.RawMessage
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: not the JSON of sdcopt bounds: %v", ErrResult, err)
	}
	rf := &ResultFile{Top: doc}
	raw, ok := doc["cells"]
	if !ok {
		return nil, fmt.Errorf("%w: no field cells", ErrResult)
	}
	if err := json.Unmarshal(raw, &rf.Cells); err != nil {
		return nil, fmt.Errorf("%w: cells: %v", ErrResult, err)
	}
	delete(rf.Top, "cells")
	return rf, nil
}

// FieldNote is a field of the result that Verify does not check, and why.
type FieldNote struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// Fields of the result that are not checked, with the reasons.
var resultNotChecked = []FieldNote{
	{"method", "the method asked for: a name, no claim about the table"},
	{"methods_used", "the methods that computed the bounds: names; the bounds themselves are checked"},
	{"solver", "the engines used: names; the bounds are checked without trusting them"},
	{"seconds", "the run's time: not reproducible"},
	{"stopped", "why the run stopped: its bounds are checked either way"},
	{"note", "a sentence for the reader; the counts it gives are those of the checked fields certified.*, sharp_cells"},
	{"table", "the path of the input: the table given to verify is what counts"},
	{"margin_files", "the paths of the input: the margins given to verify are what count"},
	{"compare", "the compared methods' runs: they have no certificates"},
	{"certified.*", "run statistics (LP solves, iterations, seconds, witnesses found per search): not reproducible; sharp, unattained, witnesses, dual_proven, trivial_proven and ip_proven are checked"},
	{"gaps.moved, gaps.moves_stopped, gaps.searched, gaps.search_tables, gaps.search_rounds, gaps.search_stopped", "how the attained values were found: the attained values themselves are checked"},
	{"cells[].method", "the method that computed the cell's bounds: a name; the bounds are checked"},
	{"cells[].<method>_lower, cells[].<method>_upper, cells[].fractional, cells[].differs", "the compared methods' bounds and flags: no certificates"},
}

// certifiedChecked are the fields of "certified" that VerifyResult checks.
var certifiedChecked = []string{"sharp", "unattained", "witnesses", "dual_proven", "trivial_proven", "ip_proven"}

// VerifyResult verifies a result of sdcopt bounds against the margins ms,
// the certificates and, when table is not nil, the table's counts: the
// bounds as Verify does; each cell's labels (they must be those of its
// position: a cell's labels determine its index), count (the table's;
// without a table, the counts given must lie within the bounds and, when
// every cell has one, reproduce the margins), attained values (each
// attained by a witness of the certificates) and gap; the gap summary,
// the counts of sharp bounds and cells (BoundCertificate.Sharp, over the
// bounds that verify), the certified statistics of the evidence, the
// variables and the margins. The fields it cannot check are listed in
// NotChecked; an unknown field is refused. Claims refused are reported in
// Refused (fields of the whole result) and as invalid bounds with their
// reasons (fields of a cell). The error wraps ErrCertificate or ErrResult
// when nothing can be checked.
func VerifyResult(ms *model.MarginSet, table []int64, rf *ResultFile, certs *Certificates) (*Verification, error) {
	dims := model.Dims(ms.Vars)
	n := model.NumCells(dims)
	if len(rf.Cells) != n {
		return nil, fmt.Errorf("%w: %d cells, the table has %d", ErrResult, len(rf.Cells), n)
	}
	lower, upper, counts := make([]float64, n), make([]float64, n), make([]int64, n)
	type attained struct {
		lo, hi, gap *int64
		has         bool // the fields are present
	}
	att := make([]attained, n)
	for j, c := range rf.Cells {
		lower[j], upper[j], counts[j] = math.NaN(), math.NaN(), -1
		var err error
		get := func(key string, v any) {
			if raw, ok := c[key]; ok && err == nil && !bytes.Equal(raw, []byte("null")) {
				if e := json.Unmarshal(raw, v); e != nil {
					err = fmt.Errorf("%w: cell %d: %s: %v", ErrResult, j, key, e)
				}
			}
		}
		var lo, up *float64
		var cnt *int64
		get("lower", &lo)
		get("upper", &up)
		get("count", &cnt)
		get("attained_lower", &att[j].lo)
		get("attained_upper", &att[j].hi)
		get("gap", &att[j].gap)
		if err != nil {
			return nil, err
		}
		_, att[j].has = c["gap"]
		if lo != nil {
			lower[j] = *lo
		}
		if up != nil {
			upper[j] = *up
		}
		if cnt != nil {
			if *cnt < 0 {
				return nil, fmt.Errorf("%w: cell %d has the negative count %d", ErrResult, j, *cnt)
			}
			counts[j] = *cnt
			if table != nil && *cnt != table[j] {
				return nil, fmt.Errorf("%w: cell %d (%s) has the count %d, the table has %d: bounds of another table",
					ErrResult, j, model.CellLabel(ms.Vars, nil, j), *cnt, table[j])
			}
		}
	}
	v, ck, err := verify(ms, lower, upper, certs)
	if err != nil {
		return nil, err
	}
	v.CheckCounts(counts, lower, upper)
	// The sharp bounds are those whose evidence verifies; what the other
	// fields of a cell claim does not change them.
	v.countSharp(certs)
	v.NotChecked = slices.Clone(resultNotChecked)
	refuse := func(format string, args ...any) { v.Refused = append(v.Refused, fmt.Sprintf(format, args...)) }

	// The counts as a table: the confidential table has the margins.
	if table == nil && !slices.Contains(counts, -1) {
		if err := checkTableMargins(ms, counts); err != nil {
			refuse("count: the cells' counts %v", err)
		}
	}
	valid := func(i int) bool { return ck.witOK[i] == nil }

	// Per cell: labels, fields known, attained values, gap.
	lv := make([]int, len(dims))
	known := []string{"labels", "count", "lower", "upper", "method", "attained_lower", "attained_upper", "gap", "fractional", "differs"}
	// The compared methods' columns, for the methods the result compares.
	var compared map[string]json.RawMessage
	_ = json.Unmarshal(rf.Top["compare"], &compared)
	for m := range compared {
		known = append(known, m+"_lower", m+"_upper")
	}
	for j, c := range rf.Cells {
		model.CellLevels(dims, j, lv)
		want := map[string]string{}
		for i, vr := range ms.Vars {
			want[vr.Name] = vr.Levels[lv[i]]
		}
		var labels map[string]string
		if err := json.Unmarshal(c["labels"], &labels); err != nil || !mapsEqual(labels, want) {
			other := ""
			if k, ok := cellOfLabels(ms.Vars, labels); ok {
				other = fmt.Sprintf(", those of cell %d", k)
			}
			got, _ := json.Marshal(labels)
			v.refuseCell(j, true, true, fmt.Sprintf("labels %s are not the cell's (%s)%s: a cell's labels determine its index", got, model.CellLabel(ms.Vars, nil, j), other))
		}
		for _, key := range sortedKeys(c) {
			if !slices.Contains(known, key) {
				v.refuseCell(j, true, true, fmt.Sprintf("unknown field %q", key))
			}
		}
		a := att[j]
		if !a.has {
			continue
		}
		if (a.lo == nil) != (a.hi == nil) || (a.lo == nil) != (len(certs.Witnesses) == 0) {
			v.refuseCell(j, true, true, fmt.Sprintf("attained_lower/attained_upper are null exactly when the certificates have no witness table (%d witnesses)", len(certs.Witnesses)))
			continue
		}
		L, U := lower[j], upper[j]
		if a.lo == nil {
			if a.gap == nil || math.IsNaN(L) || math.IsNaN(U) || float64(*a.gap) != U-L {
				v.refuseCell(j, true, true, fmt.Sprintf("gap %s, want upper - lower = %v with no table attained", fmtPtr(a.gap), U-L))
			}
			continue
		}
		attains := func(x int64) bool {
			for i, w := range certs.Witnesses {
				if valid(i) && w[j] == x {
					return true
				}
			}
			return false
		}
		if !attains(*a.lo) {
			v.refuseCell(j, true, false, fmt.Sprintf("attained_lower %d: no valid witness table of the certificates has it in the cell", *a.lo))
		}
		if !attains(*a.hi) {
			v.refuseCell(j, false, true, fmt.Sprintf("attained_upper %d: no valid witness table of the certificates has it in the cell", *a.hi))
		}
		if want := (float64(*a.lo) - L) + (U - float64(*a.hi)); a.gap == nil || float64(*a.gap) != want {
			v.refuseCell(j, true, true, fmt.Sprintf("gap %s, want (attained_lower - lower) + (upper - attained_upper) = %v", fmtPtr(a.gap), want))
		}
	}

	// The whole result's fields.
	skip := map[string]bool{}
	for _, f := range resultNotChecked {
		skip[f.Field] = true
	}
	var specs []string
	for _, m := range ms.Margins {
		specs = append(specs, marginSpec(ms.Vars, m.Vars))
	}
	for _, key := range sortedKeys(rf.Top) {
		raw := rf.Top[key]
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			raw = buf.Bytes() // messages on one line
		}
		switch key {
		case "margins":
			var got []string
			if json.Unmarshal(raw, &got) != nil || !slices.Equal(got, specs) {
				refuse("margins %s are not the margins of the input (%s)", raw, strings.Join(specs, ","))
			}
		case "vars":
			var got []CertificateVar
			ok := json.Unmarshal(raw, &got) == nil && len(got) == len(ms.Vars)
			for i := 0; ok && i < len(got); i++ {
				ok = got[i].Name == ms.Vars[i].Name && slices.Equal(got[i].Levels, ms.Vars[i].Levels)
			}
			if !ok {
				refuse("vars %s are not the variables of the input", raw)
			}
		case "sharp":
			checkJSON(raw, v.SharpCells == n, "sharp", "every cell's two bounds sharp", refuse)
		case "sharp_cells":
			checkJSON(raw, v.SharpCells, "sharp_cells", "cells whose two bounds are sharp", refuse)
		case "valid_cells":
			checkJSON(raw, n-v.SharpCells, "valid_cells", "cells not both sharp", refuse)
		case "certified":
			var got map[string]json.RawMessage
			if json.Unmarshal(raw, &got) != nil {
				refuse("certified: not an object")
				continue
			}
			var st CertifiedStats
			statKeys := jsonKeys(st)
			proofs := map[string]int{}
			for j := range certs.Cells {
				proofs[certs.Cells[j].Lower.Proof]++
				proofs[certs.Cells[j].Upper.Proof]++
			}
			want := map[string]int{"sharp": v.SharpBounds, "unattained": 2*n - v.SharpBounds, "witnesses": len(certs.Witnesses),
				"dual_proven": proofs[ProofDual], "trivial_proven": proofs[ProofTrivial], "ip_proven": proofs[ProofIP]}
			for _, k := range sortedKeys(got) {
				switch {
				case slices.Contains(certifiedChecked, k):
					checkJSON(got[k], want[k], "certified."+k, "by the certificates", refuse)
				case !slices.Contains(statKeys, k):
					refuse("certified.%s: unknown field", k)
				}
			}
		case "gaps":
			var got map[string]json.RawMessage
			if json.Unmarshal(raw, &got) != nil {
				refuse("gaps: not an object")
				continue
			}
			gaps := make([]int64, 0, n)
			for j := range att {
				if att[j].gap != nil {
					gaps = append(gaps, *att[j].gap)
				}
			}
			var total, maxGap int64
			median := 0.0
			slices.Sort(gaps)
			for _, x := range gaps {
				total += x
			}
			if k := len(gaps); k > 0 {
				maxGap = gaps[k-1]
				if k%2 == 1 {
					median = float64(gaps[k/2])
				} else {
					median = float64(gaps[k/2-1]+gaps[k/2]) / 2
				}
			}
			for _, k := range sortedKeys(got) {
				switch k {
				case "bounds":
					checkJSON(got[k], 2*n, "gaps.bounds", "two per cell", refuse)
				case "sharp_bounds":
					checkJSON(got[k], v.SharpBounds, "gaps.sharp_bounds", "sharp bounds that verify", refuse)
				case "median_gap":
					checkJSON(got[k], median, "gaps.median_gap", "the median of the cells' gaps", refuse)
				case "max_gap":
					checkJSON(got[k], maxGap, "gaps.max_gap", "the largest of the cells' gaps", refuse)
				case "total_gap":
					checkJSON(got[k], total, "gaps.total_gap", "the sum of the cells' gaps", refuse)
				case "attained":
					checkJSON(got[k], len(certs.Witnesses) > 0, "gaps.attained", "whether the certificates have a witness table", refuse)
				case "moved", "moves_stopped", "searched", "search_tables", "search_rounds", "search_stopped":
				default:
					refuse("gaps.%s: unknown field", k)
				}
			}
		default:
			if !skip[key] {
				refuse("%s: unknown field of the result", key)
			}
		}
	}
	return v, nil
}

// refuseCell marks the lower and/or upper bound of cell j invalid with a
// reason.
func (v *Verification) refuseCell(j int, lower, upper bool, reason string) {
	cv := &v.Cells[j]
	was := cv.LowerStatus == StatusInvalid || cv.UpperStatus == StatusInvalid
	if lower && cv.LowerStatus != StatusInvalid {
		v.Counts[cv.LowerStatus]--
		cv.LowerStatus = StatusInvalid
		v.Counts[StatusInvalid]++
	}
	if upper && cv.UpperStatus != StatusInvalid {
		v.Counts[cv.UpperStatus]--
		cv.UpperStatus = StatusInvalid
		v.Counts[StatusInvalid]++
	}
	if cv.Reason != "" {
		cv.Reason += "; "
	}
	cv.Reason += reason
	if !was {
		v.Invalid++
	}
}

// countSharp counts the sharp bounds (BoundCertificate.Sharp) among those
// that verify (neither invalid nor looser than their certificate) and the
// cells whose two bounds are.
func (v *Verification) countSharp(certs *Certificates) {
	v.SharpBounds, v.SharpCells = 0, 0
	ok := func(status string) bool { return status == StatusProven || status == StatusEngineWord }
	for j := range v.Cells {
		cv := &v.Cells[j]
		lo := ok(cv.LowerStatus) && certs.Cells[j].Lower.Sharp()
		up := ok(cv.UpperStatus) && certs.Cells[j].Upper.Sharp()
		if lo {
			v.SharpBounds++
		}
		if up {
			v.SharpBounds++
		}
		if lo && up {
			v.SharpCells++
		}
	}
}

// checkTableMargins: non-negative counts reproducing every released margin.
func checkTableMargins(ms *model.MarginSet, counts []int64) error {
	t := &model.Table{Vars: ms.Vars, Counts: counts}
	for _, m := range ms.Margins {
		got, err := t.Collapse(m.Vars)
		if err != nil {
			return err
		}
		if !slices.Equal(got.Counts, m.Counts) {
			return fmt.Errorf("do not reproduce margin %s", model.MarginalName(ms.Vars, m.Vars))
		}
	}
	return nil
}

// checkJSON refuses field unless raw decodes to want's value.
func checkJSON[T comparable](raw json.RawMessage, want T, field, what string, refuse func(string, ...any)) {
	var got T
	if err := json.Unmarshal(raw, &got); err != nil || got != want {
		refuse("%s is %s, want %v (%s)", field, raw, want, what)
	}
}

// cellOfLabels returns the index of the cell with these labels.
func cellOfLabels(vars []model.Variable, labels map[string]string) (int, bool) {
	if len(labels) != len(vars) {
		return 0, false
	}
	lv := make([]int, len(vars))
	for i, v := range vars {
		l, ok := labels[v.Name]
		if !ok {
			return 0, false
		}
		if lv[i] = slices.Index(v.Levels, l); lv[i] < 0 {
			return 0, false
		}
	}
	return model.CellIndex(model.Dims(vars), lv), true
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonKeys returns the JSON field names of a struct value.
func jsonKeys(v any) []string {
	b, _ := json.Marshal(v)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	return sortedKeys(m)
}

func fmtPtr(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
