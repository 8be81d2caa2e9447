package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/tabular"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// insiderFinding is one primary cell broken by an insider (JSON).
type insiderFinding struct {
	Insider     string   `json:"insider"` // "respondent r7", "coalition r1+r2", "cell (region=N, sector=a)"
	Cell        int      `json:"cell"`
	Name        string   `json:"name"`
	Value       float64  `json:"value"`
	Lower       *float64 `json:"lower"` // null: −∞
	Upper       *float64 `json:"upper"` // null: +∞
	Own         float64  `json:"own"`
	Requirement string   `json:"requirement"`
	NeedLower   float64  `json:"need_lower"`
	NeedUpper   float64  `json:"need_upper"`
	ShortBelow  float64  `json:"short_below"`
	ShortAbove  float64  `json:"short_above"`
	Disclosed   bool     `json:"disclosed"`
}

// insiderEntry is one audited insider (JSON).
type insiderEntry struct {
	Insider string `json:"insider"`
	Kind    string `json:"kind"` // respondent, holding, coalition, cell
	Reason  string `json:"reason"`
	Solves  int    `json:"solves"`
}

// largestEntry is a largest contributor's estimate of the others (JSON).
type largestEntry struct {
	Cell        int      `json:"cell"`
	Name        string   `json:"name"`
	Value       float64  `json:"value"`
	ID          string   `json:"id"`
	X1          float64  `json:"x1"`
	Freq        int      `json:"freq"`
	OthersLower *float64 `json:"others_lower"`
	OthersUpper *float64 `json:"others_upper"`
	NeedLower   float64  `json:"need_lower"`
	NeedUpper   float64  `json:"need_upper"`
	Requirement string   `json:"requirement"`
	FromInsider bool     `json:"from_insider"`
	Within      bool     `json:"within"`
}

// insidersSection is the "insiders" section of the table audit report.
type insidersSection struct {
	Ran        bool             `json:"ran"`
	Why        string           `json:"why,omitempty"` // why it did not run
	Candidates int              `json:"candidates"`
	Audited    int              `json:"audited"`
	Skipped    int              `json:"skipped"` // beyond --max-insiders
	Solves     int              `json:"solves"`
	Pass       bool             `json:"pass"`
	Insiders   []insiderEntry   `json:"insiders"`
	Findings   []insiderFinding `json:"findings"`
	Largest    []largestEntry   `json:"largest"`
}

// hasInsiderData reports whether t has frequencies or contributions.
func hasInsiderData(t *tabular.Table) bool {
	for _, c := range t.Cells {
		if c.Freq > 0 || len(c.Top) > 0 {
			return true
		}
	}
	return false
}

// runInsiders runs the insider audit of tab (res: the plain intervals
// computed with set) into a report section.
func runInsiders(tab *tabular.Table, res *intervals.Result, set *intervals.Settings, max int) (*insidersSection, error) {
	sec := &insidersSection{Pass: true, Insiders: []insiderEntry{}, Findings: []insiderFinding{}, Largest: []largestEntry{}}
	if tab == nil {
		sec.Why = "a JJ file has no frequencies nor contributions: insiders cannot be found"
		return sec, nil
	}
	if !hasInsiderData(tab) {
		sec.Why = "the table has no freq column (nor contributions): insiders cannot be found"
		return sec, nil
	}
	ir, err := intervals.InsiderAudit(tab, res, &intervals.InsiderSettings{Settings: set, MaxInsiders: max})
	if errors.Is(err, intervals.ErrInsider) {
		sec.Why = err.Error()
		return sec, nil
	}
	if err != nil {
		return nil, libraryError("insiders", err)
	}
	sec.Ran, sec.Candidates, sec.Audited, sec.Skipped, sec.Solves, sec.Pass = true, ir.Candidates, len(ir.Insiders), ir.Skipped(), ir.Solves, ir.OK()
	for _, in := range ir.Insiders {
		kind := in.Kind.String()
		if in.Kind == intervals.Respondent && in.Holding {
			kind = "holding"
		}
		sec.Insiders = append(sec.Insiders, insiderEntry{Insider: in.Name(tab.CellName), Kind: kind, Reason: in.Reason, Solves: in.Solves})
	}
	for _, f := range ir.Findings {
		sec.Findings = append(sec.Findings, insiderFinding{Insider: sec.Insiders[f.Insider].Insider, Cell: f.Cell, Name: f.Name,
			Value: f.Value, Lower: finitePtr(f.Lower), Upper: finitePtr(f.Upper), Own: f.Own, Requirement: f.Requirement,
			NeedLower: f.NeedLower, NeedUpper: f.NeedUpper, ShortBelow: f.ShortBelow, ShortAbove: f.ShortAbove, Disclosed: f.Disclosed})
	}
	for _, l := range ir.Largest {
		sec.Largest = append(sec.Largest, largestEntry{Cell: l.Cell, Name: l.Name, Value: l.Value, ID: l.ID, X1: l.X1, Freq: l.Freq,
			OthersLower: finitePtr(l.OthersLower), OthersUpper: finitePtr(l.OthersUpper), NeedLower: l.NeedLower,
			NeedUpper: l.NeedUpper, Requirement: l.Requirement, FromInsider: l.FromInsider, Within: l.Within})
	}
	return sec, nil
}

// failures is the number of broken cells and estimates out of tolerance.
func (s *insidersSection) failures() int {
	n := len(s.Findings)
	for _, l := range s.Largest {
		if !l.Within {
			n++
		}
	}
	return n
}

// writeText renders the section after the plain report.
func (s *insidersSection) writeText(w io.Writer) {
	if !s.Ran {
		fmt.Fprintf(w, "insiders        not audited: %s\n", s.Why)
		return
	}
	verdict := "pass: no breaks beyond the outsider's"
	if !s.Pass {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "insiders        %s (%d audited of %d found, %d solves)\n", verdict, s.Audited, s.Candidates, s.Solves)
	if s.Skipped > 0 {
		fmt.Fprintf(w, "insiders        %d not audited (over --max-insiders)\n", s.Skipped)
	}
	for _, f := range s.Findings {
		fmt.Fprintf(w, "insider breaks  (%s): %s in [%s, %s] to %s", f.Name, datasets.FormatValue(f.Value),
			fmtEnd(f.Lower, "-inf"), fmtEnd(f.Upper, "+inf"), f.Insider)
		fmt.Fprintf(w, ", needs [%s, %s] (%s", datasets.FormatValue(f.NeedLower), datasets.FormatValue(f.NeedUpper), f.Requirement)
		if f.Own > 0 {
			fmt.Fprintf(w, ", own contribution %s", datasets.FormatValue(f.Own))
		}
		if f.Disclosed {
			fmt.Fprint(w, ", exactly disclosed")
		}
		fmt.Fprintln(w, ")")
	}
	for _, l := range s.Largest {
		if l.Within {
			continue
		}
		fmt.Fprintf(w, "largest estimate (%s): %s (x1 = %s) puts the others in [%s, %s], needs [%s, %s] (%s)\n", l.Name, l.ID,
			datasets.FormatValue(l.X1), fmtEnd(l.OthersLower, "-inf"), fmtEnd(l.OthersUpper, "+inf"),
			datasets.FormatValue(l.NeedLower), datasets.FormatValue(l.NeedUpper), l.Requirement)
	}
}

// writeCSV renders the section as a second CSV block, after an empty
// line: one row per finding (check "insider") and per largest
// contributor's estimate (check "largest": lower, upper and the needs are
// the estimate of the others, own is x1).
func (s *insidersSection) writeCSV(w io.Writer) error {
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"check", "insider", "cell", "name", "value", "lower", "upper", "own", "requirement",
		"need_lower", "need_upper", "verdict"})
	for _, f := range s.Findings {
		v := "broken"
		if f.Disclosed {
			v = "disclosed"
		}
		cw.Write([]string{"insider", f.Insider, strconv.Itoa(f.Cell), f.Name, datasets.FormatValue(f.Value), fmtEnd(f.Lower, "-inf"),
			fmtEnd(f.Upper, "+inf"), datasets.FormatValue(f.Own), f.Requirement, datasets.FormatValue(f.NeedLower),
			datasets.FormatValue(f.NeedUpper), v})
	}
	for _, l := range s.Largest {
		v := "ok"
		if !l.Within {
			v = "broken"
		}
		cw.Write([]string{"largest", "respondent " + l.ID, strconv.Itoa(l.Cell), l.Name, datasets.FormatValue(l.Value),
			fmtEnd(l.OthersLower, "-inf"), fmtEnd(l.OthersUpper, "+inf"), datasets.FormatValue(l.X1), l.Requirement,
			datasets.FormatValue(l.NeedLower), datasets.FormatValue(l.NeedUpper), v})
	}
	cw.Flush()
	return cw.Error()
}

// write renders the section in the report's format (JSON carries it in
// the report itself).
func (s *insidersSection) write(w io.Writer, format string) error {
	switch format {
	case "json":
		return nil
	case "csv":
		return s.writeCSV(w)
	}
	s.writeText(w)
	return nil
}

// summary is the insiders' part of the failure message ("" when none
// failed or the section is absent).
func (s *insidersSection) summary() string {
	if s == nil || s.Pass {
		return ""
	}
	first := ""
	if len(s.Findings) > 0 {
		f := s.Findings[0]
		first = fmt.Sprintf(", first: %s puts (%s) %s in [%s, %s]", f.Insider, f.Name, datasets.FormatValue(f.Value),
			fmtEnd(f.Lower, "-inf"), fmtEnd(f.Upper, "+inf"))
	}
	return fmt.Sprintf("; %d insider finding(s)%s", s.failures(), first)
}
