// SPDX-License-Identifier: MIT
// mpi.c: the Open MPI engine of a checker built by `mcgen --mpi`. Compiled
// only into libmcrt_mpi.a, by mpicc with -DMCRT_MPI (see the Makefile);
// libmcrt.a and every checker built without --mpi never see MPI.
//
// Ownership. Every state belongs to one rank: the one its fingerprint's low
// 32 bits pick (multiply-shift onto 0 .. K-1). The fingerprint set takes a
// state's home slot from the fingerprint's high bits, so the states of one
// rank still spread over all of its set. Each rank keeps its own set, trace
// log and frontier; a state's local id is its rank's discovery order.
//
// The search is level-synchronous: level L (the states at depth L) is
// expanded by every rank at once, in rounds. In a round, a rank expands
// states of its frontier until ROUND_BYTES of successors wait, bucketed by
// owner; each successor travels as its (canonical) state, its parent's local
// id and its rule (the parent's rank is the sender). One all-to-all of the
// byte counts and one MPI_Alltoallv of the records move a round
// (nonblocking forms, waited for by finish(): a rank that waits long yields
// its core; the successors a rank owns itself stay in its buffer). Each
// rank then inserts what it received, and its own, into its set, logs the
// new states (parent rank, parent id, rule), checks their invariants and
// queues them for level L + 1. An MPI_Allgather of a few counters per rank
// ends the round: whether any rank has states of level L left, violations
// found, bounds hit, signals, the totals for progress lines.
//
// Termination. Every exchange is a collective that every rank enters the
// same number of times: the rounds of a level go on while the round's
// Allgather says some rank still has level-L states, and the levels go on
// while it says the next frontier is not empty; every rank computes both
// from the same gathered numbers, so all leave together. When a collective
// returns, every record sent in it has been received and inserted, so no
// state is in flight: a round that leaves no level-L state anywhere ends the
// level with every successor of the level in its owner's frontier, and a
// next frontier of 0 on every rank means the whole reachable graph has been
// expanded. Nothing waits on a timer.
//
// Same answers as the serial search. BFS levels are the same whatever the
// partition, hence the state, transition, deadlock and depth counts of a
// complete search, and a shortest counterexample. A violation found in a level
// does not stop the level: every rank finishes it, and the violation reported
// is the least of those found by (trace length, kind, fingerprint of the
// violating state), a key that does not depend on the number of ranks, so
// every run reports the same one. The serial search reports the first of the
// shortest in its order instead (search.c holds a longer one while the level
// goes on): the two differ only when one level holds several violations of the
// shortest length, with traces of the same length. The trace is rebuilt by
// following the parents across ranks (one broadcast from the owner of each
// step's state), replayed by every rank, and each replayed state is checked
// against its owner's set before rank 0 prints it. A state's parent is the
// first discoverer its owner received: with the same number of ranks every run
// gives the same trace (the partition and the order of every exchange are
// fixed); another number of ranks may give another trace of the same length to
// the same violation. With --fixed-trace a state's parent is the least of its
// discoverers by a key of the graph, so every number of ranks gives the same
// trace, at a price ("Parents chosen by a key" below).
//
// Bounds. --max-states and --max-steps are exact: before new states are
// logged (transitions are sent), the ranks gather how many each has, and
// each takes its share of what is left in rank order. --max-depth as in
// search.c: states at the bound are expanded only to look their successors
// up at their owners. --memory bounds each rank (each machine has its own).
// SIGINT/SIGTERM/SIGHUP: a rank that catches one stops expanding at once,
// sends what its round holds, and the round's Allgather tells every rank:
// a partial report from rank 0, exit 3 from every rank. mpirun, signalled
// itself, forwards SIGTERM to every rank and SIGKILLs them
// odls_base_sigkill_timeout (1 s) later, and meanwhile never completes
// MPI_Finalize: a rank that stopped on a signal waits FINALIZE_WAIT_MS for it
// and then exits without it (see mcrt_mpi_main).
//
// Liveness needs the whole graph in one place: refused with more than one
// rank (one rank runs the serial search), as are the answers of a Petri
// net (.pnml) and --simulate. Rank 0 alone writes the report and the
// exports (--graph, --dot, --tests). A rank is one thread unless --threads N
// is given: then N threads expand the rank's share of each level (see
// "Threads inside a rank" below), with the same answers and trace.
#ifdef MCRT_MPI
#include "main.h"

#include <inttypes.h>
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>
#include <time.h>

#define ROUND_BYTES ((size_t)4 << 20) // successors a rank buffers per round
#define NO_RANK UINT32_MAX            // parent rank of an initial state
#define LOG_SHIFT 16                  // log records per chunk: 65536
#define FINALIZE_WAIT_MS 300          // MPI_Finalize after a signal (mcrt_mpi_main)
#define SPIN_S 0.01                   // a rank waiting in a collective polls this long,
#define SLEEP_NS 20000                // then sleeps this long between polls (finish)

typedef struct Buf {
  uint8_t *data;
  size_t len, cap;
} Buf;

// MCRT_MPI_BUFFER_LIMIT (bytes; for tests): a buffer of a round that would
// grow past it fails as if the system had no memory left.
static size_t buffer_limit = SIZE_MAX;

// The capacity b grows to for n more bytes: doubled until they fit.
static size_t grown_cap(const Buf *b, size_t n) {
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + n)
    cap *= 2;
  return cap;
}

// Appends n bytes to b; NULL when the buffer cannot grow (the caller ends
// the search: the memory bound, seen by every rank at the round's end).
static uint8_t *buf_try(Buf *b, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = grown_cap(b, n);
    uint8_t *d = cap > buffer_limit ? NULL : realloc(b->data, cap);
    if (!d)
      return NULL;
    b->data = d;
    b->cap = cap;
  }
  uint8_t *p = b->data + b->len;
  b->len += n;
  return p;
}

// The trace log of a rank: for local id i, its parent's rank and local id
// and the rule, packed little-endian in as few bytes as the number of ranks
// and the model's rules need (1 + 4 + 1 bytes for most), in chunks that
// never move. The all-ones rank of its width marks an initial state.
typedef struct Log {
  uint8_t **chunks;
  size_t nchunks, cap;
  uint64_t count;
  unsigned rank_bytes, rule_bytes, rec_bytes;
} Log;

static void log_init(Log *l, int ranks, uint64_t max_rule) {
  memset(l, 0, sizeof *l);
  l->rank_bytes = ranks < 255 ? 1 : ranks < 65535 ? 2 : 4;
  l->rule_bytes = 1;
  while (l->rule_bytes < 4 && (max_rule >> (8 * l->rule_bytes)) != 0)
    l->rule_bytes++;
  l->rec_bytes = l->rank_bytes + 4 + l->rule_bytes;
}

static size_t log_chunk_bytes(const Log *l) { return (size_t)l->rec_bytes << LOG_SHIFT; }

static size_t log_bytes(const Log *l) {
  return l->nchunks * log_chunk_bytes(l) + l->cap * sizeof(uint8_t *);
}

static bool log_append(Log *l, uint32_t prank, uint32_t pid, uint32_t rule) {
  uint64_t c = l->count >> LOG_SHIFT, i = l->count & ((1u << LOG_SHIFT) - 1);
  if (c == l->nchunks) {
    if (l->nchunks == l->cap) {
      size_t cap = l->cap ? 2 * l->cap : 64;
      uint8_t **n = realloc(l->chunks, cap * sizeof *n);
      if (!n)
        return false;
      l->chunks = n, l->cap = cap;
    }
    l->chunks[l->nchunks] = malloc(log_chunk_bytes(l));
    if (!l->chunks[l->nchunks])
      return false;
    l->nchunks++;
  }
  uint8_t *r = l->chunks[c] + i * l->rec_bytes;
  memcpy(r, &prank, l->rank_bytes); // NO_RANK: all ones, whatever the width
  memcpy(r + l->rank_bytes, &pid, 4);
  memcpy(r + l->rank_bytes + 4, &rule, l->rule_bytes);
  l->count++;
  return true;
}

// Replaces record id's parent and rule (a least discoverer came later).
static void log_set(Log *l, uint64_t id, uint32_t prank, uint32_t pid, uint32_t rule) {
  uint8_t *r = l->chunks[id >> LOG_SHIFT] + (id & ((1u << LOG_SHIFT) - 1)) * l->rec_bytes;
  memcpy(r, &prank, l->rank_bytes);
  memcpy(r + l->rank_bytes, &pid, 4);
  memcpy(r + l->rank_bytes + 4, &rule, l->rule_bytes);
}

// Record id: {parent rank (NO_RANK: initial), parent id, rule}.
static void log_get(const Log *l, uint64_t id, uint32_t rec[3]) {
  const uint8_t *r = l->chunks[id >> LOG_SHIFT] + (id & ((1u << LOG_SHIFT) - 1)) * l->rec_bytes;
  rec[0] = rec[1] = rec[2] = 0;
  memcpy(&rec[0], r, l->rank_bytes);
  if (rec[0] == (uint32_t)(UINT64_C(0xffffffff) >> (32 - 8 * l->rank_bytes)))
    rec[0] = NO_RANK;
  memcpy(&rec[1], r + l->rank_bytes, 4);
  memcpy(&rec[2], r + l->rank_bytes + 4, l->rule_bytes);
}

// The states this rank found new in the current level, for the choice of
// each one's parent: an open-addressing map (linear probing, at most half
// full) from the state's fingerprint to its index among the level's new
// states and the key of its least discoverer so far. Cleared at each level.
typedef struct Found {
  uint64_t hi;   // the state's fingerprint (its first word; 0: an empty entry)
  uint64_t key;  // the least discoverer's fingerprint (first word) so far,
  uint32_t rule; // and its rule (the second key)
  uint32_t at;   // index among the level's new states on this rank
} Found;

typedef struct FoundMap {
  Found *t;
  uint64_t cap, n; // cap = 2^bits entries, or 0
  unsigned bits;
} FoundMap;

// A violation a rank found in the current level (the least one so far).
// Sent as bytes between ranks (the same binary: the same layout).
typedef struct Cand {
  uint64_t key[4]; // trace steps, kind, fingerprint hi, lo: the order of violations
  int kind;        // McrtViolationKind
  int32_t pred;    // invariant index (kind INVARIANT), else -1
  char message[600];
  char file[512];
  int line, col;
  uint32_t state; // local id on the finding rank
  bool no_state;  // an init rule failed: no state, only the failing step
  bool has_step, step_init;
  uint64_t step_rule;
  bool timed_out; // a call of C ran past --extern-timeout (watchdog.c)
} Cand;

// What each rank tells all others at the end of a round.
enum { G_MORE, G_CAND, G_MEMORY, G_SIGNAL, G_TIMED_OUT, G_STATES, G_TRANS, G_NEXT, G_BYTES, G_N };

// Per-rank figures for rank 0's report.
enum { S_STATES, S_PEAK, S_SENT, S_MSGS, S_COMM, S_CPU, S_N };

typedef struct Pool Pool; // --threads N > 1 in a rank

typedef struct Mpi {
  int rank, size;
  McrtCtx *ctx;
  Log log;
  Buf *out, *side;        // per destination: records; (seq, action) of each (--max-steps)
  Buf send, recv, init;   // contiguous send and receive; initial states owned here
  int *scount, *sdispl, *rcount, *rdispl;
  size_t rec_bytes;       // state_bytes + parent id + rule (+ parent key: fixed)
  size_t round_limit;     // outgoing bytes that end a round (ROUND_BYTES, less under --memory)
  bool fixed;             // --fixed-trace: parents by least key (below)
  uint64_t cur_key;       // the key of the state being expanded (its fingerprint's first word)
  FoundMap found;         // the level's new states (parents by least key)
  uint64_t level_first;   // local id of the level's first new state
  uint64_t level_new;     // new states inserted in this level
  uint8_t *tmp;           // canonical forms
  const uint8_t **part;   // what receive() inserts: the records from each rank,
  size_t *part_len;       // in recv (the own rank's in out[rank], never sent) or init
  const uint8_t **fresh;  // the records of new states, with their sender
  uint32_t *fresh_src;
  size_t fresh_cap;
  uint64_t level, popped, round_trans;
  bool lookup_level;      // level at --max-depth: successors are looked up only
  uint64_t total_states, total_trans; // global, as of the last round
  uint64_t gathered[G_N]; // the last round's sums (signal: max)
  Cand cand;
  bool has_cand, memory_hit, states_hit, steps_hit;
  bool timed_out; // a call of C timed out here: the search ends at this round
  // Statistics.
  uint64_t bytes_sent, msgs_sent, rounds, levels;
  double comm_s, cpu_start; // seconds in MPI calls; CPU time at the start
  double *stats; // rank 0: S_N figures per rank
  Pool *pool;    // the rank's threads (NULL: one)
} Mpi;

static MPI_Comm comm = MPI_COMM_WORLD;
static int world_rank, world_size;
static bool threads_allowed; // the MPI library lets other threads run beside MPI

// Waits for a nonblocking collective: polls for up to SPIN_S, then sleeps
// SLEEP_NS between polls. Most waits are short (the ranks reach a round's
// end together, and a collective passes a few messages back and forth):
// a rank that slept from the first poll on woke its timer slack (50 us)
// late at each of them, which made 2 ranks take 1.15 to 1.3 times as long
// on bench/mpi.sh's instances (docs/scaling.md). A long wait (a rank
// growing its set, or expanding a larger share of a level) sleeps, so that
// ranks or threads that share a core with the waiter get it.
static void finish(MPI_Request *req) {
  int done = 0;
  double until = 0;
  struct timespec pause = {0, SLEEP_NS};
  for (unsigned i = 0;; i++) {
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    if (i % 64 != 63)
      continue;
    double now = mcrt_now();
    if (until == 0)
      until = now + SPIN_S;
    else if (now > until)
      nanosleep(&pause, NULL);
  }
}

// The rank that owns the state of fingerprint fp: its low 32 bits,
// multiplied onto 0 .. size - 1.
static inline uint32_t fp_owner(const Mpi *mp, McrtFp fp) {
  return (uint32_t)(((fp.hi & 0xffffffffu) * (uint64_t)mp->size) >> 32);
}

// The rank that owns a (canonical) state (on one rank, not hashed).
static inline uint32_t owner(const Mpi *mp, const uint8_t *state, size_t state_bytes) {
  if (mp->size == 1)
    return 0;
  return fp_owner(mp, mcrt_fingerprint(state, state_bytes, mp->ctx->fp_bits));
}

// CPU seconds (user and system) this process has used.
static double cpu_s(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0)
    return 0;
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static size_t pool_bytes(const Pool *P);

static void update_bytes(Mpi *mp) {
  size_t b = log_bytes(&mp->log) + mp->send.cap + mp->recv.cap + mp->init.cap +
             mp->fresh_cap * (sizeof *mp->fresh + sizeof *mp->fresh_src) +
             mp->found.cap * sizeof(Found);
  for (int d = 0; d < mp->size; d++)
    b += mp->out[d].cap + (mp->side ? mp->side[d].cap : 0);
  b += pool_bytes(mp->pool);
  mp->ctx->engine_bytes = b;
  size_t now = mcrt_accounted_bytes(mp->ctx);
  if (now > mp->ctx->peak_bytes)
    mp->ctx->peak_bytes = now;
}

// ---------------------------------------------------------------------------
// Violations found on this rank.

// Keeps the violation of the given kind at `state` (NULL: none) whose trace
// has `steps` steps if it comes before the one kept; true if it was kept
// (the caller then fills in the rest of mp->cand).
static bool offer(Mpi *mp, McrtViolationKind kind, const uint8_t *state, uint64_t steps) {
  McrtFp fp = {0, 0};
  if (state)
    fp = mcrt_fingerprint(state, mp->ctx->state_bytes, mp->ctx->fp_bits);
  uint64_t key[4] = {steps, (uint64_t)kind, fp.hi, fp.lo};
  if (mp->has_cand) {
    int i = 0;
    while (i < 4 && key[i] == mp->cand.key[i])
      i++;
    if (i == 4 || key[i] > mp->cand.key[i])
      return false;
  }
  memset(&mp->cand, 0, sizeof mp->cand);
  memcpy(mp->cand.key, key, sizeof key);
  mp->cand.kind = kind;
  mp->cand.pred = -1;
  mp->has_cand = true;
  return true;
}

// A run-time error or failed assert (ctx->err) at local state id, or at no
// state (an init rule); step_allowed as in search.c. A call of C that the
// watchdog abandoned ends the search at this round, as in search.c: on a
// signal with nothing offered (mcrt_signal ends the round), past
// --extern-timeout with the error offered and the level not finished.
static void offer_error(Mpi *mp, const uint8_t *state, uint64_t id, uint64_t depth,
                        bool step_allowed) {
  McrtError *e = &mp->ctx->err;
  if (e->abandoned == MCRT_CALL_INTERRUPTED)
    return;
  mp->timed_out |= e->abandoned == MCRT_CALL_TIMED_OUT;
  bool step = step_allowed && e->has_rule;
  McrtViolationKind kind = e->is_assert ? MCRT_VIOL_ASSERT : MCRT_VIOL_RUNTIME_ERROR;
  if (!offer(mp, kind, state, depth + step))
    return;
  Cand *c = &mp->cand;
  snprintf(c->message, sizeof c->message, "%s", e->message);
  snprintf(c->file, sizeof c->file, "%s", e->file ? e->file : "");
  c->line = e->line, c->col = e->col;
  c->no_state = state == NULL;
  c->state = (uint32_t)id;
  c->timed_out = e->abandoned == MCRT_CALL_TIMED_OUT;
  if (step) {
    c->has_step = true;
    c->step_init = e->rule_init;
    c->step_rule = e->rule;
  }
}

// ---------------------------------------------------------------------------
// Insertion at the owner.

// What --memory (the rank's bound) leaves beside what the rank holds now:
// SIZE_MAX without a bound.
static size_t room_left(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  if (ctx->opt->memory == MCRT_UNLIMITED)
    return SIZE_MAX;
  update_bytes(mp);
  size_t now = mcrt_accounted_bytes(ctx);
  return now < ctx->opt->memory ? ctx->opt->memory - now : 0;
}

// Whether `more` bytes of the engine's buffers fit under --memory; false
// sets memory_hit (the search ends at this round).
static bool room_for(Mpi *mp, size_t more) {
  if (more <= room_left(mp))
    return true;
  mp->memory_hit = true;
  return false;
}

// mp_buf when the buffer must grow.
static __attribute__((noinline)) uint8_t *mp_buf_grow(Mpi *mp, Buf *b, size_t n) {
  if (!room_for(mp, grown_cap(b, n) - b->cap))
    return NULL;
  uint8_t *p = buf_try(b, n);
  if (!p)
    mp->memory_hit = true;
  return p;
}

// Appends n bytes to one of the rank's buffers (the main thread's), within
// --memory; NULL after setting memory_hit.
static inline uint8_t *mp_buf(Mpi *mp, Buf *b, size_t n) {
  if (b->len + n > b->cap)
    return mp_buf_grow(mp, b, n);
  uint8_t *p = b->data + b->len;
  b->len += n;
  return p;
}

static bool grow_set(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  update_bytes(mp); // engine_bytes as they are now (the threads' buffers, the log)
  size_t other = mcrt_accounted_bytes(ctx) - mcrt_fpset_bytes(&ctx->set);
  size_t need = mcrt_fpset_grow_bytes(&ctx->set);
  if (other + need > ctx->opt->memory || !mcrt_fpset_grow(&ctx->set)) {
    mp->memory_hit = true;
    return false;
  }
  if (other + need > ctx->peak_bytes)
    ctx->peak_bytes = other + need;
  return true;
}

static McrtFpResult insert(Mpi *mp, McrtFp fp) {
  McrtFpSet *set = &mp->ctx->set;
  if (mcrt_fpset_wants_grow(set) && !grow_set(mp))
    return MCRT_FP_FULL;
  for (;;) {
    McrtFpResult r = mcrt_fpset_insert(set, fp);
    if (r != MCRT_FP_FULL || !grow_set(mp))
      return r;
  }
}

// ---------------------------------------------------------------------------
// Parents chosen by a key of the parent (--fixed-trace).
//
// Without it a state's parent is the first discoverer its owner received:
// every run with the same number of ranks gives the same trace (the
// partition and the order of every exchange are fixed), another number of
// ranks may give another trace of the same length. The serial search's
// parent of a state is its first discoverer in the serial order, which has
// no distributed equivalent, and the order in which an owner receives a
// state's discoverers depends on the partition and on where rounds were
// cut. So a state's parent is the least of its level's
// discoverers by (the discoverer's fingerprint, the rule), a key of the
// state graph alone: every number of ranks, and of threads in a rank, logs
// the same parents and prints the same trace. Each record carries its
// parent's key (8 bytes); a state met again in the level where it was new
// (the map above) takes the record as its parent when its key is less.
// The price (bench/mpi.sh, docs/scaling.md): 8 more bytes sent per
// transition, a map lookup per duplicate and an insertion per new state,
// each mostly a cache miss: about 1.5 times the CPU, so it is an option.
// In 128-bit mode the map compares the fingerprints' first words only: two
// states of one level equal there (odds of about 2^-64 a pair) could swap a
// parent, which the replay's check of every state against its owner's set
// would report; the counts and the verdict do not depend on parents.

static inline uint64_t found_home(const FoundMap *f, uint64_t hi) {
  return (hi * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - f->bits);
}

static Found *found_find(const FoundMap *f, uint64_t hi) {
  if (!f->n)
    return NULL;
  for (uint64_t i = found_home(f, hi);; i = (i + 1) & (f->cap - 1)) {
    if (f->t[i].hi == hi)
      return &f->t[i];
    if (f->t[i].hi == 0)
      return NULL;
  }
}

static void found_put(FoundMap *f, const Found *e) {
  uint64_t i = found_home(f, e->hi);
  while (f->t[i].hi != 0)
    i = (i + 1) & (f->cap - 1);
  f->t[i] = *e;
  f->n++;
}

// Adds a state new in this level; false when the map cannot grow (memory).
static bool found_add(Mpi *mp, const Found *e) {
  FoundMap *f = &mp->found;
  if (2 * (f->n + 1) > f->cap) {
    unsigned bits = f->cap ? f->bits + 1 : 10;
    size_t bytes = ((size_t)1 << bits) * sizeof(Found);
    if (bytes > buffer_limit || !room_for(mp, bytes))
      return false;
    Found *t = calloc((size_t)1 << bits, sizeof *t);
    if (!t)
      return false;
    FoundMap g = {.t = t, .cap = (uint64_t)1 << bits, .bits = bits};
    for (uint64_t i = 0; i < f->cap; i++)
      if (f->t[i].hi)
        found_put(&g, &f->t[i]);
    free(f->t);
    *f = g;
    update_bytes(mp);
  }
  found_put(f, e);
  return true;
}

// A new level: an empty map, as large as the last level needed unless that
// was far more than its states (then small again, so that clearing it does
// not cost more than the level).
static void found_reset(Mpi *mp) {
  FoundMap *f = &mp->found;
  if (f->cap > 8 * f->n + 1024) {
    free(f->t);
    *f = (FoundMap){0};
  } else if (f->n) {
    memset(f->t, 0, f->cap * sizeof *f->t);
    f->n = 0;
  }
  mp->level_first = mp->ctx->states;
  mp->level_new = 0;
}

// A record (rec, from rank src) whose state is already in the set: if the
// state is new in this level and the record's parent key is less than its
// parent's, the record becomes its parent (in the log, or in fresh[] if not
// logged yet: states new in this round, from index round_first of the
// level's on).
static void better_parent(Mpi *mp, const uint8_t *rec, uint32_t src, McrtFp fp,
                          uint64_t round_first) {
  Found *e = found_find(&mp->found, fp.hi);
  if (!e)
    return;
  size_t sb = mp->ctx->state_bytes;
  uint32_t pid, rule;
  uint64_t key;
  memcpy(&pid, rec + sb, 4);
  memcpy(&rule, rec + sb + 4, 4);
  memcpy(&key, rec + sb + 8, 8);
  if (key > e->key || (key == e->key && rule >= e->rule))
    return;
  e->key = key, e->rule = rule;
  if (e->at >= round_first) {
    mp->fresh[e->at - round_first] = rec;
    mp->fresh_src[e->at - round_first] = src;
  } else {
    log_set(&mp->log, mp->level_first + e->at, src, pid, rule);
  }
}

// Logs and checks a new state of depth `depth` (its parent: prank, pid).
static void record(Mpi *mp, const uint8_t *state, uint32_t prank, uint32_t pid, uint32_t rule,
                   uint64_t depth) {
  McrtCtx *ctx = mp->ctx;
  const McrtModel *m = ctx->model;
  if (ctx->states >= MCRT_LOG_MAX_STATES - 1) { // local ids are 32 bits
    ctx->log_full = true;
    mp->memory_hit = true;
    return;
  }
  size_t need = mcrt_queue_push_bytes(&ctx->queue) +
                ((mp->log.count & ((1u << LOG_SHIFT) - 1)) == 0 ? log_chunk_bytes(&mp->log) : 0);
  if (need) { // (a queue or log chunk, with engine_bytes as they are now)
    update_bytes(mp);
    size_t total = mcrt_accounted_bytes(ctx) + need;
    if (total > ctx->opt->memory) {
      mp->memory_hit = true;
      return;
    }
    if (total > ctx->peak_bytes)
      ctx->peak_bytes = total;
  }
  if (!log_append(&mp->log, prank, pid, rule) || !mcrt_queue_push(&ctx->queue, state)) {
    mp->memory_hit = true;
    return;
  }
  uint64_t id = ctx->states++;
  if (depth > ctx->depth)
    ctx->depth = depth;
  if (m->ninvariants > 0) {
    int k = m->check_invariants(ctx, state);
    if (mcrt_failed(ctx)) {
      offer_error(mp, state, id, depth, false);
      mcrt_clear_error(ctx);
    } else if (k >= 0 && offer(mp, MCRT_VIOL_INVARIANT, state, depth)) {
      mp->cand.pred = k;
      mp->cand.state = (uint32_t)id;
    }
  }
  if (ctx->nreached < m->nreachables) {
    for (uint32_t i = 0; i < m->nreachables; i++) {
      if (ctx->reached[i])
        continue;
      bool holds = m->check_reachable(ctx, i, state);
      if (mcrt_failed(ctx)) {
        offer_error(mp, state, id, depth, false);
        mcrt_clear_error(ctx);
        break;
      }
      if (holds)
        ctx->reached[i] = true, ctx->nreached++;
    }
  }
  if (m->is_accepting) { // a scenario or accepting predicates: count the accepting states
    bool accepting = m->is_accepting(ctx, state);
    if (mcrt_failed(ctx)) {
      offer_error(mp, state, id, depth, false);
      mcrt_clear_error(ctx);
    } else {
      ctx->accepting += accepting;
    }
  }
}

// The first `allowed` of n new states may be logged under --max-states:
// rank r takes what is left after ranks 0 .. r-1 took theirs.
static uint64_t share(Mpi *mp, uint64_t mine, uint64_t limit, uint64_t done, bool *hit) {
  uint64_t *all = malloc((size_t)mp->size * sizeof *all);
  if (!all)
    mcrt_die("out of memory");
  double t0 = mcrt_now();
  MPI_Request req;
  MPI_Iallgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, comm, &req);
  finish(&req);
  mp->comm_s += mcrt_now() - t0;
  uint64_t before = 0, total = 0;
  for (int r = 0; r < mp->size; r++) {
    before += r < mp->rank ? all[r] : 0;
    total += all[r];
  }
  free(all);
  uint64_t room = limit > done ? limit - done : 0;
  *hit = total > room;
  uint64_t left = room > before ? room - before : 0;
  return mine < left ? mine : left;
}

// Inserts the round's records, part[s] from rank s in rank order (initial:
// the initial states owned here), then logs the new ones, as many as
// --max-states leaves.
static void receive(Mpi *mp, bool initial) {
  McrtCtx *ctx = mp->ctx;
  size_t sb = ctx->state_bytes;
  size_t nfresh = 0;
  uint64_t round_first = mp->level_new;
  // Records are hashed and their home slots prefetched BATCH at a time, so
  // that the cache misses of a large set overlap (as search.c does).
  enum { BATCH = 16 };
  McrtFp fps[BATCH];
  for (int s = 0; s < mp->size && !mp->memory_hit; s++) {
    const uint8_t *in = mp->part[s];
    size_t end = mp->part_len[s];
    for (size_t off = 0, k = 0; off < end && !mp->memory_hit; off += mp->rec_bytes, k++) {
      if (k % BATCH == 0) {
        for (size_t j = 0, o = off; j < BATCH && o < end; j++, o += mp->rec_bytes) {
          fps[j] = mcrt_fingerprint(in + o, sb, ctx->fp_bits);
          mcrt_fpset_prefetch(&ctx->set, fps[j]);
        }
      }
      McrtFp fp = fps[k % BATCH];
      if (mp->lookup_level) {
        ctx->depth_truncated |= !mcrt_fpset_contains(&ctx->set, fp);
        continue;
      }
      McrtFpResult r = insert(mp, fp);
      if (r == MCRT_FP_FULL)
        break;
      if (r != MCRT_FP_NEW) {
        if (mp->fixed && !initial)
          better_parent(mp, in + off, (uint32_t)s, fp, round_first);
        continue;
      }
      if (nfresh == mp->fresh_cap) {
        size_t cap = mp->fresh_cap ? 2 * mp->fresh_cap : 1024;
        if (!room_for(mp, (cap - mp->fresh_cap) * (sizeof *mp->fresh + sizeof *mp->fresh_src)))
          break; // the search ends at this round
        const uint8_t **f = realloc(mp->fresh, cap * sizeof *f);
        if (f)
          mp->fresh = f;
        uint32_t *fs = f ? realloc(mp->fresh_src, cap * sizeof *fs) : NULL;
        if (fs)
          mp->fresh_src = fs;
        if (!f || !fs || cap * sizeof *f > buffer_limit) {
          mp->memory_hit = true; // the search ends at this round
          break;
        }
        mp->fresh_cap = cap;
      }
      if (mp->fixed && !initial) {
        Found e = {.hi = fp.hi, .rule = 0, .at = (uint32_t)mp->level_new++};
        memcpy(&e.key, in + off + sb + 8, 8);
        memcpy(&e.rule, in + off + sb + 4, 4);
        if (!found_add(mp, &e)) {
          mp->memory_hit = true; // the search ends at this round
          break;
        }
      }
      mp->fresh[nfresh] = in + off;
      mp->fresh_src[nfresh++] = (uint32_t)s;
    }
  }
  uint64_t allowed = nfresh;
  if (ctx->opt->max_states != MCRT_UNLIMITED && !mp->lookup_level) {
    bool hit;
    allowed = share(mp, nfresh, ctx->opt->max_states, mp->total_states, &hit);
    mp->states_hit |= hit;
  }
  for (uint64_t i = 0; i < allowed && !mp->memory_hit; i++) {
    const uint8_t *r = mp->fresh[i];
    uint32_t pid, rule;
    memcpy(&pid, r + sb, 4);
    memcpy(&rule, r + sb + 4, 4);
    record(mp, r, initial ? NO_RANK : mp->fresh_src[i], pid, rule, mp->level + !initial);
  }
}

// ---------------------------------------------------------------------------
// What generated code emits.

// Counts a successor whose record was just put in out[d].
static void count_successor(Mpi *mp, uint32_t d, uint32_t action) {
  McrtCtx *ctx = mp->ctx;
  if (mp->lookup_level) {
    ctx->bound_transitions++;
    ctx->bound_fired[action]++;
    return;
  }
  if (mp->side) {
    uint32_t sa[2] = {(uint32_t)mp->round_trans, action};
    uint8_t *p = mp_buf(mp, &mp->side[d], sizeof sa);
    if (p) // (else cut_steps keeps fewer records: the search ends at this round)
      memcpy(p, sa, sizeof sa);
  }
  mp->round_trans++;
  ctx->transitions++;
  ctx->fired[action]++;
}

static bool emit_successor(McrtCtx *ctx, const uint8_t *next, uint32_t action, uint64_t rule) {
  Mpi *mp = ctx->worker;
  if (ctx->stop)
    return true;
  ctx->cur_has_successor = true;
  const uint8_t *s = next;
  if (ctx->sym) {
    mcrt_sym_canon(ctx->sym, next, mp->tmp); // the class's one representative
    s = mp->tmp;
  }
  uint32_t d = owner(mp, s, ctx->state_bytes);
  uint8_t *p = mp_buf(mp, &mp->out[d], mp->rec_bytes);
  if (!p)
    return true;
  uint32_t parent = (uint32_t)ctx->cur_id, r = (uint32_t)rule;
  memcpy(p, s, ctx->state_bytes);
  memcpy(p + ctx->state_bytes, &parent, 4);
  memcpy(p + ctx->state_bytes + 4, &r, 4);
  if (mp->fixed)
    memcpy(p + ctx->state_bytes + 8, &mp->cur_key, 8);
  count_successor(mp, d, action);
  return false;
}

static void emit_initial(McrtCtx *ctx, const uint8_t *state, uint64_t rule) {
  Mpi *mp = ctx->worker;
  if (ctx->stop)
    return;
  if (ctx->sym) {
    mcrt_sym_canon(ctx->sym, state, mp->tmp);
    state = mp->tmp;
  }
  if (owner(mp, state, ctx->state_bytes) != (uint32_t)mp->rank)
    return;
  uint8_t *p = mp_buf(mp, &mp->init, mp->rec_bytes);
  if (!p)
    return;
  uint32_t parent = UINT32_MAX, r = (uint32_t)rule;
  uint64_t key = 0; // initial states have no parent
  memcpy(p, state, ctx->state_bytes);
  memcpy(p + ctx->state_bytes, &parent, 4);
  memcpy(p + ctx->state_bytes + 4, &r, 4);
  if (mp->fixed)
    memcpy(p + ctx->state_bytes + 8, &key, 8);
}

// ---------------------------------------------------------------------------
// Rounds and levels.

// Expands the next state of the level (search.c's loop body, except that a
// violation is offered and the level goes on).
static void expand(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  const McrtModel *m = ctx->model;
  mcrt_queue_pop(&ctx->queue, ctx->cur);
  uint64_t id = ctx->cur_id = mp->popped++;
  if (mp->fixed)
    mp->cur_key = mcrt_fingerprint(ctx->cur, ctx->state_bytes, ctx->fp_bits).hi;
  if (m->has_constraint && m->within_constraints) {
    bool within = m->within_constraints(ctx, ctx->cur);
    if (mcrt_failed(ctx)) {
      offer_error(mp, ctx->cur, id, mp->level, false);
      mcrt_clear_error(ctx);
      return;
    }
    if (!within)
      return;
  }
  ctx->at_depth_bound = mp->lookup_level;
  ctx->cur_has_successor = false;
  mcrt_successors(ctx, ctx->cur);
  if (mcrt_failed(ctx)) {
    offer_error(mp, ctx->cur, id, mp->level, true);
    mcrt_clear_error(ctx);
    return;
  }
  if (ctx->cur_has_successor)
    return;
  bool terminal = false;
  if (m->has_terminal && m->is_terminal) {
    terminal = m->is_terminal(ctx, ctx->cur);
    if (mcrt_failed(ctx)) {
      offer_error(mp, ctx->cur, id, mp->level, false);
      mcrt_clear_error(ctx);
      return;
    }
  }
  ctx->deadlocks += !terminal;
  if (!terminal && ctx->opt->deadlock && offer(mp, MCRT_VIOL_DEADLOCK, ctx->cur, mp->level)) {
    snprintf(mp->cand.message, sizeof mp->cand.message, "deadlock: no action is enabled%s",
             m->has_terminal ? " and no terminal predicate holds" : "");
    mp->cand.state = (uint32_t)id;
  }
}

// ---------------------------------------------------------------------------
// Threads inside a rank (--threads N > 1 under MPI).
//
// The rank pops up to BATCH states of its level at a time into a window;
// N threads (this one and N - 1 started) expand them at once, CHUNK states
// at a time, each into buffers of its own: every successor's record as the
// rank would send it and its destination and action, each state's outcome
// (outside the constraint, a run-time error, deadlock or terminal). Then
// this thread takes the window's states in id order, as expand() would have
// expanded them: their records go to the round's outgoing batches, the
// counters and violations are counted and offered. So the batches, the
// rounds' cuts, the log and the trace are byte for byte those of one thread
// (states of the window past the round's end wait in it for the next round);
// only the expansion, most of a rank's work, runs in parallel.

#define BATCH 4096 // states in the window
#define CHUNK 64   // states a thread takes at a time

typedef enum {
  OUT_EXPANDED,   // successors (or none: deadlock unless terminal)
  OUT_OUTSIDE,    // outside the constraint
  OUT_ERR_WITHIN, // run-time error in the constraint
  OUT_ERR_SUCC,   // run-time error while computing the successors
  OUT_ERR_TERM,   // run-time error in a terminal predicate
} Outcome;

typedef struct Slot {
  uint32_t worker; // whose buffers hold its records
  uint8_t outcome; // Outcome
  bool terminal;   // no successor, and a terminal predicate holds
  size_t first, n; // its records: first .. first + n - 1 in the worker's
  uint32_t err;    // index in the worker's errors (OUT_ERR_*)
} Slot;

typedef struct Worker {
  McrtCtx ctx; // its own error slot and symmetry scratch; emit = worker_emit
  Pool *P;
  uint32_t index;
  Buf recs;   // records, rec_bytes each
  Buf meta;   // per record: destination, action (2 x uint32_t)
  Buf errs;   // McrtError
  size_t nrecs;
  uint8_t *canon; // canonical forms (state_bytes + MCRT_SLACK, zeroed)
  uint64_t slot;  // the state being expanded
  uint64_t key;   // its key (its fingerprint's first word)
  bool oom;
} Worker;

struct Pool {
  Mpi *mp;
  uint32_t n;          // workers set up (threads.n of them run: the system may refuse some)
  McrtPool threads;    // meeting at its barrier (engine/pool.c)
  uint64_t cap;        // states in the window: BATCH, fewer under --memory
  size_t budget;       // what the threads' buffers may grow by in this window (--memory)
  _Atomic size_t grown; // what they grew by
  Worker *w;
  size_t stride;
  uint8_t *win;
  Slot *slot;
  uint64_t nwin, next_take, base_id; // window size; next state to take; id of state 0
  _Atomic uint64_t next;             // next chunk to expand
  bool quit;
};

// Appends n bytes to a worker's buffer; NULL when out of memory.
static uint8_t *wbuf(Worker *w, Buf *b, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = grown_cap(b, n);
    Pool *P = w->P;
    size_t add = cap - b->cap;
    uint8_t *d = NULL;
    if (atomic_fetch_add(&P->grown, add) + add <= P->budget)
      d = realloc(b->data, cap);
    if (!d) {
      atomic_fetch_sub(&P->grown, add);
      w->oom = true;
      return NULL;
    }
    b->data = d, b->cap = cap;
  }
  uint8_t *p = b->data + b->len;
  b->len += n;
  return p;
}

static bool worker_emit(McrtCtx *wc, const uint8_t *next, uint32_t action, uint64_t rule) {
  Worker *w = wc->worker;
  Mpi *mp = w->P->mp;
  size_t sb = wc->state_bytes;
  uint8_t *p = wbuf(w, &w->recs, mp->rec_bytes);
  uint32_t *m = (uint32_t *)wbuf(w, &w->meta, 2 * sizeof(uint32_t));
  if (!p || !m)
    return true;
  // The class's one representative, written field by field into a buffer
  // whose unused bits stay zero (they are fingerprinted), with room for
  // MCRT_SLACK.
  if (wc->sym) {
    mcrt_sym_canon(wc->sym, next, w->canon);
    next = w->canon;
  }
  memcpy(p, next, sb);
  uint32_t parent = (uint32_t)(w->P->base_id + w->slot), r = (uint32_t)rule;
  memcpy(p + sb, &parent, 4);
  memcpy(p + sb + 4, &r, 4);
  if (mp->fixed)
    memcpy(p + sb + 8, &w->key, 8);
  m[0] = owner(mp, p, sb), m[1] = action;
  w->nrecs++;
  return false;
}

static void worker_error(Worker *w, Slot *sl, Outcome o) {
  McrtError *e = (McrtError *)wbuf(w, &w->errs, sizeof *e);
  if (e) {
    *e = w->ctx.err;
    sl->err = (uint32_t)(w->errs.len / sizeof *e - 1);
    sl->outcome = (uint8_t)o;
  }
  mcrt_clear_error(&w->ctx);
}

static void worker_expand(Worker *w, uint64_t i) {
  Pool *P = w->P;
  McrtCtx *wc = &w->ctx;
  const McrtModel *m = wc->model;
  const uint8_t *st = P->win + i * P->stride;
  Slot *sl = &P->slot[i];
  *sl = (Slot){.worker = w->index, .outcome = OUT_EXPANDED, .first = w->nrecs};
  if (m->has_constraint && m->within_constraints) {
    bool within = m->within_constraints(wc, st);
    if (mcrt_failed(wc)) {
      worker_error(w, sl, OUT_ERR_WITHIN);
      return;
    }
    if (!within) {
      sl->outcome = OUT_OUTSIDE;
      return;
    }
  }
  w->slot = i;
  if (P->mp->fixed)
    w->key = mcrt_fingerprint(st, wc->state_bytes, wc->fp_bits).hi;
  mcrt_successors(wc, st);
  sl->n = w->nrecs - sl->first;
  if (mcrt_failed(wc)) {
    worker_error(w, sl, OUT_ERR_SUCC);
    return;
  }
  if (sl->n == 0 && m->has_terminal && m->is_terminal) {
    sl->terminal = m->is_terminal(wc, st);
    if (mcrt_failed(wc))
      worker_error(w, sl, OUT_ERR_TERM);
  }
}

static void worker_run(Worker *w) {
  Pool *P = w->P;
  for (;;) {
    uint64_t a = atomic_fetch_add_explicit(&P->next, CHUNK, memory_order_relaxed);
    if (a >= P->nwin)
      return;
    uint64_t b = a + CHUNK < P->nwin ? a + CHUNK : P->nwin;
    for (uint64_t i = a; i < b && !w->oom; i++)
      worker_expand(w, i);
    mcrt_pool_beat(&P->threads, w->index);
  }
}

// The threads meet twice per window: before and after the expansion.
static void pool_barrier(Pool *P, uint32_t self) { mcrt_pool_barrier(&P->threads, self); }

static void *worker_main(void *arg) {
  Worker *w = arg;
  for (;;) {
    pool_barrier(w->P, w->index);
    if (w->P->quit)
      return NULL;
    worker_run(w);
    pool_barrier(w->P, w->index);
  }
}

// Sets up n threads; when the system refuses one, goes on with those it has.
static Pool *pool_start(Mpi *mp, uint32_t n) {
  McrtCtx *ctx = mp->ctx;
  Pool *P = calloc(1, sizeof *P);
  if (!P)
    return NULL;
  P->mp = mp;
  P->stride = ctx->state_bytes + MCRT_SLACK;
  // Under --memory the window and the threads' records of its successors
  // (a few per state) take a small part of the bound.
  P->cap = BATCH;
  size_t per_state = P->stride + sizeof *P->slot + 4 * (mp->rec_bytes + 2 * sizeof(uint32_t));
  while (ctx->opt->memory != MCRT_UNLIMITED && P->cap > CHUNK &&
         P->cap * per_state > ctx->opt->memory / 16)
    P->cap /= 2;
  P->w = calloc(n, sizeof *P->w);
  P->win = calloc(P->cap, P->stride);
  P->slot = calloc(P->cap, sizeof *P->slot);
  if (!P->w || !P->win || !P->slot) {
    free(P->w), free(P->win), free(P->slot), free(P);
    return NULL;
  }
  P->n = n;
  for (uint32_t i = 0; i < n; i++) {
    Worker *w = &P->w[i];
    w->P = P;
    w->index = i;
    McrtCtx *wc = &w->ctx;
    mcrt_worker_ctx(wc, ctx, worker_emit, w);
    if (ctx->sym) {
      w->canon = calloc(1, P->stride);
      if (!wc->sym || !w->canon)
        w->oom = true;
    }
  }
  if (!mcrt_pool_start(&P->threads, n, worker_main, P->w, sizeof *P->w)) {
    for (uint32_t i = 0; i < n; i++)
      mcrt_sym_free(P->w[i].ctx.sym), free(P->w[i].canon), mcrt_profile_free(&P->w[i].ctx.prof);
    free(P->w), free(P->win), free(P->slot), free(P);
    return NULL;
  }
  return P;
}

static void pool_free(Pool *P) {
  if (!P)
    return;
  McrtCtx *ctx = P->mp->ctx;
  P->quit = true;
  pool_barrier(P, 0);
  mcrt_pool_join(&P->threads, "rank threads");
  for (uint32_t i = 0; i < P->n; i++) {
    Worker *w = &P->w[i];
    if (w->ctx.sym && ctx->sym) { // the summary's figures are the run's
      ctx->sym->calls += w->ctx.sym->calls;
      ctx->sym->candidates += w->ctx.sym->candidates;
    }
    mcrt_sym_free(w->ctx.sym);
    mcrt_profile_merge(ctx, &w->ctx);
    free(w->recs.data), free(w->meta.data), free(w->errs.data), free(w->canon);
  }
  free(P->w), free(P->win), free(P->slot), free(P);
}

static size_t pool_bytes(const Pool *P) {
  if (!P)
    return 0;
  size_t b = P->cap * (P->stride + sizeof *P->slot);
  for (uint32_t i = 0; i < P->n; i++)
    b += P->w[i].recs.cap + P->w[i].meta.cap + P->w[i].errs.cap;
  return b;
}

// Pops the next `n` states of the level and expands them on every thread.
static void pool_fill(Pool *P, uint64_t n) {
  McrtCtx *ctx = P->mp->ctx;
  P->nwin = n < P->cap ? n : P->cap;
  for (uint64_t i = 0; i < P->nwin; i++)
    mcrt_queue_pop(&ctx->queue, P->win + i * P->stride);
  P->base_id = P->mp->popped;
  P->next_take = 0;
  for (uint32_t i = 0; i < P->n; i++) {
    Worker *w = &P->w[i];
    w->recs.len = w->meta.len = w->errs.len = 0;
    w->nrecs = 0;
  }
  atomic_store(&P->next, 0);
  P->budget = room_left(P->mp); // what the threads' buffers may grow by
  atomic_store(&P->grown, 0);
  double t0 = mcrt_now();
  pool_barrier(P, 0);
  worker_run(&P->w[0]);
  pool_barrier(P, 0);
  ctx->phase_s[0] += mcrt_now() - t0;
  for (uint32_t i = 0; i < P->n; i++)
    P->mp->memory_hit |= P->w[i].oom;
  update_bytes(P->mp); // the threads' buffers as they grew
}

// Takes the window's next state as expand() takes a state it expanded.
static void pool_take(Pool *P) {
  Mpi *mp = P->mp;
  McrtCtx *ctx = mp->ctx;
  const McrtModel *m = ctx->model;
  uint64_t i = P->next_take++;
  uint64_t id = mp->popped++;
  const uint8_t *st = P->win + i * P->stride;
  const Slot *sl = &P->slot[i];
  Worker *w = &P->w[sl->worker];
  for (size_t k = sl->first; k < sl->first + sl->n; k++) {
    const uint32_t *meta = (const uint32_t *)w->meta.data + 2 * k;
    uint8_t *p = mp_buf(mp, &mp->out[meta[0]], mp->rec_bytes);
    if (!p)
      return;
    memcpy(p, w->recs.data + k * mp->rec_bytes, mp->rec_bytes);
    count_successor(mp, meta[0], meta[1]);
  }
  if (sl->outcome != OUT_EXPANDED && sl->outcome != OUT_OUTSIDE) {
    ctx->err = ((const McrtError *)w->errs.data)[sl->err];
    offer_error(mp, st, id, mp->level, sl->outcome == OUT_ERR_SUCC);
    mcrt_clear_error(ctx);
    return;
  }
  if (sl->outcome == OUT_OUTSIDE || sl->n > 0)
    return;
  ctx->deadlocks += !sl->terminal;
  if (!sl->terminal && ctx->opt->deadlock && offer(mp, MCRT_VIOL_DEADLOCK, st, mp->level)) {
    snprintf(mp->cand.message, sizeof mp->cand.message, "deadlock: no action is enabled%s",
             m->has_terminal ? " and no terminal predicate holds" : "");
    mp->cand.state = (uint32_t)id;
  }
}

// The next state of the level, as expand(mp) does: from the window,
// expanding the next BATCH states of the level first if it has been taken.
// left: the level's states not yet taken.
static void pool_expand(Pool *P, uint64_t left) {
  if (P->next_take == P->nwin) {
    pool_fill(P, left);
    if (P->mp->memory_hit)
      return;
  }
  pool_take(P);
}

// --max-steps: keeps the transitions of this round that the bound leaves
// (rank r after ranks 0 .. r-1); the others are not sent.
static void cut_steps(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  bool hit;
  uint64_t keep = share(mp, mp->round_trans, ctx->opt->max_steps, mp->total_trans, &hit);
  mp->steps_hit |= hit;
  if (keep == mp->round_trans)
    return;
  for (int d = 0; d < mp->size; d++) {
    const uint32_t *sa = (const uint32_t *)mp->side[d].data;
    size_t n = mp->side[d].len / 8, kept = 0;
    for (size_t i = 0; i < n; i++) {
      if (sa[2 * i] < keep) {
        kept++;
      } else {
        ctx->transitions--;
        ctx->fired[sa[2 * i + 1]]--;
      }
    }
    mp->out[d].len = kept * mp->rec_bytes; // records come in seq order
  }
}

// Moves the round's records to their owners, and points receive()'s parts
// at them. The rank's own records stay where they are (out[rank]).
static void exchange(Mpi *mp) {
  size_t total = 0;
  for (int d = 0; d < mp->size; d++) {
    size_t len = d == mp->rank ? 0 : mp->out[d].len;
    if (len > INT_MAX || total > (size_t)INT_MAX - len)
      mcrt_die("MPI round of more than 2 GiB");
    mp->scount[d] = (int)len;
    mp->sdispl[d] = (int)total;
    total += len;
  }
  mp->send.len = 0;
  uint8_t *p = mp_buf(mp, &mp->send, total + 1);
  if (!p) { // nothing is sent: the search ends at this round (memory)
    for (int d = 0; d < mp->size; d++)
      mp->scount[d] = mp->sdispl[d] = 0, mp->out[d].len = 0;
  }
  for (int d = 0; d < mp->size; d++) {
    if (mp->side)
      mp->side[d].len = 0;
    if (d == mp->rank || !mp->out[d].len)
      continue;
    memcpy(p + mp->sdispl[d], mp->out[d].data, mp->out[d].len);
    mp->bytes_sent += mp->out[d].len;
    mp->msgs_sent++;
    mp->out[d].len = 0;
  }
  double t0 = mcrt_now();
  MPI_Request req;
  MPI_Ialltoall(mp->scount, 1, MPI_INT, mp->rcount, 1, MPI_INT, comm, &req);
  finish(&req);
  size_t rtotal = 0;
  for (int s = 0; s < mp->size; s++) {
    if (rtotal > (size_t)INT_MAX - (size_t)mp->rcount[s])
      mcrt_die("MPI round of more than 2 GiB");
    mp->rdispl[s] = (int)rtotal;
    rtotal += (size_t)mp->rcount[s];
  }
  // Once the records are on their way they cannot be refused: every rank
  // first makes room for what it receives (within --memory) and says
  // whether it could; when one could not, nothing moves, and the search
  // ends at this round (the memory bound).
  mp->recv.len = 0;
  int fits = (rtotal + 1 <= mp->recv.cap ||
              room_for(mp, grown_cap(&mp->recv, rtotal + 1) - mp->recv.cap)) &&
             buf_try(&mp->recv, rtotal + 1);
  int all;
  MPI_Iallreduce(&fits, &all, 1, MPI_INT, MPI_MIN, comm, &req);
  finish(&req);
  if (!all) {
    mp->memory_hit = true;
    for (int d = 0; d < mp->size; d++)
      mp->scount[d] = mp->sdispl[d] = mp->rcount[d] = mp->rdispl[d] = 0;
    mp->out[mp->rank].len = 0;
  }
  MPI_Ialltoallv(mp->send.data, mp->scount, mp->sdispl, MPI_BYTE, mp->recv.data, mp->rcount,
                 mp->rdispl, MPI_BYTE, comm, &req);
  finish(&req);
  mp->comm_s += mcrt_now() - t0;
  for (int s = 0; s < mp->size; s++) {
    mp->part[s] = mp->rcount[s] ? mp->recv.data + mp->rdispl[s] : NULL;
    mp->part_len[s] = (size_t)mp->rcount[s];
  }
  mp->part[mp->rank] = mp->out[mp->rank].data;
  mp->part_len[mp->rank] = mp->out[mp->rank].len;
}

// The end of a round: every rank's counters, summed (the signal: the
// largest number) into mp->gathered.
static void gather(Mpi *mp, uint64_t level_left) {
  McrtCtx *ctx = mp->ctx;
  update_bytes(mp);
  uint64_t mine[G_N] = {
      [G_MORE] = level_left > 0,
      [G_CAND] = mp->has_cand,
      [G_MEMORY] = mp->memory_hit,
      [G_SIGNAL] = (uint64_t)mcrt_signal,
      [G_TIMED_OUT] = mp->timed_out,
      [G_STATES] = ctx->states,
      [G_TRANS] = ctx->transitions,
      [G_NEXT] = ctx->queue.length - level_left,
      [G_BYTES] = mcrt_accounted_bytes(ctx),
  };
  uint64_t *all = malloc((size_t)mp->size * G_N * sizeof *all);
  if (!all)
    mcrt_die("out of memory");
  double t0 = mcrt_now();
  MPI_Request req;
  MPI_Iallgather(mine, G_N, MPI_UINT64_T, all, G_N, MPI_UINT64_T, comm, &req);
  finish(&req);
  mp->comm_s += mcrt_now() - t0;
  memset(mp->gathered, 0, sizeof mp->gathered);
  for (int r = 0; r < mp->size; r++)
    for (int i = 0; i < G_N; i++) {
      uint64_t v = all[(size_t)r * G_N + i];
      if (i == G_SIGNAL)
        mp->gathered[i] = v > mp->gathered[i] ? v : mp->gathered[i];
      else
        mp->gathered[i] += v;
    }
  free(all);
  mp->total_states = mp->gathered[G_STATES];
  mp->total_trans = mp->gathered[G_TRANS];
  mp->rounds++;
}

static void progress(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  if (mp->rank != 0 || ctx->next_progress <= 0)
    return;
  double now = mcrt_now();
  if (now < ctx->next_progress)
    return;
  FILE *f = ctx->progress_out ? ctx->progress_out : stderr;
  double t = now - ctx->start_time;
  fprintf(f,
          "progress: %" PRIu64 " states (%.0f/s), %" PRIu64 " transitions, frontier %" PRIu64
          ", depth %" PRIu64 ", memory ",
          mp->total_states, t > 0 ? (double)mp->total_states / t : 0.0, mp->total_trans,
          mp->gathered[G_NEXT], mp->level);
  mcrt_fprint_bytes(f, (double)mp->gathered[G_BYTES]);
  fprintf(f, " on %d ranks, %.0f s\n", mp->size, t);
  fflush(f);
  ctx->next_progress = now + ctx->opt->progress_s;
}

// Whether the round's gathered figures end the search now (a bound or a
// signal): set on every rank alike.
static bool bound_now(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  if (mp->gathered[G_TIMED_OUT]) // (its rank offered the error: it is G_CAND)
    return true;
  McrtBound b = mp->gathered[G_SIGNAL]   ? MCRT_BOUND_INTERRUPTED
                : mp->gathered[G_MEMORY] ? (ctx->log_full ? MCRT_BOUND_MAX_STATES : MCRT_BOUND_MEMORY)
                : mp->states_hit         ? MCRT_BOUND_MAX_STATES
                : mp->steps_hit          ? MCRT_BOUND_MAX_STEPS
                                         : MCRT_BOUND_NONE;
  if (b == MCRT_BOUND_NONE)
    return false;
  if (mp->gathered[G_CAND])
    return true; // a violation found first stands: reported instead
  if (b == MCRT_BOUND_INTERRUPTED && !mcrt_signal)
    mcrt_signal = (int)mp->gathered[G_SIGNAL]; // the signal reached another rank
  mcrt_stop_at(ctx, b, MCRT_PHASE_SEARCH);
  return true;
}

// ---------------------------------------------------------------------------
// The violation and its trace.

// The least violation of every rank's (ties: the lowest rank), on every rank.
static void pick_violation(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  const McrtModel *m = ctx->model;
  uint64_t mine[4];
  if (mp->has_cand)
    memcpy(mine, mp->cand.key, sizeof mine);
  else
    memset(mine, 0xff, sizeof mine);
  uint64_t *all = malloc((size_t)mp->size * 4 * sizeof *all);
  if (!all)
    mcrt_die("out of memory");
  MPI_Allgather(mine, 4, MPI_UINT64_T, all, 4, MPI_UINT64_T, comm);
  int w = 0;
  for (int r = 1; r < mp->size; r++)
    for (int i = 0; i < 4; i++)
      if (all[4 * r + i] != all[4 * w + i]) {
        if (all[4 * r + i] < all[4 * w + i])
          w = r;
        break;
      }
  free(all);
  Cand c = mp->cand;
  MPI_Bcast(&c, sizeof c, MPI_BYTE, w, comm);
  mp->cand = c; // every rank keeps the chosen one (its strings outlive the run)

  ctx->has_violation = true;
  ctx->stop = true;
  McrtViolation *v = &ctx->viol;
  memset(v, 0, sizeof *v);
  v->kind = (McrtViolationKind)c.kind;
  v->loop_start = -1;
  v->state = MCRT_NO_STATE;
  snprintf(v->message, sizeof v->message, "%s", c.message);
  if (c.kind == MCRT_VIOL_INVARIANT) {
    const McrtPredicate *p = &m->invariants[c.pred];
    v->name = p->name;
    v->file = p->file, v->line = p->line;
    snprintf(v->message, sizeof v->message, "invariant '%s' does not hold", p->name);
  } else if (mp->cand.file[0]) {
    v->file = mp->cand.file, v->line = c.line, v->col = c.col;
  }
  v->has_step = c.has_step;
  v->step_init = c.step_init;
  v->step_rule = c.step_rule;
  v->timed_out = c.timed_out;
  if (c.no_state)
    return;

  // The path: from the violating state back to an initial one, each step's
  // record broadcast by the rank that owns the state.
  size_t n = 0, cap = 64;
  uint64_t *rules = malloc(cap * sizeof *rules);
  uint32_t at_rank = (uint32_t)w, at_id = c.state;
  for (;;) {
    uint32_t rec[3] = {0, 0, 0};
    if (at_rank == (uint32_t)mp->rank)
      log_get(&mp->log, at_id, rec);
    MPI_Bcast(rec, 3, MPI_UINT32_T, (int)at_rank, comm);
    if (n == cap)
      rules = realloc(rules, (cap *= 2) * sizeof *rules);
    if (!rules)
      mcrt_die("out of memory");
    rules[n++] = rec[2];
    if (rec[0] == NO_RANK)
      break;
    at_rank = rec[0], at_id = rec[1];
  }
  for (size_t i = 0; i < n / 2; i++) {
    uint64_t t = rules[i];
    rules[i] = rules[n - 1 - i], rules[n - 1 - i] = t;
  }
  // Under symmetry the rules lead through canonical states: turn them into
  // a genuine execution (as report.c does with a serial trace).
  uint64_t step_rule = v->step_rule;
  if (ctx->sym && !mcrt_sym_realize(ctx, rules, n, v->has_step && !v->step_init, &step_rule)) {
    ctx->internal_error = true;
    if (mp->rank == 0)
      fprintf(stderr, "error: trace replay under symmetry reduction: no execution of the spec "
                      "follows the symmetry classes the search found (check with --symmetry "
                      "verify)\n");
    n = 0;
  }
  v->step_rule = step_rule;

  // Each state of the replay must be one its owner found: checked there;
  // then every rank knows their fingerprints (report.c's replay looks each
  // state up in the local set).
  size_t bytes = ctx->state_bytes + MCRT_SLACK;
  uint8_t *a = calloc(1, bytes), *b = calloc(1, bytes), *cb = calloc(1, bytes);
  McrtFp *fps = calloc(n + 1, sizeof *fps);
  if (!a || !b || !cb || !fps)
    mcrt_die("out of memory");
  int ok = 1;
  for (size_t i = 0; i < n && ok; i++) {
    if (!mcrt_replay_step(ctx, i == 0, rules[i], a, b)) {
      ok = 0;
      break;
    }
    const uint8_t *s = b;
    if (ctx->sym) {
      mcrt_sym_canon(ctx->sym, b, cb);
      s = cb;
    }
    fps[i] = mcrt_fingerprint(s, ctx->state_bytes, ctx->fp_bits);
    if (fp_owner(mp, fps[i]) == (uint32_t)mp->rank && !mcrt_fpset_contains(&ctx->set, fps[i]))
      ok = 0;
    uint8_t *t = a;
    a = b, b = t;
  }
  mcrt_clear_error(ctx);
  int all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, comm);
  for (size_t i = 0; i < n && all_ok; i++)
    if (fp_owner(mp, fps[i]) != (uint32_t)mp->rank && insert(mp, fps[i]) == MCRT_FP_FULL)
      break;
  free(a), free(b), free(cb), free(fps);
  v->path = rules;
  v->npath = n;
  v->state = 0; // the trace is v->path (any id but MCRT_NO_STATE)
}

// ---------------------------------------------------------------------------
// The search.

static void mpi_free(McrtCtx *ctx) {
  Mpi *mp = ctx->worker;
  if (!mp)
    return;
  for (size_t i = 0; i < mp->log.nchunks; i++)
    free(mp->log.chunks[i]);
  free(mp->log.chunks);
  for (int d = 0; d < mp->size; d++) {
    free(mp->out[d].data);
    if (mp->side)
      free(mp->side[d].data);
  }
  free(mp->out), free(mp->side);
  free(mp->send.data), free(mp->recv.data), free(mp->init.data);
  free(mp->scount), free(mp->sdispl), free(mp->rcount), free(mp->rdispl);
  free(mp->part), free(mp->part_len);
  free(mp->tmp), free(mp->fresh), free(mp->fresh_src), free(mp->stats), free(mp->found.t);
  free(mp);
  ctx->worker = NULL;
  ctx->emit = NULL;
  ctx->emit_initial = NULL;
}

static Mpi *setup(McrtCtx *ctx) {
  Mpi *mp = calloc(1, sizeof *mp);
  if (!mp)
    mcrt_die("out of memory");
  mp->ctx = ctx;
  mp->rank = world_rank, mp->size = world_size;
  size_t k = (size_t)mp->size;
  mp->out = calloc(k, sizeof *mp->out);
  if (ctx->opt->max_steps != MCRT_UNLIMITED)
    mp->side = calloc(k, sizeof *mp->side);
  mp->scount = calloc(k, sizeof(int)), mp->sdispl = calloc(k, sizeof(int));
  mp->rcount = calloc(k, sizeof(int)), mp->rdispl = calloc(k, sizeof(int));
  mp->part = calloc(k, sizeof *mp->part), mp->part_len = calloc(k, sizeof *mp->part_len);
  mp->tmp = calloc(1, ctx->state_bytes + MCRT_SLACK);
  if (!mp->out || !mp->scount || !mp->sdispl || !mp->rcount || !mp->rdispl || !mp->part ||
      !mp->part_len || !mp->tmp ||
      (ctx->opt->max_steps != MCRT_UNLIMITED && !mp->side))
    mcrt_die("out of memory");
  mp->fixed = ctx->opt->fixed_trace;
  mp->rec_bytes = ctx->state_bytes + (mp->fixed ? 16 : 8);
  // Under --memory a round's buffers (its records, their copy to send, what
  // the rank receives: about 2 + K rounds' worth at most) take a part of
  // the bound, not 4 MiB each.
  mp->round_limit = ROUND_BYTES;
  if (ctx->opt->memory != MCRT_UNLIMITED) {
    size_t part = ctx->opt->memory / (4 + 2 * k);
    if (part < mp->round_limit)
      mp->round_limit = part > mp->rec_bytes ? part : mp->rec_bytes;
  }
  const char *limit = getenv("MCRT_MPI_BUFFER_LIMIT");
  if (limit && *limit)
    buffer_limit = (size_t)strtoull(limit, NULL, 10);
  const McrtModel *m = ctx->model;
  uint64_t max_rule = m->nrules > m->ninit_rules ? m->nrules : m->ninit_rules;
  log_init(&mp->log, mp->size, max_rule ? max_rule - 1 : 0);
  ctx->worker = mp;
  ctx->emit = emit_successor;
  ctx->emit_initial = emit_initial;
  return mp;
}

// The search's counts become the totals of every rank (on every rank), and
// rank 0 gathers each rank's figures for its report.
static void totals(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  const McrtModel *m = ctx->model;
  update_bytes(mp);
  double mine[S_N] = {(double)ctx->states, (double)ctx->peak_bytes, (double)mp->bytes_sent,
                      (double)mp->msgs_sent, mp->comm_s, cpu_s() - mp->cpu_start};
  if (mp->rank == 0) {
    mp->stats = calloc((size_t)mp->size * S_N, sizeof *mp->stats);
    if (!mp->stats)
      mcrt_die("out of memory");
  }
  MPI_Gather(mine, S_N, MPI_DOUBLE, mp->stats, S_N, MPI_DOUBLE, 0, comm);
  size_t na = m->nactions, nr = m->nreachables, n = 10 + 2 * na + nr;
  uint64_t *v = calloc(n, sizeof *v), *sum = calloc(n, sizeof *sum);
  if (!v || !sum)
    mcrt_die("out of memory");
  v[0] = ctx->states, v[1] = ctx->transitions, v[2] = ctx->deadlocks;
  v[3] = ctx->bound_transitions, v[4] = ctx->depth_truncated, v[5] = ctx->log_full;
  v[6] = ctx->peak_bytes, v[7] = mcrt_accounted_bytes(ctx);
  v[8] = ctx->sym ? ctx->sym->calls : 0;
  for (size_t i = 0; i < na; i++)
    v[9 + i] = ctx->fired[i], v[9 + na + i] = ctx->bound_fired[i];
  for (size_t i = 0; i < nr; i++)
    v[9 + 2 * na + i] = ctx->reached[i];
  v[9 + 2 * na + nr] = ctx->accepting;
  MPI_Allreduce(v, sum, (int)n, MPI_UINT64_T, MPI_SUM, comm);
  uint64_t depth = ctx->depth, cands = ctx->sym ? ctx->sym->candidates : 0;
  MPI_Allreduce(MPI_IN_PLACE, &depth, 1, MPI_UINT64_T, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &cands, 1, MPI_UINT64_T, MPI_SUM, comm);
  size_t own = mcrt_accounted_bytes(ctx) - ctx->engine_bytes;
  ctx->states = sum[0], ctx->transitions = sum[1], ctx->deadlocks = sum[2];
  ctx->bound_transitions = sum[3], ctx->depth_truncated = sum[4] > 0, ctx->log_full = sum[5] > 0;
  ctx->peak_bytes = sum[6];
  ctx->engine_bytes = sum[7] - own; // the accounted bytes are every rank's
  if (ctx->sym)
    ctx->sym->calls = sum[8], ctx->sym->candidates = cands;
  for (size_t i = 0; i < na; i++)
    ctx->fired[i] = sum[9 + i], ctx->bound_fired[i] = sum[9 + na + i];
  ctx->nreached = 0;
  for (size_t i = 0; i < nr; i++) {
    ctx->reached[i] = sum[9 + 2 * na + i] > 0;
    ctx->nreached += ctx->reached[i];
  }
  ctx->accepting = sum[9 + 2 * na + nr];
  ctx->depth = depth;
  free(v), free(sum);
}

// One level: rounds until no rank has a state of it left. False: the
// search ends here (a bound or a signal).
static bool run_level(Mpi *mp) {
  McrtCtx *ctx = mp->ctx;
  uint64_t left = ctx->queue.length;
  ctx->cur_depth = mp->level;
  mp->lookup_level = mp->level >= ctx->opt->max_depth;
  mp->levels++;
  found_reset(mp);
  do {
    size_t queued = 0;
    mp->round_trans = 0;
    double t0 = mcrt_now(), expanding = ctx->phase_s[0];
    // A signal ends the round at once: mpirun SIGKILLs the ranks a second
    // after forwarding it, and a round of ROUND_BYTES can outlast that.
    while (left > 0 && queued < mp->round_limit && !mp->memory_hit && !mcrt_signal &&
           !mp->timed_out) {
      if (mp->pool)
        pool_expand(mp->pool, left);
      else
        expand(mp);
      left--;
      queued = 0;
      for (int d = 0; d < mp->size; d++)
        queued += mp->out[d].len;
    }
    if (mp->pool) // the batches' merge in state order: the threads' "commit"
      ctx->phase_s[2] += mcrt_now() - t0 - (ctx->phase_s[0] - expanding);
    if (mp->side && !mp->lookup_level)
      cut_steps(mp);
    double t1 = mcrt_now();
    exchange(mp);
    receive(mp, false);
    mp->out[mp->rank].len = 0; // the rank's own records, read by receive()
    if (mp->pool) // the exchange and the insertion at the owner
      ctx->phase_s[1] += mcrt_now() - t1;
    gather(mp, mp->memory_hit ? 0 : left);
    if (mp->rounds == 2) // the initial states' round, then the first of level 0
      mcrt_test_pause("search");
    progress(mp);
    if (bound_now(mp))
      return false;
  } while (mp->gathered[G_MORE]);
  return true;
}

static void mpi_search(McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  Mpi *mp = setup(ctx);
  ctx->start_time = mcrt_now();
  mp->cpu_start = cpu_s();
  ctx->next_progress = ctx->opt->progress_s > 0 ? ctx->start_time + ctx->opt->progress_s : 0;

  // Initial states: every rank runs the init rules and keeps those it owns.
  ctx->cur_id = MCRT_NO_STATE;
  m->initial_states(ctx);
  if (mcrt_failed(ctx)) { // the same on every rank: the same code, the same rules
    offer_error(mp, NULL, 0, 0, true);
    mcrt_clear_error(ctx);
  }
  for (int r = 0; r < mp->size; r++) // as if received from this rank
    mp->part[r] = mp->init.data, mp->part_len[r] = r == mp->rank ? mp->init.len : 0;
  receive(mp, true);
  mp->init.len = 0;
  gather(mp, 0);
  bool go = !bound_now(mp);
  if (go && !mp->gathered[G_CAND] && mp->total_states == 0) {
    ctx->has_violation = true;
    ctx->stop = true;
    McrtViolation *v = &ctx->viol;
    memset(v, 0, sizeof *v);
    v->kind = MCRT_VIOL_NO_INITIAL_STATE;
    v->state = MCRT_NO_STATE;
    v->loop_start = -1;
    snprintf(v->message, sizeof v->message,
             "no initial state: no init block gives a state (every `when` is false), so "
             "nothing was checked");
    go = false;
  }
  uint32_t nthreads = (uint32_t)ctx->opt->threads; // 1 unless --threads was given
  if (nthreads > 1 && !(mp->pool = pool_start(mp, nthreads)))
    mp->memory_hit = true; // seen at the first round's gather
  ctx->threads = mp->pool ? mp->pool->threads.n : 1;
  while (go && !mp->gathered[G_CAND] && mp->gathered[G_NEXT] > 0) {
    go = run_level(mp);
    if (go)
      mp->level++;
  }
  update_bytes(mp); // the peak with the threads' buffers
  pool_free(mp->pool);
  mp->pool = NULL;
  if (mp->gathered[G_CAND] && !ctx->has_violation)
    pick_violation(mp);
  ctx->at_depth_bound = false;
  totals(mp);
  if (!ctx->stop && ctx->depth_truncated)
    mcrt_stop_at(ctx, MCRT_BOUND_MAX_DEPTH, MCRT_PHASE_SEARCH);
  if (!ctx->depth_truncated) {
    ctx->transitions += ctx->bound_transitions;
    for (uint32_t i = 0; i < m->nactions; i++)
      ctx->fired[i] += ctx->bound_fired[i];
  }
  mcrt_never_reached(ctx);
  double t = mcrt_now() - ctx->start_time;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
  ctx->time_s = t;
}

// ---------------------------------------------------------------------------
// The report.

// The bytes and messages every rank sent (rank 0, after the gather).
static void sent_totals(const Mpi *mp, double *sent, double *msgs) {
  *sent = *msgs = 0;
  for (int r = 0; r < mp->size; r++)
    *sent += mp->stats[r * S_N + S_SENT], *msgs += mp->stats[r * S_N + S_MSGS];
}

static void summary(FILE *f, const McrtCtx *ctx) {
  const Mpi *mp = ctx->worker;
  if (!mp || !mp->stats)
    return;
  double sent, msgs;
  sent_totals(mp, &sent, &msgs);
  fprintf(f, "mpi:           %d rank%s, %" PRIu64 " levels in %" PRIu64 " rounds; ", mp->size,
          mp->size == 1 ? "" : "s", mp->levels, mp->rounds);
  mcrt_fprint_bytes(f, sent);
  fprintf(f, " sent in %.0f messages (%.1f bytes/state); memory: the sum over the ranks, its "
             "parts rank 0's (the MPI trace log is in each rank's peak)\n",
          msgs, ctx->states ? sent / (double)ctx->states : 0.0);
  for (int r = 0; r < mp->size; r++) {
    const double *s = mp->stats + r * S_N;
    fprintf(f, "  rank %-3d     %.0f states, ", r, s[S_STATES]);
    mcrt_fprint_bytes(f, s[S_PEAK]);
    fputs(" peak, sent ", f);
    mcrt_fprint_bytes(f, s[S_SENT]);
    fprintf(f, " in %.0f messages, %.3f s in MPI calls, %.3f s CPU\n", s[S_MSGS], s[S_COMM],
            s[S_CPU]);
  }
}

static void report(FILE *f, const McrtCtx *ctx) {
  const Mpi *mp = ctx->worker;
  if (!mp || !mp->stats)
    return;
  double sent, msgs;
  sent_totals(mp, &sent, &msgs);
  fprintf(f,
          ",\n \"mpi\": {\"ranks\": %d, \"levels\": %" PRIu64 ", \"rounds\": %" PRIu64
          ", \"bytes_sent\": %.0f, \"messages_sent\": %.0f, \"bytes_sent_per_state\": %.2f, "
          "\"per_rank\": [",
          mp->size, mp->levels, mp->rounds, sent, msgs,
          ctx->states ? sent / (double)ctx->states : 0.0);
  for (int r = 0; r < mp->size; r++) {
    const double *s = mp->stats + r * S_N;
    fprintf(f,
            "%s{\"states\": %.0f, \"peak_bytes\": %.0f, \"bytes_sent\": %.0f, "
            "\"messages_sent\": %.0f, \"communication_s\": %.6f, \"cpu_s\": %.6f}",
            r ? ", " : "", s[S_STATES], s[S_PEAK], s[S_SENT], s[S_MSGS], s[S_COMM], s[S_CPU]);
  }
  fputs("]}", f);
}

// ---------------------------------------------------------------------------
// The checker's main under MPI.

// What this engine refuses, decided alike on every rank (rank 0 also finds
// out whether it can write --report and the exports, which it alone opens:
// a rank that stopped here while the others searched would leave them
// waiting).
static int mpi_check(const McrtModel *m, const McrtOptions *opt, FILE *err) {
  int code = -1;
  if (opt->threads > 1 && !threads_allowed) {
    fprintf(err, "error: --threads %" PRIu64 ": this MPI library does not support threads beside "
                 "MPI (MPI_THREAD_FUNNELED): start one rank per core instead (mpirun -np K)\n",
            opt->threads);
    code = MCRT_EXIT_USAGE;
  } else if (mcrt_liveness_wanted(m, opt) && world_size > 1) {
    fprintf(err, "error: liveness properties are not checked on several MPI ranks (the cycle "
                 "search needs the whole graph in one process): check them on one rank, "
                 "running this checker without mpirun (or mpirun -np 1), or pass --liveness off "
                 "to check only safety on %d ranks\n",
            world_size);
    code = MCRT_EXIT_USAGE;
  } else if (opt->sim_runs && world_size > 1) {
    fprintf(err, "error: --simulate runs in one process: run this checker without mpirun (or "
                 "mpirun -np 1)\n");
    code = MCRT_EXIT_USAGE;
  } else if (m->net && world_size > 1) {
    fprintf(err, "error: a place/transition net's answers (token bounds, enabled transitions) "
                 "are gathered in one process: run this checker as one rank (without mpirun, "
                 "or mpirun -np 1)\n");
    code = MCRT_EXIT_USAGE;
  } else if (mcrt_liveness_wanted(m, opt) || m->net) {
    mcrt_engine = (McrtEngine){0}; // one rank: search.c (or threads.c) checks them
  }
  if (code < 0 && world_rank == 0 && !mcrt_outputs_check(opt, stdout, err))
    code = MCRT_EXIT_USAGE; // (main.c opens them on rank 0 once every rank agrees)
  int all = code;
  MPI_Allreduce(&code, &all, 1, MPI_INT, MPI_MAX, comm);
  return all;
}

// Under MPI a rank is one thread unless --threads says otherwise: the
// default, the cores online, is for a run without MPI (with one rank per
// core, the usual way to start ranks, more threads would only compete for
// the cores). Whether the option was given is read before the options are
// (mcrt_option_given).
static int exit_code; // what a rank whose MPI_Finalize does not return exits with

static void finalize_timeout(int sig) {
  (void)sig;
  _exit(exit_code);
}

int mcrt_mpi_main(const McrtModel *model, int argc, char **argv) {
  // SIGINT, SIGTERM and SIGHUP wait (blocked) until the run catches them
  // (main.c's catch_signals): MPI_Init takes up to a second, and a signal
  // then would end the rank without a report; the threads MPI starts keep
  // them blocked, so they reach this one. After the run they are blocked
  // again (restore_signals): one that comes while the rank finalizes is
  // not taken (the run's answer stands).
  sigset_t stop = mcrt_stop_signals();
  sigprocmask(SIG_BLOCK, &stop, NULL);
  // Threads in a rank (--threads N) never call MPI: only this one does.
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  threads_allowed = provided >= MPI_THREAD_FUNNELED;
  bool threads_given = mcrt_option_given(argc, argv, "threads");
  MPI_Comm_rank(comm, &world_rank);
  MPI_Comm_size(comm, &world_size);
  FILE *out = stdout, *err = stderr;
  if (world_rank != 0) { // rank 0 speaks for all
    out = err = fopen("/dev/null", "w");
    if (!out)
      out = err = stderr;
  }
  mcrt_engine = (McrtEngine){.search = mpi_search,
                             .check = mpi_check,
                             .free_run = mpi_free,
                             .summary = summary,
                             .report = report,
                             .silent = world_rank != 0};
  // Without --threads the options say 1, so that a rank that hands its run
  // to search.c (liveness, a net: one rank) is one thread too.
  char **args = argv;
  if (!threads_given) {
    args = calloc((size_t)argc + 3, sizeof *args);
    if (!args)
      mcrt_die("out of memory");
    args[0] = argv[0];
    args[1] = "--threads";
    args[2] = "1";
    for (int i = 1; i < argc; i++)
      args[i + 2] = argv[i];
    argc += 2;
  }
  int code = mcrt_run(model, argc, args, out, err);
  if (args != argv)
    free(args);
  fflush(stdout);
  if (mcrt_signal) {
    // Signalled through mpirun, which is tearing the job down: MPI_Finalize
    // would wait for it until the SIGKILL, and the rank would die instead of
    // exiting 3. Signalled directly, the ranks finalize in milliseconds.
    exit_code = code;
    signal(SIGALRM, finalize_timeout);
    struct itimerval wait = {.it_value = {0, FINALIZE_WAIT_MS * 1000}};
    setitimer(ITIMER_REAL, &wait, NULL);
  }
  MPI_Finalize();
  return code;
}
#endif
