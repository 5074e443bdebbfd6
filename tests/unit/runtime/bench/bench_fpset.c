// SPDX-License-Identifier: MIT
// bench_fpset.c: micro-benchmark of the fingerprint set (not a unit test).
//   cc -std=c11 -O2 -D_GNU_SOURCE -Iruntime tests/unit/runtime/bench/bench_fpset.c build/libmcrt.a -o bench_fpset
//   ./bench_fpset [N] [64|128|compact]
// Inserts N distinct fingerprints of 8-byte "states" (hash included), then
// looks all of them up again (the common case in a search: most successors
// are already known), and reports rates per CPU second (the process's, so a
// loaded machine gives comparable figures), bytes per entry and peak RSS.
// "compact" is the compact layout (--compact-set) with 64-bit fingerprints.
// "worst from 10^7" is the most bytes per entry the table cost at any count
// from 10^7 on (just after a growth, or at 10^7 itself).
#include "store/store.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000;
  bool compact = argc > 2 && !strcmp(argv[2], "compact");
  unsigned bits = argc > 2 && !compact ? (unsigned)atoi(argv[2]) : 64;
  McrtFpSet s;
  if (compact ? !mcrt_fpset_init_compact(&s, 1 << 14) : !mcrt_fpset_init(&s, bits, 1 << 14))
    return 2;
  double t0 = cpu_now(), grow_s = 0, worst = 0;
  const uint64_t from = 10000000;
  for (uint64_t i = 0; i < n; i++) {
    McrtFp fp = mcrt_fingerprint((const uint8_t *)&i, sizeof i, bits);
    McrtFpResult r;
    while ((r = mcrt_fpset_insert(&s, fp)) == MCRT_FP_FULL)
      mcrt_fpset_grow(&s);
    if (i + 1 == from)
      worst = (double)mcrt_fpset_bytes(&s) / (double)from;
    if (mcrt_fpset_wants_grow(&s)) {
      double g = cpu_now();
      mcrt_fpset_grow(&s);
      grow_s += cpu_now() - g;
      double per = (double)mcrt_fpset_bytes(&s) / (double)(i + 1);
      if (i + 1 >= from && per > worst)
        worst = per;
    }
  }
  double t1 = cpu_now();
  uint64_t old = 0;
  for (uint64_t i = 0; i < n; i++) {
    McrtFp fp = mcrt_fingerprint((const uint8_t *)&i, sizeof i, bits);
    old += mcrt_fpset_insert(&s, fp) == MCRT_FP_OLD;
  }
  double t2 = cpu_now();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%s, %llu entries: insert %.2f M/CPU s (%.2f CPU s, of which growth %.2f s, %llu grows), "
         "lookup-hit %.2f M/CPU s; table %.1f MiB = %.2f B/entry (worst from 10^7: %.2f), "
         "load %.3f; peak RSS %.1f MiB\n",
         compact ? "compact" : bits == 128 ? "128-bit" : "64-bit", (unsigned long long)n, n / (t1 - t0) / 1e6, t1 - t0, grow_s,
         (unsigned long long)s.grows, n / (t2 - t1) / 1e6, mcrt_fpset_bytes(&s) / 1048576.0,
         (double)mcrt_fpset_bytes(&s) / n, worst, (double)n / s.capacity, ru.ru_maxrss / 1024.0);
  if (old != n)
    return 1;
  mcrt_fpset_free(&s);
  return 0;
}
