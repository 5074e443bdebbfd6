// SPDX-License-Identifier: MIT
// search.c: the deterministic single-threaded breadth-first search, and the
// emit functions generated code calls back into (errors: core.c).
//
// Flow. initial_states() emits each initial state; every new state is given
// the next id (0, 1, 2, ... in discovery order), logged {parent, rule},
// checked against the invariants and reachables at discovery, and queued.
// States are then popped in id order (so the popped state's id is the pop
// counter) and expanded with successors(); each emitted successor counts as
// a transition whether or not it is new.
//
// Depth convention: initial states are at depth 0; a state first discovered
// from a state at depth d is at depth d + 1; the reported depth is that of the
// deepest discovered state (so a model with only initial states has depth 0).
// The number of BFS levels (BEEM's stat_bfs_levels) is depth + 1.
// BFS discovers states level by level, so the level of the state being
// expanded is tracked with one boundary id instead of per-state storage.
//
// --max-depth N: states at depth N are not expanded. Their successors are
// still computed (so asserts and deadlocks there are found and transitions
// counted) but only looked up: the run is incomplete only if one of them is a
// state the search has not seen.
//
// Symmetry (ctx->sym, runtime/store/symmetry.c): every emitted state, initial or
// successor, is replaced by the representative of its class before it is
// fingerprinted, so the set, the log and the frontier only ever see
// representatives; generated code expands them like any state.
//
// Successors are inserted in batches (see flush()), so that the cache misses
// of a large fingerprint set overlap; the results are those of a one-by-one
// search (ids, counts, the first violation and its trace).
//
// Deadlocks: expanded states without a successor where no terminal predicate
// holds (BEEM's stat_deadlocks: a DVE model has none). The first is a
// violation; with --no-deadlock the search goes on and counts them all.
// States outside the constraints are not expanded and never count.
//
// The run stops at the first violation or bound, with a shortest trace: a
// violation whose trace is one step longer than the level being expanded
// (a new state's, or an error of a step) is held, and the rest of the level
// is expanded only to look for a shorter one: a deadlock of a later state of
// the level, or an error of the state itself (see violation()). Every
// allocation goes
// through reserve() against --memory; hitting it is an orderly "incomplete".
// SIGINT and SIGTERM (main.c's handler sets mcrt_signal) are polled before
// each initial state and each expansion: the same orderly "incomplete".
//
// --checkpoint (checkpoint.c): between two expansions, when one is due or a
// signal came, the batch is flushed and the whole search saved; --resume
// starts the loop where a checkpoint left it instead of at the initial
// states. --disk (disk.c) changes nothing here: the log and the frontier
// fail like an allocation when a file does (MCRT_BOUND_DISK).
//
// A spec whose init blocks give no state is a violation of its own kind
// (no-initial-state), as TLC stops with an error: "every property holds"
// of an empty graph would be vacuous.
#include "engine/engine.h"

#include <stdlib.h>

#define MCRT_FP_INITIAL_CAPACITY (1u << 14)

// ---------------------------------------------------------------------------
// Stopping: bounds and violations.

static bool hit_bound(McrtCtx *ctx, McrtBound b) {
  mcrt_stop_at(ctx, b, MCRT_PHASE_SEARCH);
  return true;
}

// A violation of the given kind at `state` whose trace has `steps` steps;
// NULL when it is not kept (a held one is as short). While level d is
// expanded (ctx->cur_depth), a violation of d + 1 steps (a new state's, an
// error of a step) is held: the level goes on (mcrt_finish_level), and
// only one of d steps (a deadlock, an error of the expanded state itself)
// replaces it and stops the search. Among violations of the same length,
// the first met is kept. So the trace reported is a shortest one, as the
// MPI engine's, which finishes the level whatever it found (mpi.c).
static McrtViolation *violation(McrtCtx *ctx, McrtViolationKind kind, uint64_t state,
                                uint64_t steps) {
  if (ctx->held && steps > ctx->cur_depth)
    return NULL;
  ctx->has_violation = true;
  ctx->held = steps > ctx->cur_depth;
  ctx->stop = !ctx->held;
  McrtViolation *v = &ctx->viol;
  memset(v, 0, sizeof *v);
  v->kind = kind;
  v->state = state;
  v->loop_start = -1;   // a safety trace is a finite path, not a lasso
  return v;
}

// A run-time error or failed assert found by generated code, attributed to
// `state`, whose trace has `steps` steps (and to a failing step, one more,
// when the generated code named the rule and step_allowed says the error
// happened while computing a step). The error is cleared when the search
// goes on (a held violation). True: stop.
//
// A call of C that the watchdog abandoned (watchdog.c) ends the run at
// once: on a signal, incomplete, as the signal would have at the next
// expansion; past --extern-timeout, with this violation (or the one held,
// as short), without finishing the level: each state left could hang as
// long again. Its trace is then the first met, perhaps not a shortest.
static bool error_violation(McrtCtx *ctx, uint64_t state, uint64_t steps, bool step_allowed) {
  McrtError *e = &ctx->err;
  if (e->abandoned == MCRT_CALL_INTERRUPTED) {
    mcrt_clear_error(ctx);
    return hit_bound(ctx, MCRT_BOUND_INTERRUPTED);
  }
  bool step = step_allowed && e->has_rule;
  McrtViolation *v = violation(ctx, e->is_assert ? MCRT_VIOL_ASSERT : MCRT_VIOL_RUNTIME_ERROR,
                               state, steps + step);
  if (v) {
    snprintf(v->message, sizeof v->message, "%s", e->message);
    v->file = e->file, v->line = e->line, v->col = e->col;
    v->timed_out = e->abandoned == MCRT_CALL_TIMED_OUT;
    if (step) {
      v->has_step = true;
      v->step_init = e->rule_init;
      v->step_rule = e->rule;
    }
  }
  if (e->abandoned == MCRT_CALL_TIMED_OUT)
    ctx->held = false, ctx->stop = true;
  if (!ctx->stop)
    mcrt_clear_error(ctx);
  return ctx->stop;
}

// The log or the frontier failed: the memory, or with --disk a file (disk.c).
static bool store_failed(McrtCtx *ctx) {
  return hit_bound(ctx, mcrt_disk_failure(ctx->disk) ? MCRT_BOUND_DISK : MCRT_BOUND_MEMORY);
}

// Checks that `extra` more bytes fit under --memory.
static bool reserve(McrtCtx *ctx, size_t extra) {
  size_t total = mcrt_accounted_bytes(ctx) + extra;
  if (total > ctx->opt->memory) {
    hit_bound(ctx, MCRT_BOUND_MEMORY);
    return false;
  }
  if (total > ctx->peak_bytes)
    ctx->peak_bytes = total;
  return true;
}

size_t mcrt_grow_set_bytes(const McrtCtx *ctx) {
  // Everything accounted but the set, which the growth replaces (the old
  // table is given back behind the migration).
  size_t other = mcrt_accounted_bytes(ctx) - mcrt_fpset_bytes(&ctx->set);
  return other + mcrt_fpset_grow_bytes(&ctx->set);
}

bool mcrt_grow_set(McrtCtx *ctx) {
  size_t total = mcrt_grow_set_bytes(ctx);
  double t0 = mcrt_now();
  if (total > ctx->opt->memory || !mcrt_fpset_grow(&ctx->set)) {
    hit_bound(ctx, MCRT_BOUND_MEMORY);
    return false;
  }
  ctx->grow_s += mcrt_now() - t0;
  if (total > ctx->peak_bytes)
    ctx->peak_bytes = total;
  return true;
}

// ---------------------------------------------------------------------------
// Discovery.

// Records a state just inserted in the set. True when the search must stop.
// pre: the invariants and reachables already evaluated by another thread
// (NULL: evaluate them here).
static bool record_new(McrtCtx *ctx, const uint8_t *state, uint32_t parent, uint64_t rule,
                       uint64_t depth, const McrtPrecheck *pre) {
  const McrtModel *m = ctx->model;
  uint64_t limit = ctx->opt->max_states < MCRT_LOG_MAX_STATES ? ctx->opt->max_states
                                                               : MCRT_LOG_MAX_STATES;
  if (ctx->states >= limit) {
    ctx->log_full = ctx->opt->max_states > MCRT_LOG_MAX_STATES;
    return hit_bound(ctx, MCRT_BOUND_MAX_STATES);
  }
  if (mcrt_fpset_wants_grow(&ctx->set) && !mcrt_grow_set(ctx))
    return true;
  size_t need = mcrt_log_append_bytes(&ctx->log) + mcrt_queue_push_bytes(&ctx->queue);
  if (need && !reserve(ctx, need))
    return true;
  if (!mcrt_log_append(&ctx->log, parent, (uint32_t)rule))
    return store_failed(ctx);
  uint64_t id = ctx->states++;
  if (depth > ctx->depth)
    ctx->depth = depth;

  if (m->ninvariants > 0) {
    int k = pre ? pre->inv : m->check_invariants(ctx, state);
    if (mcrt_failed(ctx))
      return error_violation(ctx, id, depth, false);
    if (k >= 0) {
      McrtViolation *v = violation(ctx, MCRT_VIOL_INVARIANT, id, depth);
      const McrtPredicate *p = &m->invariants[k];
      if (v) {
        v->name = p->name;
        v->file = p->file, v->line = p->line;
        snprintf(v->message, sizeof v->message, "invariant '%s' does not hold", p->name);
      }
      return ctx->stop;
    }
  }
  if (ctx->nreached < m->nreachables) {
    for (uint32_t i = 0; i < m->nreachables; i++) {
      if (ctx->reached[i])
        continue;
      bool holds = pre ? (pre->reach >> i) & 1 : m->check_reachable(ctx, i, state);
      if (mcrt_failed(ctx))
        return error_violation(ctx, id, depth, false);
      if (holds)
        ctx->reached[i] = true, ctx->nreached++;
    }
  }
  if (m->is_accepting) { // a scenario or accepting predicates: count the accepting states
    bool accepting = m->is_accepting(ctx, state);
    if (mcrt_failed(ctx))
      return error_violation(ctx, id, depth, false);
    ctx->accepting += accepting;
  }
  // A net: token maxima, enabled transitions, deadlock; a counter's
  // capacity cuts the run short, which goes on (what it finds is real).
  if (ctx->net &&
      mcrt_net_state(ctx->net, id, state, parent == MCRT_LOG_INITIAL ? UINT32_MAX : (uint32_t)rule) &&
      ctx->bound == MCRT_BOUND_NONE)
    ctx->bound = MCRT_BOUND_NET_CAPACITY, ctx->bound_phase = MCRT_PHASE_SEARCH;
  if (ctx->live) { // liveness: the property bits
    uint8_t *bits;
    if (!mcrt_live_state(ctx->live, id, &bits))
      return hit_bound(ctx, MCRT_BOUND_MEMORY);
    if (bits) {
      ctx->model->property_bits(ctx, state, bits);
      if (mcrt_failed(ctx))
        return error_violation(ctx, id, depth, false);
    }
  }
  if (!mcrt_queue_push(&ctx->queue, state))
    return store_failed(ctx);
  return false;
}

// Inserts a fingerprint; with liveness, *id is then the state's id (new or
// old). Grows the set as needed; MCRT_FP_FULL means the memory bound.
static McrtFpResult insert(McrtCtx *ctx, McrtFp fp, uint32_t *id) {
  McrtFpResult r;
  *id = (uint32_t)ctx->states; // the id a new state will get
  for (;;) {
    r = ctx->live ? mcrt_fpset_insert_id(&ctx->set, fp, *id, id) : mcrt_fpset_insert(&ctx->set, fp);
    if (r != MCRT_FP_FULL || !mcrt_grow_set(ctx))
      return r;
  }
}

// Inserts an initial state; records it when new. True: stop.
static bool discover(McrtCtx *ctx, const uint8_t *state, uint32_t parent, uint64_t rule) {
  McrtFp fp = mcrt_fingerprint(state, ctx->state_bytes, ctx->fp_bits);
  uint32_t id;
  McrtFpResult r = insert(ctx, fp, &id);
  if (r == MCRT_FP_FULL)
    return true;
  if (r == MCRT_FP_OLD)
    return false;
  return record_new(ctx, state, parent, rule, 0, NULL);
}

void mcrt_emit_initial(McrtCtx *ctx, const uint8_t *state, uint64_t rule) {
  if (ctx->replaying)
    mcrt_die("mcrt_emit_initial called during replay");
  if (ctx->emit_initial) {
    ctx->emit_initial(ctx, state, rule);
    return;
  }
  if (ctx->stop)
    return;
  if (mcrt_signal) {
    hit_bound(ctx, MCRT_BOUND_INTERRUPTED);
    return;
  }
  if (ctx->sym) {
    mcrt_sym_canon(ctx->sym, state, ctx->canon);
    state = ctx->canon;
  }
  discover(ctx, state, MCRT_LOG_INITIAL, rule);
}

// Successors are not inserted one by one: each is hashed, its home slot
// prefetched, and it waits in a ring of MCRT_BATCH; when the ring is full,
// each emit first inserts the oldest, so every insertion comes MCRT_BATCH
// emits after its prefetch. (A batch inserted whole when full gave its last
// successors almost no time: their misses were 13% of a Petri net search.)
// The ring is flushed before anything that must come after its successors:
// a deadlock or error report, a new level, the end of the frontier. With a
// large set every insertion is a cache miss; this way the misses overlap,
// across the successors of several states. Processing in emit order keeps
// ids, counts and the first violation exactly those of an unbatched search;
// generated code and the loop may only compute a few successors more than
// needed before they see the stop.
static bool flush(McrtCtx *ctx) {
  uint32_t n = ctx->npending, h = ctx->pend_head;
  ctx->npending = 0, ctx->pend_head = 0;
  for (uint32_t k = 0; k < n && !ctx->stop; k++) {
    uint32_t i = (h + k) % MCRT_BATCH;
    if (mcrt_take_successor(ctx, &ctx->pend[i], ctx->pend_states + i * ctx->pend_stride, NULL))
      return true;
  }
  return ctx->stop;
}

bool mcrt_take_successor(McrtCtx *ctx, const McrtPending *p, const uint8_t *state,
                         const McrtPrecheck *pre) {
  const McrtOptions *opt = ctx->opt;
  if (ctx->held) // the counts stop where the held violation was met
    return false;
  // A state at the depth bound is not expanded: its successors are only
  // looked up, to tell whether the bound hid anything. When it did, they
  // are not transitions (as Rumur's --bound counts); when it did not, the
  // search was exhaustive after all and they are (see mcrt_search).
  if (p->at_bound) {
    uint32_t to;
    if (!ctx->live) {
      ctx->depth_truncated |= p->lookup != MCRT_LOOKUP_KNOWN && !mcrt_fpset_contains(&ctx->set, p->fp);
    } else if (!mcrt_fpset_find_id(&ctx->set, p->fp, &to)) {
      ctx->depth_truncated = true;
    } else if (!mcrt_live_edge(ctx->live, p->parent, to, p->rule)) {
      return hit_bound(ctx, MCRT_BOUND_MEMORY);
    }
    ctx->bound_transitions++;
    ctx->bound_fired[p->action]++;
    return false;
  }
  if (ctx->transitions >= opt->max_steps)
    return hit_bound(ctx, MCRT_BOUND_MAX_STEPS);
  ctx->transitions++;
  ctx->fired[p->action]++;
  uint32_t to = p->to;
  McrtFpResult r = p->lookup == MCRT_LOOKUP_INSERT ? insert(ctx, p->fp, &to)
                   : p->lookup == MCRT_LOOKUP_NEW  ? MCRT_FP_NEW
                                                   : MCRT_FP_OLD;
  if (r == MCRT_FP_FULL)
    return true;
  if (r == MCRT_FP_NEW && ctx->por)
    mcrt_por_discovered(ctx, p->fp, p->depth);
  if (p->lookup == MCRT_LOOKUP_NEW)
    to = (uint32_t)ctx->states; // the id record_new gives it
  if (r == MCRT_FP_NEW && record_new(ctx, state, p->parent, p->rule, p->depth, pre))
    return true;
  // Liveness, the threads' insertion (threads.c): the set holds
  // MCRT_ID_PENDING for a state new in this window until it has its id.
  if (ctx->live && p->lookup == MCRT_LOOKUP_NEW)
    mcrt_fpset_put_id(&ctx->set, p->fp, to);
  if (ctx->live && p->lookup == MCRT_LOOKUP_OLD && to == MCRT_ID_PENDING)
    mcrt_fpset_find_id(&ctx->set, p->fp, &to);
  if (ctx->live && !mcrt_live_edge(ctx->live, p->parent, to, p->rule))
    return hit_bound(ctx, MCRT_BOUND_MEMORY);
  return ctx->stop;
}

// A successor, once counted (mcrt_emit_successor): the search takes it.
static bool take_emitted(McrtCtx *ctx, const uint8_t *next, uint32_t action, uint64_t rule) {
  if (ctx->emit) // another engine's worker
    return ctx->emit(ctx, next, action, rule);
  if (ctx->stop)
    return true;
  ctx->cur_has_successor = true;
  if (ctx->held) // only whether the state has a successor matters now
    return false;
  if (ctx->npending == MCRT_BATCH) { // the oldest goes in first, its slot is reused
    uint32_t h = ctx->pend_head;
    ctx->pend_head = (h + 1) % MCRT_BATCH, ctx->npending--;
    if (mcrt_take_successor(ctx, &ctx->pend[h], ctx->pend_states + h * ctx->pend_stride, NULL))
      return true;
  }
  uint32_t i = (ctx->pend_head + ctx->npending++) % MCRT_BATCH;
  McrtPending *p = &ctx->pend[i];
  uint8_t *slot = ctx->pend_states + i * ctx->pend_stride;
  if (ctx->sym)
    mcrt_sym_canon(ctx->sym, next, slot); // the class's one representative
  else
    mcrt_copy_state(slot, next, ctx->state_bytes); // (both have MCRT_SLACK)
  p->fp = mcrt_fingerprint(slot, ctx->state_bytes, ctx->fp_bits);
  p->rule = rule;
  p->depth = ctx->cur_depth + 1;
  p->parent = (uint32_t)ctx->cur_id;
  p->action = action;
  p->at_bound = ctx->at_depth_bound;
  p->lookup = MCRT_LOOKUP_INSERT;
  mcrt_fpset_prefetch(&ctx->set, p->fp);
  return false;
}

bool mcrt_emit_successor(McrtCtx *ctx, const uint8_t *next, uint32_t action, uint64_t rule) {
  if (ctx->replaying)
    mcrt_die("mcrt_emit_successor called during replay");
  if (ctx->prof.enabled) // (the profile: the action's guard held)
    ctx->prof.enabled[action]++;
  return take_emitted(ctx, next, action, rule);
}

// ---------------------------------------------------------------------------
// The profile's timed expansions (context/profile.c keeps the counts):
// a state's successors, as model->successors computes them, the
// search's every expansion going through here to be counted, and one in
// `period` timed action by action.
//
// A timed expansion runs the actions one by one (McrtModel.action_steps:
// the steps mc_successors takes, in its order, so that the search is the
// same) with the processor's cycle counter read between them; each measure
// is weighted by the period. The period is 1 for the first expansions and
// doubles every SAMPLES_PER_PERIOD timed ones, so a run times a few hundred
// to a few thousand expansions whatever its length (about one in 1000 at
// 10^6 states, one in 10^6 at 10^10). Its cost, measured on the BEEM bench,
// is in docs/performance.md.
#define SAMPLES_PER_PERIOD 64

// One expansion, action by action, each action's cycles counted.
static void timed_successors(McrtCtx *ctx, const uint8_t *state) {
  const McrtModel *m = ctx->model;
  McrtProfile *p = &ctx->prof;
  uint8_t *n = p->scratch;
  uint64_t t = mcrt_ticks();
  for (uint32_t a = 0; a < m->nactions; a++) {
    const McrtActionStep *st = &m->action_steps[a];
    uint64_t rule = m->actions[a].first_rule;
    bool stop;
    if (st->emits)
      stop = st->fn(ctx, state, n);
    else if (!st->fn(ctx, state, n))
      stop = false;
    else if (mcrt_failed(ctx)) {
      mcrt_failed_in_rule(ctx, false, rule);
      stop = true;
    } else
      stop = mcrt_emit_successor(ctx, n, a, rule);
    uint64_t u = mcrt_ticks();
    p->ticks[a] += (u - t) * p->period;
    t = u;
    if (stop)
      break;
  }
  if (++p->timed % SAMPLES_PER_PERIOD == 0)
    p->period *= 2;
  p->countdown = p->period;
}

void mcrt_successors(McrtCtx *ctx, const uint8_t *state) {
  McrtProfile *p = &ctx->prof;
  p->expansions++;
  if (--p->countdown || !ctx->model->action_steps || !p->scratch) {
    ctx->model->successors(ctx, state);
    return;
  }
  timed_successors(ctx, state);
}

// The successors of a state: all of them, or under --por those of the
// stubborn set por.c chooses (not while a violation is held: then only
// whether the state has one matters, and --por keeps a state's successors
// when it has any).
void mcrt_expand(McrtCtx *ctx, const uint8_t *state) {
  if (!ctx->por || ctx->held) {
    mcrt_successors(ctx, state);
    return;
  }
  McrtPorBatch b = mcrt_por_choose(ctx, state, mcrt_successors);
  if (b.plain) {
    mcrt_successors(ctx, state);
    return;
  }
  // (counted when por.c captured them)
  for (uint32_t i = 0; i < b.n; i++)
    if ((!b.take || b.take[i]) &&
        take_emitted(ctx, b.states + i * b.stride, b.actions[i], b.rules[i]))
      break;
}

// ---------------------------------------------------------------------------
// The search loop.

void mcrt_progress(McrtCtx *ctx) {
  mcrt_timeline_sample(ctx, false);
  if (ctx->next_progress <= 0)
    return;
  double now = mcrt_now();
  if (now < ctx->next_progress)
    return;
  ctx->next_progress = now + ctx->opt->progress_s;
  FILE *f = ctx->progress_out ? ctx->progress_out : stderr;
  double t = now - ctx->start_time;
  fprintf(f, "progress: %llu states (%.0f/s), %llu transitions, frontier %llu, depth %llu, memory ",
          (unsigned long long)ctx->states, t > 0 ? (double)ctx->states / t : 0.0,
          (unsigned long long)ctx->transitions, (unsigned long long)ctx->queue.length,
          (unsigned long long)ctx->depth);
  mcrt_fprint_bytes(f, (double)mcrt_accounted_bytes(ctx));
  fprintf(f, ", %.0f s\n", t);
  fflush(f);
}

void mcrt_search_begin(McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const McrtOptions *opt = ctx->opt;
  bool resumed = mcrt_checkpoint_resumed(ctx); // start_time is the checkpointed run's
  if (!resumed)
    ctx->start_time = mcrt_now();
  ctx->next_progress = opt->progress_s > 0 ? mcrt_now() + opt->progress_s : 0;
  if (resumed) // the checkpoint holds the initial states
    return;

  // Initial states.
  ctx->cur_id = MCRT_NO_STATE;
  m->initial_states(ctx);
  if (!ctx->stop && mcrt_failed(ctx)) {
    // An init rule's error: every initial state was checked before it, and
    // the states are not expanded, so nothing shorter is to come.
    error_violation(ctx, MCRT_NO_STATE, 0, true);
    ctx->held = false, ctx->stop = true;
  }
  if (!ctx->stop && mcrt_signal)
    hit_bound(ctx, MCRT_BOUND_INTERRUPTED);
  if (!ctx->stop && ctx->states == 0) {
    McrtViolation *v = violation(ctx, MCRT_VIOL_NO_INITIAL_STATE, MCRT_NO_STATE, 0);
    snprintf(v->message, sizeof v->message,
             "no initial state: no init block gives a state (every `when` is false), so "
             "nothing was checked");
  }
}

bool mcrt_state_failed(McrtCtx *ctx, uint64_t id, const McrtError *e, bool step_allowed) {
  ctx->err = *e;
  return error_violation(ctx, id, ctx->cur_depth, step_allowed);
}

bool mcrt_no_successor(McrtCtx *ctx, uint64_t id, const uint8_t *state) {
  const McrtModel *m = ctx->model;
  if (ctx->net && !ctx->held)
    mcrt_net_no_successor(ctx->net, id, state);
  bool terminal = false;
  if (m->has_terminal && m->is_terminal) {
    terminal = m->is_terminal(ctx, state);
    if (mcrt_failed(ctx))
      return error_violation(ctx, id, ctx->cur_depth, false);
  }
  // (The counts stop where a held violation was met, but for the deadlock
  // that replaces it.)
  ctx->deadlocks += !terminal && (!ctx->held || ctx->opt->deadlock);
  if (!terminal && ctx->opt->deadlock) {
    McrtViolation *v = violation(ctx, MCRT_VIOL_DEADLOCK, id, ctx->cur_depth);
    snprintf(v->message, sizeof v->message, "deadlock: no action is enabled%s",
             m->has_terminal ? " and no terminal predicate holds" : "");
    return true;
  }
  return false;
}

// Whether the state being expanded (ctx->cur) is within the spec's
// constraints: 1 yes, 0 no, -1 their evaluation failed (the error moved to
// *saved, the slot cleared).
static int within(McrtCtx *ctx, McrtError *saved) {
  const McrtModel *m = ctx->model;
  if (!m->has_constraint || !m->within_constraints)
    return 1;
  bool in = m->within_constraints(ctx, ctx->cur);
  if (mcrt_failed(ctx)) {
    *saved = ctx->err;
    mcrt_clear_error(ctx);
    return -1;
  }
  return in;
}

void mcrt_search(McrtCtx *ctx) {
  const McrtOptions *opt = ctx->opt;
  mcrt_search_begin(ctx);

  // Expansion in id order.
  uint64_t level_end = ctx->states; // first id of the next level
  uint64_t popped = 0;
  mcrt_checkpoint_position(ctx, &popped, &level_end); // --resume
  while (!ctx->stop) {
    if (ctx->ckpt) { // --checkpoint: when it is time, with the batch in
      bool now = mcrt_signal;
      if (mcrt_checkpoint_due(ctx, now) && !flush(ctx) && !ctx->held)
        mcrt_checkpoint_maybe(ctx, popped, level_end, now);
    }
    if (ctx->stop)
      break;
    if (mcrt_signal) {
      hit_bound(ctx, MCRT_BOUND_INTERRUPTED);
      break;
    }
    if (!mcrt_queue_pop(&ctx->queue, ctx->cur)) {
      if (ctx->queue.length) { // --disk: the frontier could not be read
        store_failed(ctx);
        break;
      }
      if (ctx->npending == 0 || flush(ctx) || ctx->queue.length == 0)
        break;
      if (!mcrt_queue_pop(&ctx->queue, ctx->cur)) {
        store_failed(ctx);
        break;
      }
    }
    uint64_t id = ctx->cur_id = popped++;
    if (id == 1)
      mcrt_test_pause("search"); // the first state has been expanded
    if (id == level_end) {
      // Every state of the new level is known once the batch is in (and
      // a violation held by the level before is the shortest).
      if (flush(ctx) || ctx->held)
        break;
      ctx->cur_depth++;
      level_end = ctx->states;
    }
    if (id % MCRT_PROGRESS_EVERY == 0)
      mcrt_progress(ctx);
    McrtError saved;
    int in = within(ctx, &saved);
    if (in < 0) {
      if (!flush(ctx))
        mcrt_state_failed(ctx, id, &saved, false);
      break;
    }
    if (in == 0)
      continue;
    ctx->at_depth_bound = ctx->cur_depth >= opt->max_depth;
    ctx->cur_has_successor = false;
    mcrt_expand(ctx, ctx->cur);
    if (ctx->stop)
      break;
    if (mcrt_failed(ctx)) {
      // The batch goes first: its successors were emitted before this
      // failure (and checking them must not see it).
      McrtError saved = ctx->err;
      mcrt_clear_error(ctx);
      if (flush(ctx) || mcrt_state_failed(ctx, id, &saved, true))
        break;
    } else if (!ctx->cur_has_successor && (flush(ctx) || mcrt_no_successor(ctx, id, ctx->cur))) {
      break;
    }
    if (ctx->held) {
      mcrt_finish_level(ctx, popped, level_end);
      break;
    }
  }
  if (!ctx->stop)
    flush(ctx);
  mcrt_search_end(ctx);
}

void mcrt_finish_level(McrtCtx *ctx, uint64_t id, uint64_t end) {
  for (; id < end && ctx->held; id++) {
    if (mcrt_signal) {
      hit_bound(ctx, MCRT_BOUND_INTERRUPTED);
      break;
    }
    if (!mcrt_queue_pop(&ctx->queue, ctx->cur)) { // --disk: the frontier could not be read
      store_failed(ctx);
      break;
    }
    ctx->cur_id = id;
    if (id % MCRT_PROGRESS_EVERY == 0)
      mcrt_progress(ctx);
    McrtError saved;
    int in = within(ctx, &saved);
    if (in < 0)
      mcrt_state_failed(ctx, id, &saved, false);
    if (in <= 0)
      continue;
    ctx->cur_has_successor = false;
    mcrt_expand(ctx, ctx->cur);
    if (mcrt_failed(ctx)) {
      McrtError saved = ctx->err;
      mcrt_clear_error(ctx);
      mcrt_state_failed(ctx, id, &saved, true);
    } else if (!ctx->cur_has_successor) {
      mcrt_no_successor(ctx, id, ctx->cur);
    }
  }
  ctx->held = false;
  ctx->stop = true;
}

void mcrt_never_reached(McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  // Reachables: only a complete search can say one is never reached.
  if (!ctx->stop) {
    for (uint32_t i = 0; i < m->nreachables; i++) {
      if (!ctx->reached[i]) {
        McrtViolation *v = violation(ctx, MCRT_VIOL_REACHABLE, MCRT_NO_STATE, 0);
        const McrtPredicate *p = &m->reachables[i];
        v->name = p->name;
        v->file = p->file, v->line = p->line;
        snprintf(v->message, sizeof v->message, "reachable '%s' holds in no reachable state",
                 p->name);
        break;
      }
    }
  }
  // Likewise a scenario (or accepting predicates) that no run completes.
  if (!ctx->stop && m->is_accepting && !ctx->accepting) {
    McrtViolation *v = violation(ctx, MCRT_VIOL_REACHABLE, MCRT_NO_STATE, 0);
    v->name = m->scenario ? m->scenario : "accepting";
    snprintf(v->message, sizeof v->message, "no accepting state is reachable%s%s%s",
             m->scenario ? " (scenario '" : "", m->scenario ? m->scenario : "",
             m->scenario ? "')" : "");
  }
}

void mcrt_search_end(McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  if (ctx->held) // the level ended: nothing shorter
    ctx->held = false, ctx->stop = true;
  ctx->npending = 0, ctx->pend_head = 0;
  ctx->at_depth_bound = false;
  if (!ctx->stop && ctx->depth_truncated)
    hit_bound(ctx, MCRT_BOUND_MAX_DEPTH);
  if (!ctx->depth_truncated) {
    ctx->transitions += ctx->bound_transitions;
    for (uint32_t i = 0; i < m->nactions; i++)
      ctx->fired[i] += ctx->bound_fired[i];
  }

  mcrt_never_reached(ctx);
  ctx->time_s = mcrt_now() - ctx->start_time;
  size_t now_bytes = mcrt_accounted_bytes(ctx);
  if (now_bytes > ctx->peak_bytes)
    ctx->peak_bytes = now_bytes;
}
