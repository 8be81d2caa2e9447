// Package synth generates seeded synthetic microdata with hierarchical
// classification variables, and the tables tabulated from them, for the
// benchmarks and demonstrations of the table packages (tabular,
// tabular/primary, tabular/intervals) and for running other tools on the
// same data side by side.
//
// A Spec gives each dimension a tree by its branching factors ({5, 6}: the
// total, 5 groups, 6 leaves in each group) and the number of records.
// Records fall in leaves independently per dimension, with Zipf-like
// popularity (the k-th most popular leaf, in a seeded order, has weight
// 1/(k+1)^Skew), so that, as in real business and population tables, many
// cells are small or empty while a few are large. A magnitude response
// (turnover) is log-normal per record; records may belong to holdings and
// carry sampling weights. The same Spec (Seed included) always gives the
// same records, byte for byte.
//
// A LinkedSpec adds tables over subsets of the dimensions (Data.Tables):
// tables from the same records that share their marginals, which
// tabular.NewSystem links (the linked presets, LinkedPreset).
//
// Codes are the dimension's prefix followed by the path in the tree:
// "r3" is the third group of dimension r, "r3.2" its second leaf. They
// start with a letter so that no tool reads them as numbers.
package synth

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sdcopt/sdcopt/tabular"
)

// ErrSpec is the sentinel of every invalid Spec.
var ErrSpec = errors.New("synth: bad spec")

// Dim is one classification variable: its column name, the prefix of its
// codes (default: the name's first letter) and the branching factor of
// each level below the total (every node of level i has Branching[i]
// children; an empty Branching is not allowed, {n} is a flat variable of
// n codes).
type Dim struct {
	Name      string
	Prefix    string
	Branching []int
}

// Spec says what to generate.
type Spec struct {
	Dims    []Dim
	Records int
	// Skew is the Zipf exponent of the leaves' popularity in every
	// dimension; 0 makes every leaf equally likely.
	Skew float64
	// Response adds a magnitude column "turnover" (log-normal, μ = 4,
	// σ = 1.5, rounded to integers ≥ 1) and a respondent column "id".
	Response bool
	// Holdings > 0 adds a column "holding": each record belongs, with
	// probability 0.3, to one of Holdings holdings ("h1", "h2", ...),
	// uniformly; otherwise the field is empty (its own holding).
	Holdings int
	// Weights adds a column "weight" of sampling weights, uniform on
	// [1, 50) with two decimals.
	Weights bool
	Seed    uint64
}

// Data is a generated microdata set and its hierarchies.
type Data struct {
	Spec        Spec
	Hierarchies []*tabular.Hierarchy // one per Spec.Dims, in order
	Header      []string
	Rows        [][]string
}

// Cells returns the number of cells of the full table over dims (every
// level of every dimension, totals included): the product of each
// dimension's number of codes.
func Cells(dims []Dim) int {
	n := 1
	for _, d := range dims {
		codes, width := 1, 1
		for _, b := range d.Branching {
			width *= b
			codes += width
		}
		n *= codes
	}
	return n
}

func (s *Spec) check() error {
	if len(s.Dims) == 0 {
		return fmt.Errorf("%w: no dimension", ErrSpec)
	}
	if s.Records < 1 {
		return fmt.Errorf("%w: records %d, want at least 1", ErrSpec, s.Records)
	}
	if s.Skew < 0 || math.IsNaN(s.Skew) || math.IsInf(s.Skew, 0) {
		return fmt.Errorf("%w: skew %v, want a finite number ≥ 0", ErrSpec, s.Skew)
	}
	if s.Holdings < 0 {
		return fmt.Errorf("%w: holdings %d, want ≥ 0", ErrSpec, s.Holdings)
	}
	seen := map[string]bool{"id": s.Response, "turnover": s.Response, "holding": s.Holdings > 0, "weight": s.Weights}
	for i, d := range s.Dims {
		if d.Name == "" || seen[d.Name] {
			return fmt.Errorf("%w: dimension %d: name %q empty or used twice", ErrSpec, i+1, d.Name)
		}
		seen[d.Name] = true
		if len(d.Branching) == 0 {
			return fmt.Errorf("%w: dimension %s: no branching", ErrSpec, d.Name)
		}
		leaves := 1
		for _, b := range d.Branching {
			if b < 1 {
				return fmt.Errorf("%w: dimension %s: branching %v, want every factor ≥ 1", ErrSpec, d.Name, d.Branching)
			}
			leaves *= b
			if leaves > 1<<20 {
				return fmt.Errorf("%w: dimension %s: more than %d leaves", ErrSpec, d.Name, 1<<20)
			}
		}
	}
	return nil
}

// hierarchy builds dimension d's tree and returns it with its leaves'
// codes in pre-order.
func (d Dim) hierarchy() (*tabular.Hierarchy, []string, error) {
	prefix := d.Prefix
	if prefix == "" {
		prefix = strings.ToLower(d.Name[:1])
	}
	var parents, children, leaves []string
	var walk func(code string, level int)
	walk = func(code string, level int) {
		if level == len(d.Branching) {
			leaves = append(leaves, code)
			return
		}
		for k := 1; k <= d.Branching[level]; k++ {
			child := prefix + strconv.Itoa(k)
			if level > 0 {
				child = code + "." + strconv.Itoa(k)
			}
			parents, children = append(parents, code), append(children, child)
			walk(child, level+1)
		}
	}
	walk(tabular.DefaultRoot, 0)
	h, err := tabular.NewHierarchy(tabular.DefaultRoot, parents, children)
	return h, leaves, err
}

// Generate draws the microdata of s.
func Generate(s Spec) (*Data, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x5d0c0de))
	d := &Data{Spec: s}
	leaves := make([][]string, len(s.Dims))
	pick := make([]distuv.Categorical, len(s.Dims))
	for i, dim := range s.Dims {
		h, ls, err := dim.hierarchy()
		if err != nil {
			return nil, fmt.Errorf("%w: dimension %s: %v", ErrSpec, dim.Name, err)
		}
		d.Hierarchies = append(d.Hierarchies, h)
		d.Header = append(d.Header, dim.Name)
		// Popularity by rank, the ranks in a seeded order of the leaves.
		w := make([]float64, len(ls))
		for r, leaf := range rng.Perm(len(ls)) {
			w[leaf] = 1 / math.Pow(float64(r+1), s.Skew)
		}
		leaves[i], pick[i] = ls, distuv.NewCategorical(w, rng)
	}
	if s.Response {
		d.Header = append(d.Header, "id", "turnover")
	}
	if s.Holdings > 0 {
		d.Header = append(d.Header, "holding")
	}
	if s.Weights {
		d.Header = append(d.Header, "weight")
	}
	turnover := distuv.LogNormal{Mu: 4, Sigma: 1.5, Src: rng}
	width := len(strconv.Itoa(s.Records))
	d.Rows = make([][]string, s.Records)
	for r := range d.Rows {
		row := make([]string, 0, len(d.Header))
		for i := range s.Dims {
			row = append(row, leaves[i][int(pick[i].Rand())])
		}
		if s.Response {
			row = append(row, fmt.Sprintf("e%0*d", width, r+1), strconv.FormatFloat(math.Max(1, math.Round(turnover.Rand())), 'f', -1, 64))
		}
		if s.Holdings > 0 {
			h := ""
			if rng.Float64() < 0.3 {
				h = "h" + strconv.Itoa(1+rng.IntN(s.Holdings))
			}
			row = append(row, h)
		}
		if s.Weights {
			row = append(row, strconv.FormatFloat(float64(100+rng.IntN(4900))/100, 'f', 2, 64))
		}
		d.Rows[r] = row
	}
	return d, nil
}

// WriteCSV writes the microdata as CSV with a header row.
func (d *Data) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(d.Header); err != nil {
		return err
	}
	if err := cw.WriteAll(d.Rows); err != nil {
		return err
	}
	return cw.Error()
}

// DimSpecs returns the dimensions for tabular.ReadMicrodata, with their
// hierarchies.
func (d *Data) DimSpecs() []tabular.DimSpec {
	specs := make([]tabular.DimSpec, len(d.Spec.Dims))
	for i, dim := range d.Spec.Dims {
		specs[i] = tabular.DimSpec{Column: dim.Name, H: d.Hierarchies[i]}
	}
	return specs
}

// BuildSettings returns the tabulation options matching the generated
// columns: a magnitude table of turnover by respondent id when
// Spec.Response (with holdings and weights when generated), else a
// frequency table (weighted when Spec.Weights).
func (d *Data) BuildSettings() *tabular.BuildSettings {
	s := &tabular.BuildSettings{}
	if d.Spec.Response {
		s.Response, s.Respondent = "turnover", "id"
	}
	if d.Spec.Holdings > 0 && d.Spec.Response {
		s.Holding = "holding"
	}
	if d.Spec.Weights {
		s.Weight = "weight"
	}
	return s
}

// Table tabulates the microdata over every dimension with BuildSettings,
// through the same reader as a CSV file on disk (tabular.ReadMicrodata).
func (d *Data) Table() (*tabular.Table, error) {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(d.WriteCSV(pw)) }()
	t, err := tabular.ReadMicrodata(pr, "synthetic.csv", d.DimSpecs(), d.BuildSettings())
	pr.CloseWithError(io.ErrClosedPipe) // unblock the writer if the reader stopped early
	return t, err
}

// WriteFiles writes the microdata to dir/name.csv and each dimension's
// hierarchy to dir/<dimension>.hrc (τ-ARGUS format, tabular.WriteHRC),
// each through a temporary file renamed into place, and returns the
// paths. dir must exist.
func (d *Data) WriteFiles(dir, name string) (data string, hrc []string, err error) {
	data = filepath.Join(dir, name+".csv")
	if err := writeFile(data, d.WriteCSV); err != nil {
		return "", nil, err
	}
	for i, dim := range d.Spec.Dims {
		p := filepath.Join(dir, dim.Name+".hrc")
		h := d.Hierarchies[i]
		if err := writeFile(p, func(w io.Writer) error { return tabular.WriteHRC(w, h) }); err != nil {
			return "", nil, err
		}
		hrc = append(hrc, p)
	}
	return data, hrc, nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
