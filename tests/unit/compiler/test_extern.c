// SPDX-License-Identifier: MIT
// test_extern.c: the `extern` grammar (parse.c) and
// compiler/analysis/extern.c on C files written to a temporary directory:
// constants from macros, enumerators and const variables; a function that
// matches; one that does not.
#include <criterion/criterion.h>
#include <unistd.h>

#include "mcgen.h"

static char *cap_buf;
static size_t cap_len;

static const char *captured(void) {
  fflush(diag_out);
  return cap_buf ? cap_buf : "";
}

// A spec in DIR/t.mc (DIR: NULL for no files), parsed.
static Program *parse_in(const char *dir, const char *text) {
  diag_out = open_memstream(&cap_buf, &cap_len);
  SrcFile *f = xcalloc(1, sizeof(SrcFile));
  f->name = dir ? format("%s/t.mc", dir) : "t.mc";
  f->text = text;
  f->len = strlen(text);
  return parse(tokenize(f));
}

static char *temp_dir_with(const char *h, const char *c) {
  char *dir = xstrdup("/tmp/mcgen_extern_XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  FILE *f = fopen(format("%s/x.h", dir), "w");
  fputs(h, f);
  fclose(f);
  f = fopen(format("%s/x.c", dir), "w");
  fputs(c, f);
  fclose(f);
  return dir;
}

Test(extern_parse, every_form) {
  Program *p = parse_in(NULL, "extern \"a.h\" sources \"a.c\", \"b.c\";\n"
                              "extern fn f(x: 0..3): bool trusted;\n"
                              "extern fn g(): 0..1;\n"
                              "extern type T;\n"
                              "extern const N;\n");
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_eq(p->extern_files.len, 1);
  ExternFile *ef = p->extern_files.data[0];
  cr_assert_str_eq(ef->header->str, "a.h");
  cr_assert_eq(ef->sources.len, 2);
  cr_assert_str_eq(((Token *)ef->sources.data[1])->str, "b.c");
  cr_assert_eq(p->decls.len, 3);
  Decl *f = p->decls.data[0], *g = p->decls.data[1], *n = p->decls.data[2];
  cr_assert(f->kind == DK_FN && f->is_extern && f->trusted && !f->body);
  cr_assert_eq(f->params.len, 1);
  cr_assert(g->kind == DK_FN && g->is_extern && !g->trusted);
  cr_assert(n->kind == DK_CONST && n->is_extern && !n->expr);
  cr_assert_eq(p->extern_types.len, 1);
  cr_assert_str_eq(((Token *)p->extern_types.data[0])->str, "T");
}

Test(extern_parse, bad_form) {
  int before = error_count();
  parse_in(NULL, "extern 3;\nvar v: bool;\n");
  cr_assert_eq(error_count(), before + 1);
  cr_assert(strstr(captured(), "t.mc:1:8: error: expected a header in quotes, 'fn', 'type' or "
                               "'const' after 'extern'"),
            "%s", captured());
}

Test(extern_load, constants) {
  char *dir = temp_dir_with("#define A (-3)\nenum { B = 7 };\nstatic const int C = 2 * 5;\n"
                            "#define D \"no\"\n",
                            "#include \"x.h\"\n");
  Program *p = parse_in(dir, "extern \"x.h\" sources \"x.c\";\n"
                             "extern const A; extern const B; extern const C;\n");
  cr_assert(extern_load(p), "%s", captured());
  int64_t want[] = {-3, 7, 10};
  for (int i = 0; i < 3; i++) {
    Decl *d = p->decls.data[i];
    cr_assert_eq(d->expr->kind, ND_NUM);
    cr_assert_eq(d->expr->val, want[i], "%s = %lld", token_text(d->name),
                 (long long)d->expr->val);
  }
}

Test(extern_check, match_and_mismatch) {
  char *dir = temp_dir_with("#include <stdint.h>\nuint8_t next(uint8_t i);\nint8_t prev(int8_t i);\n",
                            "#include \"x.h\"\nuint8_t next(uint8_t i) { return (uint8_t)(i + 1); }\n"
                            "int8_t prev(int8_t i) { return (int8_t)(i - 1); }\n");
  Program *p = parse_in(dir, "extern \"x.h\" sources \"x.c\";\n"
                             "extern fn next(i: 0..255): 0..255;\n"
                             "extern fn prev(i: 0..200): 0..200;\n"
                             "var v: 0..3;\n");
  cr_assert(extern_load(p), "%s", captured());
  cr_assert(check(p, NULL, 0), "%s", captured());
  int before = error_count();
  cr_assert(!extern_check(p));
  cr_assert_eq(error_count(), before + 2, "%s", captured()); // prev's parameter and result
  cr_assert(strstr(captured(), "t.mc:3:16: error: parameter 'i': the C type (-128..127) cannot "
                               "hold every value of 0..200"),
            "%s", captured());
  // the C position, in the spec's directory: DIR/x.h
  cr_assert(strstr(captured(), format("%s/x.h:3:20: note: the C parameter 'i' is 'int8_t'", dir)),
            "%s", captured());
  cr_assert(!strstr(captured(), "'next'"), "%s", captured());
}
