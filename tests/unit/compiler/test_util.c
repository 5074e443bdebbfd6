// SPDX-License-Identifier: MIT
// test_util.c: c_escape and c_comment_escape, which put file names and spec
// text into the generated C (string literals, #line, comments).
#include <criterion/criterion.h>

#include "mcgen.h"

// The compiler never frees (STYLE.md rule 6): leaks are by design.
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

// Reads the escapes back as a C compiler does (only those c_escape writes).
static char *unescape(const char *s) {
  Buf b = {0};
  buf_puts(&b, "");
  for (; *s; s++) {
    if (*s != '\\') {
      buf_printf(&b, "%c", *s);
      continue;
    }
    s++;
    if (*s == 'n') {
      buf_puts(&b, "\n");
    } else if (*s >= '0' && *s <= '7') {
      int v = 0;
      for (int i = 0; i < 3 && *s >= '0' && *s <= '7'; i++, s++)
        v = v * 8 + (*s - '0');
      s--;
      buf_printf(&b, "%c", (char)v);
    } else {
      buf_printf(&b, "%c", *s);
    }
  }
  return b.data;
}

Test(c_escape, specials) {
  cr_assert_str_eq(c_escape("plain/name.mc"), "plain/name.mc");
  cr_assert_str_eq(c_escape("q\"z\\w"), "q\\\"z\\\\w");
  cr_assert_str_eq(c_escape("new\nline"), "new\\nline");
  cr_assert_str_eq(c_escape("a?" "?/b"), "a\\?\\?/b");
  cr_assert_str_eq(c_escape("\t"), "\\011");
}

// A non-ASCII byte before a digit: the octal escape has all three digits,
// so the digit is not read as part of it.
Test(c_escape, octal_then_digit) {
  cr_assert_str_eq(c_escape("\xff" "1"), "\\3771");
  cr_assert_str_eq(unescape(c_escape("\xff" "1")), "\xff" "1");
}

// Every byte: the text is printable ASCII (so no m4 quote, no raw newline),
// has no unescaped `"`, and reads back as the original.
Test(c_escape, every_byte) {
  char in[256 * 2 + 1];
  int n = 0;
  for (int c = 1; c < 256; c++) {
    in[n++] = (char)c;
    in[n++] = '7';
  }
  in[n] = '\0';
  char *e = c_escape(in);
  for (const char *p = e; *p; p++) {
    cr_assert(*p >= 32 && *p < 127, "byte %d in the escaped text", (unsigned char)*p);
    if (*p == '\\')
      p++;
    else
      cr_assert(*p != '"', "unescaped quote in %s", e);
  }
  cr_assert_str_eq(unescape(e), in);
}

// No `*/` that would end the comment, no `/*` that GCC warns about.
Test(c_comment_escape, cannot_close) {
  const char *names[] = {"x*/spec.mc", "x/*y.mc", "/*/", "**//**", "a*/*/b", "*", "/", "*/*/*"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char *e = c_comment_escape(names[i]);
    cr_assert_null(strstr(e, "*/"), "'%s' gives '%s'", names[i], e);
    cr_assert_null(strstr(e, "/*"), "'%s' gives '%s'", names[i], e);
  }
  cr_assert_str_eq(c_comment_escape("x*/spec.mc"), "x*\\/spec.mc");
  cr_assert_str_eq(c_comment_escape("q\"\n"), "q\\\"\\n");
}
