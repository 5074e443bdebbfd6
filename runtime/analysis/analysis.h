// SPDX-License-Identifier: MIT
// analysis/analysis.h: what is decided over a finished search (docs/DESIGN.md,
// "Runtime layers"). Offers: the liveness check over the edge table
// (liveness.c, with fair.c, scc.c and lasso.c). Requires: engine/engine.h
// (by the layers' order; it uses the context, the stores and the pool's
// team).
#ifndef MCRT_ANALYSIS_H
#define MCRT_ANALYSIS_H

#include "engine/engine.h"

// ---------------------------------------------------------------------------
// The liveness check of every property instance over the edge table
// (store/edges.c) after an exhaustive search. Two engines decide the
// instances: fair.c's, the default, decomposes the graph once into its
// fair components on every thread (scc.c) and confines each instance to
// them; liveness.c's, the serial one kept as the oracle (`--liveness-engine
// serial`), decomposes each instance's part of the graph with Tarjan's
// algorithm on one thread. Both pick the same witness and build the same
// lasso (lasso.c), so they give the same counterexample.

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

// ---------------------------------------------------------------------------
// lasso.c: an instance's view of the states, and its counterexample.

static inline uint64_t mcrt_live_rule(const McrtLiveGraph *g, uint64_t e) {
  uint32_t r = 0;
  memcpy(&r, g->rules + e * g->rule_bytes, g->rule_bytes);
  return r;
}
// P (q = 0) or Q (q = 1) of instance i in state v.
static inline bool mcrt_live_pbit(const McrtLiveGraph *g, uint64_t v, uint32_t i, int q) {
  uint32_t b = 2 * i + (uint32_t)q;
  return g->bits[v * g->bits_bytes + b / 8] >> (b % 8) & 1;
}
// Whether v belongs to the states the form confines a fair component to
// (!P for <> P and []<> P, !Q for P ~> Q, every state otherwise).
bool mcrt_live_allowed(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form, uint64_t v);
// [] P: the first state (in id order) where P fails, as a prefix-only
// counterexample in out (untouched when there is none).
void mcrt_live_always(const McrtLiveGraph *g, uint32_t inst, McrtLasso *out);
// <> P and P ~> Q: the allowed states reachable from the form's sources
// (the initial states; the states where P && !Q) through allowed states, by
// a BFS: reached[v] = 1 for them, queue their order (returned: how many),
// par their BFS parents (UINT32_MAX at a source).
uint64_t mcrt_live_confine(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form,
                           uint8_t *reached, uint32_t *par, uint32_t *queue);
// The counterexample through the fair component members[0 .. n) (in[v]
// is 1 exactly for them), whose loop starts at `entry`: the stem from the
// BFS parents par (NULL: none, the log's path leads to entry), the cycle.
void mcrt_lasso_build(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form,
                      const uint32_t *members, uint64_t n, const uint8_t *in, uint64_t entry,
                      const uint32_t *par, McrtLasso *out);
void mcrt_lasso_free(McrtLasso *l);

// ---------------------------------------------------------------------------
// scc.c: the strongly connected components of the graph's parts, on a team.

enum { MCRT_SCC_OK, MCRT_SCC_NOMEM, MCRT_SCC_STOPPED };
// The states v with part[v] != 0 and the edges between states of the same
// part: comp[v] is a representative of v's component (UINT32_MAX where
// part[v] is 0). Returns MCRT_SCC_OK, NOMEM, or STOPPED (mcrt_signal).
int mcrt_scc_decompose(const McrtLiveGraph *g, const uint32_t *part, uint32_t *comp,
                       McrtTeam *team);
// The bytes a decomposition of n states takes, besides its stacks.
size_t mcrt_scc_bytes(uint64_t nstates);

// ---------------------------------------------------------------------------
// fair.c: every instance in one decomposition.

// Decides instances 0 .. n-1 (forms[i]) on the team: *which is the first
// violated (n: none) with its counterexample in out. False: out of memory
// or stopped by a signal (no verdict). *components: the components judged.
bool mcrt_fair_check(const McrtLiveGraph *g, const McrtTemporal *forms, uint32_t n,
                     McrtTeam *team, uint32_t *which, McrtLasso *out, uint64_t *components);
// The bytes its arrays take for a graph of nstates states.
size_t mcrt_fair_bytes(uint64_t nstates);

// ---------------------------------------------------------------------------
// liveness.c: the serial engine and the check of a run.

// Decides instance `inst` of the given form over the graph. False: out of
// memory, or a signal asked to stop (mcrt_signal): no verdict.
bool mcrt_live_find(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form, McrtLasso *out);

// After an exhaustive search without violation: checks every property
// instance; the first one violated becomes ctx->viol (kind LIVENESS).
void mcrt_liveness_check(McrtCtx *ctx);
// For the summary: instances checked (all of them when the check ran).
bool mcrt_liveness_done(const McrtCtx *ctx);
// What violates a form: "<> P: a fair behaviour on which P never holds".
const char *mcrt_form_text(McrtTemporal f);
double mcrt_liveness_time(const McrtCtx *ctx);

#endif
