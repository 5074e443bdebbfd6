// SPDX-License-Identifier: MIT
// store/store.h: the stores (docs/DESIGN.md, "Runtime layers"), each knowing
// nothing of the search. Offers: the fingerprint set (fpset.c, its compact
// layout fpcompact.c) and state fingerprints, the trace log (log.c), the
// frontier (queue.c), their files under --disk (disk.c), canonical forms
// under symmetry (symmetry.c), the liveness edge table (edges.c), a net's
// per-marking records (net.c). Requires: core/core.h; an edge table's owner
// says how much memory it may still take.
#ifndef MCRT_STORE_H
#define MCRT_STORE_H

#include "core/core.h"

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
  bool shared;             // threads probe at once: take the region locks (mcrt_fpset_share)
  bool sorted;             // the word layout, 64 bits, no ids, one thread: kept in order (fpset.c)
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
// From now on threads insert at once (CAS, or the compact layout's region
// locks); the word layout is no longer kept in order.
void mcrt_fpset_share(McrtFpSet *set);
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

// ---------------------------------------------------------------------------
// net.c: what a place/transition net's checker (McrtModel.net) records per
// marking (its answers: netreport.c, output/output.h) (token maxima, deadlock, 1-safety,
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

#endif
