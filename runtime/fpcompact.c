// fpcompact.c: the compact layout of the fingerprint set (64-bit
// fingerprints without state ids), after Cleary's compact hashing.
//
// Quotienting. With D = ceil(2^64 / capacity) the home slot of a fingerprint
// is fp / D and the slot keeps only the remainder fp mod D: the home says the
// rest. A remainder takes r = bitlen(D - 1) bits, 64 - floor(log2(capacity)):
// 38 bits from 2^26 home slots on (10^8 states), 34 from 2^30 (10^9).
// Remainders are bit-packed (`rem_bits`: slot i is bits [i*r, (i+1)*r) of
// the slots array, little-endian), so a slot costs r + 3 bits, not whole
// bytes.
//
// Order. Homes are monotone in the fingerprint and the table is kept sorted:
// a run of occupied slots (a cluster) holds its fingerprints in increasing
// order, each at or after its home, the entries of one home (a group)
// contiguous; an insertion shifts the rest of its cluster one slot right.
// Three bitmaps say which slot holds what without storing homes:
//   occupied: the slot holds an entry;
//   V (Cleary's virgin bit, of the slot position): some entry has this home;
//   C (Cleary's change bit, of the entry): the entry is its group's first.
// The k-th V bit of a cluster, counted from its first slot, is the home of its
// k-th group, whose first entry carries the cluster's k-th C bit. The bitmaps
// are words (3 per 64 slots, 0.375 bytes per slot, in their own array), so
// finding a cluster's start, counting its homes and finding a group take a
// few word operations (popcount, count of leading zeros), not a walk over the
// slots. As in the word layout, probing never wraps: an overflow area follows
// the last home slot, and a cluster that would run off its end is
// MCRT_FP_FULL.
//
// Load. Sorted clusters let a probe skip to its group (the bitmaps), so the
// table runs fuller than the word layout: large tables grow at a load of 0.95
// by 1/10, so the load stays between 0.864 and 0.95 (see grown_capacity).
//
// Growth is a stream: the table is the sorted list of its fingerprints, so the
// migration decodes them in slot order and appends each to the new table at
// max(its new home, the slot after the previous one), releasing the old
// table's pages behind it.
//
// Concurrency: the slots are split into regions of MCRT_FPC_REGION slots
// (whole bitmap words, whole bytes of remainders), one spin lock each. An
// operation locks the regions its cluster spans, in increasing order (a scan
// that leaves them unlocks, widens the range and starts again), so threads
// insert at once and wait for each other only on the same or neighbouring
// regions; with several threads a remainder is read and written by its own
// bytes only, never a neighbouring region's. Growth is stop-the-world (the
// caller's job).
#include "internal.h"

#include <errno.h>
#include <sys/mman.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fpcompact.c stores remainders as little-endian bit strings"
#endif

#define MCRT_FPC_REGION 4096   // slots per lock (a multiple of 64)
#define MCRT_FPC_LOCK_STRIDE 64 // bytes per lock: one a cache line, no false sharing
#define MCRT_FPC_OVERFLOW 4096 // slots past the last home slot (a multiple of 64)
#ifndef MCRT_FPC_LOAD_NUM
#define MCRT_FPC_LOAD_NUM 19   // max load factor 19/20 = 0.95
#define MCRT_FPC_LOAD_DEN 20
#endif
#ifndef MCRT_FPC_GROW_STEP
#define MCRT_FPC_GROW_STEP 10 // large tables grow by 1/10
#endif
#define MCRT_FPC_MIN_CAPACITY 2 // remainders of at most 63 bits (shift_rems shifts by them)
#define MCRT_FPC_RELEASE ((size_t)2 << 20)

enum { OCC, V, C }; // the bitmaps of a block of 64 slots, in this order

// The result of a probe that must lock more regions and start again.
#define MCRT_FPC_RETRY ((McrtFpResult)-1)

// Bits at and above position b of a word (b < 64), and below it.
static inline uint64_t from_bit(unsigned b) { return ~(uint64_t)0 << b; }
static inline uint64_t below_bit(unsigned b) { return ((uint64_t)1 << b) - 1; }

// Slot i's remainder: bits [i*r, i*r + r) of the slots array read as
// little-endian 64-bit words, so a remainder lies in one word or two
// neighbours. A region of 4096 slots is 4096 * r bits, a multiple of 64:
// every word belongs to one region, and the words a probe reads and writes
// are those of the regions it has locked.
static inline uint64_t load_rem(const McrtFpSet *t, uint64_t i) {
  const uint64_t *w = (const uint64_t *)t->slots;
  uint64_t bit = i * t->rem_bits;
  unsigned shift = (unsigned)(bit & 63);
  uint64_t v = w[bit >> 6] >> shift;
  if (shift + t->rem_bits > 64)
    v |= w[(bit >> 6) + 1] << (64 - shift);
  return v & below_bit(t->rem_bits);
}

static inline void store_rem(McrtFpSet *t, uint64_t i, uint64_t rem) {
  uint64_t *w = (uint64_t *)t->slots;
  uint64_t bit = i * t->rem_bits, mask = below_bit(t->rem_bits);
  unsigned shift = (unsigned)(bit & 63);
  w[bit >> 6] = (w[bit >> 6] & ~(mask << shift)) | rem << shift;
  if (shift + t->rem_bits > 64) {
    uint64_t *u = &w[(bit >> 6) + 1];
    *u = (*u & ~(mask >> (64 - shift))) | rem >> (64 - shift);
  }
}

// store_rem into a slot of a new table, still zero: the bits are or'ed in.
static inline void append_rem(McrtFpSet *t, uint64_t i, uint64_t rem) {
  uint64_t *w = (uint64_t *)t->slots;
  uint64_t bit = i * t->rem_bits;
  unsigned shift = (unsigned)(bit & 63);
  w[bit >> 6] |= rem << shift;
  if (shift + t->rem_bits > 64)
    w[(bit >> 6) + 1] |= rem >> (64 - shift);
}

// Moves the remainders of slots [p, e) one slot up, into [p + 1, e]: the bits
// [p*r, e*r) r bits up, a destination word at a time from the top down (each
// word reads itself and the word below, which has not changed yet). Only the
// two end words are masked; the ones between are whole.
static void shift_rems(McrtFpSet *t, uint64_t p, uint64_t e) {
  uint64_t *w = (uint64_t *)t->slots;
  unsigned r = t->rem_bits;
  uint64_t lo = (p + 1) * r, hi = (e + 1) * r; // the destination bits [lo, hi)
  uint64_t kl = lo >> 6, kh = (hi - 1) >> 6;
  // The bottom word takes bits from the one below only if the source starts
  // there (else that word may be another region's, unlocked).
  uint64_t low_carry = lo - r < kl * 64 ? w[kl - 1] >> (64 - r) : 0;
  uint64_t top_mask = below_bit((unsigned)(hi - kh * 64 - 1)) << 1 | 1; // bits [kh*64, hi)
  uint64_t low_mask = from_bit((unsigned)(lo - kl * 64));
  if (kh == kl) {
    uint64_t mask = top_mask & low_mask, moved = w[kl] << r | low_carry;
    w[kl] = (w[kl] & ~mask) | (moved & mask);
    return;
  }
  uint64_t moved = w[kh] << r | w[kh - 1] >> (64 - r);
  w[kh] = (w[kh] & ~top_mask) | (moved & top_mask);
  for (uint64_t k = kh - 1; k > kl; k--)
    w[k] = w[k] << r | w[k - 1] >> (64 - r);
  moved = w[kl] << r | low_carry;
  w[kl] = (w[kl] & ~low_mask) | (moved & low_mask);
}

static inline uint64_t *word(const McrtFpSet *t, uint64_t i, int map) {
  return &t->meta[3 * (i >> 6) + map];
}

static inline bool get_bit(const McrtFpSet *t, uint64_t i, int map) {
  return *word(t, i, map) >> (i & 63) & 1;
}

static inline void set_bit(McrtFpSet *t, uint64_t i, int map) {
  *word(t, i, map) |= (uint64_t)1 << (i & 63);
}

static inline void clear_bit(McrtFpSet *t, uint64_t i, int map) {
  *word(t, i, map) &= ~((uint64_t)1 << (i & 63));
}

// The position of the k-th (from 1) set bit of x, which has at least k.
static inline unsigned select_bit(uint64_t x, unsigned k) {
  while (--k)
    x &= x - 1;
  return (unsigned)__builtin_ctzll(x);
}

// Set bits of x: without -mpopcnt, __builtin_popcountll is a call to a table
// lookup; this is a dozen inline instructions.
static inline unsigned popcount(uint64_t x) {
  x = x - (x >> 1 & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + (x >> 2 & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return (unsigned)(x * 0x0101010101010101u >> 56);
}

static unsigned bit_length(uint64_t x) { return x ? 64 - (unsigned)__builtin_clzll(x) : 0; }

// Bits per remainder for a capacity (at least MCRT_FPC_MIN_CAPACITY), and its
// divisor.
static unsigned rem_bits_for(uint64_t capacity, uint64_t *divisor) {
  uint64_t d = (uint64_t)((((unsigned __int128)1 << 64) + capacity - 1) / capacity);
  *divisor = d;
  unsigned b = bit_length(d - 1);
  return b ? b : 1;
}

static uint64_t slots_of(uint64_t capacity) {
  return (capacity + MCRT_FPC_OVERFLOW + 63) & ~(uint64_t)63;
}

static uint64_t regions_of(uint64_t nslots) {
  return (nslots + MCRT_FPC_REGION - 1) / MCRT_FPC_REGION;
}

static size_t paged(size_t bytes) {
  size_t ps = (size_t)sysconf(_SC_PAGESIZE);
  return (bytes + ps - 1) & ~(ps - 1);
}

// Zeroed memory for a table, offered to transparent huge pages when large
// (fpset.c's map_zeroed also aligns those to 2 MiB; fpset.c calls this file,
// never the other way).
static void *map_zeroed(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
#ifdef MADV_HUGEPAGE
  if (p != MAP_FAILED && bytes >= ((size_t)64 << 20))
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

// The remainders' array, whole words.
static size_t rem_bytes(uint64_t nslots, unsigned rem_bits) {
  return paged((size_t)((nslots * rem_bits + 63) / 64 * 8));
}

static size_t meta_bytes(uint64_t nslots) { return paged((size_t)(nslots / 64 * 3 * 8)); }

bool mcrt_fpc_init(McrtFpSet *set, uint64_t capacity) {
  if (capacity < MCRT_FPC_MIN_CAPACITY)
    capacity = MCRT_FPC_MIN_CAPACITY;
  uint64_t d;
  unsigned bits = rem_bits_for(capacity, &d);
  uint64_t nslots = slots_of(capacity);
  size_t bytes = rem_bytes(nslots, bits), mbytes = meta_bytes(nslots);
  void *p = map_zeroed(bytes);
  if (p == MAP_FAILED)
    return false;
  void *m = map_zeroed(mbytes);
  _Atomic uint8_t *locks = calloc(regions_of(nslots), MCRT_FPC_LOCK_STRIDE);
  if (m == MAP_FAILED || !locks) {
    munmap(p, bytes);
    if (m != MAP_FAILED)
      munmap(m, mbytes);
    free((void *)locks);
    return false;
  }
  set->words = 1;
  set->rem_bits = bits;
  set->divisor = d;
  set->reciprocal = UINT64_MAX / d;
  set->capacity = capacity;
  set->nslots = nslots;
  set->max_count = (uint64_t)((unsigned __int128)capacity * MCRT_FPC_LOAD_NUM / MCRT_FPC_LOAD_DEN);
  set->slots = p;
  set->map_bytes = bytes;
  set->meta = m;
  set->meta_bytes = mbytes;
  set->locks = locks;
  set->nregions = regions_of(nslots);
  return true;
}

void mcrt_fpc_free(McrtFpSet *set) {
  if (set->meta)
    munmap(set->meta, set->meta_bytes);
  free((void *)set->locks);
  set->meta = NULL;
  set->meta_bytes = 0;
  set->locks = NULL;
  set->nregions = 0;
  set->rem_bits = 0;
}

// ---------------------------------------------------------------------------
// Insertion and lookup.

static void lock_regions(McrtFpSet *t, uint64_t a, uint64_t b) {
  for (uint64_t r = a; r <= b; r++)
    while (atomic_exchange_explicit(&t->locks[r * MCRT_FPC_LOCK_STRIDE], 1, memory_order_acquire))
      while (atomic_load_explicit(&t->locks[r * MCRT_FPC_LOCK_STRIDE], memory_order_relaxed))
        ;
}

static void unlock_regions(McrtFpSet *t, uint64_t a, uint64_t b) {
  for (uint64_t r = a; r <= b; r++)
    atomic_store_explicit(&t->locks[r * MCRT_FPC_LOCK_STRIDE], 0, memory_order_release);
}

// The slots [lo, hi) of the locked regions; a scan that needs a slot outside
// widens the range (ra or rb) and says MCRT_FPC_RETRY, or MCRT_FP_FULL past
// the end of the table.
typedef struct Locked {
  uint64_t lo, hi;
  uint64_t *ra, *rb;
} Locked;

static McrtFpResult beyond(const McrtFpSet *t, const Locked *L, uint64_t i) {
  if (i < L->lo) {
    (*L->ra)--;
    return MCRT_FPC_RETRY;
  }
  if (L->hi == t->nslots)
    return MCRT_FP_FULL;
  (*L->rb)++;
  (void)i;
  return MCRT_FPC_RETRY;
}

// The first empty slot at or after i (into *at), a word at a time.
static McrtFpResult next_empty(const McrtFpSet *t, const Locked *L, uint64_t i, uint64_t *at) {
  uint64_t w = i >> 6;
  uint64_t z = ~*word(t, i, OCC) & from_bit(i & 63);
  while (!z) {
    w++;
    if (w * 64 >= L->hi)
      return beyond(t, L, w * 64);
    z = ~t->meta[3 * w + OCC];
  }
  *at = w * 64 + (uint64_t)__builtin_ctzll(z);
  return *at < L->hi ? MCRT_FP_NEW : beyond(t, L, *at);
}

// Shifts bit map of the slots [p, e) one slot up, into [p + 1, e]; bit p is 0
// after it. From the top word down, so each word reads its lower neighbour
// before that one changes.
static void shift_bits(McrtFpSet *t, int map, uint64_t p, uint64_t e) {
  for (uint64_t w = e >> 6;; w--) {
    uint64_t base = w * 64;
    unsigned lo = p > base ? (unsigned)(p - base) : 0;
    unsigned hi = (unsigned)(e - base < 63 ? e - base : 63); // inclusive
    uint64_t mask = from_bit(lo) & (hi == 63 ? ~(uint64_t)0 : below_bit(hi + 1));
    uint64_t x = t->meta[3 * w + map];
    uint64_t carry = base > p ? t->meta[3 * (w - 1) + map] >> 63 : 0;
    uint64_t moved = (x << 1 | carry) & mask;
    if (p >= base)
      moved &= ~((uint64_t)1 << (p - base));
    t->meta[3 * w + map] = (x & ~mask) | moved;
    if (base <= p)
      break;
  }
}

// Looks up the remainder `rem` at home h with the regions of L locked, and
// inserts it when `add`.
static McrtFpResult probe_locked(McrtFpSet *t, uint64_t h, uint64_t rem, bool add, const Locked *L) {
  if (!get_bit(t, h, OCC)) { // then no entry has home h either
    if (!add)
      return MCRT_FP_NEW;
    set_bit(t, h, OCC), set_bit(t, h, V), set_bit(t, h, C);
    store_rem(t, h, rem);
    atomic_fetch_add_explicit(&t->count, 1, memory_order_relaxed);
    return MCRT_FP_NEW;
  }
  bool has_group = get_bit(t, h, V);
  if (!has_group && !add)
    return MCRT_FP_NEW;
  // The cluster's first slot: after the last empty one below h.
  uint64_t w = h >> 6;
  uint64_t z = ~*word(t, h, OCC) & below_bit(h & 63);
  while (!z && w > 0) {
    w--;
    if (w * 64 < L->lo)
      return beyond(t, L, w * 64);
    z = ~t->meta[3 * w + OCC];
  }
  uint64_t start = z ? w * 64 + 63 - (uint64_t)__builtin_clzll(z) + 1 : 0;
  // The homes in use in [start, h].
  unsigned homes = 0;
  for (uint64_t v = start >> 6; v <= h >> 6; v++) {
    uint64_t x = t->meta[3 * v + V];
    if (v == start >> 6)
      x &= from_bit(start & 63);
    if (v == h >> 6)
      x &= (h & 63) == 63 ? ~(uint64_t)0 : below_bit((h & 63) + 1);
    homes += (unsigned)popcount(x);
  }
  // With a group, its first entry carries the cluster's homes-th C bit;
  // without, the new group goes before the next one (the (homes+1)-th C
  // bit) or at the end of the cluster.
  unsigned want = has_group ? homes : homes + 1;
  uint64_t g;
  for (uint64_t v = start >> 6;; v++) {
    if (v * 64 >= L->hi)
      return beyond(t, L, v * 64);
    uint64_t lowmask = v == start >> 6 ? from_bit(start & 63) : ~(uint64_t)0;
    uint64_t ends = ~t->meta[3 * v + OCC] & lowmask;
    uint64_t cs = t->meta[3 * v + C] & lowmask;
    if (ends)
      cs &= below_bit((unsigned)__builtin_ctzll(ends));
    unsigned n = (unsigned)popcount(cs);
    if (n >= want) {
      g = v * 64 + select_bit(cs, want);
      break;
    }
    want -= n;
    if (ends) { // the cluster ends first: only without a group
      g = v * 64 + (uint64_t)__builtin_ctzll(ends);
      break;
    }
  }
  if (g >= L->hi)
    return beyond(t, L, g);
  uint64_t p = g;
  if (has_group) { // its entries are sorted by remainder: find rem or its place
    for (;; p++) {
      if (p >= L->hi)
        return beyond(t, L, p);
      if (!get_bit(t, p, OCC) || (p > g && get_bit(t, p, C)))
        break;
      uint64_t r = load_rem(t, p);
      if (r == rem)
        return MCRT_FP_OLD;
      if (r > rem)
        break;
    }
    if (!add)
      return MCRT_FP_NEW;
  }
  uint64_t e;
  McrtFpResult res = next_empty(t, L, p, &e);
  if (res != MCRT_FP_NEW)
    return res;
  // Shift the entries of [p, e) one slot up (V bits stay: they are homes).
  if (e > p)
    shift_rems(t, p, e);
  if (e > p)
    shift_bits(t, C, p, e);
  set_bit(t, e, OCC);
  store_rem(t, p, rem);
  if (!has_group || p == g) {
    set_bit(t, p, C);
    if (has_group) // the former first entry of the group follows the new one
      clear_bit(t, p + 1, C);
  }
  set_bit(t, h, V);
  atomic_fetch_add_explicit(&t->count, 1, memory_order_relaxed);
  return MCRT_FP_NEW;
}

// MCRT_FP_OLD if fp is in the set; else MCRT_FP_NEW, having inserted it when
// `add`; MCRT_FP_FULL if its cluster would run off the overflow area.
McrtFpResult mcrt_fpc_probe(McrtFpSet *set, uint64_t fp, bool add) {
  uint64_t h = mcrt_fpc_home(set, fp);
  uint64_t rem = fp - h * set->divisor;
  uint64_t ra = h / MCRT_FPC_REGION, rb = ra;
  // The remainders near h are needed after the bitmaps say where: load both
  // at once (the entry is most often in h's cache line).
  __builtin_prefetch((const char *)set->slots + h * set->rem_bits / 8, 1);
  if (!set->shared) { // one thread: no locks (a locked instruction costs a third)
    Locked all = {0, set->nslots, &ra, &rb};
    return probe_locked(set, h, rem, add, &all);
  }
  for (;;) {
    uint64_t a = ra, b = rb;
    lock_regions(set, a, b);
    uint64_t hi = (b + 1) * MCRT_FPC_REGION;
    Locked L = {a * MCRT_FPC_REGION, hi < set->nslots ? hi : set->nslots, &ra, &rb};
    McrtFpResult r = probe_locked(set, h, rem, add, &L);
    unlock_regions(set, a, b);
    if (r != MCRT_FPC_RETRY)
      return r;
  }
}

// ---------------------------------------------------------------------------
// Growth by streaming migration.

// Large tables grow by 1/10 at a load of 0.95, keeping the load between
// 0.864 and 0.95. A slot costs r + 3 bits and 1/64 byte of lock: from 2^26
// to 2^27 home slots (6 * 10^7 to 1.2 * 10^8 states) 5.14 bytes, 5.4 to 5.95
// bytes per state; from 2^30 (10^9 states) 4.64, 4.9 to 5.4. Below 2^26 home
// slots the bottom of the range exceeds 6 (10^7 states: 5.8 to 6.4). A
// higher load saves memory but lengthens the clusters that insertions shift
// (at 0.95 about 200 slots from a home to the next empty one); smaller steps
// save memory but move each entry more often (about 11 times in all at 1/10,
// each a sequential decode and append). Small tables (under 1 MiB) grow x4
// and middle ones (under 4 MiB) x1.5, where page faults dominate and the
// memory is no concern.
static uint64_t grown_capacity(const McrtFpSet *set) {
  if (set->map_bytes < ((size_t)1 << 20))
    return set->capacity * 4;
  if (set->map_bytes < ((size_t)4 << 20))
    return set->capacity + set->capacity / 2;
  return set->capacity + set->capacity / MCRT_FPC_GROW_STEP;
}

size_t mcrt_fpc_grow_bytes(const McrtFpSet *set) {
  uint64_t cap = grown_capacity(set), d;
  unsigned bits = rem_bits_for(cap, &d);
  uint64_t nslots = slots_of(cap);
  return rem_bytes(nslots, bits) + meta_bytes(nslots) + regions_of(nslots) * MCRT_FPC_LOCK_STRIDE;
}

// Extends the overflow area of a table being filled by a migration.
static bool extend_overflow(McrtFpSet *t) {
  uint64_t nslots = t->nslots + MCRT_FPC_OVERFLOW;
  size_t bytes = rem_bytes(nslots, t->rem_bits), mbytes = meta_bytes(nslots);
  void *p = mremap((void *)t->slots, t->map_bytes, bytes, MREMAP_MAYMOVE);
  if (p == MAP_FAILED)
    return false;
  t->slots = p, t->map_bytes = bytes;
  void *m = mremap(t->meta, t->meta_bytes, mbytes, MREMAP_MAYMOVE);
  if (m == MAP_FAILED)
    return false;
  t->meta = m, t->meta_bytes = mbytes;
  _Atomic uint8_t *locks = realloc((void *)t->locks, regions_of(nslots) * MCRT_FPC_LOCK_STRIDE);
  if (!locks)
    return false;
  memset((void *)(locks + t->nregions * MCRT_FPC_LOCK_STRIDE), 0,
         (regions_of(nslots) - t->nregions) * MCRT_FPC_LOCK_STRIDE);
  t->locks = locks, t->nregions = regions_of(nslots);
  t->nslots = nslots;
  return true;
}

// Gives back the pages of [0, upto) bytes of a mapping not yet released.
static void release(void *base, size_t *released, size_t upto) {
  upto &= ~(MCRT_FPC_RELEASE - 1);
  if (upto > *released) {
    madvise((char *)base + *released, upto - *released, MADV_DONTNEED);
    *released = upto;
  }
}

bool mcrt_fpc_grow(McrtFpSet *set) {
  McrtFpSet old = *set, t = *set;
  if (!mcrt_fpc_init(&t, grown_capacity(&old)))
    return false;
  uint64_t next = 0, home = 0, last_home = UINT64_MAX;
  uint64_t vw = 0, vbits = old.meta[V]; // the V bits not yet matched to a group, from word vw
  size_t rem_released = 0, meta_released = 0;
  for (uint64_t w = 0; w < old.nslots / 64; w++) {
    uint64_t cs = old.meta[3 * w + C];
    for (uint64_t occ = old.meta[3 * w + OCC]; occ; occ &= occ - 1) {
      unsigned b = (unsigned)__builtin_ctzll(occ);
      uint64_t i = w * 64 + b;
      if (cs >> b & 1) { // the next home in use is this group's
        while (!vbits)
          vbits = old.meta[3 * ++vw + V];
        home = vw * 64 + (uint64_t)__builtin_ctzll(vbits);
        vbits &= vbits - 1;
      }
      uint64_t fp = home * old.divisor + load_rem(&old, i);
      // fp / D by the reciprocal and at most two corrections, without branches.
      uint64_t h = (uint64_t)(((unsigned __int128)fp * t.reciprocal) >> 64);
      uint64_t rem = fp - h * t.divisor;
      uint64_t over = rem >= t.divisor;
      h += over, rem -= t.divisor & -over;
      over = rem >= t.divisor;
      h += over, rem -= t.divisor & -over;
      uint64_t at = h > next ? h : next;
      while (at >= t.nslots) // a pile on the last homes, past the new overflow area
        if (!extend_overflow(&t))
          mcrt_die("fingerprint set: cannot extend the overflow area while growing");
      set_bit(&t, at, OCC), set_bit(&t, h, V);
      if (h != last_home)
        set_bit(&t, at, C);
      append_rem(&t, at, rem);
      last_home = h, next = at + 1;
    }
    // Give back the old table's pages below both the walk and its V scan.
    uint64_t done = vw < w ? vw * 64 : w * 64;
    release(old.slots, &rem_released, (size_t)(done * old.rem_bits / 8));
    release(old.meta, &meta_released, (size_t)(done / 64 * 3 * 8));
  }
  munmap((void *)old.slots, old.map_bytes);
  mcrt_fpc_free(&old);
  atomic_init(&t.count, atomic_load_explicit(&old.count, memory_order_relaxed));
  t.grows = old.grows + 1;
  *set = t;
  return true;
}

// ---------------------------------------------------------------------------
// Saving and loading (checkpoint.c), with the search stopped: the fields, then
// the raw remainders and bitmaps. The locks are not saved (all free then).

// The fields a compact set is saved with, fixed-width, in this order.
typedef struct McrtFpcHeader {
  uint64_t capacity, nslots, max_count, count, grows, rem_bits, divisor, map_bytes, meta_bytes;
} McrtFpcHeader;

bool mcrt_fpc_save(int fd, const McrtFpSet *set, XXH3_state_t *hash) {
  McrtFpcHeader h = {
      .capacity = set->capacity, .nslots = set->nslots, .max_count = set->max_count,
      .count = atomic_load_explicit(&set->count, memory_order_relaxed), .grows = set->grows,
      .rem_bits = set->rem_bits, .divisor = set->divisor, .map_bytes = set->map_bytes,
      .meta_bytes = set->meta_bytes,
  };
  return mcrt_write_hashed(fd, &h, sizeof h, hash) &&
         mcrt_write_hashed(fd, (const void *)set->slots, set->map_bytes, hash) &&
         mcrt_write_hashed(fd, set->meta, set->meta_bytes, hash);
}

bool mcrt_fpc_load(int fd, McrtFpSet *set, XXH3_state_t *hash) {
  McrtFpcHeader h;
  memset(set, 0, sizeof *set);
  if (!mcrt_read_hashed(fd, &h, sizeof h, hash))
    return false;
  // Every derived field as mcrt_fpc_init computes it, the sizes as this
  // code maps them (nslots may exceed the init's: a growth that extended
  // its overflow area).
  uint64_t d = 0;
  bool sane = h.capacity >= MCRT_FPC_MIN_CAPACITY && h.capacity <= ((uint64_t)1 << 40) &&
              h.rem_bits == rem_bits_for(h.capacity, &d) && h.divisor == d &&
              h.nslots >= slots_of(h.capacity) && h.nslots % 64 == 0 &&
              h.nslots - h.capacity <= ((uint64_t)1 << 32) &&
              h.max_count == (uint64_t)((unsigned __int128)h.capacity * MCRT_FPC_LOAD_NUM /
                                        MCRT_FPC_LOAD_DEN) &&
              h.count <= h.nslots && h.map_bytes == rem_bytes(h.nslots, (unsigned)h.rem_bits) &&
              h.meta_bytes == meta_bytes(h.nslots);
  if (!sane) {
    errno = EINVAL; // not a set this code wrote
    return false;
  }
  void *p = map_zeroed(h.map_bytes), *m = map_zeroed(h.meta_bytes);
  _Atomic uint8_t *locks = calloc(regions_of(h.nslots), MCRT_FPC_LOCK_STRIDE);
  if (p == MAP_FAILED || m == MAP_FAILED || !locks) {
    if (p != MAP_FAILED)
      munmap(p, h.map_bytes);
    if (m != MAP_FAILED)
      munmap(m, h.meta_bytes);
    free((void *)locks);
    errno = ENOMEM;
    return false;
  }
  set->words = 1;
  set->rem_bits = (unsigned)h.rem_bits;
  set->divisor = h.divisor;
  set->reciprocal = UINT64_MAX / h.divisor;
  set->capacity = h.capacity, set->nslots = h.nslots, set->max_count = h.max_count;
  set->grows = h.grows;
  set->slots = p, set->map_bytes = h.map_bytes;
  set->meta = m, set->meta_bytes = h.meta_bytes;
  set->locks = locks, set->nregions = regions_of(h.nslots);
  atomic_init(&set->count, h.count);
  if (!mcrt_read_hashed(fd, p, h.map_bytes, hash) || !mcrt_read_hashed(fd, m, h.meta_bytes, hash)) {
    int e = errno;
    munmap(p, h.map_bytes);
    set->slots = NULL, set->map_bytes = 0;
    mcrt_fpc_free(set);
    errno = e;
    return false;
  }
  return true;
}
