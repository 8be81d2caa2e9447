package solvers

import (
	"errors"
	"math"
	"testing"
)

func TestAddColAddRow(t *testing.T) {
	var p Problem
	r0 := p.AddRow(1, 2, "")
	r1 := p.AddRow(math.Inf(-1), 3, "cap")
	j0 := p.AddCol(1, 0, 1, Continuous, []int{0, 1}, []float64{2, 3}, "")
	j1 := p.AddCol(-1, 0, Inf, Integer, []int{1}, []float64{4}, "y")
	if r0 != 0 || r1 != 1 || j0 != 0 || j1 != 1 {
		t.Fatalf("indices %d %d %d %d", r0, r1, j0, j1)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.RowNames[0] != "" || p.RowNames[1] != "cap" || p.ColNames[1] != "y" || p.ColType[0] != Continuous {
		t.Errorf("names/types not back-filled: %q %q %v", p.RowNames, p.ColNames, p.ColType)
	}
	if !p.IsMIP() || p.NumNonzeros() != 3 {
		t.Errorf("IsMIP %v nnz %d", p.IsMIP(), p.NumNonzeros())
	}
	ax := p.RowActivity([]float64{1, 2})
	if ax[0] != 2 || ax[1] != 11 {
		t.Errorf("RowActivity = %v, want [2 11]", ax)
	}
	start, cols, vals := p.RowMajor()
	if len(start) != 3 || start[1] != 1 || cols[1] != 0 || cols[2] != 1 || vals[2] != 4 {
		t.Errorf("RowMajor = %v %v %v", start, cols, vals)
	}
}

func TestValidateRejects(t *testing.T) {
	base := func() *Problem {
		p := &Problem{}
		p.AddRow(0, 1, "")
		p.AddCol(1, 0, 1, Continuous, []int{0}, []float64{1}, "")
		return p
	}
	cases := map[string]func(p *Problem){
		"nan objective":     func(p *Problem) { p.Obj[0] = math.NaN() },
		"inf objective":     func(p *Problem) { p.Obj[0] = math.Inf(1) },
		"lower +inf":        func(p *Problem) { p.ColLower[0] = math.Inf(1) },
		"upper -inf":        func(p *Problem) { p.ColUpper[0] = math.Inf(-1) },
		"row nan":           func(p *Problem) { p.RowLower[0] = math.NaN() },
		"row index":         func(p *Problem) { p.RowIndex[0] = 3 },
		"coef inf":          func(p *Problem) { p.Value[0] = math.Inf(-1) },
		"short bounds":      func(p *Problem) { p.ColUpper = nil },
		"short col start":   func(p *Problem) { p.ColStart = p.ColStart[:1] },
		"bad type":          func(p *Problem) { p.ColType = []VarType{7} },
		"names length":      func(p *Problem) { p.ColNames = []string{"a", "b"} },
		"offset nan":        func(p *Problem) { p.Offset = math.NaN() },
		"row upper missing": func(p *Problem) { p.RowUpper = nil },
	}
	for name, mutate := range cases {
		p := base()
		mutate(p)
		err := p.Validate()
		if !errors.Is(err, ErrInvalidProblem) {
			t.Errorf("%s: err = %v, want ErrInvalidProblem", name, err)
		}
	}
	if err := base().Validate(); err != nil {
		t.Errorf("valid problem rejected: %v", err)
	}
	if err := (&Problem{}).Validate(); err != nil {
		t.Errorf("empty problem rejected: %v", err)
	}
}

func TestRowBuilderMatchesColumnForm(t *testing.T) {
	b := NewRowBuilder(Maximize)
	x := b.AddVar(3, 0, Inf, Continuous, "x")
	y := b.AddVar(5, 0, Inf, Continuous, "y")
	b.AddConstraint(math.Inf(-1), 4, []int{x}, []float64{1}, "")
	b.AddConstraint(math.Inf(-1), 12, []int{y, y}, []float64{1, 1}, "") // duplicates are summed
	b.AddConstraint(math.Inf(-1), 18, []int{y, x}, []float64{2, 3}, "")
	b.AddConstraint(0, 1, []int{x}, []float64{0}, "") // explicit zero is dropped
	p := b.Problem()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	rx, vx := p.Column(x)
	ry, vy := p.Column(y)
	if len(rx) != 2 || rx[0] != 0 || rx[1] != 2 || vx[1] != 3 {
		t.Errorf("column x = %v %v", rx, vx)
	}
	if len(ry) != 2 || ry[0] != 1 || vy[0] != 2 || ry[1] != 2 || vy[1] != 2 {
		t.Errorf("column y = %v %v", ry, vy)
	}
}

func TestCloneIsDeep(t *testing.T) {
	p := &Problem{}
	p.AddRow(0, 1, "")
	p.AddCol(1, 0, 1, Binary, []int{0}, []float64{1}, "a")
	q := p.Clone()
	q.Obj[0], q.Value[0], q.ColNames[0], q.ColType[0] = 9, 9, "b", Integer
	if p.Obj[0] != 1 || p.Value[0] != 1 || p.ColNames[0] != "a" || p.ColType[0] != Binary {
		t.Error("Clone shares storage with the original")
	}
	if lo, up := p.Bounds(0); lo != 0 || up != 1 {
		t.Errorf("binary bounds %g %g", lo, up)
	}
}

func TestErrorsNameEngine(t *testing.T) {
	err := Errorf("clp", "solve", ErrEngine, "status %d", 4)
	if !errors.Is(err, ErrEngine) || err.Error() != "solvers: clp: solve: engine failure: status 4" {
		t.Errorf("Errorf = %q", err)
	}
	p := &Problem{Obj: []float64{math.NaN()}, ColLower: []float64{0}, ColUpper: []float64{1}, ColStart: []int{0, 0}}
	err = WithEngine("highs", p.Validate())
	var se *Error
	if !errors.As(err, &se) || se.Engine != "highs" || !errors.Is(err, ErrInvalidProblem) {
		t.Errorf("WithEngine = %v", err)
	}
}

func TestStatusNames(t *testing.T) {
	for s := StatusUnknown; s <= NumericalTrouble; s++ {
		got, err := ParseStatus(s.String())
		if err != nil || got != s {
			t.Errorf("ParseStatus(%q) = %v, %v", s.String(), got, err)
		}
	}
	if !TimeLimit.Limit() || Optimal.Limit() {
		t.Error("Limit classification")
	}
}

func TestRegistryUnknownName(t *testing.T) {
	_, err := New("no-such-engine", false)
	if !errors.Is(err, ErrUnknownSolver) {
		t.Errorf("New(unknown) = %v, want ErrUnknownSolver", err)
	}
}
