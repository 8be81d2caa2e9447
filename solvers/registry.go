package solvers

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Engine is a registry entry.
type Engine struct {
	Name        string
	Description string
	// Probe reports whether the engine can run here and its version. A
	// non-nil error explains why not (wrapping ErrUnavailable). Probe is
	// called once and cached.
	Probe func() (version string, err error)
	// Capabilities of the engine (when available).
	Caps Capabilities
	// New returns a fresh engine instance.
	New func() (Solver, error)
	// Rank orders engines for "auto": lower is preferred. LPRank and
	// MIPRank are used for continuous and integer problems; a negative rank
	// excludes the engine from auto for that type.
	LPRank, MIPRank int
}

// Info describes an engine for listings (sdcopt solvers).
type Info struct {
	Name         string       `json:"name"`
	Version      string       `json:"version"`
	Available    bool         `json:"available"`
	Reason       string       `json:"reason,omitempty"`
	Description  string       `json:"description"`
	Capabilities Capabilities `json:"capabilities"`
}

type probed struct {
	once    sync.Once
	version string
	err     error
}

var (
	regMu   sync.RWMutex
	engines = map[string]*Engine{}
	probes  = map[string]*probed{}
)

// Register adds an engine. It panics on a duplicate or invalid name and on
// a nil New (programmer errors).
func Register(e Engine) {
	regMu.Lock()
	defer regMu.Unlock()
	if e.Name == "" || e.Name == "auto" {
		panic("solvers: Register: invalid engine name " + e.Name)
	}
	if e.New == nil {
		panic("solvers: Register: engine " + e.Name + " without New")
	}
	if _, dup := engines[e.Name]; dup {
		panic("solvers: Register: duplicate engine " + e.Name)
	}
	ec := e
	engines[e.Name] = &ec
	probes[e.Name] = &probed{}
}

// ImportHint is the import that links every engine into a program; the
// lookup errors name it when no engine is registered (a library user who
// forgot the blank import) or none registered can run.
const ImportHint = `import _ "github.com/sdcopt/sdcopt/solvers/all" (or one backend, e.g. ".../solvers/highs") to register the engines`

func unknownSolver(name string) error {
	names := Names()
	if len(names) == 0 {
		return &Error{Engine: name, Op: "lookup", Err: fmt.Errorf("%w %q: no engine is registered in this program; %s", ErrUnknownSolver, name, ImportHint)}
	}
	return &Error{Engine: name, Op: "lookup", Err: fmt.Errorf("%w %q (known: auto, %s)", ErrUnknownSolver, name, strings.Join(names, ", "))}
}

// noEngine is the error of "auto" when no registered engine fits: it says
// whether none is registered (the missing import) or which are registered
// but cannot run here (with the first reason).
func noEngine(mip bool) error {
	kind := "LP"
	if mip {
		kind = "MIP"
	}
	names := Names()
	if len(names) == 0 {
		return &Error{Engine: "auto", Op: "lookup", Err: fmt.Errorf("%w: no engine is registered in this program; %s", ErrUnavailable, ImportHint)}
	}
	var why []string
	for _, n := range names {
		if _, _, err := probe(n); err != nil {
			why = append(why, fmt.Sprintf("%s: %v", n, err))
		}
	}
	msg := fmt.Sprintf("no %s engine is available (registered: %s)", kind, strings.Join(names, ", "))
	if len(why) > 0 {
		msg += "; " + strings.Join(why, "; ")
	}
	return &Error{Engine: "auto", Op: "lookup", Err: fmt.Errorf("%w: %s; %s", ErrUnavailable, msg, ImportHint)}
}

// Known checks an engine name without probing or creating the engine: it
// returns nil for "auto" (and "", which New also reads as "auto") and for
// every registered engine, whether it is available here or not, and
// otherwise an *Error wrapping ErrUnknownSolver that lists the known names.
// The CLI uses it to reject a misspelt --solver even when the run needs no
// engine.
func Known(name string) error {
	if name == "" || name == "auto" {
		return nil
	}
	regMu.RLock()
	_, ok := engines[name]
	regMu.RUnlock()
	if !ok {
		return unknownSolver(name)
	}
	return nil
}

func probe(name string) (*Engine, string, error) {
	regMu.RLock()
	e, ok := engines[name]
	p := probes[name]
	regMu.RUnlock()
	if !ok {
		return nil, "", unknownSolver(name)
	}
	p.once.Do(func() {
		if e.Probe == nil {
			p.version = "unknown"
			return
		}
		p.version, p.err = e.Probe()
	})
	return e, p.version, p.err
}

// Names lists the registered engine names in sorted order (without "auto").
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	names := make([]string, 0, len(engines))
	for n := range engines {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// List describes every registered engine, probing availability.
func List() []Info {
	var out []Info
	for _, n := range Names() {
		e, v, err := probe(n)
		info := Info{Name: n, Version: v, Available: err == nil, Description: e.Description, Capabilities: e.Caps}
		if err != nil {
			info.Reason = err.Error()
			info.Capabilities = Capabilities{}
		}
		out = append(out, info)
	}
	return out
}

// New returns a fresh instance of the named engine. The name "auto" (or "")
// picks the preferred available engine for a MIP when mip is true, for an
// LP otherwise; use NewFor to decide from a Problem.
func New(name string, mip bool) (Solver, error) {
	if name == "" || name == "auto" {
		best := ""
		bestRank := 0
		for _, n := range Names() {
			e, _, err := probe(n)
			if err != nil {
				continue
			}
			r := e.LPRank
			if mip {
				r = e.MIPRank
				if !e.Caps.Integer {
					continue
				}
			}
			if r < 0 {
				continue
			}
			if best == "" || r < bestRank {
				best, bestRank = n, r
			}
		}
		if best == "" {
			return nil, noEngine(mip)
		}
		name = best
	}
	e, _, err := probe(name)
	if err != nil {
		return nil, err
	}
	return e.New()
}

// NewFor returns an instance of the named engine for problem p ("auto"
// decides by p.IsMIP()).
func NewFor(name string, p *Problem) (Solver, error) { return New(name, p.IsMIP()) }

// Lookup returns the registry entry and probed version of an engine.
func Lookup(name string) (Engine, string, error) {
	e, v, err := probe(name)
	if e == nil {
		return Engine{}, "", err
	}
	return *e, v, err
}

// Solve is a convenience: NewFor(name, p) then Solve(p, prm).
func Solve(name string, p *Problem, prm *Params) (*Result, error) {
	s, err := NewFor(name, p)
	if err != nil {
		return nil, err
	}
	return s.Solve(p, prm)
}
