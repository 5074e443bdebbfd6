// bench_fpset.c: micro-benchmark of the fingerprint set (not a unit test).
//   cc -std=c11 -O2 -D_GNU_SOURCE -Iruntime tests/unit/runtime/bench/bench_fpset.c build/libmcrt.a -o bench_fpset
//   ./bench_fpset [N] [64|128]
// Inserts N distinct fingerprints of 8-byte "states" (hash included), then
// looks all of them up again (the common case in a search: most successors
// are already known), and reports rates, bytes per entry and peak RSS.
#include "internal.h"

#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000;
  unsigned bits = argc > 2 ? (unsigned)atoi(argv[2]) : 64;
  McrtFpSet s;
  if (!mcrt_fpset_init(&s, bits, 1 << 14))
    return 2;
  double t0 = mcrt_now(), grow_s = 0;
  for (uint64_t i = 0; i < n; i++) {
    McrtFp fp = mcrt_fingerprint((const uint8_t *)&i, sizeof i, bits);
    McrtFpResult r;
    while ((r = mcrt_fpset_insert(&s, fp)) == MCRT_FP_FULL)
      mcrt_fpset_grow(&s);
    if (mcrt_fpset_wants_grow(&s)) {
      double g = mcrt_now();
      mcrt_fpset_grow(&s);
      grow_s += mcrt_now() - g;
    }
  }
  double t1 = mcrt_now();
  uint64_t old = 0;
  for (uint64_t i = 0; i < n; i++) {
    McrtFp fp = mcrt_fingerprint((const uint8_t *)&i, sizeof i, bits);
    old += mcrt_fpset_insert(&s, fp) == MCRT_FP_OLD;
  }
  double t2 = mcrt_now();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%u-bit, %llu entries: insert %.1f M/s (%.2f s, of which growth %.2f s, %llu grows), "
         "lookup-hit %.1f M/s; table %.1f MiB = %.2f B/entry, load %.2f; peak RSS %.1f MiB\n",
         bits, (unsigned long long)n, n / (t1 - t0) / 1e6, t1 - t0, grow_s,
         (unsigned long long)s.grows, n / (t2 - t1) / 1e6, mcrt_fpset_bytes(&s) / 1048576.0,
         (double)mcrt_fpset_bytes(&s) / n, (double)n / s.capacity, ru.ru_maxrss / 1024.0);
  if (old != n)
    return 1;
  mcrt_fpset_free(&s);
  return 0;
}
