// SPDX-License-Identifier: MIT
// simulate.c: random simulation, --simulate RUNS --depth D --seed S, for
// state spaces too big to exhaust. Each run starts from an initial state
// chosen at random and takes up to D steps, each an enabled action binding
// chosen at random (uniformly), checking on the way what the search checks
// in every state it meets: the invariants, the asserts and run-time errors
// of the actions, deadlocks (a state without an enabled action where no
// terminal predicate holds, unless --no-deadlock). A violation ends the
// simulation with the usual trace (the run's own steps, replayed: the
// output layer prints it, report.c). No violation proves nothing: the
// verdict says so and the exit code is 3 (incomplete), never 0: the run
// ends at the bound MCRT_BOUND_SIMULATION. The counts are the runs': the
// distinct states met, the steps taken (transitions), the longest run
// (depth), the bindings of each action taken, the reachables met and, with
// --no-deadlock, the deadlocks met. Each run, once over, goes to the
// caller's hook (--print-runs prints it: report.c).
//
// The random numbers are splitmix64 from the seed, one stream for all the
// runs: the same seed gives the same runs on every machine. Symmetry
// reduction plays no part (the runs are the spec's own steps).
#include "engine/engine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

// A number in [0, n), without modulo bias.
static uint64_t pick(uint64_t *state, uint64_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t r;
  do
    r = next_random(state);
  while (r >= limit);
  return r % n;
}

typedef struct Sim {
  McrtCtx *ctx;
  uint64_t *path; // the current run's rules: path[0] its init rule
  uint64_t len, cap;
  uint64_t *enabled;
  uint64_t steps, run;
  McrtRunHook *hook; // called with each run once over (NULL: none)
  void *hook_arg;
} Sim;

static void push_rule(Sim *s, uint64_t rule) {
  if (s->len == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->path = realloc(s->path, s->cap * sizeof *s->path);
    if (!s->path)
      mcrt_die("out of memory");
  }
  s->path[s->len++] = rule;
}

// Records the violation of the current run (its path so far), for the
// trace printer. Returns true (stop).
static bool found(Sim *s, McrtViolationKind kind) {
  McrtViolation *v = mcrt_path_violation(s->ctx, kind, s->len);
  memcpy(v->path, s->path, s->len * sizeof *v->path);
  return true;
}

// A run-time error or failed assert reported by generated code; `rule`
// (init or action) is the failing step when step is true.
static bool found_error(Sim *s, bool step, bool init, uint64_t rule) {
  McrtCtx *ctx = s->ctx;
  McrtError e = ctx->err;
  if (e.abandoned == MCRT_CALL_INTERRUPTED) { // a signal: the simulation ends, no violation
    mcrt_clear_error(ctx);
    return false;
  }
  snprintf(ctx->viol.message, sizeof ctx->viol.message, "%s", e.message);
  found(s, e.is_assert ? MCRT_VIOL_ASSERT : MCRT_VIOL_RUNTIME_ERROR);
  McrtViolation *v = &ctx->viol;
  v->file = e.file, v->line = e.line, v->col = e.col;
  if (step) {
    v->has_step = true;
    v->step_init = init;
    v->step_rule = rule;
  }
  return true;
}

// Remembers a state met (the trace printer checks that each state of the
// trace is one the checker met). True when it is new.
static bool visit(McrtCtx *ctx, const uint8_t *state) {
  if (mcrt_fpset_wants_grow(&ctx->set) && !mcrt_fpset_grow(&ctx->set))
    mcrt_die("out of memory");
  if (mcrt_fpset_insert(&ctx->set, mcrt_fingerprint(state, ctx->state_bytes, ctx->fp_bits)) !=
      MCRT_FP_NEW)
    return false;
  ctx->states++;
  return true;
}

// The reachables a new state meets. False: a run-time error (recorded).
static bool reach(Sim *s, const uint8_t *state) {
  McrtCtx *ctx = s->ctx;
  const McrtModel *m = ctx->model;
  for (uint32_t i = 0; i < m->nreachables && ctx->nreached < m->nreachables; i++) {
    if (ctx->reached[i])
      continue;
    bool holds = m->check_reachable(ctx, i, state);
    if (mcrt_failed(ctx))
      return !found_error(s, false, false, 0);
    if (holds)
      ctx->reached[i] = true, ctx->nreached++;
  }
  return true;
}

// Checks a state met by a run. True: a violation (recorded).
static bool check_state(Sim *s, const uint8_t *state) {
  McrtCtx *ctx = s->ctx;
  const McrtModel *m = ctx->model;
  if (visit(ctx, state) && !reach(s, state))
    return true;
  if (m->ninvariants > 0) {
    int k = m->check_invariants(ctx, state);
    if (mcrt_failed(ctx))
      return found_error(s, false, false, 0);
    if (k >= 0) {
      const McrtPredicate *p = &m->invariants[k];
      snprintf(ctx->viol.message, sizeof ctx->viol.message, "invariant '%s' does not hold",
               p->name);
      found(s, MCRT_VIOL_INVARIANT);
      ctx->viol.name = p->name;
      ctx->viol.file = p->file, ctx->viol.line = p->line;
      return true;
    }
  }
  return false;
}

// One run. True: a violation ended the simulation.
static bool run(Sim *s, uint64_t *rng, uint8_t *cur, uint8_t *next) {
  McrtCtx *ctx = s->ctx;
  const McrtModel *m = ctx->model;
  const McrtOptions *opt = ctx->opt;
  s->len = 0;
  uint64_t n = 0;
  for (uint64_t r = 0; r < m->ninit_rules; r++) {
    if (mcrt_replay_step(ctx, true, r, NULL, next))
      s->enabled[n++] = r;
    else if (mcrt_failed(ctx))
      return found_error(s, true, true, r);
  }
  if (!n) {
    snprintf(ctx->viol.message, sizeof ctx->viol.message, "no initial state: no init block applies");
    return found(s, MCRT_VIOL_NO_INITIAL_STATE);
  }
  uint64_t r = s->enabled[pick(rng, n)];
  // (It ran just now: a failure is a call of C abandoned, watchdog.c.)
  if (!mcrt_replay_step(ctx, true, r, NULL, cur) && mcrt_failed(ctx))
    return found_error(s, true, true, r);
  push_rule(s, r);
  if (check_state(s, cur))
    return true;
  for (uint64_t depth = 0; depth < opt->sim_depth; depth++) {
    if (m->has_constraint && !m->within_constraints(ctx, cur))
      return false;
    n = 0;
    for (uint64_t a = 0; a < m->nrules; a++) {
      if (mcrt_replay_step(ctx, false, a, cur, next))
        s->enabled[n++] = a;
      else if (mcrt_failed(ctx))
        return found_error(s, true, false, a);
    }
    if (!n) {
      bool terminal = m->has_terminal && m->is_terminal(ctx, cur);
      if (mcrt_failed(ctx))
        return found_error(s, false, false, 0);
      if (!terminal)
        ctx->deadlocks += !opt->deadlock; // (each time a run meets one)
      if (terminal || !opt->deadlock)
        return false;
      snprintf(ctx->viol.message, sizeof ctx->viol.message, "deadlock: no action is enabled%s",
               m->has_terminal ? " and no terminal predicate holds" : "");
      return found(s, MCRT_VIOL_DEADLOCK);
    }
    r = s->enabled[pick(rng, n)];
    if (!mcrt_replay_step(ctx, false, r, cur, next) && mcrt_failed(ctx))
      return found_error(s, true, false, r);
    push_rule(s, r);
    s->steps++;
    ctx->transitions++;
    ctx->fired[mcrt_find_group(m->actions, m->nactions, r)]++;
    if (depth + 1 > ctx->depth)
      ctx->depth = depth + 1;
    memcpy(cur, next, ctx->state_bytes);
    if (check_state(s, cur))
      return true;
  }
  return false;
}

// One run, then the hook (with the run's steps).
static bool walk(Sim *s, uint64_t *rng, uint8_t *cur, uint8_t *next) {
  bool violation = run(s, rng, cur, next);
  if (s->hook && s->len)
    s->hook(s->hook_arg, s->ctx, s->run, s->path, s->len);
  return violation;
}

bool mcrt_simulate(const McrtModel *model, const McrtOptions *opt, McrtSimulation *out,
                   McrtRunHook *hook, void *hook_arg) {
  memset(out, 0, sizeof *out);
  out->opt = *opt;
  out->opt.symmetry = MCRT_SYM_OFF;
  out->opt.liveness = MCRT_LIVENESS_OFF;
  McrtCtx *ctx = malloc(sizeof *ctx);
  if (!ctx || !mcrt_ctx_init(ctx, model, &out->opt)) {
    free(ctx);
    return false;
  }
  out->ctx = ctx;
  size_t bytes = ctx->state_bytes + MCRT_SLACK;
  uint64_t most = model->nrules > model->ninit_rules ? model->nrules : model->ninit_rules;
  Sim s = {.ctx = ctx, .enabled = malloc((most + 1) * sizeof *s.enabled), .hook = hook,
           .hook_arg = hook_arg};
  uint8_t *cur = calloc(1, bytes), *next = calloc(1, bytes);
  if (!s.enabled || !cur || !next)
    mcrt_die("out of memory");
  uint64_t rng = opt->sim_seed;
  for (s.run = 0; s.run < opt->sim_runs && !out->violation && !mcrt_signal; s.run++)
    out->violation = walk(&s, &rng, cur, next);
  out->runs = s.run;
  out->steps = s.steps;
  if (!out->violation && ctx->bound == MCRT_BOUND_NONE) // random runs prove nothing
    mcrt_stop_at(ctx, mcrt_signal ? MCRT_BOUND_INTERRUPTED : MCRT_BOUND_SIMULATION,
                 MCRT_PHASE_SEARCH);
  atomic_store(&mcrt_search_over, true); // the runs are over (watchdog.c)
  free(s.path), free(s.enabled), free(cur), free(next);
  return true;
}

void mcrt_simulation_free(McrtSimulation *sim) {
  if (sim->ctx)
    mcrt_ctx_free(sim->ctx);
  free(sim->ctx);
  sim->ctx = NULL;
}
