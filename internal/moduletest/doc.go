// Package moduletest checks that sdcopt is an importable module: its test
// builds a tiny module in a temporary directory that requires
// github.com/sdcopt/sdcopt through a replace directive pointing at this
// checkout, and runs a program that calls the public API (a registry
// solve of a model read back from MPS, cell bounds, MDAV, freeform
// k-anonymity with verification). The package has no code of its own.
package moduletest
