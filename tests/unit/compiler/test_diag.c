// SPDX-License-Identifier: MIT
// test_diag.c: the exact shape of spec errors, notes and hints, the error
// limit, and name suggestions.
#include <criterion/criterion.h>
#include <signal.h>

#include "mcgen.h"

static char *cap_buf;
static size_t cap_len;

static void capture(void) {
  diag_out = open_memstream(&cap_buf, &cap_len);
}

static const char *captured(void) {
  fflush(diag_out);
  return cap_buf;
}

static SrcFile *src(const char *name, const char *text) {
  SrcFile *f = xcalloc(1, sizeof(SrcFile));
  f->name = name;
  f->text = text;
  f->len = strlen(text);
  return f;
}

// The first token whose text is `s`.
static Token *find(Token *tok, const char *s) {
  for (; tok->kind != TK_EOF; tok = tok->next)
    if (equal(tok, s))
      return tok;
  cr_assert_fail("no token '%s'", s);
  return NULL;
}

static int count_substr(const char *s, const char *sub) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, sub)); p += strlen(sub))
    n++;
  return n;
}

Test(diag, error_format_with_token) {
  capture();
  const char *text = "model m;\naction foo when pcc[p] == idle {\n}\n";
  Token *toks = tokenize(src("spec.mc", text));
  error_at(find(toks, "pcc"), "unknown name '%s'", "pcc");
  cr_assert_str_eq(captured(), "spec.mc:2:17: error: unknown name 'pcc'\n"
                               "   2 | action foo when pcc[p] == idle {\n"
                               "     |                 ^~~\n");
  cr_assert_eq(error_count(), 1);
}

Test(diag, line_number_right_aligned_in_four_columns) {
  capture();
  Buf b = {0};
  for (int i = 1; i < 12; i++)
    buf_puts(&b, "\n");
  buf_puts(&b, "action foo when pcc[p] == idle {\n");
  Token *toks = tokenize(src("spec.mc", b.data));
  error_at(find(toks, "pcc"), "unknown name 'pcc'");
  hint("did you mean '%s'?", "pc");
  cr_assert_str_eq(captured(), "spec.mc:12:17: error: unknown name 'pcc'\n"
                               "  12 | action foo when pcc[p] == idle {\n"
                               "     |                 ^~~\n"
                               "  hint: did you mean 'pc'?\n");
}

Test(diag, wide_line_numbers_widen_the_gutter) {
  capture();
  Buf b = {0};
  for (int i = 1; i < 12345; i++)
    buf_puts(&b, "\n");
  buf_puts(&b, "x\n");
  Token *toks = tokenize(src("big.mc", b.data));
  error_at(toks, "oops");
  cr_assert_str_eq(captured(), "big.mc:12345:1: error: oops\n"
                               "12345 | x\n"
                               "      | ^\n");
}

Test(diag, tabs_are_reproduced_before_the_caret) {
  capture();
  Token *toks = tokenize(src("t.mc", "\tx =\t  yy;\n"));
  error_at(find(toks, "yy"), "bad");
  cr_assert_str_eq(captured(), "t.mc:1:8: error: bad\n"
                               "   1 | \tx =\t  yy;\n"
                               "     | \t   \t  ^~\n");
}

Test(diag, note_has_the_same_shape_and_is_not_counted) {
  capture();
  Token *toks = tokenize(src("t.mc", "action a {\n  x = 1;\n"));
  error_at(toks->next->next->next, "expected '}'");
  note_at(find(toks, "{"), "to match this '{'");
  cr_assert_str_eq(captured(), "t.mc:2:3: error: expected '}'\n"
                               "   2 |   x = 1;\n"
                               "     |   ^\n"
                               "t.mc:1:10: note: to match this '{'\n"
                               "   1 | action a {\n"
                               "     |          ^\n");
  cr_assert_eq(error_count(), 1);
}

Test(diag, error_at_loc_computes_line_and_column) {
  capture();
  const char *text = "ab\ncdef\n";
  SrcFile *f = src("t.mc", text);
  error_at_loc(f, text + 5, "here");
  cr_assert_str_eq(captured(), "t.mc:2:3: error: here\n"
                               "   2 | cdef\n"
                               "     |   ^\n");
  int line, col;
  loc_line_col(f, text, &line, &col);
  cr_assert_eq(line, 1);
  cr_assert_eq(col, 1);
  loc_line_col(f, text + 3, &line, &col);
  cr_assert_eq(line, 2);
  cr_assert_eq(col, 1);
}

Test(diag, binary_bytes_are_shown_as_question_marks) {
  capture();
  const char text[] = "x = \x01\x02\xff\x1b[31m y;\n";
  Token *toks = tokenize(src("t.mc", text));
  cr_assert_eq(error_count(), 5); // \x01 \x02 \xff \x1b, and `31m`
  fclose(diag_out);
  capture();
  error_at(find(toks, "y"), "look");
  const char *out = captured();
  cr_assert_str_eq(out, "t.mc:1:14: error: look\n"
                        "   1 | x = ????[31m y;\n"
                        "     |              ^\n");
}

Test(diag, message_bytes_are_sanitized) {
  capture();
  Token *toks = tokenize(src("t.mc", "x\n"));
  error_at(toks, "bad \x1b[2J name");
  cr_assert(strstr(captured(), "error: bad ?[2J name\n"));
}

Test(diag, crlf_line_endings_do_not_echo_carriage_returns) {
  capture();
  Token *toks = tokenize(src("t.mc", "a = b;\r\nc = d;\r\n"));
  error_at(find(toks, "d"), "x");
  cr_assert_str_eq(captured(), "t.mc:2:5: error: x\n"
                               "   2 | c = d;\n"
                               "     |     ^\n");
}

Test(diag, tilde_stops_at_end_of_line) {
  capture();
  Token *toks = tokenize(src("t.mc", "ab\n"));
  Token t = *toks;
  t.len = 10;
  error_at(&t, "long");
  cr_assert_str_eq(captured(), "t.mc:1:1: error: long\n"
                               "   1 | ab\n"
                               "     | ^~\n");
}

Test(diag, token_without_file_still_reports) {
  capture();
  error_at(NULL, "no place");
  cr_assert_str_eq(captured(), "mcgen: error: no place\n");
  cr_assert_eq(error_count(), 1);
}

Test(diag, too_many_errors) {
  capture();
  Token *toks = tokenize(src("spec.mc", "x\n"));
  for (int i = 0; i < 150; i++) {
    error_at(toks, "error number %d", i);
    note_at(toks, "a note");
    hint("a hint");
  }
  const char *out = captured();
  cr_assert_eq(error_count(), 150);
  cr_assert_eq(count_substr(out, ": error: "), 100);
  cr_assert_eq(count_substr(out, ": note: "), 100);
  cr_assert_eq(count_substr(out, "  hint: "), 100);
  cr_assert_eq(count_substr(out, "spec.mc: too many errors; stopping\n"), 1);
  cr_assert(strstr(out, "error number 99\n"));
  cr_assert_null(strstr(out, "error number 100\n"));
  // The notice comes after the last shown error and its notes.
  cr_assert(strstr(out, "error number 99") < strstr(out, "too many errors"));
}

Test(diag, exactly_one_hundred_errors_print_no_notice) {
  capture();
  Token *toks = tokenize(src("spec.mc", "x\n"));
  for (int i = 0; i < 100; i++)
    error_at(toks, "e");
  cr_assert_null(strstr(captured(), "too many errors"));
}

Test(diag, closest_name_suggests_near_names) {
  const char *names[] = {"pc", "level", "victim", "Proc"};
  cr_assert_str_eq(closest_name("pcc", names, 4), "pc");
  cr_assert_str_eq(closest_name("levle", names, 4), "level"); // transposition: 1
  cr_assert_str_eq(closest_name("victin", names, 4), "victim");
  cr_assert_str_eq(closest_name("proc", names, 4), "Proc");
  cr_assert_null(closest_name("zzz", names, 4));
  cr_assert_null(closest_name("pc", names, 4)); // itself is no suggestion
  cr_assert_null(closest_name("x", names, 0));
}

Test(diag, closest_name_threshold_is_a_third_of_the_length) {
  const char *names[] = {"abcdefghi"};
  // len 9: at most 3 edits.
  cr_assert_str_eq(closest_name("abcdefxyz", names, 1), "abcdefghi");
  cr_assert_null(closest_name("abcdewxyz", names, 1));
  // Short names: at most 1 edit.
  const char *short_names[] = {"ab"};
  cr_assert_str_eq(closest_name("ax", short_names, 1), "ab");
  cr_assert_null(closest_name("xy", short_names, 1));
}

Test(diag, closest_name_ties_go_to_the_first_candidate) {
  const char *names[] = {"cat", "bat", "hat"};
  cr_assert_str_eq(closest_name("rat", names, 3), "cat");
  const char *names2[] = {"hat", "bat", "cat"};
  cr_assert_str_eq(closest_name("rat", names2, 3), "hat");
  const char *names3[] = {"xat", "rats"};
  cr_assert_str_eq(closest_name("rat", names3, 2), "xat");
}

Test(util, format_and_buffers) {
  cr_assert_str_eq(format("%s-%d", "a", 42), "a-42");
  Buf b = {0};
  for (int i = 0; i < 1000; i++)
    buf_printf(&b, "%d,", i % 10);
  cr_assert_eq(b.len, 2000);
  cr_assert_eq(strlen(b.data), 2000);
  buf_puts(&b, "end");
  cr_assert_str_eq(b.data + 2000, "end");
  Vec v = {0};
  for (long i = 0; i < 100; i++)
    vec_push(&v, (void *)i);
  cr_assert_eq(v.len, 100);
  cr_assert_eq((long)v.data[99], 99);
  cr_assert_str_eq(xstrndup("abcdef", 3), "abc");
  cr_assert_str_eq(xstrdup("xyz"), "xyz");
  char *z = xcalloc(0, 0);
  cr_assert_not_null(z);
}

Test(util, die_reports_file_and_line, .signal = SIGABRT) {
  die("boom %d", 1);
}
