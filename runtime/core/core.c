// SPDX-License-Identifier: MIT
// core.c: the bottom layer of the runtime (docs/DESIGN.md, "Runtime layers"):
// internal errors, the clock, rule groups, the signal flag every phase
// polls and the signals a run turns into a partial report, and small
// formatting helpers, reading and writing whole buffers. It calls no other
// file of the runtime.
#include "core/core.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

_Noreturn void mcrt_die_at(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s:%d: internal error: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

McrtEngine mcrt_engine; // the serial search, no hooks, unless mpi.c installs its own

// Whether the processor has PREFETCHW (CPUID 0x80000001, ECX bit 8): read
// before main (mcrt_prefetch_write).
bool mcrt_prefetchw;

#if defined(__x86_64__)
__attribute__((constructor)) static void detect_prefetchw(void) {
  unsigned a, b, c, d;
  mcrt_prefetchw = __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & bit_PRFCHW);
}
#endif

double mcrt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t mcrt_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_rdtsc();
#else
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
#endif
}

// The cores online, or fewer when this process may run on fewer (taskset,
// a batch scheduler's cpuset).
uint32_t mcrt_cores(void) {
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  uint32_t n = online > 0 ? (uint32_t)online : 1;
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 0 &&
      (uint32_t)CPU_COUNT(&cpus) < n)
    n = (uint32_t)CPU_COUNT(&cpus);
  return n;
}

// The ranks the process manager's environment names; 0 when it names none.
static long launcher_size(void) {
  // Open MPI's mpirun; MPICH's and Intel MPI's (Hydra), Slurm's srun with PMI.
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]);
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    if (v && *v && !*end && n > 0)
      return n;
  }
  return 0;
}

long mcrt_launcher_ranks(void) {
  long n = launcher_size();
  return n ? n : 1;
}

bool mcrt_launched(void) { return launcher_size() > 0; }

uint32_t mcrt_find_group(const McrtRuleGroup *groups, uint32_t ngroups, uint64_t rule) {
  uint32_t lo = 0, hi = ngroups;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (groups[mid].first_rule <= rule)
      lo = mid;
    else
      hi = mid;
  }
  if (ngroups == 0 || rule < groups[lo].first_rule ||
      rule - groups[lo].first_rule >= groups[lo].nbindings)
    return UINT32_MAX;
  return lo;
}

bool mcrt_replay(const McrtRuleGroup *groups, McrtReplay *const *replay, uint32_t ngroups,
                 McrtCtx *ctx, uint64_t rule, const uint8_t *in, uint8_t *out) {
  uint32_t g = mcrt_find_group(groups, ngroups, rule);
  return g != UINT32_MAX && replay[g](ctx, rule - groups[g].first_rule, in, out);
}

// ---------------------------------------------------------------------------
// Stopping, signals.

volatile sig_atomic_t mcrt_signal;
_Atomic bool mcrt_search_over;

sigset_t mcrt_stop_signals(void) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

const char *mcrt_signal_name(int sig) {
  return sig == SIGINT    ? "SIGINT"
         : sig == SIGTERM ? "SIGTERM"
         : sig == SIGHUP  ? "SIGHUP"
                          : "a signal";
}

// A test hook (tests/cli/signals.sh), inert unless MCRT_TEST_PAUSE is set:
// with MCRT_TEST_PAUSE=PHASE the checker prints "mcrt-test-pause: PHASE" on
// stderr when it reaches PHASE and waits there (at most 60 s) until a signal
// comes, so that a test can interrupt every phase at a known moment. PHASE:
//   handlers       the options are read, the signals caught, the report not
//                  yet open (main.c)
//   start          the options are read, the report is open, nothing searched
//   search         the first state has been expanded (search.c)
//   liveness       the search is complete, the liveness check about to start
//   verify-second  --symmetry verify: before the run without reduction
//   shortest       partial-order reduction found a violation: before the
//                  full graph's search for the shortest trace (main.c)
//   report         every phase has ended, the result is about to be settled
void mcrt_test_pause(const char *phase) {
  const char *want = getenv("MCRT_TEST_PAUSE");
  if (!want || strcmp(want, phase) != 0)
    return;
  fprintf(stderr, "mcrt-test-pause: %s\n", phase);
  fflush(stderr);
  struct timespec tick = {0, 10 * 1000 * 1000};
  for (int i = 0; i < 6000 && !mcrt_signal; i++)
    nanosleep(&tick, NULL);
}

// ---------------------------------------------------------------------------
// Formatting.

void mcrt_print_extern_cause(FILE *f, const McrtModel *m) {
  fputs("the C the spec calls (extern fn ", f);
  for (uint32_t i = 0; i < m->nextern; i++)
    fprintf(f, "%s'%s'%s", i ? ", " : "", m->externs[i].name,
            m->externs[i].trusted ? " (trusted)" : "");
  fputc(')', f);
}

// Prints a byte count as "12.3 MiB".
void mcrt_fprint_bytes(FILE *f, double bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4)
    bytes /= 1024, u++;
  if (u == 0)
    fprintf(f, "%.0f B", bytes);
  else
    fprintf(f, "%.1f %s", bytes, units[u]);
}

// ---------------------------------------------------------------------------
// Whole buffers to and from a file (checkpoints: the stores save themselves).

#define MCRT_FP_IO_STEP ((size_t)16 << 20) // bytes per read(2) or write(2)

bool mcrt_write_hashed(int fd, const void *p, size_t n, XXH3_state_t *hash) {
  if (hash)
    XXH3_64bits_update(hash, p, n);
  for (const char *c = p; n > 0;) {
    ssize_t w = write(fd, c, n < MCRT_FP_IO_STEP ? n : MCRT_FP_IO_STEP);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    c += w, n -= (size_t)w;
  }
  return true;
}

bool mcrt_read_hashed(int fd, void *p, size_t n, XXH3_state_t *hash) {
  size_t want = n;
  for (char *c = p; n > 0;) {
    ssize_t r = read(fd, c, n < MCRT_FP_IO_STEP ? n : MCRT_FP_IO_STEP);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      if (r == 0)
        errno = 0; // end of file: a truncated file
      return false;
    }
    c += r, n -= (size_t)r;
  }
  if (hash)
    XXH3_64bits_update(hash, p, want);
  return true;
}
