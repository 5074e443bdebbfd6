// SPDX-License-Identifier: MIT
// test_layout.c: the bit width of every kind of type, record field offsets,
// state variable offsets and the state size, and types too large to encode.
//
// Each test checks a spec from a string, then runs layout() on it.
#include "spec_test.h"

static Program *checked(const char *text) {
  capture_diagnostics();
  Program *p = parse(tokenize(spec_file(text)));
  cr_assert(error_count() == errors_before && check(p, NULL, 0), "errors:\n%s", captured());
  return p;
}

static Layout laid_out(const char *text) {
  Program *p = checked(text);
  Layout lay;
  cr_assert(layout(p, &lay), "layout errors:\n%s", captured());
  return lay;
}

static int var_index(Layout *lay, const char *name) {
  for (int i = 0; i < lay->vars.len; i++)
    if (!strcmp(((Obj *)lay->vars.data[i])->name, name))
      return i;
  cr_assert_fail("no variable '%s'", name);
  return -1;
}

static int64_t width_of(Layout *lay, const char *name) {
  return resolve(((Obj *)lay->vars.data[var_index(lay, name)])->type)->width;
}

static int64_t offset_of(Layout *lay, const char *name) {
  return lay->offsets[var_index(lay, name)];
}

#define N3 "const N = 3;\ntype Proc = scalarset(N);\n"

Test(layout, scalar_widths) {
  Layout lay = laid_out(N3 "var b: bool;\n"
                           "var lvl: 0..N-1;\n"
                           "var big: 0..255;\n"
                           "var neg: -2..20;\n"
                           "var one: 5..5;\n"
                           "var pc: enum { idle, trying, critical };\n"
                           "var two: enum { a, b2 };\n"
                           "type S5 = scalarset(5);\nvar s5: S5;\n"
                           "var who: Proc?;\n"
                           "var ob: bool?;\n"
                           "init (q: S5) { s5 = q; }\n");
  cr_assert_eq(width_of(&lay, "b"), 1);
  cr_assert_eq(width_of(&lay, "lvl"), 2);   // 0..N-1, N=3: 3 values
  cr_assert_eq(width_of(&lay, "big"), 8);
  cr_assert_eq(width_of(&lay, "neg"), 5);   // 23 values
  cr_assert_eq(width_of(&lay, "one"), 0);   // a single value needs no bits
  cr_assert_eq(width_of(&lay, "pc"), 2);
  cr_assert_eq(width_of(&lay, "two"), 1);
  cr_assert_eq(width_of(&lay, "s5"), 3);    // scalarset(5)
  cr_assert_eq(width_of(&lay, "who"), 2);   // Proc? with N=3: 4 values
  cr_assert_eq(width_of(&lay, "ob"), 2);    // bool?: 3 values
}

Test(layout, collection_widths) {
  Layout lay = laid_out("var q: queue<0..3, 2>;\n"
                        "var q1: queue<bool, 1>;\n"
                        "var q3: queue<0..7, 3>;\n"
                        "var m: multiset<bool, 3>;\n"
                        "var s: set<0..3>;\n"
                        "var se: set<enum { r, g, bl }>;\n");
  cr_assert_eq(width_of(&lay, "q"), 2 + 2 * 2);  // length 0..2, two 2-bit slots
  cr_assert_eq(width_of(&lay, "q1"), 1 + 1);
  cr_assert_eq(width_of(&lay, "q3"), 2 + 3 * 3);
  cr_assert_eq(width_of(&lay, "m"), 3 * 2);      // 3 slots of (present bit + 1 bit)
  cr_assert_eq(width_of(&lay, "s"), 4);          // one bit per possible element
  cr_assert_eq(width_of(&lay, "se"), 3);
}

Test(layout, arrays_and_records) {
  Program *p = checked(N3 "type Msg = record { kind: enum { req, ack, data }, src: Proc?, val: 0..3 };\n"
                          "var pc: [Proc] 0..3;\n"
                          "var grid: [Proc] [bool] bool;\n"
                          "var msg: Msg;\n"
                          "var box: [0..1] Msg;\n");
  Layout lay;
  cr_assert(layout(p, &lay), "%s", captured());
  cr_assert_eq(width_of(&lay, "pc"), 3 * 2);
  cr_assert_eq(width_of(&lay, "grid"), 3 * 2 * 1);
  cr_assert_eq(width_of(&lay, "msg"), 2 + 2 + 2);
  cr_assert_eq(width_of(&lay, "box"), 2 * 6);
  Type *msg = resolve(((Obj *)lay.vars.data[var_index(&lay, "msg")])->type);
  cr_assert_eq(msg->kind, TY_RECORD);
  cr_assert_eq(msg->fields[0]->offset, 0);
  cr_assert_eq(msg->fields[1]->offset, 2);
  cr_assert_eq(msg->fields[2]->offset, 4);
}

Test(layout, variables_are_packed_in_order) {
  Layout lay = laid_out("var a: bool;\nvar b: 0..6;\nvar c: [0..3] bool;\nvar d: 0..1;\n");
  cr_assert_eq(lay.vars.len, 4);
  cr_assert_eq(offset_of(&lay, "a"), 0);
  cr_assert_eq(offset_of(&lay, "b"), 1);
  cr_assert_eq(offset_of(&lay, "c"), 4);
  cr_assert_eq(offset_of(&lay, "d"), 8);
  cr_assert_eq(lay.state_bits, 9);
  cr_assert_eq(lay.state_bytes, 2);
}

Test(layout, empty_state_has_one_byte) {
  Layout lay = laid_out("const N = 1;\n");
  cr_assert_eq(lay.state_bits, 0);
  cr_assert_eq(lay.state_bytes, 1);
}

Test(layout, types_met_outside_the_state) {
  Program *p = checked("var x: bool;\n"
                       "var arr: [0..1] 0..5;\n"
                       "fn f(y: 0..9): [0..1] 0..5 { return arr; }\n");
  Decl *f = p->decls.data[2];
  cr_assert_eq(f->kind, DK_FN);
  cr_assert(layout_of(f->type, f->name));
  cr_assert_eq(resolve(f->type)->width, 2 * 3);
  Binder *y = f->params.data[0];
  cr_assert(layout_of(y->type, y->name));
  cr_assert_eq(resolve(y->type)->width, 4);
  cr_assert_eq(resolve(y->type)->card, 10);
}

Test(layout, too_large_is_a_spec_error) {
  Program *p = checked("var huge: [0..1000000] [0..1000] bool;\n");
  Layout lay;
  cr_assert_not(layout(p, &lay));
  cr_assert_eq(error_count() - errors_before, 1, "%s", captured());
  cr_assert(strstr(captured(), "bits; at most"), "%s", captured());
}

Test(layout, bundled_spec_widths) {
  SrcFile *f = read_file("specs/filter.mc");
  if (!f)
    return; // run from elsewhere than the repository root
  capture_diagnostics();
  Program *p = parse(tokenize(f));
  cr_assert(check(p, NULL, 0), "%s", captured());
  Layout lay;
  cr_assert(layout(p, &lay));
  int64_t sum = 0;
  for (int i = 0; i < lay.vars.len; i++) {
    cr_assert_eq(lay.offsets[i], sum);
    sum += resolve(((Obj *)lay.vars.data[i])->type)->width;
  }
  cr_assert_eq(lay.state_bits, sum);
  cr_assert_eq(lay.state_bytes, (sum + 7) / 8);
}
