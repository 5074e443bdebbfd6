// SPDX-License-Identifier: MIT
// core/core.h: the runtime's bottom layer (docs/DESIGN.md, "Runtime
// layers"), what every other file may use. Offers: internal errors, CPU
// helpers (prefetch, state copies), the checker's options (options.c), the
// clock, the signals every phase polls, small formatting and I/O helpers,
// the engine hooks (core.c). Requires: mcrt.h (the contract with generated
// code) and xxHash. Generated code never includes it (mcrt.h only).
#ifndef MCRT_CORE_H
#define MCRT_CORE_H

#include "mcrt.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define MCRT_VERSION "0.1"

// Internal errors are not the user's: print where and abort.
#define mcrt_die(...) mcrt_die_at(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void mcrt_die_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// A prefetch for writing: the line comes exclusive, invalidated in the
// other cores' caches, so the CAS that inserts into it later needs no
// second trip to take it from another core (where threads insert into
// the same table, a CAS cost several times its one-thread cost without
// it). GCC emits PREFETCHW for __builtin_prefetch(p, 1) only on targets
// built with it (-mprfchw); the runtime is built for any x86-64, so the
// instruction is written here, where the processor has it (mcrt_prefetchw,
// set from CPUID at start).
extern bool mcrt_prefetchw;
static inline void mcrt_prefetch_write(const void *p) {
#if defined(__x86_64__)
  if (mcrt_prefetchw) {
    __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
    return;
  }
#endif
  __builtin_prefetch(p, 1);
}

// Copies a state in 8-byte words: both buffers must have MCRT_SLACK bytes
// after the state, as the last word may run past it (the bytes past the
// state are never read as state). For the short states of most models this
// beats a call to memcpy, whose size is only known at run time (at 2
// threads the calls were 5% of bakery.5's samples).
static inline void mcrt_copy_state(uint8_t *to, const uint8_t *from, size_t bytes) {
  for (size_t k = 0; k < bytes; k += 8) {
    uint64_t w;
    memcpy(&w, from + k, sizeof w);
    memcpy(to + k, &w, sizeof w);
  }
}

#define MCRT_NO_STATE UINT64_MAX

// ---------------------------------------------------------------------------
// options.c: the checker's command line (docs/DESIGN.md).

typedef enum { MCRT_LIVENESS_DEFAULT, MCRT_LIVENESS_ON, MCRT_LIVENESS_OFF } McrtLiveness;
// --liveness-engine: one decomposition for every instance on the run's
// threads (analysis/fair.c), or Tarjan per instance on one thread
// (analysis/liveness.c, the oracle the other is checked against).
typedef enum { MCRT_LIVE_ENGINE_PARALLEL, MCRT_LIVE_ENGINE_SERIAL } McrtLiveEngine;
typedef enum { MCRT_SYM_DEFAULT, MCRT_SYM_ON, MCRT_SYM_OFF, MCRT_SYM_VERIFY } McrtSymmetry;
typedef enum { MCRT_POR_AUTO, MCRT_POR_ON, MCRT_POR_OFF } McrtPorMode;
typedef enum {
  MCRT_SYM_METHOD_AUTO,
  MCRT_SYM_METHOD_EXHAUSTIVE, // every permutation (the reference)
  MCRT_SYM_METHOD_SORTED,     // sort by invariant keys, enumerate ties only
} McrtSymMethod;

// --search: the breadth-first search (search.c, threads.c), or the stateless
// depth-first exploration of one execution per Mazurkiewicz trace (odpor.c).
typedef enum { MCRT_SEARCH_BFS, MCRT_SEARCH_ODPOR } McrtSearch;

#define MCRT_UNLIMITED UINT64_MAX
#define MCRT_MAX_THREADS 1024

// --color: when the verdict is coloured (auto: on a terminal, without NO_COLOR).
typedef enum { MCRT_COLOR_NEVER, MCRT_COLOR_AUTO, MCRT_COLOR_ALWAYS } McrtColor;

typedef struct McrtOptions {
  uint64_t threads;
  uint64_t max_states, max_steps, max_depth, memory; // MCRT_UNLIMITED if not given
  unsigned fingerprint_bits;
  bool compact_set; // --compact-set: the compact layout for 64-bit fingerprints
  McrtSymmetry symmetry;
  McrtSymMethod sym_method; // --symmetry-method
  bool deadlock; // check deadlocks (not --no-deadlock)
  McrtLiveness liveness;
  McrtLiveEngine live_engine; // --liveness-engine parallel (the default) | serial
  bool trace_json;   // --trace-format json: the violation alone on stdout, as JSON
  bool format_json;  // --format json (or --report -): the report alone on stdout
  bool trace_full;   // --trace-style full: a text trace prints whole states
  bool print_runs;   // --print-runs: --simulate prints each run
  McrtColor color;   // --color
  const char *program;      // argv[0], as the checker was started (the summary's replay hint)
  const char *program_name; // its last component
  const char *trail_file;   // where a violation's trail goes (NULL: --no-trail)
  bool trail_given;         // --trail FILE (else the default, NAME.trail.json)
  const char *replay_file;  // --replay FILE: replay a trail instead of the search
  const char *report_file;
  const char *dot_file, *graph_file;
  const char *tests_file;      // --tests FILE.json
  bool tests_cover_accepting;  // --tests-cover accepting (default: transitions)
  uint64_t dot_max_states;     // --dot-max-states (default 200)
  uint64_t graph_max_states;   // --graph-max-states (default 100000)
  uint64_t tests_max_steps;    // --tests-max-steps (default 100000)
  uint64_t sim_runs;           // --simulate RUNS (0: search, not simulate)
  uint64_t sim_depth, sim_seed; // --depth (default 100), --seed (default 1)
  double progress_s; // 0: off
  bool quiet;
  bool mcc; // --mcc: a net's answers as the Model Checking Contest's lines
  McrtSearch search;  // --search bfs|odpor
  bool threads_given; // --threads was on the command line
  const char *disk_dir;       // --disk DIR: the trace log and the frontier in files there
  const char *checkpoint_dir; // --checkpoint DIR
  double checkpoint_every_s;  // --checkpoint-every MINUTES, in seconds
  const char *resume_dir;     // --resume DIR
  McrtPorMode por_mode;    // --por auto (the default) | on | off
  bool por;                // partial-order reduction in effect (por.c): on, or auto where it fits
  const char *por_off_why; // under auto, why the reduction is off in this run (else NULL)
  bool fixed_trace; // --fixed-trace: under MPI, the same trace whatever the number of ranks
                    // (elsewhere it means --order fixed: main.c)
  bool order_free;  // --order free (the default): threads insert successors as they make them
  bool order_given; // --order was on the command line
  double extern_timeout_s; // --extern-timeout: a call of C that runs longer fails (0: none)
} McrtOptions;

// Parses argv into opt. Returns -1 to go on with the run, otherwise the exit
// code (0 after --help/--version, MCRT_EXIT_USAGE after a message on err).
int mcrt_parse_options(McrtOptions *opt, const McrtModel *model, int argc, char **argv,
                       FILE *out, FILE *err);
// Parses "512M", "4G", "1024": bytes; false if malformed.
bool mcrt_parse_size(const char *s, uint64_t *bytes);
// Whether the option whose long form is `name` ("threads") is on the
// command line (its long or short form), read as mcrt_parse_options reads
// it: mpi.c's default for --threads depends on it.
bool mcrt_option_given(int argc, char **argv, const char *name);
// Whether this run checks liveness (--liveness on, or the spec has a
// property and not --liveness off).
bool mcrt_liveness_wanted(const McrtModel *m, const McrtOptions *opt);

// ---------------------------------------------------------------------------
// json.c: reading JSON (a trail, --replay): a tree of values, each with
// where it starts in the text.
typedef enum {
  MCRT_JSON_NULL,
  MCRT_JSON_BOOL,
  MCRT_JSON_NUMBER,
  MCRT_JSON_STRING,
  MCRT_JSON_ARRAY,
  MCRT_JSON_OBJECT,
} McrtJsonKind;
typedef struct McrtJson McrtJson;
struct McrtJson {
  McrtJsonKind kind;
  int line, col;      // where the value starts (1-based)
  bool boolean;       // BOOL
  double number;      // NUMBER
  bool is_integer;    // NUMBER: written without fraction or exponent, and fits int64_t
  int64_t integer;    //   then its exact value
  char *string;       // STRING (UTF-8, without NUL)
  size_t n;           // ARRAY, OBJECT: the items (and an object's member names)
  McrtJson *items;
  char **keys;
};
// The value text[0 .. len) holds, or NULL with "LINE:COL: what" in err.
McrtJson *mcrt_json_parse(const char *text, size_t len, char *err, size_t errn);
void mcrt_json_free(McrtJson *v);
// An object's member (the first of that name), or NULL (none, not an object).
const McrtJson *mcrt_json_get(const McrtJson *object, const char *key);
// "a string", "an array"...: for messages.
const char *mcrt_json_kind_name(McrtJsonKind k);

// SIGINT, SIGTERM and SIGHUP: the signals a run turns into a partial report.
sigset_t mcrt_stop_signals(void);

// core.c: the clock, the signals, small helpers.
double mcrt_now(void);
// The processor's cycle counter (x86), else the monotonic clock in ns:
// cheap enough to read around each action of a timed expansion.
uint64_t mcrt_ticks(void);
// The cores this process may run on: online and in its affinity mask.
uint32_t mcrt_cores(void);
// The ranks a process manager (mpirun, srun) started this process among,
// from its environment; 1 when none did.
long mcrt_launcher_ranks(void);
// Whether a process manager started this process (even as its one rank).
bool mcrt_launched(void);
// Prints a byte count as "12.3 MiB".
void mcrt_fprint_bytes(FILE *f, double bytes);
// "the C the spec calls (extern fn 'step', 'noise' (trusted))": the likely
// cause of a run that is not deterministic, in a spec that calls C (C that
// keeps state between calls, or reads what changes: `trusted` bypasses
// mcgen's check, and the check cannot see what C does behind it).
void mcrt_print_extern_cause(FILE *f, const McrtModel *m);

// The signal (SIGINT, SIGTERM or SIGHUP) that asked the run to stop, 0 if none. Set
// by the handler mcrt_run (main.c) installs for the whole run; every phase polls it.
extern volatile sig_atomic_t mcrt_signal;
// The phases a signal stops are over (main.c): what follows (exports, the
// replay of the trace) calls C again, calls that returned before, so a
// signal no longer abandons a call of C (watchdog.c).
extern _Atomic bool mcrt_search_over;
// "SIGINT", "SIGTERM", "SIGHUP", "a signal".
const char *mcrt_signal_name(int sig);
// Test hook: waits for a signal at PHASE when MCRT_TEST_PAUSE=PHASE.
void mcrt_test_pause(const char *phase);
// n bytes to or from fd in large calls, fed to hash (NULL: none); false with
// errno set (0: the file ended early).
bool mcrt_write_hashed(int fd, const void *p, size_t n, XXH3_state_t *hash);
bool mcrt_read_hashed(int fd, void *p, size_t n, XXH3_state_t *hash);
// The search engine mcrt_run (main.c) uses: search.c's serial search unless
// another one (mpi.c) is installed before mcrt_run. Any hook but search may
// be NULL (search: mcrt_search). Defined in core.c, at the bottom, so that
// every layer may call its hooks.
typedef struct McrtEngine {
  void (*search)(McrtCtx *ctx); // runs the search
  // After the options are read: -1 to go on, else an exit code (after a
  // message on err): what this engine cannot do.
  int (*check)(const McrtModel *model, const McrtOptions *opt, FILE *err);
  void (*free_run)(McrtCtx *ctx);                // before the context is freed
  void (*summary)(FILE *f, const McrtCtx *ctx);  // lines after the summary
  void (*report)(FILE *f, const McrtCtx *ctx);   // fields added to the JSON report
  bool silent; // this process writes no report file (another one reports)
} McrtEngine;
extern McrtEngine mcrt_engine;

#endif
