// internal.h: the runtime's internal header, one section per file. Generated
// code never includes it (it includes mcrt.h only); the runtime's files and
// its unit tests do.
#ifndef MCRT_INTERNAL_H
#define MCRT_INTERNAL_H

#include "mcrt.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define MCRT_VERSION "0.1"

// Internal errors are not the user's: print where and abort.
#define mcrt_die(...) mcrt_die_at(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void mcrt_die_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// ---------------------------------------------------------------------------
// fpset.c: the fingerprint set. An open-addressing table of fingerprints,
// linear probing, ordered (the home slot grows with the fingerprint), no
// wrap-around, grown by streaming migration. Slot operations are C11 atomics
// so that many threads may insert at once; growth is stop-the-world.

typedef struct McrtFp {
  uint64_t hi; // never 0 (0 marks an empty slot)
  uint64_t lo; // 128-bit mode only (never 0 there); 0 in 64-bit mode
} McrtFp;

typedef enum {
  MCRT_FP_OLD,  // already in the set
  MCRT_FP_NEW,  // inserted now
  MCRT_FP_FULL, // the probe ran off the end of the overflow area: grow, retry
} McrtFpResult;

typedef struct McrtFpSet {
  unsigned words;          // words per slot: 1 (64-bit) or 2 (128-bit)
  uint64_t capacity;       // home slots: home(fp) = (fp.hi * capacity) >> 64
  uint64_t nslots;         // capacity + the overflow area
  uint64_t max_count;      // grow when count reaches this (load factor 0.85)
  _Atomic uint64_t count;  // fingerprints in the set
  _Atomic uint64_t *slots; // nslots * words, mmap'd
  size_t map_bytes;        // bytes mapped for slots
  uint64_t grows;          // how many times the table grew
  bool id_words;           // liveness, 64-bit: word 1 of each 2-word slot is the state id
  uint32_t *ids;           // liveness, 128-bit: the state id of each slot (else NULL)
  size_t ids_bytes;        // bytes mapped for ids
  // The compact layout (fpcompact.c: 64-bit fingerprints without ids).
  unsigned rem_bits;       // bits per remainder, packed in slots; 0: the word layout above
  uint64_t divisor;        // home(fp) = fp / divisor; the slot keeps fp mod divisor
  uint64_t reciprocal;     // floor((2^64 - 1) / divisor): fp / divisor without a division
  uint64_t *meta;          // per 64 slots V and END bitmaps (2 words), then the offsets
  size_t meta_bytes;       // bytes mapped for meta
  _Atomic uint8_t *locks;  // one spin lock per region of slots, 64 bytes apart
  uint64_t nregions;       // locks
  bool shared;             // threads probe at once: take the region locks
} McrtFpSet;

// fp / divisor by a multiplication: the estimate is at most 2 below (the
// reciprocal is rounded down), the remainder corrects it.
static inline uint64_t mcrt_fpc_home(const McrtFpSet *set, uint64_t fp) {
  uint64_t q = (uint64_t)(((unsigned __int128)fp * set->reciprocal) >> 64);
  for (uint64_t r = fp - q * set->divisor; r >= set->divisor; r -= set->divisor)
    q++;
  return q;
}

static inline uint64_t mcrt_fpset_home(const McrtFpSet *set, uint64_t hi) {
  if (set->rem_bits)
    return mcrt_fpc_home(set, hi);
  return (uint64_t)(((unsigned __int128)hi * set->capacity) >> 64);
}

// A prefetch for writing: the line comes exclusive, invalidated in the
// other cores' caches, so the CAS that inserts into it later needs no
// second trip to take it from another core (where threads insert into
// the same table, a CAS cost several times its one-thread cost without
// it). GCC emits PREFETCHW for __builtin_prefetch(p, 1) only on targets
// built with it (-mprfchw); the runtime is built for any x86-64, so the
// instruction is written here, where the processor has it (mcrt_prefetchw,
// set from CPUID at start).
extern bool mcrt_prefetchw;
static inline void mcrt_prefetch_write(const void *p) {
#if defined(__x86_64__)
  if (mcrt_prefetchw) {
    __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
    return;
  }
#endif
  __builtin_prefetch(p, 1);
}

// Starts loading the home slot of fp into the cache (the search hashes a
// batch of successors, prefetches, then inserts: the misses overlap).
static inline void mcrt_fpset_prefetch(const McrtFpSet *set, McrtFp fp) {
  uint64_t home = mcrt_fpset_home(set, fp.hi);
  if (set->rem_bits) {
    // The remainders only: the bitmaps and offsets, 0.27 bytes a slot, mostly
    // stay in the cache, and more prefetches than line fill buffers stall.
    mcrt_prefetch_write((const char *)set->slots + home * set->rem_bits / 8);
    return;
  }
  mcrt_prefetch_write((const void *)&set->slots[set->words * home]);
  if (set->ids)
    mcrt_prefetch_write((const void *)&set->ids[home]);
}

// Copies a state in 8-byte words: both buffers must have MCRT_SLACK bytes
// after the state, as the last word may run past it (the bytes past the
// state are never read as state). For the short states of most models this
// beats a call to memcpy, whose size is only known at run time (at 2
// threads the calls were 5% of bakery.5's samples).
static inline void mcrt_copy_state(uint8_t *to, const uint8_t *from, size_t bytes) {
  for (size_t k = 0; k < bytes; k += 8) {
    uint64_t w;
    memcpy(&w, from + k, sizeof w);
    memcpy(to + k, &w, sizeof w);
  }
}

// The fingerprint of a packed state.
static inline McrtFp mcrt_fingerprint(const uint8_t *state, size_t n, unsigned bits) {
  McrtFp fp;
  if (bits == 128) {
    XXH128_hash_t h = XXH3_128bits(state, n);
    fp.hi = h.high64, fp.lo = h.low64;
    fp.lo += fp.lo == 0;
  } else {
    fp.hi = XXH3_64bits(state, n);
    fp.lo = 0;
  }
  fp.hi += fp.hi == 0;
  return fp;
}

// bits is 64 or 128; min_capacity home slots at least. False if mmap failed.
bool mcrt_fpset_init(McrtFpSet *set, unsigned bits, uint64_t min_capacity);
// The same for 64-bit fingerprints in the compact layout (fpcompact.c).
bool mcrt_fpset_init_compact(McrtFpSet *set, uint64_t min_capacity);
void mcrt_fpset_free(McrtFpSet *set);
McrtFpResult mcrt_fpset_insert(McrtFpSet *set, McrtFp fp);
// The same, a new fingerprint counted in *tally (when not NULL) instead of
// the set's count, which a thread adds with mcrt_fpset_add_count when it is
// done: threads that insert at once each keep a tally of their own. (The
// count shares a cache line with the table's geometry, which every probe
// reads: written by every thread at each new state, that line went from
// core to core, and 2 threads took 2.4 times one thread's CPU time on BEEM
// bakery.5, 1.4 times with tallies.)
McrtFpResult mcrt_fpset_insert_tally(McrtFpSet *set, McrtFp fp, uint64_t *tally);
void mcrt_fpset_add_count(McrtFpSet *set, uint64_t n);
bool mcrt_fpset_contains(const McrtFpSet *set, McrtFp fp);
// Liveness needs the id of a state it meets again: each slot then has a
// 32-bit state id beside it (call before the first insertion). insert_id
// stores `id` with a new fingerprint, or gives the stored id of an old one.
bool mcrt_fpset_enable_ids(McrtFpSet *set);
McrtFpResult mcrt_fpset_insert_id(McrtFpSet *set, McrtFp fp, uint32_t id, uint32_t *old_id);
bool mcrt_fpset_find_id(const McrtFpSet *set, McrtFp fp, uint32_t *id);
// The multi-threaded search inserts a new fingerprint before its id is
// known (threads.c): it stores MCRT_ID_PENDING, then sets the id once the
// window's ids are given. put_id stores the id of a fingerprint in the set.
#define MCRT_ID_PENDING UINT32_MAX // never an id: ids are below MCRT_LOG_MAX_STATES
void mcrt_fpset_put_id(McrtFpSet *set, McrtFp fp, uint32_t id);
// The same by the slot insert_id_slot gave (valid until the set grows:
// McrtFpSet.grows): no second probe. tally as in mcrt_fpset_insert_tally.
McrtFpResult mcrt_fpset_insert_id_slot(McrtFpSet *set, McrtFp fp, uint32_t id, uint32_t *old_id,
                                       uint64_t *slot, uint64_t *tally);
void mcrt_fpset_put_id_at(McrtFpSet *set, uint64_t slot, uint32_t id);
uint32_t mcrt_fpset_id_at(const McrtFpSet *set, uint64_t slot);
// Whether the load factor says grow (checked after each insertion).
static inline bool mcrt_fpset_wants_grow(const McrtFpSet *set) {
  return atomic_load_explicit(&set->count, memory_order_relaxed) >= set->max_count;
}
// Bytes of the table after the next growth (for the memory limit).
size_t mcrt_fpset_grow_bytes(const McrtFpSet *set);
// Grows (x4, x1.5 or x1.125 by size; the compact layout's large tables
// x1.1), migrating in slot order, releasing the old table as it
// goes. False if the new table could not be mapped (the set is unchanged).
bool mcrt_fpset_grow(McrtFpSet *set);
// Growth by several threads at once (threads.c), for the word layout
// without ids (parallel_ok): begin maps the new table (false: it could
// not, the set is unchanged); then the threads migrate parts of the old
// table's slots, [a, b) (CAS into the new table, releasing the whole pages
// of the part in the old one as they go), each thread taking blocks of
// grow_block slots in turn, so that the old table is released and the new
// one filled at one front, as in the serial growth (a part of the table
// per thread made a front per thread: one more partly filled huge page in
// the new table and one more unreleased in the old per thread); end, once
// every part is done, installs the new table. A part whose probe runs off
// the end of the new table adds those fingerprints to its thread's stash
// (emptied by the caller before the growth), and end inserts them after
// extending the overflow area.
typedef struct McrtFpStash {
  uint64_t *fp; // words per fingerprint: the set's
  size_t n, cap;
} McrtFpStash;
typedef struct McrtFpGrow {
  McrtFpSet old, t;
  _Atomic uint64_t *walked; // per release step of the old table: its slots migrated so far
  size_t nsteps;
  _Atomic uint64_t faulted; // units of the new table claimed for faulting in (see prefault)
  _Atomic uint8_t *ready;   // per unit of the new table: 1 once faulted in
} McrtFpGrow;
static inline bool mcrt_fpset_parallel_grow_ok(const McrtFpSet *set) {
  return !set->rem_bits && !set->ids && !set->id_words;
}
bool mcrt_fpset_grow_begin(McrtFpSet *set, McrtFpGrow *g);
uint64_t mcrt_fpset_grow_block(const McrtFpGrow *g);
bool mcrt_fpset_grow_ready(McrtFpGrow *g, uint64_t a);
void mcrt_fpset_grow_part(McrtFpGrow *g, uint64_t a, uint64_t b, McrtFpStash *stash);
void mcrt_fpset_grow_end(McrtFpSet *set, McrtFpGrow *g, McrtFpStash *stashes, uint32_t n);
static inline size_t mcrt_fpset_bytes(const McrtFpSet *set) {
  return set->map_bytes + set->ids_bytes + set->meta_bytes + set->nregions * 64; // locks
}
static inline uint64_t mcrt_fpset_count(const McrtFpSet *set) {
  return atomic_load_explicit(&set->count, memory_order_relaxed);
}
// fpcompact.c: the compact layout, used by fpset.c's functions.
bool mcrt_fpc_init(McrtFpSet *set, uint64_t capacity);
void mcrt_fpc_free(McrtFpSet *set); // meta and locks (the caller unmaps the slots)
McrtFpResult mcrt_fpc_probe(McrtFpSet *set, uint64_t fp, bool add);
size_t mcrt_fpc_grow_bytes(const McrtFpSet *set);
bool mcrt_fpc_grow(McrtFpSet *set);
// mcrt_fpset_save and mcrt_fpset_load for a compact set (the checkpoint's
// layout tag says which was written).
bool mcrt_fpc_save(int fd, const McrtFpSet *set, XXH3_state_t *hash);
bool mcrt_fpc_load(int fd, McrtFpSet *set, XXH3_state_t *hash);

// Writes the set to fd (its fields, then its table's raw memory), feeding
// every byte written to hash (NULL: none); loads such a set into an
// uninitialised one (fields checked for sanity, the table mapped anew).
// False with errno set (0: the file ended early; EINVAL: not a set).
bool mcrt_fpset_save(int fd, const McrtFpSet *set, XXH3_state_t *hash);
bool mcrt_fpset_load(int fd, McrtFpSet *set, XXH3_state_t *hash);

// ---------------------------------------------------------------------------
// log.c: the trace log. One 8-byte record per discovered state, in id order,
// in mmap'd chunks (growth never copies). Ids fit 32 bits: a run stops with
// "incomplete" before state MCRT_LOG_MAX_STATES + 1.

#define MCRT_LOG_INITIAL UINT32_MAX // parent of an initial state
#define MCRT_LOG_MAX_STATES UINT64_C(0xffffffff)
#define MCRT_LOG_CHUNK_SHIFT 16 // records per chunk: 65536 (320 to 512 KiB)

typedef struct McrtLogRecord {
  uint32_t parent; // id of the parent, or MCRT_LOG_INITIAL
  uint32_t rule;   // action rule, or init rule when parent is MCRT_LOG_INITIAL
} McrtLogRecord;

// Records are stored packed, little-endian: the parent in as few bytes as
// the chunk's ids need (a record's parent is below its own id: 2 bytes in
// chunk 0, 3 up to 2^24 states, 4 beyond; the all-ones value of that width
// marks an initial state), then the rule in as few bytes as the model's
// largest rule index needs (1 to 4).
typedef struct McrtLog {
  uint8_t **chunks; // NULL: the chunk is on disk (--disk, disk.c)
  size_t nchunks, chunks_cap;
  uint64_t count;
  unsigned rule_bytes;
  struct McrtDiskFile *disk; // --disk: chunks 0 .. disk_chunks-1 are in this file
  size_t disk_chunks;
} McrtLog;

// max_rule: the largest rule index (action or init) a record will hold.
void mcrt_log_init(McrtLog *log, uint64_t max_rule);
void mcrt_log_free(McrtLog *log);
// Bytes the next append maps (0 when the current chunk has room).
size_t mcrt_log_append_bytes(const McrtLog *log);
bool mcrt_log_add_chunk(McrtLog *log);
size_t mcrt_log_bytes(const McrtLog *log);

#define MCRT_LOG_CHUNK_MASK ((UINT64_C(1) << MCRT_LOG_CHUNK_SHIFT) - 1)

// Bytes of a parent id in chunk c: ids there are below (c + 1) << SHIFT.
static inline unsigned mcrt_log_parent_bytes(uint64_t c) {
  uint64_t limit = (c + 1) << MCRT_LOG_CHUNK_SHIFT;
  return limit <= (UINT64_C(1) << 16) ? 2 : limit <= (UINT64_C(1) << 24) ? 3 : 4;
}

McrtLogRecord mcrt_disk_log_get(const McrtLog *log, uint64_t id); // disk.c

static inline McrtLogRecord mcrt_log_get(const McrtLog *log, uint64_t id) {
  uint64_t c = id >> MCRT_LOG_CHUNK_SHIFT;
  if (!log->chunks[c]) // written to disk (--disk)
    return mcrt_disk_log_get(log, id);
  unsigned pb = mcrt_log_parent_bytes(c);
  const uint8_t *p = log->chunks[c] + (id & MCRT_LOG_CHUNK_MASK) * (pb + log->rule_bytes);
  McrtLogRecord r = {0, 0};
  memcpy(&r.parent, p, pb);
  if (r.parent == (uint32_t)(UINT64_C(0xffffffff) >> (32 - 8 * pb)))
    r.parent = MCRT_LOG_INITIAL;
  memcpy(&r.rule, p + pb, log->rule_bytes);
  return r;
}

// Several records at once (threads.c's parallel commit): reserve maps the
// chunks of ids count .. count+n-1 (reserve_bytes: the bytes that maps),
// threads then put each record at its id, and the caller adds n to count.
// Not with --disk.
size_t mcrt_log_reserve_bytes(const McrtLog *log, uint64_t n);
bool mcrt_log_reserve(McrtLog *log, uint64_t n);
static inline void mcrt_log_put(McrtLog *log, uint64_t id, uint32_t parent, uint32_t rule) {
  uint64_t c = id >> MCRT_LOG_CHUNK_SHIFT;
  unsigned pb = mcrt_log_parent_bytes(c);
  uint8_t *p = log->chunks[c] + (id & MCRT_LOG_CHUNK_MASK) * (pb + log->rule_bytes);
  memcpy(p, &parent, pb);
  memcpy(p + pb, &rule, log->rule_bytes);
}

// Appends a record; its id is the previous count. False if mmap failed.
static inline bool mcrt_log_append(McrtLog *log, uint32_t parent, uint32_t rule) {
  uint64_t c = log->count >> MCRT_LOG_CHUNK_SHIFT, i = log->count & MCRT_LOG_CHUNK_MASK;
  if (i == 0 && c == log->nchunks && !mcrt_log_add_chunk(log))
    return false;
  unsigned pb = mcrt_log_parent_bytes(c);
  uint8_t *p = log->chunks[c] + i * (pb + log->rule_bytes);
  memcpy(p, &parent, pb); // MCRT_LOG_INITIAL: all ones, whatever the width
  memcpy(p + pb, &rule, log->rule_bytes);
  log->count++;
  return true;
}

// ---------------------------------------------------------------------------
// queue.c: the BFS frontier, a FIFO of packed states in mmap'd chunks; a
// chunk is unmapped as soon as its last state is popped (one spare is kept).

typedef struct McrtChunk McrtChunk;

typedef struct McrtQueue {
  size_t state_bytes;
  size_t per_chunk;   // states per chunk
  size_t chunk_bytes; // bytes mapped per chunk
  McrtChunk *head, *tail, *spare;
  McrtChunk *taken; // chunks emptied by mcrt_queue_take, still mapped (mcrt_queue_release)
  size_t head_pos, tail_pos; // state index within head / tail chunk
  uint64_t length;
  size_t nchunks; // mapped, spare included
  struct McrtDiskQueue *disk; // --disk: the frontier is a file (disk.c); the chunks are unused
} McrtQueue;

void mcrt_queue_init(McrtQueue *q, size_t state_bytes);
// Writes the states of the queue, oldest first, through write(w, bytes, n)
// (checkpoint.c); false when a write failed.
typedef bool McrtWriteFn(void *w, const void *p, size_t n);
bool mcrt_queue_save(const McrtQueue *q, McrtWriteFn *write, void *w);
void mcrt_queue_free(McrtQueue *q);
// Bytes the next push maps (0 when no new chunk is needed).
size_t mcrt_queue_push_bytes(const McrtQueue *q);
// False if mmap failed.
bool mcrt_queue_push(McrtQueue *q, const uint8_t *state);
// Copies the oldest state to out; false when empty.
bool mcrt_queue_pop(McrtQueue *q, uint8_t *out);
// Room for n states at once (threads.c's parallel commit): append_bytes is
// what append maps; append adds n states to the tail, their bytes to be
// written by the caller at the places it gives: span k holds spans[k].n
// states from spans[k].at on, in order. *nspans: how many (at most
// n / per_chunk + 2). False if mmap failed (the queue is unchanged). Not
// with --disk.
typedef struct McrtQueueSpan {
  uint8_t *at;
  uint64_t n;
} McrtQueueSpan;
size_t mcrt_queue_append_bytes(const McrtQueue *q, uint64_t n);
bool mcrt_queue_append(McrtQueue *q, uint64_t n, McrtQueueSpan *spans, size_t *nspans);
// Takes the n oldest states (n <= length) off the queue without copying
// them (threads.c: the threads copy a window's states in parallel): spans
// say where they are, as for append (*nspans at most n / per_chunk + 2).
// Their bytes stay readable, and the chunks they emptied mapped, until
// mcrt_queue_release; appending meanwhile is allowed (it never writes
// there). Not with --disk.
void mcrt_queue_take(McrtQueue *q, uint64_t n, McrtQueueSpan *spans, size_t *nspans);
void mcrt_queue_release(McrtQueue *q);
size_t mcrt_disk_queue_bytes(const McrtQueue *q); // disk.c
static inline size_t mcrt_queue_bytes(const McrtQueue *q) {
  return q->disk ? mcrt_disk_queue_bytes(q) : q->nchunks * q->chunk_bytes;
}

// ---------------------------------------------------------------------------
// options.c: the checker's command line (docs/DESIGN.md).

typedef enum { MCRT_LIVENESS_DEFAULT, MCRT_LIVENESS_ON, MCRT_LIVENESS_OFF } McrtLiveness;
typedef enum { MCRT_SYM_DEFAULT, MCRT_SYM_ON, MCRT_SYM_OFF, MCRT_SYM_VERIFY } McrtSymmetry;
typedef enum { MCRT_POR_AUTO, MCRT_POR_ON, MCRT_POR_OFF } McrtPorMode;
typedef enum {
  MCRT_SYM_METHOD_AUTO,
  MCRT_SYM_METHOD_EXHAUSTIVE, // every permutation (the reference)
  MCRT_SYM_METHOD_SORTED,     // sort by invariant keys, enumerate ties only
} McrtSymMethod;

// --search: the breadth-first search (search.c, threads.c), or the stateless
// depth-first exploration of one execution per Mazurkiewicz trace (odpor.c).
typedef enum { MCRT_SEARCH_BFS, MCRT_SEARCH_ODPOR } McrtSearch;

#define MCRT_UNLIMITED UINT64_MAX
#define MCRT_MAX_THREADS 1024

typedef struct McrtOptions {
  uint64_t threads;
  uint64_t max_states, max_steps, max_depth, memory; // MCRT_UNLIMITED if not given
  unsigned fingerprint_bits;
  bool compact_set; // --compact-set: the compact layout for 64-bit fingerprints
  McrtSymmetry symmetry;
  McrtSymMethod sym_method; // --symmetry-method
  bool deadlock; // check deadlocks (not --no-deadlock)
  McrtLiveness liveness;
  bool trace_json;
  const char *report_file;
  const char *dot_file, *graph_file;
  const char *tests_file;      // --tests FILE.json
  bool tests_cover_accepting;  // --tests-cover accepting (default: transitions)
  uint64_t dot_max_states;     // --dot-max-states (default 200)
  uint64_t graph_max_states;   // --graph-max-states (default 100000)
  uint64_t tests_max_steps;    // --tests-max-steps (default 100000)
  uint64_t sim_runs;           // --simulate RUNS (0: search, not simulate)
  uint64_t sim_depth, sim_seed; // --depth (default 100), --seed (default 1)
  double progress_s; // 0: off
  bool quiet;
  bool mcc; // --mcc: a net's answers as the Model Checking Contest's lines
  McrtSearch search;  // --search bfs|odpor
  bool threads_given; // --threads was on the command line
  const char *disk_dir;       // --disk DIR: the trace log and the frontier in files there
  const char *checkpoint_dir; // --checkpoint DIR
  double checkpoint_every_s;  // --checkpoint-every MINUTES, in seconds
  const char *resume_dir;     // --resume DIR
  McrtPorMode por_mode;    // --por auto (the default) | on | off
  bool por;                // partial-order reduction in effect (por.c): on, or auto where it fits
  const char *por_off_why; // under auto, why the reduction is off in this run (else NULL)
  bool fixed_trace; // --fixed-trace: under MPI, the same trace whatever the number of ranks
                    // (elsewhere it means --order fixed: main.c)
  bool order_free;  // --order free (the default): threads insert successors as they make them
  bool order_given; // --order was on the command line
  double extern_timeout_s; // --extern-timeout: a call of C that runs longer fails (0: none)
} McrtOptions;

// Parses argv into opt. Returns -1 to go on with the run, otherwise the exit
// code (0 after --help/--version, MCRT_EXIT_USAGE after a message on err).
int mcrt_parse_options(McrtOptions *opt, const McrtModel *model, int argc, char **argv,
                       FILE *out, FILE *err);
// Parses "512M", "4G", "1024": bytes; false if malformed.
bool mcrt_parse_size(const char *s, uint64_t *bytes);

// ---------------------------------------------------------------------------
// symmetry.c: canonical forms (one state per symmetry class) and genuine
// traces under reduction.

typedef struct McrtSymSeg {
  uint32_t k, start, len; // a tie: order[k][start .. start+len)
} McrtSymSeg;

typedef struct McrtSym {
  const McrtModel *model;
  McrtSymMethod method; // never AUTO once created
  uint32_t n;           // scalarsets (model->nsym)
  size_t state_bytes;
  uint8_t **pm;         // pm[k][i]: the permutation being tried
  uint64_t **key;       // key[k][i]: invariant keys (sorted method)
  uint8_t **order;      // order[k]: elements by ascending key
  McrtSymSeg *seg;      // ties to enumerate
  uint32_t ties;        // largest scalarset
  uint8_t **tables;     // exhaustive: all permutations per scalarset
  uint64_t *nperms, *row;
  bool have_tables;
  uint8_t *tmp, *best;  // state buffers (state_bytes + MCRT_SLACK)
  uint64_t calls;       // states canonicalised
  uint64_t candidates;  // permutations applied to find their forms
} McrtSym;

// Whether the model has scalarsets to reduce by.
bool mcrt_sym_available(const McrtModel *m);
// NULL when the model has no symmetry. method AUTO picks one (see symmetry.c).
McrtSym *mcrt_sym_new(const McrtModel *m, McrtSymMethod method);
void mcrt_sym_free(McrtSym *sy);
// Writes the canonical form of in to out (state_bytes, no aliasing). False
// only when the exhaustive method cannot enumerate a scalarset (N > 10).
bool mcrt_sym_canon(McrtSym *sy, const uint8_t *in, uint8_t *out);
const char *mcrt_sym_method_name(McrtSymMethod m);

// ---------------------------------------------------------------------------
// search.c: the single-threaded BFS and the context generated code sees.

typedef enum {
  MCRT_BOUND_NONE,
  MCRT_BOUND_MAX_STATES,
  MCRT_BOUND_MAX_STEPS,
  MCRT_BOUND_MAX_DEPTH,
  MCRT_BOUND_MEMORY,
  MCRT_BOUND_INTERRUPTED,
  MCRT_BOUND_NET_CAPACITY, // a net: a place's counter blocked a transition (the search goes on)
  MCRT_BOUND_CYCLE,        // --search odpor without --max-depth: an execution met a state twice
  MCRT_BOUND_DISK,         // --disk: a file there could not be written or read (disk.c)
} McrtBound;

typedef enum {
  MCRT_VIOL_INVARIANT,
  MCRT_VIOL_ASSERT,
  MCRT_VIOL_DEADLOCK,
  MCRT_VIOL_RUNTIME_ERROR,
  MCRT_VIOL_REACHABLE,
  MCRT_VIOL_LIVENESS,
  MCRT_VIOL_NO_INITIAL_STATE, // the init blocks give no state: nothing was checked
} McrtViolationKind;

// Where a run stopped at a bound: in the state search, in the liveness
// check after a complete search, or at the end, after both had ended (a
// signal while the result was being settled).
typedef enum { MCRT_PHASE_SEARCH, MCRT_PHASE_LIVENESS, MCRT_PHASE_END } McrtPhase;

// Whether the trace printed is the shortest, when partial-order reduction
// had a hand in it (main.c's find_shortest; NONE: it had none, the trace is
// the full graph's breadth-first one).
typedef enum {
  MCRT_SHORTEST_NONE,
  MCRT_SHORTEST_FOUND,    // the default: the bounded full search gave it
  MCRT_SHORTEST_FALLBACK, // the default: that search stopped; the reduced trace
  MCRT_SHORTEST_POR_ON,   // --por on: the reduced trace, as asked
} McrtShortest;

#define MCRT_NO_STATE UINT64_MAX

// The error slot: a run-time error or failed assert reported by generated code.
typedef struct McrtError {
  bool set;
  bool is_assert;
  char message[512];
  const char *file;
  int line, col;
  bool has_rule, rule_init; // set by mcrt_failed_in_rule
  uint64_t rule;
  uint8_t abandoned; // a C call abandoned (watchdog.c): MCRT_CALL_TIMED_OUT or _INTERRUPTED
} McrtError;

// Why the watchdog abandoned a call of C (McrtError.abandoned): it ran past
// --extern-timeout (a run-time error that ends the run at once), or a stop
// signal came (the run ends incomplete, as at any other moment).
enum { MCRT_CALL_TIMED_OUT = 1, MCRT_CALL_INTERRUPTED = 2 };

typedef struct McrtViolation {
  McrtViolationKind kind;
  const char *name; // invariant or reachable name; NULL otherwise
  char message[600];
  const char *file; // where the failing spec element is (may be NULL)
  int line, col;
  uint64_t state;      // the trace leads to this state id (MCRT_NO_STATE: none)
  bool has_step;       // then one more, failing step from that state
  bool step_init;      // the failing step is an init rule (state is then none)
  uint64_t step_rule;
  bool timed_out;      // a call of C ran past --extern-timeout and ended the run at once
  // Liveness: the whole trace as rules (path[0] an init rule, then action
  // rules), malloc'd, replacing the parent-pointer path to `state`; the
  // cycle starts at step loop_start (-1: a finite prefix) and its last step
  // returns to that state; `stutter`: the state at loop_start has no
  // successor and repeats forever (no cycle steps).
  uint64_t *path;
  size_t npath;
  int64_t loop_start;
  bool stutter;
} McrtViolation;

// A successor waiting in the batch (see search.c).
#ifndef MCRT_BATCH
#define MCRT_BATCH 16
#endif
#define MCRT_LINE 64 // bytes in a cache line (memory that threads write apart is kept this far apart)
// What is known of a successor's fingerprint before it is taken.
typedef enum {
  MCRT_LOOKUP_INSERT, // nothing: insert it now
  MCRT_LOOKUP_KNOWN,  // looked up: the set had it before this level
  MCRT_LOOKUP_NEW,    // inserted by the engine, and new
  MCRT_LOOKUP_OLD,    // inserted by the engine, and seen before
} McrtLookup;
typedef struct McrtPending {
  McrtFp fp;
  uint64_t rule;
  uint64_t depth;   // of the successor
  uint32_t parent;  // id of the state it is a successor of
  uint32_t action;
  bool at_bound;    // the parent is at --max-depth: look up only
  uint8_t lookup;   // McrtLookup
  // Liveness, lookup KNOWN or OLD: the target's id (MCRT_ID_PENDING: new
  // earlier in the same window, its id not yet given when it was looked up).
  uint32_t to;
} McrtPending;

// A new state's invariants and reachables, evaluated by a worker thread:
// inv the first invariant that fails (-1: none), bit i of reach whether
// reachable i holds (for those not reached when the level's window began).
typedef struct McrtPrecheck {
  int inv;
  uint64_t reach;
} McrtPrecheck;

// An export's outcome (export.c), for the summary and the report.
typedef struct McrtExported {
  const char *option, *path; // "--graph", "--dot", "--tests"; the file
  bool written;              // the file holds the export
  bool trace_only;           // --dot over its cap: the violation's path alone
  char note[384];            // written whole: what it holds; else why not, or why the path alone
} McrtExported;

struct McrtCtx {
  const McrtModel *model;
  const McrtOptions *opt;
  McrtFpSet set;
  McrtLog log;
  McrtQueue queue;
  size_t state_bytes;
  unsigned fp_bits;

  // The state being expanded.
  uint8_t *cur; // state_bytes + MCRT_SLACK
  uint64_t cur_id;
  uint64_t cur_depth;
  bool cur_has_successor;
  bool at_depth_bound; // successors of cur are looked up, not added

  // Successors emitted but not yet inserted, a ring: the oldest is
  // pend[pend_head], npending of them; state i at pend_states + i *
  // pend_stride (state_bytes + MCRT_SLACK).
  McrtPending pend[MCRT_BATCH];
  uint32_t npending, pend_head;
  uint8_t *pend_states;
  size_t pend_stride;

  // Counters.
  uint64_t states, transitions, depth; // depth: of the deepest state (initial: 0)
  uint64_t deadlocks;                  // expanded states without successors (not terminal)
  uint64_t accepting;                  // states where model->is_accepting holds
  uint64_t *fired;                     // per action
  // Successors of states at --max-depth, looked up but not expanded: they
  // count as transitions only if the bound turns out to have hidden nothing.
  uint64_t bound_transitions;
  uint64_t *bound_fired;               // per action
  bool *reached;                       // per reachable predicate
  uint32_t nreached;
  double start_time, time_s;
  uint64_t peak_bytes; // highest accounted bytes seen
  size_t engine_bytes; // held by the engine besides the stores (accounted)
  uint32_t threads;    // that explored (1: the serial search)
  double phase_s[3];   // threads: wall time in the expand, insert, commit phases
  double grow_s;       // wall time in the fingerprint set's growths (any engine)
  // threads: the depth whose level was the first expanded in free order
  // (0: free order throughout; MCRT_UNLIMITED: fixed order throughout; a
  // retired --por's switch between: mcrt_por_retired)
  uint64_t free_from;

  McrtError err;
  bool has_violation;
  McrtViolation viol;
  McrtBound bound;
  McrtPhase bound_phase; // where the bound was hit
  int bound_signal;      // MCRT_BOUND_INTERRUPTED: the signal (SIGINT, SIGTERM)
  bool stop;
  // A violation is held in viol, not yet reported: its trace is one step
  // longer than the level being expanded, so the rest of the level is
  // expanded only to look for a shorter one (search.c, "Stopping").
  bool held;
  bool replaying;       // inside trace replay: emits are internal errors
  bool depth_truncated; // a state at --max-depth had an unexplored successor
  bool log_full;        // max-states was hit by the log's 2^32-1 limit
  bool internal_error;  // replay did not reproduce the search (mcgen bug)
  bool io_error;        // the output or the report could not be written

  double next_progress;
  FILE *progress_out;

  // A worker of another engine (threads.c, a rank of mpi.c):
  // mcrt_emit_successor hands it the successors, mcrt_emit_initial the
  // initial states when emit_initial is set (NULL in the serial search).
  bool (*emit)(McrtCtx *ctx, const uint8_t *next, uint32_t action, uint64_t rule);
  void (*emit_initial)(McrtCtx *ctx, const uint8_t *state, uint64_t rule);
  void *worker;

  struct McrtLive *live; // liveness: the edge table (NULL when not checked)
  struct McrtNetRun *net; // a place/transition net's records (net.c; NULL for a spec)
  McrtSym *sym;   // symmetry reduction: states are canonicalised (NULL: off)
  struct McrtPor *por; // the reduction in effect (por.c; NULL: off)
  const char *por_futile; // the default dropped it: why no state could be reduced (por.c)
  size_t por_bytes;    // what the reduction holds (por.c keeps it up to date)
  uint8_t *canon; // a buffer for canonical forms (state_bytes + MCRT_SLACK)
  const McrtCtx *unreduced; // --symmetry verify: the run without reduction
  // The trace under partial-order reduction (main.c's find_shortest): the
  // reduced graph's breadth-first trace need not be the shortest, so under
  // the default a second search of the full graph, bounded to the depth of
  // the reduced search's violation, gives one.
  McrtShortest shortest_status;
  uint64_t reduced_trace_depth; // the reduced search's violating state's depth
  uint64_t shown_trace_depth;   // the depth of the violating state shown
  McrtCtx *shortest;            // that full search (NULL: none was run)
  McrtOptions *shortest_opt;    // its options (owned here)
  struct McrtDisk *disk;          // --disk (disk.c; NULL without)
  struct McrtCheckpoint *ckpt;    // --checkpoint, --resume (checkpoint.c; NULL without)
  McrtExported exported[3];       // --graph, --dot, --tests as asked (export.c)
  uint32_t nexported;
};

// core.c: the clock, the error slot, stopping.
double mcrt_now(void);
// The cores this process may run on: online and in its affinity mask.
uint32_t mcrt_cores(void);
// The ranks a process manager (mpirun, srun) started this process among,
// from its environment; 1 when none did.
long mcrt_launcher_ranks(void);
// Prints a byte count as "12.3 MiB".
void mcrt_fprint_bytes(FILE *f, double bytes);
void mcrt_clear_error(McrtCtx *ctx);
// Stops the run at bound b, hit in the given phase (SIGINT/SIGTERM: b is
// MCRT_BOUND_INTERRUPTED and the signal is mcrt_signal).
void mcrt_stop_at(McrtCtx *ctx, McrtBound b, McrtPhase phase);
// The signal (SIGINT, SIGTERM or SIGHUP) that asked the run to stop, 0 if none. Set
// by the handler mcrt_run (main.c) installs for the whole run; every phase polls it.
extern volatile sig_atomic_t mcrt_signal;
// The phases a signal stops are over (main.c): what follows (exports, the
// replay of the trace) calls C again, calls that returned before, so a
// signal no longer abandons a call of C (watchdog.c).
extern _Atomic bool mcrt_search_over;
// "SIGINT", "SIGTERM", "SIGHUP", "a signal".
const char *mcrt_signal_name(int sig);
// Test hook: waits for a signal at PHASE when MCRT_TEST_PAUSE=PHASE.
void mcrt_test_pause(const char *phase);
// n bytes to or from fd in large calls, fed to hash (NULL: none); false with
// errno set (0: the file ended early).
bool mcrt_write_hashed(int fd, const void *p, size_t n, XXH3_state_t *hash);
bool mcrt_read_hashed(int fd, void *p, size_t n, XXH3_state_t *hash);
// The search engine mcrt_run (main.c) uses: search.c's serial search unless
// another one (mpi.c) is installed before mcrt_run. Any hook but search may
// be NULL (search: mcrt_search). Defined in core.c, at the bottom, so that
// every layer may call its hooks.
typedef struct McrtEngine {
  void (*search)(McrtCtx *ctx); // runs the search
  // After the options are read: -1 to go on, else an exit code (after a
  // message on err): what this engine cannot do.
  int (*check)(const McrtModel *model, const McrtOptions *opt, FILE *err);
  void (*free_run)(McrtCtx *ctx);                // before the context is freed
  void (*summary)(FILE *f, const McrtCtx *ctx);  // lines after the summary
  void (*report)(FILE *f, const McrtCtx *ctx);   // fields added to the JSON report
  bool silent; // this process writes no report file (another one reports)
} McrtEngine;
extern McrtEngine mcrt_engine;

// ---------------------------------------------------------------------------
// por.c: partial-order reduction (--por on): static stubborn sets over the
// model's dependency tables, with a cycle proviso for breadth-first search.

typedef struct McrtPor McrtPor;
// The search context's reduction (NULL: out of memory, or no tables), and a
// worker's, sharing the main one's tables (threads.c).
McrtPor *mcrt_por_new(McrtCtx *ctx);
McrtPor *mcrt_por_worker(const McrtPor *main);
void mcrt_por_free(McrtPor *p);
// The successors of a state (every enabled rule's, in rule order) and those
// to take: take[i] for successor i, or take NULL: all of them. Valid until
// the next call on the same context.
typedef struct McrtPorBatch {
  uint32_t n;
  const uint8_t *states; // successor i at states + i * stride
  size_t stride;
  const uint64_t *rules;
  const uint32_t *actions;
  const bool *take;
  bool plain; // no closure was computed: expand the state as without --por
} McrtPorBatch;
McrtPorBatch mcrt_por_choose(McrtCtx *ctx, const uint8_t *state);
// The search found a new state at `depth` (the proviso's "new").
void mcrt_por_discovered(McrtCtx *ctx, McrtFp fp, uint64_t depth);
typedef struct McrtPorStats {
  bool on;
  uint64_t reduced, full; // expansions with a proper subset of the enabled rules, with all
  uint64_t pruned;        // enabled rules left out, over all reduced expansions
  const char *futile;     // why the tables rule out any reduction (then nothing is tried)
  uint64_t skipped;       // full expansions that did not try the closures (sampling)
  bool retired;           // --por auto: retired from retired_depth on (mcrt_por_retired)
  uint64_t retired_depth;
} McrtPorStats;
McrtPorStats mcrt_por_stats(const McrtCtx *ctx);
// --por auto: the reduction did not pay even at the largest sampling period
// and is retired: every state from then on is expanded fully, as without
// --por, and nothing is recorded for the proviso (a full expansion needs
// none). The level where it retires depends only on the levels before, so
// the graph is the same at every --threads N.
bool mcrt_por_retired(const McrtCtx *ctx);
// After the options are read: -1 to go on, else MCRT_EXIT_USAGE after a
// message (no tables, a net, liveness, the MPI engine).
int mcrt_por_check(const McrtModel *m, const McrtOptions *opt, FILE *err);
// --por auto, the default: the reduction wherever --por on would be accepted
// and keeps every answer the run gives; elsewhere off, as with --por off, and
// this says why (NULL: it fits). Off where --por on is refused (liveness, a
// net, the MPI engine, no tables, checkpoints), and where --por on is taken
// but the run's answers are those of the whole graph or of a bounded one
// (exports, --max-depth, --simulate, --search odpor).
const char *mcrt_por_unfit(const McrtModel *m, const McrtOptions *opt);

// ctx.c: the context's stores.
// Sets up ctx for a run of model with opt; false on failure (message on err).
bool mcrt_ctx_init(McrtCtx *ctx, const McrtModel *model, const McrtOptions *opt);
// Records a violation whose trace is a rule path (an initial rule, then
// action rules) rather than a state of the log, as the stateless searches
// (--simulate, --search odpor) have: the message already in ctx->viol is
// kept, the run stops, and v->path has room for npath rules (npath set; the
// caller fills them). With npath 0 there is no state to show.
McrtViolation *mcrt_path_violation(McrtCtx *ctx, McrtViolationKind kind, uint64_t npath);
void mcrt_ctx_free(McrtCtx *ctx);
// The path of rules from an initial state to state id: out[0] is the init
// rule, out[i>0] action rules. Returns the number of steps (depth + 1);
// *out is malloc'd.
size_t mcrt_path_to(const McrtCtx *ctx, uint64_t id, uint64_t **out);

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

// ---------------------------------------------------------------------------
// edges.c: the edge table recorded during the search; liveness.c: the check
// of every property instance over it after an exhaustive search.

// The graph a liveness check reads: CSR edges (start[v] .. start[v + 1] are
// the edges of state v; start has nstates + 1 entries), each a target id and
// a rule of rule_bytes bytes; per state bits_bytes bytes of property bits
// (McrtModel.property_bits); the fairness constraints, and for each action
// rule the constraints it belongs to (rc_list[rc_start[r] .. rc_start[r+1]]).
// States 0 .. ninitial-1 are the initial states.
typedef struct McrtLiveGraph {
  uint64_t nstates, ninitial, nedges, nstarted;
  uint64_t *start;
  uint32_t *targets;
  uint8_t *rules;
  unsigned rule_bytes;
  uint8_t *bits;
  unsigned bits_bytes;
  uint32_t ncons;
  bool *strong;        // per constraint
  uint32_t *cons_fair; // per constraint: its McrtModel.fairness entry
  uint64_t *cons_rule; // per constraint: its rule when per binding, else UINT64_MAX
  uint64_t *rc_start;  // nrules + 1 entries
  uint32_t *rc_list;
} McrtLiveGraph;

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

// The edge table and what the check leaves (edges.c, liveness.c).
typedef struct McrtLive {
  McrtLiveGraph g;
  size_t (*room)(void *arg); // the bytes it may still take (the rest of --memory)
  void *room_arg;
  uint64_t targets_cap, rules_cap, start_cap, bits_cap; // capacities, in entries
  size_t bytes;                            // accounted: what is allocated
  bool done;                               // the check ran to its end
  double time_s;
  // Wall time of the phases: the search (which records the edges), the
  // edge table's closing, the cycle search.
  double search_s, edges_s, scc_s;
  uint64_t components; // judged by the check, over every instance
} McrtLive;
// Sets up recording for the model's property instances and fairness; NULL
// when out of memory.
McrtLive *mcrt_live_new(const McrtModel *m, size_t (*room)(void *arg), void *room_arg);
void mcrt_live_free(McrtLive *L);         // L may be NULL
size_t mcrt_live_bytes(const McrtLive *L); // 0 for NULL
// Records new state `id` (ids come in order): *bits is where its property
// bits go, zeroed, for the caller to fill (NULL: the model has none).
// False: the memory limit.
bool mcrt_live_state(McrtLive *L, uint64_t id, uint8_t **bits);
// Records the edge from..to labelled with an action rule. Edges come
// grouped by `from`, in increasing order. False: the memory limit.
bool mcrt_live_edge(McrtLive *L, uint32_t from, uint32_t to, uint64_t rule);
// Closes the table after the search of `states` states (every state gets
// its start; the initial ones are read from the log). False: the memory
// limit.
bool mcrt_live_finish(McrtLive *L, uint64_t states, const McrtLog *log);
// The parallel commit (threads.c) writes a window's records in place. A
// window's states are ids base.., nnew of them new; it has nedges edges,
// the last from state last_from (UINT64_MAX: none). reserve_bytes: the
// bytes making room for them maps; reserve maps them (false: the memory
// limit or the system; the arrays grow as the serial search grows them,
// edge by edge). window then counts the window's states and edges as the
// serial search would once the window is in, and gives the states before
// it that have no start yet theirs; each thread writes the starts of its
// states up to last_from, its edges and its new states' bits. `states`:
// the states the search has before the window.
size_t mcrt_live_reserve_bytes(const McrtLive *L, uint64_t states, uint64_t nnew,
                               uint64_t last_from, uint64_t nedges);
bool mcrt_live_reserve(McrtLive *L, uint64_t states, uint64_t nnew, uint64_t last_from,
                       uint64_t nedges);
void mcrt_live_window(McrtLive *L, uint64_t states, uint64_t base, uint64_t nnew,
                      uint64_t last_from, uint64_t nedges);
static inline void mcrt_live_put_start(McrtLiveGraph *g, uint64_t id, uint64_t e) {
  g->start[id] = e;
}
static inline void mcrt_live_put_edge(McrtLiveGraph *g, uint64_t e, uint32_t to, uint64_t rule) {
  g->targets[e] = to;
  memcpy(g->rules + e * g->rule_bytes, &rule, g->rule_bytes); // little-endian
}
static inline void mcrt_live_put_bits(McrtLiveGraph *g, uint64_t id, uint64_t bits) {
  memcpy(g->bits + id * g->bits_bytes, &bits, g->bits_bytes); // little-endian
}
// Test hook: with MCRT_TEST_EDGES=FILE, the closed table is written to
// FILE as text (tests/threads compares it between thread counts).
void mcrt_live_dump(const McrtLive *L);

// What --memory counts: every store of the context, and what an engine
// holds on the side (ctx->engine_bytes: the threads' or MPI's buffers).
size_t mcrt_accounted_bytes(const McrtCtx *ctx);
// Whether this run checks liveness (--liveness on, or the spec has a
// property and not --liveness off).
bool mcrt_liveness_wanted(const McrtModel *m, const McrtOptions *opt);
// After an exhaustive search without violation: checks every property
// instance; the first one violated becomes ctx->viol (kind LIVENESS).
void mcrt_liveness_check(McrtCtx *ctx);
// For the summary: instances checked (all of them when the check ran).
bool mcrt_liveness_done(const McrtCtx *ctx);
double mcrt_liveness_time(const McrtCtx *ctx);
// Turns the path of rules to a canonical state (mcrt_path_to under
// symmetry) into a genuine execution: rewrites each action rule, and the
// failing step's, so that replaying them without canonicalisation is a run
// of the spec through states of the same classes. False if impossible (a
// bug: the trace is then wrong). Defined in replay.c.
bool mcrt_sym_realize(McrtCtx *ctx, uint64_t *path, size_t n, bool has_step, uint64_t *step_rule);

// ---------------------------------------------------------------------------
// net.c: what a place/transition net's checker (McrtModel.net) records per
// marking; netreport.c: its answers (token maxima, deadlock, 1-safety,
// quasi-liveness, stable places, liveness L4), each exact, partial or refused.

typedef struct McrtNetField { // a place's counter in the packed state
  uint32_t offset;
  unsigned width;
  int64_t lo;
} McrtNetField;
typedef struct McrtNetMask { // the bits j of the fields in a word of the state
  uint32_t word;
  unsigned shift;  // j
  uint64_t mask;
} McrtNetMask;

typedef struct McrtNetRun {
  const McrtModel *model;
  int64_t *m;          // the marking being looked at
  int64_t *initial;    // the initial marking
  int64_t *max_place;  // per place: the most tokens seen
  int64_t *threshold;  // per place: above it a transition may overflow the counter
  int64_t max_sum;     // the most tokens seen in one marking
  uint32_t max_place_at;
  bool *changed;       // per place: differs from the initial marking somewhere
  uint32_t nchanged;
  bool *enabled;       // per transition: seen enabled near a counter's capacity
                       // (elsewhere ctx->fired says which transitions were)
  uint32_t hint;       // the transition last found enabled
  uint64_t deadlocks;  // markings where no transition is enabled
  uint64_t deadlock;   // the first one's state id (MCRT_NO_STATE: none)
  bool cut;            // a transition was blocked by a counter's capacity
  uint32_t cut_place, cut_trans;
  int live;            // L4: 1 yes, 0 no, -1 not decided
  uint32_t not_live;   // then a transition missing from a terminal component
  const char *live_refused;
  // The fast path (net.c), for markings where every place is at most its threshold.
  bool fast;
  uint32_t *watch, nwatch;       // the places whose threshold is finite
  McrtNetMask *high;             // per word: the bits only a place above threshold sets
  uint32_t nhigh;
  bool high_exact;               // no bit of high set: no place above (else read each)
  McrtNetField *fields;          // per place
  uint32_t nfields;
  uint32_t *gain_start, *gain;   // per transition: the places it adds tokens to
  uint32_t *moved_start, *moved; // per transition: the places it changes
  bool *used;                    // per transition: it discovered a marking
  bool *adds;                    // per transition: it adds more tokens than it takes
  McrtNetMask *masks;            // the popcount sum of a marking (NULL: read each place)
  uint32_t nmasks, nwords;
  size_t state_bytes;
  int64_t sum_lo;
} McrtNetRun;
McrtNetRun *mcrt_net_new(const McrtModel *model); // NULL: out of memory
void mcrt_net_free(McrtNetRun *r);                  // r may be NULL
// A new marking (state id, at discovery), discovered by firing transition
// trans (UINT32_MAX: an initial marking). True when it is the first to
// enable a transition that a place's counter blocks (r->cut): the run is
// incomplete from there.
bool mcrt_net_state(McrtNetRun *r, uint64_t id, const uint8_t *state, uint32_t trans);
// A marking whose expansion emitted no successor: a deadlock, unless it was
// looked at when found (a place near its counter's capacity, or no fast path).
void mcrt_net_no_successor(McrtNetRun *r, uint64_t id, const uint8_t *state);
// The answers for people (after the summary), as MCC's lines (--mcc), and
// as the report's "net" member (a leading comma and the member).
void mcrt_net_print(FILE *f, McrtCtx *ctx);
void mcrt_net_print_mcc(FILE *f, McrtCtx *ctx);
void mcrt_net_report_json(FILE *f, McrtCtx *ctx);
// Liveness (L4) over a reachability graph whose edge rules are transitions
// 0..ntrans-1: 1 when every transition labels an edge of every terminal
// strongly connected component, 0 when not (*not_live: a transition missing
// from one), -1 out of memory.
int mcrt_net_live(const McrtLiveGraph *g, uint32_t ntrans, uint32_t *not_live);

// ---------------------------------------------------------------------------
// replay.c, report.c: values, traces, summary and the JSON report.

// Runs one step of a replay: init rule into b, or action rule from a into b.
// Returns false (and the failure in ctx->err) when the rule does not apply.
bool mcrt_replay_step(McrtCtx *ctx, bool init, uint64_t rule, const uint8_t *a, uint8_t *b);

// report.c: "estimated collision probability P" for `states` fingerprints of `bits`
// bits, with the advice to use 128 bits when P is above 1e-3.
void mcrt_fprint_collision(FILE *f, uint64_t states, unsigned bits);
// Prints one value of type t stored at bit offset off of base.
void mcrt_print_value(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off);
void mcrt_print_value_json(FILE *f, const McrtType *t, const uint8_t *base, uint64_t off);
void mcrt_print_json_string(FILE *f, const char *s);
// "the C the spec calls (extern fn 'step', 'noise' (trusted))": the likely
// cause of a run that is not deterministic, in a spec that calls C (C that
// keeps state between calls, or reads what changes: `trusted` bypasses
// mcgen's check, and the check cannot see what C does behind it).
void mcrt_print_extern_cause(FILE *f, const McrtModel *m);
// The rule group (init or action) of a rule, or NULL.
const McrtRuleGroup *mcrt_rule_group(const McrtModel *m, bool init, uint64_t rule);
// Prints "name(p=v, ...)" for a rule.
void mcrt_print_rule(FILE *f, const McrtModel *m, bool init, uint64_t rule);
// The same as JSON: `"action": ..., "rule": ..., "params": {...}` (no braces)
// and the state as an object of its variables.
void mcrt_print_rule_json(FILE *f, const McrtModel *m, bool init, uint64_t rule);
void mcrt_print_state_json(FILE *f, const McrtModel *m, const uint8_t *state);
// Prints the state: all leaves, or (prev != NULL) only those that differ.
void mcrt_print_state(FILE *f, const McrtModel *m, const uint8_t *state, const uint8_t *prev,
                      const char *indent);
// Prints the trace of the violation (text or JSON by options); replays it.
void mcrt_print_trace(FILE *f, McrtCtx *ctx);
// The violation the run shows: the full search's shortest one when it ran
// and found one (ctx->shortest), else the run's own.
const McrtViolation *mcrt_shown_violation(const McrtCtx *ctx);
// outputs.c: the files a run writes, settled before the search.
typedef struct McrtOutputs {
  FILE *report, *graph, *dot, *tests; // NULL: not asked for
} McrtOutputs;
// Whether the outputs opt asks for can be written: no two on one file, none
// on the checkpoint's files, --disk's directory or the regular file out or
// err goes to, each opens for writing (no file that exists is changed).
// False after a message on err.
bool mcrt_outputs_check(const McrtOptions *opt, FILE *out, FILE *err);
// The same check, then every output opened (truncated). False after a
// message on err, nothing left open.
bool mcrt_outputs_open(McrtOutputs *o, const McrtOptions *opt, FILE *out, FILE *err);
// Every output still open discarded (mcrt_output_discard), e.g. when the
// search could not be set up.
void mcrt_outputs_discard(McrtOutputs *o, const McrtOptions *opt);
// Closes an output that was not written whole (f NULL: nothing), removing
// path when f is a regular file: no half-written file is left.
void mcrt_output_discard(FILE *f, const char *path);
// Closes a written output; false (errno set, path removed when a regular
// file) if anything written was lost. Clear errno before writing.
bool mcrt_output_close(FILE *f, const char *path);
// export.c: --graph, --dot and --tests, written after the search from a
// graph explored on its own (the same whatever the search found), into the
// files o holds (each closed here). Each export's outcome goes to
// ctx->exported; one that fails is a warning on err, never the verdict's
// business.
void mcrt_export(McrtCtx *ctx, McrtOutputs *o, FILE *err);
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
// report.c: prints the simulation's trace (a violation's), verdict and
// summary; returns the exit code.
int mcrt_print_simulation(FILE *out, const McrtSimulation *sim);
// The verdict line, the summary; the exit code of the run.
int mcrt_exit_code(const McrtCtx *ctx);
void mcrt_print_summary(FILE *f, const McrtCtx *ctx);
// "ok", "violation", "error" or "incomplete" for an exit code.
const char *mcrt_verdict_word(int exit_code);
// The conclusion of a run, settled once (main.c's conclude()): the report
// states it, and it is the process's exit code. For a single run it is the
// run's own (mcrt_exit_code, ctx->bound); --symmetry verify combines two.
typedef struct McrtConclusion {
  int exit_code;
  McrtBound bound;        // the bound the run as a whole hit (NONE: none)
  McrtPhase phase;        // where (with a bound)
  int signal;             // which signal (MCRT_BOUND_INTERRUPTED)
  const char *verify;     // --symmetry verify: "agree", "differ", "not-compared"; else NULL
  const char *io_error;   // why stdout could not be written (NULL: it was)
  // More top-level members written by a layer above (a net's answers,
  // netreport.c): ", \"name\": value..."; NULL: none.
  void (*more_json)(FILE *f, McrtCtx *ctx);
} McrtConclusion;
// Writes the JSON report to f (opened at the start of the run; the caller
// closes it and checks that it was written: mcrt_output_close).
void mcrt_write_report(FILE *f, McrtCtx *ctx, const McrtConclusion *c);
const char *mcrt_bound_name(McrtBound b);
const char *mcrt_violation_kind_name(McrtViolationKind k);

// ---------------------------------------------------------------------------
// disk.c: --disk DIR. The trace log's full chunks and the frontier go to
// files in DIR, written in large sequential blocks; RAM keeps bounded
// windows. A failure is recorded (the file, errno) and makes the log's and
// the queue's operations fail: the search stops with MCRT_BOUND_DISK.

typedef struct McrtDiskFile {
  int fd;            // -1: could not be created
  char *path;        // DIR/mcgen-log.XXXXXX (unlinked once open: no leftovers)
  uint64_t size;     // bytes written
  uint64_t released; // bytes given back (frontier: read and punched out)
  int err;           // errno of the first failure, 0 if none
  const char *op;    // what failed: "create", "write", "read"
} McrtDiskFile;

typedef struct McrtDisk {
  McrtDiskFile log, frontier;
} McrtDisk;

// Opens the files in dir (a failure is recorded, not returned) and switches
// the log and the queue to them. NULL: out of memory.
McrtDisk *mcrt_disk_open(const char *dir, McrtLog *log, McrtQueue *queue);
void mcrt_disk_close(McrtDisk *d); // d may be NULL
// The file that failed (NULL: none, or d NULL).
const McrtDiskFile *mcrt_disk_failure(const McrtDisk *d);
// Bytes the log and the frontier hold on disk now (0: d NULL).
uint64_t mcrt_disk_bytes(const McrtDisk *d);
// The log's full chunks still in RAM are written out when they reach a
// block's worth (log.c calls it before it maps a chunk). False: a failure.
bool mcrt_disk_log_spill(McrtLog *log);
bool mcrt_disk_queue_push(McrtQueue *q, const uint8_t *state);
bool mcrt_disk_queue_pop(McrtQueue *q, uint8_t *out);
void mcrt_disk_queue_free(McrtQueue *q);
bool mcrt_disk_queue_save(const McrtQueue *q, McrtWriteFn *write, void *w);
// Writes to w the log's records as bytes, chunk after chunk (each chunk's
// used part), wherever they are.
bool mcrt_log_save(const McrtLog *log, McrtWriteFn *write, void *w);

// ---------------------------------------------------------------------------
// checkpoint.c: --checkpoint DIR, --resume DIR (docs/DESIGN.md).

// After the options are read: -1 to go on, else an exit code after a
// message (combinations refused).
int mcrt_checkpoint_check(const McrtModel *model, const McrtOptions *opt, FILE *err);
// Sets up checkpoints (after mcrt_ctx_init) and with --resume loads the
// checkpoint into ctx: the set, the log, the frontier, the counters. -1 on
// success, else an exit code after a message on err.
int mcrt_checkpoint_start(McrtCtx *ctx, FILE *err);
// Whether the run went on from a checkpoint (its initial states are in it),
// and where: the id of the frontier's first state, the first id of the next
// level (ctx->cur_depth is the level's depth). False: a fresh run.
bool mcrt_checkpoint_resumed(const McrtCtx *ctx);
bool mcrt_checkpoint_position(const McrtCtx *ctx, uint64_t *popped, uint64_t *level_end);
// Writes a checkpoint when --checkpoint is on and it is time (or `now`):
// the search stands between two expansions, nothing pending; the frontier
// holds the states from id `popped` on. A failure is reported on stderr
// and the search goes on (the previous checkpoint stays).
void mcrt_checkpoint_maybe(McrtCtx *ctx, uint64_t popped, uint64_t level_end, bool now);
// Whether a checkpoint is due (now: a signal asks for one); cheap, so that
// the search may ask between any two expansions.
bool mcrt_checkpoint_due(McrtCtx *ctx, bool now);
void mcrt_checkpoint_summary(FILE *f, const McrtCtx *ctx);
void mcrt_checkpoint_free(McrtCtx *ctx);

// ---------------------------------------------------------------------------
// main.c: mcrt_main with the output streams given (tests capture them).
int mcrt_run(const McrtModel *model, int argc, char **argv, FILE *out, FILE *err);
// SIGINT, SIGTERM and SIGHUP: the signals a run turns into a partial report.
sigset_t mcrt_stop_signals(void);

// ---------------------------------------------------------------------------
// watchdog.c: the calls of C (`extern fn`) watched while they run; the
// generated wrappers call mcrt_extern_begin, _end, _abandoned (mcrt.h).

// Starts the thread that abandons a call past opt->extern_timeout_s, or
// one a stop signal finds running, when the model has extern functions.
// False after a message on err (the thread could not be started).
bool mcrt_watchdog_start(const McrtModel *m, const McrtOptions *opt, FILE *err);
void mcrt_watchdog_stop(void);

#endif
