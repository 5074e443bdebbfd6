// SPDX-License-Identifier: MIT
// fpset.c: the fingerprint set, the checker's biggest structure.
//
// Two layouts: the word layout below, and for 64-bit fingerprints under
// --compact-set the compact one (fpcompact.c: remainders, rank-and-select bits;
// the id mode of liveness turns it back into words). The functions here
// serve both.
//
// Design. Open addressing with linear probing over one mmap'd array of slots
// (8 bytes per slot, 16 in 128-bit mode); 0 marks an empty slot, so a
// fingerprint of 0 is stored as 1. The home slot of a fingerprint is
// (fp.hi * capacity) >> 64: multiply-shift range reduction, any capacity,
// monotone in the fingerprint. Probing never wraps: an overflow area of
// MCRT_FP_OVERFLOW slots follows the last home slot, and a probe that runs
// off its end reports MCRT_FP_FULL (the caller grows and retries).
//
// Because homes are monotone, the table is ordered up to the displacement of
// linear probing, which makes growth a stream: allocate the new table
// (a larger capacity, fresh zero pages), walk the old table in slot order
// inserting each entry into the new one (whose writes then also advance in
// order), and give the old table's pages back to the kernel behind the walk.
// Peak memory during growth is about the new table alone, not old + new.
//
// Order. A table of 64-bit fingerprints without ids that one thread inserts
// into (not `shared`) is kept sorted (`sorted`): its nonzero slots increase
// from the first to the last, as an ordered hash table keeps them (Amble
// and Knuth, 1974). The migration writes a sorted table, and an insertion
// shifts the rest of the new fingerprint's cluster by one slot to keep it
// so. A probe then stops at the first slot that holds a larger fingerprint:
// a fingerprint not in the set is found absent after about as many slots as
// one in it is found (at a load of 0.85 linear probing reads about 23 slots
// for an absent one, 4 for one present), and the next migration needs no
// sorting: it streams the table in order (on BEEM's at.3 the sorting was
// 40% of the growths' instructions, the growths 17% of the search's). A
// zero slot past the last (the sentinel) stops every probe without a
// bounds check.
//
// Concurrency: insertion claims an empty slot with a CAS, so threads may
// insert at once (the table is then not kept sorted: mcrt_fpset_share). In
// 128-bit mode the high word is claimed first and the low word published
// after it; a reader that finds a matching high word with a low word of 0
// waits for it. Growth is stop-the-world (the caller's job).
#include "store/store.h"

#include <errno.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#define MCRT_FP_OVERFLOW 4096 // slots past the last home slot
#define MCRT_FP_LOAD_NUM 17   // max load factor 17/20 = 0.85
#define MCRT_FP_LOAD_DEN 20
#define MCRT_HUGE_PAGE ((size_t)2 << 20)
#define MCRT_FP_HUGE_MIN ((size_t)8 << 20) // tables from 8 MiB use huge pages
#define MCRT_FP_SMALL_BYTES ((size_t)1 << 20)
// The old table is released behind the migration in steps of whole pages:
// 2 MiB for a table on huge pages, 256 KiB otherwise.
#define MCRT_FP_RELEASE_SMALL ((size_t)256 << 10)

static size_t page_size(void) {
  static size_t ps;
  if (!ps)
    ps = (size_t)sysconf(_SC_PAGESIZE);
  return ps;
}

static inline uint64_t home_slot(uint64_t hi, uint64_t capacity) {
  return (uint64_t)(((unsigned __int128)hi * capacity) >> 64); // as mcrt_fpset_home
}

// Maps `bytes` of zeroed memory for a table. Large tables are aligned to
// 2 MiB and offered to transparent huge pages: a random probe then costs one
// TLB entry per 2 MiB, and growth takes 512 times fewer page faults (which
// dominate growth on virtual machines). Huge pages make memory resident in
// 2 MiB steps, which during a growth (old and new table partly resident)
// costs a few MiB: a noticeable share of a table under MCRT_FP_HUGE_MIN, so
// those use ordinary pages. From 8 MiB (10^6 states) on, the time saved
// outweighs it: on MCC nets of 2 to 8 * 10^6 states, 10 times fewer page
// faults and 5 to 15% less CPU time, for 1 to 1.5 more bytes of peak RSS per
// state (docs/performance.md, Petri nets).
// A small table is faulted in at once (one call, not a fault a page) unless
// `lazy`: the parallel growth faults its pages in, shared among the threads
// (prefault).
static void *map_zeroed(size_t bytes, bool lazy) {
  if (bytes < 4 * MCRT_HUGE_PAGE)
    return mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (lazy ? 0 : MAP_POPULATE), -1, 0);
  if (bytes < MCRT_FP_HUGE_MIN)
    return mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1, 0);
  size_t span = bytes + MCRT_HUGE_PAGE;
  char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p == MAP_FAILED)
    return p;
  char *q = (char *)(((uintptr_t)p + MCRT_HUGE_PAGE - 1) & ~(uintptr_t)(MCRT_HUGE_PAGE - 1));
  if (q > p)
    munmap(p, (size_t)(q - p));
  if (p + span > q + bytes)
    munmap(q + bytes, (size_t)(p + span - (q + bytes)));
#ifdef MADV_HUGEPAGE
  madvise(q, bytes, MADV_HUGEPAGE);
#endif
  return q;
}

// The bytes mapped for a table of nslots slots of `words` words: the
// slots, the sentinel (a slot that stays zero), whole pages.
static size_t table_bytes(uint64_t nslots, unsigned words) {
  size_t bytes = (size_t)((nslots + 1) * words * sizeof(uint64_t));
  return (bytes + page_size() - 1) & ~(page_size() - 1);
}

// Maps a zeroed table (lazy: see map_zeroed); false on failure.
static bool map_table(McrtFpSet *t, unsigned words, uint64_t capacity, bool lazy) {
  uint64_t nslots = capacity + MCRT_FP_OVERFLOW;
  size_t bytes = table_bytes(nslots, words);
  void *p = map_zeroed(bytes, lazy);
  if (p == MAP_FAILED)
    return false;
  t->words = words;
  t->capacity = capacity;
  t->nslots = nslots;
  t->max_count = capacity / MCRT_FP_LOAD_DEN * MCRT_FP_LOAD_NUM +
                 capacity % MCRT_FP_LOAD_DEN * MCRT_FP_LOAD_NUM / MCRT_FP_LOAD_DEN;
  t->slots = p;
  t->map_bytes = bytes;
  t->ids = NULL;
  t->ids_bytes = 0;
  t->rem_bits = 0, t->divisor = 0, t->meta = NULL, t->meta_bytes = 0;
  t->locks = NULL, t->nregions = 0;
  t->sorted = words == 1; // empty
  return true;
}

// Maps the state-id array of a table (liveness: one id per slot, beside it).
static bool map_ids(McrtFpSet *t) {
  size_t bytes = (size_t)(t->nslots * sizeof(uint32_t));
  bytes = (bytes + page_size() - 1) & ~(page_size() - 1);
  void *p = map_zeroed(bytes, false);
  if (p == MAP_FAILED)
    return false;
  t->ids = p;
  t->ids_bytes = bytes;
  return true;
}

// 64-bit fingerprints keep the id in the slot itself (a second word: one
// cache miss finds both); 128-bit ones in an array beside the table.
bool mcrt_fpset_enable_ids(McrtFpSet *set) {
  if (set->ids || set->id_words)
    return true;
  if (set->words == 2)
    return map_ids(set);
  if (atomic_load_explicit(&set->count, memory_order_relaxed) != 0)
    return false;
  McrtFpSet t;
  if (!map_table(&t, 2, set->capacity, false))
    return false;
  munmap((void *)set->slots, set->map_bytes);
  mcrt_fpc_free(set);
  set->words = 2, set->nslots = t.nslots, set->slots = t.slots, set->map_bytes = t.map_bytes;
  set->max_count = t.max_count;
  set->id_words = true;
  set->sorted = false;
  return true;
}

bool mcrt_fpset_init(McrtFpSet *set, unsigned bits, uint64_t min_capacity) {
  memset(set, 0, sizeof *set);
  if (min_capacity < 1024)
    min_capacity = 1024;
  atomic_init(&set->count, 0);
  return map_table(set, bits == 128 ? 2 : 1, min_capacity, false);
}

bool mcrt_fpset_init_compact(McrtFpSet *set, uint64_t min_capacity) {
  memset(set, 0, sizeof *set);
  if (min_capacity < 1024)
    min_capacity = 1024;
  atomic_init(&set->count, 0);
  return mcrt_fpc_init(set, min_capacity);
}

void mcrt_fpset_free(McrtFpSet *set) {
  if (set->slots)
    munmap((void *)set->slots, set->map_bytes);
  if (set->ids)
    munmap(set->ids, set->ids_bytes);
  mcrt_fpc_free(set);
  set->ids = NULL;
  set->ids_bytes = 0;
  set->slots = NULL;
  set->map_bytes = 0;
}

// ---------------------------------------------------------------------------
// Insertion and lookup.

static McrtFpResult insert64(McrtFpSet *set, uint64_t fp, uint64_t *slot) {
  _Atomic uint64_t *s = set->slots;
  for (uint64_t i = home_slot(fp, set->capacity); i < set->nslots; i++) {
    uint64_t v = atomic_load_explicit(&s[i], memory_order_relaxed);
    *slot = i;
    if (v == fp)
      return MCRT_FP_OLD;
    if (v == 0) {
      if (atomic_compare_exchange_strong_explicit(&s[i], &v, fp, memory_order_relaxed,
                                                  memory_order_relaxed)) {
        return MCRT_FP_NEW;
      }
      if (v == fp) // another thread inserted it just now
        return MCRT_FP_OLD;
    }
  }
  return MCRT_FP_FULL;
}

// insert64 on a sorted table (one thread): the probe stops at the first
// slot whose fingerprint is not below fp (an empty slot's 0 - 1 is the
// largest), and a new fp goes there, the slots from there to the end of
// its cluster moved up by one.
static McrtFpResult insert_sorted64(McrtFpSet *set, uint64_t fp) {
  uint64_t *s = (uint64_t *)set->slots; // one thread: plain access
  uint64_t i = home_slot(fp, set->capacity);
  while (s[i] - 1 < fp - 1)
    i++;
  if (s[i] == fp)
    return MCRT_FP_OLD;
  uint64_t end = i;
  while (s[end] != 0)
    end++;
  if (end >= set->nslots) // the sentinel: the cluster runs off the table
    return MCRT_FP_FULL;
  memmove(s + i + 1, s + i, (end - i) * sizeof *s);
  s[i] = fp;
  return MCRT_FP_NEW;
}

static uint64_t await_lo(_Atomic uint64_t *lo) {
  uint64_t v;
  while ((v = atomic_load_explicit(lo, memory_order_acquire)) == 0)
    ;
  return v;
}

static McrtFpResult insert128(McrtFpSet *set, McrtFp fp, uint64_t *slot) {
  _Atomic uint64_t *s = set->slots;
  for (uint64_t i = home_slot(fp.hi, set->capacity); i < set->nslots; i++) {
    uint64_t v = atomic_load_explicit(&s[2 * i], memory_order_relaxed);
    *slot = i;
    if (v == 0) {
      if (atomic_compare_exchange_strong_explicit(&s[2 * i], &v, fp.hi, memory_order_relaxed,
                                                  memory_order_relaxed)) {
        atomic_store_explicit(&s[2 * i + 1], fp.lo, memory_order_release);
        return MCRT_FP_NEW;
      }
    }
    if (v == fp.hi && await_lo(&s[2 * i + 1]) == fp.lo)
      return MCRT_FP_OLD;
  }
  return MCRT_FP_FULL;
}

// Counts r if new: in *tally when given, else in the set's count.
static McrtFpResult counted(McrtFpSet *set, McrtFpResult r, uint64_t *tally) {
  if (r == MCRT_FP_NEW) {
    if (tally)
      ++*tally;
    else
      atomic_fetch_add_explicit(&set->count, 1, memory_order_relaxed);
  }
  return r;
}

McrtFpResult mcrt_fpset_insert_tally(McrtFpSet *set, McrtFp fp, uint64_t *tally) {
  if (set->sorted)
    return counted(set, insert_sorted64(set, fp.hi), tally);
  if (set->rem_bits)
    return counted(set, mcrt_fpc_probe(set, fp.hi, true), tally);
  uint64_t slot;
  return counted(set, set->words == 1 ? insert64(set, fp.hi, &slot) : insert128(set, fp, &slot),
                 tally);
}

McrtFpResult mcrt_fpset_insert(McrtFpSet *set, McrtFp fp) {
  return mcrt_fpset_insert_tally(set, fp, NULL);
}

void mcrt_fpset_add_count(McrtFpSet *set, uint64_t n) {
  atomic_fetch_add_explicit(&set->count, n, memory_order_relaxed);
}

// Id mode of 64-bit fingerprints: word 0 the fingerprint, word 1 the id.
static McrtFpResult insert_with_id(McrtFpSet *set, uint64_t fp, uint32_t id, uint32_t *old_id,
                                   uint64_t *slot) {
  _Atomic uint64_t *s = set->slots;
  for (uint64_t i = home_slot(fp, set->capacity); i < set->nslots; i++) {
    *slot = i;
    uint64_t v = atomic_load_explicit(&s[2 * i], memory_order_relaxed);
    if (v == 0 && atomic_compare_exchange_strong_explicit(&s[2 * i], &v, fp, memory_order_relaxed,
                                                          memory_order_relaxed)) {
      atomic_store_explicit(&s[2 * i + 1], id, memory_order_release);
      return MCRT_FP_NEW;
    }
    if (v == fp) {
      *old_id = (uint32_t)atomic_load_explicit(&s[2 * i + 1], memory_order_acquire);
      return MCRT_FP_OLD;
    }
  }
  return MCRT_FP_FULL;
}

McrtFpResult mcrt_fpset_insert_id_slot(McrtFpSet *set, McrtFp fp, uint32_t id, uint32_t *old_id,
                                       uint64_t *slot, uint64_t *tally) {
  if (set->id_words)
    return counted(set, insert_with_id(set, fp.hi, id, old_id, slot), tally);
  McrtFpResult r = set->words == 1 ? insert64(set, fp.hi, slot) : insert128(set, fp, slot);
  if (r == MCRT_FP_NEW)
    set->ids[*slot] = id;
  else if (r == MCRT_FP_OLD)
    *old_id = set->ids[*slot];
  return counted(set, r, tally);
}

McrtFpResult mcrt_fpset_insert_id(McrtFpSet *set, McrtFp fp, uint32_t id, uint32_t *old_id) {
  uint64_t slot = 0;
  return mcrt_fpset_insert_id_slot(set, fp, id, old_id, &slot, NULL);
}

void mcrt_fpset_put_id_at(McrtFpSet *set, uint64_t slot, uint32_t id) {
  if (set->id_words)
    atomic_store_explicit(&set->slots[2 * slot + 1], id, memory_order_relaxed);
  else
    set->ids[slot] = id;
}

uint32_t mcrt_fpset_id_at(const McrtFpSet *set, uint64_t slot) {
  if (set->id_words)
    return (uint32_t)atomic_load_explicit(&set->slots[2 * slot + 1], memory_order_relaxed);
  return set->ids[slot];
}

bool mcrt_fpset_find_id(const McrtFpSet *set, McrtFp fp, uint32_t *id) {
  _Atomic uint64_t *s = set->slots;
  unsigned w = set->words;
  for (uint64_t i = home_slot(fp.hi, set->capacity); i < set->nslots; i++) {
    uint64_t v = atomic_load_explicit(&s[w * i], memory_order_relaxed);
    if (v == 0)
      return false;
    if (set->id_words && v == fp.hi) {
      *id = (uint32_t)atomic_load_explicit(&s[2 * i + 1], memory_order_relaxed);
      return true;
    }
    if (v == fp.hi && (w == 1 || await_lo(&s[2 * i + 1]) == fp.lo)) {
      *id = set->ids[i];
      return true;
    }
  }
  return false;
}

void mcrt_fpset_put_id(McrtFpSet *set, McrtFp fp, uint32_t id) {
  _Atomic uint64_t *s = set->slots;
  unsigned w = set->words;
  for (uint64_t i = home_slot(fp.hi, set->capacity); i < set->nslots; i++) {
    uint64_t v = atomic_load_explicit(&s[w * i], memory_order_relaxed);
    if (v == 0)
      return;
    if (set->id_words && v == fp.hi) {
      atomic_store_explicit(&s[2 * i + 1], id, memory_order_relaxed);
      return;
    }
    if (!set->id_words && v == fp.hi && (w == 1 || await_lo(&s[2 * i + 1]) == fp.lo)) {
      set->ids[i] = id;
      return;
    }
  }
}

bool mcrt_fpset_contains(const McrtFpSet *set, McrtFp fp) {
  if (set->rem_bits) // takes the region locks
    return mcrt_fpc_probe((McrtFpSet *)set, fp.hi, false) == MCRT_FP_OLD;
  _Atomic uint64_t *s = set->slots;
  unsigned w = set->words;
  for (uint64_t i = home_slot(fp.hi, set->capacity); i < set->nslots; i++) {
    uint64_t v = atomic_load_explicit(&s[w * i], memory_order_relaxed);
    if (v == 0 || (set->sorted && v > fp.hi))
      return false;
    if (v == fp.hi && (w == 1 || set->id_words || await_lo(&s[2 * i + 1]) == fp.lo))
      return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Growth by streaming migration.

// Extends the overflow area of a table (mremap keeps the contents). Only
// growth needs this, and only with fingerprints far from uniform.
static bool extend_overflow(McrtFpSet *t) {
  uint64_t nslots = t->nslots + MCRT_FP_OVERFLOW;
  size_t bytes = table_bytes(nslots, t->words);
  void *p = mremap((void *)t->slots, t->map_bytes, bytes, MREMAP_MAYMOVE);
  if (p == MAP_FAILED)
    return false;
  t->slots = p;
  t->map_bytes = bytes;
  if (t->ids) {
    size_t ib = (size_t)(nslots * sizeof(uint32_t));
    ib = (ib + page_size() - 1) & ~(page_size() - 1);
    void *q = mremap(t->ids, t->ids_bytes, ib, MREMAP_MAYMOVE);
    if (q == MAP_FAILED)
      return false;
    t->ids = q;
    t->ids_bytes = ib;
  }
  t->nslots = nslots;
  return true;
}

// Memory per state is the product's key figure, so large tables grow in
// small steps: x1.125 keeps the load between 0.76 and 0.85 (9.4 to 10.6
// bytes per state at 8-byte slots). Growth streams, so its cost is a
// sequential pass; with steps of 1/8 every entry is moved about 9 times in
// all, cheap next to the random probe that inserted it. Small tables (under
// MCRT_FP_SMALL_BYTES) grow x4: their growth is mostly page faults and their
// memory is no concern; middle-sized ones x1.5.
static uint64_t grown_capacity(const McrtFpSet *set) {
  if (set->map_bytes < MCRT_FP_SMALL_BYTES)
    return set->capacity * 4;
  if (set->map_bytes < 4 * MCRT_FP_SMALL_BYTES)
    return set->capacity + set->capacity / 2;
  return set->capacity + set->capacity / 8;
}

size_t mcrt_fpset_grow_bytes(const McrtFpSet *set) {
  if (set->rem_bits)
    return mcrt_fpc_grow_bytes(set);
  uint64_t nslots = grown_capacity(set) + MCRT_FP_OVERFLOW;
  size_t bytes = table_bytes(nslots, set->words);
  if (set->ids)
    bytes += ((size_t)(nslots * sizeof(uint32_t)) + page_size() - 1) & ~(page_size() - 1);
  return bytes;
}

// One entry of the old table on its way into the new one.
typedef struct McrtFpMove {
  uint64_t hi, lo;
  uint32_t id;
} McrtFpMove;

// Clusters (runs of full slots) up to this long are sorted before they are
// written; a longer one (only with fingerprints far from uniform) is written
// entry by entry, each probing from its home.
#define MCRT_FP_SORT_MAX 512

// Sorts a cluster by fingerprint: insertion sort, as the entries are nearly
// in order already (each sits at most a few slots past its home).
static void sort_cluster(McrtFpMove *m, size_t n) {
  for (size_t i = 1; i < n; i++) {
    McrtFpMove x = m[i];
    size_t j = i;
    for (; j > 0 && m[j - 1].hi > x.hi; j--)
      m[j] = m[j - 1];
    m[j] = x;
  }
}

// Writes one entry into the new table at the first empty slot from
// max(its home, *from). Precondition: the slots from there back to its home
// are full (see mcrt_fpset_grow). *from becomes the slot after it.
static void place(McrtFpSet *t, const McrtFpMove *e, uint64_t *from) {
  unsigned w = t->words;
  uint64_t j = home_slot(e->hi, t->capacity);
  if (j < *from)
    j = *from;
  uint64_t *dst = (uint64_t *)t->slots;
  while (j < t->nslots && dst[w * j] != 0)
    j++;
  if (j == t->nslots) { // needs a run of 4096 full slots at the new, lower load
    if (!extend_overflow(t))
      mcrt_die("fingerprint set: cannot extend the overflow area while growing");
    dst = (uint64_t *)t->slots;
  }
  dst[w * j] = e->hi;
  if (w == 2)
    dst[2 * j + 1] = e->lo;
  if (t->ids)
    t->ids[j] = e->id;
  *from = j + 1;
}

// Writes one fingerprint into a table of 64-bit slots without ids, as
// place() does an entry.
static inline void place64(McrtFpSet *t, uint64_t hi, uint64_t *from) {
  uint64_t j = home_slot(hi, t->capacity);
  if (j < *from)
    j = *from;
  uint64_t *dst = (uint64_t *)t->slots;
  while (j < t->nslots && dst[j] != 0)
    j++;
  if (j == t->nslots) {
    if (!extend_overflow(t))
      mcrt_die("fingerprint set: cannot extend the overflow area while growing");
    dst = (uint64_t *)t->slots;
  }
  dst[j] = hi;
  *from = j + 1;
}

// Sorts a cluster of fingerprints (insertion sort: nearly in order).
static void sort_words(uint64_t *m, size_t n) {
  for (size_t i = 1; i < n; i++) {
    uint64_t x = m[i];
    size_t j = i;
    for (; j > 0 && m[j - 1] > x; j--)
      m[j] = m[j - 1];
    m[j] = x;
  }
}

// migrate64() for a sorted old table: its fingerprints come in order, so
// each goes to max(its home, the slot after the previous one), which is
// empty (place64 without its probe), with nothing to gather or sort.
static void migrate_sorted64(McrtFpSet *t, uint64_t *src, uint64_t nslots, size_t release_step) {
  uint64_t *dst = (uint64_t *)t->slots, capacity = t->capacity;
  uint64_t from = 0;                               // the slot after the last one written
  uint64_t step = release_step / sizeof(uint64_t); // a power of 2
  for (uint64_t i = 0; i < nslots; i++) {
    uint64_t hi = src[i];
    if (hi != 0) {
      uint64_t j = home_slot(hi, capacity);
      j = j < from ? from : j;
      if (j >= t->nslots) { // (j is at most nslots: one extension makes room)
        if (!extend_overflow(t))
          mcrt_die("fingerprint set: cannot extend the overflow area while growing");
        dst = (uint64_t *)t->slots;
      }
      dst[j] = hi;
      from = j + 1;
    }
    if (((i + 1) & (step - 1)) == 0) // a whole step walked: give its pages back
      madvise(src + i + 1 - step, release_step, MADV_DONTNEED);
  }
}

// migrate() for 64-bit slots without ids: the old table's nslots words are
// walked in steps of release_step bytes, each step given back once walked.
// False when a cluster was too long to sort (the new table is then not
// sorted).
static bool migrate64(McrtFpSet *t, uint64_t *src, uint64_t nslots, size_t release_step) {
  uint64_t cluster[MCRT_FP_SORT_MAX];
  size_t n = 0;          // entries of the current cluster in cluster[]
  bool long_run = false; // the current cluster outgrew cluster[]
  bool sorted = true;    // no cluster has outgrown cluster[]
  uint64_t from = 0;     // the slot after the last one written
  uint64_t step = release_step / sizeof(uint64_t);
  for (uint64_t a = 0; a < nslots; a += step) {
    uint64_t b = nslots - a > step ? a + step : nslots;
    for (uint64_t i = a; i < b; i++) {
      uint64_t hi = src[i];
      if (hi != 0) {
        if (n == MCRT_FP_SORT_MAX) { // write what was gathered as it comes
          for (size_t k = 0; k < n; k++) {
            uint64_t any = 0;
            place64(t, cluster[k], &any);
          }
          n = 0, long_run = true, sorted = false;
        }
        if (long_run) {
          uint64_t any = 0;
          place64(t, hi, &any);
          from = 0;
        } else {
          cluster[n++] = hi;
        }
      } else if (n > 0 || long_run) { // the end of a cluster
        sort_words(cluster, n);
        for (size_t k = 0; k < n; k++)
          place64(t, cluster[k], &from);
        n = 0, long_run = false;
      }
    }
    if (b - a == step) // a whole step walked: give its pages back
      madvise(src + a, release_step, MADV_DONTNEED);
  }
  sort_words(cluster, n); // the last cluster, if the table ends full
  for (size_t k = 0; k < n; k++)
    place64(t, cluster[k], &from);
  return sorted;
}

// The migration walks the old table cluster by cluster. A cluster's entries
// all have their homes inside it (probing never wraps, and the slot before
// it is empty), so clusters come in increasing fingerprint order, and sorting
// each one gives the entries in fingerprint order, hence in the order of
// their new homes. Written in that order, each entry goes to max(its new
// home, the slot after the previous one): no probing over the entries
// already written, which first-come order made quadratic in a cluster's
// length (a fifth of some searches' time). The new table comes out sorted.
// A cluster too long to sort is written entry by entry probing from each
// home (from = 0): that keeps the precondition of place() for the entries
// after it, since every slot from the largest home written so far up to the
// last slot written is then full.
//
// migrate() is that walk for any slot width, ids or not; migrate64() above
// the same for 64-bit slots without ids.
static void migrate(McrtFpSet *t, const McrtFpSet *old, size_t release_step) {
  unsigned w = old->words;
  uint64_t *src = (uint64_t *)old->slots;
  size_t slot_bytes = w * sizeof(uint64_t);
  size_t released = 0; // bytes of the old table already given back
  McrtFpMove cluster[MCRT_FP_SORT_MAX];
  size_t n = 0;       // entries of the current cluster in cluster[]
  bool long_run = false; // the current cluster outgrew cluster[]
  uint64_t from = 0;  // the slot after the last one written
  for (uint64_t i = 0; i <= old->nslots; i++) {
    uint64_t hi = i < old->nslots ? src[w * i] : 0;
    if (hi == 0) { // the end of a cluster
      sort_cluster(cluster, n);
      for (size_t k = 0; k < n; k++)
        place(t, &cluster[k], &from);
      n = 0, long_run = false;
    } else {
      McrtFpMove e = {hi, w == 2 ? src[2 * i + 1] : 0, old->ids ? old->ids[i] : 0};
      if (n == MCRT_FP_SORT_MAX) { // write what was gathered as it comes
        for (size_t k = 0; k < n; k++) {
          uint64_t any = 0;
          place(t, &cluster[k], &any);
        }
        n = 0, long_run = true;
      }
      if (long_run) {
        uint64_t any = 0;
        place(t, &e, &any);
        from = 0;
      } else {
        cluster[n++] = e;
      }
    }
    if (i == old->nslots)
      break;
    size_t done = (size_t)(i + 1) * slot_bytes;
    if (done - released >= release_step) {
      size_t upto = done & ~(release_step - 1); // whole (huge) pages
      madvise((char *)src + released, upto - released, MADV_DONTNEED);
      released = upto;
    }
  }
}

// Growth. The common case, 64-bit fingerprints without ids, has a loop of
// its own (migrate64) on plain words: the same walk and the same new table
// in less time per slot than the general loop, whose entries are structs
// copied through the stack (growth was 14% of some Petri net searches).
bool mcrt_fpset_grow(McrtFpSet *set) {
  if (set->rem_bits)
    return mcrt_fpc_grow(set);
  McrtFpSet old = *set, t = {0}; // every field not set here is the old one's or zero
  if (!map_table(&t, old.words, grown_capacity(&old), false))
    return false;
  t.id_words = old.id_words;
  t.shared = old.shared;
  if (old.ids && !map_ids(&t)) {
    munmap((void *)t.slots, t.map_bytes);
    return false;
  }
  unsigned w = old.words;
  uint64_t *src = (uint64_t *)old.slots; // single-threaded here: plain access
  size_t release_step = old.map_bytes >= MCRT_FP_HUGE_MIN ? MCRT_HUGE_PAGE : MCRT_FP_RELEASE_SMALL;
  if (old.sorted)
    migrate_sorted64(&t, src, old.nslots, release_step);
  else if (w == 1 && !old.ids)
    t.sorted = migrate64(&t, src, old.nslots, release_step) && !old.shared;
  else
    migrate(&t, &old, release_step);
  munmap(src, old.map_bytes);
  if (old.ids)
    munmap(old.ids, old.ids_bytes);
  atomic_init(&t.count, atomic_load_explicit(&old.count, memory_order_relaxed));
  t.grows = old.grows + 1;
  *set = t;
  return true;
}

// ---------------------------------------------------------------------------
// Saving and loading (checkpoint.c). The set is written as its fields, then
// the raw memory of its table and of its id array: nothing here depends on
// what a slot holds, so a new slot layout only has to keep this field list
// right (the compact layout has its own fields and bitmaps: mcrt_fpc_save).
// Both run with the search stopped (no concurrent insertion).

// The fields a set is saved with, fixed-width, in this order.
typedef struct McrtFpSetHeader {
  uint64_t words, capacity, nslots, max_count, count, map_bytes, grows, id_words, ids_bytes;
} McrtFpSetHeader;

bool mcrt_fpset_save(int fd, const McrtFpSet *set, XXH3_state_t *hash) {
  McrtFpSetHeader h = {
      .words = set->words, .capacity = set->capacity, .nslots = set->nslots,
      .max_count = set->max_count, .count = mcrt_fpset_count(set), .map_bytes = set->map_bytes,
      .grows = set->grows, .id_words = set->id_words, .ids_bytes = set->ids_bytes,
  };
  return mcrt_write_hashed(fd, &h, sizeof h, hash) &&
         mcrt_write_hashed(fd, (const void *)set->slots, set->map_bytes, hash) &&
         (!set->ids || mcrt_write_hashed(fd, set->ids, set->ids_bytes, hash));
}

bool mcrt_fpset_load(int fd, McrtFpSet *set, XXH3_state_t *hash) {
  McrtFpSetHeader h;
  memset(set, 0, sizeof *set);
  if (!mcrt_read_hashed(fd, &h, sizeof h, hash))
    return false;
  // (Sets saved before the sentinel slot lack it: loaded, a set is not
  // sorted, and the unsorted probes check the bounds.)
  size_t slot_bytes = (size_t)(h.nslots * h.words * sizeof(uint64_t));
  if ((h.words != 1 && h.words != 2) || h.capacity == 0 || h.nslots < h.capacity ||
      h.nslots > (SIZE_MAX >> 5) || h.map_bytes < slot_bytes || h.map_bytes % page_size() != 0 ||
      h.map_bytes - slot_bytes > page_size() || h.count > h.nslots ||
      (h.ids_bytes != 0 && h.ids_bytes < (size_t)(h.nslots * sizeof(uint32_t)))) {
    errno = EINVAL; // not a set this code wrote
    return false;
  }
  void *p = map_zeroed(h.map_bytes, false);
  if (p == MAP_FAILED)
    return false;
  set->slots = p;
  set->map_bytes = h.map_bytes;
  if (h.ids_bytes) {
    void *q = map_zeroed(h.ids_bytes, false);
    if (q == MAP_FAILED) {
      mcrt_fpset_free(set);
      return false;
    }
    set->ids = q;
    set->ids_bytes = h.ids_bytes;
  }
  set->words = (unsigned)h.words, set->capacity = h.capacity, set->nslots = h.nslots;
  set->max_count = h.max_count, set->grows = h.grows, set->id_words = h.id_words != 0;
  atomic_init(&set->count, h.count);
  if (!mcrt_read_hashed(fd, (void *)set->slots, set->map_bytes, hash) ||
      (set->ids && !mcrt_read_hashed(fd, set->ids, set->ids_bytes, hash))) {
    int e = errno;
    mcrt_fpset_free(set);
    errno = e;
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Growth by several threads (threads.c): the serial migration's loop, cut
// into parts of the old table. Parts insert into the new table at once, so
// a slot is claimed by a CAS on its first word; no fingerprint is in two
// parts, so a claimed slot is never one's own.

// What the old table is given back in: huge pages for a large table.
static size_t release_step(const McrtFpSet *old) {
  return old->map_bytes >= MCRT_FP_HUGE_MIN ? MCRT_HUGE_PAGE : MCRT_FP_RELEASE_SMALL;
}

// The units the new table is faulted in by (see prefault): its release
// steps, the last one partial.
static uint64_t new_units(const McrtFpGrow *g) {
  size_t unit = release_step(&g->t);
  return (g->t.map_bytes + unit - 1) / unit;
}

bool mcrt_fpset_grow_begin(McrtFpSet *set, McrtFpGrow *g) {
  g->old = *set;
  memset(&g->t, 0, sizeof g->t);
  size_t step = release_step(&g->old), bytes = g->old.nslots * g->old.words * sizeof(uint64_t);
  g->nsteps = (bytes + step - 1) / step;
  if (!(g->walked = calloc(g->nsteps, sizeof *g->walked)))
    return false;
  if (!map_table(&g->t, g->old.words, grown_capacity(&g->old), true)) {
    free(g->walked);
    return false;
  }
  if (!(g->ready = calloc(new_units(g), 1))) {
    munmap((void *)g->t.slots, g->t.map_bytes);
    free(g->walked);
    return false;
  }
  atomic_init(&g->faulted, 0);
  return true;
}

// Faults in unit c of the new table (see prefault).
static void fault_unit(McrtFpGrow *g, uint64_t c, size_t unit) {
  char *p = (char *)g->t.slots + c * unit;
  size_t len = g->t.map_bytes - c * unit;
  if (len > unit)
    len = unit;
#ifdef MADV_POPULATE_WRITE
  if (madvise(p, len, MADV_POPULATE_WRITE) != 0)
#endif
    for (size_t k = 0; k < len; k += page_size()) // a write that leaves the value
      atomic_fetch_add_explicit((_Atomic uint64_t *)(p + k), 0, memory_order_relaxed);
  atomic_store_explicit(&g->ready[c], 1, memory_order_release);
}

// Claims the next unit below `upto` and faults it in; false if none is left.
static bool claim_unit(McrtFpGrow *g, uint64_t upto, size_t unit) {
  uint64_t c = atomic_load_explicit(&g->faulted, memory_order_relaxed);
  while (c < upto)
    if (atomic_compare_exchange_weak_explicit(&g->faulted, &c, c + 1, memory_order_relaxed,
                                              memory_order_relaxed)) {
      fault_unit(g, c, unit);
      return true;
    }
  return false;
}

// A table of this many units or more may have one unit faulted in ahead of
// the parts (see prefault): a 16th of it at most in peak RSS.
#define MCRT_FP_AHEAD_MIN 16

// The new table is faulted in (its pages zeroed by the kernel) in units of
// its release step (a huge page, or 256 KiB on small pages), in order, each
// unit by the thread that claims it first: a part first faults in the units
// up to the one it ends in, then waits until those it writes (from the one
// before its first slot's) are in. The threads share the faults. Left to
// the writers, a page's fault stopped every thread that wrote into it (they
// write near each other: consecutive parts); a small table was faulted in
// at once by one thread while the others waited (MAP_POPULATE: 40% of such
// a growth at 2 threads); the partial huge page at a table's end was read
// before it was written, so each of its small pages took two faults, the
// second with a TLB shootdown of the other cores; and a part that wrote
// into a unit another thread was still faulting in read it first (the
// probe), which mapped the huge zero page: the unit was faulted twice, the
// second time a copy with a TLB shootdown (40% of the new table's zeroing at
// 2 threads on bakery.5, perf). A part that waits for a unit faults in the
// next one meanwhile, on a table of MCRT_FP_AHEAD_MIN units or more: the
// threads then zero two units at once where one thread's zeroing held up
// the other (bakery.5 at 2 threads: the growths' wall time 13% less,
// medians of six; the peak RSS the same). Faulting a unit ahead always
// (not only while waiting) raised every instance's peak RSS by the unit
// (2 MiB: peterson.4 +9%), for faster growths on some only (fischer.3).
static void prefault(McrtFpGrow *g, uint64_t a, uint64_t b) {
  size_t unit = release_step(&g->t);
  size_t slot_bytes = g->t.words * sizeof(uint64_t);
  uint64_t nunits = new_units(g);
  uint64_t last = (uint64_t)((unsigned __int128)b * g->t.capacity / g->old.capacity);
  uint64_t need = last * slot_bytes / unit + 1;
  if (need > nunits)
    need = nunits;
  uint64_t ahead = need + (nunits >= MCRT_FP_AHEAD_MIN && need < nunits);
  while (claim_unit(g, need, unit))
    ;
  uint64_t first = (uint64_t)((unsigned __int128)a * g->t.capacity / g->old.capacity);
  first = first * slot_bytes / unit;
  for (uint64_t u = first > 0 ? first - 1 : 0; u < need; u++)
    for (unsigned spins = 0; !atomic_load_explicit(&g->ready[u], memory_order_acquire); spins++) {
      if (claim_unit(g, ahead, unit))
        continue;
      if (spins < 4096) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else
        sched_yield(); // (the thread faulting it in was descheduled)
    }
}

// The parts are a 32nd of a release step: the threads take consecutive
// parts, so they walk the same step of the old table and write the same
// huge pages of the new one, and one waits for another (grow_ready) for a
// part at most (with eighths, bakery.5's growths took about 10% more wall
// time at 2 threads; the peak RSS is the same).
#define MCRT_FP_PARTS_PER_STEP 32

uint64_t mcrt_fpset_grow_block(const McrtFpGrow *g) {
  return release_step(&g->old) / (g->old.words * sizeof(uint64_t)) / MCRT_FP_PARTS_PER_STEP;
}

// An entry the part cannot write (past its limit, or off the table's end):
// end() inserts it.
static void stash_entry(McrtFpStash *stash, const uint64_t *e, unsigned w) {
  if (stash->n + w > stash->cap) {
    size_t cap = stash->cap ? 2 * stash->cap : 64;
    uint64_t *q = realloc(stash->fp, cap * sizeof *q);
    if (!q)
      mcrt_die("fingerprint set: no memory for the overflow while growing");
    stash->fp = q, stash->cap = cap;
  }
  for (unsigned k = 0; k < w; k++)
    stash->fp[stash->n++] = e[k];
}

// Writes a run of entries (w words each, sorted by fingerprint, all of one
// cluster of the old table) into the part's own slots of the new table, as
// place() does: each at the first empty slot from max(its home, the slot
// after the previous one), the first probing from its home. Slots from
// `limit` on are another part's: an entry that would go there is stashed.
static inline __attribute__((always_inline)) void
place_run(McrtFpGrow *g, unsigned w, const uint64_t *run, size_t n, uint64_t limit,
          McrtFpStash *stash) {
  _Atomic uint64_t *dst = g->t.slots;
  uint64_t from = 0;
  for (size_t k = 0; k < n; k++) {
    const uint64_t *e = run + (size_t)w * k;
    uint64_t j = home_slot(e[0], g->t.capacity);
    if (j < from)
      j = from;
    while (j < limit && atomic_load_explicit(&dst[w * j], memory_order_relaxed) != 0)
      j++;
    if (j >= limit) {
      stash_entry(stash, e, w);
      continue; // (from stays: the slots up to it are full still)
    }
    atomic_store_explicit(&dst[w * j], e[0], memory_order_relaxed);
    if (w == 2)
      atomic_store_explicit(&dst[2 * j + 1], e[1], memory_order_relaxed);
    from = j + 1;
  }
}

// Sorts n entries of 2 words by their first (insertion sort: nearly in order).
static void sort_pairs(uint64_t *m, size_t n) {
  for (size_t i = 1; i < n; i++) {
    uint64_t x0 = m[2 * i], x1 = m[2 * i + 1];
    size_t j = i;
    for (; j > 0 && m[2 * (j - 1)] > x0; j--)
      m[2 * j] = m[2 * (j - 1)], m[2 * j + 1] = m[2 * (j - 1) + 1];
    m[2 * j] = x0, m[2 * j + 1] = x1;
  }
}

// A part is the old table's slots [a, b): the serial migration's walk on
// them, each run of full slots (a cluster, or the piece of one that the
// part holds) sorted and written in order, without probing over what was
// written (mcrt_fpset_grow). The parts run at once, yet none touches a slot
// of another's: the entries of the parts after this one have new homes
// from `limit` on (their old homes are at least the first slot of the
// cluster that holds slot b, and homes are monotone in the fingerprint), so
// this part writes below it and stashes the few that would go past it
// (end() inserts those, probing from their homes). An earlier version
// claimed each slot with a CAS, unsorted: 1.5 times the serial migration's
// CPU time, a CAS a cache miss that nothing overlapped.
// A part may start once the step before its own is migrated: a thread
// that ran ahead of a slower (or descheduled) one wrote the new table on
// while the old steps the other held stayed resident (2 MiB above the serial
// migration's peak RSS at 2 threads on lamport.5 and at.3, a tenth of it).
bool mcrt_fpset_grow_ready(McrtFpGrow *g, uint64_t a) {
  uint64_t per_step = release_step(&g->old) / (g->old.words * sizeof(uint64_t)), s = a / per_step;
  return s == 0 || atomic_load_explicit(&g->walked[s - 1], memory_order_acquire) == per_step;
}

// (w is the slots' width in words, a constant in each of the two calls
// below: inlined there, the loop is compiled for each width. Left to
// itself, GCC kept one copy that tested w at every slot.)
static inline __attribute__((always_inline)) void
grow_part(McrtFpGrow *g, unsigned w, uint64_t a, uint64_t b, McrtFpStash *stash) {
  const uint64_t *src = (const uint64_t *)g->old.slots; // nobody writes the old table now
  size_t slot_bytes = w * sizeof(uint64_t);
  size_t step = release_step(&g->old);
  uint64_t limit = g->t.nslots;
  if (b < g->old.nslots) {
    uint64_t start = b; // the first slot of the cluster that holds slot b
    while (start > a && src[w * (start - 1)] != 0)
      start--;
    if (start == a && a > 0) // (the slot before a may be given back already)
      limit = 0; // a part full from end to end (never at the load factor): all stashed
    else { // the least fingerprint whose old home is `start`, and its new home
      unsigned __int128 f = (((unsigned __int128)start << 64) + g->old.capacity - 1) / g->old.capacity;
      limit = f >> 64 ? g->t.nslots : home_slot((uint64_t)f, g->t.capacity);
    }
  }
  prefault(g, a, b);
  uint64_t run[2 * MCRT_FP_SORT_MAX];
  size_t n = 0;
  for (uint64_t i = a; i <= b; i++) {
    uint64_t hi = i < b ? src[w * i] : 0;
    if (hi != 0) {
      if (n == MCRT_FP_SORT_MAX) { // a long run: written in pieces, each sorted
        if (w == 1)
          sort_words(run, n);
        else
          sort_pairs(run, n);
        place_run(g, w, run, n, limit, stash);
        n = 0;
      }
      run[w * n] = hi;
      if (w == 2)
        run[2 * n + 1] = src[2 * i + 1];
      n++;
    } else if (n > 0) { // the end of a run
      if (w == 1)
        sort_words(run, n);
      else
        sort_pairs(run, n);
      place_run(g, w, run, n, limit, stash);
      n = 0;
    }
  }
  // A step of the old table is given back by the part that completes it
  // (a whole step only: end() unmaps the rest).
  uint64_t per_step = step / slot_bytes;
  for (uint64_t s = a / per_step; s * per_step < b; s++) {
    uint64_t lo = s * per_step > a ? s * per_step : a, hi = (s + 1) * per_step < b ? (s + 1) * per_step : b;
    uint64_t walked = atomic_fetch_add_explicit(&g->walked[s], hi - lo, memory_order_acq_rel) + (hi - lo);
    if (walked == per_step)
      madvise((char *)src + s * step, step, MADV_DONTNEED);
  }
}

void mcrt_fpset_grow_part(McrtFpGrow *g, uint64_t a, uint64_t b, McrtFpStash *stash) {
  if (g->old.words == 1)
    grow_part(g, 1, a, b, stash);
  else
    grow_part(g, 2, a, b, stash);
}

void mcrt_fpset_grow_end(McrtFpSet *set, McrtFpGrow *g, McrtFpStash *stashes, uint32_t n) {
  McrtFpSet *t = &g->t;
  unsigned w = g->old.words;
  for (uint32_t p = 0; p < n; p++) {
    for (size_t k = 0; k < stashes[p].n; k += w) {
      uint64_t *dst = (uint64_t *)t->slots, hi = stashes[p].fp[k];
      uint64_t j = home_slot(hi, t->capacity);
      while (j < t->nslots && dst[w * j] != 0)
        j++;
      if (j == t->nslots) {
        if (!extend_overflow(t))
          mcrt_die("fingerprint set: cannot extend the overflow area while growing");
        dst = (uint64_t *)t->slots;
      }
      dst[w * j] = hi;
      if (w == 2)
        dst[2 * j + 1] = stashes[p].fp[k + 1];
    }
  }
  munmap((void *)g->old.slots, g->old.map_bytes);
  free(g->walked);
  free(g->ready);
  t->id_words = g->old.id_words;
  atomic_init(&t->count, atomic_load_explicit(&g->old.count, memory_order_relaxed));
  t->grows = g->old.grows + 1;
  t->shared = g->old.shared;
  t->sorted = false; // (the parts' long runs and the stashes are not written in order)
  *set = *t;
}

void mcrt_fpset_share(McrtFpSet *set) {
  set->shared = true;
  set->sorted = false;
}
