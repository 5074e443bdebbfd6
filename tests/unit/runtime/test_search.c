// SPDX-License-Identifier: MIT
// Unit tests of the search (runtime/engine/search.c) and the run as a whole
// (options, trace, summary, report), on hand-written models that implement
// McrtModel the way generated code does.
#include <criterion/criterion.h>

#include "main.h"

#include <signal.h>
#include <stdarg.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// The counter: var x: 0..9 (bits 0-3); init start { x = 0 };
//   action inc when x < 9 { x = x + 1 }            rule 0
//   action reset(to: 0..1) when x == 9 { x = to }  rules 1, 2
//   invariant small: x != bad_at;  reachable top: x == 9
// Knobs let each test switch on a failure.

static int bad_at = -1;         // invariant fails at x == bad_at
static int div0_at = -1;        // inc fails with a run-time error at x == div0_at
static int assert_at = -1;      // inc fails an assert at x == assert_at
static bool no_reset;           // reset never enabled: x == 9 deadlocks
static bool terminal_at_9;      // terminal: x == 9
static int reach_value = 9;     // reachable top: x == reach_value
static int constraint_below = 100; // constraint: x < constraint_below
static int inv_error_at = -1;   // the invariant fails with a run-time error at x == inv_error_at
static int sigint_at = -1;      // successors raise SIGINT at x == sigint_at

static const McrtType t_x = {.kind = MCRT_RANGE, .width = 4, .card = 10, .lo = 0};
static const McrtType t_to = {.kind = MCRT_RANGE, .width = 1, .card = 2, .lo = 0};
static const McrtVar c_vars[] = {{"x", &t_x, 0}};
static const McrtParam c_reset_params[] = {{"to", &t_to}};
static const McrtRuleGroup c_inits[] = {{.name = "start", .first_rule = 0, .nbindings = 1}};
static const McrtRuleGroup c_actions[] = {
    {.name = "inc", .first_rule = 0, .nbindings = 1, .file = "counter.mc", .line = 4},
    {.name = "reset", .nparams = 1, .params = c_reset_params, .first_rule = 1, .nbindings = 2},
};
static const McrtPredicate c_invariants[] = {{"small", "counter.mc", 9}};
static const McrtPredicate c_reachables[] = {{"top", "counter.mc", 10}};
static const McrtPredicate c_properties[] = {{"progress", "counter.mc", 11}};

static void c_initial_states(McrtCtx *ctx) {
  uint8_t s[1 + MCRT_SLACK] = {0};
  mcrt_emit_initial(ctx, s, 0);
}

static bool c_apply_init(McrtCtx *ctx, uint64_t rule, uint8_t *out) {
  (void)ctx;
  cr_assert_eq(rule, 0);
  out[0] = 0;
  return true;
}

static bool c_apply_rule(McrtCtx *ctx, uint64_t rule, const uint8_t *in, uint8_t *out) {
  uint64_t x = mcrt_get(in, 0, 4);
  out[0] = in[0];
  if (rule == 0) {
    if (!(x < 9))
      return false;
    if ((int)x == div0_at) {
      mcrt_runtime_error(ctx, "counter.mc", 5, 11, "division by zero");
      return false;
    }
    if ((int)x == assert_at) {
      mcrt_assert_failed(ctx, "counter.mc", 6, 3, "x stays small");
      return false;
    }
    mcrt_set(out, 0, 4, x + 1);
    return true;
  }
  if (!(x == 9) || no_reset)
    return false;
  mcrt_set(out, 0, 4, rule - 1);
  return true;
}

static void c_successors(McrtCtx *ctx, const uint8_t *state) {
  uint8_t out[1 + MCRT_SLACK];
  if ((int)mcrt_get(state, 0, 4) == sigint_at)
    raise(SIGINT);
  for (uint64_t r = 0; r < 3; r++) {
    memset(out, 0, sizeof out);
    if (c_apply_rule(ctx, r, state, out)) {
      if (mcrt_emit_successor(ctx, out, r == 0 ? 0 : 1, r))
        return;
    } else if (mcrt_failed(ctx)) {
      mcrt_failed_in_rule(ctx, false, r);
      return;
    }
  }
}

static int c_check_invariants(McrtCtx *ctx, const uint8_t *s) {
  if ((int)mcrt_get(s, 0, 4) == inv_error_at) {
    mcrt_runtime_error(ctx, "counter.mc", 9, 20, "index %d out of range", 12);
    return -1;
  }
  return (int)mcrt_get(s, 0, 4) == bad_at ? 0 : -1;
}
static bool c_check_reachable(McrtCtx *ctx, uint32_t i, const uint8_t *s) {
  (void)ctx, (void)i;
  return (int)mcrt_get(s, 0, 4) == reach_value;
}
static bool c_is_terminal(McrtCtx *ctx, const uint8_t *s) {
  (void)ctx;
  return terminal_at_9 && mcrt_get(s, 0, 4) == 9;
}
static bool c_within(McrtCtx *ctx, const uint8_t *s) {
  (void)ctx;
  return (int)mcrt_get(s, 0, 4) < constraint_below;
}

static McrtModel counter = {
    .abi_version = MCRT_ABI_VERSION, .name = "counter", .source_file = "counter.mc",
    .mcgen_version = "test", .state_bits = 4, .state_bytes = 1, .nvars = 1, .vars = c_vars,
    .ninits = 1, .inits = c_inits, .ninit_rules = 1, .nactions = 2, .actions = c_actions,
    .nrules = 3, .ninvariants = 1, .invariants = c_invariants, .nreachables = 1,
    .reachables = c_reachables, .has_terminal = true, .has_constraint = true,
    .initial_states = c_initial_states, .successors = c_successors, .apply_init = c_apply_init,
    .apply_rule = c_apply_rule, .check_invariants = c_check_invariants,
    .check_reachable = c_check_reachable, .is_terminal = c_is_terminal,
    .within_constraints = c_within,
};

// Runs a model with arguments (space-separated); captures stdout and stderr.
static char out[1 << 16], err[1 << 16];

// run(MODEL, FORMAT, ...): the checker's command line, printf-style.
static int run(const McrtModel *m, const char *format, ...) {
  char args[960], buf[1024];
  char *argv[64] = {"checker"};
  int argc = 1;
  va_list ap;
  va_start(ap, format);
  vsnprintf(args, sizeof args, format, ap);
  va_end(ap);
  // No trail in the directory the tests run from, unless a test asks.
  bool trail = strstr(args, "--trail") || strstr(args, "--replay");
  snprintf(buf, sizeof buf, "%s --progress 0%s", args, trail ? "" : " --no-trail");
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
    argv[argc++] = t;
  memset(out, 0, sizeof out);
  memset(err, 0, sizeof err);
  FILE *fo = fmemopen(out, sizeof out - 1, "w"), *fe = fmemopen(err, sizeof err - 1, "w");
  int code = mcrt_run(m, argc, argv, fo, fe);
  fclose(fo);
  fclose(fe);
  return code;
}

#define HAS(s) cr_assert(strstr(out, s), "missing [%s] in:\n%s\n%s", s, out, err)

// tmp(NAME): a path under /tmp of this test's own process (Criterion runs
// each test in a process of its own), so that two runs of the unit tests at
// once, in two checkouts, never read each other's reports. Four at a time.
static const char *tmp(const char *name) {
  static char paths[4][96];
  static unsigned next;
  char *p = paths[next++ % 4];
  snprintf(p, sizeof paths[0], "/tmp/mcrt_test_%ld_%s", (long)getpid(), name);
  return p;
}

static char *slurp(const char *path) {
  static char text[1 << 16];
  FILE *f = fopen(path, "r");
  cr_assert(f);
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  return text;
}

Test(search, counter_ok_counts) {
  cr_assert_eq(run(&counter, ""), MCRT_EXIT_OK, "%s%s", out, err);
  HAS("result: ok: no violations");
  HAS("states:        10 distinct");
  HAS("transitions:   11 ");
  HAS("depth:         9 (initial states are at depth 0: 10 BFS levels)");
  HAS("deadlocks:     0 (states without successors where no terminal predicate holds)");
  HAS("  inc   9\n");
  HAS("  reset 2\n");
  HAS("reachable top: reached");
  cr_assert(!strstr(out, "never enabled"));
}

// The threaded search gives the serial one's counts (the counter: 10
// states, 11 transitions, depth 9; see counter_ok_counts).
Test(search, counter_threads) {
  for (int t = 2; t <= 4; t++) {
    char args[32];
    snprintf(args, sizeof args, "--threads %d", t);
    cr_assert_eq(run(&counter, args), MCRT_EXIT_OK, "%s: %s%s", args, out, err);
    HAS("states:        10 distinct");
    HAS("transitions:   11 ");
    HAS("depth:         9 ");
  }
}

Test(search, counter_fingerprint_128) {
  cr_assert_eq(run(&counter, "--fingerprint 128"), MCRT_EXIT_OK);
  HAS("states:        10 distinct");
  HAS("fingerprints:  128 bits");
}

Test(search, invariant_violation_trace) {
  bad_at = 3;
  cr_assert_eq(run(&counter, ""), MCRT_EXIT_VIOLATION);
  HAS("violation: invariant 'small' does not hold (counter.mc:9)\n"
      "0 init start\n"
      "    x = 0\n"
      "1 inc\n"
      "    x = 1\n"
      "2 inc\n"
      "    x = 2\n"
      "3 inc\n"
      "    x = 3\n"
      "result: violation: invariant 'small' does not hold (counter.mc:9)\n");
  HAS("states:        4 distinct");
}

Test(search, invariant_in_initial_state) {
  bad_at = 0;
  cr_assert_eq(run(&counter, "--quiet"), MCRT_EXIT_VIOLATION);
  cr_assert_str_eq(out, "violation: invariant 'small' does not hold (counter.mc:9)\n"
                        "0 init start\n"
                        "    x = 0\n"
                        "result: violation: invariant 'small' does not hold (counter.mc:9)\n");
}

Test(search, parameterised_step_in_trace) {
  bad_at = 1;
  // Reach x == 1 only through reset(to=1): start inc at 9 is the only path?
  // No: inc reaches 1 first (BFS), so the trace is init, inc.
  cr_assert_eq(run(&counter, "--quiet"), MCRT_EXIT_VIOLATION);
  HAS("1 inc\n    x = 1\n");
}

Test(search, deadlock) {
  no_reset = true;
  terminal_at_9 = false;
  cr_assert_eq(run(&counter, ""), MCRT_EXIT_VIOLATION);
  HAS("violation: deadlock: no action is enabled and no terminal predicate holds\n");
  HAS("9 inc\n    x = 9\n");
  HAS("deadlocks:     1 ");
  cr_assert_eq(run(&counter, "--no-deadlock"), MCRT_EXIT_OK);
  HAS("never enabled: reset");
  HAS("deadlocks:     1 (states without successors where no terminal predicate holds)");
  terminal_at_9 = true;
  cr_assert_eq(run(&counter, ""), MCRT_EXIT_OK);
  HAS("deadlocks:     0 ");
  cr_assert_eq(run(&counter, "--no-deadlock"), MCRT_EXIT_OK);
  HAS("deadlocks:     0 ");
}

// A state outside the constraints is not expanded: it is no deadlock.
Test(search, deadlock_not_counted_outside_constraints) {
  no_reset = true;
  terminal_at_9 = false;
  constraint_below = 5;
  reach_value = 5;
  cr_assert_eq(run(&counter, "--no-deadlock"), MCRT_EXIT_OK, "%s%s", out, err);
  HAS("states:        6 distinct");
  HAS("deadlocks:     0 ");
}

Test(search, runtime_error_in_step) {
  div0_at = 4;
  cr_assert_eq(run(&counter, "--report %s", tmp("rt.json")), MCRT_EXIT_VIOLATION);
  HAS("violation: run-time error: division by zero (counter.mc:5:11)\n");
  HAS("4 inc\n    x = 4\n5 inc\n    error: division by zero (counter.mc:5:11)\n");
  const char *j = slurp(tmp("rt.json"));
  cr_assert(strstr(j, "\"kind\": \"runtime-error\""), "%s", j);
  cr_assert(strstr(j, "\"state\": null, \"error\": \"division by zero\""), "%s", j);
  cr_assert(strstr(j, "\"verdict\": \"violation\""), "%s", j);
  remove(tmp("rt.json"));
}

Test(search, assert_in_step) {
  assert_at = 0;
  cr_assert_eq(run(&counter, "--quiet"), MCRT_EXIT_VIOLATION);
  HAS("violation: assert failed: x stays small (counter.mc:6:3)\n0 init start\n    x = 0\n"
      "1 inc\n    assert failed: x stays small");
}

Test(search, error_in_invariant_is_the_states) {
  inv_error_at = 2;
  cr_assert_eq(run(&counter, "--quiet"), MCRT_EXIT_VIOLATION);
  cr_assert_str_eq(out, "violation: run-time error: index 12 out of range (counter.mc:9:20)\n"
                        "0 init start\n    x = 0\n1 inc\n    x = 1\n2 inc\n    x = 2\n"
                        "result: violation: run-time error: index 12 out of range "
                        "(counter.mc:9:20)\n");
}

Test(search, interrupted) {
  sigint_at = 3;
  cr_assert_eq(run(&counter, "--report %s", tmp("int.json")), MCRT_EXIT_INCOMPLETE);
  HAS("result: incomplete: the search was interrupted");
  const char *j = slurp(tmp("int.json"));
  cr_assert(strstr(j, "\"bound_hit\": \"interrupted\""), "%s", j);
  remove(tmp("int.json"));
}

Test(search, reachable_never) {
  reach_value = 12; // outside the range: never holds
  cr_assert_eq(run(&counter, ""), MCRT_EXIT_VIOLATION);
  HAS("result: violation: reachable 'top' holds in no reachable state");
  // A bounded run does not claim it.
  cr_assert_eq(run(&counter, "--max-depth 3"), MCRT_EXIT_INCOMPLETE);
}

Test(search, bound_max_states) {
  cr_assert_eq(run(&counter, "--max-states 5 --report %s", tmp("ms.json")),
               MCRT_EXIT_INCOMPLETE);
  HAS("result: incomplete: --max-states 5 was reached");
  HAS("states:        5 distinct");
  const char *j = slurp(tmp("ms.json"));
  cr_assert(strstr(j, "\"bound_hit\": \"max-states\""), "%s", j);
  cr_assert(strstr(j, "\"verdict\": \"incomplete\""), "%s", j);
  remove(tmp("ms.json"));
  // Exactly the number of states: complete.
  cr_assert_eq(run(&counter, "--max-states 10"), MCRT_EXIT_OK);
}

Test(search, bound_max_steps) {
  cr_assert_eq(run(&counter, "--max-steps 4"), MCRT_EXIT_INCOMPLETE);
  HAS("--max-steps 4 was reached");
  HAS("transitions:   4 ");
  cr_assert_eq(run(&counter, "--max-steps 11"), MCRT_EXIT_OK);
}

Test(search, bound_max_depth) {
  cr_assert_eq(run(&counter, "--max-depth 4"), MCRT_EXIT_INCOMPLETE);
  HAS("--max-depth 4 was reached");
  HAS("states:        5 distinct");
  HAS("depth:         4 ");
  // At depth 9 every successor (reset to 0 or 1) is already known: complete,
  // so the two resets of x = 9 count as transitions.
  cr_assert_eq(run(&counter, "--max-depth 9"), MCRT_EXIT_OK);
  HAS("transitions:   11 ");
  // At depth 4 the bound hides x = 5: the inc of x = 4 is not a
  // transition, only those of x = 0..3 are.
  cr_assert_eq(run(&counter, "--max-depth 4"), MCRT_EXIT_INCOMPLETE);
  HAS("transitions:   4 ");
  cr_assert_eq(run(&counter, "--max-depth 0"), MCRT_EXIT_INCOMPLETE);
  HAS("states:        1 distinct");
}

Test(search, constraint_stops_expansion) {
  constraint_below = 5; // x = 5 is reached but not expanded
  cr_assert_eq(run(&counter, ""), MCRT_EXIT_VIOLATION); // top never reached
  HAS("states:        6 distinct");
  reach_value = 5;
  cr_assert_eq(run(&counter, ""), MCRT_EXIT_OK);
}

// Liveness on the counter: its only cycles pass x == 9 (inc to 9, then
// reset to 0 or 1), so []<> x == 9 holds, and <>[] x == 9 fails on the
// cycle 0 -> 1 -> ... -> 9 -> reset(to=0) -> 0, which starts at the
// initial state (trace step 0) and takes 10 steps.
static McrtPropInstance c_instances[] = {{"progress", 0, MCRT_TEMP_ALWAYS_EVENTUALLY}};
static void c_property_bits(McrtCtx *ctx, const uint8_t *s, uint8_t *bits) {
  (void)ctx;
  if (mcrt_get(s, 0, 4) == 9)
    bits[0] |= 1;
}

Test(search, liveness) {
  McrtModel m = counter;
  m.nproperties = 1, m.properties = c_properties;
  m.ninstances = 1, m.instances = c_instances, m.property_bits = c_property_bits;
  c_instances[0].form = MCRT_TEMP_ALWAYS_EVENTUALLY;
  cr_assert_eq(run(&m, ""), MCRT_EXIT_OK, "%s", out);
  HAS("checked under fairness, all hold");
  cr_assert_eq(run(&m, "--max-states 5"), MCRT_EXIT_INCOMPLETE);
  HAS("no liveness verdict");
  HAS("not checked: the search stopped early");
  cr_assert_eq(run(&m, "--liveness off"), MCRT_EXIT_OK);
  HAS("1 liveness property was not checked (--liveness off)");
  HAS("skipped (--liveness off)");
  c_instances[0].form = MCRT_TEMP_EVENTUALLY_ALWAYS;
  cr_assert_eq(run(&m, ""), MCRT_EXIT_VIOLATION);
  HAS("violation: property 'progress' does not hold");
  HAS("---- loop starts here: the steps below return to state 0 ----");
  HAS("10 reset(to=0)\n    x = 0\n---- back to state 0");
  c_instances[0].form = MCRT_TEMP_ALWAYS_EVENTUALLY;
}

// A scalarset declared but absent from the state: nothing to reduce by.
Test(search, symmetry_without_scalarset_in_state) {
  McrtModel m = counter;
  m.nscalarsets = 1;
  cr_assert_eq(run(&m, ""), MCRT_EXIT_OK);
  cr_assert_eq(err[0], 0, "%s", err);
  HAS("symmetry:      none (no scalarset occurs in the state)");
  cr_assert_eq(run(&m, "--symmetry on"), MCRT_EXIT_OK);
  cr_assert_eq(run(&m, "--symmetry off"), MCRT_EXIT_OK);
  cr_assert_eq(err[0], 0, "%s", err);
}

Test(search, trace_json) {
  bad_at = 2;
  cr_assert_eq(run(&counter, "--quiet --trace-format json"), MCRT_EXIT_VIOLATION);
  HAS("{\"kind\": \"invariant\", \"name\": \"small\"");
  HAS("\"trace\": [{\"action\": \"start\", \"init\": true, \"rule\": 0, \"params\": {}, "
      "\"state\": {\"x\": 0}}, {\"action\": \"inc\", \"rule\": 0, \"params\": {}, \"state\": "
      "{\"x\": 1}}, {\"action\": \"inc\", \"rule\": 0, \"params\": {}, \"state\": {\"x\": 2}}], "
      "\"loop_start\": null}");
}

Test(search, report_ok) {
  cr_assert_eq(run(&counter, "--report %s --quiet", tmp("ok.json")), MCRT_EXIT_OK);
  cr_assert_str_eq(out, "result: ok: no violations, every property holds (exhaustive search)\n");
  const char *j = slurp(tmp("ok.json"));
  const char *want[] = {"\"model\": \"counter\"", "\"verdict\": \"ok\"", "\"states\": 10",
                        "\"transitions\": 11", "\"depth\": 9", "\"bound_hit\": null",
                        "\"violations\": []",
                        "\"inc\": {\"fired\": 9, \"enabled_ever\": true}",
                        "\"fingerprint_bits\": 64", "\"collision_probability\": ",
                        "\"fingerprint_set_bytes\": ", "\"fingerprint_set_bytes_per_state\": ",
                        "\"fingerprint_set_grow_s\": ",
                        "\"time_s\": ", "\"memory_bytes\": "};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    cr_assert(strstr(j, want[i]), "missing %s in %s", want[i], j);
  remove(tmp("ok.json"));
}

// --compact-set: the same answer from the compact fingerprint set.
Test(search, compact_set) {
  cr_assert_eq(run(&counter, "--compact-set --report %s --quiet", tmp("compact.json")),
               MCRT_EXIT_OK);
  const char *j = slurp(tmp("compact.json"));
  cr_assert(strstr(j, "\"states\": 10,"), "%s", j);
  cr_assert(strstr(j, "\"transitions\": 11,"), "%s", j);
  remove(tmp("compact.json"));
  // --checkpoint goes with it (tests/disk/run.sh kills and resumes such runs).
  cr_assert_eq(run(&counter, "--compact-set --checkpoint %s --report "
                             "%s --quiet", tmp("compact_ck"), tmp("compact.json")),
               MCRT_EXIT_OK, "%s", err);
  j = slurp(tmp("compact.json"));
  cr_assert(strstr(j, "\"states\": 10,"), "%s", j);
  remove(tmp("compact.json"));
  rmdir(tmp("compact_ck"));
  bad_at = 2;
  cr_assert_eq(run(&counter, "--compact-set"), MCRT_EXIT_VIOLATION);
}

Test(search, usage_exit_codes) {
  cr_assert_eq(run(&counter, "--bogus"), MCRT_EXIT_USAGE);
  cr_assert_eq(run(&counter, "--threads 0"), MCRT_EXIT_USAGE);
  cr_assert(strstr(err, "expected a number of threads from 1 to 1024"), "%s", err);
  cr_assert_eq(run(&counter, "--help"), MCRT_EXIT_OK);
  McrtModel m = counter;
  m.abi_version = 99;
  cr_assert_eq(run(&m, ""), MCRT_EXIT_USAGE);
}

// ---------------------------------------------------------------------------
// The grid: a, b: 0..1023 (20 bits, 3 bytes), actions incA, incB (mod 1024)
// and swap. 2^20 states, 3 * 2^20 transitions: growth of every structure.

static const McrtType t_10 = {.kind = MCRT_RANGE, .width = 10, .card = 1024};
static const McrtVar g_vars[] = {{"a", &t_10, 0}, {"b", &t_10, 10}};
static const McrtRuleGroup g_inits[] = {{.name = "zero", .first_rule = 0, .nbindings = 1}};
static const McrtRuleGroup g_actions[] = {
    {.name = "incA", .first_rule = 0, .nbindings = 1},
    {.name = "incB", .first_rule = 1, .nbindings = 1},
    {.name = "swap", .first_rule = 2, .nbindings = 1},
};
static const McrtPredicate g_invariants[] = {{"not_far", "grid.mc", 3}};
static int g_bad = -1;

static void g_initial_states(McrtCtx *ctx) {
  uint8_t s[3 + MCRT_SLACK] = {0};
  mcrt_emit_initial(ctx, s, 0);
}
static bool g_apply_init(McrtCtx *ctx, uint64_t rule, uint8_t *out) {
  (void)ctx, (void)rule;
  memset(out, 0, 3);
  return true;
}
static bool g_apply_rule(McrtCtx *ctx, uint64_t rule, const uint8_t *in, uint8_t *out) {
  (void)ctx;
  uint64_t a = mcrt_get(in, 0, 10), b = mcrt_get(in, 10, 10);
  memcpy(out, in, 3);
  if (rule == 0)
    mcrt_set(out, 0, 10, (a + 1) % 1024);
  else if (rule == 1)
    mcrt_set(out, 10, 10, (b + 1) % 1024);
  else
    mcrt_set(out, 0, 10, b), mcrt_set(out, 10, 10, a);
  return true;
}
static void g_successors(McrtCtx *ctx, const uint8_t *state) {
  uint8_t next[3 + MCRT_SLACK] = {0};
  for (uint32_t r = 0; r < 3; r++) {
    g_apply_rule(ctx, r, state, next);
    if (mcrt_emit_successor(ctx, next, r, r))
      return;
  }
}
static int g_check_invariants(McrtCtx *ctx, const uint8_t *s) {
  (void)ctx;
  return (int)(mcrt_get(s, 0, 10) + mcrt_get(s, 10, 10)) == g_bad ? 0 : -1;
}

static McrtModel grid = {
    .abi_version = MCRT_ABI_VERSION, .name = "grid", .source_file = "grid.mc",
    .mcgen_version = "test", .state_bits = 20, .state_bytes = 3, .nvars = 2, .vars = g_vars,
    .ninits = 1, .inits = g_inits, .ninit_rules = 1, .nactions = 3, .actions = g_actions,
    .nrules = 3, .ninvariants = 1, .invariants = g_invariants,
    .initial_states = g_initial_states, .successors = g_successors, .apply_init = g_apply_init,
    .apply_rule = g_apply_rule, .check_invariants = g_check_invariants,
};

Test(search, grid_million_states) {
  cr_assert_eq(run(&grid, ""), MCRT_EXIT_OK, "%s%s", out, err);
  HAS("states:        1048576 distinct");
  HAS("transitions:   3145728 ");
  HAS("depth:         2046 "); // to (1023, 1023)
  HAS("  incA 1048576\n");
}

Test(search, grid_128_and_long_trace) {
  g_bad = 1500;
  cr_assert_eq(run(&grid, "--fingerprint 128 --quiet"), MCRT_EXIT_VIOLATION);
  // The shortest path to a + b == 1500 has 1500 steps (BFS).
  HAS("1500 inc");
}

// Batched insertion must not change what an unbatched search reports: the
// step bound and the first violation land on the same transition.
Test(search, grid_exact_counts_under_bounds) {
  for (uint64_t k = 1; k < 40; k++) {
    char args[64];
    snprintf(args, sizeof args, "--max-steps %llu", (unsigned long long)k);
    cr_assert_eq(run(&grid, args), MCRT_EXIT_INCOMPLETE);
    // States: 1 initial + one per transition that found a new state; in
    // this grid the first transitions from (0,0): (1,0) new, (0,1) new,
    // swap (0,0) old, ...
    char want[64];
    snprintf(want, sizeof want, "transitions:   %llu ", (unsigned long long)k);
    HAS(want);
  }
  // Of the shortest traces to a + b == 3, the serial order's (incA first):
  // --order fixed, where the default free order may give another.
  g_bad = 3;
  cr_assert_eq(run(&grid, "--quiet --order fixed"), MCRT_EXIT_VIOLATION);
  HAS("3 incA\n    a = 3\nresult");
}

Test(search, grid_memory_bound) {
  cr_assert_eq(run(&grid, "--memory 4M"), MCRT_EXIT_INCOMPLETE);
  HAS("result: incomplete: the --memory limit of 4.0 MiB was reached");
}

// ---------------------------------------------------------------------------
// The tree: n: 0..15 (4 bits); init n = 0; action left: n -> 2n+1, action
// right: n -> 2n+2, both when the child is under 15; action join: 3 -> 9
// (a second path to a leaf). By hand: 15 states (0..14), 15 transitions (14
// tree edges and the join), leaves 7..14 are the 8 deadlocks (9 counted
// once though reached twice), depth 3 (0; 1-2; 3-6; 7-14), so 4 BFS levels.

static const McrtType t_n = {.kind = MCRT_RANGE, .width = 4, .card = 16, .lo = 0};
static const McrtVar t_vars[] = {{"n", &t_n, 0}};
static const McrtRuleGroup t_inits[] = {{.name = "root", .first_rule = 0, .nbindings = 1}};
static const McrtRuleGroup t_actions[] = {
    {.name = "left", .first_rule = 0, .nbindings = 1},
    {.name = "right", .first_rule = 1, .nbindings = 1},
    {.name = "join", .first_rule = 2, .nbindings = 1},
};

static void t_initial_states(McrtCtx *ctx) {
  uint8_t s[1 + MCRT_SLACK] = {0};
  mcrt_emit_initial(ctx, s, 0);
}
static bool t_apply_init(McrtCtx *ctx, uint64_t rule, uint8_t *out) {
  (void)ctx, (void)rule;
  out[0] = 0;
  return true;
}
// The child of n by rule r, or -1 when r is not enabled.
static int t_child(uint64_t n, uint64_t r) {
  if (r == 2)
    return n == 3 ? 9 : -1;
  uint64_t c = 2 * n + 1 + r;
  return c < 15 ? (int)c : -1;
}
static bool t_apply_rule(McrtCtx *ctx, uint64_t rule, const uint8_t *in, uint8_t *out) {
  (void)ctx;
  int c = t_child(mcrt_get(in, 0, 4), rule);
  out[0] = 0;
  if (c < 0)
    return false;
  mcrt_set(out, 0, 4, (uint64_t)c);
  return true;
}
static void t_successors(McrtCtx *ctx, const uint8_t *state) {
  uint8_t next[1 + MCRT_SLACK];
  for (uint32_t r = 0; r < 3; r++)
    if (t_apply_rule(ctx, r, state, next) && mcrt_emit_successor(ctx, next, r, r))
      return;
}

static McrtModel tree = {
    .abi_version = MCRT_ABI_VERSION, .name = "tree", .source_file = "tree.mc",
    .mcgen_version = "test", .state_bits = 4, .state_bytes = 1, .nvars = 1, .vars = t_vars,
    .ninits = 1, .inits = t_inits, .ninit_rules = 1, .nactions = 3, .actions = t_actions,
    .nrules = 3, .initial_states = t_initial_states, .successors = t_successors,
    .apply_init = t_apply_init, .apply_rule = t_apply_rule,
};

Test(search, tree_deadlocks_and_levels) {
  cr_assert_eq(run(&tree, "--no-deadlock --report %s", tmp("tree.json")), MCRT_EXIT_OK,
               "%s%s", out, err);
  HAS("states:        15 distinct");
  HAS("transitions:   15 ");
  HAS("depth:         3 (initial states are at depth 0: 4 BFS levels)");
  HAS("deadlocks:     8 (states without successors)\n");
  const char *j = slurp(tmp("tree.json"));
  cr_assert(strstr(j, "\"depth\": 3, "), "%s", j);
  cr_assert(strstr(j, "\"bfs_levels\": 4, \"deadlocks\": 8"), "%s", j);
  remove(tmp("tree.json"));
  // Without --no-deadlock the first leaf (7, the first of depth 3 in the
  // serial order, hence --order fixed) stops it.
  cr_assert_eq(run(&tree, "--quiet --order fixed"), MCRT_EXIT_VIOLATION);
  HAS("violation: deadlock: no action is enabled\n0 init root\n    n = 0\n1 left\n    n = 1\n"
      "2 left\n    n = 3\n3 left\n    n = 7\n");
}

// A depth bound does not hide deadlocks: successors of states at the bound
// are still computed.
Test(search, tree_deadlocks_under_depth_bound) {
  cr_assert_eq(run(&tree, "--no-deadlock --max-depth 3"), MCRT_EXIT_OK, "%s%s", out, err);
  HAS("deadlocks:     8 ");
  cr_assert_eq(run(&tree, "--no-deadlock --max-depth 2"), MCRT_EXIT_INCOMPLETE);
  HAS("states:        7 distinct");
  HAS("deadlocks:     0 ");
}

// A message longer than the error slot is cut on a whole UTF-8 character:
// 300 two-byte characters in a 512-byte slot keep 255 of them (510 bytes),
// not 255 and a half.
Test(search, long_message_cut_on_a_character) {
  char msg[601];
  for (int i = 0; i < 300; i++)
    msg[2 * i] = (char)0xc3, msg[2 * i + 1] = (char)0xa9; // é
  msg[600] = 0;
  static McrtCtx ctx;
  mcrt_assert_failed(&ctx, "m.mc", 1, 1, msg);
  cr_assert_eq(strlen(ctx.err.message), 510);
  cr_assert_eq(memcmp(ctx.err.message, msg, 510), 0);
  // With one ASCII byte first the cut falls between characters: 511 bytes kept.
  mcrt_clear_error(&ctx);
  msg[0] = 'x', msg[1] = 'x';
  mcrt_assert_failed(&ctx, "m.mc", 1, 1, msg + 1);
  cr_assert_eq(strlen(ctx.err.message), 511);
}
