package highs

import "github.com/sdcopt/sdcopt/solvers"

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
		LPRank: 2,
		// First choice for MIPs: on 20,000 seeded random small integer
		// programs checked by enumeration (bench/README.md), HiGHS gave no
		// wrong optimum, CBC 2.10.8 gave 10 and lp_solve 2.
		MIPRank: 1,
	})
}
