// SPDX-License-Identifier: MIT
// Unit tests of the MPI engine's pieces that need no running MPI job
// (runtime/mpi/mpi.c, included whole to reach its static functions): the packed
// trace log at every width of rank and rule, the ownership of fingerprints,
// and the order of violations. Built and run by tests/mpi/run.sh with mpicc
// and Criterion (the Makefile's unit tests are built without MPI).
#include <criterion/criterion.h>

#include "../../runtime/mpi/mpi.c"

// Appends n records whose parent ranks stay below `ranks` (initial markers
// among them) and rules below max_rule + 1, and reads them back.
static void log_roundtrip(int ranks, uint64_t max_rule, unsigned rank_bytes, unsigned rule_bytes,
                          uint64_t n) {
  Log l;
  log_init(&l, ranks, max_rule);
  cr_assert_eq(l.rank_bytes, rank_bytes);
  cr_assert_eq(l.rule_bytes, rule_bytes);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t prank = i % 1000 == 0 ? NO_RANK : (uint32_t)(i * 31 % (uint64_t)ranks);
    cr_assert(log_append(&l, prank, (uint32_t)(i * 2654435761u), (uint32_t)(i * 7 % (max_rule + 1))));
  }
  cr_assert_eq(l.count, n);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t rec[3];
    log_get(&l, i, rec);
    cr_assert_eq(rec[0], i % 1000 == 0 ? NO_RANK : (uint32_t)(i * 31 % (uint64_t)ranks), "%llu",
                 (unsigned long long)i);
    cr_assert_eq(rec[1], (uint32_t)(i * 2654435761u));
    cr_assert_eq(rec[2], (uint32_t)(i * 7 % (max_rule + 1)));
  }
  uint64_t chunks = (n + (1u << LOG_SHIFT) - 1) >> LOG_SHIFT;
  cr_assert_eq(log_bytes(&l), chunks * ((size_t)(rank_bytes + 4 + rule_bytes) << LOG_SHIFT) +
                                  l.cap * sizeof(uint8_t *));
  for (size_t i = 0; i < l.nchunks; i++)
    free(l.chunks[i]);
  free(l.chunks);
}

Test(mpi_log, one_byte_ranks_and_rules) { log_roundtrip(4, 200, 1, 1, 150000); }

// 254 ranks still fit one byte (255 is the initial marker); 255 need two.
Test(mpi_log, rank_widths) {
  log_roundtrip(254, 70000, 1, 3, 70000);
  log_roundtrip(255, 70000, 2, 3, 70000);
  log_roundtrip(65534, 300, 2, 2, 70000);
  log_roundtrip(65535, UINT32_MAX - 1, 4, 4, 70000);
}

// Owners cover 0 .. K-1 and split random fingerprints evenly.
Test(mpi_owner, spread) {
  for (int k = 1; k <= 7; k++) {
    Mpi mp = {.size = k};
    uint64_t count[7] = {0}, n = 70000;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t s = i;
      McrtFp fp = mcrt_fingerprint((const uint8_t *)&s, sizeof s, 64);
      uint32_t o = fp_owner(&mp, fp);
      cr_assert_lt(o, (uint32_t)k);
      count[o]++;
    }
    for (int r = 0; r < k; r++)
      cr_assert(count[r] > n / (uint64_t)k * 95 / 100 && count[r] < n / (uint64_t)k * 105 / 100,
                "K=%d rank %d: %llu of %llu", k, r, (unsigned long long)count[r],
                (unsigned long long)n);
  }
}

// A state's owner is its fingerprint's (one rank: 0, without hashing).
Test(mpi_owner, of_a_state) {
  McrtCtx ctx = {.state_bytes = 8, .fp_bits = 64};
  for (int k = 1; k <= 5; k++) {
    Mpi mp = {.size = k, .ctx = &ctx};
    for (uint64_t s = 0; s < 1000; s++) {
      McrtFp fp = mcrt_fingerprint((const uint8_t *)&s, sizeof s, 64);
      cr_assert_eq(owner(&mp, (const uint8_t *)&s, sizeof s), k == 1 ? 0 : fp_owner(&mp, fp));
    }
  }
}

// The violation kept is the least by (trace steps, kind, fingerprint),
// whatever the order in which they are offered.
Test(mpi_offer, least_wins_in_any_order) {
  McrtCtx ctx = {.state_bytes = 8, .fp_bits = 64};
  uint64_t a = 1, b = 2;
  for (int order = 0; order < 2; order++) {
    Mpi mp = {.ctx = &ctx};
    const uint8_t *first = (const uint8_t *)(order ? &a : &b), *second = (const uint8_t *)(order ? &b : &a);
    cr_assert(offer(&mp, MCRT_VIOL_DEADLOCK, first, 5));
    offer(&mp, MCRT_VIOL_DEADLOCK, second, 5);
    McrtFp fa = mcrt_fingerprint((const uint8_t *)&a, 8, 64), fb = mcrt_fingerprint((const uint8_t *)&b, 8, 64);
    cr_assert_eq(mp.cand.key[2], fa.hi < fb.hi ? fa.hi : fb.hi);
    // Fewer steps beat any kind and fingerprint; at equal steps, the kind.
    cr_assert(offer(&mp, MCRT_VIOL_DEADLOCK, first, 4));
    cr_assert_not(offer(&mp, MCRT_VIOL_INVARIANT, first, 5));
    cr_assert(offer(&mp, MCRT_VIOL_INVARIANT, second, 4));
    cr_assert_eq(mp.cand.kind, MCRT_VIOL_INVARIANT);
    cr_assert_not(offer(&mp, MCRT_VIOL_INVARIANT, second, 4)); // the same: kept once
  }
}
