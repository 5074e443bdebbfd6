// SPDX-License-Identifier: MIT
// Unit tests of saving and loading the compact fingerprint set
// (runtime/store/fpcompact.c, mcrt_fpc_save and mcrt_fpc_load, which checkpoint.c
// uses for --compact-set).
#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "store/store.h"

static McrtFp fp_of(uint64_t i) { return mcrt_fingerprint((const uint8_t *)&i, sizeof i, 64); }

// A compact set of n fingerprints, grown several times.
static void fill(McrtFpSet *s, uint64_t n) {
  cr_assert(mcrt_fpset_init_compact(s, 1024));
  for (uint64_t i = 0; i < n; i++) {
    McrtFpResult r;
    while ((r = mcrt_fpset_insert(s, fp_of(i))) == MCRT_FP_FULL)
      cr_assert(mcrt_fpset_grow(s));
    cr_assert_eq(r, MCRT_FP_NEW);
    if (mcrt_fpset_wants_grow(s))
      cr_assert(mcrt_fpset_grow(s));
  }
  cr_assert_gt(s->grows, 0);
}

// Saved and loaded back: the same fields, the same members and no others,
// the same hash of the bytes; the loaded set goes on inserting and growing.
Test(fpset_compact_io, roundtrip) {
  const uint64_t n = 300000;
  McrtFpSet s, t;
  fill(&s, n);
  FILE *f = tmpfile();
  cr_assert(f);
  int fd = fileno(f);
  XXH3_state_t *hs = XXH3_createState(), *hl = XXH3_createState();
  XXH3_64bits_reset(hs), XXH3_64bits_reset(hl);
  cr_assert(mcrt_fpc_save(fd, &s, hs));
  cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
  cr_assert(mcrt_fpc_load(fd, &t, hl));
  cr_assert_eq(XXH3_64bits_digest(hs), XXH3_64bits_digest(hl));
  cr_assert_eq(t.rem_bits, s.rem_bits);
  cr_assert_eq(t.divisor, s.divisor);
  cr_assert_eq(t.reciprocal, s.reciprocal);
  cr_assert_eq(t.capacity, s.capacity);
  cr_assert_eq(t.nslots, s.nslots);
  cr_assert_eq(t.max_count, s.max_count);
  cr_assert_eq(t.grows, s.grows);
  cr_assert_eq(mcrt_fpset_count(&t), n);
  cr_assert_eq(mcrt_fpset_bytes(&t), mcrt_fpset_bytes(&s));
  for (uint64_t i = 0; i < n; i++)
    cr_assert(mcrt_fpset_contains(&t, fp_of(i)));
  for (uint64_t i = n; i < 3 * n; i++) {
    cr_assert(!mcrt_fpset_contains(&t, fp_of(i)));
    McrtFpResult r;
    while ((r = mcrt_fpset_insert(&t, fp_of(i))) == MCRT_FP_FULL)
      cr_assert(mcrt_fpset_grow(&t));
    cr_assert_eq(r, MCRT_FP_NEW);
    if (mcrt_fpset_wants_grow(&t))
      cr_assert(mcrt_fpset_grow(&t));
  }
  cr_assert_gt(t.grows, s.grows);
  for (uint64_t i = 0; i < 3 * n; i++)
    cr_assert_eq(mcrt_fpset_insert(&t, fp_of(i)), MCRT_FP_OLD);
  XXH3_freeState(hs), XXH3_freeState(hl);
  fclose(f);
  mcrt_fpset_free(&s);
  mcrt_fpset_free(&t);
}

// A file cut short anywhere is refused (errno 0: it ended early), the set
// left empty, never half loaded.
Test(fpset_compact_io, truncated_refused) {
  McrtFpSet s, t;
  fill(&s, 5000);
  FILE *f = tmpfile();
  int fd = fileno(f);
  cr_assert(mcrt_fpc_save(fd, &s, NULL));
  off_t size = lseek(fd, 0, SEEK_CUR);
  off_t cuts[] = {0, 8, 71, 72, 73, size / 2, size - 1};
  for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
    cr_assert_eq(ftruncate(fd, cuts[k]), 0);
    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    cr_assert(!mcrt_fpc_load(fd, &t, NULL), "a file cut at %lld bytes was loaded",
              (long long)cuts[k]);
    cr_assert_eq(errno, 0);
    cr_assert_null(t.slots);
    cr_assert_null(t.meta);
    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    cr_assert_eq(ftruncate(fd, 0), 0);
    cr_assert(mcrt_fpc_save(fd, &s, NULL));
  }
  fclose(f);
  mcrt_fpset_free(&s);
}

// Each header field changed to what no set of this code has is refused
// (EINVAL) before anything is mapped: the fields are capacity, nslots,
// max_count, count, grows, rem_bits, divisor, map_bytes, meta_bytes.
Test(fpset_compact_io, bad_header_refused) {
  McrtFpSet s, t;
  fill(&s, 5000);
  FILE *f = tmpfile();
  int fd = fileno(f);
  cr_assert(mcrt_fpc_save(fd, &s, NULL));
  uint64_t good[9];
  cr_assert_eq(pread(fd, good, sizeof good, 0), (ssize_t)sizeof good);
  cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
  cr_assert(mcrt_fpc_load(fd, &t, NULL)); // the file as saved loads
  mcrt_fpset_free(&t);
  struct {
    unsigned field;
    uint64_t value;
  } bad[] = {
      {0, 1},                  // capacity under the minimum
      {0, good[0] + 1},        // capacity: then rem_bits, divisor, sizes disagree
      {1, good[1] + 1},        // nslots not a multiple of 64
      {1, good[1] + 64},       // nor of the block, 128
      {1, 64},                 // nslots under the capacity
      {2, good[2] + 1},        // max_count not the load factor's
      {3, good[1] + 1},        // more entries than slots
      {5, good[5] - 1},        // rem_bits
      {6, good[6] + 1},        // divisor
      {7, good[7] + 4096},     // map_bytes
      {8, good[8] - 4096},     // meta_bytes
      {0, UINT64_MAX},         // absurd sizes are not mapped
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    uint64_t h[9];
    memcpy(h, good, sizeof h);
    h[bad[k].field] = bad[k].value;
    cr_assert_eq(pwrite(fd, h, sizeof h, 0), (ssize_t)sizeof h);
    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    errno = 0;
    cr_assert(!mcrt_fpc_load(fd, &t, NULL), "case %zu was loaded", k);
    cr_assert_eq(errno, EINVAL, "case %zu: errno %d", k, errno);
    cr_assert_null(t.slots);
  }
  fclose(f);
  mcrt_fpset_free(&s);
}
