// SPDX-License-Identifier: MIT
// Unit tests of the checker's command line (runtime/core/options.c).
#include <criterion/criterion.h>
#include <sched.h>
#include <unistd.h>

#include "context/context.h"

static const McrtModel model = {.abi_version = MCRT_ABI_VERSION, .name = "m",
                                .source_file = "m.mc", .mcgen_version = "0.1"};

static int parse(McrtOptions *o, char *out, size_t outn, const char *args) {
  static char buf[512]; // argv points into it after the call
  char *argv[32] = {"m_checker"};
  int argc = 1;
  snprintf(buf, sizeof buf, "%s", args);
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
    argv[argc++] = t;
  FILE *f = fmemopen(out, outn, "w");
  int code = mcrt_parse_options(o, &model, argc, argv, f, f);
  fclose(f);
  return code;
}

Test(options, defaults) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1);
  cr_assert_eq(o.max_states, MCRT_UNLIMITED);
  cr_assert_eq(o.fingerprint_bits, 64);
  cr_assert(o.deadlock);
  cr_assert_eq(o.progress_s, 10);
  cr_assert_eq(o.extern_timeout_s, 10);
  cr_assert(!o.quiet);
}

// --extern-timeout SECONDS: fractions allowed, 0 no limit (watchdog.c).
Test(options, extern_timeout) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, "--extern-timeout 0.25"), -1, "%s", out);
  cr_assert_eq(o.extern_timeout_s, 0.25);
  cr_assert_eq(parse(&o, out, sizeof out, "--extern-timeout=0"), -1, "%s", out);
  cr_assert_eq(o.extern_timeout_s, 0);
  const char *bad[] = {"--extern-timeout -1", "--extern-timeout x", "--extern-timeout 1e99",
                       "--extern-timeout +1", "--extern-timeout"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_assert_eq(parse(&o, out, sizeof out, bad[i]), MCRT_EXIT_USAGE, "%s", bad[i]);
}

Test(options, values) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out,
                     "--max-states 100 --max-steps=5 --max-depth 0 --memory 512M "
                     "--fingerprint 128 --no-deadlock --liveness off --trace-format json "
                     "--report r.json --progress 0.5 --quiet --threads 1 --symmetry off"),
               -1, "%s", out);
  cr_assert_eq(o.max_states, 100);
  cr_assert_eq(o.max_steps, 5);
  cr_assert_eq(o.max_depth, 0);
  cr_assert_eq(o.memory, UINT64_C(512) << 20);
  cr_assert_eq(o.fingerprint_bits, 128);
  cr_assert(!o.deadlock);
  cr_assert_eq(o.liveness, MCRT_LIVENESS_OFF);
  cr_assert(o.trace_json);
  cr_assert_str_eq(o.report_file, "r.json");
  cr_assert_eq(o.progress_s, 0.5);
  cr_assert(o.quiet);
  cr_assert_eq(o.symmetry, MCRT_SYM_OFF);
}

Test(options, sizes) {
  uint64_t b;
  cr_assert(mcrt_parse_size("4G", &b) && b == UINT64_C(4) << 30);
  cr_assert(mcrt_parse_size("100", &b) && b == 100);
  cr_assert(mcrt_parse_size("2KiB", &b) && b == 2048);
  cr_assert(mcrt_parse_size("3MB", &b) && b == UINT64_C(3) << 20);
  cr_assert(!mcrt_parse_size("", &b));
  cr_assert(!mcrt_parse_size("-1G", &b));
  cr_assert(!mcrt_parse_size("4X", &b));
  cr_assert(!mcrt_parse_size("99999999999T", &b));
}

Test(options, usage_errors) {
  McrtOptions o;
  char out[4096];
  const char *bad[] = {"--frobnicate", "--max-states", "--max-states x", "--max-states -3",
                       "--fingerprint 32", "--memory 0", "--trace-format xml", "stray",
                       "--quiet=1", "--threads 0", "--progress -1", "--liveness maybe",
                       "--liveness-engine tarjan", "--liveness-engine"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    memset(out, 0, sizeof out);
    cr_assert_eq(parse(&o, out, sizeof out, bad[i]), MCRT_EXIT_USAGE, "%s", bad[i]);
    cr_assert_neq(out[0], 0, "no message for %s", bad[i]);
  }
}

// --liveness-engine: parallel by default, serial the reference.
Test(options, liveness_engine) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1, "%s", out);
  cr_assert_eq(o.live_engine, MCRT_LIVE_ENGINE_PARALLEL);
  cr_assert_eq(parse(&o, out, sizeof out, "--liveness-engine serial"), -1, "%s", out);
  cr_assert_eq(o.live_engine, MCRT_LIVE_ENGINE_SERIAL);
  cr_assert_eq(parse(&o, out, sizeof out, "--liveness-engine=parallel"), -1, "%s", out);
  cr_assert_eq(o.live_engine, MCRT_LIVE_ENGINE_PARALLEL);
}

// --threads: 1 to 1024; the default is the cores online that the process
// may run on (its affinity: taskset, a batch scheduler's cpuset).
Test(options, threads) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, "--threads 4"), -1, "%s", out);
  cr_assert_eq(o.threads, 4);
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1, "%s", out);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t mine;
  cr_assert_eq(sched_getaffinity(0, sizeof mine, &mine), 0);
  long allowed = CPU_COUNT(&mine) < cores ? CPU_COUNT(&mine) : cores;
  cr_assert_eq(o.threads, (uint64_t)(allowed > 0 ? allowed : 1));
  // Pinned to one core (this test runs in a process of its own): 1.
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET(c, &mine)) {
      CPU_SET(c, &one);
      break;
    }
  cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1, "%s", out);
  cr_assert_eq(o.threads, 1);
  cr_assert_eq(sched_setaffinity(0, sizeof mine, &mine), 0);
  const char *bad[] = {"--threads 0", "--threads abc", "--threads 1025", "--threads=\t2",
                       "--threads +2"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    memset(out, 0, sizeof out);
    cr_assert_eq(parse(&o, out, sizeof out, bad[i]), MCRT_EXIT_USAGE, "%s", bad[i]);
    cr_assert(strstr(out, "a number of threads from 1 to 1024"), "%s: %s", bad[i], out);
  }
}

// --order: free by default (issue 11: the fixed trace costs more than 10% of
// the speed); fixed on request.
Test(options, order) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1, "%s", out);
  cr_assert(o.order_free);
  cr_assert_eq(parse(&o, out, sizeof out, "--order fixed"), -1, "%s", out);
  cr_assert(!o.order_free);
  cr_assert_eq(parse(&o, out, sizeof out, "--order=free"), -1, "%s", out);
  cr_assert(o.order_free);
  cr_assert_eq(parse(&o, out, sizeof out, "--order any"), MCRT_EXIT_USAGE);
  cr_assert(strstr(out, "bad value 'any' for --order (expected fixed or free)"), "%s", out);
}

// --liveness on is accepted (the refusal of --symmetry on with liveness
// needs the model: runtime/main.c, tested in tests/cli).
Test(options, liveness_on) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, "--liveness on"), -1, "%s", out);
  cr_assert_eq(o.liveness, MCRT_LIVENESS_ON);
  cr_assert_eq(parse(&o, out, sizeof out, "--liveness on --symmetry off"), -1, "%s", out);
  cr_assert_eq(o.symmetry, MCRT_SYM_OFF);
}

Test(options, symmetry) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1);
  cr_assert_eq(o.symmetry, MCRT_SYM_DEFAULT);
  cr_assert_eq(o.sym_method, MCRT_SYM_METHOD_AUTO);
  cr_assert_eq(parse(&o, out, sizeof out, "--symmetry on --symmetry-method exhaustive"), -1);
  cr_assert_eq(o.symmetry, MCRT_SYM_ON);
  cr_assert_eq(o.sym_method, MCRT_SYM_METHOD_EXHAUSTIVE);
  cr_assert_eq(parse(&o, out, sizeof out, "--symmetry=verify --symmetry-method=sorted"), -1);
  cr_assert_eq(o.symmetry, MCRT_SYM_VERIFY);
  cr_assert_eq(o.sym_method, MCRT_SYM_METHOD_SORTED);
  cr_assert_eq(parse(&o, out, sizeof out, "--symmetry-method fast"), MCRT_EXIT_USAGE);
  cr_assert(strstr(out, "auto, exhaustive or sorted"), "%s", out);
}

// --por: auto by default, which main.c resolves with mcrt_por_unfit (on for
// the safety search, off with the reason elsewhere); on and off as given.
Test(options, por) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1);
  cr_assert_eq(o.por_mode, MCRT_POR_AUTO);
  cr_assert(!o.por); // not before main.c decides
  cr_assert_eq(parse(&o, out, sizeof out, "--por on"), -1);
  cr_assert_eq(o.por_mode, MCRT_POR_ON);
  cr_assert(o.por);
  cr_assert_eq(parse(&o, out, sizeof out, "--por=off"), -1);
  cr_assert_eq(o.por_mode, MCRT_POR_OFF);
  cr_assert(!o.por);
  cr_assert_eq(parse(&o, out, sizeof out, "--por on --por auto"), -1);
  cr_assert_eq(o.por_mode, MCRT_POR_AUTO);
  cr_assert(!o.por);
  cr_assert_eq(parse(&o, out, sizeof out, "--por yes"), MCRT_EXIT_USAGE);
  cr_assert(strstr(out, "auto, on or off"), "%s", out);
  memset(out, 0, sizeof out);
  cr_assert_eq(parse(&o, out, sizeof out, "--help"), 0);
  cr_assert(strstr(out, "--por auto|on|off"), "%s", out);
  cr_assert(strstr(out, "default auto"), "%s", out);
}

// Where the default reduces: a model with dependency tables and nothing
// else in the way; the first reason that applies otherwise.
Test(options, por_unfit) {
  static const McrtDeps deps; // only its presence is read
  McrtModel m = model;
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1);
  cr_assert_str_eq(mcrt_por_unfit(&m, &o), "the checker has no dependency tables");
  m.deps = &deps;
  cr_assert_null(mcrt_por_unfit(&m, &o));
  static const struct {
    const char *args, *why;
  } cases[] = {
      {"--liveness on", "liveness properties are checked"},
      {"--search odpor", "--search odpor"},
      {"--max-depth 3", "--max-depth bounds the search"},
      {"--simulate 2", "--simulate"},
      {"--graph g.json", "--graph, --dot and --tests export the whole graph"},
      {"--dot g.dot", "--graph, --dot and --tests export the whole graph"},
      {"--tests t.json", "--graph, --dot and --tests export the whole graph"},
      {"--checkpoint dir", "--checkpoint"},
      {"--resume dir", "--resume"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cr_assert_eq(parse(&o, out, sizeof out, cases[i].args), -1, "%s: %s", cases[i].args, out);
    const char *why = mcrt_por_unfit(&m, &o);
    cr_assert(why && !strcmp(why, cases[i].why), "%s: %s", cases[i].args, why ? why : "(fits)");
  }
}

Test(options, help_and_version) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, "--help"), 0);
  cr_assert(strstr(out, "usage: m_checker"));
  memset(out, 0, sizeof out);
  cr_assert_eq(parse(&o, out, sizeof out, "--version"), 0);
  cr_assert(strstr(out, "mcgen 0.1"));
}

Test(options, search) {
  McrtOptions o;
  char out[4096] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, ""), -1);
  cr_assert_eq(o.search, MCRT_SEARCH_BFS);
  cr_assert(!o.threads_given);
  cr_assert_eq(parse(&o, out, sizeof out, "--search odpor --threads 2"), -1, "%s", out);
  cr_assert_eq(o.search, MCRT_SEARCH_ODPOR);
  cr_assert(o.threads_given);
  cr_assert_eq(parse(&o, out, sizeof out, "--search=bfs"), -1, "%s", out);
  cr_assert_eq(o.search, MCRT_SEARCH_BFS);
  cr_assert_eq(parse(&o, out, sizeof out, "--search dfs"), MCRT_EXIT_USAGE);
  cr_assert(strstr(out, "bad value 'dfs' for --search (expected bfs or odpor)"), "%s", out);
}

// The short forms of the common options: -t threads, -m memory, -q, -o
// (the report), -h; a value glued to its letter; flags combined.
Test(options, short_forms) {
  McrtOptions o;
  char out[8192] = {0};
  cr_assert_eq(parse(&o, out, sizeof out, "-t 3 -m 1G -q -o r.json"), -1, "%s", out);
  cr_assert_eq(o.threads, 3);
  cr_assert(o.threads_given);
  cr_assert_eq(o.memory, UINT64_C(1) << 30);
  cr_assert(o.quiet);
  cr_assert_str_eq(o.report_file, "r.json");
  cr_assert_eq(parse(&o, out, sizeof out, "-t2 -qo r2.json"), -1, "%s", out);
  cr_assert_eq(o.threads, 2);
  cr_assert(o.quiet);
  cr_assert_str_eq(o.report_file, "r2.json");
  cr_assert_eq(parse(&o, out, sizeof out, "-h"), 0);
  cr_assert(strstr(out, "-t, --threads N"), "%s", out);
  const char *bad[] = {"-t", "-t0", "-x", "-qx", "-", "-o", "-o -q"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    memset(out, 0, sizeof out);
    cr_assert_eq(parse(&o, out, sizeof out, bad[i]), MCRT_EXIT_USAGE, "%s", bad[i]);
    cr_assert_neq(out[0], 0, "no message for %s", bad[i]);
  }
  memset(out, 0, sizeof out);
  cr_assert_eq(parse(&o, out, sizeof out, "-qx"), MCRT_EXIT_USAGE);
  cr_assert(strstr(out, "unknown option '-x'"), "%s", out);
}

// A misspelt long option names the nearest one; nothing is suggested for a
// name far from every option.
Test(options, did_you_mean) {
  McrtOptions o;
  char out[4096];
  static const struct {
    const char *args, *hint;
  } cases[] = {
      {"--max-state 3", "did you mean --max-states?"},
      {"--thread 2", "did you mean --threads?"},
      {"--symetry on", "did you mean --symmetry?"},
      {"--no-deadlocks", "did you mean --no-deadlock?"},
      {"--qiuet", "did you mean --quiet?"},
      {"--trace-fmt json", "did you mean --trace-format?"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    memset(out, 0, sizeof out);
    cr_assert_eq(parse(&o, out, sizeof out, cases[i].args), MCRT_EXIT_USAGE, "%s", cases[i].args);
    cr_assert(strstr(out, cases[i].hint), "%s: %s", cases[i].args, out);
  }
  memset(out, 0, sizeof out);
  cr_assert_eq(parse(&o, out, sizeof out, "--frobnicate"), MCRT_EXIT_USAGE);
  cr_assert(strstr(out, "unknown option '--frobnicate' (try --help)"), "%s", out);
}

// mpi.c's default --threads asks whether the option was given, in either
// form, without taking a value for an option.
Test(options, option_given) {
  char *a[] = {"m", "-qt4", NULL}, *b[] = {"m", "--report", "--threads=x", NULL},
       *c[] = {"m", "--threads=2", NULL}, *d[] = {"m", "-o", "-t", NULL}, *e[] = {"m", "-q", NULL};
  cr_assert(mcrt_option_given(2, a, "threads"));
  cr_assert(!mcrt_option_given(3, b, "threads")); // --report's value
  cr_assert(mcrt_option_given(2, c, "threads"));
  cr_assert(!mcrt_option_given(3, d, "threads")); // -o's value
  cr_assert(!mcrt_option_given(2, e, "threads"));
}
