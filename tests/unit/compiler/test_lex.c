// SPDX-License-Identifier: MIT
// test_lex.c: tokens, their positions, and lexical errors.
#include <criterion/criterion.h>
#include <unistd.h>

#include "mcgen.h"

static char *cap_buf;
static size_t cap_len;

static void capture(void) {
  diag_out = open_memstream(&cap_buf, &cap_len);
}

static const char *captured(void) {
  fflush(diag_out);
  return cap_buf ? cap_buf : "";
}

static SrcFile *src_n(const char *text, size_t len) {
  SrcFile *f = xcalloc(1, sizeof(SrcFile));
  f->name = "t.mc";
  f->text = text;
  f->len = len;
  return f;
}

static Token *lex(const char *text) {
  capture();
  return tokenize(src_n(text, strlen(text)));
}

// The tokens' texts joined by spaces, e.g. "a [ i ] <EOF>".
static char *texts(Token *tok) {
  Buf b = {0};
  buf_puts(&b, "");
  for (; tok; tok = tok->next) {
    if (b.len)
      buf_puts(&b, " ");
    if (tok->kind == TK_EOF)
      buf_puts(&b, "<EOF>");
    else
      buf_printf(&b, "%.*s", tok->len, tok->loc);
  }
  return b.data;
}

static int count(Token *tok) {
  int n = 0;
  for (; tok; tok = tok->next)
    n++;
  return n;
}

Test(lex, empty_file_is_just_eof) {
  Token *t = lex("");
  cr_assert_eq(t->kind, TK_EOF);
  cr_assert_null(t->next);
  cr_assert_eq(t->line, 1);
  cr_assert_eq(t->col, 1);
  cr_assert_eq(error_count(), 0);
}

Test(lex, identifiers_and_keywords) {
  Token *t = lex("model foo _x9 action when count sum weak strong Set set queue");
  TokenKind kinds[] = {TK_KEYWORD, TK_IDENT, TK_IDENT, TK_KEYWORD, TK_KEYWORD, TK_IDENT,
                       TK_IDENT,   TK_IDENT, TK_IDENT, TK_IDENT,   TK_KEYWORD, TK_KEYWORD,
                       TK_EOF};
  for (int i = 0; t; t = t->next, i++)
    cr_assert_eq(t->kind, kinds[i], "token %d", i);
  t = lex("foo");
  cr_assert_str_eq(t->str, "foo");
  cr_assert_eq(error_count(), 0);
}

Test(lex, every_reserved_keyword) {
  const char *kws[] = {"model", "const", "type", "var", "fn", "init", "action",
                       "invariant", "reachable", "terminal", "constraint", "property",
                       "fair", "when", "if", "else", "for", "let", "assert", "return",
                       "forall", "exists", "in", "true", "false", "none", "bool", "enum",
                       "scalarset", "record", "set", "multiset", "queue"};
  for (size_t i = 0; i < sizeof kws / sizeof *kws; i++) {
    Token *t = lex(kws[i]);
    cr_assert_eq(t->kind, TK_KEYWORD, "%s", kws[i]);
    cr_assert_str_eq(t->str, kws[i]);
  }
  // C keywords and library names are ordinary names.
  Token *t = lex("int main free while");
  for (; t->kind != TK_EOF; t = t->next)
    cr_assert_eq(t->kind, TK_IDENT);
}

Test(lex, identifier_strings_are_interned) {
  Token *t = lex("abc x abc");
  cr_assert_eq(t->str, t->next->next->str);
}

Test(lex, punctuation_longest_match) {
  Token *t = lex("<-> :: .. == != <= >= && || -> ~> ( ) [ ] { } , ; : . ? = < > + - * / % ! |");
  cr_assert_str_eq(texts(t), "<-> :: .. == != <= >= && || -> ~> ( ) [ ] { } , ; : . ? = < > "
                             "+ - * / % ! | <EOF>");
  for (; t->kind != TK_EOF; t = t->next)
    cr_assert_eq(t->kind, TK_PUNCT);
  cr_assert_eq(error_count(), 0);
}

Test(lex, brackets_and_angles_are_single_tokens) {
  cr_assert_str_eq(texts(lex("a[i]")), "a [ i ] <EOF>");
  cr_assert_str_eq(texts(lex("set<T>")), "set < T > <EOF>");
  cr_assert_str_eq(texts(lex("[]<>P")), "[ ] < > P <EOF>");
  cr_assert_str_eq(texts(lex("<>[]P")), "< > [ ] P <EOF>");
  cr_assert_str_eq(texts(lex("set<set<T>>")), "set < set < T > > <EOF>");
  cr_assert_str_eq(texts(lex("0..N-1")), "0 .. N - 1 <EOF>");
  cr_assert_str_eq(texts(lex("a<->b->c~>d")), "a <-> b -> c ~> d <EOF>");
  cr_assert_str_eq(texts(lex("x::y:z")), "x :: y : z <EOF>");
  cr_assert_str_eq(texts(lex("m.count(e)")), "m . count ( e ) <EOF>");
}

Test(lex, numbers) {
  Token *t = lex("0 42 007 9223372036854775807");
  cr_assert_eq(t->kind, TK_NUM);
  cr_assert_eq(t->val, 0);
  cr_assert_eq(t->next->val, 42);
  cr_assert_eq(t->next->next->val, 7);
  cr_assert_eq(t->next->next->next->val, INT64_MAX);
  cr_assert_eq(error_count(), 0);
}

Test(lex, integer_literal_too_large) {
  Token *t = lex("x = 9223372036854775808;");
  cr_assert_eq(error_count(), 1);
  cr_assert_str_eq(captured(), "t.mc:1:5: error: integer literal too large\n"
                               "   1 | x = 9223372036854775808;\n"
                               "     |     ^~~~~~~~~~~~~~~~~~~\n");
  cr_assert_str_eq(texts(t), "x = 9223372036854775808 ; <EOF>");
  lex("99999999999999999999999999999999999");
  cr_assert_eq(error_count(), 2);
}

Test(lex, bad_integer_literal_is_one_error) {
  Token *t = lex("0x1f 12abc");
  cr_assert_eq(error_count(), 2);
  cr_assert(strstr(captured(), "t.mc:1:1: error: invalid integer literal"));
  cr_assert(strstr(captured(), "t.mc:1:6: error: invalid integer literal"));
  cr_assert_eq(count(t), 3);
}

Test(lex, strings_and_escapes) {
  Token *t = lex("assert x, \"a \\\"b\\\" \\\\ \\n\\t end\";");
  Token *s = t->next->next->next;
  cr_assert_eq(s->kind, TK_STR);
  cr_assert_str_eq(s->str, "a \"b\" \\ \n\t end");
  cr_assert_eq(s->col, 11);
  cr_assert(equal(s->next, ";"));
  cr_assert_eq(error_count(), 0);
  // A string is never equal() to punctuation or names.
  t = lex("\";\"");
  cr_assert_not(equal(t, ";"));
  cr_assert_not(equal(t, "\";\""));
}

Test(lex, unterminated_string) {
  Token *t = lex("x = \"abc\ny = 1;");
  cr_assert_eq(error_count(), 1);
  cr_assert_str_eq(captured(), "t.mc:1:5: error: unterminated string\n"
                               "   1 | x = \"abc\n"
                               "     |     ^\n");
  // Lexing goes on at the next line.
  cr_assert_str_eq(texts(t), "x = \"abc y = 1 ; <EOF>");
  lex("\"abc");
  cr_assert_eq(error_count(), 2);
  lex("\"abc\\");
  cr_assert_eq(error_count(), 3);
}

Test(lex, unknown_escape) {
  Token *t = lex("\"a\\qb\"");
  cr_assert_eq(error_count(), 1);
  cr_assert(strstr(captured(), "t.mc:1:3: error: unknown escape sequence"));
  cr_assert_str_eq(t->str, "aqb");
}

Test(lex, comments) {
  Token *t = lex("a // line comment\n/* block\n comment */ b /**/ c // end");
  cr_assert_str_eq(texts(t), "a b c <EOF>");
  cr_assert_eq(t->next->line, 3);
  cr_assert_eq(t->next->col, 13);
  cr_assert_eq(error_count(), 0);
  cr_assert_str_eq(texts(lex("a/b")), "a / b <EOF>");
  cr_assert_str_eq(texts(lex("/* a */* b")), "* b <EOF>");
}

Test(lex, unterminated_block_comment) {
  Token *t = lex("x\n  /* never\nclosed\n");
  cr_assert_eq(error_count(), 1);
  cr_assert_str_eq(captured(), "t.mc:2:3: error: unterminated comment\n"
                               "   2 |   /* never\n"
                               "     |   ^~\n");
  cr_assert_str_eq(texts(t), "x <EOF>");
}

Test(lex, positions) {
  Token *t = lex("model m;\n\n  var  x: bool;\n\tfoo");
  int expect[][2] = {{1, 1}, {1, 7}, {1, 8}, {3, 3}, {3, 8}, {3, 9}, {3, 11}, {3, 15}, {4, 2}};
  for (int i = 0; i < 9; i++, t = t->next) {
    cr_assert_eq(t->line, expect[i][0], "token %d line", i);
    cr_assert_eq(t->col, expect[i][1], "token %d col", i);
  }
  cr_assert_eq(t->kind, TK_EOF);
  cr_assert_eq(t->line, 4);
  cr_assert_eq(t->col, 5);
}

Test(lex, eof_sits_at_the_end_of_the_last_line) {
  Token *t = lex("a\nbc\n");
  t = t->next->next;
  cr_assert_eq(t->kind, TK_EOF);
  cr_assert_eq(t->line, 2);
  cr_assert_eq(t->col, 3);
  t = lex("a\nbc");
  t = t->next->next;
  cr_assert_eq(t->line, 2);
  cr_assert_eq(t->col, 3);
}

Test(lex, bad_characters_are_reported_and_skipped) {
  Token *t = lex("a \x01 b @ c");
  cr_assert_eq(error_count(), 2);
  cr_assert_str_eq(texts(t), "a b c <EOF>");
  const char *out = captured();
  cr_assert(strstr(out, "t.mc:1:3: error: unexpected character '\\x01'\n"
                        "   1 | a ? b @ c\n"
                        "     |   ^\n"));
  cr_assert(strstr(out, "t.mc:1:7: error: unexpected character '@'\n"));
}

Test(lex, single_ampersand_hints) {
  lex("a & b");
  cr_assert(strstr(captured(), "error: unexpected character '&'\n"));
  cr_assert(strstr(captured(), "  hint: did you mean '&&'?\n"));
}

Test(lex, utf8_character_is_one_error) {
  Token *t = lex("x = \xe2\x80\x9chello\xe2\x80\x9d;");
  cr_assert_eq(error_count(), 2);
  cr_assert(strstr(captured(), "unexpected character '\\xe2\\x80\\x9c'"));
  cr_assert(strstr(captured(), "   1 | x = ???hello???;\n"
                               "     |     ^~~\n"));
  cr_assert_str_eq(texts(t), "x = hello ; <EOF>");
}

Test(lex, nul_bytes_do_not_truncate) {
  static const char text[] = "a\0b\n\0c";
  capture();
  Token *t = tokenize(src_n(text, sizeof text - 1));
  cr_assert_eq(error_count(), 2);
  cr_assert_str_eq(texts(t), "a b c <EOF>");
  cr_assert(strstr(captured(), "t.mc:1:2: error: unexpected character '\\x00'\n"
                               "   1 | a?b\n"));
  cr_assert_eq(t->next->next->line, 2);
  cr_assert_eq(t->next->next->col, 2);
}

Test(lex, random_bytes_never_crash) {
  srand(7);
  for (int round = 0; round < 50; round++) {
    size_t n = (size_t)(rand() % 2000);
    char *text = xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++)
      text[i] = (char)(rand() % 256);
    capture();
    Token *t = tokenize(src_n(text, n));
    while (t->kind != TK_EOF) {
      cr_assert(t->loc >= text && t->loc + t->len <= text + n);
      cr_assert(t->line >= 1 && t->col >= 1);
      t = t->next;
    }
    fclose(diag_out);
  }
}

Test(lex, equal_and_token_text) {
  Token *t = lex("foo <= bar");
  cr_assert(equal(t, "foo"));
  cr_assert_not(equal(t, "fo"));
  cr_assert_not(equal(t, "fooo"));
  cr_assert(equal(t->next, "<="));
  cr_assert_not(equal(t->next, "<"));
  cr_assert_str_eq(token_text(t->next), "<=");
  Token *eof = t->next->next->next;
  cr_assert_eq(eof->kind, TK_EOF);
  cr_assert_not(equal(eof, ""));
}

Test(lex, read_file_keeps_nul_bytes) {
  char path[] = "/tmp/mcgen_lex_XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  static const char data[] = "model m;\0var";
  cr_assert_eq(write(fd, data, sizeof data - 1), (ssize_t)(sizeof data - 1));
  close(fd);
  SrcFile *f = read_file(path);
  unlink(path);
  cr_assert_not_null(f);
  cr_assert_eq(f->len, sizeof data - 1);
  cr_assert_eq(memcmp(f->text, data, f->len), 0);
  cr_assert_eq(f->text[f->len], '\0');
  cr_assert_str_eq(f->name, path);
}

Test(lex, read_file_large_and_missing) {
  char path[] = "/tmp/mcgen_lex_XXXXXX";
  int fd = mkstemp(path);
  FILE *fp = fdopen(fd, "w");
  for (int i = 0; i < 100000; i++)
    fputs("const X = 1;\n", fp);
  fclose(fp);
  SrcFile *f = read_file(path);
  unlink(path);
  cr_assert_eq(f->len, 1300000);
  cr_assert_null(read_file("/nonexistent/dir/spec.mc"));
}
