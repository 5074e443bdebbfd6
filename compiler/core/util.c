// SPDX-License-Identifier: MIT
// util.c: memory, strings, hashes and internal errors.
//
// The compiler is short-lived, so nothing is freed. Every allocation that
// fails is an internal error (die), never a spec error.
#include "mcgen.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static _Noreturn void out_of_memory(void) {
  fputs("mcgen: out of memory\n", stderr);
  abort();
}

void *xcalloc(size_t n, size_t size) {
  // calloc(0, ...) may return NULL; always hand back a usable pointer.
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *xrealloc(void *p, size_t size) {
  p = realloc(p, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

char *xstrndup(const char *s, size_t n) {
  char *p = xcalloc(n + 1, 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *xstrdup(const char *s) {
  return xstrndup(s, strlen(s));
}

// The length of the formatted text (ap is left as it was, for the writing).
static size_t formatted_len(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    die("bad format '%s'", fmt);
  return (size_t)n;
}

char *vformat(const char *fmt, va_list ap) {
  size_t n = formatted_len(fmt, ap);
  char *buf = xcalloc(n + 1, 1);
  vsnprintf(buf, n + 1, fmt, ap);
  return buf;
}

char *format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

// `"`, `\` and `?` (against trigraphs) get a backslash, a newline is \n,
// every other byte outside printable ASCII an octal escape: always three
// digits, so that a digit after it is not read as part of it.
char *c_escape(const char *s) {
  Buf b = {0};
  buf_puts(&b, "");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\' || *p == '?')
      buf_printf(&b, "\\%c", *p);
    else if (*p == '\n')
      buf_puts(&b, "\\n");
    else if (*p < 32 || *p >= 127)
      buf_printf(&b, "\\%03o", *p);
    else
      buf_printf(&b, "%c", *p);
  }
  return b.data;
}

// A backslash splits every `*/` and `/*`: `x*/y` reads `x*\/y`.
char *c_comment_escape(const char *s) {
  Buf b = {0};
  buf_puts(&b, "");
  for (const char *p = c_escape(s); *p; p++) {
    buf_printf(&b, "%c", *p);
    if ((p[0] == '*' && p[1] == '/') || (p[0] == '/' && p[1] == '*'))
      buf_puts(&b, "\\");
  }
  return b.data;
}

// An internal error: a bug in mcgen, not in the spec. Say where, and abort
// so that a debugger or core dump shows how we got here.
_Noreturn void die_at(const char *file, int line, const char *fmt, ...) {
  fflush(stdout);
  fprintf(stderr, "mcgen: internal error at %s:%d: ", file, line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

void vec_push(Vec *v, void *item) {
  if (v->len == v->cap) {
    int cap = v->cap ? v->cap * 2 : 8;
    v->data = xrealloc(v->data, sizeof(void *) * (size_t)cap);
    v->cap = cap;
  }
  v->data[v->len++] = item;
}

// Makes room for `extra` more bytes plus the terminating NUL.
static void buf_reserve(Buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

void buf_puts(Buf *b, const char *s) {
  size_t n = strlen(s);
  buf_reserve(b, n);
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t n = formatted_len(fmt, ap);
  buf_reserve(b, n);
  vsnprintf(b->data + b->len, n + 1, fmt, ap);
  va_end(ap);
  b->len += n;
}

uint64_t str_hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

bool strset_has(const StrSet *set, const char *s) {
  if (!set->cap)
    return false;
  size_t j = str_hash(s) & (set->cap - 1);
  for (; set->slots[j]; j = (j + 1) & (set->cap - 1))
    if (!strcmp(set->slots[j], s))
      return true;
  return false;
}

uint64_t bytes_hash(const void *data, size_t len) { return XXH3_64bits(data, len); }

bool strset_add(StrSet *set, const char *s) {
  if (2 * (set->count + 1) > set->cap) {
    size_t ncap = set->cap ? set->cap * 2 : 1024;
    const char **slots = xcalloc(ncap, sizeof *slots);
    for (size_t i = 0; i < set->cap; i++)
      if (set->slots[i]) {
        size_t j = str_hash(set->slots[i]) & (ncap - 1);
        while (slots[j])
          j = (j + 1) & (ncap - 1);
        slots[j] = set->slots[i];
      }
    set->slots = slots;
    set->cap = ncap;
  }
  size_t j = str_hash(s) & (set->cap - 1);
  for (; set->slots[j]; j = (j + 1) & (set->cap - 1))
    if (!strcmp(set->slots[j], s))
      return false;
  set->slots[j] = s;
  set->count++;
  return true;
}

const char *strset_fresh(StrSet *set, const char *base) {
  const char *s = base;
  for (int n = 2; !strset_add(set, s); n++)
    s = format("%s_%d", base, n);
  return s;
}
