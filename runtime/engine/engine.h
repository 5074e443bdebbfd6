// SPDX-License-Identifier: MIT
// engine/engine.h: the engines (docs/DESIGN.md, "Runtime layers"). Offers:
// the serial breadth-first search and the steps every engine shares
// (search.c), the multi-threaded search (threads.c), --search odpor
// (odpor.c), --simulate's random runs (simulate.c). Requires:
// context/context.h.
#ifndef MCRT_ENGINE_H
#define MCRT_ENGINE_H

#include "context/context.h"

#include <pthread.h>

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
// Prints a progress line (--progress) when one is due.
void mcrt_progress(McrtCtx *ctx);
#define MCRT_PROGRESS_EVERY 1024 // states expanded between two looks at the clock
// Grows the fingerprint set within --memory. False: the bound (hit).
bool mcrt_grow_set(McrtCtx *ctx);
// What --memory counts while the set grows (the other stores, the new table).
size_t mcrt_grow_set_bytes(const McrtCtx *ctx);

// search.c: a state's successors, as model->successors computes them:
// the search's every expansion goes through here, counted for the profile
// (context/profile.c), and now and then timed action by action.
void mcrt_successors(McrtCtx *ctx, const uint8_t *state);

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
// Called with each run once it is over: its number (0 first) and its
// rules (path[0] the init rule), valid during the call.
typedef void McrtRunHook(void *arg, McrtCtx *ctx, uint64_t run, const uint64_t *path, size_t n);
bool mcrt_simulate(const McrtModel *model, const McrtOptions *opt, McrtSimulation *out,
                   McrtRunHook *hook, void *hook_arg);
void mcrt_simulation_free(McrtSimulation *sim);

// ---------------------------------------------------------------------------
// pool.c: the threads of a parallel engine (threads.c, mpi.c's threads in a
// rank) and the barrier where they meet; the caller is thread 0.

// A thread's progress, on a line of its own.
typedef struct McrtPoolBeat {
  _Alignas(MCRT_LINE) _Atomic uint64_t n;
} McrtPoolBeat;
typedef struct McrtPool {
  uint32_t n; // threads running, the caller included (those the system gave)
  pthread_t *threads;
  // The barrier: the n threads meet; the last to arrive starts the next
  // generation.
  pthread_mutex_t mu;
  pthread_cond_t cv;
  uint32_t arrived;
  _Atomic uint64_t generation;
  McrtPoolBeat *beat; // per thread: the progress it made
  bool poll;          // a waiter may poll while others beat: no more threads than cores
  // MCRT_THREAD_WAIT set: each thread times its waits at the barrier, and
  // the totals go to stderr at the end (what the barriers cost, measured
  // apart from the load on the machine: CPU time counts a spinning wait).
  bool time_waits;
  double *waited;
  uint64_t barriers;
} McrtPool;
// Starts threads 1..n-1, thread i running loop(args + i * stride); when the
// system refuses one, goes on with those started (P->n). False: out of
// memory (no thread started).
bool mcrt_pool_start(McrtPool *P, uint32_t n, void *(*loop)(void *), void *args, size_t stride);
// Thread `self` meets the others.
void mcrt_pool_barrier(McrtPool *P, uint32_t self);
// Thread `self` made progress (a chunk, a block of a phase).
static inline void mcrt_pool_beat(McrtPool *P, uint32_t self) {
  _Atomic uint64_t *b = &P->beat[self].n;
  atomic_store_explicit(b, atomic_load_explicit(b, memory_order_relaxed) + 1, memory_order_relaxed);
}
// Once threads 1..n-1 have returned from their loops: joins them, frees the
// pool (MCRT_THREAD_WAIT: prints the waits, as NAME's).
void mcrt_pool_join(McrtPool *P, const char *name);
// A team: n threads (the caller is thread 0) that run one function at a
// time, all of them, and return together (fork and join at the pool's
// barrier). The analyses after the search use it (analysis/).
typedef struct McrtTeam McrtTeam;
typedef struct McrtTeamSeat {
  McrtTeam *team;
  uint32_t self;
} McrtTeamSeat;
struct McrtTeam {
  McrtPool pool; // pool.n: the threads the system gave (1: no pool started)
  McrtTeamSeat *seats;
  void (*fn)(void *arg, uint32_t self);
  void *arg;
  bool quit;
};
// False: out of memory. With fewer threads than asked, t->pool.n says how many.
bool mcrt_team_start(McrtTeam *t, uint32_t n);
// Runs fn(arg, self) on every thread of the team, self from 0 to
// t->pool.n - 1, and returns when all have returned.
void mcrt_team_run(McrtTeam *t, void (*fn)(void *arg, uint32_t self), void *arg);
void mcrt_team_stop(McrtTeam *t);
// A worker's own context beside the run's ctx: the model, the options, its
// own error slot and symmetry scratch; emit hands its successors to the
// engine (McrtCtx.emit), worker is the engine's.
void mcrt_worker_ctx(McrtCtx *wc, const McrtCtx *ctx,
                     bool (*emit)(McrtCtx *, const uint8_t *, uint32_t, uint64_t), void *worker);

#endif
