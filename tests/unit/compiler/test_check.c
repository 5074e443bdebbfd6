// SPDX-License-Identifier: MIT
// test_check.c: name resolution, constants and -D overrides, type
// resolution, expression types, the scalarset rules, definite assignment of
// scalarsets in init blocks, what each context may write, and error counts.
//
// Each test builds a spec from a string and runs tokenize, parse and check
// on it; diagnostics go to a memory stream so that tests can read them.
#include "spec_test.h"

// Errors reported for the current spec.
static int errors(void) { return error_count() - errors_before; }

static Program *parsed(const char *text) {
  capture_diagnostics();
  Program *p = parse(tokenize(spec_file(text)));
  cr_assert_eq(errors(), 0, "syntax errors in a test spec:\n%s", captured());
  return p;
}

// A spec that must check clean.
static Program *ok(const char *text) {
  Program *p = parsed(text);
  bool good = check(p, NULL, 0);
  cr_assert(good, "unexpected errors:\n%s", captured());
  cr_assert_eq(errors(), 0);
  return p;
}

// A spec that must fail with exactly `n` errors; returns the diagnostics.
static const char *fails(const char *text, int n) {
  Program *p = parsed(text);
  cr_assert_not(check(p, NULL, 0), "no error for:\n%s", text);
  cr_assert_eq(errors(), n, "%d errors, expected %d:\n%s", errors(), n, captured());
  return captured();
}

static Program *with_defines(const char *text, Define *defs, int n, bool expect_ok) {
  Program *p = parsed(text);
  bool good = check(p, defs, n);
  cr_assert_eq(good, expect_ok, "check() returned %d:\n%s", good, captured());
  return p;
}

static Decl *decl_named(Program *p, const char *name) {
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->name && !strcmp(token_text(d->name), name))
      return d;
  }
  cr_assert_fail("no declaration '%s'", name);
  return NULL;
}

static int64_t const_of(Program *p, const char *name) {
  Decl *d = decl_named(p, name);
  cr_assert_eq(d->kind, DK_CONST);
  return d->obj->val;
}

static Type *var_type(Program *p, const char *name) {
  Decl *d = decl_named(p, name);
  cr_assert_eq(d->kind, DK_VAR);
  return resolve(d->obj->type);
}

#define cr_assert_contains(hay, needle)                                                    \
  cr_assert(strstr((hay), (needle)), "expected \"%s\" in:\n%s", (needle), (hay))

//
// Constants
//

Test(check_const, arithmetic_and_forward_references) {
  Program *p = ok("const M = N * 2 + 1;\n"
                  "const N = 3;\n"
                  "const P = (M - N) / 2 % 3;\n"
                  "const Q = -N;\n"
                  "var x: 0..M;\n");
  cr_assert_eq(const_of(p, "N"), 3);
  cr_assert_eq(const_of(p, "M"), 7);
  cr_assert_eq(const_of(p, "P"), 2);
  cr_assert_eq(const_of(p, "Q"), -3);
  cr_assert_eq(decl_named(p, "M")->obj->type->kind, TY_INT);
}

Test(check_const, bool_constants_and_conditionals) {
  Program *p = ok("const A = 2 < 3 && !false;\n"
                  "const B = A ? 10 : 20;\n"
                  "const C = A -> false;\n"
                  "var x: 0..B;\n");
  cr_assert_eq(decl_named(p, "A")->obj->type->kind, TY_BOOL);
  cr_assert_eq(const_of(p, "A"), 1);
  cr_assert_eq(const_of(p, "B"), 10);
  cr_assert_eq(const_of(p, "C"), 0);
}

Test(check_const, enum_members_are_constants) {
  Program *p = ok("type Pc = enum { idle, trying, critical };\n"
                  "var pc: Pc;\n"
                  "invariant i: pc != critical || pc == critical;\n");
  Type *t = var_type(p, "pc");
  cr_assert_eq(t->kind, TY_ENUM);
  cr_assert_eq(t->members.len, 3);
  cr_assert_eq(t->member_objs[2]->index, 2);
  cr_assert_str_eq(t->member_objs[1]->name, "trying");
  cr_assert_str_eq(type_name(t), "Pc");
}

Test(check_const, division_by_zero_is_one_error) {
  const char *out = fails("const N = 4 / (2 - 2);\nvar x: 0..N;\n", 1);
  cr_assert_contains(out, "t.mc:1:13: error: division by zero in a constant expression");
}

Test(check_const, overflow_is_reported) {
  fails("const B = 9223372036854775807;\nconst C = B + 1;\n", 1);
  fails("const B = 9223372036854775807;\nconst C = -B - 1;\nconst D = -C;\n", 1);
  fails("const B = 9223372036854775807;\nconst C = B * 2;\n", 1);
}

Test(check_const, self_reference_is_one_error) {
  const char *out = fails("const A = B;\nconst B = A * 2;\nvar x: 0..A;\n", 1);
  cr_assert_contains(out, "constant 'A' is defined in terms of itself");
}

Test(check_const, state_is_not_constant) {
  const char *out = fails("var x: 0..3;\nconst N = x + 1;\n", 1);
  cr_assert_contains(out, "state variable 'x' cannot be used in a constant expression");
}

//
// -D overrides
//

Test(check_define, override_propagates_to_dependants) {
  Define d[] = {{"N", "5"}};
  Program *p = with_defines("const N = 3;\nconst M = N * 2;\ntype L = 0..M;\nvar x: L;\n", d, 1,
                            true);
  cr_assert_eq(const_of(p, "N"), 5);
  cr_assert_eq(const_of(p, "M"), 10);
  cr_assert_eq(var_type(p, "x")->hi, 10);
}

Test(check_define, bool_override) {
  Define d[] = {{"FAST", "false"}};
  Program *p = with_defines("const FAST = true;\nconst K = FAST ? 1 : 2;\n", d, 1, true);
  cr_assert_eq(const_of(p, "K"), 2);
}

Test(check_define, unknown_constant_suggests) {
  Define d[] = {{"NPROCS", "4"}};
  with_defines("const NPROC = 3;\n", d, 1, false);
  cr_assert_eq(errors(), 1);
  cr_assert_contains(captured(), "mcgen: error: -D NPROCS=4: t.mc has no constant 'NPROCS'");
  cr_assert_contains(captured(), "hint: did you mean 'NPROC'?");
}

Test(check_define, not_an_integer) {
  Define d[] = {{"N", "3x"}};
  with_defines("const N = 3;\nvar x: 0..N;\n", d, 1, false);
  cr_assert_eq(errors(), 1, "%s", captured());
  cr_assert_contains(captured(), "-D N=3x: the value must be an integer, true or false");
}

Test(check_define, wrong_kind_is_one_error) {
  Define d[] = {{"N", "true"}};
  with_defines("const N = 3;\nvar x: 0..N;\n", d, 1, false);
  cr_assert_eq(errors(), 1, "%s", captured());
  cr_assert_contains(captured(), "constant 'N' is an integer, not a bool");
}

Test(check_define, a_variable_is_not_a_constant) {
  Define d[] = {{"x", "1"}};
  with_defines("var x: 0..3;\n", d, 1, false);
  cr_assert_contains(captured(), "'x' is not a constant");
}

//
// Types
//

Test(check_types, aliases_ranges_and_scalarsets) {
  Program *p = ok("const N = 3;\n"
                  "type Proc = scalarset(N);\n"
                  "type Level = 0..N-1;\n"
                  "type L2 = Level;\n"
                  "var l: L2;\n"
                  "var who: Proc?;\n"
                  "var q: queue<Level, 2>;\n"
                  "var m: multiset<bool, N>;\n"
                  "var a: [Proc] [Level] bool;\n");
  Type *l = var_type(p, "l");
  cr_assert_eq(l->kind, TY_RANGE);
  cr_assert_eq(l->lo, 0);
  cr_assert_eq(l->hi, 2);
  Type *who = var_type(p, "who");
  cr_assert_eq(who->kind, TY_OPTIONAL);
  cr_assert_eq(resolve(who->base)->kind, TY_SCALARSET);
  cr_assert_eq(resolve(who->base)->size, 3);
  cr_assert_eq(var_type(p, "q")->size, 2);
  cr_assert_eq(var_type(p, "m")->size, 3);
  Type *a = var_type(p, "a");
  cr_assert_eq(a->kind, TY_ARRAY);
  cr_assert_eq(resolve(a->index)->kind, TY_SCALARSET);
  cr_assert_eq(resolve(resolve(a->base)->index)->hi, 2);
  cr_assert_str_eq(type_name(resolve(decl_named(p, "l")->type)), "Level");
}

Test(check_types, errors) {
  cr_assert_contains(fails("var x: 5..3;\n", 1), "empty range 5..3");
  cr_assert_contains(fails("type A = B;\ntype B = [bool] A;\nvar x: A;\n", 1),
                     "type 'A' is defined in terms of itself");
  cr_assert_contains(fails("var x: Prc;\ntype Proc = scalarset(2);\n", 1),
                     "did you mean 'Proc'?");
  cr_assert_contains(fails("type R = record { f: bool };\nvar r: R?;\n", 1),
                     "an optional type must be of bool");
  cr_assert_contains(fails("var s: scalarset(0);\n", 1), "the size of a scalarset");
  cr_assert_contains(fails("var q: queue<bool, 0>;\n", 1), "a capacity must be between 1");
  cr_assert_contains(fails("var q: set<set<bool>>;\n", 1), "collections of collections");
  cr_assert_contains(fails("var q: set<[bool] bool>;\n", 1), "the elements of a set must be");
  cr_assert_contains(fails("type R = record { f: bool, f: 0..1 };\n", 1), "duplicate field 'f'");
}

//
// Expressions
//

Test(check_expr, node_types) {
  Program *p = ok("type Proc = scalarset(2);\n"
                  "var n: 0..3;\n"
                  "var s: set<0..3>;\n"
                  "var who: Proc?;\n"
                  "invariant a: n + 1 > 2 || n in s;\n"
                  "invariant b: (count p: Proc :: who == p) <= 1;\n"
                  "invariant c: s.len() == n;\n");
  Node *a = decl_named(p, "a")->expr;
  cr_assert_eq(a->ty->kind, TY_BOOL);
  cr_assert_eq(a->lhs->lhs->ty->kind, TY_INT);      // n + 1
  cr_assert_eq(resolve(a->lhs->lhs->lhs->ty)->kind, TY_RANGE); // n
  Node *b = decl_named(p, "b")->expr;
  cr_assert_eq(b->lhs->ty->kind, TY_INT); // count
  Node *c = decl_named(p, "c")->expr;
  cr_assert_eq(c->lhs->ty->kind, TY_INT); // s.len()
}

Test(check_expr, constant_folding_marks_constants) {
  Program *p = ok("const N = 3;\nvar x: 0..3;\ninvariant i: x <= N - 1 + 1;\n");
  Node *rhs = decl_named(p, "i")->expr->rhs;
  cr_assert(rhs->is_const);
  cr_assert_eq(rhs->val, 3);
  cr_assert_not(decl_named(p, "i")->expr->is_const);
}

Test(check_expr, identifiers_resolve_to_objects) {
  Program *p = ok("var x: bool;\naction flip { x = !x; }\n");
  Node *assign = decl_named(p, "flip")->body->args.data[0];
  cr_assert_eq(assign->lhs->obj->kind, OBJ_VAR);
  cr_assert_eq(assign->lhs->obj, decl_named(p, "x")->obj);
}

Test(check_expr, type_errors) {
  cr_assert_contains(fails("var x: bool;\naction a { x = 3; }\n", 1), "cannot assign int to bool");
  cr_assert_contains(fails("type A = enum { a1 };\ntype B = enum { b1 };\nvar x: A;\n"
                           "action a { x = b1; }\n", 1),
                     "cannot assign B to A");
  cr_assert_contains(fails("var n: 0..3;\nvar b: bool;\naction a { n = b ? 1 : false; }\n", 1),
                     "different types");
  cr_assert_contains(fails("fn f(x: 0..3): 0..3 { return x; }\nvar n: 0..3;\n"
                           "action a { n = f(1, 2); }\n", 1),
                     "'f' takes 1 argument, not 2");
  cr_assert_contains(fails("type R = record { flag: bool };\nvar r: R;\n"
                           "action a { r.flg = true; }\n", 1),
                     "did you mean 'flag'?");
  cr_assert_contains(fails("type R = record { f: bool, g: bool };\nvar r: R;\n"
                           "action a { r = R { f: true }; }\n", 1),
                     "field 'g' of 'R' is not given");
  cr_assert_contains(fails("var s: set<0..3>;\naction a { s.push(1); }\n", 1),
                     "has no method 'push'");
  cr_assert_contains(fails("var x: 0..3;\naction a { x = 5; }\n", 1), "constant 5 is out of range");
  cr_assert_contains(fails("var x: [0..3] bool;\naction a { x[4] = true; }\n", 1),
                     "index 4 is out of range 0..3");
}

Test(check_expr, no_cascade_from_unknown_names) {
  // One error per unknown name: nothing about the expressions around them.
  const char *out = fails("const N = M + 1;\ntype T = 0..N;\nvar x: T;\n"
                          "invariant i: -(x + nothing) > 0 && !(x < 2);\n", 2);
  cr_assert_contains(out, "unknown name 'M'");
  cr_assert_contains(out, "unknown name 'nothing'");
}

//
// Scalarsets
//

#define PROCS "type Proc = scalarset(3);\ntype Other = scalarset(2);\n" \
              "var pc: [Proc] 0..3;\nvar o: [Other] bool;\nvar n: 0..3;\n"

Test(check_scalarset, allowed_uses) {
  ok(PROCS "var who: Proc?;\n"
           "action a(p: Proc, q: Proc) when p != q && pc[p] < 3 {\n"
           "  pc[p] = pc[p] + 1; who = q;\n"
           "  for r: Proc { if r == p { pc[r] = 0; } }\n"
           "}\n"
           "invariant i: forall p: Proc :: exists q: Proc :: p == q;\n");
}

Test(check_scalarset, rules) {
  cr_assert_contains(fails(PROCS "action a(p: Proc, q: Proc) when p < q { n = 1; }\n", 1),
                     "cannot be ordered");
  cr_assert_contains(fails(PROCS "action a(p: Proc) { n = p + 1; }\n", 1),
                     "cannot be used in arithmetic");
  cr_assert_contains(fails(PROCS "action a(p: Proc) { o[p] = true; }\n", 1),
                     "an array indexed by Other cannot be indexed by Proc");
  cr_assert_contains(fails(PROCS "action a { pc[1] = 2; }\n", 1),
                     "an array indexed by Proc cannot be indexed by int");
  cr_assert_contains(fails(PROCS "action a(p: Proc, q: Other) when p == q { n = 1; }\n", 1),
                     "cannot compare Proc with Other");
  cr_assert_contains(fails(PROCS "invariant i: (sum p: Proc :: p) < 4;\n", 1),
                     "cannot be used in arithmetic");
}

Test(check_scalarset, definite_assignment_accepts) {
  ok("type Proc = scalarset(3);\nvar leader: Proc;\nvar owner: [Proc] Proc;\nvar b: bool;\n"
     "init (p: Proc) {\n"
     "  if b { leader = p; } else { leader = p; }\n"
     "  for q: Proc { owner[q] = p; }\n"
     "}\n");
  ok("type Proc = scalarset(2);\ntype R = record { who: Proc, n: 0..3 };\nvar r: R;\n"
     "init (p: Proc) { r.who = p; }\n");
  ok("type Proc = scalarset(2);\nvar w: Proc?;\n"); // optional: has a default
}

Test(check_scalarset, definite_assignment_rejects) {
  cr_assert_contains(fails("type Proc = scalarset(3);\nvar leader: Proc;\nvar b: bool;\n"
                           "init (p: Proc) { if b { leader = p; } }\n", 1),
                     "not assigned on every path");
  cr_assert_contains(fails("const N = 3;\ntype Proc = scalarset(N);\nvar o: [0..N-1] Proc;\n"
                           "init (p: Proc) { for i: 1..N-1 { o[i] = p; } }\n", 1),
                     "make it optional: [0..2] Proc?");
  cr_assert_contains(fails("type Proc = scalarset(3);\nvar leader: Proc;\n", 1),
                     "has no default value: assign it in an init block");
  // Every init block must assign it.
  fails("type Proc = scalarset(3);\nvar leader: Proc;\n"
        "init first(p: Proc) { leader = p; }\ninit second { }\n", 1);
}

//
// Contexts
//

Test(check_context, writes) {
  cr_assert_contains(fails("var x: 0..3;\nfn f(y: 0..3): 0..3 { x = y; return y; }\n", 1),
                     "function 'f' cannot write state variable 'x'");
  ok("var x: 0..3;\nfn f(y: 0..3): 0..3 { var t: 0..3 = y; t = 0; return t; }\n");
  cr_assert_contains(fails("var x: 0..3;\naction a(p: 0..3) { p = 1; }\n", 1),
                     "parameter 'p' cannot be assigned");
  cr_assert_contains(fails("var x: 0..3;\naction a { let y = 1; y = 2; x = y; }\n", 1),
                     "let constant");
  cr_assert_contains(fails("var x: 0..3;\naction a { return x; }\n", 1),
                     "'return' is only allowed in a fn");
  cr_assert_contains(fails("var q: queue<bool, 2>;\naction a when q.pop() { }\n", 1),
                     "pop() changes the queue");
  ok("var q: queue<bool, 2>;\nvar b: bool;\naction a when !q.empty() { b = q.pop(); }\n");
  cr_assert_contains(fails("var q: queue<bool, 2>;\nvar b: bool;\n"
                           "action a { b = q.push(true); }\n", 1),
                     "has no value");
}

Test(check_context, recursion) {
  cr_assert_contains(fails("fn f(y: 0..3): 0..3 { return g(y); }\n"
                           "fn g(y: 0..3): 0..3 { return f(y); }\n", 1),
                     "recursive call of 'f'");
  ok("fn f(y: 0..3): 0..3 { return g(y); }\nfn g(y: 0..3): 0..3 { return y; }\n");
}

//
// Names
//

Test(check_names, duplicates_and_suggestions) {
  const char *out = fails("type Pc = enum { idle, busy };\nvar idle: bool;\n", 1);
  cr_assert_contains(out, "t.mc:2:5: error: duplicate name 'idle'");
  cr_assert_contains(out, "t.mc:1:18: note: 'idle' first declared here");
  out = fails("var x: bool;\naction toggle { x = !x; }\nfair weak togle;\n", 1);
  cr_assert_contains(out, "unknown action 'togle'");
  cr_assert_contains(out, "did you mean 'toggle'?");
  out = fails("type Pc = enum { idle, busy };\nvar pc: Pc;\n"
              "action a when pcc == idle { pc = busy; }\n", 1);
  cr_assert_contains(out, "t.mc:3:15: error: unknown name 'pcc'");
  cr_assert_contains(out, "did you mean 'pc'?");
}

Test(check_names, spec_names_may_be_c_names) {
  ok("var int: 0..3;\nvar main: bool;\nfn free(x: 0..3): 0..3 { return x; }\n"
     "action printf { int = free(int); main = !main; }\n");
}

//
// Errors are counted and all reported
//

Test(check_errors, all_reported_in_one_run) {
  const char *out = fails("type Pc = enum { idle, busy };\nvar pc: Pc;\nvar n: 0..3;\n"
                          "action a when pcc == idle { pc = busy; }\n"
                          "action b { n = true; }\n"
                          "invariant i: n + 1;\n"
                          "fair weak c2;\n", 4);
  const char *a = strstr(out, "4:15: error"), *b = strstr(out, "5:14: error"),
             *c = strstr(out, "6:16: error"), *d = strstr(out, "7:11: error");
  cr_assert(a && b && c && d && a < b && b < c && c < d, "errors out of order:\n%s", out);
}

Test(check_errors, error_count_accumulates_and_check_reports_this_run) {
  Program *p = parsed("var x: bool;\naction a { x = 1; }\naction b { x = 2; }\n");
  cr_assert_not(check(p, NULL, 0));
  cr_assert_eq(errors(), 2);
}

Test(check_errors, bundled_specs_check_clean) {
  // (tests/malformed/seed.mc names C files that its runner copies beside
  // it: the malformed-input runs check it.)
  static const char *const files[] = {"specs/filter.mc", "specs/german.mc",
                                      "specs/stop_and_wait.mc"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    SrcFile *f = read_file(files[i]);
    if (!f)
      continue; // run from elsewhere than the repository root
    capture_diagnostics();
    Program *p = parse(tokenize(f));
    // As mcgen does: the C of `extern` declarations (seed.mc has some) is
    // read before check() and compared after it.
    cr_assert(extern_load(p), "%s:\n%s", files[i], captured());
    cr_assert(check(p, NULL, 0), "%s:\n%s", files[i], captured());
    cr_assert(extern_check(p), "%s:\n%s", files[i], captured());
  }
}
