// SPDX-License-Identifier: MIT
// json.c: a small JSON reader (RFC 8259) for what a checker reads back: a
// trail (--replay FILE), which a person or another tool may have written.
// The runtime links nothing but libc, libm and xxHash (a checker copied to a
// cluster needs nothing else), so it reads JSON itself: a tree of values,
// each with its line and column for the messages. Integers that fit an
// int64_t are kept exact (a spec's values are int64_t); nesting is bounded
// (MCRT_JSON_MAX_DEPTH), so no input recurses deeply on the C stack.
#include "core/core.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#define MCRT_JSON_MAX_DEPTH 64

typedef struct Reader {
  const char *p, *end, *line_start;
  int line;
  char *err;
  size_t errn;
  bool failed;
} Reader;

static void fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(Reader *r, const char *fmt, ...) {
  if (r->failed)
    return;
  r->failed = true;
  int n = snprintf(r->err, r->errn, "%d:%d: ", r->line, (int)(r->p - r->line_start) + 1);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < r->errn)
    vsnprintf(r->err + n, r->errn - (size_t)n, fmt, ap);
  va_end(ap);
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    mcrt_die("out of memory reading JSON");
  return p;
}

static void skip_blanks(Reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) {
    if (*r->p == '\n')
      r->line++, r->line_start = r->p + 1;
    r->p++;
  }
}

static bool take_word(Reader *r, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
    return false;
  r->p += n;
  return true;
}

// Appends the UTF-8 bytes of code point c to out (room for 4).
static size_t put_utf8(char *out, uint32_t c) {
  if (c < 0x80)
    return out[0] = (char)c, 1;
  if (c < 0x800)
    return out[0] = (char)(0xc0 | c >> 6), out[1] = (char)(0x80 | (c & 0x3f)), 2;
  if (c < 0x10000) {
    out[0] = (char)(0xe0 | c >> 12), out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[2] = (char)(0x80 | (c & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | c >> 18), out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((c >> 6) & 0x3f)), out[3] = (char)(0x80 | (c & 0x3f));
  return 4;
}

static int hex4(Reader *r) {
  int v = 0;
  for (int i = 0; i < 4; i++, r->p++) {
    char c = r->p < r->end ? *r->p : 0;
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) {
      fail(r, "bad \\u escape in a string");
      return -1;
    }
    v = v * 16 + d;
  }
  return v;
}

// The code point of a \u escape (r->p after the 'u'), a surrogate pair
// joined; -1 after a message.
static int32_t unicode_escape(Reader *r) {
  int hi = hex4(r);
  if (hi < 0xd800 || hi > 0xdfff)
    return hi;
  if (hi > 0xdbff || !take_word(r, "\\u")) {
    fail(r, "a lone surrogate in a \\u escape");
    return -1;
  }
  int lo = hex4(r);
  if (lo < 0xdc00 || lo > 0xdfff) {
    fail(r, "a lone surrogate in a \\u escape");
    return -1;
  }
  return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
}

// A string, r->p after its opening quote; NULL after a message.
static char *read_string(Reader *r) {
  // Escapes only shrink the text, and \u's UTF-8 is no longer than itself.
  char *out = xcalloc((size_t)(r->end - r->p) + 1, 1);
  size_t n = 0;
  while (r->p < r->end && *r->p != '"') {
    unsigned char c = (unsigned char)*r->p++;
    if (c < 0x20) {
      r->p--;
      fail(r, "a control character in a string");
      break;
    }
    if (c != '\\') {
      out[n++] = (char)c;
      continue;
    }
    char e = r->p < r->end ? *r->p++ : 0;
    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    const char *k = e ? strchr(from, e) : NULL;
    if (k) {
      out[n++] = to[k - from];
    } else if (e == 'u') {
      int32_t cp = unicode_escape(r);
      if (cp < 0)
        break;
      if (cp == 0) {
        fail(r, "a NUL character (\\u0000) in a string");
        break;
      }
      n += put_utf8(out + n, (uint32_t)cp);
    } else {
      fail(r, "bad escape '\\%c' in a string", e ? e : ' ');
      break;
    }
  }
  if (!r->failed && r->p >= r->end)
    fail(r, "a string that does not end");
  if (r->failed) {
    free(out);
    return NULL;
  }
  r->p++; // the closing quote
  return out;
}

static void read_number(Reader *r, McrtJson *v) {
  const char *s = r->p;
  if (*r->p == '-')
    r->p++;
  if (r->p >= r->end || *r->p < '0' || *r->p > '9') {
    fail(r, "a bad number");
    return;
  }
  bool integer = true;
  while (r->p < r->end && strchr("0123456789+-.eE", *r->p)) {
    integer &= *r->p >= '0' && *r->p <= '9';
    r->p++;
  }
  char buf[64];
  size_t len = (size_t)(r->p - s);
  if (len >= sizeof buf || (s[0] == '0' && len > 1 && s[1] >= '0' && s[1] <= '9') ||
      (s[0] == '-' && s[1] == '0' && len > 2 && s[2] >= '0' && s[2] <= '9')) {
    r->p = s;
    fail(r, "a bad number");
    return;
  }
  memcpy(buf, s, len);
  buf[len] = 0;
  char *end;
  errno = 0;
  v->kind = MCRT_JSON_NUMBER;
  v->number = strtod(buf, &end);
  if (*end) {
    r->p = s;
    fail(r, "a bad number");
    return;
  }
  if (integer) {
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    v->is_integer = errno == 0 && !*end;
    v->integer = x;
  }
}

static void read_value(Reader *r, McrtJson *v, int depth);

// An array or an object, r->p after its opening bracket.
static void read_list(Reader *r, McrtJson *v, bool object, int depth) {
  v->kind = object ? MCRT_JSON_OBJECT : MCRT_JSON_ARRAY;
  size_t cap = 0;
  char close = object ? '}' : ']';
  skip_blanks(r);
  if (r->p < r->end && *r->p == close) {
    r->p++;
    return;
  }
  for (;;) {
    if (v->n == cap) {
      cap = cap ? 2 * cap : 4;
      v->items = realloc(v->items, cap * sizeof *v->items);
      v->keys = object ? realloc(v->keys, cap * sizeof *v->keys) : NULL;
      if (!v->items || (object && !v->keys))
        mcrt_die("out of memory reading JSON");
    }
    McrtJson *item = &v->items[v->n];
    memset(item, 0, sizeof *item);
    skip_blanks(r);
    if (object) {
      if (r->p >= r->end || *r->p != '"') {
        fail(r, "expected a member's name (a string)");
        return;
      }
      r->p++;
      char *key = read_string(r);
      if (!key)
        return;
      v->keys[v->n] = key;
      skip_blanks(r);
      if (r->p >= r->end || *r->p != ':') {
        v->n++; // (freed with the rest)
        fail(r, "expected ':' after a member's name");
        return;
      }
      r->p++;
    }
    v->n++;
    read_value(r, item, depth + 1);
    if (r->failed)
      return;
    skip_blanks(r);
    if (r->p < r->end && *r->p == ',') {
      r->p++;
      continue;
    }
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return;
    }
    fail(r, "expected ',' or '%c'", close);
    return;
  }
}

static void read_value(Reader *r, McrtJson *v, int depth) {
  skip_blanks(r);
  v->line = r->line;
  v->col = (int)(r->p - r->line_start) + 1;
  if (depth > MCRT_JSON_MAX_DEPTH) {
    fail(r, "nested more than %d deep", MCRT_JSON_MAX_DEPTH);
    return;
  }
  if (r->p >= r->end) {
    fail(r, "expected a value, found the end of the text");
    return;
  }
  char c = *r->p;
  if (c == '{' || c == '[') {
    r->p++;
    read_list(r, v, c == '{', depth);
  } else if (c == '"') {
    r->p++;
    v->kind = MCRT_JSON_STRING;
    v->string = read_string(r);
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    read_number(r, v);
  } else if (take_word(r, "true") || take_word(r, "false")) {
    v->kind = MCRT_JSON_BOOL;
    v->boolean = c == 't';
  } else if (take_word(r, "null")) {
    v->kind = MCRT_JSON_NULL;
  } else {
    fail(r, "expected a value");
  }
}

static void free_value(McrtJson *v) {
  for (size_t i = 0; i < v->n; i++) {
    free_value(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
}

McrtJson *mcrt_json_parse(const char *text, size_t len, char *err, size_t errn) {
  Reader r = {.p = text, .end = text + len, .line_start = text, .line = 1, .err = err,
              .errn = errn};
  McrtJson *v = xcalloc(1, sizeof *v);
  read_value(&r, v, 0);
  skip_blanks(&r);
  if (!r.failed && r.p < r.end)
    fail(&r, "text after the JSON value");
  if (r.failed) {
    mcrt_json_free(v);
    return NULL;
  }
  return v;
}

void mcrt_json_free(McrtJson *v) {
  if (!v)
    return;
  free_value(v);
  free(v);
}

const McrtJson *mcrt_json_get(const McrtJson *object, const char *key) {
  if (!object || object->kind != MCRT_JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < object->n; i++)
    if (!strcmp(object->keys[i], key))
      return &object->items[i];
  return NULL;
}

const char *mcrt_json_kind_name(McrtJsonKind k) {
  static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array",
                                      "an object"};
  return names[k];
}
