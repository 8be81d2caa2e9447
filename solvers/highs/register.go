package highs

import "sdcopt/solvers"

func init() {
	solvers.Register(solvers.Engine{
		Name:        engineName,
		Description: "HiGHS 1.15 (WebAssembly, in-process via wazero)",
		Probe: func() (string, error) {
			c, err := load()
			if err != nil {
				return "", err
			}
			return c.version, nil
		},
		Caps: capabilities,
		New: func() (solvers.Solver, error) {
			s, err := New()
			if err != nil {
				return nil, err
			}
			return s, nil
		},
		LPRank:  2,
		MIPRank: 2,
	})
}
