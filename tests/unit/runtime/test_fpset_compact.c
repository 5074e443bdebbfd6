// SPDX-License-Identifier: MIT
// Unit tests of the compact layout of the fingerprint set (runtime/store/fpcompact.c):
// 64-bit fingerprints kept as remainders with a V bit per home, an END bit per
// run and an offset per block, checked against a plain sorted array and
// against those bits and offsets recomputed from the runs.
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>

#include "output/output.h"

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static McrtFp fp64(uint64_t v) { return (McrtFp){v, 0}; }

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static bool in_sorted(const uint64_t *v, size_t n, uint64_t x) {
  return bsearch(&x, v, n, sizeof *v, cmp_u64) != NULL;
}

// Decodes the table as fpcompact.c lays it out (the k-th run in slot order
// belongs to the k-th home with its V bit, from max(home, the slot after the
// previous run) to the next END bit) and checks it: remainders increasing
// within a run, as many END bits as runs, the count, and every block's
// offset (the slots from its start held by runs of lower homes) recomputed
// from the runs.
static void check_layout(const McrtFpSet *s) {
  const uint64_t *meta = s->meta;
  const uint16_t *off = (const uint16_t *)(meta + s->nslots / 32);
  uint64_t next = 0, entries = 0, runs = 0, ends = 0, block = 1;
  for (uint64_t w = 0; w < s->nslots / 64; w++)
    ends += (uint64_t)__builtin_popcountll(meta[2 * w + 1]);
  for (uint64_t home = 0; home < s->nslots; home++) {
    if (!(meta[2 * (home / 64)] >> (home % 64) & 1))
      continue;
    // Blocks that start up to this home see only the runs before it.
    for (; block * 128 <= home && block < s->nslots / 128; block++)
      cr_assert_eq(off[block], next > block * 128 ? next - block * 128 : 0,
                   "block %llu", (unsigned long long)block);
    uint64_t i = home > next ? home : next, last = 0;
    for (bool first = true;; i++, first = false) {
      cr_assert_lt(i, s->nslots, "the run of home %llu runs off the table",
                   (unsigned long long)home);
      // The slots array is read as little-endian words, as fpcompact.c does.
      const uint64_t *slots = (const uint64_t *)s->slots;
      uint64_t bit = i * s->rem_bits, rem = slots[bit / 64] >> (bit % 64);
      if (bit % 64 + s->rem_bits > 64)
        rem |= slots[bit / 64 + 1] << (64 - bit % 64);
      rem &= ((uint64_t)1 << s->rem_bits) - 1;
      cr_assert(first || rem > last, "home %llu: remainders out of order",
                (unsigned long long)home);
      cr_assert_lt(rem, s->divisor);
      last = rem, entries++;
      if (meta[2 * (i / 64) + 1] >> (i % 64) & 1)
        break;
    }
    runs++, next = i + 1;
  }
  for (; block < s->nslots / 128; block++)
    cr_assert_eq(off[block], next > block * 128 ? next - block * 128 : 0);
  cr_assert_eq(off[0], 0);
  cr_assert_eq(ends, runs);
  cr_assert_eq(entries, mcrt_fpset_count(s));
}

// Inserts until the load factor says grow, then grows; retries on FULL.
static McrtFpResult insert_growing(McrtFpSet *s, uint64_t v) {
  McrtFpResult r;
  while ((r = mcrt_fpset_insert(s, fp64(v))) == MCRT_FP_FULL)
    cr_assert(mcrt_fpset_grow(s));
  if (mcrt_fpset_wants_grow(s))
    cr_assert(mcrt_fpset_grow(s));
  return r;
}

// mcrt_fpset_init_compact gives the compact layout, mcrt_fpset_init the word
// layout (64 or 128 bits), and the id mode turns a compact set into words; a
// large compact set costs what its layout says, at its lowest load.
Test(fpset_compact, layout_and_bytes_per_entry) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init_compact(&s, 1024));
  cr_assert_gt(s.rem_bits, 0);
  uint64_t x = 1;
  for (uint64_t i = 0; i < 2000000; i++)
    cr_assert_eq(insert_growing(&s, splitmix(&x)), MCRT_FP_NEW);
  // Remainders of 64 - floor(log2(capacity)) bits, bit-packed: at 2^21 home
  // slots 43 bits, plus 2.125 bits of bitmaps and offsets and 1/64 byte of
  // lock a slot; the load never falls under 0.95 / 1.1 = 0.8636 (growth by
  // 1/10 at 0.95 below 2^23 home slots): at most 6.55 bytes (the word
  // layout: 9.4 or more).
  cr_assert_eq(s.rem_bits, 64 - (63 - __builtin_clzll(s.capacity)));
  double per = (double)mcrt_fpset_bytes(&s) / (double)mcrt_fpset_count(&s);
  double bound = ((s.rem_bits + 2.125) / 8.0 + 1.0 / 64) / 0.8636 + 0.01;
  cr_assert_leq(per, bound, "%.2f bytes per entry, %u-bit remainders", per, s.rem_bits);
  cr_assert_geq((double)mcrt_fpset_count(&s) / (double)s.capacity, 0.8636);
  mcrt_fpset_free(&s);

  McrtFpSet w;
  cr_assert(mcrt_fpset_init(&w, 128, 1024));
  cr_assert_eq(w.rem_bits, 0);
  mcrt_fpset_free(&w);
  cr_assert(mcrt_fpset_init(&w, 64, 1024));
  cr_assert_eq(w.rem_bits, 0);
  mcrt_fpset_free(&w);

  McrtFpSet ids;
  cr_assert(mcrt_fpset_init_compact(&ids, 1024));
  cr_assert(mcrt_fpset_enable_ids(&ids));
  cr_assert_eq(ids.rem_bits, 0);
  uint32_t old = 0;
  cr_assert_eq(mcrt_fpset_insert_id(&ids, fp64(42), 7, &old), MCRT_FP_NEW);
  cr_assert_eq(mcrt_fpset_insert_id(&ids, fp64(42), 8, &old), MCRT_FP_OLD);
  cr_assert_eq(old, 7);
  mcrt_fpset_free(&ids);
}

// Fingerprints at the ends of the range and at the edges of one home's
// interval [k*D, (k+1)*D): the remainder 0 and D-1, both neighbours.
Test(fpset_compact, extremes_and_home_edges) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init_compact(&s, 4096));
  uint64_t d = s.divisor;
  uint64_t v[] = {0, 1, 2, d - 1, d, d + 1, 2 * d - 1, 5 * d, UINT64_MAX - 1, UINT64_MAX,
                  UINT64_MAX - d, (UINT64_MAX / d) * d, (UINT64_MAX / d) * d + 1};
  size_t n = sizeof v / sizeof v[0];
  for (size_t i = 0; i < n; i++)
    cr_assert_eq(mcrt_fpset_insert(&s, fp64(v[i])), MCRT_FP_NEW, "%zu", i);
  for (size_t i = 0; i < n; i++) {
    cr_assert_eq(mcrt_fpset_insert(&s, fp64(v[i])), MCRT_FP_OLD, "%zu", i);
    cr_assert(mcrt_fpset_contains(&s, fp64(v[i])));
  }
  cr_assert(!mcrt_fpset_contains(&s, fp64(3)));
  cr_assert(!mcrt_fpset_contains(&s, fp64(d + 2)));
  cr_assert(!mcrt_fpset_contains(&s, fp64(UINT64_MAX - 2)));
  cr_assert_eq(mcrt_fpset_count(&s), n);
  for (int g = 0; g < 3; g++) {
    cr_assert(mcrt_fpset_grow(&s));
    for (size_t i = 0; i < n; i++)
      cr_assert(mcrt_fpset_contains(&s, fp64(v[i])), "grow %d, %zu", g, i);
  }
  mcrt_fpset_free(&s);
}

// Consecutive fingerprints share a home (a group of many entries) and spill
// over the next homes' slots; inserted in descending order, each one goes to
// the front of its group, moving the change bit.
Test(fpset_compact, consecutive_share_a_home) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init_compact(&s, 1 << 16));
  uint64_t d = s.divisor, base = 1000 * d;
  for (uint64_t j = 300; j-- > 0;) // home 1000 (j < D), then homes 1001.. from the others
    cr_assert_eq(mcrt_fpset_insert(&s, fp64(base + j)), MCRT_FP_NEW);
  for (uint64_t k = 1; k <= 100; k++) // homes 1001..1100, displaced by the pile
    cr_assert_eq(mcrt_fpset_insert(&s, fp64(base + k * d + k)), MCRT_FP_NEW);
  cr_assert_eq(mcrt_fpset_insert(&s, fp64(base - 1)), MCRT_FP_NEW); // home 999, before the pile
  for (uint64_t j = 0; j < 300; j++)
    cr_assert_eq(mcrt_fpset_insert(&s, fp64(base + j)), MCRT_FP_OLD, "%llu", (unsigned long long)j);
  for (uint64_t k = 1; k <= 100; k++) {
    cr_assert(mcrt_fpset_contains(&s, fp64(base + k * d + k)));
    cr_assert(!mcrt_fpset_contains(&s, fp64(base + k * d + k + 1)));
    cr_assert(!mcrt_fpset_contains(&s, fp64(base + k * d)));
  }
  cr_assert(!mcrt_fpset_contains(&s, fp64(base + 300)));
  cr_assert(mcrt_fpset_contains(&s, fp64(base - 1)));
  cr_assert_eq(mcrt_fpset_count(&s), 401);
  check_layout(&s);
  cr_assert(mcrt_fpset_grow(&s));
  check_layout(&s);
  for (uint64_t j = 0; j < 300; j++)
    cr_assert(mcrt_fpset_contains(&s, fp64(base + j)));
  for (uint64_t k = 1; k <= 100; k++)
    cr_assert(mcrt_fpset_contains(&s, fp64(base + k * d + k)));
  mcrt_fpset_free(&s);
}

// Random fingerprints, the second half of them repeats of the first, against
// a sorted array: every answer of insert and contains, and the contents after
// growths through 7- and 6-byte remainders. `spread` homes-to-be (values
// spread*k + 0..3): few spreads crowd several entries onto one home.
static void against_reference(uint64_t n, uint64_t spread, uint64_t seed) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init_compact(&s, 1024));
  uint64_t *ref = calloc(2 * n, sizeof *ref), *all = calloc(2 * n, sizeof *all);
  cr_assert(ref && all);
  uint64_t x = seed, stored = 0, sorted = 0;
  for (uint64_t i = 0; i < 2 * n; i++)
    all[i] = i < n ? splitmix(&x) % spread * (UINT64_MAX / spread) + splitmix(&x) % 4
                   : all[splitmix(&x) % n];
  unsigned first_bits = s.rem_bits;
  for (uint64_t i = 0; i < 2 * n; i++) {
    if (i % 4096 == 0) {
      qsort(ref, stored, sizeof *ref, cmp_u64);
      sorted = stored;
    }
    bool known = in_sorted(ref, sorted, all[i]);
    for (uint64_t k = sorted; k < stored && !known; k++)
      known = ref[k] == all[i];
    McrtFpResult r = insert_growing(&s, all[i]);
    cr_assert_eq(r, known ? MCRT_FP_OLD : MCRT_FP_NEW, "fingerprint %llx, known %d",
                 (unsigned long long)all[i], known);
    if (r == MCRT_FP_NEW)
      ref[stored++] = all[i];
  }
  qsort(ref, stored, sizeof *ref, cmp_u64);
  cr_assert_eq(mcrt_fpset_count(&s), stored);
  check_layout(&s);
  for (uint64_t k = 0; k < stored; k++)
    cr_assert(mcrt_fpset_contains(&s, fp64(ref[k])));
  for (uint64_t k = 0; k < n; k++) { // neighbours: present exactly when stored
    uint64_t y = all[k] + 1 + k % 5;
    cr_assert_eq(mcrt_fpset_contains(&s, fp64(y)), in_sorted(ref, stored, y));
  }
  cr_assert(mcrt_fpset_grow(&s)); // contents equal after a growth
  cr_assert_eq(mcrt_fpset_count(&s), stored);
  check_layout(&s);
  for (uint64_t k = 0; k < stored; k++)
    cr_assert(mcrt_fpset_contains(&s, fp64(ref[k])));
  cr_assert_lt(s.rem_bits, first_bits, "the remainder width never changed");
  free(ref);
  free(all);
  mcrt_fpset_free(&s);
}

Test(fpset_compact, reference_crowded) { against_reference(400000, 100000, 1); }
Test(fpset_compact, reference_uniform) { against_reference(400000, UINT64_MAX, 2); }

// A pile on the last home fills the overflow area: FULL, and after a growth
// (which spreads the pile over 16 homes) the same fingerprint goes in and
// every earlier one is still there.
Test(fpset_compact, full_then_grow) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init_compact(&s, 1024));
  uint64_t i = 0;
  McrtFpResult r;
  while ((r = mcrt_fpset_insert(&s, fp64(UINT64_MAX - (i << 44)))) == MCRT_FP_NEW)
    i++;
  cr_assert_eq(r, MCRT_FP_FULL);
  cr_assert_geq(i, s.nslots - s.capacity); // at least the overflow area is full
  cr_assert_eq(mcrt_fpset_count(&s), i);
  cr_assert(!mcrt_fpset_contains(&s, fp64(UINT64_MAX - (i << 44))));
  check_layout(&s);
  cr_assert(mcrt_fpset_grow(&s));
  check_layout(&s);
  cr_assert_eq(mcrt_fpset_insert(&s, fp64(UINT64_MAX - (i << 44))), MCRT_FP_NEW);
  for (uint64_t k = 0; k <= i; k++)
    cr_assert(mcrt_fpset_contains(&s, fp64(UINT64_MAX - (k << 44))));
  mcrt_fpset_free(&s);
}

// A cluster whose runs of homes below a block's start would hold more than
// 65535 slots from it (the block's 16-bit offset) is FULL, like one that runs
// off the overflow area: 600 entries on each of the homes 0..127, appended
// in order, fill slots 0.. with block 1 (slot 128) spilled into; the insertion
// that would make its offset 65536 is refused and changes nothing.
Test(fpset_compact, offset_limit_full) {
  McrtFpSet s;
  memset(&s, 0, sizeof s);
  cr_assert(mcrt_fpc_init(&s, (uint64_t)1 << 20));
  uint64_t d = s.divisor, n = 0;
  McrtFpResult r = MCRT_FP_NEW;
  for (uint64_t h = 0; h < 128 && r == MCRT_FP_NEW; h++)
    for (uint64_t j = 0; j < 600 && r == MCRT_FP_NEW; j++)
      if ((r = mcrt_fpset_insert(&s, fp64(h * d + j + 1))) == MCRT_FP_NEW)
        n++;
  cr_assert_eq(r, MCRT_FP_FULL);
  cr_assert_eq(n, 65535 + 128, "%llu entries before FULL", (unsigned long long)n);
  cr_assert_eq(mcrt_fpset_count(&s), n);
  check_layout(&s);
  for (uint64_t k = 0; k < n; k++)
    cr_assert(mcrt_fpset_contains(&s, fp64(k / 600 * d + k % 600 + 1)));
  cr_assert(!mcrt_fpset_contains(&s, fp64(n / 600 * d + n % 600 + 1)));
  mcrt_fpset_free(&s);
}

// Threads insert the same n fingerprints at once (the region locks), thread
// `index` taking them in the order order(k, index, n) gives (a permutation
// of 0..n-1 for each): each must have exactly one NEW among all of them, and
// the set must count n.
#define RACE_MAX_THREADS 8
typedef uint64_t RaceOrder(uint64_t k, unsigned index, uint64_t n);
typedef struct Racer {
  McrtFpSet *set;
  const uint64_t *fps;
  uint64_t n;
  RaceOrder *order;
  _Atomic uint32_t *wins;
  unsigned index;
} Racer;

// Each thread in its own order: a stride of 7919, prime to the n used here.
static uint64_t stride_order(uint64_t k, unsigned index, uint64_t n) {
  return (k * 7919 + index * 104729) % n;
}

static void *race(void *arg) {
  Racer *r = arg;
  for (uint64_t k = 0; k < r->n; k++) {
    uint64_t i = r->order(k, r->index, r->n);
    McrtFpResult res = mcrt_fpset_insert(r->set, fp64(r->fps[i]));
    if (res == MCRT_FP_NEW)
      atomic_fetch_add(&r->wins[i], 1);
    else if (res != MCRT_FP_OLD)
      return (void *)1;
  }
  return NULL;
}

static void race_all(McrtFpSet *s, const uint64_t *fps, uint64_t n, unsigned threads,
                     RaceOrder *order) {
  cr_assert(threads <= RACE_MAX_THREADS && (order != stride_order || n % 7919 != 0));
  _Atomic uint32_t *wins = calloc(n, sizeof *wins);
  cr_assert(wins);
  pthread_t t[RACE_MAX_THREADS];
  Racer r[RACE_MAX_THREADS];
  for (unsigned i = 0; i < threads; i++) {
    r[i] = (Racer){s, fps, n, order, wins, i};
    cr_assert_eq(pthread_create(&t[i], NULL, race, &r[i]), 0);
  }
  for (unsigned i = 0; i < threads; i++) {
    void *ret;
    pthread_join(t[i], &ret);
    cr_assert_null(ret, "a thread saw FULL");
  }
  for (uint64_t i = 0; i < n; i++)
    cr_assert_eq(atomic_load(&wins[i]), 1, "fingerprint %llu won %u times", (unsigned long long)i,
                 atomic_load(&wins[i]));
  cr_assert_eq(mcrt_fpset_count(s), n);
  free((void *)wins);
}

// Pairs of fingerprints on a home, 4 homes apart.
#define RACE_N 200000
Test(fpset_compact, threads_one_winner) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init_compact(&s, RACE_N * 2));
  mcrt_fpset_share(&s);
  uint64_t *fps = malloc(RACE_N * sizeof *fps);
  cr_assert(fps);
  for (uint64_t i = 0; i < RACE_N; i++)
    fps[i] = i / 2 * (UINT64_MAX / RACE_N * 2) + i % 2;
  race_all(&s, fps, RACE_N, 4, stride_order);
  free(fps);
  mcrt_fpset_free(&s);
}

// Every remainder width from 57 bits (128 home slots) down to 40 (2^24), at
// powers of two and between them: the width is 64 - floor(log2(capacity)),
// and remainders 0, D-1 and one between, on neighbouring homes (so that they
// straddle the table's 64-bit words at every offset), are found after
// insertion, after shifts (three more entries on each home, inserted before
// them) and after a growth; their neighbours are not.
Test(fpset_compact, every_remainder_width) {
  uint64_t caps[] = {128, 129, 1000, 4096, 5000, 65536, 100003, (uint64_t)1 << 20,
                     ((uint64_t)1 << 22) + 12345, (uint64_t)1 << 24};
  for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
    McrtFpSet s; // mcrt_fpc_init itself: mcrt_fpset_init_compact starts at 1024
    memset(&s, 0, sizeof s);
    cr_assert(mcrt_fpc_init(&s, caps[c]));
    cr_assert_eq(s.capacity, caps[c]);
    unsigned floor_log2 = 63 - (unsigned)__builtin_clzll(caps[c]);
    cr_assert_eq(s.rem_bits, 64 - floor_log2, "capacity %llu: %u bits",
                 (unsigned long long)caps[c], s.rem_bits);
    uint64_t d = s.divisor, homes = caps[c] < 96 ? caps[c] : 96;
    uint64_t first = caps[c] - homes; // the last homes, up to UINT64_MAX
    uint64_t rems[3] = {d - 1, 0, d / 3};
    for (unsigned k = 0; k < 3; k++)
      for (uint64_t h = first; h < caps[c]; h++) {
        uint64_t v = h * d + rems[k];
        if (v / d != h) // past 2^64 - 1 on the last home
          continue;
        cr_assert_eq(mcrt_fpset_insert(&s, fp64(v)), MCRT_FP_NEW);
      }
    for (uint64_t h = first; h < caps[c]; h++) // before them in their groups: shifts
      for (uint64_t j = 1; j <= 3 && h * d + d / 3 >= j; j++)
        cr_assert_eq(mcrt_fpset_insert(&s, fp64(h * d + d / 3 - j)), MCRT_FP_NEW);
    for (int grown = 0; grown < 2; grown++) {
      for (uint64_t h = first; h < caps[c]; h++)
        for (unsigned k = 0; k < 3; k++) {
          uint64_t v = h * d + rems[k];
          if (v / d != h)
            continue;
          cr_assert(mcrt_fpset_contains(&s, fp64(v)), "capacity %llu, home %llu, rem %u",
                    (unsigned long long)caps[c], (unsigned long long)h, k);
          if (k == 2)
            cr_assert(!mcrt_fpset_contains(&s, fp64(v + 1)));
        }
      cr_assert(!mcrt_fpset_contains(&s, fp64(first * d + d / 3 - 4)));
      check_layout(&s);
      cr_assert(mcrt_fpset_grow(&s));
    }
    mcrt_fpset_free(&s);
  }
}

// Threads insert clusters that cross the edges of the lock regions (4096
// slots): entries of 12 homes on either side of each edge, 8 per home, so
// insertions shift remainders across the edge, in words shared by no other
// region. The threads go through the entries in nearly the same order, so
// they meet at the same edges; 10 rounds, each on a new set. Each
// fingerprint has exactly one NEW, and all are there at the end.
#define EDGE_REGIONS 32
#define EDGE_N (EDGE_REGIONS * 24 * 8)

// One entry per home in turn, the threads a few entries apart.
static uint64_t edge_order(uint64_t k, unsigned index, uint64_t n) {
  return (k * 8 + k / (n / 8) + index * 5) % n;
}

static void race_edges_round(void) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init_compact(&s, (uint64_t)4096 * (EDGE_REGIONS + 1)));
  mcrt_fpset_share(&s);
  static uint64_t fps[EDGE_N];
  uint64_t n = 0;
  for (uint64_t e = 1; e <= EDGE_REGIONS; e++)
    for (uint64_t h = 4096 * e - 12; h < 4096 * e + 12; h++)
      for (uint64_t j = 0; j < 8; j++)
        fps[n++] = h * s.divisor + j * (s.divisor / 9);
  cr_assert_eq(n, EDGE_N);
  race_all(&s, fps, EDGE_N, 4, edge_order);
  for (uint64_t i = 0; i < EDGE_N; i++) {
    cr_assert(mcrt_fpset_contains(&s, fp64(fps[i])));
    cr_assert(!mcrt_fpset_contains(&s, fp64(fps[i] + 1)));
  }
  check_layout(&s);
  mcrt_fpset_free(&s);
}

Test(fpset_compact, threads_across_region_edges) {
  for (int round = 0; round < 10; round++)
    race_edges_round();
}

// The growth of a large table, its count at the load that says grow: from
// 2^23 home slots on, the table it grows to costs at most 6 bytes per state
// at that count, by a step of 1/20 at least (room for more entries); below,
// by 1/10 (then at most 6.55 bytes per state). The tables are empty but
// for the count: only the sizes matter here.
Test(fpset_compact, growth_within_budget) {
  uint64_t caps[] = {(uint64_t)1 << 22, ((uint64_t)1 << 23) - 1000, (uint64_t)1 << 23, 10000000,
                     30000000, ((uint64_t)1 << 26) + 5, 100000000};
  for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
    McrtFpSet s;
    memset(&s, 0, sizeof s);
    cr_assert(mcrt_fpc_init(&s, caps[c]));
    uint64_t count = s.max_count;
    atomic_store(&s.count, count);
    size_t bytes = mcrt_fpset_grow_bytes(&s);
    cr_assert(mcrt_fpset_grow(&s));
    cr_assert_eq(mcrt_fpset_bytes(&s), bytes);
    cr_assert_eq(mcrt_fpset_count(&s), count);
    double per = (double)bytes / (double)count;
    cr_assert_geq(s.capacity, caps[c] + caps[c] / 20, "capacity %llu: grew to %llu",
                  (unsigned long long)caps[c], (unsigned long long)s.capacity);
    if (s.capacity >= (uint64_t)1 << 23)
      cr_assert_leq(per, 6.0, "capacity %llu: %.3f bytes per state", (unsigned long long)caps[c],
                    per);
    else
      cr_assert(s.capacity == caps[c] + caps[c] / 10 && per <= 6.55, "capacity %llu: %.3f",
                (unsigned long long)caps[c], per);
    mcrt_fpset_free(&s);
  }
}

// Many threads insert random fingerprints at once, each all of them in its
// own order, up to a load of 0.94 (long clusters across regions and
// blocks): each has exactly one NEW, all are there, the bits and offsets are
// right.
#define MANY_N 100000
Test(fpset_compact, many_threads_high_load) {
  McrtFpSet s;
  memset(&s, 0, sizeof s);
  cr_assert(mcrt_fpc_init(&s, MANY_N * 100 / 94));
  mcrt_fpset_share(&s);
  uint64_t *fps = malloc(MANY_N * sizeof *fps), x = 7;
  cr_assert(fps);
  for (uint64_t i = 0; i < MANY_N; i++)
    fps[i] = splitmix(&x); // distinct with overwhelming probability: checked below
  race_all(&s, fps, MANY_N, 8, stride_order);
  qsort(fps, MANY_N, sizeof *fps, cmp_u64);
  for (uint64_t i = 0; i < MANY_N; i++) {
    cr_assert(i == 0 || fps[i] != fps[i - 1]);
    cr_assert(mcrt_fpset_contains(&s, fp64(fps[i])));
  }
  check_layout(&s);
  cr_assert(mcrt_fpset_grow(&s));
  check_layout(&s);
  for (uint64_t i = 0; i < MANY_N; i++)
    cr_assert(mcrt_fpset_contains(&s, fp64(fps[i])));
  free(fps);
  mcrt_fpset_free(&s);
}

// The summary's collision line: n^2 / 2^(b+1), and the advice to use 128
// bits above 1e-3 (10^9 states of 64 bits: 10^18 / 2^65 = 0.0271).
static const char *collision_line(uint64_t states, unsigned bits) {
  static char buf[256];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mcrt_fprint_collision(f, states, bits);
  fclose(f);
  return buf;
}

Test(fpset_compact, collision_advice) {
  cr_assert_str_eq(collision_line(1000000000, 64),
                   "estimated collision probability 0.0271, above 1e-3: use "
                   "--fingerprint 128");
  cr_assert_str_eq(collision_line(1000000, 64), "estimated collision probability 2.71e-08");
  cr_assert_str_eq(collision_line(1000000000, 128), "estimated collision probability 1.47e-21");
  // 2^28 states: 2^56 / 2^65 = 2^-9 = 0.00195, just above the threshold
  cr_assert(strstr(collision_line((uint64_t)1 << 28, 64), "use --fingerprint 128"));
  cr_assert(!strstr(collision_line((uint64_t)1 << 27, 64), "use --fingerprint 128")); // 4.9e-4
}
