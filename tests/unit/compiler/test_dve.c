// SPDX-License-Identifier: MIT
// test_dve.c: the DVE front end's parser (dve_parse.c) and its recovery
// after syntax errors: what the tree keeps, what it loses, how many errors a
// broken file gets, and the error cap.
#include "spec_test.h"

#include "front/dve/dve.h"

// A .dve file named t.dve holding `text`.
static SrcFile *dve_file(const char *text) {
  SrcFile *f = spec_file(text);
  f->name = "t.dve";
  return f;
}

static int count_lines(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

static DProc *proc_at(DSystem *s, int i) {
  cr_assert_lt(i, s->procs.len);
  return s->procs.data[i];
}

Test(dve_parse, valid_model_tree) {
  capture_diagnostics();
  DSystem *s = dve_parse(dve_file("byte x = 1, a[2] = {3, 4};\n"
                                  "channel c;\n"
                                  "process P {\n"
                                  "state i, j; init i; commit j;\n"
                                  "trans i -> j { guard x > 0; sync c!x; effect a[0] = 1; },\n"
                                  "      j -> i {};\n"
                                  "}\n"
                                  "system async;\n"));
  cr_expect_eq(error_count(), errors_before, "%s", captured());
  cr_assert_eq(s->vars.len, 2);
  DVar *a = s->vars.data[1];
  cr_expect_str_eq(a->name->str, "a");
  cr_expect_not_null(a->size_expr);
  cr_expect_eq(a->init.len, 2);
  cr_expect_eq(s->chans.len, 1);
  DProc *p = proc_at(s, 0);
  cr_expect_eq(p->states.len, 2);
  cr_expect_eq(p->commits.len, 1);
  cr_assert_eq(p->trans.len, 2);
  DTrans *t = p->trans.data[0];
  cr_expect(t->send);
  cr_expect_eq(t->guards.len, 1);
  cr_expect_eq(t->lhs.len, 1);
  cr_expect(!t->broken && !p->broken);
  cr_expect_not_null(s->system_tok);
}

// Three syntax errors in three transitions of one process: each reported
// once, every transition in the tree, the broken ones marked, the rest of
// a broken transition (after its clause's ';') still read.
Test(dve_parse, recovery_per_clause_and_transition) {
  capture_diagnostics();
  DSystem *s = dve_parse(dve_file("byte x;\n"
                                  "process P {\n"
                                  "state a, b; init a;\n"
                                  "trans a -> b { guard x > ; effect x = 1; },\n"
                                  "      b -> { },\n"
                                  "      a -> a { effect x = 1 x = 2; },\n"
                                  "      b -> b { guard x == 1; };\n"
                                  "}\n"
                                  "system async;\n"));
  cr_expect_eq(error_count() - errors_before, 3, "%s", captured());
  cr_expect(strstr(captured(), "t.dve:4:26: error: expected an expression, found ';'"), "%s",
            captured());
  cr_expect(strstr(captured(), "t.dve:5:12: error: expected a state name, found '{'"), "%s",
            captured());
  cr_expect(strstr(captured(), "t.dve:6:29: error: expected ';', found 'x'"), "%s", captured());
  DProc *p = proc_at(s, 0);
  cr_assert_eq(p->trans.len, 4);
  DTrans *t0 = p->trans.data[0], *t3 = p->trans.data[3];
  cr_expect(t0->broken);
  cr_expect_eq(t0->lhs.len, 1, "the effect after the broken guard is read");
  cr_expect(!t3->broken);
  cr_expect(p->broken);
  cr_expect_not_null(s->system_tok, "parsing went on to the end");
}

// What recovery skips is remembered, so that its uses are not called
// unknown; a name that was declared is not lost.
Test(dve_parse, skipped_names_are_lost) {
  capture_diagnostics();
  dve_parse(dve_file("byte[3] a;\n"
                     "byte y;\n"
                     "process P state s; init s; }\n"
                     "system async;\n"));
  cr_expect_eq(error_count() - errors_before, 2, "%s", captured());
  cr_expect(dve_name_lost("a"));
  cr_expect(dve_name_lost("P"));
  cr_expect(dve_name_lost("s"));
  cr_expect(!dve_name_lost("y"));
  cr_expect(dve_name_lost(""), "a missing name is never reported");
}

// A character the lexer rejects is reported once, not again by the parser.
Test(dve_parse, bad_character_once) {
  capture_diagnostics();
  dve_parse(dve_file("byte x = $1;\nprocess P { state a; init a; }\nsystem async;\n"));
  cr_expect_eq(error_count() - errors_before, 1, "%s", captured());
}

// 150 processes with a syntax error each: every error counted, the first
// 100 shown, then one line saying the rest is not.
Test(dve_parse, error_cap) {
  Buf b = {0};
  for (int i = 0; i < 150; i++)
    buf_printf(&b, "process P%d { state a; init a; trans a -> a { guard ; }; }\n", i);
  buf_puts(&b, "system async;\n");
  capture_diagnostics();
  parse_dve(dve_file(b.data));
  cr_expect_eq(error_count() - errors_before, 150);
  cr_expect_eq(count_lines(captured(), ": error: "), 100);
  cr_expect_eq(count_lines(captured(), "too many errors; stopping"), 1);
}
