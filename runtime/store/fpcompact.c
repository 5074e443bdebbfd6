// SPDX-License-Identifier: MIT
// fpcompact.c: the compact layout of the fingerprint set (64-bit
// fingerprints without state ids): quotienting as in Cleary's compact
// hashing, with the metadata of a rank-and-select quotient filter.
//
// Quotienting. With D = ceil(2^64 / capacity) the home slot of a fingerprint
// is fp / D and the slot keeps only the remainder fp mod D: the home says the
// rest. A remainder takes r = bitlen(D - 1) bits, 64 - floor(log2(capacity)):
// 38 bits from 2^26 home slots on (10^8 states), 34 from 2^30 (10^9).
// Remainders are bit-packed (`rem_bits`: slot i is bits [i*r, (i+1)*r) of
// the slots array, little-endian), so a slot costs r bits, not whole bytes.
//
// Order. Homes are monotone in the fingerprint and the table is kept sorted:
// the entries of one home (its run) sit in increasing order in contiguous
// slots, at or after the home and after the runs of the homes below it; an
// insertion shifts the rest of its cluster (the occupied slots up to the next
// empty one) one slot right. Two bits a slot and one offset per block of 128
// slots say where every run is without storing homes:
//   V (the slot as a home): some entry has this home;
//   END (the slot as a place): it holds the last entry of a run;
//   offset (of a block starting at slot s): how many slots from s on hold
//   entries of homes below s (runs that spill into the block), 16 bits.
// The runs of the homes in [s, s + 128) are the ones whose END bits come at
// or after s + offset, in order. So the run of home h is found without a walk:
// k = the V bits of [s, h] (a popcount), its end the k-th END bit from
// s + offset (a select), its start the slot after the (k-1)-th or h, whichever
// is later. A slot i is empty when the runs of the homes up to i end before
// it, so the next empty slot is a few such jumps away. The bitmaps are words
// (2 per 64 slots) and the offsets follow them in the same array: 2.125 bits
// a slot. As in the word layout, probing never wraps: an overflow area
// follows the last home slot, and a cluster that would run off its end is
// MCRT_FP_FULL (as is an offset that would pass 65535: a cluster of more
// than 65535 slots, which hashed fingerprints at a load up to 0.95 do not
// come near, their clusters running some hundreds of slots; a growth that
// met one would stop the run with a message, see mcrt_fpc_grow).
//
// Load and growth. Sorted runs let a probe go straight to its run, so the
// table runs full: it grows at a load of 0.95, to the largest capacity that
// keeps it within MCRT_FPC_BUDGET bytes per state at the count it grows at
// (see grown_capacity).
//
// Growth is a stream: the table is the sorted list of its fingerprints, so the
// migration decodes them in slot order (the k-th run in slot order is the k-th
// home with its V bit) and appends each to the new table at max(its new home,
// the slot after the previous one), releasing the old table's pages behind
// it.
//
// Concurrency: the slots are split into regions of MCRT_FPC_REGION slots
// (whole blocks, whole bitmap words, whole bytes of remainders), one spin lock
// each. A probe of home h reads and writes only the slots from h's block on
// up to the next empty slot (the block's offset stands for everything
// below), so it locks the regions from h's up to that slot's, in increasing
// order (a scan that leaves them unlocks, widens the range and starts again);
// threads insert at once and wait for each other only on the same or
// neighbouring regions; with several threads a remainder is read and written
// by its own bytes only, never a neighbouring region's. Growth is
// stop-the-world (the caller's job).
#include "store/store.h"

#include <errno.h>
#include <sys/mman.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fpcompact.c stores remainders as little-endian bit strings"
#endif

#define MCRT_FPC_REGION 4096   // slots per lock (a multiple of the block)
#define MCRT_FPC_LOCK_STRIDE 64 // bytes per lock: one a cache line, no false sharing
#define MCRT_FPC_OVERFLOW 4096 // slots past the last home slot (a multiple of the block)
#define MCRT_FPC_BLOCK 128     // slots per offset
#define MCRT_FPC_LOAD_NUM 19   // max load factor 19/20 = 0.95
#define MCRT_FPC_LOAD_DEN 20
#define MCRT_FPC_BUDGET 6      // bytes per state a large table may cost when it grows
#define MCRT_FPC_GROW_STEP 20  // the least step of a large table's growth within the budget
#define MCRT_FPC_MIN_CAPACITY 2 // remainders of at most 63 bits (shift_rems shifts by them)
#define MCRT_FPC_RELEASE ((size_t)2 << 20)

enum { V, END }; // the bitmaps of 64 slots, in this order

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
  return &t->meta[2 * (i >> 6) + map];
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

// The blocks' offsets, after the bitmaps of the nslots slots.
static inline uint16_t *offsets(const McrtFpSet *t) {
  return (uint16_t *)(t->meta + t->nslots / 32);
}

#define BYTES_01 0x0101010101010101u
#define BYTES_80 0x8080808080808080u

// Set bits of each byte of x.
static inline uint64_t byte_counts(uint64_t x) {
  x = x - (x >> 1 & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + (x >> 2 & 0x3333333333333333u);
  return (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
}

// Set bits of x: without -mpopcnt, __builtin_popcountll is a call to a table
// lookup; this is a dozen inline instructions.
static inline unsigned popcount(uint64_t x) { return (unsigned)(byte_counts(x) * BYTES_01 >> 56); }

// The position of the k-th (from 1) set bit of x, which has at least k: the
// byte that holds it from the bytes' running counts (compared with k in each
// byte at once), then a few steps within that byte.
static inline unsigned select_bit(uint64_t x, unsigned k) {
  uint64_t sums = byte_counts(x) * BYTES_01; // byte j: the set bits of bytes 0..j
  // Bit 7 of a byte is set where its running count is at least k (the counts
  // and k are at most 64, so no byte borrows from the next).
  unsigned byte = 8 - popcount(((sums | BYTES_80) - k * BYTES_01) & BYTES_80);
  if (byte) {
    k -= (unsigned)(sums >> (8 * byte - 8) & 0xff);
    x >>= 8 * byte;
  }
  while (--k)
    x &= x - 1;
  return 8 * byte + (unsigned)__builtin_ctzll(x);
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
  return (capacity + MCRT_FPC_OVERFLOW + MCRT_FPC_BLOCK - 1) & ~(uint64_t)(MCRT_FPC_BLOCK - 1);
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

// The bitmaps (two words per 64 slots), then the offsets (two bytes a block).
static size_t meta_bytes(uint64_t nslots) {
  return paged((size_t)(nslots / 64 * 2 * 8 + nslots / MCRT_FPC_BLOCK * 2));
}

// What a table of this capacity maps, locks included.
static size_t table_bytes(uint64_t capacity) {
  uint64_t d, nslots = slots_of(capacity);
  unsigned bits = rem_bits_for(capacity, &d);
  return rem_bytes(nslots, bits) + meta_bytes(nslots) + regions_of(nslots) * MCRT_FPC_LOCK_STRIDE;
}

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

// The slots below `hi` are locked (from the home's region on); a scan that
// needs a slot at or past it widens the range (*rb) and says MCRT_FPC_RETRY,
// or MCRT_FP_FULL past the end of the table.
typedef struct Locked {
  uint64_t hi;
  uint64_t *rb;
} Locked;

static McrtFpResult beyond(const McrtFpSet *t, const Locked *L) {
  if (L->hi == t->nslots)
    return MCRT_FP_FULL;
  (*L->rb)++;
  return MCRT_FPC_RETRY;
}

// The V bits of [s, h], s the start of h's block.
static inline unsigned homes_through(const McrtFpSet *t, uint64_t h) {
  unsigned b = (unsigned)(h & 63);
  unsigned n = popcount(*word(t, h, V) & (b == 63 ? ~(uint64_t)0 : below_bit(b + 1)));
  if (h & 64) // the block's first word too
    n += popcount(*word(t, h - 64, V));
  return n;
}

// The k-th (from 1) END bit at or after slot x (into *at).
static McrtFpResult nth_end(const McrtFpSet *t, const Locked *L, uint64_t x, unsigned k,
                            uint64_t *at) {
  if (x >= L->hi)
    return beyond(t, L);
  uint64_t w = x >> 6, ends = *word(t, x, END) & from_bit(x & 63);
  for (unsigned n; (n = popcount(ends)) < k;) {
    k -= n;
    if (++w * 64 >= L->hi)
      return beyond(t, L);
    ends = t->meta[2 * w + END];
  }
  *at = w * 64 + select_bit(ends, k);
  return MCRT_FP_NEW;
}

// The slot after the runs of the homes in [s, h] (s = h's block start), or
// after the runs spilled into the block when there are none, into *f: all
// the slots from h to *f - 1 are occupied, and h is empty when *f <= h.
// `skip` runs of the last homes are left out (1: h's own).
static McrtFpResult runs_end(const McrtFpSet *t, const Locked *L, uint64_t h, unsigned skip,
                             uint64_t *f) {
  uint64_t first = (h & ~(uint64_t)(MCRT_FPC_BLOCK - 1)) + offsets(t)[h / MCRT_FPC_BLOCK];
  unsigned k = homes_through(t, h) - skip;
  if (!k) {
    *f = first;
    return MCRT_FP_NEW;
  }
  McrtFpResult r = nth_end(t, L, first, k, f);
  if (r == MCRT_FP_NEW)
    ++*f;
  return r;
}

// The END bits of [x, y), two slots of one block (x <= y).
static inline unsigned ends_between(const McrtFpSet *t, uint64_t x, uint64_t y) {
  uint64_t a = *word(t, x, END) & from_bit(x & 63);
  if (x >> 6 == y >> 6)
    return popcount(a & below_bit(y & 63));
  return popcount(a) + popcount(*word(t, y, END) & below_bit(y & 63));
}

// The first empty slot at or after p (into *at). Past the runs spilled into
// p's block, from its first own slot f: a slot i >= f is empty when as many
// runs of the block's homes up to i (V bits of [s, i]) have ended before it
// (END bits of [f, i)). That difference d is followed a word at a time (a
// word whose END bits are fewer than d has no empty slot), then a byte, then
// a slot at a time.
static McrtFpResult next_empty(const McrtFpSet *t, const Locked *L, uint64_t p, uint64_t *at) {
  uint64_t first;
  for (;;) {
    if (p >= L->hi)
      return beyond(t, L);
    first = (p & ~(uint64_t)(MCRT_FPC_BLOCK - 1)) + offsets(t)[p / MCRT_FPC_BLOCK];
    if (p >= first)
      break;
    p = first;
  }
  int64_t d = (int64_t)homes_through(t, p) - (int64_t)ends_between(t, first, p);
  uint64_t i = p; // d is slot i's
  while (d) {
    if (i + 1 >= L->hi)
      return beyond(t, L);
    // From slot i + 1 to the end of its word: V(j) and END(j - 1) at bit 0.
    uint64_t w = (i + 1) >> 6;
    unsigned b = (unsigned)((i + 1) & 63), n = 64 - b;
    uint64_t v = t->meta[2 * w + V] >> b, e = t->meta[2 * w + END] << 1 >> b;
    if (!b && w) // END of the slot before the word
      e |= t->meta[2 * w - 2 + END] >> 63;
    if (popcount(e) < d) {
      d += (int64_t)popcount(v) - (int64_t)popcount(e);
      i += n;
      continue;
    }
    while (n && d) {
      if (b % 8 == 0 && popcount(e & 0xff) < d) {
        d += (int64_t)popcount(v & 0xff) - (int64_t)popcount(e & 0xff);
        v >>= 8, e >>= 8, i += 8, b += 8, n -= 8;
        continue;
      }
      d += (int64_t)(v & 1) - (int64_t)(e & 1);
      v >>= 1, e >>= 1, i++, b++, n--;
    }
  }
  *at = i;
  return MCRT_FP_NEW;
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
    uint64_t x = t->meta[2 * w + map];
    uint64_t carry = base > p ? t->meta[2 * (w - 1) + map] >> 63 : 0;
    uint64_t moved = (x << 1 | carry) & mask;
    if (p >= base)
      moved &= ~((uint64_t)1 << (p - base));
    t->meta[2 * w + map] = (x & ~mask) | moved;
    if (base <= p)
      break;
  }
}

// Looks up the remainder `rem` at home h with the regions of L locked, and
// inserts it when `add`.
static McrtFpResult probe_locked(McrtFpSet *t, uint64_t h, uint64_t rem, bool add,
                                 const Locked *L) {
  bool has_run = get_bit(t, h, V);
  if (!has_run && !add)
    return MCRT_FP_NEW;
  // h's run starts (or goes) after the runs of the homes below it, at h at
  // the earliest.
  uint64_t p;
  McrtFpResult res = runs_end(t, L, h, has_run, &p);
  if (res != MCRT_FP_NEW)
    return res;
  if (p < h)
    p = h;
  bool new_end = !has_run; // the entry ends its run (then END moves to it)
  if (has_run) { // its entries are sorted by remainder: find rem or its place
    for (;; p++) {
      if (p >= L->hi)
        return beyond(t, L);
      uint64_t r = load_rem(t, p);
      if (r == rem)
        return MCRT_FP_OLD;
      if (r > rem)
        break;
      if (get_bit(t, p, END)) {
        new_end = true, p++;
        break;
      }
    }
    if (!add)
      return MCRT_FP_NEW;
  }
  uint64_t e;
  res = next_empty(t, L, p, &e);
  if (res != MCRT_FP_NEW)
    return res;
  // The blocks that start in (h, e] gain a slot of spilled runs.
  uint16_t *off = offsets(t);
  uint64_t b0 = h / MCRT_FPC_BLOCK + 1, b1 = e / MCRT_FPC_BLOCK;
  for (uint64_t b = b0; b <= b1; b++)
    if (off[b] == UINT16_MAX)
      return MCRT_FP_FULL;
  for (uint64_t b = b0; b <= b1; b++)
    off[b]++;
  // Shift the entries of [p, e) one slot up (V bits stay: they are homes).
  if (e > p) {
    shift_rems(t, p, e);
    shift_bits(t, END, p, e);
  }
  store_rem(t, p, rem);
  if (new_end) {
    if (has_run) // the run's former last entry, just before
      clear_bit(t, p - 1, END);
    set_bit(t, p, END);
  }
  set_bit(t, h, V);
  return MCRT_FP_NEW;
}

// MCRT_FP_OLD if fp is in the set; else MCRT_FP_NEW, having inserted it when
// `add` (the caller counts it); MCRT_FP_FULL if its cluster would run off the
// overflow area.
McrtFpResult mcrt_fpc_probe(McrtFpSet *set, uint64_t fp, bool add) {
  uint64_t h = mcrt_fpc_home(set, fp);
  uint64_t rem = fp - h * set->divisor;
  uint64_t ra = h / MCRT_FPC_REGION, rb = ra;
  // The remainders near h are needed after the block's offset and bitmaps
  // say where: load all three at once (the entry is most often in h's cache
  // line; the offsets are an array of their own).
  __builtin_prefetch((const char *)set->slots + h * set->rem_bits / 8, 1);
  __builtin_prefetch(&offsets(set)[h / MCRT_FPC_BLOCK], 1);
  __builtin_prefetch(word(set, h, V), 1);
  if (!set->shared) { // one thread: no locks (a locked instruction costs a third)
    Locked all = {set->nslots, &rb};
    return probe_locked(set, h, rem, add, &all);
  }
  for (;;) {
    uint64_t b = rb;
    lock_regions(set, ra, b);
    uint64_t hi = (b + 1) * MCRT_FPC_REGION;
    Locked L = {hi < set->nslots ? hi : set->nslots, &rb};
    McrtFpResult r = probe_locked(set, h, rem, add, &L);
    unlock_regions(set, ra, b);
    if (r != MCRT_FPC_RETRY)
      return r;
  }
}

// ---------------------------------------------------------------------------
// Growth by streaming migration.

// Small tables (under 1 MiB) grow x4 and middle ones (under 4 MiB) x1.5,
// where page faults dominate and the memory is no concern. A large table
// grows to the largest capacity whose table costs at most MCRT_FPC_BUDGET
// bytes per state at the count it has now (the most room, hence the shortest
// clusters, within the budget) when that is 1/20 more at least, else by 1/10.
// A slot costs r + 2.125 bits and 1/64 byte of lock. The budget gives a step
// of 1/20 or more from 2^23 home slots on (8.3 * 10^6 states, r = 41: 5.41
// bytes a slot, load 0.90 after a growth), so from 10^7 states on the set
// costs at most 6 bytes per state; the load after a growth is 0.84 from 2^26
// (6 * 10^7 states, r = 38) and 0.75 from 2^30 (10^9, r = 34). Below 2^23
// the step is 1/10 (load 0.864 to 0.95: up to 6.41 bytes per state at r = 42,
// 6.56 at r = 43), since a step small enough for 6 bytes would move each
// entry two or three times as often (each growth a sequential decode and
// append of the whole table).
static uint64_t grown_capacity(const McrtFpSet *set) {
  if (set->map_bytes < ((size_t)1 << 20))
    return set->capacity * 4;
  if (set->map_bytes < ((size_t)4 << 20))
    return set->capacity + set->capacity / 2;
  uint64_t least = set->capacity + set->capacity / MCRT_FPC_GROW_STEP, best = least;
  uint64_t budget = mcrt_fpset_count(set) * MCRT_FPC_BUDGET;
  // For each remainder width r (capacities [2^(64-r), 2^(65-r))), the
  // capacity its r + 2.25 bits a slot (lock included) fit in the budget,
  // then lowered until the table's exact size (overflow area, pages) fits.
  for (unsigned lg = 63 - (unsigned)__builtin_clzll(best); lg < 63; lg++) {
    uint64_t lo = (uint64_t)1 << lg, hi = (lo << 1) - 1;
    uint64_t c = (uint64_t)((unsigned __int128)budget * 32 / (4 * (64 - lg) + 9));
    if (c < lo) // and at every larger lg too: c grows by a few percent a step, lo doubles
      break;
    if (c > hi)
      c = hi;
    while (c > best && c >= lo && table_bytes(c) > budget)
      c -= c / 1024 + 1;
    if (c > best && c >= lo)
      best = c;
  }
  return best > least ? best : set->capacity + set->capacity / 10;
}

size_t mcrt_fpc_grow_bytes(const McrtFpSet *set) { return table_bytes(grown_capacity(set)); }

// Extends the overflow area of a table being filled by a migration: the
// offsets move up past the new slots' bitmaps.
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
  uint16_t *from = offsets(t);
  size_t n = t->nslots / MCRT_FPC_BLOCK, added = MCRT_FPC_OVERFLOW / MCRT_FPC_BLOCK;
  t->nslots = nslots;
  uint16_t *to = offsets(t);
  memmove(to, from, n * sizeof *to);
  memset(from, 0, (size_t)((char *)to - (char *)from)); // the new slots' bitmaps
  memset(to + n, 0, added * sizeof *to);
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
  uint64_t next = 0, last_home = UINT64_MAX, i = 0; // i: the old table's next slot
  size_t rem_released = 0, meta_released = 0;
  for (uint64_t w = 0; w < old.nslots / 64; w++) {
    for (uint64_t homes = old.meta[2 * w + V]; homes; homes &= homes - 1) {
      // The next run in slot order is this home's: from i (or the home) to
      // the next END bit.
      uint64_t home = w * 64 + (uint64_t)__builtin_ctzll(homes);
      if (i < home)
        i = home;
      for (bool end = false; !end; i++) {
        end = get_bit(&old, i, END);
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
        if (h != last_home) {
          if (last_home != UINT64_MAX)
            set_bit(&t, next - 1, END);
          set_bit(&t, h, V);
        }
        append_rem(&t, at, rem);
        // The blocks that start in (h, at] have runs of lower homes up to at.
        uint16_t *off = offsets(&t);
        for (uint64_t b = h / MCRT_FPC_BLOCK + 1; b <= at / MCRT_FPC_BLOCK; b++) {
          uint64_t spill = at + 1 - b * MCRT_FPC_BLOCK;
          if (spill > UINT16_MAX)
            mcrt_die("fingerprint set: a cluster of more than 65535 slots while growing");
          off[b] = (uint16_t)spill;
        }
        last_home = h, next = at + 1;
      }
    }
    // Give back the old table's pages below both the home scan and the runs.
    uint64_t done = i < w * 64 ? i : w * 64;
    release(old.slots, &rem_released, (size_t)(done * old.rem_bits / 8));
    release(old.meta, &meta_released, (size_t)(done / 64 * 2 * 8));
  }
  if (last_home != UINT64_MAX)
    set_bit(&t, next - 1, END);
  munmap((void *)old.slots, old.map_bytes);
  mcrt_fpc_free(&old);
  atomic_init(&t.count, atomic_load_explicit(&old.count, memory_order_relaxed));
  t.grows = old.grows + 1;
  *set = t;
  return true;
}

// ---------------------------------------------------------------------------
// Saving and loading (checkpoint.c), with the search stopped: the fields, then
// the raw remainders, bitmaps and offsets. The locks are not saved (all free then).

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
              h.nslots >= slots_of(h.capacity) && h.nslots % MCRT_FPC_BLOCK == 0 &&
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
