package intervals

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/sdcopt/sdcopt/solvers"
)

// CertificatesFormat names the certificates file written by
// WriteCertificates (JSON, version CertificatesVersion): the intervals of
// a Result with the dual certificates of their ends, read back by
// ReadCertificates for Verify, which rebuilds the attacker problem from
// the table (or JJ file) itself.
//
// Version 2 adds "integer" (the intervals are integer ones), "jj" (the JJ
// file audited, instead of "table") and, on each interval of an integer
// result, "lower_integer" and "upper_integer": the end's witness table
// ("witness": {"vars", "x"}, the nonzero values of the suppressed cells by
// interval index), "reached" (null without a witness), "outer" (null when
// infinite), "outer_certificate" and "certified" (see IntegerEnd).
// Version 1 files (LP intervals) are still read.
const CertificatesFormat = "sdcopt-interval-certificates"

// CertificatesVersion is the version WriteCertificates writes.
const CertificatesVersion = 2

// ErrCertificatesFile is wrapped by the errors of ReadCertificates on a
// file that is not a certificates file of this version.
var ErrCertificatesFile = errors.New("intervals: not a certificates file")

// CertificatesInfo describes what a certificates file certifies: the
// table file it was computed on, the engine, and the attacker's prior as
// the user gave it ("" for the default).
type CertificatesInfo struct {
	Table, Engine, Prior string
	JJ                   string // the JJ file, when the audit read one instead of a table
}

type certFile struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Table     string         `json:"table"`
	JJ        string         `json:"jj,omitempty"`
	Integer   bool           `json:"integer,omitempty"`
	Engine    string         `json:"engine"`
	Prior     string         `json:"prior,omitempty"`
	Intervals []certInterval `json:"intervals"`
}

type certInterval struct {
	Cell      int       `json:"cell"`
	Name      string    `json:"name"`
	Lower     *float64  `json:"lower"` // null: −∞
	Upper     *float64  `json:"upper"` // null: +∞
	LowerCert *certJSON `json:"lower_certificate,omitempty"`
	UpperCert *certJSON `json:"upper_certificate,omitempty"`
	LowerInt  *intJSON  `json:"lower_integer,omitempty"`
	UpperInt  *intJSON  `json:"upper_integer,omitempty"`
}

type intJSON struct {
	Witness   *witnessJSON `json:"witness"` // null: none
	Reached   *float64     `json:"reached"` // null: no witness
	Outer     *float64     `json:"outer"`   // null: infinite
	OuterCert *certJSON    `json:"outer_certificate,omitempty"`
	Certified bool         `json:"certified"`
}

type witnessJSON struct {
	Vars []int     `json:"vars"`
	X    []float64 `json:"x"`
}

type certJSON struct {
	Rows  []int     `json:"rows"`
	Y     []float64 `json:"y"`
	Vars  []int     `json:"vars"`
	D     []float64 `json:"d"`
	Value float64   `json:"value"`
}

// WriteCertificates writes the intervals of r and their certificates as a
// CertificatesFormat document (infinite ends as null).
func WriteCertificates(w io.Writer, info CertificatesInfo, r *Result) error {
	cf := certFile{Format: CertificatesFormat, Version: CertificatesVersion, Table: info.Table, JJ: info.JJ,
		Integer: r.Integer, Engine: r.Engine, Prior: info.Prior, Intervals: []certInterval{}}
	for _, iv := range r.Intervals {
		cf.Intervals = append(cf.Intervals, certInterval{Cell: iv.Cell, Name: iv.Name, Lower: finite(iv.Lower),
			Upper: finite(iv.Upper), LowerCert: toCertJSON(iv.LowerCert), UpperCert: toCertJSON(iv.UpperCert),
			LowerInt: toIntJSON(iv.LowerInt), UpperInt: toIntJSON(iv.UpperInt)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(cf)
}

// ReadCertificates reads a CertificatesFormat document back into a Result
// (intervals and certificates only) for Verify; unknown fields, another
// format, a version other than 1 and 2, or version 2 fields in a version
// 1 file are errors wrapping ErrCertificatesFile.
func ReadCertificates(r io.Reader) (*Result, CertificatesInfo, error) {
	var cf certFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cf); err != nil {
		return nil, CertificatesInfo{}, fmt.Errorf("%w: %v", ErrCertificatesFile, err)
	}
	if cf.Format != CertificatesFormat || cf.Version < 1 || cf.Version > CertificatesVersion {
		return nil, CertificatesInfo{}, fmt.Errorf("%w: format %q version %d, want %q version 1 or %d",
			ErrCertificatesFile, cf.Format, cf.Version, CertificatesFormat, CertificatesVersion)
	}
	res := &Result{Engine: cf.Engine, Integer: cf.Integer}
	for k, c := range cf.Intervals {
		if cf.Version == 1 && (cf.Integer || cf.JJ != "" || c.LowerInt != nil || c.UpperInt != nil) {
			return nil, CertificatesInfo{}, fmt.Errorf("%w: version 1 file with version 2 fields", ErrCertificatesFile)
		}
		if !cf.Integer && (c.LowerInt != nil || c.UpperInt != nil) {
			return nil, CertificatesInfo{}, fmt.Errorf("%w: interval %d: integer certificates in a file of LP intervals", ErrCertificatesFile, k)
		}
		res.Intervals = append(res.Intervals, Interval{Cell: c.Cell, Name: c.Name,
			Lower: orInf(c.Lower, math.Inf(-1)), Upper: orInf(c.Upper, math.Inf(1)),
			LowerCert: fromCertJSON(c.LowerCert, solvers.Minimize), UpperCert: fromCertJSON(c.UpperCert, solvers.Maximize),
			LowerInt: fromIntJSON(c.LowerInt, solvers.Minimize), UpperInt: fromIntJSON(c.UpperInt, solvers.Maximize)})
	}
	return res, CertificatesInfo{Table: cf.Table, JJ: cf.JJ, Engine: cf.Engine, Prior: cf.Prior}, nil
}

func toIntJSON(e *IntegerEnd) *intJSON {
	if e == nil {
		return nil
	}
	j := &intJSON{Reached: finite(e.Reached), Outer: finite(e.Outer), OuterCert: toCertJSON(e.OuterCert), Certified: e.Certified}
	if e.Witness != nil {
		j.Witness = &witnessJSON{Vars: nonNil(e.Witness.Vars), X: nonNil(e.Witness.X)}
	}
	return j
}

func fromIntJSON(j *intJSON, sense solvers.Sense) *IntegerEnd {
	if j == nil {
		return nil
	}
	outerInf := math.Inf(-1)
	if sense == solvers.Maximize {
		outerInf = math.Inf(1)
	}
	e := &IntegerEnd{Reached: orInf(j.Reached, math.NaN()), Outer: orInf(j.Outer, outerInf),
		OuterCert: fromCertJSON(j.OuterCert, sense), Certified: j.Certified}
	if j.Witness != nil {
		e.Witness = &Witness{Vars: j.Witness.Vars, X: j.Witness.X}
	}
	return e
}

func toCertJSON(c *Certificate) *certJSON {
	if c == nil {
		return nil
	}
	return &certJSON{Rows: nonNil(c.Rows), Y: nonNil(c.Y), Vars: nonNil(c.Vars), D: nonNil(c.D), Value: c.Value}
}

func fromCertJSON(c *certJSON, sense solvers.Sense) *Certificate {
	if c == nil {
		return nil
	}
	return &Certificate{Sense: sense, Rows: c.Rows, Y: c.Y, Vars: c.Vars, D: c.D, Value: c.Value}
}

// nonNil writes an empty list as [], not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// finite is v, or nil (JSON null) for an infinite end (or NaN).
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

func orInf(p *float64, inf float64) float64 {
	if p == nil {
		return inf
	}
	return *p
}
