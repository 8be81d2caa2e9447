package solvers

// Capabilities say what an engine can do. The conformance suite runs the
// checks that a backend's capabilities enable. The JSON names are part of
// the CLI's stable lower_snake_case output (sdcopt solvers --format json).
type Capabilities struct {
	LP          bool `json:"lp"`          // continuous problems
	Integer     bool `json:"integer"`     // integer and binary columns
	Duals       bool `json:"duals"`       // row duals and reduced costs for LPs
	Incremental bool `json:"incremental"` // NewSession: add columns/rows, change objective and bounds, re-solve
	WarmStart   bool `json:"warm_start"`  // an LP re-solve in a session starts from the previous basis
	TimeLimit   bool `json:"time_limit"`  // Params.TimeLimit is honoured
}

// Solver is one engine. Implementations are safe for use by one goroutine at
// a time per Solver value; Solve itself may be called repeatedly. Engines
// whose instances are independent (all of sdcopt's) can be used from several
// goroutines by creating one Solver per goroutine with New.
type Solver interface {
	// Name is the registry name ("highs", "lpsolve", "clp", "cbc").
	Name() string
	// Version is the engine's own version string.
	Version() string
	Capabilities() Capabilities
	// Solve solves p from scratch. The error is non-nil only when the call
	// failed (invalid problem, unsupported feature, engine crash); the
	// model's own outcome is in Result.Status.
	Solve(p *Problem, prm *Params) (*Result, error)
	// NewSession loads p into a persistent engine instance for incremental
	// re-solves. Engines without Capabilities().Incremental return an
	// error wrapping ErrUnsupported.
	NewSession(p *Problem, prm *Params) (Session, error)
}

// Session is a persistent engine instance holding one model. Changes are
// applied to the engine's copy; Solve re-optimizes, warm-started from the
// previous basis when the engine supports it. A Session is not safe for
// concurrent use. Close releases the engine's memory; it is idempotent.
type Session interface {
	Solve() (*Result, error)
	// AddCols appends columns in CSC form: column k has objective obj[k],
	// bounds [lo[k], up[k]], type types[k] (types may be nil = continuous)
	// and entries rows[start[k]:start[k+1]] / vals[...] on existing rows.
	// start has len(obj)+1 entries.
	AddCols(obj, lo, up []float64, types []VarType, start, rows []int, vals []float64) error
	// AddRows appends rows in CSR form over existing columns.
	AddRows(lo, up []float64, start, cols []int, vals []float64) error
	// SetObjective replaces objective coefficients of the given columns.
	SetObjective(cols []int, obj []float64) error
	// SetSense changes the objective sense.
	SetSense(s Sense) error
	SetColBounds(j int, lo, up float64) error
	SetRowBounds(i int, lo, up float64) error
	NumCols() int
	NumRows() int
	Close() error
}
