package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/colgen"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/cli"
	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/shuttle"
	"github.com/sdcopt/sdcopt/solvers"
	"github.com/sdcopt/sdcopt/tabular/intervals"
)

// The library sentinels by exit code of the CLI contract.
var (
	// noSolutionErrors: the instance has no solution, or none was found
	// within the limits.
	noSolutionErrors = []error{
		cellbounds.ErrInfeasible, lp.ErrInfeasible, lp.ErrNoIntegerTable, lp.ErrNoKRegular, ip.ErrNoSolution,
		intervals.ErrInfeasible,
	}
	// badInputErrors: the input, a flag or a size cannot be used.
	badInputErrors = []error{
		datasets.ErrTooLarge, datasets.ErrNoSharedData,
		microagg.ErrEmpty, microagg.ErrNoAttributes, microagg.ErrNonFinite, microagg.ErrK, microagg.ErrGamma,
		microagg.ErrNotUnivariate, microagg.ErrMethod, microagg.ErrTooLarge, microagg.ErrInit,
		colgen.ErrInput, kanon.ErrK, kanon.ErrMethod, kanon.ErrPartition, kanon.ErrTooLarge, ip.ErrKAnonMIPTooLarge,
		ip.ErrPricingTooLarge, cellbounds.ErrNotApplicable, cellbounds.ErrUnknownMethod,
		cellbounds.ErrTooLarge, lp.ErrTooLarge, shuttle.ErrTooLarge,
		audit.ErrHistory, audit.ErrRequest, audit.ErrPolicy,
		solvers.ErrUnknownSolver, solvers.ErrUnavailable, solvers.ErrInvalidProblem, solvers.ErrUnsupported, solvers.ErrInvalidParams,
	}
	// engineErrors: an engine or a self-check failed.
	engineErrors = []error{solvers.ErrEngine, intervals.ErrNotSolved, lp.ErrNotSolved, microagg.ErrICSMCheck, colgen.ErrCheck}
)

// libraryError gives an error of a library call the exit code of the CLI
// contract, prefixed with what was being done. Unclassified errors are
// engine (internal) failures: a library that fails for a reason of the
// input says so with a sentinel.
func libraryError(prefix string, err error) error {
	if err == nil {
		return nil
	}
	var ee *cli.ExitError
	if errors.As(err, &ee) {
		return err
	}
	if prefix != "" {
		err = fmt.Errorf("%s: %w", prefix, err)
	}
	var ie *model.InconsistencyError
	if errors.As(err, &ie) {
		return &cli.ExitError{Code: cli.ExitNoSolution, Err: err}
	}
	// A file that cannot be read or parsed is bad input.
	var de *datasets.DataError
	var pe *fs.PathError
	if errors.As(err, &de) || errors.As(err, &pe) {
		return &cli.ExitError{Code: cli.ExitBadInput, Err: err}
	}
	for _, s := range noSolutionErrors {
		if errors.Is(err, s) {
			return &cli.ExitError{Code: cli.ExitNoSolution, Err: err}
		}
	}
	for _, s := range engineErrors {
		if errors.Is(err, s) {
			return &cli.ExitError{Code: cli.ExitEngine, Err: err}
		}
	}
	for _, s := range badInputErrors {
		if errors.Is(err, s) {
			return &cli.ExitError{Code: cli.ExitBadInput, Err: err}
		}
	}
	return &cli.ExitError{Code: cli.ExitEngine, Err: err}
}
