//go:build cgo && coin

// Wall-clock time limits for CLP. Clp_setMaximumSeconds (the C interface)
// sets ClpMaxSeconds, which CLP compares with CoinCpuTime, the user CPU
// time of the process: on a loaded machine a solve overruns its limit by
// the time it waits for a core. ClpModel::setMaximumWallSeconds (CLP
// 1.16+) sets ClpMaxWallSeconds, compared with CoinWallclockTime in
// ClpModel::hitMaximumIterations, but only the C++ interface has it.
//
// Clp_Simplex is, in Clp_C_Interface.cpp of CLP 1.17, the struct
// { ClpSimplex *model_; CMessageHandler *handler_; }: the first field is
// the model. sdcopt_clp_check confirms this at run time on a fresh model
// (its dimensions read both ways) before the binding uses it.

#include <ClpSimplex.hpp>
#include <Clp_C_Interface.h>

namespace {
struct clpView {
  ClpSimplex *model_;
  void *handler_;
};
ClpSimplex *modelOf(Clp_Simplex *m) { return reinterpret_cast<clpView *>(m)->model_; }
} // namespace

extern "C" {

// sdcopt_clp_check reports 1 when the layout above holds for m (a model
// with nrows rows and ncols columns loaded through the C interface).
int sdcopt_clp_check(Clp_Simplex *m, int nrows, int ncols) {
  ClpSimplex *s = modelOf(m);
  if (s == nullptr) {
    return 0;
  }
  return s->numberRows() == nrows && s->numberColumns() == ncols && Clp_numberRows(m) == nrows;
}

// sdcopt_clp_set_wall_seconds sets the wall-clock limit of the next solves
// to secs from now (secs < 0: none).
void sdcopt_clp_set_wall_seconds(Clp_Simplex *m, double secs) { modelOf(m)->setMaximumWallSeconds(secs); }

// sdcopt_clp_hit_limit reports 1 when CLP's own check of its iteration
// and time limits (the one its simplex loops make) says stop.
int sdcopt_clp_hit_limit(Clp_Simplex *m) { return modelOf(m)->hitMaximumIterations() ? 1 : 0; }
}
