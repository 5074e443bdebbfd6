// SPDX-License-Identifier: MIT
// Unit tests of the fingerprint set (runtime/store/fpset.c).
#include <criterion/criterion.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>

#include "store/store.h"

static McrtFp fp_of(uint64_t i, unsigned bits) {
  return mcrt_fingerprint((const uint8_t *)&i, sizeof i, bits);
}

Test(fpset, insert_lookup_duplicates) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1000));
  for (uint64_t i = 0; i < 500; i++)
    cr_assert_eq(mcrt_fpset_insert(&s, fp_of(i, 64)), MCRT_FP_NEW);
  for (uint64_t i = 0; i < 500; i++)
    cr_assert_eq(mcrt_fpset_insert(&s, fp_of(i, 64)), MCRT_FP_OLD);
  for (uint64_t i = 0; i < 500; i++)
    cr_assert(mcrt_fpset_contains(&s, fp_of(i, 64)));
  for (uint64_t i = 500; i < 1000; i++)
    cr_assert(!mcrt_fpset_contains(&s, fp_of(i, 64)));
  cr_assert_eq(mcrt_fpset_count(&s), 500);
  cr_assert_gt(mcrt_fpset_bytes(&s), 0);
  mcrt_fpset_free(&s);
}

// Extreme fingerprints: 0 is stored as 1, and the top of the range lands in
// the overflow area.
Test(fpset, extreme_fingerprints) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1024));
  McrtFp zero = {0, 0}, one = {1, 0}, top = {UINT64_MAX, 0};
  zero.hi += zero.hi == 0; // what mcrt_fingerprint does
  cr_assert_eq(mcrt_fpset_insert(&s, zero), MCRT_FP_NEW);
  cr_assert_eq(mcrt_fpset_insert(&s, one), MCRT_FP_OLD);
  for (uint64_t i = 0; i < 100; i++) {
    McrtFp f = {UINT64_MAX - i, 0};
    cr_assert_eq(mcrt_fpset_insert(&s, f), MCRT_FP_NEW);
  }
  cr_assert_eq(mcrt_fpset_insert(&s, top), MCRT_FP_OLD);
  cr_assert(mcrt_fpset_grow(&s));
  cr_assert(mcrt_fpset_contains(&s, top));
  cr_assert(mcrt_fpset_contains(&s, one));
  cr_assert_eq(mcrt_fpset_count(&s), 101);
  mcrt_fpset_free(&s);
}

// Piling many fingerprints onto the last home slots runs off the overflow
// area: the set says FULL, and growing makes room.
Test(fpset, overflow_full_then_grow) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1024));
  uint64_t i = 0;
  McrtFpResult r;
  while ((r = mcrt_fpset_insert(&s, (McrtFp){UINT64_MAX - (i << 44), 0})) == MCRT_FP_NEW)
    i++;
  cr_assert_eq(r, MCRT_FP_FULL);
  cr_assert_geq(i, s.nslots - s.capacity);
  cr_assert(mcrt_fpset_grow(&s));
  cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){UINT64_MAX - (i << 44), 0}), MCRT_FP_NEW);
  for (uint64_t k = 0; k <= i; k++)
    cr_assert(mcrt_fpset_contains(&s, (McrtFp){UINT64_MAX - (k << 44), 0}));
  mcrt_fpset_free(&s);
}

// A table whose overflow area is exactly full (every entry piled onto the
// last home slot) survives growth.
Test(fpset, grow_full_overflow_pile) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1024));
  uint64_t i = 0;
  while (mcrt_fpset_insert(&s, (McrtFp){UINT64_MAX - i, 0}) == MCRT_FP_NEW)
    i++;
  cr_assert_eq(i, s.nslots - s.capacity + 1);
  cr_assert(mcrt_fpset_grow(&s));
  for (uint64_t k = 0; k < i; k++)
    cr_assert(mcrt_fpset_contains(&s, (McrtFp){UINT64_MAX - k, 0}));
  mcrt_fpset_free(&s);
}

static void growth_run(unsigned bits, uint64_t n) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, bits, 1024));
  for (uint64_t i = 0; i < n; i++) {
    McrtFp f = fp_of(i, bits);
    McrtFpResult r;
    while ((r = mcrt_fpset_insert(&s, f)) == MCRT_FP_FULL)
      cr_assert(mcrt_fpset_grow(&s));
    cr_assert_eq(r, MCRT_FP_NEW, "fingerprint %llu", (unsigned long long)i);
    if (mcrt_fpset_wants_grow(&s))
      cr_assert(mcrt_fpset_grow(&s));
  }
  cr_assert_eq(mcrt_fpset_count(&s), n);
  cr_assert_gt(s.grows, 5);
  for (uint64_t i = 0; i < n; i++)
    cr_assert_eq(mcrt_fpset_insert(&s, fp_of(i, bits)), MCRT_FP_OLD);
  for (uint64_t i = n; i < n + 10000; i++)
    cr_assert(!mcrt_fpset_contains(&s, fp_of(i, bits)));
  // Past 4 MiB the table grows in steps of 1/8 at a load of 0.85, so the
  // load stays between ~0.755 and 0.85 of the home slots.
  double load = (double)n / (double)s.capacity;
  cr_assert(load > 0.75 && load <= 0.85, "load %f", load);
  double bytes_per = (double)mcrt_fpset_bytes(&s) / (double)n;
  cr_assert_lt(bytes_per, bits == 64 ? 10.8 : 21.5, "%f bytes per entry", bytes_per);
  mcrt_fpset_free(&s);
}

Test(fpset, growth_millions_64) { growth_run(64, 3000000); }

// The migration of 64-bit slots (its own loop) with a cluster longer than
// the 512 it sorts (600 fingerprints piled onto one home) among spread
// ones: afterwards every entry sits at or after its home with only full
// slots between, the table is in fingerprint order away from the pile (its
// cluster, written entry by entry, is not sorted), and every fingerprint is
// found.
Test(fpset, grow64_long_cluster_layout) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1 << 16));
  uint64_t pile = UINT64_C(1) << 62; // a home a quarter of the way in
  for (uint64_t i = 0; i < 600; i++)
    cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){pile + 600 - i, 0}), MCRT_FP_NEW);
  for (uint64_t i = 0; i < 40000; i++)
    cr_assert_neq(mcrt_fpset_insert(&s, fp_of(i, 64)), MCRT_FP_FULL);
  uint64_t count = mcrt_fpset_count(&s);
  for (int g = 0; g < 3; g++)
    cr_assert(mcrt_fpset_grow(&s));
  cr_assert_eq(mcrt_fpset_count(&s), count);
  const uint64_t *t = (const uint64_t *)s.slots;
  uint64_t seen = 0, prev = 0;
  for (uint64_t j = 0; j < s.nslots; j++) {
    if (t[j] == 0)
      continue;
    seen++;
    uint64_t h = mcrt_fpset_home(&s, t[j]);
    cr_assert_leq(h, j);
    for (uint64_t k = h; k < j; k++)
      cr_assert_neq(t[k], 0, "empty slot %llu between a home and its entry", (unsigned long long)k);
    uint64_t margin = UINT64_C(1) << 56; // far more than a cluster's span
    if (t[j] < pile - margin || t[j] > pile + margin) {
      cr_assert_gt(t[j], prev, "slot %llu out of order", (unsigned long long)j);
      prev = t[j];
    }
  }
  cr_assert_eq(seen, count);
  for (uint64_t i = 0; i < 600; i++)
    cr_assert(mcrt_fpset_contains(&s, (McrtFp){pile + 600 - i, 0}));
  for (uint64_t i = 0; i < 40000; i++)
    cr_assert(mcrt_fpset_contains(&s, fp_of(i, 64)));
  mcrt_fpset_free(&s);
}
Test(fpset, growth_millions_128) { growth_run(128, 2000000); }

// In 128-bit mode two fingerprints with the same high word are distinct.
Test(fpset, same_hi_different_lo_128) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 128, 1024));
  McrtFp a = {12345, 1}, b = {12345, 2};
  cr_assert_eq(mcrt_fpset_insert(&s, a), MCRT_FP_NEW);
  cr_assert_eq(mcrt_fpset_insert(&s, b), MCRT_FP_NEW);
  cr_assert_eq(mcrt_fpset_insert(&s, a), MCRT_FP_OLD);
  cr_assert(!mcrt_fpset_contains(&s, (McrtFp){12345, 3}));
  cr_assert(mcrt_fpset_grow(&s));
  cr_assert(mcrt_fpset_contains(&s, b));
  cr_assert_eq(mcrt_fpset_count(&s), 2);
  mcrt_fpset_free(&s);
}

Test(fpset, fingerprint_never_zero) {
  uint8_t st[16] = {0};
  McrtFp f = mcrt_fingerprint(st, 3, 128);
  cr_assert_neq(f.hi, 0);
  cr_assert_neq(f.lo, 0);
  McrtFp g = mcrt_fingerprint(st, 3, 64);
  cr_assert_neq(g.hi, 0);
  cr_assert_eq(g.lo, 0);
}

// Liveness keeps a state id with each fingerprint (in the slot at 64 bits,
// beside the table at 128): ids survive growth, an old fingerprint gives
// back its id, find_id agrees, contains still works.
static void ids_run(unsigned bits, uint64_t n) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, bits, 1024));
  cr_assert(mcrt_fpset_enable_ids(&s));
  for (uint64_t i = 0; i < n; i++) {
    uint32_t id = 12345;
    McrtFpResult r;
    while ((r = mcrt_fpset_insert_id(&s, fp_of(i, bits), (uint32_t)i, &id)) == MCRT_FP_FULL)
      cr_assert(mcrt_fpset_grow(&s));
    cr_assert_eq(r, MCRT_FP_NEW);
    if (mcrt_fpset_wants_grow(&s))
      cr_assert(mcrt_fpset_grow(&s));
  }
  cr_assert_gt(s.grows, 3);
  for (uint64_t i = 0; i < n; i += 7) {
    uint32_t id = 0;
    cr_assert_eq(mcrt_fpset_insert_id(&s, fp_of(i, bits), 999, &id), MCRT_FP_OLD);
    cr_assert_eq(id, (uint32_t)i);
    id = 0;
    cr_assert(mcrt_fpset_find_id(&s, fp_of(i, bits), &id));
    cr_assert_eq(id, (uint32_t)i);
    cr_assert(mcrt_fpset_contains(&s, fp_of(i, bits)));
  }
  uint32_t id;
  cr_assert(!mcrt_fpset_find_id(&s, fp_of(n + 1, bits), &id));
  cr_assert(!mcrt_fpset_contains(&s, fp_of(n + 1, bits)));
  mcrt_fpset_free(&s);
}

Test(fpset, ids_64) { ids_run(64, 200000); }
Test(fpset, ids_128) { ids_run(128, 200000); }

// The threads' insertion (threads.c): a new fingerprint gets
// MCRT_ID_PENDING, a second insertion gives the pending id back with the
// same slot, and its id is set later by that slot or by the fingerprint;
// find_id and id_at then agree, and the id survives growth.
static void pending_run(unsigned bits) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, bits, 1024));
  cr_assert(mcrt_fpset_enable_ids(&s));
  uint64_t n = 500, slot[500];
  for (uint64_t i = 0; i < n; i++) {
    uint32_t old = 0;
    cr_assert_eq(mcrt_fpset_insert_id_slot(&s, fp_of(i, bits), MCRT_ID_PENDING, &old, &slot[i], NULL),
                 MCRT_FP_NEW);
    uint64_t again = UINT64_MAX;
    cr_assert_eq(mcrt_fpset_insert_id_slot(&s, fp_of(i, bits), 7, &old, &again, NULL), MCRT_FP_OLD);
    cr_assert_eq(old, MCRT_ID_PENDING);
    cr_assert_eq(again, slot[i]);
  }
  for (uint64_t i = 0; i < n; i++) {
    if (i % 2)
      mcrt_fpset_put_id_at(&s, slot[i], (uint32_t)(1000 + i));
    else
      mcrt_fpset_put_id(&s, fp_of(i, bits), (uint32_t)(1000 + i));
  }
  for (uint64_t i = 0; i < n; i++) {
    uint32_t id = 0;
    cr_assert(mcrt_fpset_find_id(&s, fp_of(i, bits), &id));
    cr_assert_eq(id, 1000 + i);
    cr_assert_eq(mcrt_fpset_id_at(&s, slot[i]), 1000 + i);
  }
  cr_assert(mcrt_fpset_grow(&s));
  for (uint64_t i = 0; i < n; i++) {
    uint32_t id = 0;
    cr_assert(mcrt_fpset_find_id(&s, fp_of(i, bits), &id));
    cr_assert_eq(id, 1000 + i);
  }
  mcrt_fpset_free(&s);
}

Test(fpset, pending_ids_64) { pending_run(64); }
Test(fpset, pending_ids_128) { pending_run(128); }

// Tallies (threads.c): a new fingerprint inserted with a tally is counted
// there and not in the set's count until mcrt_fpset_add_count; threads
// racing over overlapping fingerprints tally each one exactly once among
// them, in every layout and through every insertion function.
typedef struct TallyJob {
  McrtFpSet *set;
  unsigned bits;
  int kind; // 0 insert_tally, 1 insert_id_slot
  uint64_t first, n, tally;
} TallyJob;

static McrtFpResult tally_insert(McrtFpSet *set, int kind, McrtFp fp, uint64_t *tally) {
  if (kind == 0)
    return mcrt_fpset_insert_tally(set, fp, tally);
  uint32_t old;
  uint64_t slot;
  return mcrt_fpset_insert_id_slot(set, fp, MCRT_ID_PENDING, &old, &slot, tally);
}

static void *tally_job(void *arg) {
  TallyJob *j = arg;
  for (uint64_t i = j->first; i < j->first + j->n; i++)
    if (tally_insert(j->set, j->kind, fp_of(i, j->bits), &j->tally) == MCRT_FP_FULL)
      return NULL; // (the test sizes the set so that it never is)
  return j;
}

static void tally_run(unsigned bits, bool compact, int kind) {
  McrtFpSet s;
  uint64_t n = 200000; // each of 4 threads inserts [k n/2, k n/2 + n): 2.5 n distinct
  cr_assert(compact ? mcrt_fpset_init_compact(&s, 4 * n) : mcrt_fpset_init(&s, bits, 4 * n));
  if (kind == 1)
    cr_assert(mcrt_fpset_enable_ids(&s));
  mcrt_fpset_share(&s); // threads insert at once (the compact layout: its region locks)
  uint64_t t0 = 0;
  cr_assert_eq(tally_insert(&s, kind, fp_of(0, bits), &t0), MCRT_FP_NEW);
  cr_assert_eq(t0, 1);
  cr_assert_eq(mcrt_fpset_count(&s), 0);
  cr_assert_eq(tally_insert(&s, kind, fp_of(0, bits), &t0), MCRT_FP_OLD);
  cr_assert_eq(t0, 1);
  mcrt_fpset_add_count(&s, t0);
  cr_assert_eq(mcrt_fpset_count(&s), 1);
  TallyJob jobs[4];
  pthread_t th[4];
  for (int k = 0; k < 4; k++) {
    jobs[k] = (TallyJob){&s, bits, kind, (uint64_t)k * n / 2, n, 0};
    cr_assert_eq(pthread_create(&th[k], NULL, tally_job, &jobs[k]), 0);
  }
  uint64_t total = 0;
  for (int k = 0; k < 4; k++) {
    void *done;
    pthread_join(th[k], &done);
    cr_assert_not_null(done, "the set was full");
    total += jobs[k].tally;
  }
  cr_assert_eq(mcrt_fpset_count(&s), 1, "a tallied insertion reached the set's count");
  cr_assert_eq(total, 5 * n / 2 - 1, "%" PRIu64 " new among the threads", total);
  mcrt_fpset_add_count(&s, total);
  cr_assert_eq(mcrt_fpset_count(&s), 5 * n / 2);
  mcrt_fpset_free(&s);
}

Test(fpset, tally_threads_64) { tally_run(64, false, 0); }
Test(fpset, tally_threads_128) { tally_run(128, false, 0); }
Test(fpset, tally_threads_compact) { tally_run(64, true, 0); }
Test(fpset, tally_threads_ids_64) { tally_run(64, false, 1); }
Test(fpset, tally_threads_ids_128) { tally_run(128, false, 1); }

// True when the table's entries, read in slot order, have increasing
// fingerprints (non-decreasing high words at 128 bits).
static bool table_sorted(const McrtFpSet *s) {
  uint64_t prev = 0;
  for (uint64_t i = 0; i < s->nslots; i++) {
    uint64_t hi = atomic_load(&s->slots[s->words * i]);
    if (hi == 0)
      continue;
    if (hi < prev || (hi == prev && s->words == 1))
      return false;
    prev = hi;
  }
  return true;
}

// Growth writes each cluster of the old table in fingerprint order, so a
// table just grown is sorted (first-come insertion, which threads do,
// leaves it unsorted), and every entry is still found, with its id.
static void grow_sorted_run(unsigned bits, bool ids) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, bits, 1 << 16));
  if (ids)
    cr_assert(mcrt_fpset_enable_ids(&s));
  mcrt_fpset_share(&s); // first come, first served
  uint64_t n = s.max_count; // load 0.85: long clusters
  for (uint64_t i = 0; i < n; i++) {
    uint32_t old;
    McrtFpResult r = ids ? mcrt_fpset_insert_id(&s, fp_of(i, bits), (uint32_t)i, &old)
                         : mcrt_fpset_insert(&s, fp_of(i, bits));
    cr_assert_eq(r, MCRT_FP_NEW);
  }
  cr_assert(!table_sorted(&s)); // first come, first served
  cr_assert(mcrt_fpset_grow(&s));
  cr_assert(table_sorted(&s));
  cr_assert(mcrt_fpset_grow(&s));
  cr_assert(table_sorted(&s));
  cr_assert_eq(mcrt_fpset_count(&s), n);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t id = UINT32_MAX;
    if (ids) {
      cr_assert(mcrt_fpset_find_id(&s, fp_of(i, bits), &id));
      cr_assert_eq(id, (uint32_t)i);
    }
    cr_assert(mcrt_fpset_contains(&s, fp_of(i, bits)));
  }
  for (uint64_t i = n; i < n + 10000; i++)
    cr_assert(!mcrt_fpset_contains(&s, fp_of(i, bits)));
  mcrt_fpset_free(&s);
}

Test(fpset, grow_sorts_64) { grow_sorted_run(64, false); }
Test(fpset, grow_sorts_128) { grow_sorted_run(128, false); }
Test(fpset, grow_sorts_ids_64) { grow_sorted_run(64, true); }
Test(fpset, grow_sorts_ids_128) { grow_sorted_run(128, true); }

// One thread's insertions keep the table of 64-bit fingerprints sorted
// (fpset.c, "Order"), from the first insertion to a load of 0.85 and
// through growths, so that a probe stops at a larger fingerprint: every
// fingerprint inserted is found, and none other, before and after each
// growth; a growth streams the sorted table into a sorted one.
Test(fpset, sorted_insertion) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1 << 14));
  cr_assert(s.sorted);
  uint64_t n = 0;
  for (int grows = 0; grows < 3; grows++) {
    for (; n < s.max_count; n++)
      cr_assert_eq(mcrt_fpset_insert(&s, fp_of(n, 64)), MCRT_FP_NEW);
    cr_assert(s.sorted);
    cr_assert(table_sorted(&s));
    for (uint64_t i = 0; i < n; i++) {
      cr_assert_eq(mcrt_fpset_insert(&s, fp_of(i, 64)), MCRT_FP_OLD);
      cr_assert(mcrt_fpset_contains(&s, fp_of(i, 64)));
    }
    for (uint64_t i = n; i < n + 20000; i++)
      cr_assert(!mcrt_fpset_contains(&s, fp_of(i, 64)));
    cr_assert_eq(mcrt_fpset_count(&s), n);
    cr_assert(mcrt_fpset_grow(&s));
    cr_assert(s.sorted);
    cr_assert(table_sorted(&s));
  }
  mcrt_fpset_free(&s);
}

// A sorted table whose last cluster reaches the end of the overflow area
// (fingerprints all at the last home): an insertion into that cluster finds
// the sentinel and says FULL, changing nothing; a fingerprint with a home
// before the cluster still goes in; a growth keeps everything, in order.
// (Growth moves these homes to the new last home, so the cluster stays as
// long as the overflow area: only fingerprints far from uniform do that.)
Test(fpset, sorted_full_at_end) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1 << 14));
  uint64_t top = UINT64_MAX - 10, i = 0;
  McrtFpResult r;
  while ((r = mcrt_fpset_insert(&s, (McrtFp){top - 2 * i, 0})) == MCRT_FP_NEW)
    i++;
  cr_assert_eq(r, MCRT_FP_FULL);
  cr_assert_eq(i, s.nslots - mcrt_fpset_home(&s, top - 2 * (i - 1)));
  cr_assert_eq(mcrt_fpset_count(&s), i);
  cr_assert(table_sorted(&s));
  cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){top + 1, 0}), MCRT_FP_FULL);
  cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){top, 0}), MCRT_FP_OLD);
  cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){top - 2 * i, 0}), MCRT_FP_FULL);
  cr_assert_eq(mcrt_fpset_count(&s), i);
  cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){UINT64_MAX / 3, 0}), MCRT_FP_NEW);
  cr_assert(table_sorted(&s));
  cr_assert(mcrt_fpset_grow(&s));
  cr_assert(s.sorted);
  cr_assert(table_sorted(&s));
  for (uint64_t k = 0; k < i; k++)
    cr_assert(mcrt_fpset_contains(&s, (McrtFp){top - 2 * k, 0}));
  cr_assert(mcrt_fpset_contains(&s, (McrtFp){UINT64_MAX / 3, 0}));
  cr_assert(!mcrt_fpset_contains(&s, (McrtFp){top + 1, 0}));
  cr_assert_eq(mcrt_fpset_count(&s), i + 1);
  mcrt_fpset_free(&s);
}

// A cluster longer than growth sorts at once (fingerprints piled onto a few
// homes in the middle of the table, among uniform ones): every entry, in the
// pile and after it, is still found after growth.
Test(fpset, grow_long_cluster) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, 64, 1 << 14));
  uint64_t mid = UINT64_MAX / 2, pile = 3000;
  for (uint64_t k = 0; k < pile; k++)
    cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){mid + (pile - k) * 7, 0}), MCRT_FP_NEW);
  for (uint64_t i = 0; i < 8000; i++)
    cr_assert_neq(mcrt_fpset_insert(&s, fp_of(i, 64)), MCRT_FP_FULL);
  uint64_t count = mcrt_fpset_count(&s);
  cr_assert(mcrt_fpset_grow(&s));
  cr_assert_eq(mcrt_fpset_count(&s), count);
  for (uint64_t k = 0; k < pile; k++)
    cr_assert_eq(mcrt_fpset_insert(&s, (McrtFp){mid + (pile - k) * 7, 0}), MCRT_FP_OLD);
  for (uint64_t i = 0; i < 8000; i++)
    cr_assert_eq(mcrt_fpset_insert(&s, fp_of(i, 64)), MCRT_FP_OLD);
  cr_assert_eq(mcrt_fpset_count(&s), count);
  mcrt_fpset_free(&s);
}

// The growth by several threads (threads.c): parts of the old table, taken
// in any order and at once, each writing only its own slots of the new one
// and stashing what would pass them (mcrt_fpset_grow_part). Run here with
// the parts in reverse order (a later part's writes come first), then with
// two threads taking the parts in turn, over uniform fingerprints with two
// piles: one across the boundary of two parts (its entries spill past the
// first part's limit) and one onto the table's last home slots (off the new
// table's end: the overflow area is extended). Afterwards every entry sits
// at or after its home with only full slots between, and every fingerprint
// is found.
typedef struct GrowJob {
  McrtFpGrow *g;
  McrtFpStash *stash;
  _Atomic uint64_t *next;
} GrowJob;

static void *grow_job(void *arg) {
  GrowJob *j = arg;
  uint64_t n = j->g->old.nslots, block = mcrt_fpset_grow_block(j->g);
  for (;;) {
    uint64_t a = atomic_fetch_add(j->next, block);
    if (a >= n)
      return NULL;
    while (!mcrt_fpset_grow_ready(j->g, a)) // as threads.c does
      sched_yield();
    mcrt_fpset_grow_part(j->g, a, a + block < n ? a + block : n, j->stash);
  }
}

static void parallel_grow_run(unsigned bits, bool threads) {
  McrtFpSet s;
  cr_assert(mcrt_fpset_init(&s, bits, 1 << 16));
  uint64_t block = mcrt_fpset_grow_block(&(McrtFpGrow){.old = s});
  cr_assert_lt(block + 1000, s.capacity, "the table is more than one part");
  enum { NPILE = 1500 };
  static McrtFp pile[2 * NPILE];
  uint64_t base = (uint64_t)(((unsigned __int128)(block - 500) << 64) / s.capacity);
  for (uint64_t k = 0; k < NPILE; k++) {
    pile[k] = (McrtFp){base + 3 * k + 1, bits == 128 ? k + 1 : 0}; // (a low word of 0 is "not yet written")
    pile[NPILE + k] = (McrtFp){UINT64_MAX - k, bits == 128 ? k + 1 : 0};
  }
  for (uint64_t k = 0; k < 2 * NPILE; k++)
    cr_assert_eq(mcrt_fpset_insert(&s, pile[k]), MCRT_FP_NEW);
  uint64_t nfp = s.max_count - 2 * NPILE - 100; // load about 0.85
  for (uint64_t i = 0; i < nfp; i++)
    cr_assert_neq(mcrt_fpset_insert(&s, fp_of(i, bits)), MCRT_FP_FULL);
  uint64_t count = mcrt_fpset_count(&s);
  for (int round = 0; round < 2; round++) {
    McrtFpGrow g;
    McrtFpStash stash[2] = {{0}};
    cr_assert(mcrt_fpset_grow_begin(&s, &g));
    uint64_t n = g.old.nslots, step = mcrt_fpset_grow_block(&g);
    if (threads) {
      _Atomic uint64_t next = 0;
      GrowJob jobs[2] = {{&g, &stash[0], &next}, {&g, &stash[1], &next}};
      pthread_t t;
      cr_assert_eq(pthread_create(&t, NULL, grow_job, &jobs[1]), 0);
      grow_job(&jobs[0]);
      pthread_join(t, NULL);
    } else {
      for (uint64_t a = (n - 1) / step * step;; a -= step) {
        mcrt_fpset_grow_part(&g, a, a + step < n ? a + step : n, &stash[a / step % 2]);
        if (a == 0)
          break;
      }
    }
    if (round == 0)
      cr_assert_gt(stash[0].n + stash[1].n, 0, "the piles spill past a part's slots");
    mcrt_fpset_grow_end(&s, &g, stash, 2);
    free(stash[0].fp), free(stash[1].fp);
  }
  cr_assert_eq(mcrt_fpset_count(&s), count);
  uint64_t seen = 0;
  for (uint64_t j = 0; j < s.nslots; j++) {
    uint64_t hi = atomic_load(&s.slots[s.words * j]);
    if (hi == 0)
      continue;
    seen++;
    uint64_t h = mcrt_fpset_home(&s, hi);
    cr_assert_leq(h, j);
    for (uint64_t k = h; k < j; k++)
      cr_assert_neq(atomic_load(&s.slots[s.words * k]), 0,
                    "empty slot %llu between a home and its entry", (unsigned long long)k);
  }
  cr_assert_eq(seen, count);
  for (uint64_t k = 0; k < 2 * NPILE; k++)
    cr_assert_eq(mcrt_fpset_insert(&s, pile[k]), MCRT_FP_OLD);
  for (uint64_t i = 0; i < nfp; i++)
    cr_assert_eq(mcrt_fpset_insert(&s, fp_of(i, bits)), MCRT_FP_OLD);
  for (uint64_t i = nfp; i < nfp + 10000; i++)
    cr_assert(!mcrt_fpset_contains(&s, fp_of(i, bits)));
  cr_assert_eq(mcrt_fpset_count(&s), count);
  mcrt_fpset_free(&s);
}

Test(fpset, parallel_grow_parts_reversed_64) { parallel_grow_run(64, false); }
Test(fpset, parallel_grow_parts_reversed_128) { parallel_grow_run(128, false); }
Test(fpset, parallel_grow_two_threads_64) { parallel_grow_run(64, true); }
Test(fpset, parallel_grow_two_threads_128) { parallel_grow_run(128, true); }
