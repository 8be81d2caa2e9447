// Package solvertest is the conformance suite that every backend of package
// solvers runs, in the manner of gonum's lapack/testlapack: one set of
// checks, written once against the solvers.Solver interface, gated by the
// backend's declared Capabilities.
//
// Every check is a function returning an error, so the suite can also be run
// against deliberately wrong backends to show that it catches them
// (wrong_test.go). Run wraps the checks in subtests; a backend's test is
//
//	func TestConformance(t *testing.T) {
//		solvertest.Run(t, func() (solvers.Solver, error) { return New() })
//	}
//
// LP optima are certified, not compared with stored numbers: a result
// passes when x is primal feasible, (y, d) satisfies d = c - Aᵀy with the
// sign convention of package solvers, complementary slackness holds and the
// primal and dual objectives agree (CheckKKT). Small MIPs are certified by
// brute-force enumeration of their integer points. Hand-made models carry
// their known optimum with a comment deriving it.
//
// The package also holds the seeded instance generators used by the
// cross-engine tests and benchmarks (generators.go).
package solvertest
