// Warm re-solves of a CLP session that keep the factorization.
//
// Clp_primal and Clp_dual (the C interface) call ClpSimplex::primal and
// ::dual with startFinishOptions 0: every re-solve deletes the work areas
// and the basis factorization at its end and refactorizes at its start.
// After only an objective, sense or bound change (the basis matrix is the
// same) that is most of the work of a re-solve that takes a few
// iterations. These calls pass startFinishOptions 1 (keep the work areas
// and the factorization at the end) + 2 (start from the kept
// factorization when the number of rows is the same); the session uses
// them only when no row or column was added since the last solve.
// Bit 4 (skip re-initialising the work areas) is not used: bounds and
// objective are copied in again by every start.

#include <ClpSimplex.hpp>
#include <Clp_C_Interface.h>

namespace {
struct clpWarmView {
  ClpSimplex *model_;
  void *handler_;
};
ClpSimplex *warmModelOf(Clp_Simplex *m) { return reinterpret_cast<clpWarmView *>(m)->model_; }
} // namespace

extern "C" {

int sdcopt_clp_primal_keep(Clp_Simplex *m) { return warmModelOf(m)->primal(0, 1 | 2); }

int sdcopt_clp_dual_keep(Clp_Simplex *m) { return warmModelOf(m)->dual(0, 1 | 2); }
}
