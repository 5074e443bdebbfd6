// engine/engine.h: the engines (docs/DESIGN.md, "Runtime layers"). Offers:
// the serial breadth-first search and the steps every engine shares
// (search.c), the multi-threaded search (threads.c), --search odpor
// (odpor.c), --simulate's random runs (simulate.c). Requires:
// context/context.h.
#ifndef MCRT_ENGINE_H
#define MCRT_ENGINE_H

#include "context/context.h"

// ---------------------------------------------------------------------------
// search.c: the serial engine, and the steps other engines take in the same
// order to give the same results.
// Runs the search to the end, the first violation, or a bound.
void mcrt_search(McrtCtx *ctx);
// Hands the successors of a state to the search (generated successors(),
// through por.c's choice under --por).
void mcrt_expand(McrtCtx *ctx, const uint8_t *state);
// The start (clock, initial states) and end (the depth bound, reachables,
// time) of a search.
void mcrt_search_begin(McrtCtx *ctx);
void mcrt_search_end(McrtCtx *ctx);
// At the end of a complete search (ctx->stop unset): a `reachable` that no
// state satisfied, or a scenario or accepting predicates that no state
// satisfied, is a violation. (mcrt_search_end calls it; so does an engine
// with its own end, once ctx->reached and ctx->accepting are totals.)
void mcrt_never_reached(McrtCtx *ctx);
// One successor p of the state being expanded (state: its bytes, needed
// when it is new): a transition, the set, the log. True: stop.
bool mcrt_take_successor(McrtCtx *ctx, const McrtPending *p, const uint8_t *state,
                         const McrtPrecheck *pre);
// Generated code failed (error e) on state id; the violation. True: stop
// (false: the violation is held, or a held one is as short).
bool mcrt_state_failed(McrtCtx *ctx, uint64_t id, const McrtError *e, bool step_allowed);
// State id, expanded, had no successor: terminal, or a deadlock. True: stop.
bool mcrt_no_successor(McrtCtx *ctx, uint64_t id, const uint8_t *state);
// A violation is held (ctx->held): expands the rest of the level, the states
// id .. end - 1 at the head of the frontier, only to look for a shorter
// violation (one of the state itself: a deadlock, an error without a step),
// then stops the search.
void mcrt_finish_level(McrtCtx *ctx, uint64_t id, uint64_t end);
// Prints a progress line (--progress).
void mcrt_progress(McrtCtx *ctx, double now);
// Grows the fingerprint set within --memory. False: the bound (hit).
bool mcrt_grow_set(McrtCtx *ctx);
// What --memory counts while the set grows (the other stores, the new table).
size_t mcrt_grow_set_bytes(const McrtCtx *ctx);

// odpor.c: --search odpor. After the options are read: -1 to go on with the
// run as odpor.c's engine (installed in mcrt_engine), else an exit code
// (after a message on err): what the exploration cannot do.
int mcrt_odpor_prepare(const McrtModel *model, McrtOptions *opt, FILE *err);

// threads.c: the multi-threaded engine, n > 1 threads; the same results as
// mcrt_search.
void mcrt_threads_search(McrtCtx *ctx, uint32_t n);

// simulate.c: --simulate: random runs instead of the search, their context
// (its violation, if one was met) and counts. False: out of memory.
typedef struct McrtSimulation {
  McrtOptions opt; // the run's (no symmetry, no liveness)
  McrtCtx *ctx;
  bool violation;
  uint64_t runs, steps;
} McrtSimulation;
bool mcrt_simulate(const McrtModel *model, const McrtOptions *opt, McrtSimulation *out);
void mcrt_simulation_free(McrtSimulation *sim);

#endif
