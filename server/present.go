package server

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/model"
)

// PolicyText says in words what policy p protects (the rules of
// audit.Policy) and whether simulated answers are offered.
func PolicyText(p audit.Policy) string {
	var b strings.Builder
	b.WriteString("A margin is released only if, together with everything released before, it leaves every non-zero count of the confidential table uncertain: ")
	b.WriteString("no count can be worked out exactly")
	if p.Small > 1 && p.MinWidth > 1 {
		if p.Small == 2 {
			fmt.Fprintf(&b, "; a count of 1 must stay within a range at least %d wide", p.MinWidth)
		} else {
			fmt.Fprintf(&b, "; a count from 1 to %d must stay within a range at least %d wide", p.Small-1, p.MinWidth)
		}
	}
	if p.MinRelWidth > 0 {
		if p.Small > 1 {
			fmt.Fprintf(&b, "; a count of %d or more within a range at least %s%% of its value wide", p.Small, strconv.FormatFloat(100*p.MinRelWidth, 'g', 4, 64))
		} else {
			fmt.Fprintf(&b, "; every count within a range at least %s%% of its value wide", strconv.FormatFloat(100*p.MinRelWidth, 'g', 4, 64))
		}
	}
	b.WriteString(". Otherwise the request is denied, without saying why (a reason would itself disclose). ")
	if p.AllowSimulate {
		b.WriteString("Simulated answers are offered: a denied margin may be answered from a table simulated from the public releases; such an answer is not data and is marked SIMULATED, NOT DATA.")
	} else {
		b.WriteString("Simulated answers are not offered for this table.")
	}
	return b.String()
}

// releaseCSV answers one public release as CSV (the levels of the
// margin's variables, then count; a simulated release has the column
// note = "SIMULATED, NOT DATA" on every row), as a download.
func (s *Server) releaseCSV(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	setLog(r, "table", name)
	seq, err := strconv.Atoi(r.PathValue("seq"))
	if err != nil || seq < 1 {
		writeError(w, http.StatusBadRequest, "release number %q: want a positive integer", r.PathValue("seq"))
		return
	}
	info, err := s.store.Table(r.Context(), name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rels, err := s.store.releases(r.Context(), s.store.db, info.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if seq > len(rels) {
		writeError(w, http.StatusNotFound, "table %q has %d releases, no release %d", name, len(rels), seq)
		return
	}
	rel := rels[seq-1]
	vars := make([]model.Variable, len(rel.Margin))
	for i, m := range rel.Margin {
		j := -1
		for k := range info.Vars {
			if info.Vars[k].Name == m {
				j = k
			}
		}
		if j < 0 {
			s.fail(w, r, fmt.Errorf("release %d of %q names the unknown variable %q", seq, name, m))
			return
		}
		vars[i] = info.Vars[j]
	}
	var b strings.Builder
	cw := csv.NewWriter(&b)
	head := append(append([]string{}, rel.Margin...), "count")
	if rel.Simulated {
		head = append(head, "note")
	}
	cw.Write(head)
	dims := model.Dims(vars)
	lv := make([]int, len(vars))
	for i, c := range rel.Counts {
		lv = model.CellLevels(dims, i, lv)
		row := make([]string, 0, len(head))
		for k, v := range vars {
			row = append(row, v.Levels[lv[k]])
		}
		row = append(row, strconv.FormatInt(c, 10))
		if rel.Simulated {
			row = append(row, "SIMULATED, NOT DATA")
		}
		cw.Write(row)
	}
	cw.Flush()
	file := fmt.Sprintf("%s-release-%d-%s.csv", name, seq, strings.Join(rel.Margin, "_"))
	if rel.Simulated {
		file = strings.TrimSuffix(file, ".csv") + "-SIMULATED.csv"
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", file))
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(b.String()))
}
