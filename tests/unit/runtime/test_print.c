// SPDX-License-Identifier: MIT
// Unit tests of value and state printing (runtime/output/report.c), driven only by
// McrtType descriptors as generated code would write them.
#include <criterion/criterion.h>

#include "output/output.h"

static const char *const pc_members[] = {"idle", "trying", "critical"};
static const McrtType t_proc = {.kind = MCRT_SCALARSET, .width = 2, .card = 3, .name = "Proc"};
static const McrtType t_pc = {.kind = MCRT_ENUM, .width = 2, .card = 3, .name = "Pc",
                              .members = pc_members};
static const McrtType t_neg = {.kind = MCRT_RANGE, .width = 3, .card = 7, .lo = -3};
static const McrtType t_bool = {.kind = MCRT_BOOL, .width = 1, .card = 2};
static const McrtType t_proc_opt = {.kind = MCRT_OPTIONAL, .width = 2, .card = 4, .base = &t_proc};
static const McrtType t_pcs = {.kind = MCRT_ARRAY, .width = 6, .base = &t_pc, .index = &t_proc};
static const McrtField msg_fields[] = {{"kind", &t_pc, 0}, {"src", &t_proc, 2}};
static const McrtType t_msg = {.kind = MCRT_RECORD, .width = 4, .nfields = 2, .fields = msg_fields};
static const McrtType t_set = {.kind = MCRT_SET, .width = 3, .base = &t_proc};
static const McrtType t_mset = {.kind = MCRT_MULTISET, .width = 9, .base = &t_pc, .capacity = 3};
static const McrtType t_queue = {.kind = MCRT_QUEUE, .width = 6, .base = &t_proc, .capacity = 2,
                                 .len_width = 2};
static const McrtType t_flags = {.kind = MCRT_ARRAY, .width = 2, .base = &t_bool, .index = &t_bool};

static const McrtVar vars[] = {
    {"pc", &t_pcs, 0},    {"victim", &t_proc_opt, 6}, {"msg", &t_msg, 8}, {"s", &t_set, 12},
    {"m", &t_mset, 15},   {"q", &t_queue, 24},        {"n", &t_neg, 30},  {"f", &t_flags, 33},
};
static const McrtModel model = {.abi_version = MCRT_ABI_VERSION, .name = "p", .state_bits = 35,
                                .state_bytes = 5, .nvars = 8, .vars = vars};

static uint8_t st[5 + MCRT_SLACK];

static void setup_state(void) {
  memset(st, 0, sizeof st);
  mcrt_set(st, 0, 2, 1);       // pc[Proc_1] = trying
  mcrt_set(st, 2, 2, 2);       // pc[Proc_2] = critical
  mcrt_set(st, 6, 2, 3);       // victim = Proc_3
  mcrt_set(st, 8, 2, 2);       // msg.kind = critical
  mcrt_set(st, 10, 2, 1);      // msg.src = Proc_2
  mcrt_set(st, 12, 3, 0x5);    // s = {Proc_1, Proc_3}
  mcrt_set(st, 15, 3, 1);      // m = {idle, idle, critical}
  mcrt_set(st, 18, 3, 1);
  mcrt_set(st, 21, 3, 3);
  mcrt_set(st, 24, 2, 2);      // q = [Proc_3, Proc_1]
  mcrt_set(st, 26, 2, 2);
  mcrt_set(st, 28, 2, 0);
  mcrt_set(st, 30, 3, 1);      // n = -2
  mcrt_set(st, 34, 1, 1);      // f[true] = true
}

static char buf[4096];

static const char *value(const McrtType *t, uint64_t off, bool json) {
  FILE *f = fmemopen(buf, sizeof buf, "w");
  if (json)
    mcrt_print_value_json(f, t, st, off);
  else
    mcrt_print_value(f, t, st, off);
  fclose(f);
  return buf;
}

Test(print, values_text, .init = setup_state) {
  cr_assert_str_eq(value(&t_pcs, 0, false), "[trying, critical, idle]");
  cr_assert_str_eq(value(&t_proc_opt, 6, false), "Proc_3");
  cr_assert_str_eq(value(&t_msg, 8, false), "{kind: critical, src: Proc_2}");
  cr_assert_str_eq(value(&t_set, 12, false), "{Proc_1, Proc_3}");
  cr_assert_str_eq(value(&t_mset, 15, false), "{idle, idle, critical}");
  cr_assert_str_eq(value(&t_queue, 24, false), "[Proc_3, Proc_1]");
  cr_assert_str_eq(value(&t_neg, 30, false), "-2");
  cr_assert_str_eq(value(&t_flags, 33, false), "[false, true]");
  mcrt_set(st, 6, 2, 0);
  cr_assert_str_eq(value(&t_proc_opt, 6, false), "none");
  mcrt_set(st, 12, 3, 0);
  cr_assert_str_eq(value(&t_set, 12, false), "{}");
}

Test(print, values_json, .init = setup_state) {
  cr_assert_str_eq(value(&t_pcs, 0, true), "[\"trying\", \"critical\", \"idle\"]");
  cr_assert_str_eq(value(&t_msg, 8, true), "{\"kind\": \"critical\", \"src\": \"Proc_2\"}");
  cr_assert_str_eq(value(&t_set, 12, true), "[\"Proc_1\", \"Proc_3\"]");
  cr_assert_str_eq(value(&t_neg, 30, true), "-2");
  mcrt_set(st, 6, 2, 0);
  cr_assert_str_eq(value(&t_proc_opt, 6, true), "null");
}

Test(print, state_leaf_by_leaf, .init = setup_state) {
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mcrt_print_state(f, &model, st, NULL, "  ");
  fclose(f);
  cr_assert_str_eq(buf, "  pc[Proc_1] = trying\n"
                        "  pc[Proc_2] = critical\n"
                        "  pc[Proc_3] = idle\n"
                        "  victim = Proc_3\n"
                        "  msg.kind = critical\n"
                        "  msg.src = Proc_2\n"
                        "  s = {Proc_1, Proc_3}\n"
                        "  m = {idle, idle, critical}\n"
                        "  q = [Proc_3, Proc_1]\n"
                        "  n = -2\n"
                        "  f[false] = false\n"
                        "  f[true] = true\n");
}

Test(print, state_changes_only, .init = setup_state) {
  uint8_t prev[sizeof st];
  memcpy(prev, st, sizeof st);
  mcrt_set(st, 4, 2, 1);  // pc[Proc_3] = trying
  mcrt_set(st, 10, 2, 0); // msg.src = Proc_1
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mcrt_print_state(f, &model, st, prev, "");
  fclose(f);
  cr_assert_str_eq(buf, "pc[Proc_3] = trying\nmsg.src = Proc_1\n");
}

Test(print, json_string_escapes) {
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mcrt_print_json_string(f, "a\"b\\c\nd\x01");
  fclose(f);
  cr_assert_str_eq(buf, "\"a\\\"b\\\\c\\nd\\u0001\"");
}

// JSON strings are valid UTF-8: well-formed characters (2, 3 and 4 bytes)
// pass through; a stray continuation byte, a truncated sequence, an overlong
// form, a surrogate and a byte above U+10FFFF each become U+FFFD.
Test(print, json_string_utf8) {
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mcrt_print_json_string(f, "caf\xc3\xa9 \xe2\x9f\xa7 \xf0\x9f\x98\x80|\x80|\xc3|\xe2\x9f|"
                            "\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|caf\xe9");
  fclose(f);
  cr_assert_str_eq(buf, "\"caf\xc3\xa9 \xe2\x9f\xa7 \xf0\x9f\x98\x80|\\ufffd|\\ufffd|"
                        "\\ufffd\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
                        "\\ufffd\\ufffd\\ufffd\\ufffd|caf\\ufffd\"");
}

// Parameters decode from the rule: mixed radix, first parameter most significant.
static const McrtParam params[] = {{"p", &t_proc}, {"k", &t_pc}};
static const McrtRuleGroup groups[] = {
    {.name = "noop", .nparams = 0, .first_rule = 0, .nbindings = 1},
    {.name = "send", .nparams = 2, .params = params, .first_rule = 1, .nbindings = 9},
};
static const McrtRuleGroup init_groups[] = {
    {.name = NULL, .nparams = 0, .first_rule = 0, .nbindings = 1},
    {.name = "other", .nparams = 1, .params = params, .first_rule = 1, .nbindings = 3},
};

Test(print, rule_params) {
  McrtModel m = model;
  m.nactions = 2, m.actions = groups, m.nrules = 10;
  m.ninits = 2, m.inits = init_groups, m.ninit_rules = 4;
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mcrt_print_rule(f, &m, false, 0);
  fputc('|', f);
  mcrt_print_rule(f, &m, false, 1 + 1 * 3 + 2); // p = Proc_2, k = critical
  fputc('|', f);
  mcrt_print_rule(f, &m, true, 0);
  fputc('|', f);
  mcrt_print_rule(f, &m, true, 3);
  fclose(f);
  cr_assert_str_eq(buf, "noop|send(p=Proc_2, k=critical)|init|init other(p=Proc_3)");
}
