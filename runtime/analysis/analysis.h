// analysis/analysis.h: what is decided over a finished search (docs/DESIGN.md,
// "Runtime layers"). Offers: the liveness check over the edge table
// (liveness.c). Requires: engine/engine.h (by the layers' order; it uses
// only the context and the stores).
#ifndef MCRT_ANALYSIS_H
#define MCRT_ANALYSIS_H

#include "engine/engine.h"

// ---------------------------------------------------------------------------
// liveness.c: the check of every property instance over the edge table
// (store/edges.c) after an exhaustive search.
// A counterexample: from state src (whose path from an initial state is the
// trace log's), the stem edges to loop_state, then the cycle edges back to
// it (none: loop_state has no successor and repeats). prefix_only: [] P
// fails in src, no cycle needed.
typedef struct McrtLasso {
  bool violated, prefix_only;
  uint64_t src, loop_state;
  uint64_t *stem, *cycle; // edge indices
  size_t nstem, ncycle;
  uint64_t components; // strongly connected components the search judged
} McrtLasso;

// Decides instance `inst` of the given form over the graph. False: out of
// memory, or a signal asked to stop (mcrt_signal): no verdict.
bool mcrt_live_find(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form, McrtLasso *out);
void mcrt_lasso_free(McrtLasso *l);

// After an exhaustive search without violation: checks every property
// instance; the first one violated becomes ctx->viol (kind LIVENESS).
void mcrt_liveness_check(McrtCtx *ctx);
// For the summary: instances checked (all of them when the check ran).
bool mcrt_liveness_done(const McrtCtx *ctx);
double mcrt_liveness_time(const McrtCtx *ctx);

#endif
