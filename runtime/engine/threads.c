// SPDX-License-Identifier: MIT
// threads.c: the multi-threaded breadth-first search (--threads N, N > 1).
//
// Level-synchronous, and exactly the serial search's results: the same ids,
// parents and rules in the log, the same counts, the same violation (a
// shortest one, search.c) and the same stop at a bound, whatever N and
// however the threads race.
//
// The frontier of a level is cut into windows of up to WINDOW states
// (WINDOW_FREE in free order; in id order; a window never spans two
// levels). Each window goes through three phases, the threads meeting at
// a barrier (see barrier()) between them:
//
//   expand  (all threads) Threads take CHUNK states at a time and run the
//           generated code on them: the constraint, then successors(). Each
//           successor is canonicalised (symmetry) and fingerprinted, and
//           keeps its bytes in the thread's arena; one of a state at the
//           depth bound is only looked up in the set (nobody writes it
//           during this phase). Errors of generated code are kept per
//           state.
//   insert  (all threads) The set's growth, if the window's candidates may
//           need it, happens first, at the barrier (nobody else touches the
//           set then), every thread migrating a part of the old table
//           (grow_set: a serial growth was a fifth of bakery.5's CPU time,
//           the one serial stretch left once the commit is parallel).
//           Each fingerprint has one owning thread (by its bits); the
//           expand phase lists the candidates by owner, and each thread
//           inserts those it owns in key order (parent id, then emit order:
//           the serial search's order), merging the lists the threads
//           made. So the first successor in key order of a
//           state new to the set is the one that gets NEW, exactly as in the
//           serial search, and no two threads ever race for the same
//           fingerprint. A NEW state's invariants and reachables (and
//           under liveness its property bits) are evaluated there too, by
//           its owner.
//   commit  (all threads) Each thread takes the chunks of states it
//           expanded (their successors are in its own arena and lists),
//           counts their new states and looks for what would stop the
//           search there; a prefix sum over the chunks in id order then
//           gives each chunk the id of its first new state, and every
//           thread writes its chunks' log records and next-frontier states
//           at their places, and its own counters (added up at the end);
//           with liveness also its states' edges, and its new states'
//           property bits and their ids in the set (see below).
//           See commit_parallel() for when a window is committed that way.
//           Otherwise (a violation, a bound hit inside the window, a
//           signal, the set's growth, --disk, nets, --por, accepting
//           states) one thread takes the window's states in id
//           order through the serial search's own steps
//           (mcrt_take_successor, mcrt_state_failed, mcrt_no_successor):
//           counters, log, next frontier, bounds, signals and violations
//           exactly as the serial search takes them, with the set lookups
//           and predicate evaluations already done. Either way the ids, the
//           log, the counts and the stop are the serial search's. A
//           violation the serial commit holds (one step longer than the
//           level, search.c) lets the window's other states through the
//           same steps, and the level's other windows are expanded by this
//           thread alone (mcrt_finish_level), as in the serial search.
//
// An insertion the set cannot take (its probe ran off the end of the table)
// is left to the commit, which grows the set and inserts serially, in key
// order: a later successor with the same fingerprint would have met the same
// full probe, so the first in key order still wins.
//
// Liveness records each edge with its target's id, and ids are given in
// the commit. The insert phase stores MCRT_ID_PENDING beside a new
// fingerprint, and gives an old one's successor the stored id (pending for
// a state new earlier in the window). The commit gives the new states their
// ids and stores them in the set; an edge whose target was pending then
// looks it up (the fix phase, after a barrier, in the parallel commit; in
// the serial one the target's own commit came first). The edges come out
// in the serial search's order with its ids: the same table at every N.
//
// Free order (--order free): the expand phase inserts each successor into
// the set itself (a CAS; its home slot prefetched MCRT_BATCH candidates
// before), and there is no insert phase. Whichever thread inserts a
// fingerprint first makes that successor the new one, so a state's parent
// (a state of the previous level, whichever it is) and the order of ids
// within a level depend on the race: the levels, hence the counts of an
// exhaustive search, the depth and a trace's length, do not.
// Below the depth bound ("direct" windows) a successor is kept only until
// its insertion: it waits in the thread's ring of MCRT_BATCH (emit_direct);
// an old one then costs its counters, a new one's invariants and
// reachables are evaluated and its bytes and log record are appended to
// the thread's output (resolve). At the end of each chunk the thread
// flushes its ring and tallies the chunk (tally_direct); the chunk's new
// states lie together in its output. The commit is this thread's alone,
// with no phase of its own (commit_direct): a prefix sum over the chunks,
// then the records to the log and the bytes to the frontier, a run per
// chunk and frontier block (place); when more windows of the level follow,
// that placing waits for the next window's expand phase, which this
// thread begins with while the others expand (the threads keep two
// outputs for it). A window is one phase (two barriers). When
// the tally asks for the serial commit (what would stop the search or
// needs its steps, as above), this thread expands the window again,
// keeping every successor, and the serial commit takes them
// (commit_replay): a successor whose fingerprint the window made new is
// new where it comes first in key order, old after, so the stop (at a
// state of the serial search's count under --max-states, a violation, a
// signal, --memory) is exact. A window at the depth bound keeps the
// successors' records, as in fixed order (they are only looked up).
// The set is grown before the expand phase when the window could fill 95%
// of its home slots, counting the most successors a state has had.
//
// Generated code keeps no mutable globals (its scratch state is on the C
// stack, its error state in the McrtCtx it is given), so each thread runs it
// with a context of its own whose emit hook is worker_emit below.
#include "engine/engine.h"

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#define WINDOW 2048 // frontier states per window
// Free order's windows (direct: the threads insert the successors as they
// make them and keep only the new states, 8 bytes and the state's bytes
// each, no arena of successors) can be larger for the same buffers: a
// quarter as many barriers, serial stretches between windows and ends of
// the expand phase where one thread waits for another's last chunk (at 2
// threads, the threads' waits on lamport.5, peterson.4 and at.3 were 35% to
// 70% less; the peak RSS 0 to 1 MiB more).
#define WINDOW_FREE 8192
#define CHUNK 64    // states a thread takes at a time in the expand phase
#define SOLO 256    // a smaller window is expanded by one thread, without barriers
// Under --memory the window's buffers (the frontier states, their successors
// and the arenas) are kept within 1/BUFFER_SHARE of the bound, the windows
// made smaller if need be: otherwise a bound of a few MiB went mostly to
// the buffers, and the threads stopped at a fraction of one thread's states.
#define BUFFER_SHARE 16

// A successor kept for the insert phase or the commit (56 bytes: in fixed
// order a window's successors are the bulk of the threads' buffers; free
// order keeps them only at the depth bound and in commit_replay).
typedef struct Succ {
  McrtPending p;
  uint32_t state; // where its bytes are in the thread's arena, in strides (candidates only)
  // Its invariants and reachables (and under liveness its property bits)
  // are known without a run-time error: evaluated (Extra.pre), or there are
  // none (Threads.checks false).
  bool pre_ok;
} Succ;

// What a successor needs beyond Succ in some runs only: in an array beside
// the thread's succ (the same index), allocated only then (Threads.extra).
typedef struct Extra {
  McrtPrecheck pre; // a new state's invariants and reachables (Threads.checks)
  uint64_t bits;    // liveness: a new state's property bits (with pre)
  uint64_t slot;    // liveness: its fingerprint's slot in the set (see Threads.grows)
} Extra;

// Free order, direct (see "Free order" above): a successor waiting in the
// thread's ring for its insertion (its bytes beside, in ring_states), and a
// new state's log record in the thread's output (its bytes beside, in out).
typedef struct Ring {
  McrtFp fp;
  uint32_t parent, rule, action;
} Ring;

typedef struct Rec {
  uint32_t parent, rule;
} Rec;

typedef enum { SLOT_EXPANDED, SLOT_OUTSIDE, SLOT_CONSTRAINT_FAILED } SlotKind;

// A state of the window, after the expand phase.
typedef struct Slot {
  uint32_t worker;   // whose lists hold its successors
  uint32_t err;      // 1 + index in that worker's errors; 0: none
  uint64_t first;    // its first successor in the worker's list
  uint32_t nsucc;
  uint8_t kind;      // SlotKind
  bool has_successor;
  bool terminal;     // without successor: a terminal predicate holds
  bool term_err;     // without successor: evaluating the terminal predicates failed
} Slot;

typedef struct Threads Threads;

// On cache lines of its own (see line_calloc).
typedef struct Worker {
  _Alignas(MCRT_LINE) McrtCtx ctx; // its own error slot and symmetry scratch; emit = worker_emit
  Threads *T;
  uint32_t index;
  Succ *succ;
  uint64_t nsucc, succ_cap;
  Extra *extra; // beside succ when Threads.extra
  size_t extra_cap;
  uint8_t *arena;
  size_t arena_len, arena_cap;
  McrtError *errs;
  uint32_t nerrs, errs_cap;
  uint64_t slot; // the state being expanded
  bool oom;      // an allocation failed
  uint64_t tally; // the new states it inserted in this phase (see mcrt_fpset_insert_tally)
  // The candidates (successors to insert) by owning thread: own[t] lists
  // their indices in succ, in key order; pos: the insert phase's merge.
  uint32_t **own;
  size_t *own_len, *own_cap, *pos;
  // Its share of the parallel commit: the chunks it expanded (their bytes
  // are in its arena, in its cache), and its counters (added to the run's
  // after).
  uint32_t chunk[WINDOW_FREE / CHUNK], nchunks;
  uint64_t *fired, *bound_fired; // per action
  uint64_t bound_transitions, deadlocks;
  bool truncated;
  uint32_t maxsucc; // the most successors a state of its had (window_size, make_room_free)
  bool pending; // liveness: it wrote an edge to MCRT_ID_PENDING (see fix_phase)
  // Free order, direct: the successors emitted and not yet inserted (a
  // ring of MCRT_BATCH, oldest at ring_head), the new states it inserted in
  // the window (bytes in out, state_bytes each, in the order it inserted
  // them; their records in recs), and the current chunk's transitions and
  // whether something in it needs the serial commit.
  Ring ring[MCRT_BATCH];
  uint8_t *ring_states; // MCRT_BATCH states of T->stride bytes
  uint32_t ring_head, nring;
  uint8_t *out;
  Rec *recs;
  size_t nout, out_cap, recs_cap; // out_cap in bytes
  // The window before's output, while its placing waits (Threads.placing).
  uint8_t *prev_out;
  Rec *prev_recs;
  size_t prev_out_cap, prev_recs_cap;
  uint64_t ntrans;
  bool serial;
} Worker;

// A chunk of the window in the parallel commit: what the tally found.
typedef struct Part {
  uint64_t nnew, ntrans; // new states, transitions (not at the bound)
  uint64_t first_new;    // the index among the window's new states of its first
  uint64_t nedges;       // liveness: its edges
  uint64_t first_edge;   // the index among the window's edges of its first
  uint64_t last_from;    // the last state with an edge (UINT64_MAX: none)
  bool serial;           // something there needs the serial commit
  // Free order, direct: whose output holds its new states, from which one,
  // and its deadlocks (--no-deadlock).
  uint32_t worker;
  uint64_t first_out, ndead;
} Part;

typedef enum {
  PHASE_EXPAND,
  PHASE_INSERT,
  PHASE_TALLY,
  PHASE_WRITE,
  PHASE_FIX,
  PHASE_GROW,
  PHASE_QUIT
} Phase;

// A region of the expand phase's window: its next chunk and its end, on a
// line of its own (any thread may take from it).
typedef struct {
  _Alignas(MCRT_LINE) _Atomic uint64_t next;
  uint64_t end;
} Region;

struct Threads {
  McrtCtx *ctx; // the run's: the stores
  uint32_t n;
  Worker *w;
  size_t stride; // bytes per state in the window and the arenas
  uint8_t *win;
  Slot *slot;
  uint64_t nwin, base_id;
  bool at_bound;      // the window's states are at --max-depth
  bool solo;          // this thread does the window's phases alone
  bool parallel_insert; // the insert phase runs
  bool free_order;      // --order free: the expand phase inserts (see "Free order" above)
  bool por;             // the modes were chosen for --por at work (see choose_modes)
  bool direct;          // free order below the depth bound: the window's new states go
                        // straight to the threads' outputs (see "Free order" above)
  bool replay;          // the serial re-expansion of a direct window (see commit_replay)
  // commit_replay: the window's new fingerprints (an open-addressing table
  // of seen_cap, a power of two; seen_use 0 empty, 1 not yet met, 2 met).
  McrtFp *seen;
  uint8_t *seen_use;
  size_t seen_cap;
  uint32_t maxsucc;     // the most successors a state had so far
  uint64_t win_cap;     // the states win and slot have room for (see window_size)
  bool precheck;      // evaluate invariants and reachables in the insert phase
  bool checks;        // and there are some (or property bits): else a new state has none
  bool extra;         // the threads keep an Extra per successor (checks, or liveness)
  bool parallel_commit; // the commit may run on every thread (see commit_parallel)
  McrtQueueSpan *spans; // the parallel commit: where the window's new states go
  size_t spans_cap;
  McrtQueueSpan *take;  // where the window's states are in the queue (mcrt_queue_take;
  size_t take_cap, ntake; // ntake 0: they are in win already, --disk)
  uint64_t log_base;    // the parallel commit: the id of the window's first new state
  uint64_t edge_base;   // liveness, the parallel commit: the index of the window's first edge
  uint64_t nstart;      // liveness, the parallel commit: the window's states up to its last
                        // one with an edge (they get their start)
  uint64_t grows;       // liveness: the set's growths at the insert phase (Succ.slot is valid
                        // while they are the set's)
  McrtFpGrow grow;      // the set's growth by every thread
  McrtFpStash *stash;   // per thread: what its part put off the new table's end
  Part *part;          // the window's (one of parts)
  Part *prev_part;     // the window before's, while its placing waits (placing)
  Part parts[2][WINDOW_FREE / CHUNK];
  uint64_t prev_nchunks; // the window before's chunks (placing)
  // Free order: the window before was committed but its new states are not
  // yet in the log and the frontier (commit_direct): worker 0 places them
  // first thing in the next window's expand phase, while the others expand.
  bool placing;
  uint64_t reach_open; // reachables not yet reached when the window began
  _Atomic uint64_t next; // next block of the grow phase
  // The expand phase: the window cut into nregions regions of whole
  // chunks (see expand_phase).
  Region *region;
  uint32_t nregions;
  Phase phase;
  McrtPool pool;    // the threads, meeting at its barrier (pool.c); pool.n of them
  uint32_t nalloc; // workers set up (n, or more when a thread could not start)
  size_t peak_buffers; // the most buffer_bytes() were (printed with the waits)
};

// n zeroed elements of size bytes on cache lines no other allocation shares:
// what a thread writes at every successor (its Worker, its counters, its
// ring) must not share a line with what another thread reads or writes, or
// the line moves between their cores at each write. (The one such line
// measured to matter was the set's count: see mcrt_fpset_insert_tally.
// These cost a line at most each.) Freed with free().
static void *line_calloc(size_t n, size_t size) {
  if (n && size > SIZE_MAX / n)
    return NULL;
  size_t bytes = (n * size + MCRT_LINE - 1) / MCRT_LINE * MCRT_LINE;
  void *p = aligned_alloc(MCRT_LINE, bytes ? bytes : MCRT_LINE);
  if (p)
    memset(p, 0, bytes);
  return p;
}

static bool grow_array(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return true;
  size_t n = *cap ? *cap * 2 : 1024;
  while (n < need)
    n *= 2;
  void *q = realloc(*p, n * size);
  if (!q)
    return false;
  // Zeroed: a canonical form is written field by field, and the unused
  // bits of a state must stay zero (they are fingerprinted).
  memset((char *)q + *cap * size, 0, (n - *cap) * size);
  *p = q;
  *cap = n;
  return true;
}

// w made progress (a waiter at the barrier polls while others do: pool.c).
static inline void beat(Worker *w) { mcrt_pool_beat(&w->T->pool, w->index); }

// The thread that inserts fp in the insert phase.
static uint32_t owner(const Threads *T, McrtFp fp) {
  return T->solo ? 0 : (uint32_t)(((fp.hi >> 32) * T->n) >> 32);
}

// ---------------------------------------------------------------------------
// Expand.

// Free order, direct: whether a state new to the set passes its invariants
// and reachables, without an error (false: the serial commit evaluates them
// again, and stops where the serial search stops).
static bool new_state_clean(Worker *w, const uint8_t *st) {
  McrtCtx *wc = &w->ctx;
  const McrtModel *m = wc->model;
  bool clean = m->ninvariants == 0 || m->check_invariants(wc, st) < 0;
  for (uint32_t i = 0; i < m->nreachables && clean && !mcrt_failed(wc); i++)
    clean = !((w->T->reach_open >> i & 1) && m->check_reachable(wc, i, st));
  if (mcrt_failed(wc)) {
    mcrt_clear_error(wc);
    return false;
  }
  return clean;
}

// Free order, direct: inserts the successor r (its bytes st). An old one
// costs its counters only; a new one is appended to the thread's output.
static void resolve(Worker *w, const Ring *r, const uint8_t *st) {
  Threads *T = w->T;
  w->ntrans++;
  w->fired[r->action]++;
  McrtFpResult res = mcrt_fpset_insert_tally(&T->ctx->set, r->fp, &w->tally);
  if (res == MCRT_FP_OLD)
    return;
  if (res == MCRT_FP_FULL) { // the serial commit grows the set and inserts it
    w->serial = true;
    return;
  }
  if (T->checks && !new_state_clean(w, st))
    w->serial = true;
  size_t bytes = T->ctx->state_bytes;
  if (!grow_array((void **)&w->out, &w->out_cap, (w->nout + 1) * bytes + MCRT_SLACK, 1) ||
      !grow_array((void **)&w->recs, &w->recs_cap, w->nout + 1, sizeof *w->recs)) {
    w->oom = true;
    return;
  }
  mcrt_copy_state(w->out + w->nout * bytes, st, bytes); // (out has MCRT_SLACK after its last)
  w->recs[w->nout++] = (Rec){r->parent, r->rule};
}

// Free order, direct: the emit hook. The successor waits in the ring, its
// home slot prefetched, and is inserted MCRT_BATCH emits later (as in the
// serial search: the probes' cache misses overlap).
static bool emit_direct(Worker *w, const uint8_t *next, uint32_t action, uint64_t rule) {
  Threads *T = w->T;
  McrtCtx *wc = &w->ctx;
  Slot *sl = &T->slot[w->slot];
  sl->has_successor = true;
  sl->nsucc++;
  if (w->nring == MCRT_BATCH) { // the oldest goes in first, its place is reused
    uint32_t h = w->ring_head;
    w->ring_head = (h + 1) % MCRT_BATCH, w->nring--;
    resolve(w, &w->ring[h], w->ring_states + h * T->stride);
  }
  uint32_t i = (w->ring_head + w->nring++) % MCRT_BATCH;
  Ring *r = &w->ring[i];
  uint8_t *st = w->ring_states + i * T->stride;
  if (wc->sym)
    mcrt_sym_canon(wc->sym, next, st);
  else
    mcrt_copy_state(st, next, wc->state_bytes); // (both have MCRT_SLACK)
  r->fp = mcrt_fingerprint(st, wc->state_bytes, wc->fp_bits);
  r->parent = (uint32_t)(T->base_id + w->slot);
  r->rule = (uint32_t)rule;
  r->action = action;
  mcrt_fpset_prefetch(&T->ctx->set, r->fp);
  return w->oom;
}

// Free order, direct: the ring's last successors.
static void flush_ring(Worker *w) {
  for (; w->nring > 0; w->nring--) {
    uint32_t h = w->ring_head;
    w->ring_head = (h + 1) % MCRT_BATCH;
    resolve(w, &w->ring[h], w->ring_states + h * w->T->stride);
  }
}

// commit_replay: how the serial commit takes fp. The first successor in key
// order with a fingerprint the window made new is the new state; a later
// one, old; another fingerprint is inserted there (old, or new when the set
// was full when a thread met it).
static uint8_t replay_lookup(Threads *T, McrtFp fp) {
  size_t mask = T->seen_cap - 1;
  for (size_t j = (size_t)fp.hi & mask; T->seen_use[j]; j = (j + 1) & mask) {
    if (T->seen[j].hi != fp.hi || T->seen[j].lo != fp.lo)
      continue;
    if (T->seen_use[j] == 2)
      return MCRT_LOOKUP_OLD;
    T->seen_use[j] = 2;
    return MCRT_LOOKUP_NEW;
  }
  return MCRT_LOOKUP_INSERT;
}

static bool worker_emit(McrtCtx *wc, const uint8_t *next, uint32_t action, uint64_t rule) {
  Worker *w = wc->worker;
  Threads *T = w->T;
  if (T->direct && !T->replay)
    return emit_direct(w, next, action, rule);
  Slot *sl = &T->slot[w->slot];
  size_t cap = w->succ_cap;
  if (!grow_array((void **)&w->succ, &cap, w->nsucc + 1, sizeof *w->succ) ||
      !grow_array((void **)&w->arena, &w->arena_cap, w->arena_len + T->stride, 1)) {
    w->oom = true;
    return true;
  }
  w->succ_cap = cap;
  if (T->extra && !grow_array((void **)&w->extra, &w->extra_cap, w->nsucc + 1, sizeof *w->extra)) {
    w->oom = true;
    return true;
  }
  uint8_t *st = w->arena + w->arena_len;
  if (wc->sym)
    mcrt_sym_canon(wc->sym, next, st);
  else
    mcrt_copy_state(st, next, wc->state_bytes); // (both have MCRT_SLACK)
  Succ *e = &w->succ[w->nsucc++];
  sl->has_successor = true;
  sl->nsucc++;
  e->p.fp = mcrt_fingerprint(st, wc->state_bytes, wc->fp_bits);
  e->p.rule = rule;
  e->p.depth = T->ctx->cur_depth + 1;
  e->p.parent = (uint32_t)(T->base_id + w->slot);
  e->p.action = action;
  e->p.at_bound = T->at_bound;
  e->p.lookup = MCRT_LOOKUP_INSERT;
  e->pre_ok = T->precheck && !T->checks;
  e->state = (uint32_t)(w->arena_len / T->stride);
  if (e->p.at_bound) {
    // Only looked up (the set is read-only in this phase; under liveness
    // every id in it is given: a window at the bound inserts nothing).
    if (T->ctx->live ? mcrt_fpset_find_id(&T->ctx->set, e->p.fp, &e->p.to)
                     : mcrt_fpset_contains(&T->ctx->set, e->p.fp))
      e->p.lookup = MCRT_LOOKUP_KNOWN;
    return false;
  }
  w->arena_len += T->stride; // keep the bytes: the state may be new
  if (T->replay) {
    e->p.lookup = replay_lookup(T, e->p.fp);
    return false;
  }
  if (!T->parallel_insert)
    return false;
  // Not looked up here: its owner's insertion is the one probe of the set
  // it costs (a lookup first measured 20% more CPU time on lamport.5).
  uint32_t o = owner(T, e->p.fp);
  if (!grow_array((void **)&w->own[o], &w->own_cap[o], w->own_len[o] + 1, sizeof **w->own)) {
    w->oom = true;
    return true;
  }
  w->own[o][w->own_len[o]++] = (uint32_t)(w->nsucc - 1);
  return false;
}

static void save_error(Worker *w, Slot *sl) {
  size_t cap = w->errs_cap;
  if (!grow_array((void **)&w->errs, &cap, w->nerrs + 1, sizeof *w->errs)) {
    w->oom = true;
    return;
  }
  w->errs_cap = (uint32_t)cap;
  w->errs[w->nerrs++] = w->ctx.err;
  sl->err = w->nerrs;
  mcrt_clear_error(&w->ctx);
}

static void tally_chunk(Threads *T, uint32_t c);
static void tally_direct(Worker *w, uint32_t c, uint64_t first_out);
static void place_prev(Threads *T);

static void expand_state(Worker *w, uint64_t i) {
  Threads *T = w->T;
  McrtCtx *wc = &w->ctx;
  const McrtModel *m = wc->model;
  Slot *sl = &T->slot[i];
  const uint8_t *st = T->win + i * T->stride;
  *sl = (Slot){.worker = w->index, .first = w->nsucc, .kind = SLOT_EXPANDED};
  if (m->has_constraint && m->within_constraints) {
    bool within = m->within_constraints(wc, st);
    if (mcrt_failed(wc)) {
      sl->kind = SLOT_CONSTRAINT_FAILED;
      save_error(w, sl);
      return;
    }
    if (!within) {
      sl->kind = SLOT_OUTSIDE;
      return;
    }
  }
  w->slot = i;
  mcrt_expand(wc, st);
  if (sl->nsucc > w->maxsucc)
    w->maxsucc = sl->nsucc;
  if (mcrt_failed(wc)) {
    save_error(w, sl);
    return;
  }
  if (!sl->has_successor && T->parallel_commit && m->has_terminal && m->is_terminal) {
    // For the parallel commit (the serial one evaluates it again).
    sl->terminal = m->is_terminal(wc, st);
    sl->term_err = mcrt_failed(wc);
    mcrt_clear_error(wc);
  }
}

// Copies the window's states [a, b) from the queue into win: each thread
// the states it is about to expand (the copy, serial, was 4% of bakery.5's
// time at 2 threads; and the states come into the cache of the thread that
// expands them).
static void fetch_states(const Threads *T, uint64_t a, uint64_t b) {
  size_t bytes = T->ctx->state_bytes;
  uint64_t first = 0; // the window index of span k's first state
  for (size_t k = 0; k < T->ntake && a < b; first += T->take[k++].n) {
    const McrtQueueSpan *sp = &T->take[k];
    uint64_t end = first + sp->n < b ? first + sp->n : b;
    // In words where they stay inside the span: after it come the states
    // other threads are placing now (and the chunk's end).
    size_t span_bytes = sp->n * bytes, word_bytes = (bytes + 7) & ~(size_t)7;
    for (; a < end; a++) {
      size_t at = (a - first) * bytes;
      if (at + word_bytes <= span_bytes)
        mcrt_copy_state(T->win + a * T->stride, sp->at + at, bytes);
      else
        memcpy(T->win + a * T->stride, sp->at + at, bytes);
    }
  }
}

// The expand phase: the chunks left in region r. True: out of memory.
static bool expand_region(Worker *w, uint32_t r) {
  Threads *T = w->T;
  for (;;) {
    uint64_t a = atomic_fetch_add_explicit(&T->region[r].next, CHUNK, memory_order_relaxed);
    if (w->oom)
      return true;
    if (a >= T->region[r].end)
      return false;
    beat(w);
    w->chunk[w->nchunks++] = (uint32_t)(a / CHUNK);
    uint64_t b = a + CHUNK < T->nwin ? a + CHUNK : T->nwin;
    fetch_states(T, a, b);
    uint64_t first_out = w->nout;
    for (uint64_t i = a; i < b && !w->oom; i++)
      expand_state(w, i);
    if (T->direct) {
      flush_ring(w);
      tally_direct(w, (uint32_t)(a / CHUNK), first_out);
      continue;
    }
    if (!T->free_order || w->oom)
      continue;
    // Free order at the depth bound (successors only looked up, none new):
    // the chunk's tally for the parallel commit now, while its successors
    // are in this thread's cache, and without a phase (two barriers) of
    // its own.
    if (T->parallel_commit) // (always so in free order: see start)
      tally_chunk(T, (uint32_t)(a / CHUNK));
  }
}

// Each thread expands the chunks of its own region of the window first,
// then takes what is left of the others'. Neighbours in the frontier share
// many successors (the diamonds of interleaved actions); two threads on
// neighbouring chunks would insert the same fingerprints at the same time,
// and the set's lines would move between their cores at each.
static void expand_phase(Worker *w) {
  Threads *T = w->T;
  if (w->index == 0)
    place_prev(T); // while the others expand
  uint32_t n = T->nregions;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t r = (w->index + k) % n;
    if (expand_region(w, r))
      return;
  }
}

// ---------------------------------------------------------------------------
// Insert.

// Evaluates the invariants, reachables and property bits of e, a successor
// in src's lists, with w's context.
static void precheck(Worker *w, Worker *src, Succ *e) {
  Threads *T = w->T;
  McrtCtx *wc = &w->ctx;
  const McrtModel *m = wc->model;
  const uint8_t *st = src->arena + (size_t)e->state * T->stride;
  Extra *x = &src->extra[e - src->succ];
  x->pre.inv = m->ninvariants > 0 ? m->check_invariants(wc, st) : -1;
  x->pre.reach = 0;
  for (uint32_t i = 0; i < m->nreachables && !mcrt_failed(wc); i++)
    if ((T->reach_open >> i & 1) && m->check_reachable(wc, i, st))
      x->pre.reach |= UINT64_C(1) << i;
  x->bits = 0;
  if (T->ctx->live && T->ctx->live->g.bits_bytes && !mcrt_failed(wc)) {
    uint8_t b[sizeof x->bits] = {0};
    m->property_bits(wc, st, b);
    memcpy(&x->bits, b, sizeof b);
  }
  e->pre_ok = !mcrt_failed(wc);
  if (!e->pre_ok) // (a clear error is left as it is: clearing it is a memset of 0.5 KiB)
    mcrt_clear_error(wc); // the commit evaluates again, and meets the error itself
}

// Inserts one candidate (its home slot prefetched MCRT_BATCH candidates ago).
static void insert_one(Worker *w, Worker *src, Succ *e) {
  Threads *T = w->T;
  // Liveness: a new state's id is given in the commit; meanwhile the set
  // holds MCRT_ID_PENDING for it, and a later successor in key order with
  // the same fingerprint gets that (search.c and write_chunk resolve it).
  e->p.to = MCRT_ID_PENDING;
  McrtFpSet *set = &T->ctx->set;
  McrtFpResult r = T->ctx->live ? mcrt_fpset_insert_id_slot(set, e->p.fp, MCRT_ID_PENDING, &e->p.to,
                                                            &src->extra[e - src->succ].slot,
                                                            &w->tally)
                                : mcrt_fpset_insert_tally(set, e->p.fp, &w->tally);
  if (r == MCRT_FP_FULL)
    return; // the commit grows the set and inserts it
  e->p.lookup = r == MCRT_FP_NEW ? MCRT_LOOKUP_NEW : MCRT_LOOKUP_OLD;
  if (r == MCRT_FP_NEW && T->checks)
    precheck(w, src, e);
}

static void insert_phase(Worker *w) {
  Threads *T = w->T;
  McrtFpSet *set = &T->ctx->set;
  uint32_t t = w->index;
  for (uint32_t i = 0; i < T->n; i++)
    w->pos[i] = 0;
  // Merge the lists own[t] of every thread by parent id (a parent's
  // successors are all in one list, in emit order): the key order. Each
  // candidate's home slot is prefetched when the merge takes it and the
  // candidate inserted MCRT_BATCH candidates later, in the same order, as
  // the serial search does: the probes' cache misses overlap.
  struct {
    Worker *src;
    Succ *e;
  } ring[MCRT_BATCH];
  unsigned head = 0, len = 0;
  for (;;) {
    Worker *src = NULL;
    Succ *e = NULL;
    for (uint32_t i = 0; i < T->n; i++) {
      Worker *c = &T->w[i];
      if (w->pos[i] == c->own_len[t])
        continue;
      Succ *ce = &c->succ[c->own[t][w->pos[i]]];
      if (!e || ce->p.parent < e->p.parent)
        src = c, e = ce;
    }
    if (!e)
      break;
    if (++w->pos[src->index] % CHUNK == 0)
      beat(w);
    mcrt_fpset_prefetch(set, e->p.fp);
    if (len == MCRT_BATCH) {
      insert_one(w, ring[head].src, ring[head].e);
      ring[head].src = src, ring[head].e = e;
      head = (head + 1) % MCRT_BATCH;
    } else {
      ring[(head + len++) % MCRT_BATCH].src = src;
      ring[(head + len - 1) % MCRT_BATCH].e = e;
    }
  }
  for (; len > 0; len--, head = (head + 1) % MCRT_BATCH)
    insert_one(w, ring[head].src, ring[head].e);
}

// ---------------------------------------------------------------------------
// The threads and their phases.

static void barrier(Threads *T, Worker *w) { mcrt_pool_barrier(&T->pool, w->index); }

static void tally_phase(Worker *w);
static void write_phase(Worker *w);
static void fix_phase(Worker *w);

// The set's growth: the threads take the old table's blocks in turn, and
// none runs a step ahead of the others (see mcrt_fpset_grow_part and
// mcrt_fpset_grow_ready: one front, not one per thread, for the peak RSS).
static void grow_phase(Worker *w) {
  Threads *T = w->T;
  uint64_t n = T->grow.old.nslots, block = mcrt_fpset_grow_block(&T->grow);
  for (;;) {
    uint64_t a = atomic_fetch_add_explicit(&T->next, block, memory_order_relaxed);
    if (a >= n)
      return;
    beat(w);
    while (!mcrt_fpset_grow_ready(&T->grow, a)) // (the step before: see there)
      sched_yield();
    mcrt_fpset_grow_part(&T->grow, a, a + block < n ? a + block : n, &T->stash[w->index]);
  }
}

static void run_phase(Worker *w) {
  if (w->T->phase == PHASE_EXPAND)
    expand_phase(w);
  else if (w->T->phase == PHASE_INSERT)
    insert_phase(w);
  else if (w->T->phase == PHASE_TALLY)
    tally_phase(w);
  else if (w->T->phase == PHASE_WRITE)
    write_phase(w);
  else if (w->T->phase == PHASE_FIX)
    fix_phase(w);
  else if (w->T->phase == PHASE_GROW)
    grow_phase(w);
  // The new states the phase inserted (expand in free order, insert in
  // fixed order) are in the set's count before its barrier.
  if (w->tally) {
    mcrt_fpset_add_count(&w->T->ctx->set, w->tally);
    w->tally = 0;
  }
}

static void *worker_main(void *arg) {
  Worker *w = arg;
  Threads *T = w->T;
  for (;;) {
    barrier(T, w);
    if (T->phase == PHASE_QUIT)
      return NULL;
    run_phase(w);
    barrier(T, w);
  }
}

// Runs one phase on every thread (this one is worker 0), or on this one
// alone for a small window (a narrow level: the barriers would cost more
// than the work).
static void run(Threads *T, Phase p) {
  T->phase = p;
  atomic_store(&T->next, 0);
  if (p == PHASE_EXPAND) {
    // The regions (see expand_phase): one per thread in a direct window,
    // where a chunk's place among a thread's chunks does not matter; else
    // one (the insert phase and the parallel commit read each thread's
    // chunks in the window's order).
    uint32_t n = T->nregions = T->solo || !T->direct ? 1 : T->n;
    uint64_t nchunks = (T->nwin + CHUNK - 1) / CHUNK;
    for (uint32_t r = 0; r < n; r++) {
      atomic_store_explicit(&T->region[r].next, nchunks * r / n * CHUNK, memory_order_relaxed);
      uint64_t end = nchunks * (r + 1) / n * CHUNK;
      T->region[r].end = end < T->nwin ? end : T->nwin;
    }
  }
  if (T->solo && p != PHASE_QUIT) {
    run_phase(&T->w[0]);
    return;
  }
  barrier(T, &T->w[0]);
  if (p != PHASE_QUIT) {
    run_phase(&T->w[0]);
    barrier(T, &T->w[0]);
  }
}

// What the window and the threads' lists hold (accounted under --memory).
static size_t buffer_bytes(const Threads *T) {
  size_t b = T->win_cap * (T->stride + sizeof *T->slot);
  for (uint32_t i = 0; i < T->pool.n; i++)
    b += T->w[i].succ_cap * sizeof(Succ) + T->w[i].extra_cap * sizeof(Extra) + T->w[i].arena_cap +
         T->w[i].errs_cap * sizeof(McrtError) + T->w[i].out_cap + T->w[i].recs_cap * sizeof(Rec) +
         T->w[i].prev_out_cap + T->w[i].prev_recs_cap * sizeof(Rec) +
         (T->w[i].ring_states ? MCRT_BATCH * T->stride : 0);
  b += T->seen_cap * (sizeof *T->seen + 1);
  for (uint32_t i = 0; i < T->n; i++)
    for (uint32_t j = 0; j < T->n; j++)
      b += T->w[i].own_cap[j] * sizeof(uint32_t);
  return b;
}

// The buffers a window of one state takes, counting it with the most
// successors a state had so far (16 before any was expanded).
static size_t bytes_per_window_state(const Threads *T) {
  size_t succ = sizeof(Succ) + T->stride + (T->extra ? sizeof(Extra) : 0) +
                (T->parallel_insert ? sizeof(uint32_t) : 0);
  return T->stride + sizeof(Slot) + (T->maxsucc ? T->maxsucc : 16) * succ;
}

// Whether the window at the current depth is direct: free order inserts
// as it expands, except at the depth bound (whose states are only looked
// up).
static bool direct_here(const Threads *T) {
  return T->free_order && T->ctx->cur_depth < T->ctx->opt->max_depth;
}

// The states of the next window: up to WINDOW (WINDOW_FREE for a direct
// window: direct_here), fewer when
// the buffers they need would pass the share of --memory (BUFFER_SHARE) or
// the room the set's next growth leaves under it (else the threads'
// buffers would stop the search at a growth that one thread makes), at
// least CHUNK.
static uint64_t window_size(const Threads *T) {
  const McrtCtx *ctx = T->ctx;
  size_t memory = ctx->opt->memory;
  uint64_t most = direct_here(T) ? WINDOW_FREE : WINDOW;
  if (memory == MCRT_UNLIMITED)
    return most;
  size_t stores = mcrt_grow_set_bytes(ctx) - ctx->engine_bytes, budget = memory / BUFFER_SHARE;
  if (stores >= memory)
    budget = 0;
  else if (memory - stores < budget)
    budget = memory - stores;
  uint64_t fit = budget / bytes_per_window_state(T);
  return fit < CHUNK ? CHUNK : fit < most ? fit : most;
}

// Gives back what an array holds beyond twice `want` elements.
static void trim_array(void **p, size_t *cap, size_t want, size_t size) {
  if (*cap <= 2 * want)
    return;
  void *q = realloc(*p, want * size);
  if (q || want == 0)
    *p = q, *cap = want;
}

// Under --memory, before a window: the threads' buffers (and the outputs
// of the window before, once placed) back to what a window of n states may
// need (a window shrinks near the bound: see window_size), and their
// accounted bytes with them.
static void trim_buffers(Threads *T, uint64_t n) {
  if (T->ctx->opt->memory == MCRT_UNLIMITED)
    return;
  size_t want = n * (T->maxsucc ? T->maxsucc : 16);
  for (uint32_t i = 0; i < T->n; i++) {
    Worker *w = &T->w[i];
    size_t cap = w->succ_cap;
    trim_array((void **)&w->succ, &cap, want, sizeof *w->succ);
    w->succ_cap = cap;
    trim_array((void **)&w->extra, &w->extra_cap, want, sizeof *w->extra);
    trim_array((void **)&w->arena, &w->arena_cap, want * T->stride, 1);
    trim_array((void **)&w->out, &w->out_cap, want * T->ctx->state_bytes, 1);
    trim_array((void **)&w->recs, &w->recs_cap, want, sizeof *w->recs);
    if (!T->placing) { // (while it waits, the window before's placing reads them)
      trim_array((void **)&w->prev_out, &w->prev_out_cap, want * T->ctx->state_bytes, 1);
      trim_array((void **)&w->prev_recs, &w->prev_recs_cap, want, sizeof *w->prev_recs);
    }
  }
  T->ctx->engine_bytes = buffer_bytes(T);
}

// Room in win and slot for n states. False: out of memory.
static bool window_room(Threads *T, uint64_t n) {
  if (n <= T->win_cap)
    return true;
  uint8_t *win = realloc(T->win, n * T->stride);
  if (win)
    T->win = win;
  Slot *slot = realloc(T->slot, n * sizeof *T->slot);
  if (slot)
    T->slot = slot;
  if (!win || !slot)
    return false;
  // Zeroed: the unused bits of a state stay zero (see grow_array).
  memset(T->win + T->win_cap * T->stride, 0, (n - T->win_cap) * T->stride);
  T->win_cap = n;
  return true;
}

// The window's modes. Free order where no record depends on the ids' order
// within a level beyond the log's own: not with liveness or the exports
// (the edge table), nets and --por (their per-state records), accepting
// states, --disk, checkpoints; nor under --max-steps, whose stop falls
// inside a level (the states found by then depend on the order). Those run
// in fixed order (docs/DESIGN.md). por: the reduction is at work (a retired
// one is not: see mcrt_por_retired; the modes are chosen again then).
static void choose_modes(Threads *T, bool por) {
  const McrtCtx *ctx = T->ctx;
  const McrtModel *m = ctx->model;
  const McrtOptions *opt = ctx->opt;
  T->free_order = opt->order_free && T->precheck && !ctx->live && !ctx->net && !por &&
                  opt->max_steps == MCRT_UNLIMITED &&
                  !m->is_accepting && !ctx->log.disk && !ctx->queue.disk && !opt->disk_dir &&
                  !opt->checkpoint_dir && !opt->resume_dir && !opt->dot_file &&
                  !opt->graph_file && !opt->tests_file;
  T->parallel_insert = !T->free_order;
  // What the serial steps do besides counting, logging and queueing needs
  // them: a net's and --por's per-state records, the accepting states'
  // count, --disk's files. Liveness's records are written in place (its
  // property bits, evaluated with the invariants, in a word).
  T->parallel_commit = T->precheck && !ctx->net && !por && !m->is_accepting &&
                       !ctx->log.disk && !ctx->queue.disk &&
                       (!ctx->live || ctx->live->g.bits_bytes <= sizeof(uint64_t));
}

// Sets up n threads (this one and n - 1 started, waiting at the barrier).
// When the system refuses one, the search goes on with those it has. False:
// out of memory.
static bool start(Threads *T, McrtCtx *ctx, uint32_t n) {
  const McrtModel *m = ctx->model;
  memset(T, 0, sizeof *T);
  T->ctx = ctx;
  T->stride = ctx->state_bytes + MCRT_SLACK;
  const McrtOptions *opt = ctx->opt;
  T->precheck = m->nreachables <= 64;
  T->checks = T->precheck && (m->ninvariants > 0 || m->nreachables > 0 ||
                              (ctx->live && ctx->live->g.bits_bytes));
  T->extra = T->checks || ctx->live;
  T->por = ctx->por != NULL;
  choose_modes(T, T->por);
  T->part = T->parts[0], T->prev_part = T->parts[1];
  T->w = line_calloc(n, sizeof *T->w);
  T->stash = calloc(n, sizeof *T->stash);
  T->region = line_calloc(n, sizeof *T->region);
  if (!T->w || !T->stash || !T->region || !window_room(T, window_size(T)))
    return false;
  T->nalloc = n;
  for (uint32_t i = 0; i < n; i++) {
    Worker *w = &T->w[i];
    w->T = T;
    w->index = i;
    McrtCtx *wc = &w->ctx;
    mcrt_worker_ctx(wc, ctx, worker_emit, w);
    w->own = calloc(n, sizeof *w->own);
    w->own_len = calloc(n, sizeof *w->own_len);
    w->own_cap = calloc(n, sizeof *w->own_cap);
    w->pos = calloc(n, sizeof *w->pos);
    w->fired = line_calloc(m->nactions + 1, sizeof *w->fired);
    w->bound_fired = line_calloc(m->nactions + 1, sizeof *w->bound_fired);
    if (!w->own || !w->own_len || !w->own_cap || !w->pos || !w->fired || !w->bound_fired)
      return false;
    if ((T->free_order || (ctx->por && opt->order_free)) &&
        !(w->ring_states = line_calloc(MCRT_BATCH, T->stride)))
      return false; // (--por auto may retire: see mcrt_threads_search)
    if (ctx->por && !(wc->por = mcrt_por_worker(ctx->por)))
      return false;
  }
  // When the system refuses a thread, the run goes on with those started;
  // they read T->n only after the first barrier.
  if (!mcrt_pool_start(&T->pool, n, worker_main, T->w, sizeof *T->w))
    return false;
  T->n = T->pool.n;
  return true;
}

static void finish(Threads *T) {
  if (T->pool.n) {
    run(T, PHASE_QUIT);
    if (T->pool.time_waits)
      fprintf(stderr, "threads: buffers at most %zu bytes\n", T->peak_buffers);
    mcrt_pool_join(&T->pool, "threads");
  }
  if (T->w) {
    for (uint32_t i = 0; i < T->nalloc; i++) {
      McrtSym *sy = T->w[i].ctx.sym;
      if (sy && T->ctx->sym) { // the summary's figures are the run's
        T->ctx->sym->calls += sy->calls;
        T->ctx->sym->candidates += sy->candidates;
      }
      for (uint32_t j = 0; T->w[i].own && j < T->nalloc; j++)
        free(T->w[i].own[j]);
      free(T->w[i].own), free(T->w[i].own_len), free(T->w[i].own_cap), free(T->w[i].pos);
      free(T->w[i].fired), free(T->w[i].bound_fired);
      free(T->stash ? T->stash[i].fp : NULL);
      free(T->w[i].succ);
      free(T->w[i].extra);
      free(T->w[i].arena);
      free(T->w[i].errs);
      free(T->w[i].ring_states);
      free(T->w[i].out);
      free(T->w[i].recs);
      free(T->w[i].prev_out);
      free(T->w[i].prev_recs);
      mcrt_sym_free(T->w[i].ctx.sym);
      mcrt_por_free(T->w[i].ctx.por);
      mcrt_profile_merge(T->ctx, &T->w[i].ctx);
    }
  }
  free(T->w);
  free(T->region);
  free(T->win);
  free(T->slot);
  free(T->spans);
  free(T->take);
  free(T->stash);
  free(T->seen);
  free(T->seen_use);
  T->ctx->engine_bytes = 0;
}

// ---------------------------------------------------------------------------
// Commit.

// The window's states in id order, through the serial search's steps.
static void commit(Threads *T) {
  McrtCtx *ctx = T->ctx;
  const McrtOptions *opt = ctx->opt;
  for (uint64_t i = 0; i < T->nwin && !ctx->stop; i++) {
    uint64_t id = T->base_id + i;
    if (mcrt_signal && !(ctx->ckpt && opt->checkpoint_dir)) { // else at the window's end, checkpointed
      mcrt_stop_at(ctx, MCRT_BOUND_INTERRUPTED, MCRT_PHASE_SEARCH);
      return;
    }
    if (id == 1)
      mcrt_test_pause("search"); // the first state has been expanded
    if (id % MCRT_PROGRESS_EVERY == 0)
      mcrt_progress(ctx);
    const Slot *sl = &T->slot[i];
    const Worker *w = &T->w[sl->worker];
    if (sl->kind == SLOT_CONSTRAINT_FAILED) {
      mcrt_state_failed(ctx, id, &w->errs[sl->err - 1], false);
      return;
    }
    if (sl->kind == SLOT_OUTSIDE)
      continue;
    for (uint64_t k = sl->first; k < sl->first + sl->nsucc; k++) {
      const Succ *e = &w->succ[k];
      static const McrtPrecheck none = {.inv = -1};
      const McrtPrecheck *pre = !e->pre_ok ? NULL : T->checks ? &w->extra[k].pre : &none;
      if (mcrt_take_successor(ctx, &e->p, w->arena + (size_t)e->state * T->stride, pre))
        return;
    }
    if (sl->err) {
      if (mcrt_state_failed(ctx, id, &w->errs[sl->err - 1], true))
        return;
    } else if (!sl->has_successor && mcrt_no_successor(ctx, id, T->win + i * T->stride)) {
      return;
    }
  }
}

// The parallel commit. Each thread takes the chunks of the window's states
// (consecutive ids) it expanded. The tally phase counts their new states and transitions
// and looks for anything that stops the search or needs the serial steps
// (an error, a failed invariant, a reachable reached, a deadlock that is a
// violation, an insertion left to the commit); then this thread checks the
// bounds against the window's totals (--max-states, --max-steps, --memory,
// the set's growth, a signal). When nothing of that happens in the window,
// the serial commit would take every state the same way, each new state
// getting the next id: the chunks' new states get consecutive ids, in chunk
// order, so a chunk's first id is the sum of those before it. The write
// phase then puts each chunk's log records and frontier states at their
// places, every thread at once. Otherwise the window goes through the
// serial commit, which stops exactly where the serial search stops.

static void tally_chunk(Threads *T, uint32_t c) {
  bool deadlock = T->ctx->opt->deadlock, live = T->ctx->live;
  uint64_t nnew = 0, ntrans = 0, nedges = 0, last_from = UINT64_MAX;
  bool serial = false;
  uint64_t end = (c + 1) * CHUNK < T->nwin ? (c + 1) * CHUNK : T->nwin;
  for (uint64_t i = c * CHUNK; i < end && !serial; i++) {
    const Slot *sl = &T->slot[i];
    if (sl->kind == SLOT_OUTSIDE)
      continue;
    if (sl->kind == SLOT_CONSTRAINT_FAILED || sl->err ||
        (!sl->has_successor && (sl->term_err || (deadlock && !sl->terminal)))) {
      serial = true;
      break;
    }
    const Worker *w = &T->w[sl->worker];
    const Succ *e = &w->succ[sl->first];
    uint64_t had = nedges;
    for (uint32_t k = 0; k < sl->nsucc; k++, e++) {
      // Liveness records an edge for each transition, and for each
      // successor at the bound that the set holds.
      nedges += live && (!e->p.at_bound || e->p.lookup == MCRT_LOOKUP_KNOWN);
      if (e->p.at_bound)
        continue;
      ntrans++;
      if (e->p.lookup == MCRT_LOOKUP_NEW) {
        nnew++;
        const McrtPrecheck *pre = T->checks ? &w->extra[sl->first + k].pre : NULL;
        serial |= !e->pre_ok || (pre && (pre->inv >= 0 || pre->reach != 0));
      } else {
        serial |= e->p.lookup != MCRT_LOOKUP_OLD; // the set was full: left to the commit
      }
    }
    if (nedges > had)
      last_from = T->base_id + i;
  }
  T->part[c] = (Part){.nnew = nnew, .ntrans = ntrans, .nedges = nedges, .last_from = last_from,
                      .serial = serial};
}

static void tally_phase(Worker *w) {
  for (uint32_t k = 0; k < w->nchunks; k++, beat(w))
    tally_chunk(w->T, w->chunk[k]);
}

static void write_chunk(Worker *w, uint32_t c) {
  Threads *T = w->T;
  McrtCtx *ctx = T->ctx;
  McrtLiveGraph *g = ctx->live ? &ctx->live->g : NULL;
  const Part *part = &T->part[c];
  // Where its first new state goes in the frontier.
  uint64_t pos = part->first_new;
  size_t sp = 0;
  while (part->nnew > 0 && pos >= T->spans[sp].n)
    pos -= T->spans[sp++].n;
  uint64_t id = T->log_base + part->first_new;
  uint64_t edge = T->edge_base + part->first_edge;
  size_t bytes = ctx->state_bytes;
  uint64_t end = (c + 1) * CHUNK < T->nwin ? (c + 1) * CHUNK : T->nwin;
  for (uint64_t i = c * CHUNK; i < end; i++) {
    const Slot *sl = &T->slot[i];
    if (g && i < T->nstart)
      mcrt_live_put_start(g, T->base_id + i, edge);
    if (sl->kind == SLOT_OUTSIDE)
      continue;
    if (!sl->has_successor) {
      w->deadlocks += !sl->terminal;
      continue;
    }
    const Worker *src = &T->w[sl->worker];
    const Succ *e = &src->succ[sl->first];
    for (uint32_t k = 0; k < sl->nsucc; k++, e++) {
      if (e->p.at_bound) {
        w->truncated |= e->p.lookup != MCRT_LOOKUP_KNOWN;
        w->bound_transitions++;
        w->bound_fired[e->p.action]++;
        if (g && e->p.lookup == MCRT_LOOKUP_KNOWN)
          mcrt_live_put_edge(g, edge++, e->p.to, e->p.rule);
        continue;
      }
      w->fired[e->p.action]++;
      if (e->p.lookup != MCRT_LOOKUP_NEW) {
        if (!g)
          continue;
        w->pending |= e->p.to == MCRT_ID_PENDING; // new in this window: fix_phase
        mcrt_live_put_edge(g, edge++, e->p.to, e->p.rule);
        continue;
      }
      if (g) {
        const Extra *x = &src->extra[sl->first + k];
        if (g->bits_bytes)
          mcrt_live_put_bits(g, id, x->bits);
        if (ctx->set.grows == T->grows)
          mcrt_fpset_put_id_at(&ctx->set, x->slot, (uint32_t)id);
        else
          mcrt_fpset_put_id(&ctx->set, e->p.fp, (uint32_t)id);
        mcrt_live_put_edge(g, edge++, (uint32_t)id, e->p.rule);
      }
      mcrt_log_put(&ctx->log, id++, e->p.parent, (uint32_t)e->p.rule);
      if (pos == T->spans[sp].n)
        sp++, pos = 0;
      memcpy(T->spans[sp].at + pos++ * bytes, src->arena + (size_t)e->state * T->stride, bytes);
    }
  }
}

static void write_phase(Worker *w) {
  uint32_t na = w->T->ctx->model->nactions;
  memset(w->fired, 0, na * sizeof *w->fired);
  memset(w->bound_fired, 0, na * sizeof *w->bound_fired);
  w->bound_transitions = 0, w->deadlocks = 0, w->truncated = false, w->pending = false;
  for (uint32_t k = 0; k < w->nchunks; k++, beat(w))
    write_chunk(w, w->chunk[k]);
}

// Liveness: an edge whose target was new earlier in the window (another
// part's, perhaps) was written with MCRT_ID_PENDING; every new state of
// the window has its id in the set now. The chunk's edges again, in the
// order write_chunk wrote them.
static void fix_chunk(Threads *T, uint32_t c) {
  McrtLiveGraph *g = &T->ctx->live->g;
  uint64_t edge = T->edge_base + T->part[c].first_edge;
  uint64_t end = (c + 1) * CHUNK < T->nwin ? (c + 1) * CHUNK : T->nwin;
  for (uint64_t i = c * CHUNK; i < end; i++) {
    const Slot *sl = &T->slot[i];
    if (sl->kind == SLOT_OUTSIDE)
      continue;
    const Worker *src = &T->w[sl->worker];
    const Succ *e = &src->succ[sl->first];
    for (uint32_t k = 0; k < sl->nsucc; k++, e++) {
      if (e->p.at_bound && e->p.lookup != MCRT_LOOKUP_KNOWN)
        continue;
      if (!e->p.at_bound && e->p.lookup == MCRT_LOOKUP_OLD && e->p.to == MCRT_ID_PENDING) {
        if (T->ctx->set.grows == T->grows)
          g->targets[edge] = mcrt_fpset_id_at(&T->ctx->set, src->extra[sl->first + k].slot);
        else
          mcrt_fpset_find_id(&T->ctx->set, e->p.fp, &g->targets[edge]);
      }
      edge++;
    }
  }
}

static void fix_phase(Worker *w) {
  if (!w->pending)
    return;
  for (uint32_t k = 0; k < w->nchunks; k++, beat(w))
    fix_chunk(w->T, w->chunk[k]);
}

// True when the window was committed here; false: nothing was done, the
// serial commit must take it.
static bool commit_parallel(Threads *T) {
  McrtCtx *ctx = T->ctx;
  const McrtOptions *opt = ctx->opt;
  const McrtModel *m = ctx->model;
  if (!T->parallel_commit || T->base_id <= 1 || mcrt_signal || mcrt_fpset_wants_grow(&ctx->set))
    return false; // (ids 0 and 1: the serial commit has the test hook)
  uint32_t parts = T->solo ? 1 : T->n; // the threads that expanded the window
  if (!T->free_order) // (free order tallies each chunk when it has expanded it)
    run(T, PHASE_TALLY);
  uint64_t nnew = 0, ntrans = 0, nedges = 0, last_from = UINT64_MAX;
  for (uint64_t c = 0; c * CHUNK < T->nwin; c++) {
    if (T->part[c].serial)
      return false;
    T->part[c].first_new = nnew, T->part[c].first_edge = nedges;
    nnew += T->part[c].nnew, ntrans += T->part[c].ntrans, nedges += T->part[c].nedges;
    if (T->part[c].last_from != UINT64_MAX)
      last_from = T->part[c].last_from;
  }
  uint64_t limit = opt->max_states < MCRT_LOG_MAX_STATES ? opt->max_states : MCRT_LOG_MAX_STATES;
  if (ctx->states + nnew > limit || ctx->transitions + ntrans > opt->max_steps)
    return false;
  size_t need = mcrt_log_reserve_bytes(&ctx->log, nnew) +
                mcrt_queue_append_bytes(&ctx->queue, nnew) +
                (ctx->live ? mcrt_live_reserve_bytes(ctx->live, ctx->states, nnew, last_from, nedges) : 0);
  size_t total = mcrt_accounted_bytes(ctx) + need;
  if (total > opt->memory)
    return false;
  if (ctx->live && !mcrt_live_reserve(ctx->live, ctx->states, nnew, last_from, nedges))
    return false;
  size_t nspans = 0;
  if (!grow_array((void **)&T->spans, &T->spans_cap, nnew / ctx->queue.per_chunk + 2,
                  sizeof *T->spans) ||
      !mcrt_log_reserve(&ctx->log, nnew))
    return false;
  if (!mcrt_queue_append(&ctx->queue, nnew, T->spans, &nspans))
    return false;
  if (total > ctx->peak_bytes)
    ctx->peak_bytes = total;
  T->log_base = ctx->states;
  if (ctx->live) {
    T->edge_base = ctx->live->g.nedges;
    T->nstart = last_from == UINT64_MAX ? 0 : last_from + 1 - T->base_id;
    mcrt_live_window(ctx->live, ctx->states, T->base_id, nnew, last_from, nedges);
  }
  run(T, PHASE_WRITE);
  bool pending = false;
  for (uint32_t t = 0; t < parts; t++)
    pending |= T->w[t].pending;
  if (pending)
    run(T, PHASE_FIX);
  ctx->log.count += nnew;
  ctx->states += nnew;
  ctx->transitions += ntrans;
  if (nnew > 0 && ctx->cur_depth + 1 > ctx->depth)
    ctx->depth = ctx->cur_depth + 1;
  for (uint32_t t = 0; t < parts; t++) {
    const Worker *w = &T->w[t];
    for (uint32_t a = 0; a < m->nactions; a++) {
      ctx->fired[a] += w->fired[a];
      ctx->bound_fired[a] += w->bound_fired[a];
    }
    ctx->bound_transitions += w->bound_transitions;
    ctx->deadlocks += w->deadlocks;
    ctx->depth_truncated |= w->truncated;
  }
  mcrt_progress(ctx);
  return true;
}

// ---------------------------------------------------------------------------
// Free order's commit (direct windows).

// A chunk just expanded and inserted: what the commit needs of it.
static void tally_direct(Worker *w, uint32_t c, uint64_t first_out) {
  Threads *T = w->T;
  bool deadlock = T->ctx->opt->deadlock, serial = w->serial;
  uint64_t ndead = 0;
  uint64_t end = (c + 1) * CHUNK < T->nwin ? (c + 1) * CHUNK : T->nwin;
  for (uint64_t i = c * CHUNK; i < end; i++) {
    const Slot *sl = &T->slot[i];
    if (sl->kind == SLOT_OUTSIDE)
      continue;
    serial |= sl->kind == SLOT_CONSTRAINT_FAILED || sl->err ||
              (!sl->has_successor && (sl->term_err || (deadlock && !sl->terminal)));
    ndead += !sl->has_successor && !sl->terminal;
  }
  T->part[c] = (Part){.nnew = w->nout - first_out, .ntrans = w->ntrans, .serial = serial,
                      .worker = w->index, .first_out = first_out, .ndead = ndead,
                      .last_from = UINT64_MAX};
  w->ntrans = 0, w->serial = false;
}

// Places a committed window's new states: each chunk's, in chunk order,
// get the next ids from T->log_base (the threads' outputs hold them in the
// order they were inserted), their records go to the log and their bytes
// to the frontier (T->spans), in runs as long as the frontier's chunks
// allow. The window's outputs are the threads' prev_out and prev_recs.
static void place(Threads *T, const Part *parts, uint64_t nchunks) {
  McrtCtx *ctx = T->ctx;
  size_t bytes = ctx->state_bytes, sp = 0, pos = 0;
  uint64_t id = T->log_base;
  for (uint64_t c = 0; c < nchunks; c++) {
    const Part *part = &parts[c];
    if (part->nnew == 0)
      continue;
    const Worker *src = &T->w[part->worker];
    const Rec *rec = src->prev_recs + part->first_out;
    for (uint64_t k = 0; k < part->nnew; k++)
      mcrt_log_put(&ctx->log, id++, rec[k].parent, rec[k].rule);
    const uint8_t *from = src->prev_out + part->first_out * bytes;
    for (uint64_t left = part->nnew; left > 0;) {
      if (pos == T->spans[sp].n)
        sp++, pos = 0;
      uint64_t run = T->spans[sp].n - pos < left ? T->spans[sp].n - pos : left;
      memcpy(T->spans[sp].at + pos * bytes, from, run * bytes);
      pos += run, from += run * bytes, left -= run;
    }
  }
}

// The window before's placing, when it waits (see Threads.placing).
static void place_prev(Threads *T) {
  if (!T->placing)
    return;
  place(T, T->prev_part, T->prev_nchunks);
  T->placing = false;
}

// Commits a direct window: counts, bounds and room first, then its new
// states' places (place). One thread places them: a few bytes a new state,
// less than the two barriers a phase of its own would cost. defer: the
// next window is of the same level (its states are not among these), so
// the placing waits for the next expand phase, where worker 0 does it
// while the others expand (expand_phase).
// True when the window was committed here; false: nothing was done (what
// the serial commit would stop at may be in the window: commit_replay).
static bool commit_direct(Threads *T, bool defer) {
  McrtCtx *ctx = T->ctx;
  const McrtOptions *opt = ctx->opt;
  const McrtModel *m = ctx->model;
  if (T->base_id <= 1 || mcrt_signal || mcrt_fpset_wants_grow(&ctx->set))
    return false; // (ids 0 and 1: the serial commit has the test hook)
  uint64_t nnew = 0, ntrans = 0, ndead = 0, nchunks = (T->nwin + CHUNK - 1) / CHUNK;
  for (uint64_t c = 0; c < nchunks; c++) {
    if (T->part[c].serial)
      return false;
    nnew += T->part[c].nnew, ntrans += T->part[c].ntrans, ndead += T->part[c].ndead;
  }
  uint64_t limit = opt->max_states < MCRT_LOG_MAX_STATES ? opt->max_states : MCRT_LOG_MAX_STATES;
  if (ctx->states + nnew > limit || ctx->transitions + ntrans > opt->max_steps)
    return false;
  size_t total = mcrt_accounted_bytes(ctx) + mcrt_log_reserve_bytes(&ctx->log, nnew) +
                 mcrt_queue_append_bytes(&ctx->queue, nnew);
  if (total > opt->memory)
    return false;
  size_t nspans = 0;
  if (!grow_array((void **)&T->spans, &T->spans_cap, nnew / ctx->queue.per_chunk + 2,
                  sizeof *T->spans) ||
      !mcrt_log_reserve(&ctx->log, nnew) || !mcrt_queue_append(&ctx->queue, nnew, T->spans, &nspans))
    return false;
  if (total > ctx->peak_bytes)
    ctx->peak_bytes = total;
  T->log_base = ctx->states;
  // The window's outputs and parts become the threads' prev_*, placed now
  // or at the next expand phase.
  for (uint32_t t = 0; t < (T->solo ? 1 : T->n); t++) {
    Worker *w = &T->w[t];
    uint8_t *out = w->out;
    Rec *recs = w->recs;
    size_t out_cap = w->out_cap, recs_cap = w->recs_cap;
    w->out = w->prev_out, w->recs = w->prev_recs;
    w->out_cap = w->prev_out_cap, w->recs_cap = w->prev_recs_cap;
    w->prev_out = out, w->prev_recs = recs;
    w->prev_out_cap = out_cap, w->prev_recs_cap = recs_cap;
  }
  Part *part = T->part;
  T->part = T->prev_part, T->prev_part = part;
  T->prev_nchunks = nchunks;
  T->placing = true;
  if (!defer)
    place_prev(T);
  ctx->log.count += nnew;
  ctx->states += nnew;
  ctx->transitions += ntrans;
  ctx->deadlocks += ndead;
  if (nnew > 0 && ctx->cur_depth + 1 > ctx->depth)
    ctx->depth = ctx->cur_depth + 1;
  for (uint32_t t = 0; t < (T->solo ? 1 : T->n); t++)
    for (uint32_t a = 0; a < m->nactions; a++)
      ctx->fired[a] += T->w[t].fired[a];
  mcrt_progress(ctx);
  return true;
}

// A direct window that commit_direct did not take: the serial commit's
// steps need every successor in key order, which the threads did not keep.
// This thread expands the window again, keeping them (worker_emit's usual
// path), and the serial commit takes them. The window's new states are in
// the set already: a successor whose fingerprint one of the threads made
// new is the new state where it comes first in key order, and old after
// (replay_lookup); any other is inserted by the commit (old, or new when a
// thread found the set full). The run is then exactly the serial search's
// from the window's first state (its stop at --max-states, a violation,
// a signal, --memory); only which states of the level were found first
// depends on the race, as in every free-order window.
static void commit_replay(Threads *T) {
  McrtCtx *ctx = T->ctx;
  size_t bytes = ctx->state_bytes, nnew = 0;
  for (uint32_t t = 0; t < T->n; t++)
    nnew += T->w[t].nout;
  size_t cap = 64;
  while (cap < 2 * nnew)
    cap *= 2;
  if (cap > T->seen_cap) {
    McrtFp *seen = realloc(T->seen, cap * sizeof *seen);
    if (seen)
      T->seen = seen;
    uint8_t *use = realloc(T->seen_use, cap);
    if (use)
      T->seen_use = use;
    if (!seen || !use) {
      mcrt_stop_at(ctx, MCRT_BOUND_MEMORY, MCRT_PHASE_SEARCH);
      return;
    }
    T->seen_cap = cap;
  }
  memset(T->seen_use, 0, T->seen_cap);
  size_t mask = T->seen_cap - 1;
  for (uint32_t t = 0; t < T->n; t++) {
    for (size_t k = 0; k < T->w[t].nout; k++) {
      McrtFp fp = mcrt_fingerprint(T->w[t].out + k * bytes, bytes, ctx->fp_bits);
      size_t j = (size_t)fp.hi & mask;
      while (T->seen_use[j]) // (no fingerprint is new twice)
        j = (j + 1) & mask;
      T->seen[j] = fp, T->seen_use[j] = 1;
    }
  }
  Worker *w = &T->w[0];
  w->nsucc = 0, w->arena_len = 0, w->nerrs = 0;
  McrtSym sym = w->ctx.sym ? *w->ctx.sym : (McrtSym){0};
  // Free order runs with --por only once the reduction is retired, where
  // every state is expanded fully: the re-expansion goes without it, so
  // that the report counts each state's expansion once.
  McrtPor *por = w->ctx.por;
  w->ctx.por = NULL;
  // Nor does the profile count it (a profile that counts nothing, timed never).
  McrtProfile prof = w->ctx.prof;
  w->ctx.prof = (McrtProfile){.countdown = UINT64_MAX};
  T->replay = true;
  for (uint64_t i = 0; i < T->nwin && !w->oom; i++)
    expand_state(w, i);
  T->replay = false;
  w->ctx.por = por;
  w->ctx.prof = prof;
  if (w->ctx.sym) // the report's figures count each state's canonical forms once
    w->ctx.sym->calls = sym.calls, w->ctx.sym->candidates = sym.candidates;
  if (w->oom) {
    mcrt_stop_at(ctx, MCRT_BOUND_MEMORY, MCRT_PHASE_SEARCH);
    return;
  }
  ctx->engine_bytes = buffer_bytes(T);
  commit(T);
}

// ---------------------------------------------------------------------------
// The search.

// Grows the set, every thread migrating a part of it (mcrt_grow_set's
// check of --memory first; a layout that grows serially only, a solo
// window, a table that cannot be mapped: mcrt_grow_set). False: the memory
// bound (hit).
static bool grow_set(Threads *T) {
  McrtCtx *ctx = T->ctx;
  size_t total = mcrt_grow_set_bytes(ctx);
  double t0 = mcrt_now();
  if (T->solo || T->n == 1 || !mcrt_fpset_parallel_grow_ok(&ctx->set) ||
      total > ctx->opt->memory || !mcrt_fpset_grow_begin(&ctx->set, &T->grow))
    return mcrt_grow_set(ctx);
  for (uint32_t i = 0; i < T->n; i++)
    T->stash[i].n = 0;
  run(T, PHASE_GROW);
  mcrt_fpset_grow_end(&ctx->set, &T->grow, T->stash, T->n);
  ctx->grow_s += mcrt_now() - t0;
  if (total > ctx->peak_bytes)
    ctx->peak_bytes = total;
  return true;
}

// Grows the set before the insert phase when the window's candidates could
// fill 95% of its home slots (most candidates are duplicates: the usual
// growth at the load factor happens in the commit, as in the serial search,
// so that the table has the serial search's size). False: the memory bound.
static bool make_room(Threads *T) {
  McrtCtx *ctx = T->ctx;
  uint64_t cand = 0;
  for (uint32_t i = 0; i < T->n; i++)
    for (uint32_t j = 0; j < T->n; j++)
      cand += T->w[i].own_len[j];
  while (mcrt_fpset_count(&ctx->set) + cand >= ctx->set.capacity - ctx->set.capacity / 20)
    if (!grow_set(T))
      return false;
  return true;
}

// Free order: grows the set before the expand phase inserts, when the
// window's states could fill 95% of its home slots, counting each with the
// most successors a state had so far (16 before any was expanded). A growth
// past --memory is not made here: an insertion the full set refuses is left
// to the commit, which meets the bound where the serial search does. False:
// the memory bound (hit).
static bool make_room_free(Threads *T) {
  McrtCtx *ctx = T->ctx;
  uint64_t cand = T->nwin * (T->maxsucc ? T->maxsucc : 16);
  while (mcrt_fpset_count(&ctx->set) + cand >= ctx->set.capacity - ctx->set.capacity / 20 &&
         mcrt_grow_set_bytes(ctx) <= ctx->opt->memory)
    if (!grow_set(T))
      return false;
  return true;
}

void mcrt_threads_search(McrtCtx *ctx, uint32_t n) {
  const McrtModel *m = ctx->model;
  const McrtOptions *opt = ctx->opt;
  mcrt_search_begin(ctx);
  mcrt_fpset_share(&ctx->set); // the workers insert at once
  Threads T;
  bool ok = start(&T, ctx, n);
  ctx->threads = T.n;
  ctx->free_from = T.free_order ? 0 : MCRT_UNLIMITED;
  uint64_t level_end = ctx->states, popped = 0;
  mcrt_checkpoint_position(ctx, &popped, &level_end); // --resume
  while (ok && !ctx->stop) {
    if (popped == level_end || ctx->ckpt) // the next level's states, a checkpoint
      place_prev(&T);
    if (ctx->ckpt && mcrt_checkpoint_due(ctx, mcrt_signal)) { // --checkpoint, between windows
      mcrt_checkpoint_maybe(ctx, popped, level_end, mcrt_signal);
      if (mcrt_signal) {
        mcrt_stop_at(ctx, MCRT_BOUND_INTERRUPTED, MCRT_PHASE_SEARCH);
        break;
      }
    }
    if (popped == level_end) {
      if (ctx->queue.length == 0)
        break;
      ctx->cur_depth++;
      level_end = ctx->states;
      // --por auto retired the reduction while the level before was
      // expanded: from there on every state is expanded fully and --por
      // keeps no record, so the modes become those of a run without it
      // (free order, the parallel commit), with the same counts as at one
      // thread (mcrt_por_retired).
      if (T.por && mcrt_por_retired(ctx)) {
        T.por = false;
        choose_modes(&T, false);
        if (T.free_order)
          ctx->free_from = ctx->cur_depth;
      }
    }
    uint64_t most = window_size(&T);
    if (!window_room(&T, most))
      most = T.win_cap;
    trim_buffers(&T, most);
    T.nwin = level_end - popped < most ? level_end - popped : most;
    T.ntake = 0;
    if (!ctx->queue.disk) { // the threads copy the states (fetch_states)
      if (!grow_array((void **)&T.take, &T.take_cap, T.nwin / ctx->queue.per_chunk + 2,
                      sizeof *T.take)) {
        mcrt_stop_at(ctx, MCRT_BOUND_MEMORY, MCRT_PHASE_SEARCH);
        break;
      }
      mcrt_queue_take(&ctx->queue, T.nwin, T.take, &T.ntake);
    }
    for (uint64_t i = 0; i < T.nwin && ok && ctx->queue.disk; i++)
      ok = mcrt_queue_pop(&ctx->queue, T.win + i * T.stride);
    if (!ok) { // --disk: the frontier could not be read
      mcrt_stop_at(ctx, MCRT_BOUND_DISK, MCRT_PHASE_SEARCH);
      break;
    }
    T.base_id = popped;
    popped += T.nwin;
    T.at_bound = ctx->cur_depth >= opt->max_depth;
    T.solo = T.nwin < SOLO;
    T.direct = direct_here(&T);
    T.reach_open = 0;
    for (uint32_t i = 0; i < m->nreachables && i < 64; i++)
      T.reach_open |= (uint64_t)!ctx->reached[i] << i;
    for (uint32_t i = 0; i < T.n; i++) {
      Worker *w = &T.w[i];
      w->nsucc = 0, w->arena_len = 0, w->nerrs = 0, w->nchunks = 0;
      memset(w->own_len, 0, T.n * sizeof *w->own_len);
      if (T.direct) {
        w->nout = 0, w->ntrans = 0, w->serial = false;
        memset(w->fired, 0, m->nactions * sizeof *w->fired);
      }
    }
    if (T.free_order && !T.at_bound && !make_room_free(&T))
      break;
    double t0 = mcrt_now();
    run(&T, PHASE_EXPAND);
    mcrt_queue_release(&ctx->queue);
    double t1 = mcrt_now();
    ctx->phase_s[0] += t1 - t0;
    for (uint32_t i = 0; i < T.n; i++) {
      ok &= !T.w[i].oom;
      if (T.w[i].maxsucc > T.maxsucc)
        T.maxsucc = T.w[i].maxsucc;
    }
    ctx->engine_bytes = buffer_bytes(&T);
    if (ctx->engine_bytes > T.peak_buffers)
      T.peak_buffers = ctx->engine_bytes;
    if (!ok) {
      mcrt_stop_at(ctx, MCRT_BOUND_MEMORY, MCRT_PHASE_SEARCH);
      break;
    }
    if (T.parallel_insert) {
      if (!make_room(&T))
        break;
      T.grows = ctx->set.grows;
      run(&T, PHASE_INSERT);
    }
    double t2 = mcrt_now();
    ctx->phase_s[1] += t2 - t1;
    // The growth the commit's first new state would make (the serial
    // commit grows there, when --memory forbids it: the bound falls at
    // the serial search's place).
    if (T.parallel_commit && mcrt_fpset_wants_grow(&ctx->set) &&
        mcrt_grow_set_bytes(ctx) <= opt->memory && !grow_set(&T))
      break;
    if (T.direct ? !commit_direct(&T, popped < level_end) : !commit_parallel(&T)) {
      if (T.direct)
        commit_replay(&T);
      else
        commit(&T);
    }
    if (ctx->held) { // the level's other windows, for a shorter violation
      mcrt_finish_level(ctx, popped, level_end);
      break;
    }
    ctx->phase_s[2] += mcrt_now() - t2;
  }
  place_prev(&T);
  if (!ok && !ctx->stop)
    mcrt_stop_at(ctx, MCRT_BOUND_MEMORY, MCRT_PHASE_SEARCH);
  finish(&T);
  mcrt_search_end(ctx);
}
