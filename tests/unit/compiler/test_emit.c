// SPDX-License-Identifier: MIT
// test_emit.c: the m4 definitions emit() writes for a checked, laid-out
// spec: one action function per action (a_NAME) and one guard function per
// guarded action (ga_NAME), accessors per scalar or array state variable
// (get_NAME, set_NAME), predicates, fns, #line
// directives back to the spec, mangled spec names, and error counting.
#include "spec_test.h"

// The m4 definitions of a spec that must go through every stage cleanly.
static char *emitted_file(SrcFile *f) {
  capture_diagnostics();
  Program *p = parse(tokenize(f));
  // As mcgen does: the C of `extern` declarations is read before check()
  // and compared after it.
  cr_assert(error_count() == errors_before && extern_load(p) && check(p, NULL, 0) &&
                extern_check(p),
            "errors:\n%s", captured());
  Layout lay;
  cr_assert(layout(p, &lay), "%s", captured());
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  bool ok = emit(p, &lay, out);
  fclose(out);
  cr_assert(ok, "emit failed:\n%s", captured());
  cr_assert_eq(error_count(), errors_before, "%s", captured());
  return text;
}

static char *emitted(const char *spec) { return emitted_file(spec_file(spec)); }

static int count_substr(const char *s, const char *sub) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub))
    n++;
  return n;
}

#define cr_assert_contains(hay, needle)                                                    \
  cr_assert(strstr((hay), (needle)), "expected \"%s\" in the output", (needle))

static const char *const FILTER =
    "model filter;\n"                                            // 1
    "const N = 3;\n"                                             // 2
    "type Proc = scalarset(N);\n"                                // 3
    "type Level = 0..N-1;\n"                                     // 4
    "type Pc = enum { idle, trying, critical };\n"               // 5
    "var pc: [Proc] Pc;\n"                                       // 6
    "var level: [Proc] Level;\n"                                 // 7
    "var victim: [Level] Proc?;\n"                               // 8
    "action start(p: Proc) when pc[p] == idle {\n"               // 9
    "  pc[p] = trying;\n"                                        // 10
    "  level[p] = 0;\n"                                          // 11
    "  victim[0] = p;\n"                                         // 12
    "}\n"                                                        // 13
    "action leave(p: Proc) when pc[p] == critical {\n"           // 14
    "  pc[p] = idle;\n"                                          // 15
    "}\n"                                                        // 16
    "invariant mutex: forall p: Proc, q: Proc :: p != q -> !(pc[p] == critical && pc[q] == critical);\n"
    "reachable someone: exists p: Proc :: pc[p] == critical;\n";

Test(emit, functions_per_action_and_variable) {
  char *out = emitted(FILTER);
  cr_assert_contains(out, "ga_start(");
  cr_assert_contains(out, "a_start(");
  cr_assert_contains(out, "ga_leave(");
  cr_assert_contains(out, "a_leave(");
  cr_assert_contains(out, "get_pc(");
  cr_assert_contains(out, "set_pc(");
  cr_assert_contains(out, "get_level(");
  cr_assert_contains(out, "set_victim(");
  cr_assert_contains(out, "inv_mutex(");
}

Test(emit, line_directives_point_at_the_spec) {
  char *out = emitted(FILTER);
  cr_assert_contains(out, "#line 10 \"t.mc\"");
  cr_assert_contains(out, "#line 15 \"t.mc\"");
  cr_assert_gt(count_substr(out, "#line "), 4);
  // Every #line naming the spec gives a line that exists in it.
  for (const char *p = out; (p = strstr(p, "#line ")); p++) {
    int n;
    char name[8];
    if (sscanf(p, "#line %d \"%7[^\"]\"", &n, name) == 2 && !strcmp(name, "t.mc"))
      cr_assert(n >= 1 && n <= 18, "#line %d is outside the spec", n);
  }
}

Test(emit, spec_names_are_mangled) {
  char *out = emitted("var int: 0..3;\n"
                      "var main: bool;\n"
                      "fn free(x: 0..3): 0..3 { return x; }\n"
                      "action printf { int = free(int); main = !main; }\n");
  cr_assert_contains(out, "a_printf(");
  cr_assert_contains(out, "get_int(");
  cr_assert_contains(out, "get_main(");
  cr_assert_contains(out, "f_free(");
  cr_assert_null(strstr(out, " printf("), "an unmangled spec name in the output");
  cr_assert_null(strstr(out, " free("), "an unmangled spec name in the output");
}

Test(emit, one_function_per_action_even_many) {
  Buf spec = {0};
  buf_puts(&spec, "var x: 0..1;\n");
  for (int i = 0; i < 500; i++)
    buf_printf(&spec, "action a%d when x == %d { x = 1 - x; }\n", i, i % 2);
  char *out = emitted(spec.data);
  cr_assert_contains(out, "a_a0(");
  cr_assert_contains(out, "MC_ACTION bool a_a499(");
  // An action without parameters is one function: its guard is in it.
  cr_assert_eq(count_substr(out, "ga_a499("), 0);
}

Test(emit, errors_are_counted_and_nothing_is_emitted_past_them) {
  capture_diagnostics();
  Program *p =
      parse(tokenize(spec_file("var x: bool;\naction a { x = 1; }\naction b { y = true; }\n")));
  cr_assert_not(check(p, NULL, 0));
  cr_assert_eq(error_count() - errors_before, 2, "%s", captured());
}

Test(emit, feature_tour) {
  SrcFile *f = read_file("tests/malformed/seed.mc");
  if (!f)
    return; // run from elsewhere than the repository root
  // Its `extern` names specs/serial/*, which the malformed runner copies
  // beside it: read as if it were in specs/.
  f->name = "specs/seed.mc";
  char *out = emitted_file(f);
  static const char *const names[] = {"ga_send(", "a_send(",   "ga_deliver(", "a_deliver(",
                                      "a_consume(", "a_reset(", "get_owner(", "get_leader(",
                                      "get_total(", "f_bump(",  "f_mk(",     "inv_bounded(",
                                      "reach_full("};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    cr_assert_contains(out, names[i]);
}

// Liveness: one instance per forall binding (first binder most
// significant, names as the runtime prints values), P and Q as functions of
// the binders, bits 2i / 2i+1; a fair action with parameters is fair per
// binding, a group is one constraint over every binding of its actions.
Test(emit, property_instances_and_fairness) {
  char *out = emitted("type Proc = scalarset(2);\n"
                      "type E = enum { a, b };\n"
                      "var pc: [Proc] E;\n"
                      "action go(p: Proc) { pc[p] = b; }\n"
                      "action stop { }\n"
                      "property lt: forall p: Proc, k: 1..2 :: pc[p] == a ~> k == 2;\n"
                      "property ev: <> exists q: Proc :: pc[q] == b;\n"
                      "fair weak go;\n"
                      "fair strong (go | stop);\n");
  cr_assert_contains(out, "{\"lt(p=Proc_1, k=1)\", 0, MCRT_TEMP_LEADSTO}");
  cr_assert_contains(out, "{\"lt(p=Proc_1, k=2)\", 0, MCRT_TEMP_LEADSTO}");
  cr_assert_contains(out, "{\"lt(p=Proc_2, k=2)\", 0, MCRT_TEMP_LEADSTO}");
  cr_assert_contains(out, "{\"ev\", 1, MCRT_TEMP_EVENTUALLY}");
  cr_assert_contains(out, "prop_lt_P(McrtCtx *ctx, const uint8_t *s, int64_t");
  cr_assert_contains(out, "prop_lt_Q(ctx, s, (int64_t)1, (int64_t)2)");
  cr_assert_contains(out, "bits[1] |= 1u"); // ev, instance 4: bit 8
  cr_assert_contains(out, "MCGEN_NINSTANCES⟧, ⟦5⟧");
  cr_assert_contains(out, "{false, true, 1, mc_fair_ranges_0, \"weak go\"");
  cr_assert_contains(out, "mc_fair_ranges_1[] = {{0u, 2u}, {2u, 1u}, }");
  cr_assert_contains(out, "{true, false, 2, mc_fair_ranges_1, \"strong (go | stop)\"");
}

// Symmetry (symmetry.c): the scalarsets in the state, their permutation
// tables (all N! rows, N <= 7), and the two functions specialised to the
// layout.
Test(emit, symmetry_tables_and_functions) {
  char *out = emitted(FILTER);
  cr_assert_contains(out, "m4_define(⟦MCGEN_NSYM⟧, ⟦1⟧)");
  cr_assert_contains(out, "static const uint8_t mc_perms_0[] = {");
  cr_assert_contains(out, "{\"Proc\", 3, 6, mc_perms_0},");
  cr_assert_contains(out, "  2, 1, 0,\n};"); // the last row, lexicographically
  cr_assert_contains(out, "static void mc_sym_apply(");
  cr_assert_contains(out, "static void mc_sym_keys(");
  // pc is indexed by Proc: entries move; victim holds Proc?: values renamed.
  cr_assert_contains(out, "(uint64_t)pm[0][j");
  cr_assert_contains(out, "? (uint64_t)pm[0][");
}

Test(emit, symmetry_none_without_scalarset_in_state) {
  char *out = emitted("type P = scalarset(3);\n"
                      "var x: 0..3;\n"
                      "action inc(p: P) when x < 3 { x = x + 1; }\n");
  cr_assert_contains(out, "m4_define(⟦MCGEN_NSYM⟧, ⟦0⟧)");
  cr_assert_contains(out, "m4_define(⟦MCGEN_SYM_APPLY⟧, ⟦NULL⟧)");
  cr_assert_null(strstr(out, "mc_sym_apply("));
}

// Two scalarsets, and each collection: a renamer per element type, a
// multiset sorted again, a queue's slots renamed in place, a set's bits
// moved; a scalarset of 8 gets no table (the runtime builds one).
Test(emit, symmetry_collections_and_two_scalarsets) {
  char *out = emitted("type P = scalarset(8);\n"
                      "type W = scalarset(2);\n"
                      "type M = record { p: P, w: W? };\n"
                      "var s: set<P>;\n"
                      "var ms: multiset<M, 3>;\n"
                      "var q: queue<M, 2>;\n"
                      "var a: [W] [P] bool;\n"
                      "action go(p: P) { s.add(p); }\n");
  cr_assert_contains(out, "m4_define(⟦MCGEN_NSYM⟧, ⟦2⟧)");
  cr_assert_contains(out, "{\"P\", 8, 0, NULL},");
  cr_assert_contains(out, "{\"W\", 2, 2, mc_perms_1},");
  cr_assert_contains(out, "static uint64_t mc_sym_elem_");
  cr_assert_contains(out, "renamed, then sorted again");
  cr_assert_contains(out, "__builtin_ctzll");
  cr_assert_contains(out, "pm[1][j"); // a's rows move with W
  cr_assert_contains(out, "pm[0][j"); // and its columns with P
}

// The text of one m4 definition (MCGEN_RULES: the guards and bodies).
static char *definition(const char *out, const char *name) {
  const char *start = strstr(out, format("m4_define(⟦%s⟧", name));
  cr_assert(start, "no definition of %s", name);
  const char *end = strstr(start + 1, "m4_define(");
  return xstrndup(start, end ? (size_t)(end - start) : strlen(start));
}

Test(emit, accessors_for_fields_and_collections) {
  char *out = emitted("type Cmd = enum { idle, req };\n"
                      "type Msg = record { cmd: Cmd, data: 0..3 };\n"
                      "type B = record { b: bool };\n"
                      "var chan1: [0..1] Msg;\n"
                      "var inbox: [0..1] queue<0..3, 2>;\n"
                      "var a_b: bool;\n"
                      "var a: B;\n"
                      "action send(i: 0..1) when chan1[i].cmd == idle && inbox[i].len() < 2 {\n"
                      "  chan1[i].cmd = req;\n"
                      "  inbox[i].push(chan1[i].data);\n"
                      "  a.b = a_b;\n"
                      "}\n");
  cr_assert_contains(out, "MC_ACCESSOR int64_t get_chan1_cmd(const uint8_t *s, int64_t i0)");
  cr_assert_contains(out, "MC_ACCESSOR uint64_t q_len_inbox(const uint8_t *s, int64_t i0)");
  cr_assert_contains(out, "MC_ACCESSOR bool q_push_inbox(uint8_t *s, int64_t i0, uint64_t e)");
  // var a_b and field a.b would both be a_b: the later one is renamed.
  cr_assert_contains(out, "MC_ACCESSOR int64_t get_a_b(const uint8_t *s)");
  cr_assert_contains(out, "MC_ACCESSOR int64_t get_a_b_2(const uint8_t *s)");
  char *rules = definition(out, "MCGEN_RULES");
  cr_assert_contains(rules, "get_chan1_cmd(s, p_i) == e_idle");
  cr_assert_contains(rules, "q_len_inbox(s, p_i)");
  cr_assert_contains(rules, "set_chan1_cmd(n, p_i, e_req);");
  cr_assert_contains(rules, "q_push_inbox(n, p_i, (uint64_t)get_chan1_data(n, p_i))");
  cr_assert_contains(rules, "set_a_b_2(n, get_a_b(n));");
  // No raw bit offsets in the model's code: every access has a name.
  cr_assert_eq(count_substr(rules, "mcrt_get"), 0, "%s", rules);
  cr_assert_eq(count_substr(rules, "mcrt_set"), 0, "%s", rules);
  cr_assert_eq(count_substr(rules, "mcrt_q_"), 0, "%s", rules);
}

Test(emit, expressions_printed_with_the_parentheses_they_need) {
  char *out = emitted("var x: 0..7;\n"
                      "var y: 0..7;\n"
                      "var z: bool;\n"
                      "action go when x + y * 2 < 9 && (x + y) * 2 < 9 || z && x - (y - 1) == 0 {\n"
                      "  z = !(x < y);\n"
                      "}\n");
  char *rules = definition(out, "MCGEN_RULES");
  // * binds tighter than +, + than <, < than &&: no parentheses there; the
  // ones the spec needs stay; && inside || keeps them (gcc -Wparentheses).
  cr_assert_contains(rules, "if (!((get_x(s) + get_y(s) * 2 < 9 && (get_x(s) + get_y(s)) * 2 < 9)"
                            " || (get_z(s) && get_x(s) - (get_y(s) - 1) == 0)))");
  cr_assert_contains(rules, "set_z(n, !(get_x(n) < get_y(n)));");
}

// The m4 definitions of a DVE model.
static char *emitted_dve(const char *text) {
  SrcFile *f = spec_file(text);
  f->name = "t.dve";
  capture_diagnostics();
  Program *p = parse_dve(f);
  cr_assert(error_count() == errors_before && check(p, NULL, 0), "errors:\n%s", captured());
  Layout lay;
  cr_assert(layout(p, &lay), "%s", captured());
  char *text_out = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text_out, &len);
  cr_assert(emit(p, &lay, out), "%s", captured());
  fclose(out);
  return text_out;
}

Test(emit, dve_actions_named_after_transitions_without_impossible_checks) {
  char *out = emitted_dve("byte x = 0;\n"
                          "process P {\n"
                          "state a, b; init a;\n"
                          "trans a -> b { effect x = x + 1; }, b -> b { effect x = 3; }, b -> b {};\n"
                          "}\n"
                          "system async;\n");
  char *rules = definition(out, "MCGEN_RULES");
  cr_assert_contains(rules, "MC_ACTION bool a_P_a_b(");
  cr_assert_contains(rules, "MC_ACTION bool a_P_b_b(");
  cr_assert_contains(rules, "MC_ACTION bool a_P_b_b_2(");
  cr_assert_eq(count_substr(rules, "a_t1"), 0);
  // x + 1 may leave the byte's range: DiVinE's error state, checked once.
  // Where it is stored it is in range: no run-time range error.
  cr_assert_contains(rules, "if (0 <= l_dve_val && l_dve_val <= 255) {");
  cr_assert_eq(count_substr(rules, "out of range"), 0, "%s", rules);
}
