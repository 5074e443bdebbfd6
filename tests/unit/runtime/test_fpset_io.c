// SPDX-License-Identifier: MIT
// Unit tests of saving and loading the fingerprint set (runtime/store/fpset.c,
// mcrt_fpset_save and mcrt_fpset_load, which checkpoint.c uses).
#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "store/store.h"

static McrtFp fp_of(uint64_t i, unsigned bits) {
  return mcrt_fingerprint((const uint8_t *)&i, sizeof i, bits);
}

// Saves a set of n fingerprints (grown several times, ids when asked),
// loads it back: the same fields, the same members, the same hash, and the
// loaded set goes on inserting and growing.
static void roundtrip(unsigned bits, uint64_t n, bool ids) {
  McrtFpSet s, t;
  cr_assert(mcrt_fpset_init(&s, bits, 1024));
  if (ids)
    cr_assert(mcrt_fpset_enable_ids(&s));
  for (uint64_t i = 0; i < n; i++) {
    uint32_t old;
    McrtFpResult r = ids ? mcrt_fpset_insert_id(&s, fp_of(i, bits), (uint32_t)i, &old)
                         : mcrt_fpset_insert(&s, fp_of(i, bits));
    cr_assert_eq(r, MCRT_FP_NEW);
    if (mcrt_fpset_wants_grow(&s))
      cr_assert(mcrt_fpset_grow(&s));
  }
  cr_assert_gt(s.grows, 0);
  FILE *f = tmpfile();
  cr_assert(f);
  int fd = fileno(f);
  XXH3_state_t *hs = XXH3_createState(), *hl = XXH3_createState();
  XXH3_64bits_reset(hs), XXH3_64bits_reset(hl);
  cr_assert(mcrt_fpset_save(fd, &s, hs));
  cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
  cr_assert(mcrt_fpset_load(fd, &t, hl));
  cr_assert_eq(XXH3_64bits_digest(hs), XXH3_64bits_digest(hl));
  cr_assert_eq(t.words, s.words);
  cr_assert_eq(t.capacity, s.capacity);
  cr_assert_eq(t.nslots, s.nslots);
  cr_assert_eq(t.max_count, s.max_count);
  cr_assert_eq(t.grows, s.grows);
  cr_assert_eq(t.id_words, s.id_words);
  cr_assert_eq(mcrt_fpset_count(&t), n);
  cr_assert_eq(mcrt_fpset_bytes(&t), mcrt_fpset_bytes(&s));
  for (uint64_t i = 0; i < n; i++) {
    uint32_t id = UINT32_MAX;
    cr_assert(mcrt_fpset_contains(&t, fp_of(i, bits)));
    if (ids) {
      cr_assert(mcrt_fpset_find_id(&t, fp_of(i, bits), &id));
      cr_assert_eq(id, i);
    }
  }
  for (uint64_t i = n; i < 2 * n; i++) {
    cr_assert(!mcrt_fpset_contains(&t, fp_of(i, bits)));
    uint32_t old;
    McrtFpResult r = ids ? mcrt_fpset_insert_id(&t, fp_of(i, bits), (uint32_t)i, &old)
                         : mcrt_fpset_insert(&t, fp_of(i, bits));
    cr_assert_eq(r, MCRT_FP_NEW);
    if (mcrt_fpset_wants_grow(&t))
      cr_assert(mcrt_fpset_grow(&t));
  }
  cr_assert_eq(mcrt_fpset_count(&t), 2 * n);
  XXH3_freeState(hs), XXH3_freeState(hl);
  fclose(f);
  mcrt_fpset_free(&s);
  mcrt_fpset_free(&t);
}

Test(fpset_io, roundtrip_64) { roundtrip(64, 300000, false); }
Test(fpset_io, roundtrip_128) { roundtrip(128, 300000, false); }
Test(fpset_io, roundtrip_ids_64) { roundtrip(64, 100000, true); }
Test(fpset_io, roundtrip_ids_128) { roundtrip(128, 100000, true); }

// A file cut short anywhere is refused (errno 0: it ended early), and the
// set is left empty, never half loaded.
Test(fpset_io, truncated_refused) {
  McrtFpSet s, t;
  cr_assert(mcrt_fpset_init(&s, 64, 1024));
  for (uint64_t i = 0; i < 1000; i++)
    mcrt_fpset_insert(&s, fp_of(i, 64));
  FILE *f = tmpfile();
  int fd = fileno(f);
  cr_assert(mcrt_fpset_save(fd, &s, NULL));
  off_t size = lseek(fd, 0, SEEK_CUR);
  off_t cuts[] = {0, 8, 71, 72, 73, size / 2, size - 1};
  for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
    cr_assert_eq(ftruncate(fd, cuts[k]), 0);
    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    cr_assert(!mcrt_fpset_load(fd, &t, NULL), "a file cut at %lld bytes was loaded",
              (long long)cuts[k]);
    cr_assert_eq(errno, 0);
    cr_assert_null(t.slots);
    cr_assert_eq(lseek(fd, 0, SEEK_END), cuts[k]);
    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    cr_assert_eq(ftruncate(fd, 0), 0);
    cr_assert(mcrt_fpset_save(fd, &s, NULL));
  }
  fclose(f);
  mcrt_fpset_free(&s);
}

// Fields no set can have are refused (EINVAL) before anything is mapped.
Test(fpset_io, bad_header_refused) {
  uint64_t h[9] = {3, 1024, 5120, 870, 0, 40960, 0, 0, 0}; // words = 3
  FILE *f = tmpfile();
  int fd = fileno(f);
  cr_assert_eq(write(fd, h, sizeof h), (ssize_t)sizeof h);
  cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
  McrtFpSet t;
  cr_assert(!mcrt_fpset_load(fd, &t, NULL));
  cr_assert_eq(errno, EINVAL);
  fclose(f);
}
