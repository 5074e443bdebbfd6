// SPDX-License-Identifier: MIT
// odpor.c: --search odpor, a stateless depth-first exploration that runs one
// execution per Mazurkiewicz trace: Optimal-DPOR with sleep sets, source
// sets and wakeup trees (Abdulla, Aronis, Jonsson, Sagonas, "Source sets: a
// foundation for optimal dynamic partial order reduction", JACM 64(4), 2017,
// Algorithm 2), over the dependency tables the compiler emits
// (McrtModel.deps).
//
// Events and dependency. An event is one firing of an action rule. Two rules
// are dependent when one writes a cell the other reads or writes, when they
// belong to the same process (McrtDeps.process), when they are the same rule,
// or when both write a cell the invariants read, or both one the reachables
// read (McrtDeps.invariant_reads, reachable_reads). Visibility is what the
// checks of every state need: the writers of a predicate's cells are then
// ordered alike in every execution of a trace, and each writes the same
// values (what it reads was written by the same dependent events), so every
// execution of the trace passes through the same sequence of values of those
// cells, and checking the states of one checks those of all. A predicate
// evaluated only where an execution ends needs no visibility: every
// execution of a trace ends in the same state (independent rules commute),
// and a terminal predicate is read only there (at a state where no rule is
// enabled, to tell an end from a deadlock). Its cells are visible to the
// breadth-first search's stubborn sets (McrtDeps.visible), not here.
// Constraints and accepting predicates are refused (mcrt_odpor_prepare): a
// constraint cuts executions in states that depend on the interleaving. Two
// kinds apart (a rule writing only invariant cells and one writing only
// reachable cells are independent) is still coarser than one predicate
// apart, which is sound by the same argument. The rules, not the processes, are what sleep sets and wakeup trees
// hold: a process with two rules enabled at once (a nondeterministic choice,
// an action whose parameters are not a scalarset) is then explored
// alternative by alternative, and the traces are those of the rules under
// that dependency, which the brute force of tests/odpor/ counts. Where every
// process has one rule enabled at a time this is the paper's algorithm with
// processes.
//
// Happens-before over the current execution comes from clock vectors indexed
// by process (the events of a process are mutually dependent, so they are
// ordered). At the end of each maximal execution E, for every race e < e'
// (dependent events of different rules; e -> e' directly, or through other
// events when e and e' are of different processes) that is reversible (the
// rule of e' runs after pre(E, e).notdep(e, E), without e), the sequence
// v = notdep(e, E).rule(e') is inserted into the wakeup tree of pre(E, e)
// unless a rule of sleep(pre(E, e)) covers it. Departures from the paper,
// all for guarded actions, whose processes need not stay enabled until they
// run, nor be deterministic:
//  - a race through other events (a lock handed over: lock, unlock, lock;
//    the second lock needs the unlock, but can run before the first lock);
//  - a rule that disables an enabled dependent rule (the two never meet in
//    one execution) is a race at once, the disabled rule inserted alone;
//  - a rule that cannot run at the end of an execution races with the
//    events before it, as if it came last (a process blocked for good shows
//    no event of its own); a second pass leaves the events that disable it
//    (the other branch of its process's choice) out of v;
//  - a sleeping rule q covers v when it is an initial of v, or independent
//    of v and of e (the paper: of v; but q may be the other branch of a
//    choice e makes, and never run where e does).
// tests/odpor/ checks on its specs that the executions equal the traces
// counted by brute force with no sleep-set blocked execution; on specs with
// nondeterministic choices some executions may be sleep-set blocked (none
// is a trace twice, and no trace is missed on the specs we checked).
// Executions stop at states with no enabled rule, at --max-depth, or (sleep-
// set blocked) where every enabled rule sleeps.
//
// Checked on every execution, in every state it passes: invariants,
// reachables, asserts and run-time errors of every rule (a rule that fails
// counts as enabled, and its failure is the violation), deadlocks at the end.
// The state space must be acyclic: an execution that meets a state it passed
// stops the run (incomplete, bound "cycle") unless --max-depth bounds the
// executions. The fingerprint set holds the states met, for the summary's
// count and for the trace printer's check; nothing else is stored.
#include "engine/engine.h"

#include <inttypes.h>
#include <stdlib.h>

#define NONE UINT32_MAX

// A node of a wakeup tree. The root of level k's tree stands for the prefix
// E of length k; a node below it for E followed by the rules on its path.
// Children are ordered: the first is explored first, new ones go last.
typedef struct Node {
  uint32_t rule;
  uint32_t first, last, next; // children, sibling (NONE: none)
} Node;

// A level of the stack: the prefix of k events, its wakeup tree and sleep
// set, and the event taken from it (the k-th, index k).
typedef struct Level {
  uint32_t wut;            // root node
  uint32_t *sleep;         // rules
  uint32_t nsleep, sleep_cap;
  uint32_t *enabled;       // the rules enabled in the prefix's state
  uint32_t nenabled, enabled_cap;
  uint32_t rule, proc;     // the event taken from here
} Level;

typedef struct Odpor {
  McrtCtx *ctx;
  const McrtModel *m;
  const McrtDeps *d;
  uint32_t nrules, nproc;
  uint8_t *dep_cache;   // nrules^2: 0 not known, 1 independent, 2 dependent (NULL: too many)
  uint8_t *writes_visible; // per rule: 1 writes a cell an invariant reads, 2 a reachable's
  uint64_t init_rule;

  // The stack, levels 0 .. cap-1: state k (after k events), the clock
  // vector of event k, the fingerprint of state k.
  size_t cap, stride;
  uint8_t *states;
  uint32_t *clock;
  uint64_t *fps;
  Level *lv;

  Node *nodes;
  uint32_t nnodes, nodes_cap, free_node;

  uint32_t *seq, *path; // scratch sequences (cap entries)
  bool *drop;           // scratch, per event (reverse_race)
  bool dropping;        // reverse_race leaves out the conflicting events
  uint8_t *a, *b, *c;   // scratch states

  uint64_t executions, blocked, events, races, insertions;
  uint64_t cut_branches; // branches added at the levels of cut executions
  uint64_t cycle_from, cycle_to; // the repeated state's depths (cycle bound)
} Odpor;

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    mcrt_die("out of memory");
  return p;
}

// ---------------------------------------------------------------------------
// Dependency.

static bool lists_meet(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb) {
  uint32_t i = 0, j = 0;
  while (i < na && j < nb) {
    if (a[i] == b[j])
      return true;
    if (a[i] < b[j])
      i++;
    else
      j++;
  }
  return false;
}

#define LIST(d, name, r) (d)->name + (d)->name##_start[r], (d)->name##_start[(r) + 1] - (d)->name##_start[r]

static bool compute_dependent(const Odpor *o, uint32_t r, uint32_t s) {
  const McrtDeps *d = o->d;
  if (r == s || d->process[r] == d->process[s])
    return true;
  if (o->writes_visible[r] & o->writes_visible[s])
    return true;
  return lists_meet(LIST(d, write, r), LIST(d, read, s)) ||
         lists_meet(LIST(d, write, s), LIST(d, read, r)) ||
         lists_meet(LIST(d, write, r), LIST(d, write, s));
}

static bool dependent(Odpor *o, uint32_t r, uint32_t s) {
  if (!o->dep_cache)
    return compute_dependent(o, r, s);
  uint8_t *c = &o->dep_cache[(size_t)r * o->nrules + s];
  if (!*c)
    *c = compute_dependent(o, r, s) ? 2 : 1;
  return *c == 2;
}

// Whether rule q is a weak initial of the sequence w: q's first event in w
// has no earlier event of w before it in happens-before (q is an initial),
// or q is independent of every event of w. With a static dependency the
// prefix the sequence follows does not matter.
static bool weak_initial(Odpor *o, uint32_t q, const uint32_t *w, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (w[i] == q)
      return true; // every earlier one was independent of q
    if (dependent(o, q, w[i]))
      return false;
  }
  return true;
}

// Whether the rule q, asleep before the racing event e (rule re), covers the
// reversal v: q is an initial of v (every extension of v is one of q), or
// independent of v and of e. The paper needs only the first half of the
// second case, since there a process runs its next event sooner or later;
// a rule may instead be disabled for good by one it depends on (the other
// branch of a nondeterministic choice), and the traces where e runs and q
// never does are then not among q's.
static bool covers(Odpor *o, uint32_t q, uint32_t re, const uint32_t *v, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (v[i] == q)
      return true;
    if (dependent(o, q, v[i]))
      return false;
  }
  return !dependent(o, q, re);
}

// ---------------------------------------------------------------------------
// Wakeup trees.

static uint32_t new_node(Odpor *o, uint32_t rule) {
  uint32_t i;
  if (o->free_node != NONE) {
    i = o->free_node;
    o->free_node = o->nodes[i].next;
  } else {
    if (o->nnodes == o->nodes_cap) {
      o->nodes_cap = o->nodes_cap ? 2 * o->nodes_cap : 256;
      o->nodes = xrealloc(o->nodes, o->nodes_cap * sizeof *o->nodes);
    }
    i = o->nnodes++;
  }
  o->nodes[i] = (Node){.rule = rule, .first = NONE, .last = NONE, .next = NONE};
  return i;
}

static void add_child(Odpor *o, uint32_t parent, uint32_t child) {
  Node *p = &o->nodes[parent];
  if (p->last == NONE)
    p->first = child;
  else
    o->nodes[p->last].next = child;
  p->last = child;
}

static void free_tree(Odpor *o, uint32_t n) {
  for (uint32_t c = o->nodes[n].first, next; c != NONE; c = next) {
    next = o->nodes[c].next;
    free_tree(o, c);
  }
  o->nodes[n].next = o->free_node;
  o->free_node = n;
}

// Whether the node whose path is path[0..np) is compatible with w after the
// prefix (v ~ w in the paper): each rule of the path is an initial of what
// is left of w (then its first event is taken out of w) or independent of
// all of it. On success w[0..*nw) is what is left (the shortest w' with w
// a weak prefix of path.w').
static bool compatible(Odpor *o, const uint32_t *path, uint32_t np, uint32_t *w, uint32_t *nw) {
  for (uint32_t t = 0; t < np; t++) {
    uint32_t p = path[t], i = 0;
    while (i < *nw && w[i] != p && !dependent(o, p, w[i]))
      i++;
    if (i < *nw && w[i] != p)
      return false; // p meets an event of w first: neither initial nor independent
    if (i < *nw) {  // an initial: take it out
      memmove(w + i, w + i + 1, (*nw - i - 1) * sizeof *w);
      (*nw)--;
    }
  }
  return true;
}

// insert_[E](v, tree) (the paper's Section 6.2): the first node in post-order
// (the smallest in the tree's order) compatible with v; if a leaf, nothing
// changes; otherwise what is left of v goes below it as a new last branch.
// Returns true once placed. depth: the node's path length (path[0..depth)).
static bool insert_below(Odpor *o, uint32_t node, uint32_t depth, bool root, const uint32_t *v,
                         uint32_t nv) {
  if (!root)
    o->path[depth - 1] = o->nodes[node].rule;
  for (uint32_t c = o->nodes[node].first; c != NONE; c = o->nodes[c].next)
    if (insert_below(o, c, depth + 1, false, v, nv))
      return true;
  uint32_t *w = o->seq + o->cap; // the second half of seq: v is in the first
  memcpy(w, v, nv * sizeof *w);
  uint32_t nw = nv;
  if (!compatible(o, o->path, depth, w, &nw))
    return false;
  if (o->nodes[node].first == NONE && !root)
    return true; // a leaf already covers v
  uint32_t at = node;
  for (uint32_t i = 0; i < nw; i++) {
    uint32_t n = new_node(o, w[i]);
    add_child(o, at, n);
    at = n;
  }
  if (nw)
    o->insertions++;
  return true;
}

// ---------------------------------------------------------------------------
// The stack.

static void grow_stack(Odpor *o, size_t need) {
  if (need <= o->cap)
    return;
  size_t cap = o->cap ? o->cap : 64;
  while (cap < need)
    cap *= 2;
  o->states = xrealloc(o->states, cap * o->stride);
  memset(o->states + o->cap * o->stride, 0, (cap - o->cap) * o->stride);
  o->clock = xrealloc(o->clock, cap * o->nproc * sizeof *o->clock);
  o->fps = xrealloc(o->fps, cap * sizeof *o->fps);
  o->lv = xrealloc(o->lv, cap * sizeof *o->lv);
  memset(o->lv + o->cap, 0, (cap - o->cap) * sizeof *o->lv);
  o->seq = xrealloc(o->seq, 2 * (cap + 1) * sizeof *o->seq);
  o->path = xrealloc(o->path, (cap + 1) * sizeof *o->path);
  o->drop = xrealloc(o->drop, (cap + 1) * sizeof *o->drop);
  o->ctx->engine_bytes = cap * (o->stride + o->nproc * sizeof *o->clock + sizeof *o->fps +
                                sizeof *o->lv + 3 * sizeof *o->seq) +
                         (size_t)o->nodes_cap * sizeof *o->nodes;
  o->cap = cap;
}

static uint8_t *state_at(const Odpor *o, uint64_t k) { return o->states + k * o->stride; }
static uint32_t *clock_at(const Odpor *o, uint64_t k) { return o->clock + k * o->nproc; }

// Whether event i happens before event k (i < k).
static bool happens_before(const Odpor *o, uint64_t i, uint64_t k) {
  return clock_at(o, k)[o->lv[i].proc] > i;
}

// The clock vector of event k (its rule in lv[k]): the join of those of the
// earlier events it depends on, then itself.
static void set_clock(Odpor *o, uint64_t k) {
  uint32_t *c = clock_at(o, k);
  memset(c, 0, o->nproc * sizeof *c);
  for (uint64_t j = 0; j < k; j++) {
    if (!dependent(o, o->lv[j].rule, o->lv[k].rule))
      continue;
    const uint32_t *cj = clock_at(o, j);
    for (uint32_t p = 0; p < o->nproc; p++)
      if (cj[p] > c[p])
        c[p] = cj[p];
  }
  c[o->lv[k].proc] = (uint32_t)k + 1;
}

// ---------------------------------------------------------------------------
// Violations: the trace is the current execution's rules (path[0] the init
// rule), k events long, then the failing step if any.

static void found(Odpor *o, uint64_t k, McrtViolationKind kind) {
  McrtViolation *v = mcrt_path_violation(o->ctx, kind, k + 1);
  v->path[0] = o->init_rule;
  for (uint64_t i = 0; i < k; i++)
    v->path[i + 1] = o->lv[i].rule;
}

// A run-time error or failed assert from generated code: in state k, or in
// rule `rule` fired from it (step).
static void found_error(Odpor *o, uint64_t k, bool step, uint64_t rule) {
  McrtCtx *ctx = o->ctx;
  McrtError e = ctx->err;
  if (e.abandoned == MCRT_CALL_INTERRUPTED) { // a signal came during a call of C
    mcrt_clear_error(ctx);
    mcrt_stop_at(ctx, MCRT_BOUND_INTERRUPTED, MCRT_PHASE_SEARCH);
    return;
  }
  snprintf(ctx->viol.message, sizeof ctx->viol.message, "%s", e.message);
  found(o, k, e.is_assert ? MCRT_VIOL_ASSERT : MCRT_VIOL_RUNTIME_ERROR);
  McrtViolation *v = &ctx->viol;
  v->file = e.file, v->line = e.line, v->col = e.col;
  if (step) {
    v->has_step = true;
    v->step_rule = rule;
  }
}

// State k, met by the current execution: the set, the bounds, the cycle
// check, invariants and reachables. *fresh: first time met. True: stop.
static bool visit(Odpor *o, uint64_t k, bool *fresh) {
  McrtCtx *ctx = o->ctx;
  const McrtModel *m = o->m;
  const uint8_t *s = state_at(o, k);
  McrtFp fp = mcrt_fingerprint(s, ctx->state_bytes, ctx->fp_bits);
  o->fps[k] = fp.hi;
  if (k > ctx->depth)
    ctx->depth = k;
  if (ctx->opt->max_depth == MCRT_UNLIMITED) {
    for (uint64_t j = 0; j < k; j++) {
      if (o->fps[j] == fp.hi && !memcmp(state_at(o, j), s, ctx->state_bytes)) {
        o->cycle_from = j, o->cycle_to = k;
        mcrt_stop_at(ctx, MCRT_BOUND_CYCLE, MCRT_PHASE_SEARCH);
        return true;
      }
    }
  }
  if (mcrt_fpset_wants_grow(&ctx->set) && !mcrt_grow_set(ctx))
    return true;
  McrtFpResult r = mcrt_fpset_insert(&ctx->set, fp);
  if (r == MCRT_FP_FULL) {
    if (!mcrt_grow_set(ctx))
      return true;
    r = mcrt_fpset_insert(&ctx->set, fp);
  }
  *fresh = r == MCRT_FP_NEW;
  if (*fresh && ++ctx->states > ctx->opt->max_states) {
    ctx->states--;
    mcrt_stop_at(ctx, MCRT_BOUND_MAX_STATES, MCRT_PHASE_SEARCH);
    return true;
  }
  if (m->ninvariants > 0) {
    int i = m->check_invariants(ctx, s);
    if (mcrt_failed(ctx)) {
      found_error(o, k, false, 0);
      return true;
    }
    if (i >= 0) {
      const McrtPredicate *p = &m->invariants[i];
      snprintf(ctx->viol.message, sizeof ctx->viol.message, "invariant '%s' does not hold",
               p->name);
      found(o, k, MCRT_VIOL_INVARIANT);
      ctx->viol.name = p->name;
      ctx->viol.file = p->file, ctx->viol.line = p->line;
      return true;
    }
  }
  for (uint32_t i = 0; i < m->nreachables && ctx->nreached < m->nreachables; i++) {
    if (ctx->reached[i])
      continue;
    bool holds = m->check_reachable(ctx, i, s);
    if (mcrt_failed(ctx)) {
      found_error(o, k, false, 0);
      return true;
    }
    if (holds)
      ctx->reached[i] = true, ctx->nreached++;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Races, at the end of an execution of n events.

// Forgets a failure of a replayed rule. The error record (its message
// buffer) is cleared only when set: the race checks replay rules by the
// thousand at every execution's end.
static void clear_failure(McrtCtx *ctx) {
  if (mcrt_failed(ctx))
    mcrt_clear_error(ctx);
}

// Whether rule r can run (or fails: a failure is a step too) from state a.
static bool can_run(Odpor *o, uint32_t r, const uint8_t *a) {
  McrtCtx *ctx = o->ctx;
  bool ok = mcrt_replay_step(ctx, false, r, a, o->b) || mcrt_failed(ctx);
  clear_failure(ctx);
  return ok;
}

// The race i < j (see races_with): if reversible, v = notdep(i, E).rule(j)
// into the wakeup tree of the prefix before i, unless a rule asleep there
// covers v. For j == n, a rule that could not run at the end, a second
// pass (dropping) leaves out of v the events that disable it (another
// branch of its process's choice) and what happens after them.
static void reverse_race(Odpor *o, uint64_t i, uint64_t j, uint64_t n) {
  McrtCtx *ctx = o->ctx;
  uint32_t *v = o->seq, nv = 0;
  memcpy(o->a, state_at(o, i), ctx->state_bytes);
  bool ran = true;
  for (uint64_t k = i + 1; k < n; k++) {
    o->drop[k] = false;
    if (happens_before(o, i, k))
      continue;
    if (j == n && o->dropping) { // without what disables the rule
      uint32_t rk = o->lv[k].rule, rj = o->lv[j].rule;
      bool d = false;
      for (uint64_t m = i + 1; m < k && !d; m++)
        d = o->drop[m] && happens_before(o, m, k);
      if (!d && dependent(o, rk, rj) && can_run(o, rj, o->a)) {
        mcrt_replay_step(ctx, false, rk, o->a, o->c);
        clear_failure(ctx);
        d = !can_run(o, rj, o->c);
      }
      if ((o->drop[k] = d))
        continue;
    }
    v[nv++] = o->lv[k].rule;
    if (k < j && ran) { // the events before j that do not need i: their states
      ran = mcrt_replay_step(ctx, false, o->lv[k].rule, o->a, o->b);
      clear_failure(ctx);
      memcpy(o->a, o->b, ctx->state_bytes);
    }
  }
  if (!ran)
    mcrt_die("odpor: an event independent of an earlier one did not run without it");
  // Reversible: j's rule runs without i (i did not enable it).
  if (!can_run(o, o->lv[j].rule, o->a))
    return;
  v[nv++] = o->lv[j].rule;
  o->races++;
  const Level *L = &o->lv[i];
  uint32_t ri = o->lv[i].rule;
  for (uint32_t q = 0; q < L->nsleep; q++)
    if (covers(o, L->sleep[q], ri, v, nv))
      return;
  insert_below(o, L->wut, 0, true, v, nv);
}

// The races of event j (j == n: a rule that could not run at the end, put
// in lv[n] for the time being): i races with j when they are dependent,
// of different rules, and no dependent predecessor of j after i happens
// after i (i -> j is direct), or they are of different processes.
static void races_with(Odpor *o, uint64_t j, uint64_t n) {
  uint32_t rj = o->lv[j].rule;
  for (uint64_t i = j; i-- > 0;) {
    if (!dependent(o, o->lv[i].rule, rj))
      continue;
    bool immediate = true;
    for (uint64_t k = i + 1; k < j && immediate; k++)
      if (dependent(o, o->lv[k].rule, rj) && happens_before(o, i, k))
        immediate = false;
    if (o->lv[i].rule != rj && (immediate || o->lv[i].proc != o->lv[j].proc))
      reverse_race(o, i, j, n);
  }
}

// The races of an execution of n events. A rule that cannot run at its end
// races too, with the events that made it so: a process blocked for good
// (a guard falsified before the rule's turn came) is no event of the
// execution, so no race of its own shows that it could have run earlier.
static void detect_races(Odpor *o, uint64_t n) {
  for (uint64_t j = 1; j < n; j++)
    races_with(o, j, n);
  Level *L = &o->lv[n];
  for (uint32_t r = 0; r < o->nrules && n > 0; r++) {
    if (can_run(o, r, state_at(o, n)))
      continue;
    L->rule = r;
    L->proc = o->d->process[r];
    races_with(o, n, n);
    o->dropping = true;
    races_with(o, n, n);
    o->dropping = false;
  }
}

// ---------------------------------------------------------------------------
// The exploration (the paper's Explore(E, Sleep, WuT), E of k events; the
// caller has set lv[k].wut and lv[k].sleep).

static void push(uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t r) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    *list = xrealloc(*list, *cap * sizeof **list);
  }
  (*list)[(*n)++] = r;
}

static void add_sleep(Level *L, uint32_t r) { push(&L->sleep, &L->nsleep, &L->sleep_cap, r); }

// Rule p, taken from level k, disabled rule s that was enabled there: the
// two never meet in one execution, so no race shows it; s first is another
// trace (they are dependent), inserted into the tree of level k unless a
// rule asleep there covers it. (The paper's processes stay enabled until
// they run; guarded actions need not.)
static void disabling_races(Odpor *o, uint64_t k, uint32_t p) {
  const Level *L = &o->lv[k];
  for (uint32_t i = 0; i < L->nenabled; i++) {
    uint32_t s = L->enabled[i];
    if (s == p || !dependent(o, p, s) || can_run(o, s, state_at(o, k + 1)))
      continue;
    bool covered = false;
    for (uint32_t q = 0; q < L->nsleep && !covered; q++)
      covered = weak_initial(o, L->sleep[q], &s, 1);
    if (!covered) {
      o->races++;
      o->seq[0] = s;
      insert_below(o, L->wut, 0, true, o->seq, 1);
    }
  }
}

static bool asleep(const Level *L, uint32_t r) {
  for (uint32_t i = 0; i < L->nsleep; i++)
    if (L->sleep[i] == r)
      return true;
  return false;
}

// A progress line on stderr every --progress seconds, checked once per 256
// executions.
static void progress(Odpor *o) {
  McrtCtx *ctx = o->ctx;
  if (ctx->next_progress <= 0 || o->executions % 256)
    return;
  double now = mcrt_now();
  if (now < ctx->next_progress)
    return;
  ctx->next_progress = now + ctx->opt->progress_s;
  FILE *f = ctx->progress_out ? ctx->progress_out : stderr;
  fprintf(f, "progress: %" PRIu64 " executions, %" PRIu64 " events, %" PRIu64
             " states met, depth %" PRIu64 ", %.0f s\n",
          o->executions, o->events, ctx->states, ctx->depth, now - ctx->start_time);
  fflush(f);
}

// An execution cut at --max-depth after k events: every rule enabled at a
// level of it, not asleep there nor already in its tree, becomes a branch
// of that level. A cut hides the races of the events past it: an event
// there may depend on one before the cut, and its reversal (a sequence that
// fits in the bound where the cut execution does not reach it) would go
// into the tree of a level of this execution. A level that explores every
// rule that does not sleep misses no such sequence (each starts with one
// of those rules: a source set); the sleep sets still prune the
// interleavings explored twice, and the executions are no longer one per
// trace. Levels whose executions all end before the bound keep the races
// alone.
static void expand_cut(Odpor *o, uint64_t k) {
  for (uint64_t i = 0; i < k; i++) {
    Level *L = &o->lv[i];
    for (uint32_t e = 0; e < L->nenabled; e++) {
      uint32_t r = L->enabled[e];
      bool known = r == L->rule || asleep(L, r);
      for (uint32_t c = o->nodes[L->wut].first; c != NONE && !known; c = o->nodes[c].next)
        known = o->nodes[c].rule == r;
      if (!known) {
        add_child(o, L->wut, new_node(o, r));
        o->cut_branches++;
      }
    }
  }
}

// The end of a maximal execution of k events (or one cut at --max-depth).
static void execution_end(Odpor *o, uint64_t k) {
  o->executions++;
  detect_races(o, k);
  progress(o);
}

static void explore(Odpor *o, uint64_t k) {
  McrtCtx *ctx = o->ctx;
  const McrtModel *m = o->m;
  if (ctx->stop)
    return;
  if (mcrt_signal) {
    mcrt_stop_at(ctx, MCRT_BOUND_INTERRUPTED, MCRT_PHASE_SEARCH);
    return;
  }
  bool fresh = false;
  if (visit(o, k, &fresh))
    return;
  grow_stack(o, k + 2);

  // The rules enabled here; the first one that fails is the violation. The
  // first enabled rule that does not sleep is the choice if the tree is empty.
  uint32_t any = NONE, choice = NONE;
  o->lv[k].nenabled = 0;
  for (uint32_t r = 0; r < o->nrules; r++) {
    if (mcrt_replay_step(ctx, false, r, state_at(o, k), o->b)) {
      Level *L = &o->lv[k];
      push(&L->enabled, &L->nenabled, &L->enabled_cap, r);
      if (any == NONE)
        any = r;
      if (choice == NONE && !asleep(&o->lv[k], r))
        choice = r;
    } else if (mcrt_failed(ctx)) {
      found_error(o, k, true, r);
      return;
    }
  }
  if (any == NONE) {
    bool terminal = m->has_terminal && m->is_terminal(ctx, state_at(o, k));
    if (mcrt_failed(ctx)) {
      found_error(o, k, false, 0);
      return;
    }
    if (!terminal && fresh)
      ctx->deadlocks++;
    if (!terminal && ctx->opt->deadlock) {
      snprintf(ctx->viol.message, sizeof ctx->viol.message, "deadlock: no action is enabled%s",
               m->has_terminal ? " and no terminal predicate holds" : "");
      found(o, k, MCRT_VIOL_DEADLOCK);
      return;
    }
    execution_end(o, k);
    return;
  }
  if (k >= ctx->opt->max_depth) {
    ctx->depth_truncated = true;
    expand_cut(o, k);
    execution_end(o, k);
    return;
  }
  uint32_t root = o->lv[k].wut;
  if (o->nodes[root].first == NONE) {
    if (choice == NONE) {
      o->blocked++;
      return;
    }
    add_child(o, root, new_node(o, choice));
  }
  while (!ctx->stop && o->nodes[o->lv[k].wut].first != NONE) {
    // The first branch: its node becomes the root of the next level's tree.
    root = o->lv[k].wut;
    uint32_t c = o->nodes[root].first;
    o->nodes[root].first = o->nodes[c].next;
    if (o->nodes[root].first == NONE)
      o->nodes[root].last = NONE;
    o->nodes[c].next = NONE;
    uint32_t p = o->nodes[c].rule;
    Level *L = &o->lv[k], *next = &o->lv[k + 1];
    next->wut = c;
    next->nsleep = 0;
    for (uint32_t i = 0; i < L->nsleep; i++)
      if (!dependent(o, p, L->sleep[i]))
        add_sleep(next, L->sleep[i]);
    L->rule = p;
    L->proc = o->d->process[p];
    if (ctx->transitions >= ctx->opt->max_steps) {
      mcrt_stop_at(ctx, MCRT_BOUND_MAX_STEPS, MCRT_PHASE_SEARCH);
      free_tree(o, c);
      return;
    }
    if (!mcrt_replay_step(ctx, false, p, state_at(o, k), state_at(o, k + 1))) {
      if (mcrt_failed(ctx)) {
        found_error(o, k, true, p);
      } else {
        if (m->nextern) { // the spec's C, rather than mcgen (report.c)
          fputs("error: odpor: a rule of the wakeup tree is not enabled when run again: the run "
                "is not deterministic, most likely in ", stderr);
          mcrt_print_extern_cause(stderr, m);
          fputs("; else a bug in mcgen\n", stderr);
        } else {
          fprintf(stderr, "internal error: odpor: a rule of the wakeup tree is not enabled\n");
        }
        ctx->internal_error = true;
        ctx->stop = true;
      }
      return;
    }
    set_clock(o, k);
    disabling_races(o, k, p);
    o->events++;
    ctx->transitions++;
    ctx->fired[mcrt_find_group(m->actions, m->nactions, p)]++;
    explore(o, k + 1);
    free_tree(o, o->lv[k + 1].wut);
    add_sleep(&o->lv[k], p);
  }
}

// ---------------------------------------------------------------------------
// The engine.

static void odpor_search(McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  Odpor *o = xrealloc(NULL, sizeof *o);
  *o = (Odpor){.ctx = ctx, .m = m, .d = m->deps, .nrules = (uint32_t)m->nrules,
               .nproc = m->deps->nprocesses ? m->deps->nprocesses : 1, .free_node = NONE,
               .stride = ctx->state_bytes + MCRT_SLACK};
  ctx->worker = o;
  ctx->threads = 1;
  if (o->nrules <= 2048)
    o->dep_cache = calloc((size_t)o->nrules * o->nrules + 1, 1);
  o->writes_visible = xrealloc(NULL, (o->nrules + 1) * sizeof *o->writes_visible);
  for (uint32_t r = 0; r < o->nrules; r++)
    o->writes_visible[r] =
        (uint8_t)(lists_meet(LIST(o->d, write, r), o->d->invariant_reads, o->d->ninvariant_reads) |
                  lists_meet(LIST(o->d, write, r), o->d->reachable_reads, o->d->nreachable_reads) << 1);
  o->a = xrealloc(NULL, o->stride);
  o->b = xrealloc(NULL, o->stride);
  o->c = xrealloc(NULL, o->stride);
  grow_stack(o, 2);

  ctx->start_time = mcrt_now();
  ctx->next_progress = ctx->opt->progress_s > 0 ? ctx->start_time + ctx->opt->progress_s : 0;
  bool any = false;
  for (uint64_t r = 0; r < m->ninit_rules && !ctx->stop; r++) {
    if (!mcrt_replay_step(ctx, true, r, NULL, state_at(o, 0))) {
      if (mcrt_failed(ctx)) {
        o->init_rule = r;
        found_error(o, 0, true, r);
        ctx->viol.step_init = true;
        ctx->viol.npath = 0;
      }
      continue;
    }
    any = true;
    o->init_rule = r;
    o->lv[0].wut = new_node(o, NONE);
    o->lv[0].nsleep = 0;
    explore(o, 0);
    free_tree(o, o->lv[0].wut);
  }
  if (!any && !ctx->stop) {
    McrtViolation *v = &ctx->viol;
    snprintf(v->message, sizeof v->message,
             "no initial state: no init block gives a state (every `when` is false), so "
             "nothing was checked");
    v->kind = MCRT_VIOL_NO_INITIAL_STATE;
    v->state = MCRT_NO_STATE;
    ctx->has_violation = ctx->stop = true;
  }
  mcrt_search_end(ctx); // --max-depth, reachables never reached, the time
}

static void odpor_free(McrtCtx *ctx) {
  Odpor *o = ctx->worker;
  if (!o)
    return;
  for (size_t k = 0; k < o->cap; k++)
    free(o->lv[k].sleep), free(o->lv[k].enabled);
  free(o->dep_cache), free(o->writes_visible), free(o->states), free(o->clock), free(o->fps);
  free(o->lv), free(o->nodes), free(o->seq), free(o->path), free(o->drop), free(o->a), free(o->b), free(o->c);
  free(o);
  ctx->worker = NULL;
}

static void odpor_summary(FILE *f, const McrtCtx *ctx) {
  const Odpor *o = ctx->worker;
  if (!o)
    return;
  fprintf(f, "odpor:         %" PRIu64 " execution%s explored (one per Mazurkiewicz trace), %" PRIu64
             " sleep-set blocked, %" PRIu64 " events, max depth %" PRIu64 "\n",
          o->executions, o->executions == 1 ? "" : "s", o->blocked, o->events, ctx->depth);
  fprintf(f, "odpor races:   %" PRIu64 " reversible races, %" PRIu64
             " wakeup tree insertions; no state is stored besides the count above\n",
          o->races, o->insertions);
  if (o->cut_branches)
    fprintf(f, "odpor cut:     %" PRIu64 " branches added at the levels of executions cut at "
               "--max-depth (there, not one execution per trace)\n",
            o->cut_branches);
  if (ctx->bound == MCRT_BOUND_CYCLE)
    fprintf(f, "odpor cycle:   the state at depth %" PRIu64 " came back at depth %" PRIu64
               " of the same execution\n",
            o->cycle_from, o->cycle_to);
}

static void odpor_report(FILE *f, const McrtCtx *ctx) {
  const Odpor *o = ctx->worker;
  if (!o)
    return;
  fprintf(f, ", \"odpor\": {\"executions\": %" PRIu64 ", \"sleep_set_blocked\": %" PRIu64
             ", \"events\": %" PRIu64 ", \"max_depth\": %" PRIu64 ", \"races\": %" PRIu64
             ", \"insertions\": %" PRIu64 ", \"cut_branches\": %" PRIu64 "}",
          o->executions, o->blocked, o->events, ctx->depth, o->races, o->insertions,
          o->cut_branches);
}

int mcrt_odpor_prepare(const McrtModel *m, McrtOptions *opt, FILE *err) {
  const char *why = NULL;
  if (mcrt_engine.search && mcrt_launcher_ranks() > 1) // a --mpi checker on several ranks
    why = "it runs in one process: run this checker without mpirun (or mpirun -np 1)";
  else if (m->net)
    why = "a Petri net has no dependency table";
  else if (!m->deps)
    why = "the model has no dependency table (more action rules than mcgen tabulates)";
  else if (mcrt_liveness_wanted(m, opt))
    why = "it checks safety only, and the spec has liveness properties: add --liveness off";
  else if (m->has_constraint)
    why = "a `constraint` cuts executions at states that depend on the interleaving";
  else if (m->is_accepting)
    why = "scenarios and accepting predicates are not supported";
  else if (opt->sim_runs)
    why = "--simulate is another way to explore";
  else if (opt->por)
    why = "--por on reduces the breadth-first search; --search odpor reduces by itself";
  else if (opt->disk_dir || opt->checkpoint_dir || opt->resume_dir)
    why = "--disk, --checkpoint and --resume hold a breadth-first search's stores";
  else if (opt->symmetry == MCRT_SYM_VERIFY)
    why = "--symmetry verify compares two breadth-first searches";
  if (why) {
    fprintf(err, "error: --search odpor: %s\n", why);
    return MCRT_EXIT_USAGE;
  }
  if (opt->threads_given && opt->threads > 1)
    fprintf(err, "note: --search odpor runs in one thread (--threads %" PRIu64 " ignored)\n",
            opt->threads);
  if (opt->symmetry == MCRT_SYM_ON && mcrt_sym_available(m))
    fprintf(err, "note: --search odpor explores the spec's own executions, without symmetry "
                 "reduction\n");
  opt->symmetry = MCRT_SYM_OFF;
  opt->threads = 1;
  mcrt_engine.search = odpor_search;
  mcrt_engine.free_run = odpor_free;
  mcrt_engine.summary = odpor_summary;
  mcrt_engine.report = odpor_report;
  return -1;
}
