// SPDX-License-Identifier: MIT
// por.c: partial-order reduction for the breadth-first search (--por on):
// static stubborn sets over the compiler's dependency tables
// (McrtModel.deps, compiler/analysis/deps.c), with a cycle proviso sound for BFS.
//
// Expansion. The generated successors() runs as usual, but into a buffer:
// every enabled rule is executed, so a failing assert or run-time error of
// any enabled rule is found in every state the search expands, exactly as
// without reduction. Then a subset of the enabled rules is chosen and only
// their successors are handed to the search.
//
// The set (Valmari's stubborn sets, the strong form). Rules r and u are
// dependent when one writes a cell the other reads or writes (reads: guard
// and body). For a seed, an enabled rule t, the closure T is the least set
// holding t such that
//   - for an enabled rule in T, every rule dependent on it is in T, its
//     own accesses at an index held in one cell (McrtDeps.dyn) taken at
//     the element this state selects: it reads that cell, so every writer
//     of it is in T and no rule outside T moves the index;
//   - for a disabled rule in T, a necessary enabling set: if one of its key
//     conjuncts (McrtDeps.key_*: a cell against a constant, ==, !=, <, <=,
//     >, >=) is false here, the writers of that cell that may write a value
//     making it hold (McrtDeps.values: a rule that writes only constants
//     that do not cannot); else every rule that writes a cell its guard
//     reads. The guard stays false until the conjunct holds, and the
//     conjunct's cell changes only by its writers: nothing else enables it.
// Then no sequence of rules outside T, from this state, enables a rule of
// T, disables an enabled one or changes what it does, and every enabled
// rule of T stays enabled after it (D1, D2): every deadlock stays
// reachable. The first 8 enabled rules are tried as the seed, and a
// closure past a work budget (twice the rules), or one that can no longer
// beat the best candidate so far (more new successors among the rules it
// has taken, or as many and as many enabled rules), is given up (neither
// changes what a closure that completes holds: giving up only expands
// more); among the candidates (below, the proviso) the one with the fewest
// new successors wins, then the fewest enabled rules, then the earliest
// seed, so the choice is a function of the state and of the states found
// at the earlier depths.
//
// Visibility. A rule that writes a cell an invariant, reachable, terminal,
// constraint or accepting predicate reads (McrtDeps.visible) is visible;
// a closure that holds an enabled visible rule is not used (the state is
// fully expanded when every closure holds one). With the proviso below,
// every state where a predicate's value differs from the initial one along
// some run is reached along a run of the reduced graph that changes the
// predicates in the same order: invariant violations, reachables, the
// states outside the constraints and accepting states are all preserved.
//
// Failures (a failed assert, a run-time error) are the failing rule's
// transition to a sink. A rule u outside T fails after a sequence of other
// rules outside T exactly as it would after t of T first (t writes nothing
// u reads, or u would be in T), so the failure stays reachable; the proviso
// keeps it from being postponed forever, as for the predicates.
//
// Cycle proviso, for breadth-first search. A reduced expansion of state s
// at depth d is kept only when one successor at least that it takes is
// new (not already found at depth <= d, so found at depth d + 1) or was
// expanded fully at an earlier level (found at a depth < d, and not
// reduced: expanded_fully()). A closure that fails this is not a candidate
// (another seed's may be); with none left the state is expanded fully.
// Among the candidates, the one with the fewest new successors is taken
// (choose()). Why this is enough: let rule t be enabled at s and left out
// of its set T. Follow from s such a successor s1, by a rule a of T: t is
// independent of a (a dependent rule of an enabled rule of T is in T), so
// t is still enabled at s1. If s1 was expanded fully, that expansion took
// t. Else s1 is new, at depth d + 1; if it is expanded reduced without t,
// it has such a successor s2 in turn, expanded fully or at depth d + 2,
// and so on: the depth grows at each step that does not end the path, so
// the path ends, at a state whose expansion takes t (a full one, or a set
// holding t). So from every state of the reduced graph, every enabled rule
// is taken along some path of it, with only rules independent of it before
// (Valmari's condition against ignoring; with D1, D2 and visibility it
// preserves every reachable violation of a safety property). The usual
// proof then goes by the length of the run w to a violation: a rule of w
// in T moves to the front (D1); when none is, the path above for the first
// rule of w is followed, each step a rule of T independent of all of w
// (which stays executable, D2, and its end state changes in invisible
// cells only), until the first rule of w is in the set. Requiring every
// successor new (as Bošnački, Leue and Lluch Lafuente's BFS proviso does)
// is stronger than needed: it also rules out cycles of reduced expansions,
// which safety does not need. "Found at depth <= d" is the fingerprint set
// minus the states found at depth d + 1 so far (the `fresh` table below,
// filled where the search records a new state); "expanded fully at an
// earlier level" asks the states found at depth d (the same table, kept
// for one level more as `prev`) and those expanded reduced (`cut`, which
// takes a level's when the next begins). Both are functions of the states
// of depth <= d and of the expansions before level d only, so the
// threaded search (same states per level) makes the same choices as the
// serial one, however its windows and batches fall. Where a table is not
// whole (a level that tried no closure recorded no states; an allocation
// failed) no state counts as expanded fully: the first form alone.
//
// DVE's error state. A rule whose evaluation may fail resets the whole
// state there (McrtDeps.resets): the closure uses what it writes otherwise
// (normal_write, which leaves out the reset's own mark, the first process
// put in its error state: part of the error state, not a write of that
// process's state cell), and a state where an enabled rule takes the error
// state is fully expanded (its successor is not the image of the others'):
// so the error state adds no dependency between two rules. A rule
// u outside T that takes the error state after a sequence w of rules
// outside T does so after t too (it reads what it read), and reaches the
// same state, the error state; so the argument for failures above applies,
// and from the error state on the runs are the same.
//
// Static futility (futility() below): when the tables show that every
// closure holds every enabled rule or a visible one, in every state, no
// closure is computed and every state is expanded as without --por.
//
// Symmetry: the set is computed at the representative state on its own
// rules, the proviso looks up the canonical successors (those the search
// stores). Liveness is refused with --por (the next-free provisos are not
// implemented), and so is the MPI engine.
#include "context/context.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

// The states found at one depth (open addressing on the fingerprint; hi
// 0: an empty slot). whole: every state found at `depth` is in it (not
// so when the level before tried no closure, or after a failed growth).
typedef struct McrtPorLevel {
  McrtFp *fp;
  uint64_t cap, count, depth;
  bool whole;
} McrtPorLevel;

// What every context of a run shares: the tables built from the
// dependency lists, the fresh states, the counters.
typedef struct McrtPorShared {
  const McrtDeps *d;
  uint32_t nrules;
  uint32_t *readers_start, *readers; // per cell: the rules whose read list holds it
  uint32_t *writers_start, *writers; // per cell: the rules that may write it
  bool *visible;                     // per rule: writes a visible cell
  uint32_t *dep_start, *dep;         // per rule: the rules dependent on it (static
                                     // lists; NULL past MCRT_POR_DEP_RULES rules)
  uint32_t *en_start, *en;           // per rule: the writers of its guard's cells
                                     // (the same bound)
  uint32_t *kw_start, *kw;           // per key conjunct: the writers of its cell that
                                     // may make it hold (may_write; the same bound)
  McrtCtx *main;                     // the search's context (its depth, its set)
  McrtPorLevel fresh, prev;          // the states found at the last depth, and the one before
  // The states of the earlier levels expanded reduced (below, "Fully
  // expanded"): keys of their fingerprints (open addressing, 0 empty);
  // those of the level being expanded wait in `pend` until it is over.
  uint64_t *cut, cut_cap, cut_count;
  uint64_t *pend, pend_len, pend_cap;
  pthread_mutex_t pend_lock;
  bool cut_whole; // false after a failed allocation: no state counts as fully expanded
  bool pend_lost; // an allocation for `pend` failed (cut_whole follows at the next level)
  size_t table_bytes;
  bool proviso; // false only under MCRT_POR_NO_PROVISO=1 (tests/por: the proviso matters)
  const char *futile; // why no state can be reduced (futility() below), or NULL
  bool sampling;      // false only under MCRT_POR_NO_SAMPLING=1 (bench/por.sh: its effect)
  _Atomic uint64_t reduced, full, pruned;
  // The sampling of closures (sample_period below): the period of the
  // level being expanded, that level, and over its expansions that tried
  // the closures: how many, how many were reduced, the successors they
  // pruned and the closure steps they cost; skipped: expansions not tried,
  // all run.
  pthread_mutex_t level_lock;
  _Atomic uint64_t level;
  _Atomic uint32_t period; // 0: no expansion of the level tries them
  uint32_t backoff;        // the period, doubled past the largest: whole levels skipped
  _Atomic uint64_t level_tried, level_reduced, level_pruned, level_steps;
  _Atomic uint64_t skipped; // the workers' (McrtPor.skipped), added when they are freed
  // --por auto (the default): the reduction is retired when even the
  // levels tried at the largest period did not pay (sample_period): from
  // the level `retired_depth` on, every state is expanded fully and nothing
  // is recorded, and the threads leave fixed order (mcrt_por_retired).
  bool may_retire;
  _Atomic bool retired;
  uint64_t retired_depth;
  // MCRT_POR_WHY=1 (a diagnosis, see why_report): why the tried expansions
  // that were not reduced were not, and (=2) which rules pulled the other
  // enabled ones into the closures that held them all.
  int why;
  _Atomic uint64_t why_count[7];
  _Atomic uint64_t *why_pull; // nrules * nrules: the rule that added an enabled rule
} McrtPorShared;

// One context's scratch: the successors of the state being expanded, and
// the marks of the closure.
struct McrtPor {
  McrtPorShared *sh;
  bool owner;
  size_t stride;
  uint8_t *states; // captured successors, stride bytes each
  uint64_t *rules;
  uint32_t *actions;
  uint32_t nsucc, cap;
  uint32_t *succ_of; // per rule: its captured successor, when en_gen[rule] is state_gen
  uint32_t *en_gen, state_gen;
  uint32_t *mark, mark_gen; // closure membership
  uint32_t *stack;
  bool *take, *best; // per captured successor
  uint8_t *canon;
  const uint8_t *cur; // the state being expanded
  uint64_t work;      // rules looked at by the closure being computed
  uint64_t scan;      // writers counted by falsified_key for it
  uint64_t steps;     // work and scan of every closure of this state, and its successors
  uint32_t spent;     // closures of this state given up for the budget
  uint64_t budget;    // the most either may reach
  uint32_t marked_enabled; // enabled rules marked in the closure being computed
  uint8_t why;        // how the last closure ended (WHY_*), under MCRT_POR_WHY
  uint32_t *parent;   // per rule: the rule whose step added it (MCRT_POR_WHY=2)
  uint32_t adding;    // the rule being stepped (MCRT_POR_WHY=2)
  McrtCtx *ctx;       // the context expanding (age_of)
  uint32_t bound_fresh, bound_n, fresh_so_far; // the best candidate's new successors and
                                               // enabled rules (UINT32_MAX: none yet)
  uint8_t *age;       // per captured successor: 0 not looked up yet, 1 new, 2 old
  // Expansions that did not try the closures (sampling), counted here, not
  // in a counter every thread would write at each state.
  uint64_t skipped;
};

// ---------------------------------------------------------------------------
// Setup

// Per cell, the rules whose list (start/list) holds it, as offsets + rules.
static bool invert(const McrtDeps *d, uint32_t nrules, const uint32_t *start,
                   const uint32_t *list, uint32_t **out_start, uint32_t **out) {
  uint32_t *s = calloc((size_t)d->ncells + 2, sizeof *s);
  uint32_t *o = calloc((size_t)start[nrules] + 1, sizeof *o);
  if (!s || !o) {
    free(s), free(o);
    return false;
  }
  for (uint32_t i = 0; i < start[nrules]; i++)
    s[list[i] + 2]++;
  for (uint32_t c = 0; c < d->ncells; c++)
    s[c + 2] += s[c + 1];
  for (uint32_t r = 0; r < nrules; r++)
    for (uint32_t i = start[r]; i < start[r + 1]; i++)
      o[s[list[i] + 1]++] = r;
  *out_start = s;
  *out = o;
  return true;
}

// Keeps the search context's por_bytes (accounted under --memory) up to
// date: the tables, the level and reduced-state tables and the main
// context's scratch.
static void account(McrtPorShared *sh, const McrtPor *p) {
  sh->main->por_bytes = sh->table_bytes + (sh->fresh.cap + sh->prev.cap) * sizeof(McrtFp) +
                        (sh->cut_cap + sh->pend_cap) * sizeof(uint64_t) +
                        ((size_t)sh->nrules + 1) * 4 * sizeof(uint32_t) +
                        (size_t)p->cap * (p->stride + sizeof(uint64_t) + sizeof(uint32_t) + 2);
}

#define MCRT_POR_DEP_RULES 4096

// Per rule, the rules dependent on it by its static lists (what the
// closure would gather cell by cell: guard = false), or the writers of the
// cells its guard reads (its enabling set when no key conjunct is false:
// guard = true), once for the run, each rule once in a list.
static bool tabulate(McrtPorShared *sh, bool guard, uint32_t **out_start, uint32_t **out) {
  const McrtDeps *d = sh->d;
  uint32_t n = sh->nrules;
  uint32_t *seen = calloc((size_t)n + 1, sizeof *seen);
  uint32_t *dep_start = *out_start = calloc((size_t)n + 1, sizeof *dep_start);
  size_t cap = 1024, len = 0;
  uint32_t *dep = *out = malloc(cap * sizeof *dep);
  if (!seen || !dep_start || !dep)
    return free(seen), false;
  for (uint32_t r = 0; r < n; r++) {
    dep_start[r] = (uint32_t)len;
    for (int pass = guard ? 1 : 0; pass < (guard ? 2 : 3); pass++) {
      const uint32_t *start = guard ? d->guard_start
                              : pass == 2 ? d->read_start : d->normal_write_start;
      const uint32_t *list = guard ? d->guard : pass == 2 ? d->read : d->normal_write;
      const uint32_t *ostart = pass == 0 ? sh->readers_start : sh->writers_start;
      const uint32_t *other = pass == 0 ? sh->readers : sh->writers;
      for (uint32_t i = start[r]; i < start[r + 1]; i++)
        for (uint32_t j = ostart[list[i]]; j < ostart[list[i] + 1]; j++) {
          uint32_t u = other[j];
          if (seen[u] == r + 1)
            continue;
          seen[u] = r + 1;
          if (len == cap) {
            uint32_t *t = realloc(dep, 2 * cap * sizeof *t);
            if (!t)
              return free(seen), false;
            dep = *out = t, cap *= 2;
          }
          dep[len++] = u;
        }
    }
  }
  dep_start[n] = (uint32_t)len;
  sh->table_bytes += (len + n + 1) * sizeof(uint32_t);
  free(seen);
  return true;
}

// Whether encoding x compares to v by key comparison op (McrtDeps.key_op).
static bool key_holds(uint64_t x, uint8_t op, uint64_t v) {
  switch (op) {
  case 0:
    return x == v;
  case 1:
    return x != v;
  case 2:
    return x < v;
  case 3:
    return x <= v;
  case 4:
    return x > v;
  default:
    return x >= v;
  }
}

// Whether rule w may make key conjunct k (cell c) hold: it writes c other
// than by constant assignments (or through a dynamic index, a method,
// which leave no pair), or one of its constants makes the conjunct hold.
static bool may_write(const McrtDeps *d, uint32_t w, uint32_t c, uint32_t k) {
  bool paired = false;
  for (uint32_t i = d->values_start[w]; i < d->values_start[w + 1]; i++) {
    if (d->values[2 * i] != (int64_t)c)
      continue;
    paired = true;
    if (d->values[2 * i + 1] < 0 ||
        key_holds((uint64_t)d->values[2 * i + 1], d->key_op[k], d->key_value[k]))
      return true;
  }
  return !paired;
}

// Per key conjunct, the writers of its cell that may make it hold, once
// for the run (what falsified_key and the closure walk at every disabled
// rule otherwise, each writer's values scanned: most of the time of the
// closures on at.3 and lamport.5).
static bool tabulate_keys(McrtPorShared *sh) {
  const McrtDeps *d = sh->d;
  uint32_t nkeys = d->key_start[sh->nrules];
  sh->kw_start = calloc((size_t)nkeys + 1, sizeof *sh->kw_start);
  size_t cap = 1024, len = 0;
  sh->kw = malloc(cap * sizeof *sh->kw);
  if (!sh->kw_start || !sh->kw)
    return false;
  for (uint32_t k = 0; k < nkeys; k++) {
    sh->kw_start[k] = (uint32_t)len;
    uint32_t c = d->key_cell[k];
    for (uint32_t j = sh->writers_start[c]; j < sh->writers_start[c + 1]; j++) {
      if (!may_write(d, sh->writers[j], c, k))
        continue;
      if (len == cap) {
        uint32_t *t = realloc(sh->kw, 2 * cap * sizeof *t);
        if (!t)
          return false;
        sh->kw = t, cap *= 2;
      }
      sh->kw[len++] = sh->writers[j];
    }
  }
  sh->kw_start[nkeys] = (uint32_t)len;
  sh->table_bytes += (len + nkeys + 1) * sizeof(uint32_t);
  return true;
}

// Static futility: why no closure can ever be used, or NULL. A closure
// that holds an enabled visible rule is not used, and the closure of an
// enabled seed r holds r and at least every rule that writes a cell r reads
// or reads or writes a cell r writes, r's accesses taken at their constant
// indices only (pread, pwrite: the fewest the closure ever uses, whatever
// the state; the other rules' lists are the static ones, as in closure()).
// When every rule is visible or has all the rules in that least closure,
// every closure holds all the enabled rules or a visible one, in every
// state: the search then expands every state fully without computing
// them, which gives the same graph. The check gives up (NULL) past a work
// bound, so it costs at most a few list walks per rule on large models.
static const char *futility(const McrtPorShared *sh) {
  const McrtDeps *d = sh->d;
  uint32_t n = sh->nrules, visible = 0;
  if (n < 2)
    return "the model has fewer than two action bindings";
  uint32_t *seen = calloc((size_t)n, sizeof *seen);
  if (!seen)
    return NULL;
  uint64_t work = 0, bound = (uint64_t)64 * n + (UINT64_C(1) << 24);
  for (uint32_t r = 0; r < n; r++) {
    if (sh->visible[r]) {
      visible++;
      continue;
    }
    seen[r] = r + 1;
    uint32_t count = 1;
    for (int pass = 0; pass < 3; pass++) {
      const uint32_t *start = pass == 2 ? d->pread_start : d->pwrite_start;
      const uint32_t *list = pass == 2 ? d->pread : d->pwrite;
      const uint32_t *ostart = pass == 0 ? sh->readers_start : sh->writers_start;
      const uint32_t *other = pass == 0 ? sh->readers : sh->writers;
      for (uint32_t i = start[r]; i < start[r + 1]; i++) {
        uint32_t c = list[i];
        work += ostart[c + 1] - ostart[c];
        if (work > bound)
          return free(seen), NULL;
        for (uint32_t j = ostart[c]; j < ostart[c + 1]; j++)
          if (seen[other[j]] != r + 1)
            seen[other[j]] = r + 1, count++;
      }
    }
    if (count < n)
      return free(seen), NULL;
  }
  free(seen);
  return visible == n ? "every action binding writes a cell a property reads (visible)"
                      : "every action binding that is not visible depends on every other one";
}

// MCRT_POR_WHY=1: at the end of the run, on stderr, why the expansions
// that tried the closures and were not reduced were not (a diagnosis for
// bench/por.sh's instances; nothing of it runs otherwise). =2 adds, for the
// closures that held every enabled rule, the rules whose step added an
// enabled one most often (`parent -> enabled`; rule numbers as mcgen --deps
// prints them).
static void why_report(const McrtPorShared *sh) {
  if (!sh->why)
    return;
  static const char *const name[] = {"proviso rejected every smaller closure",
                                     "a closure held a visible rule",
                                     "a closure was over its work budget",
                                     "every closure held every enabled rule",
                                     "trivial (one successor, a failure)",
                                     "reduced", "a rule took the error state"};
  fprintf(stderr, "por why: %" PRIu64 " expansions did not try the closures (sampling)\n",
          atomic_load(&sh->skipped));
  for (int i = 0; i < 7; i++)
    fprintf(stderr, "por why: %" PRIu64 " %s\n", atomic_load(&sh->why_count[i]), name[i]);
  if (!sh->why_pull)
    return;
  size_t n = (size_t)sh->nrules * sh->nrules;
  for (int top = 0; top < 25; top++) {
    size_t best = n;
    uint64_t most = 0;
    for (size_t i = 0; i < n; i++)
      if (atomic_load_explicit(&sh->why_pull[i], memory_order_relaxed) > most)
        most = atomic_load_explicit(&sh->why_pull[i], memory_order_relaxed), best = i;
    if (best == n)
      break;
    fprintf(stderr, "por why: %" PRIu64 " times rule %zu -> enabled rule %zu\n", most,
            best / sh->nrules, best % sh->nrules);
    atomic_store_explicit(&sh->why_pull[best], 0, memory_order_relaxed);
  }
}

static McrtPor *scratch_new(McrtPorShared *sh, size_t state_bytes) {
  McrtPor *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->sh = sh;
  p->stride = state_bytes + MCRT_SLACK;
  size_t n = (size_t)sh->nrules + 1;
  p->succ_of = calloc(n, sizeof *p->succ_of);
  p->en_gen = calloc(n, sizeof *p->en_gen);
  p->mark = calloc(n, sizeof *p->mark);
  p->stack = calloc(n, sizeof *p->stack);
  p->canon = calloc(1, p->stride);
  if (sh->why_pull)
    p->parent = calloc(n, sizeof *p->parent);
  if (!p->succ_of || !p->en_gen || !p->mark || !p->stack || !p->canon) {
    mcrt_por_free(p);
    return NULL;
  }
  return p;
}

McrtPor *mcrt_por_new(McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const McrtDeps *d = m->deps;
  McrtPorShared *sh = calloc(1, sizeof *sh);
  if (!sh || !d)
    return free(sh), NULL;
  sh->d = d;
  sh->nrules = (uint32_t)m->nrules;
  sh->main = ctx;
  const char *no_proviso = getenv("MCRT_POR_NO_PROVISO");
  sh->proviso = !(no_proviso && !strcmp(no_proviso, "1"));
  const char *no_sampling = getenv("MCRT_POR_NO_SAMPLING");
  sh->sampling = !(no_sampling && !strcmp(no_sampling, "1"));
  sh->may_retire = sh->sampling && ctx->opt->por_mode == MCRT_POR_AUTO;
  const char *why = getenv("MCRT_POR_WHY");
  sh->why = why ? atoi(why) : 0;
  if (sh->why >= 2 && sh->nrules <= 1024)
    sh->why_pull = calloc((size_t)sh->nrules * sh->nrules, sizeof *sh->why_pull);
  sh->visible = calloc((size_t)sh->nrules + 1, sizeof *sh->visible);
  bool *vis_cell = calloc((size_t)d->ncells + 1, sizeof *vis_cell);
  if (!sh->visible || !vis_cell ||
      !invert(d, sh->nrules, d->read_start, d->read, &sh->readers_start, &sh->readers) ||
      !invert(d, sh->nrules, d->normal_write_start, d->normal_write, &sh->writers_start,
              &sh->writers)) {
    free(vis_cell);
    goto fail;
  }
  for (uint32_t i = 0; i < d->nvisible; i++)
    vis_cell[d->visible[i]] = true;
  for (uint32_t r = 0; r < sh->nrules; r++)
    for (uint32_t i = d->normal_write_start[r]; i < d->normal_write_start[r + 1]; i++)
      sh->visible[r] |= vis_cell[d->normal_write[i]];
  free(vis_cell);
  if (sh->nrules <= MCRT_POR_DEP_RULES &&
      (!tabulate(sh, false, &sh->dep_start, &sh->dep) ||
       !tabulate(sh, true, &sh->en_start, &sh->en) || !tabulate_keys(sh)))
    goto fail;
  sh->futile = futility(sh);
  pthread_mutex_init(&sh->level_lock, NULL);
  atomic_init(&sh->period, 1);
  sh->backoff = 1;
  pthread_mutex_init(&sh->pend_lock, NULL);
  sh->cut_whole = true;
  sh->fresh.cap = sh->prev.cap = 1024;
  sh->fresh.fp = calloc(sh->fresh.cap, sizeof(McrtFp));
  sh->prev.fp = calloc(sh->prev.cap, sizeof(McrtFp));
  sh->fresh.depth = sh->prev.depth = UINT64_MAX;
  if (!sh->fresh.fp || !sh->prev.fp)
    goto fail;
  sh->table_bytes += ((size_t)d->ncells * 2 + d->read_start[sh->nrules] +
                     d->normal_write_start[sh->nrules]) * sizeof(uint32_t) + sh->nrules;
  McrtPor *p = scratch_new(sh, ctx->state_bytes);
  if (!p)
    goto fail;
  p->owner = true;
  ctx->por = p;
  account(sh, p);
  return p;
fail:
  free(sh->dep_start), free(sh->dep), free(sh->en_start), free(sh->en);
  free(sh->kw_start), free(sh->kw);
  free(sh->visible), free(sh->readers_start), free(sh->readers);
  free(sh->writers_start), free(sh->writers), free(sh->fresh.fp), free(sh->prev.fp);
  free(sh->why_pull), free(sh);
  return NULL;
}

McrtPor *mcrt_por_worker(const McrtPor *main) {
  return main ? scratch_new(main->sh, main->stride - MCRT_SLACK) : NULL;
}

void mcrt_por_free(McrtPor *p) {
  if (!p)
    return;
  // Its count goes to the run's (a worker's, for the report; the owner's,
  // for why_report).
  atomic_fetch_add_explicit(&p->sh->skipped, p->skipped, memory_order_relaxed);
  if (p->owner) {
    McrtPorShared *sh = p->sh;
    why_report(sh);
    pthread_mutex_destroy(&sh->level_lock);
    pthread_mutex_destroy(&sh->pend_lock);
    free(sh->dep_start), free(sh->dep), free(sh->en_start), free(sh->en);
    free(sh->kw_start), free(sh->kw);
    free(sh->visible), free(sh->readers_start), free(sh->readers);
    free(sh->writers_start), free(sh->writers), free(sh->fresh.fp), free(sh->prev.fp);
    free(sh->cut), free(sh->pend), free(sh->why_pull), free(sh);
  }
  free(p->parent);
  free(p->states), free(p->rules), free(p->actions);
  free(p->succ_of), free(p->en_gen), free(p->mark), free(p->stack);
  free(p->take), free(p->best), free(p->age), free(p->canon);
  free(p);
}

// ---------------------------------------------------------------------------
// The states found at the depth being discovered (the proviso's "new").

static uint64_t level_home(const McrtPorLevel *t, McrtFp fp) {
  return (fp.hi ^ (fp.lo * UINT64_C(0x9e3779b97f4a7c15))) & (t->cap - 1);
}

static bool level_has(const McrtPorLevel *t, McrtFp fp) {
  if (!t->count)
    return false;
  for (uint64_t i = level_home(t, fp);; i = (i + 1) & (t->cap - 1)) {
    if (!t->fp[i].hi)
      return false;
    if (t->fp[i].hi == fp.hi && t->fp[i].lo == fp.lo)
      return true;
  }
}

static bool fresh_has(const McrtPorShared *sh, McrtFp fp, uint64_t depth) {
  return sh->fresh.depth == depth && level_has(&sh->fresh, fp);
}

static void level_put(McrtPorLevel *t, McrtFp fp) {
  for (uint64_t i = level_home(t, fp);; i = (i + 1) & (t->cap - 1))
    if (!t->fp[i].hi) {
      t->fp[i] = fp;
      t->count++;
      return;
    }
}

void mcrt_por_discovered(McrtCtx *ctx, McrtFp fp, uint64_t depth) {
  McrtPorShared *sh = ctx->por->sh;
  // Only the expansions of the level before look these up: none when that
  // level tries no closure (sample_period), or when no state can reduce.
  if (sh->futile || (atomic_load_explicit(&sh->level, memory_order_acquire) + 1 == depth &&
                     !atomic_load_explicit(&sh->period, memory_order_relaxed)))
    return;
  if (depth != sh->fresh.depth) { // a new level: the last one is all "old" now
    // It becomes the level before (the states of the depth being
    // expanded, which the proviso does not count as expanded earlier).
    McrtPorLevel t = sh->prev;
    sh->prev = sh->fresh;
    sh->fresh = t;
    memset(sh->fresh.fp, 0, sh->fresh.cap * sizeof(McrtFp));
    sh->fresh.count = 0;
    sh->fresh.depth = depth;
    sh->fresh.whole = true;
    account(sh, ctx->por); // the reduced states' table may have grown (cut_merge)
  }
  if (2 * (sh->fresh.count + 1) > sh->fresh.cap) {
    McrtPorLevel old = sh->fresh;
    McrtFp *t = calloc(2 * old.cap, sizeof *t);
    if (!t) { // no room to remember: every such state will look old (full expansions)
      memset(sh->fresh.fp, 0, sh->fresh.cap * sizeof(McrtFp));
      sh->fresh.count = 0;
      sh->fresh.whole = false;
      return;
    }
    sh->fresh.fp = t, sh->fresh.cap = 2 * old.cap, sh->fresh.count = 0;
    for (uint64_t i = 0; i < old.cap; i++)
      if (old.fp[i].hi)
        level_put(&sh->fresh, old.fp[i]);
    free(old.fp);
    account(sh, ctx->por);
  }
  level_put(&sh->fresh, fp);
}

// ---------------------------------------------------------------------------
// Fully expanded. The proviso also accepts a reduced expansion one of
// whose successors (in the set) was expanded fully at an earlier level:
// found at a depth < d, and not among the states expanded reduced (`cut`),
// which every expansion of those levels has added to by now. A state the
// search stores is expanded fully unless mcrt_por_choose reduced it.

static uint64_t cut_key(McrtFp fp) {
  uint64_t k = fp.hi ^ (fp.lo * UINT64_C(0x9e3779b97f4a7c15));
  return k ? k : 1; // a key collision only makes a state look reduced: no credit
}

static bool cut_has(const McrtPorShared *sh, uint64_t k) {
  if (!sh->cut_count)
    return false;
  for (uint64_t i = k & (sh->cut_cap - 1);; i = (i + 1) & (sh->cut_cap - 1)) {
    if (!sh->cut[i])
      return false;
    if (sh->cut[i] == k)
      return true;
  }
}

static void cut_put(McrtPorShared *sh, uint64_t k) {
  for (uint64_t i = k & (sh->cut_cap - 1);; i = (i + 1) & (sh->cut_cap - 1)) {
    if (sh->cut[i] == k)
      return;
    if (!sh->cut[i]) {
      sh->cut[i] = k;
      sh->cut_count++;
      return;
    }
  }
}

// A state expanded reduced at the level being expanded (any thread).
static void cut_pend(McrtPorShared *sh, uint64_t k) {
  pthread_mutex_lock(&sh->pend_lock);
  if (sh->pend_lost) { // no use any more (see cut_merge)
    pthread_mutex_unlock(&sh->pend_lock);
    return;
  }
  if (sh->pend_len == sh->pend_cap) {
    uint64_t cap = sh->pend_cap ? 2 * sh->pend_cap : 1024;
    uint64_t *t = realloc(sh->pend, cap * sizeof *t);
    if (t)
      sh->pend = t, sh->pend_cap = cap;
    else
      sh->pend_lost = true; // this state would be missed: count none as fully expanded
  }
  if (sh->pend_len < sh->pend_cap)
    sh->pend[sh->pend_len++] = k;
  pthread_mutex_unlock(&sh->pend_lock);
}

// At a new level (under level_lock, every expansion of the last one over):
// its reduced states join the table.
static void cut_merge(McrtPorShared *sh) {
  sh->cut_whole &= !sh->pend_lost;
  if (!sh->cut_whole)
    sh->pend_len = 0;
  if (!sh->pend_len)
    return;
  if (2 * (sh->cut_count + sh->pend_len) > sh->cut_cap) {
    uint64_t cap = sh->cut_cap ? sh->cut_cap : 1024;
    while (2 * (sh->cut_count + sh->pend_len) > cap)
      cap *= 2;
    uint64_t *old = sh->cut, old_cap = sh->cut_cap;
    uint64_t *t = calloc(cap, sizeof *t);
    if (!t) {
      sh->cut_whole = false;
      return;
    }
    sh->cut = t, sh->cut_cap = cap, sh->cut_count = 0;
    for (uint64_t i = 0; i < old_cap; i++)
      if (old[i])
        cut_put(sh, old[i]);
    free(old);
  }
  for (uint64_t i = 0; i < sh->pend_len; i++)
    cut_put(sh, sh->pend[i]);
  sh->pend_len = 0;
}

// Whether an old successor (fingerprint fp) of a state at depth d was
// expanded fully at an earlier level: not found at depth d (the tables say
// which states were, when they hold them all), and not reduced.
static bool expanded_fully(const McrtPorShared *sh, McrtFp fp, uint64_t d) {
  const McrtPorLevel *at_d = sh->fresh.depth == d ? &sh->fresh
                             : sh->prev.depth == d ? &sh->prev
                                                   : NULL;
  return sh->cut_whole && at_d && at_d->whole && !level_has(at_d, fp) &&
         !cut_has(sh, cut_key(fp));
}

// ---------------------------------------------------------------------------
// Expansion

static bool capture(McrtCtx *ctx, const uint8_t *next, uint32_t action, uint64_t rule) {
  McrtPor *p = ctx->por;
  if (p->nsucc == p->cap) {
    uint32_t cap = p->cap ? 2 * p->cap : 16;
    uint8_t *st = realloc(p->states, (size_t)cap * p->stride);
    if (st)
      p->states = st;
    uint64_t *ru = realloc(p->rules, cap * sizeof *ru);
    if (ru)
      p->rules = ru;
    uint32_t *ac = realloc(p->actions, cap * sizeof *ac);
    if (ac)
      p->actions = ac;
    bool *tk = realloc(p->take, cap * sizeof *tk);
    if (tk)
      p->take = tk;
    bool *be = realloc(p->best, cap * sizeof *be);
    if (be)
      p->best = be;
    uint8_t *ag = realloc(p->age, cap * sizeof *ag);
    if (ag)
      p->age = ag;
    if (!st || !ru || !ac || !tk || !be || !ag)
      mcrt_die("out of memory in partial-order reduction");
    p->cap = cap;
    if (p->owner)
      account(p->sh, p);
  }
  memcpy(p->states + (size_t)p->nsucc * p->stride, next, ctx->state_bytes);
  p->rules[p->nsucc] = rule;
  p->actions[p->nsucc] = action;
  p->nsucc++;
  return false;
}

// How a closure or a state's choice ended, for MCRT_POR_WHY (why_report).
enum {
  WHY_PROVISO, // a closure smaller than all failed the cycle proviso (none passed)
  WHY_VISIBLE, // a closure held an enabled visible rule (and none failed the proviso only)
  WHY_BUDGET,  // a closure was given up for its work budget
  WHY_ALL,     // every closure held every enabled rule
  WHY_TRIVIAL, // one successor or none, a failure, the depth bound
  WHY_REDUCED,
  WHY_ERROR,   // an enabled rule took DVE's error state
  WHY_SMALLER = 7 // a closure that could not beat the best so far (not a reason)
};

static void add(McrtPor *p, uint32_t *top, uint32_t r) {
  p->work++;
  if (p->mark[r] != p->mark_gen) {
    p->mark[r] = p->mark_gen;
    p->stack[(*top)++] = r;
    p->marked_enabled += p->en_gen[r] == p->state_gen;
    if (p->parent)
      p->parent[r] = p->adding;
  }
}

// The cell of a key conjunct of disabled rule r that is false in the state
// being expanded, the one whose writers add the fewest rules not yet in the
// closure; UINT32_MAX when none is false (or r has none).
static uint32_t falsified_key(McrtPor *p, uint32_t r, uint32_t *key) {
  const McrtPorShared *sh = p->sh;
  const McrtDeps *d = sh->d;
  uint32_t best = UINT32_MAX, best_new = UINT32_MAX;
  for (uint32_t k = d->key_start[r]; k < d->key_start[r + 1]; k++) {
    uint32_t c = d->key_cell[k];
    if (key_holds(mcrt_get_wide(p->cur, d->cell_bits[2 * c], d->cell_bits[2 * c + 1]),
                  d->key_op[k], d->key_value[k]))
      continue; // this conjunct holds
    // The writers that would be added: those that may make it hold
    // (tabulated), or every writer of the cell.
    const uint32_t *w = sh->kw ? sh->kw + sh->kw_start[k] : sh->writers + sh->writers_start[c];
    uint32_t nw = sh->kw ? sh->kw_start[k + 1] - sh->kw_start[k]
                         : sh->writers_start[c + 1] - sh->writers_start[c];
    uint32_t fresh = 0;
    p->scan += nw;
    if (p->scan > p->budget)
      return UINT32_MAX; // the closure gives up
    for (uint32_t j = 0; j < nw; j++)
      fresh += p->mark[w[j]] != p->mark_gen;
    if (fresh < best_new)
      best = c, best_new = fresh, *key = k;
  }
  return best;
}

// Adds the rules dependent on a rule that writes (or only reads) cell c:
// its readers and writers (or its writers).
static void add_dependents(McrtPor *p, uint32_t *top, uint32_t c, bool write) {
  const McrtPorShared *sh = p->sh;
  if (write)
    for (uint32_t j = sh->readers_start[c]; j < sh->readers_start[c + 1]; j++)
      add(p, top, sh->readers[j]);
  for (uint32_t j = sh->writers_start[c]; j < sh->writers_start[c + 1]; j++)
    add(p, top, sh->writers[j]);
}

// Whether every access of rule r at a dynamic index selects an element in
// the state being expanded, and the rule does not write the index cell
// itself (then the element could change before the access).
static bool resolve_dyn(const McrtPor *p, uint32_t r) {
  const McrtDeps *d = p->sh->d;
  for (uint32_t e = d->dyn_start[r]; e < d->dyn_start[r + 1]; e++) {
    const int64_t *x = d->dyn + 8 * (size_t)e;
    int64_t pos = (int64_t)mcrt_get_wide(p->cur, d->cell_bits[2 * x[3]],
                                         d->cell_bits[2 * x[3] + 1]) + x[4];
    if (pos < 0 || pos >= x[2])
      return false;
    for (uint32_t i = d->pwrite_start[r]; i < d->pwrite_start[r + 1]; i++)
      if (d->pwrite[i] == (uint32_t)x[3])
        return false;
  }
  return true;
}

// The fingerprint the search stores for a state (its representative's
// under symmetry).
static McrtFp stored_fp(McrtCtx *ctx, McrtPor *p, const uint8_t *state) {
  if (ctx->sym) {
    mcrt_sym_canon(ctx->sym, state, p->canon);
    state = p->canon;
  }
  return mcrt_fingerprint(state, ctx->state_bytes, ctx->fp_bits);
}

// How a successor stands for the proviso: 1 new (not found at a depth <=
// the current one d), 3 found at a depth < d and expanded fully, 2 else.
static uint8_t age_of(McrtCtx *ctx, McrtPor *p, const uint8_t *state) {
  McrtCtx *main = p->sh->main;
  McrtFp fp = stored_fp(ctx, p, state);
  if (!mcrt_fpset_contains(&main->set, fp) || fresh_has(p->sh, fp, main->cur_depth + 1))
    return 1;
  return expanded_fully(p->sh, fp, main->cur_depth) ? 3 : 2;
}

// The closure of seed (a captured successor's rule): marks its enabled
// rules in p->take and returns how many, or UINT32_MAX when it holds a
// visible enabled rule, reaches `limit` enabled rules or cannot beat the
// best candidate of this state (p->bound_fresh, p->bound_n).
static uint32_t closure(McrtPor *p, uint32_t seed, uint32_t limit) {
  McrtPorShared *sh = p->sh;
  const McrtDeps *d = sh->d;
  if (++p->mark_gen == 0) {
    memset(p->mark, 0, ((size_t)sh->nrules + 1) * sizeof *p->mark);
    p->mark_gen = 1;
  }
  memset(p->take, 0, p->nsucc * sizeof *p->take);
  uint32_t top = 0, enabled = 0, c, k;
  // A closure that grows past this much work is given up (the state is
  // then expanded with another seed's closure or fully): bounds the cost
  // of a state on models whose rules share many cells, by the rules and by
  // the enabled ones (pouring.2: 1724 rules on 7 cells, 24 enabled).
  uint64_t budget = 2 * (uint64_t)sh->nrules + 256;
  if (budget > 32 * (uint64_t)p->nsucc + 256)
    budget = 32 * (uint64_t)p->nsucc + 256;
  // A list walk stops past four times the budget (one rule's list can be
  // all the rules): the closure is then incomplete, and given up.
  uint64_t hard = 4 * budget;
  p->budget = hard;
  p->work = p->scan = 0;
  p->marked_enabled = 0;
  p->fresh_so_far = 0;
  p->why = WHY_BUDGET; // what every early return below but two is
  p->adding = seed;
  add(p, &top, seed);
  while (top > 0) {
    // Every rule marked ends up in the closure: once `limit` enabled ones
    // are, this closure cannot win (stopping early, not only when they are
    // reached, is most of the saving on models that reduce nothing).
    if (p->work > budget)
      return p->spent++, UINT32_MAX;
    if (p->marked_enabled >= limit)
      return p->why = limit == p->nsucc ? WHY_ALL : WHY_SMALLER, UINT32_MAX;
    uint32_t r = p->stack[--top];
    p->adding = r;
    if (p->en_gen[r] == p->state_gen) {
      if (sh->visible[r])
        return p->why = WHY_VISIBLE, UINT32_MAX;
      if (++enabled >= limit)
        return p->why = limit == p->nsucc ? WHY_ALL : WHY_SMALLER, UINT32_MAX;
      p->take[p->succ_of[r]] = true;
      if (p->bound_fresh != UINT32_MAX) {
        // A closure with more new successors than the best candidate's, or
        // as many and as many enabled rules, cannot be chosen (choose()).
        uint32_t i = p->succ_of[r];
        if (!p->age[i])
          p->age[i] = age_of(p->ctx, p, p->states + (size_t)i * p->stride);
        p->fresh_so_far += p->age[i] == 1;
        if (p->fresh_so_far > p->bound_fresh ||
            (p->fresh_so_far == p->bound_fresh && enabled >= p->bound_n))
          return p->why = WHY_SMALLER, UINT32_MAX;
      }
      bool has_dyn = d->dyn_start[r] < d->dyn_start[r + 1];
      if ((!has_dyn || !resolve_dyn(p, r)) && sh->dep) { // the static lists, tabulated
        if (p->work + sh->dep_start[r + 1] - sh->dep_start[r] > budget)
          return p->spent++, UINT32_MAX; // the walk would be cut short
        for (uint32_t i = sh->dep_start[r]; i < sh->dep_start[r + 1] && p->work <= hard; i++)
          add(p, &top, sh->dep[i]);
        continue;
      }
      if (has_dyn && !resolve_dyn(p, r)) { // the rule's static lists (every element)
        for (uint32_t i = d->normal_write_start[r]; i < d->normal_write_start[r + 1]; i++)
          add_dependents(p, &top, d->normal_write[i], true);
        for (uint32_t i = d->read_start[r]; i < d->read_start[r + 1]; i++)
          add_dependents(p, &top, d->read[i], false);
        continue;
      }
      for (uint32_t i = d->pwrite_start[r]; i < d->pwrite_start[r + 1]; i++)
        add_dependents(p, &top, d->pwrite[i], true);
      for (uint32_t i = d->pread_start[r]; i < d->pread_start[r + 1]; i++)
        add_dependents(p, &top, d->pread[i], false);
      for (uint32_t e = d->dyn_start[r]; e < d->dyn_start[r + 1]; e++) {
        const int64_t *x = d->dyn + 8 * (size_t)e; // base k n cell shift inner size write
        int64_t pos = (int64_t)mcrt_get_wide(p->cur, d->cell_bits[2 * x[3]],
                                             d->cell_bits[2 * x[3] + 1]) + x[4];
        for (int64_t k2 = 0; k2 < x[6]; k2++)
          add_dependents(p, &top, (uint32_t)(x[0] + pos * x[1] + x[5] + k2), x[7] != 0);
      }
    } else if ((c = falsified_key(p, r, &k)) != UINT32_MAX) {
      // Disabled by a key conjunct: only a writer of its cell enables it,
      // and only one that may write a value that makes it hold.
      if (sh->kw)
        for (uint32_t j = sh->kw_start[k]; j < sh->kw_start[k + 1] && p->work <= hard; j++)
          add(p, &top, sh->kw[j]);
      else
        for (uint32_t j = sh->writers_start[c]; j < sh->writers_start[c + 1] && p->work <= hard;
             j++)
          if (may_write(d, sh->writers[j], c, k))
            add(p, &top, sh->writers[j]);
    } else if (p->scan > hard) {
      return p->spent++, UINT32_MAX; // falsified_key gave up
    } else if (sh->en) { // the writers of its guard's cells, tabulated
      if (p->work + sh->en_start[r + 1] - sh->en_start[r] > budget)
        return p->spent++, UINT32_MAX;
      for (uint32_t i = sh->en_start[r]; i < sh->en_start[r + 1] && p->work <= hard; i++)
        add(p, &top, sh->en[i]);
    } else {
      for (uint32_t i = d->guard_start[r]; i < d->guard_start[r + 1]; i++) {
        uint32_t c = d->guard[i];
        for (uint32_t j = sh->writers_start[c]; j < sh->writers_start[c + 1]; j++)
          add(p, &top, sh->writers[j]);
      }
    }
  }
  return p->work > hard ? (p->spent++, UINT32_MAX) : enabled;
}

// How the closure in p->take meets the cycle proviso: UINT32_MAX when
// none of its successors is new or was expanded fully at an earlier level
// (it is not a candidate), else how many of them are new.
static uint32_t proviso_met(McrtCtx *ctx, McrtPor *p) {
  bool some = false;
  uint32_t fresh = 0;
  for (uint32_t i = 0; i < p->nsucc; i++) {
    if (!p->take[i])
      continue;
    if (!p->age[i])
      p->age[i] = age_of(ctx, p, p->states + (size_t)i * p->stride);
    some |= p->age[i] != 2;
    fresh += p->age[i] == 1;
  }
  return some || !p->sh->proviso ? fresh : UINT32_MAX;
}

// MCRT_POR_WHY=2: a closure that held every enabled rule; counts, for
// each enabled rule but the seed, the rule whose step added it, and prints
// the chains of the first few such closures (seed last).
static void why_pulled(McrtPor *p, uint32_t seed) {
  McrtPorShared *sh = p->sh;
  static _Atomic int shown;
  bool show = atomic_fetch_add(&shown, 1) < 12;
  if (show)
    fprintf(stderr, "por why: closure of rule %u holds all %u enabled rules:\n", seed,
            p->nsucc);
  for (uint32_t i = 0; i < p->nsucc; i++) {
    uint32_t r = (uint32_t)p->rules[i];
    if (r == seed || p->mark[r] != p->mark_gen)
      continue;
    atomic_fetch_add_explicit(&sh->why_pull[(size_t)p->parent[r] * sh->nrules + r], 1,
                              memory_order_relaxed);
    if (!show)
      continue;
    fprintf(stderr, "  %u", r);
    for (uint32_t u = r, n = 0; u != seed && n < 64; n++) {
      u = p->parent[u];
      fprintf(stderr, " <- %u%s", u, p->en_gen[u] == p->state_gen ? "*" : "");
    }
    fputc('\n', stderr);
  }
}

// The subset to take: p->best, false when every successor is to be taken.
static bool choose(McrtCtx *ctx, McrtPor *p) {
  McrtCtx *main = p->sh->main;
  p->why = WHY_TRIVIAL;
  if (p->nsucc < 2 || main->cur_depth >= ctx->opt->max_depth)
    return false;
  if (++p->state_gen == 0) {
    memset(p->en_gen, 0, ((size_t)p->sh->nrules + 1) * sizeof *p->en_gen);
    p->state_gen = 1;
  }
  const McrtDeps *d = p->sh->d;
  for (uint32_t i = 0; i < p->nsucc; i++) {
    uint32_t r = (uint32_t)p->rules[i];
    p->en_gen[r] = p->state_gen;
    p->succ_of[r] = i;
    // A rule that took DVE's error state here wrote every cell: no
    // reduction (see the header).
    if (d->resets && d->resets[r] &&
        mcrt_get_wide(p->states + (size_t)i * p->stride, d->error_offset, d->error_width) ==
            d->error_value)
      return p->why = WHY_ERROR, false;
  }
  // Up to 8 enabled rules are tried as the seed, in the order the model
  // emits them (also one already in an earlier seed's closure: its own
  // closure may be smaller, or lead to fewer new states). A closure is a
  // candidate when it holds fewer enabled rules than all, none visible, and
  // meets the proviso (proviso_met); the candidate taken is the one with
  // the fewest new successors (then the fewest enabled rules, then the
  // earliest seed). Any candidate is sound (the choice is free); leading
  // to states already found keeps the reduced graph small in a breadth-
  // first search: on the BEEM instances of bench/por.sh this took fewer
  // states than the earlier choice (the fewest enabled rules, a closure
  // whose successors were all new preferred, seeds outside earlier
  // closures only) on protocols.2 (4,974 to 2,002), peterson.4 (883,575
  // to 823,281) and protocols.4 (86,181 to 69,439), at most 0.2% more
  // (brp.3, exit.5) where every state tried the closures (docs/
  // performance.md). The new
  // successors are counted by age_of, a function of the states of depth
  // <= d: the choice is the same at any --threads N.
  uint32_t best = p->nsucc;
  uint64_t score = UINT64_MAX; // new successors << 32 | enabled rules, of the best
  memset(p->age, 0, p->nsucc * sizeof *p->age);
  // Two closures given up for the budget: the others would be as costly.
  p->spent = 0;
  uint8_t why = WHY_ALL; // the state's, should no closure be used
  p->ctx = ctx;
  p->bound_fresh = UINT32_MAX;
  for (uint32_t i = 0; i < p->nsucc && i < 8 && score > 1 && p->spent < 2; i++) {
    uint32_t n = closure(p, (uint32_t)p->rules[i], p->nsucc);
    p->steps += p->work + p->scan;
    if (n >= p->nsucc) {
      if (p->sh->why && p->why < why)
        why = p->why;
      if (p->sh->why && p->why == WHY_ALL && p->parent)
        why_pulled(p, (uint32_t)p->rules[i]);
      continue;
    }
    uint32_t fresh = proviso_met(ctx, p);
    if (fresh == UINT32_MAX) {
      why = WHY_PROVISO;
      continue;
    }
    uint64_t sc = (uint64_t)fresh << 32 | n;
    if (sc < score) {
      score = sc, best = n;
      p->bound_fresh = fresh, p->bound_n = n;
      memcpy(p->best, p->take, p->nsucc * sizeof *p->take);
    }
  }
  p->why = best < p->nsucc ? WHY_REDUCED : why;
  return best < p->nsucc;
}

// Sampling. Where the closures rarely give a reduced expansion, or cost
// much for the little they cut, computing them is most of the cost of
// --por (every enabled rule executed into the buffer, two closures or more
// a state). So the closures are tried at one state in `period` only, the
// others expanded fully without them. After a breadth-first level the
// period is doubled when the tried expansions did not pay, and set back to
// 1 when they did; the figures add up over levels until MCRT_POR_SAMPLE
// expansions were tried (the first levels are small: one state that does
// not reduce says little). They paid when more than one in
// MCRT_POR_MIN_RATE was reduced and what they cut weighs as much as what
// they cost: MCRT_POR_STEP_WORTH closure steps (rules added or looked at,
// writers counted, successors captured) per successor pruned, plus
// MCRT_POR_FREE_STEPS per tried expansion. A step is a few nanoseconds, a
// full expansion of a state some hundred of them (BEEM instances): a
// pruned successor is worth the state it may leave out, and more where the
// reduction compounds. Measured on the BEEM instances of docs/performance.md:
// at.3, lamport.5, bopdp.3 and mcs.3 spent about 300 steps per tried
// expansion for 0.2-0.7 pruned successors (a few % fewer states, 4-5x the
// CPU); brp.3 150 steps for 0.5, collision.3 60 for 0.07, protocols.4 50
// for 0.9 (35-60% fewer states). Both measures are counts, not times, so
// the policy is a function of the states expanded. Past MCRT_POR_MAX_PERIOD whole levels go
// untried (period 0), all but one in MCRT_POR_WAKE (tried at the largest
// period): the states found at the next depth then need not be recorded
// for the proviso (mcrt_por_discovered), the rest of --por's cost. Skipping
// is sound: a full expansion is always allowed, and the cycle proviso
// concerns reduced expansions only. The states tried are those whose hash
// is 0 modulo the period, and the period of a level depends only on the
// levels before it, whose states and choices are the same at any
// --threads N: so are the reduced graph and, after an exhaustive search,
// the counts here. Not at a stop (a violation, a bound): the threads expand
// and count a whole window before its commit meets the stop, where the
// serial search stops at the state (the graph's counts stay the serial
// ones, --por running in fixed order).
#define MCRT_POR_MAX_PERIOD 64
#define MCRT_POR_MIN_RATE 64
#define MCRT_POR_SAMPLE 64
#define MCRT_POR_WAKE 8
#define MCRT_POR_STEP_WORTH 256
#define MCRT_POR_FREE_STEPS 64

// The period of the level being expanded (`depth`): the first expansion of
// a level settles it from the previous levels' figures (every expansion of
// those is over by then, in the serial and in the threaded search).
static uint32_t sample_period(McrtPorShared *sh, uint64_t depth) {
  if (atomic_load_explicit(&sh->level, memory_order_acquire) == depth)
    return atomic_load_explicit(&sh->period, memory_order_relaxed);
  pthread_mutex_lock(&sh->level_lock);
  if (atomic_load_explicit(&sh->level, memory_order_relaxed) != depth) {
    uint64_t tried = atomic_load(&sh->level_tried);
    if (tried >= MCRT_POR_SAMPLE && sh->sampling) {
      uint64_t reduced = atomic_exchange(&sh->level_reduced, 0);
      uint64_t pruned = atomic_exchange(&sh->level_pruned, 0);
      uint64_t steps = atomic_exchange(&sh->level_steps, 0);
      atomic_store(&sh->level_tried, 0);
      if (sh->why >= 3)
        fprintf(stderr, "por why: level %" PRIu64 ": %" PRIu64 " tried, %" PRIu64
                " reduced, %" PRIu64 " pruned, %" PRIu64 " steps, period %u\n",
                depth, tried, reduced, pruned, steps, sh->backoff);
      if (reduced * MCRT_POR_MIN_RATE >= tried &&
          pruned * MCRT_POR_STEP_WORTH + tried * MCRT_POR_FREE_STEPS >= steps)
        sh->backoff = 1;
      else if (sh->backoff <= MCRT_POR_MAX_PERIOD)
        sh->backoff *= 2;
      else if (sh->may_retire && !atomic_load_explicit(&sh->retired, memory_order_relaxed)) {
        sh->retired_depth = depth;
        atomic_store_explicit(&sh->retired, true, memory_order_relaxed);
      }
    }
    uint32_t period = atomic_load_explicit(&sh->retired, memory_order_relaxed) ? 0
                      : sh->backoff <= MCRT_POR_MAX_PERIOD                    ? sh->backoff
                      : depth % MCRT_POR_WAKE == 0   ? MCRT_POR_MAX_PERIOD
                                                     : 0;
    atomic_store_explicit(&sh->period, period, memory_order_relaxed);
    cut_merge(sh);
    atomic_store_explicit(&sh->level, depth, memory_order_release);
  }
  pthread_mutex_unlock(&sh->level_lock);
  return atomic_load_explicit(&sh->period, memory_order_relaxed);
}

McrtPorBatch mcrt_por_choose(McrtCtx *ctx, const uint8_t *state,
                             void (*successors)(McrtCtx *ctx, const uint8_t *state)) {
  McrtPor *p = ctx->por;
  McrtPorShared *sh = p->sh;
  if (sh->futile) // every state fully: the plain expansion, nothing captured
    return (McrtPorBatch){.plain = true};
  uint32_t period = sample_period(sh, sh->main->cur_depth);
  if (period != 1 && (!period || (XXH3_64bits(state, ctx->state_bytes) >> 58) % period)) {
    p->skipped++; // (a full expansion too: see mcrt_por_stats)
    return (McrtPorBatch){.plain = true};
  }
  bool (*saved)(McrtCtx *, const uint8_t *, uint32_t, uint64_t) = ctx->emit;
  ctx->emit = capture;
  p->nsucc = 0;
  p->cur = state;
  successors(ctx, state);
  ctx->emit = saved;
  // After a failure, what was emitted before it goes on as without
  // reduction (the search reports the failure in this state).
  p->steps = p->nsucc;
  p->why = WHY_TRIVIAL;
  bool reduce = !mcrt_failed(ctx) && choose(ctx, p);
  if (sh->why)
    atomic_fetch_add_explicit(&sh->why_count[p->why], 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&sh->level_tried, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&sh->level_reduced, reduce, memory_order_relaxed);
  atomic_fetch_add_explicit(&sh->level_steps, p->steps, memory_order_relaxed);
  if (reduce) {
    uint32_t taken = 0;
    for (uint32_t i = 0; i < p->nsucc; i++)
      taken += p->best[i];
    atomic_fetch_add_explicit(&sh->reduced, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&sh->pruned, p->nsucc - taken, memory_order_relaxed);
    cut_pend(sh, cut_key(stored_fp(ctx, p, state)));
    atomic_fetch_add_explicit(&sh->level_pruned, p->nsucc - taken, memory_order_relaxed);
  } else {
    atomic_fetch_add_explicit(&sh->full, 1, memory_order_relaxed);
  }
  return (McrtPorBatch){p->nsucc, p->states, p->stride, p->rules, p->actions,
                        reduce ? p->best : NULL, false};
}

McrtPorStats mcrt_por_stats(const McrtCtx *ctx) {
  McrtPorStats s = {0};
  if (!ctx->por)
    return s;
  McrtPorShared *sh = ctx->por->sh;
  s.on = true;
  s.reduced = atomic_load(&sh->reduced);
  s.pruned = atomic_load(&sh->pruned);
  s.futile = sh->futile;
  s.skipped = atomic_load(&sh->skipped) + ctx->por->skipped;
  s.full = atomic_load(&sh->full) + s.skipped;
  s.retired = atomic_load(&sh->retired);
  s.retired_depth = sh->retired_depth;
  return s;
}

bool mcrt_por_retired(const McrtCtx *ctx) {
  return ctx->por && atomic_load_explicit(&ctx->por->sh->retired, memory_order_relaxed);
}

const char *mcrt_por_unfit(const McrtModel *m, const McrtOptions *opt) {
  // First where --por on is refused (mcrt_por_check, mcrt_odpor_prepare and
  // mcrt_checkpoint_check say why at length).
  if (mcrt_liveness_wanted(m, opt))
    return "liveness properties are checked";
  if (m->net)
    return "a Petri net's answers are the whole graph's";
  if (opt->search != MCRT_SEARCH_BFS) // (before MPI: one rank runs odpor.c)
    return "--search odpor";
  if (mcrt_engine.search) // set by now under MPI only (odpor's comes later)
    return "the MPI engine";
  if (!m->deps)
    return "the checker has no dependency tables";
  if (opt->checkpoint_dir || opt->resume_dir) // checkpoints hold full levels only
    return opt->resume_dir ? "--resume" : "--checkpoint";
  // Then where --por on is taken but the default should not change what the
  // run answers. Under --max-depth a reduced state at the bound may hide a
  // violation the full search meets there (the run says incomplete either
  // way); an export is read as the model's graph.
  if (opt->max_depth != MCRT_UNLIMITED)
    return "--max-depth bounds the search";
  if (opt->sim_runs)
    return "--simulate";
  if (opt->graph_file || opt->dot_file || opt->tests_file)
    return "--graph, --dot and --tests export the whole graph";
  return NULL;
}

int mcrt_por_check(const McrtModel *m, const McrtOptions *opt, FILE *err) {
  if (!opt->por)
    return -1;
  if (!m->deps) {
    fprintf(err, "error: --por on: this checker has no dependency tables (the model has more "
                 "than 2^20 action rules or state cells); run with --por off\n");
    return MCRT_EXIT_USAGE;
  }
  if (m->net) {
    fprintf(err, "error: --por on: a place/transition net's answers (the state space, token "
                 "bounds, 1-safety, quasi-liveness, stable places, liveness) are those of the "
                 "whole reachability graph, which the reduction does not keep; run with --por "
                 "off\n");
    return MCRT_EXIT_USAGE;
  }
  if (mcrt_liveness_wanted(m, opt)) {
    fprintf(err, "error: --por on cannot be used while liveness properties are checked: the "
                 "reduction preserves deadlocks and safety properties only; run with --por off "
                 "(or --liveness off to check only safety with the reduction)\n");
    return MCRT_EXIT_USAGE;
  }
  if (mcrt_engine.search) {
    fprintf(err, "error: --por on is not available in the MPI engine; run the checker without "
                 "--mpi (--threads N works with --por)\n");
    return MCRT_EXIT_USAGE;
  }
  return -1;
}
