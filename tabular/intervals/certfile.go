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
// WriteCertificates (JSON, version 1): the intervals of a Result with the
// dual certificates of their ends, read back by ReadCertificates for
// Verify, which rebuilds the attacker problem from the table itself.
const CertificatesFormat = "sdcopt-interval-certificates"

// ErrCertificatesFile is wrapped by the errors of ReadCertificates on a
// file that is not a certificates file of this version.
var ErrCertificatesFile = errors.New("intervals: not a certificates file")

// CertificatesInfo describes what a certificates file certifies: the
// table file it was computed on, the engine, and the attacker's prior as
// the user gave it ("" for the default).
type CertificatesInfo struct {
	Table, Engine, Prior string
}

type certFile struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Table     string         `json:"table"`
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
	cf := certFile{Format: CertificatesFormat, Version: 1, Table: info.Table, Engine: r.Engine, Prior: info.Prior,
		Intervals: []certInterval{}}
	for _, iv := range r.Intervals {
		cf.Intervals = append(cf.Intervals, certInterval{Cell: iv.Cell, Name: iv.Name, Lower: finite(iv.Lower),
			Upper: finite(iv.Upper), LowerCert: toCertJSON(iv.LowerCert), UpperCert: toCertJSON(iv.UpperCert)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(cf)
}

// ReadCertificates reads a CertificatesFormat document back into a Result
// (intervals and certificates only) for Verify; unknown fields, another
// format or version are errors wrapping ErrCertificatesFile.
func ReadCertificates(r io.Reader) (*Result, CertificatesInfo, error) {
	var cf certFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cf); err != nil {
		return nil, CertificatesInfo{}, fmt.Errorf("%w: %v", ErrCertificatesFile, err)
	}
	if cf.Format != CertificatesFormat || cf.Version != 1 {
		return nil, CertificatesInfo{}, fmt.Errorf("%w: format %q version %d, want %q version 1", ErrCertificatesFile, cf.Format, cf.Version, CertificatesFormat)
	}
	res := &Result{Engine: cf.Engine}
	for _, c := range cf.Intervals {
		res.Intervals = append(res.Intervals, Interval{Cell: c.Cell, Name: c.Name,
			Lower: orInf(c.Lower, math.Inf(-1)), Upper: orInf(c.Upper, math.Inf(1)),
			LowerCert: fromCertJSON(c.LowerCert, solvers.Minimize), UpperCert: fromCertJSON(c.UpperCert, solvers.Maximize)})
	}
	return res, CertificatesInfo{Table: cf.Table, Engine: cf.Engine, Prior: cf.Prior}, nil
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

// finite is v, or nil (JSON null) for an infinite end.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) {
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
