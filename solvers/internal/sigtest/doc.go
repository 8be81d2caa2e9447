// Package sigtest holds test helpers for the signal handling of the cgo
// backends: reading a signal's kernel-level action (handler, flags, mask)
// without cgo, and a harness that re-runs a test binary as a child which
// solves in a loop while its parent sends it SIGINT.
//
// A Go program relies on its runtime's handlers keeping SA_ONSTACK and
// SA_SIGINFO: a handler re-installed by C code with signal(3) loses both,
// and the next signal that lands on a thread running Go code is fatal
// ("non-Go code set up signal handler without SA_ONSTACK flag").
package sigtest
