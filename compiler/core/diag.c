// SPDX-License-Identifier: MIT
// diag.c: spec files (read_file) and their errors, for people.
//
//   spec.mc:12:17: error: unknown name 'pcc'
//      12 | action foo when pcc[p] == idle {
//         |                 ^~~
//     hint: did you mean 'pc'?
//
// Columns are 1-based byte offsets. The echoed source line is sanitized (a
// byte that is neither printable ASCII nor a tab is shown as '?') so that a
// binary file cannot garble the terminal; the caret line copies the tabs of
// the source line so that the caret lines up however tabs are displayed. A
// line longer than MAX_SHOWN bytes is shown as a window around the caret,
// cut at UTF-8 character boundaries, with `…` where it was cut.
// After MAX_ERRORS errors the rest are counted but not shown, and neither
// are the notes and hints that follow them.
//
// On a terminal (main.c decides: --color, NO_COLOR) the kind of each
// message, its place and the caret are coloured as GCC colours them. In
// capture mode (the language server) nothing is printed: each message is
// kept as a Diagnostic for the caller to send on.
#include "mcgen.h"

#include <strings.h>
#include <unistd.h>

#define MAX_ERRORS 100
#define MAX_SHOWN 160 // bytes of a long source line shown around the caret

FILE *diag_out;

// stderr is not a constant expression, so diag_out is set before main; the
// NULL check in out() covers a test that clears it.
__attribute__((constructor)) static void init_diag_out(void) {
  if (!diag_out)
    diag_out = stderr;
}

static int nerrors;
static bool suppressed; // the last error was not shown: hide its notes/hints
static bool color;      // SGR escapes around the kinds, places and carets
static Vec *captured;   // Diagnostic*: capture mode, nothing printed

int error_count(void) {
  return nerrors;
}

static FILE *out(void) {
  return diag_out ? diag_out : stderr;
}

bool color_auto(int fd) {
  const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
  return isatty(fd) && !(no_color && *no_color) && !(term && !strcmp(term, "dumb"));
}

void diag_color(bool on) {
  color = on;
}

void diag_capture(Vec *into) {
  captured = into;
}

// The escape that starts (or, for DIAG_PLAIN, ends) a coloured part; "" when
// colour is off.
const char *diag_sgr(DiagColor c) {
  static const char *const sgr[] = {
      [DIAG_PLAIN] = "\033[0m",  [DIAG_PLACE] = "\033[1m",      [DIAG_ERROR] = "\033[1;31m",
      [DIAG_WARNING] = "\033[1;35m", [DIAG_NOTE] = "\033[1;36m", [DIAG_GOOD] = "\033[1;32m",
  };
  return color ? sgr[c] : "";
}

static DiagColor kind_color(const char *kind) {
  return !strcmp(kind, "error") ? DIAG_ERROR : !strcmp(kind, "warning") ? DIAG_WARNING : DIAG_NOTE;
}

// Keeps a message (MSG, which it then owns) in capture mode; false when
// printing.
static bool capture(const char *kind, const SrcFile *file, int line, int col, int len,
                    char *msg) {
  if (!captured)
    return false;
  Diagnostic *d = xcalloc(1, sizeof *d);
  *d = (Diagnostic){.kind = kind, .file = file, .line = line, .col = col, .len = len,
                    .message = msg};
  vec_push(captured, d);
  return true;
}

void loc_line_col(const SrcFile *file, const char *loc, int *line, int *col) {
  int ln = 1;
  const char *start = file->text;
  for (const char *p = file->text; p < loc; p++) {
    if (*p == '\n') {
      ln++;
      start = p + 1;
    }
  }
  *line = ln;
  *col = (int)(loc - start) + 1;
}

static bool is_shown(unsigned char c) {
  return (c >= 0x20 && c < 0x7f) || c == '\t';
}

// Prints a message with any unprintable byte replaced, like the source line.
static void put_sanitized(const char *s) {
  for (; *s; s++)
    fputc(is_shown((unsigned char)*s) ? *s : '?', out());
}

// Prints `   12 | source line` and `      |     ^~~`.
static void show_line(const SrcFile *file, const char *loc, int line, int len) {
  const char *text = file->text;
  const char *end = text + file->len;
  if (loc < text || loc > end)
    return;

  const char *start = loc;
  while (start > text && start[-1] != '\n')
    start--;
  const char *stop = loc;
  while (stop < end && *stop != '\n')
    stop++;
  const char *shown_stop = stop;
  if (shown_stop > start && shown_stop[-1] == '\r')
    shown_stop--; // CRLF files: the '\r' is part of the line break
  const char *line_start = start, *line_stop = shown_stop;
  if (line_stop - line_start > MAX_SHOWN) {
    // The caret half-way into the window where the line allows; the ends
    // moved inward off UTF-8 continuation bytes (10xxxxxx).
    start = loc - line_start > MAX_SHOWN / 2 ? loc - MAX_SHOWN / 2 : line_start;
    if (line_stop - start < MAX_SHOWN)
      start = line_stop - MAX_SHOWN;
    shown_stop = start + MAX_SHOWN;
    while (start < loc && (*start & 0xc0) == 0x80)
      start++;
    while (shown_stop > loc && shown_stop < line_stop && (*shown_stop & 0xc0) == 0x80)
      shown_stop--;
  }
  const char *cut_before = start > line_start ? "…" : "";
  const char *cut_after = shown_stop < line_stop ? "…" : "";

  char num[32];
  int width = snprintf(num, sizeof num, "%d", line);
  if (width < 4)
    width = 4;

  fprintf(out(), "%*d | %s", width, line, cut_before);
  for (const char *p = start; p < shown_stop; p++)
    fputc(is_shown((unsigned char)*p) ? *p : '?', out());
  fprintf(out(), "%s\n", cut_after);

  fprintf(out(), "%*s | %s", width, "", *cut_before ? " " : "");
  for (const char *p = start; p < loc; p++)
    fputc(*p == '\t' ? '\t' : ' ', out());
  fprintf(out(), "%s^", diag_sgr(DIAG_GOOD));
  for (const char *p = loc + 1; p < loc + len && p < shown_stop; p++)
    fputc('~', out());
  fprintf(out(), "%s\n", diag_sgr(DIAG_PLAIN));
}

// Shows one diagnostic; `line` 0 means "compute it from loc".
static void report(const char *kind, const SrcFile *file, const char *loc, int line,
                   int col, int len, const char *fmt, va_list ap) {
  char *msg = vformat(fmt, ap);
  if (file && loc && line <= 0)
    loc_line_col(file, loc, &line, &col);
  if (capture(kind, file && loc ? file : NULL, line, col, len, msg))
    return;
  const char *kind_on = diag_sgr(kind_color(kind)), *off = diag_sgr(DIAG_PLAIN);
  if (!file || !loc) {
    fprintf(out(), "mcgen: %s%s:%s ", kind_on, kind, off);
    put_sanitized(msg);
    fputc('\n', out());
    free(msg);
    return;
  }
  fprintf(out(), "%s%s:%d:%d:%s %s%s:%s ", diag_sgr(DIAG_PLACE),
          file->name ? file->name : "<input>", line, col, off, kind_on, kind, off);
  put_sanitized(msg);
  fputc('\n', out());
  free(msg);
  show_line(file, loc, line, len);
}

// Counts an error and says whether to show it.
static bool count_error(const SrcFile *file) {
  nerrors++;
  if (nerrors <= MAX_ERRORS) {
    suppressed = false;
    return true;
  }
  if (nerrors == MAX_ERRORS + 1 && !captured)
    fprintf(out(), "%s: too many errors; stopping\n",
            file && file->name ? file->name : "mcgen");
  suppressed = true;
  return false;
}

// A message at a token (NULL: at no place in the spec).
static void report_at(const char *kind, const Token *tok, const char *fmt, va_list ap) {
  if (tok)
    report(kind, tok->file, tok->loc, tok->line, tok->col, tok->len, fmt, ap);
  else
    report(kind, NULL, NULL, 0, 0, 0, fmt, ap);
}

void error_at(const Token *tok, const char *fmt, ...) {
  if (!count_error(tok ? tok->file : NULL))
    return;
  va_list ap;
  va_start(ap, fmt);
  report_at("error", tok, fmt, ap);
  va_end(ap);
}

void error_at_loc(const SrcFile *file, const char *loc, const char *fmt, ...) {
  if (!count_error(file))
    return;
  va_list ap;
  va_start(ap, fmt);
  report("error", file, loc, 0, 0, 1, fmt, ap);
  va_end(ap);
}

void error_plain(const char *fmt, ...) {
  if (!count_error(NULL))
    return;
  va_list ap;
  va_start(ap, fmt);
  report("error", NULL, NULL, 0, 0, 0, fmt, ap);
  va_end(ap);
}

void note_at(const Token *tok, const char *fmt, ...) {
  if (suppressed)
    return;
  va_list ap;
  va_start(ap, fmt);
  report_at("note", tok, fmt, ap);
  va_end(ap);
}

void warning_at(const Token *tok, const char *fmt, ...) {
  suppressed = false;
  va_list ap;
  va_start(ap, fmt);
  report_at("warning", tok, fmt, ap);
  va_end(ap);
}

void hint(const char *fmt, ...) {
  if (suppressed)
    return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  if (capture("hint", NULL, 0, 0, 0, msg))
    return;
  fprintf(out(), "  %shint:%s ", diag_sgr(DIAG_GOOD), diag_sgr(DIAG_PLAIN));
  put_sanitized(msg);
  fputc('\n', out());
  free(msg);
}

// Damerau-Levenshtein distance (optimal string alignment: insertions,
// deletions, substitutions and transpositions of adjacent characters).
static int edit_distance(const char *a, int n, const char *b, int m) {
  // Three rows: two back (for transpositions), one back, current.
  int *prev2 = xcalloc((size_t)m + 1, sizeof(int));
  int *prev = xcalloc((size_t)m + 1, sizeof(int));
  int *cur = xcalloc((size_t)m + 1, sizeof(int));
  for (int j = 0; j <= m; j++)
    prev[j] = j;
  for (int i = 1; i <= n; i++) {
    cur[0] = i;
    for (int j = 1; j <= m; j++) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int d = prev[j] + 1;
      if (cur[j - 1] + 1 < d)
        d = cur[j - 1] + 1;
      if (prev[j - 1] + cost < d)
        d = prev[j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          prev2[j - 2] + 1 < d)
        d = prev2[j - 2] + 1;
      cur[j] = d;
    }
    int *t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  int d = prev[m];
  free(prev2);
  free(prev);
  free(cur);
  return d;
}

// Suggests only names within max(1, len/3) edits, and never one that shares
// nothing with the name (a 1-letter name is not "close" to every other
// 1-letter name). A name that differs only in case is always suggested.
// Names longer than MAX_SUGGEST_LEN are not compared: nobody mistypes those,
// and the edit distance is quadratic in their length.
#define MAX_SUGGEST_LEN 64

const char *closest_name(const char *name, const char *const *candidates, int n) {
  int len = (int)strlen(name);
  if (len > MAX_SUGGEST_LEN)
    return NULL;
  for (int i = 0; i < n; i++)
    if (candidates[i] && strcmp(candidates[i], name) && !strcasecmp(candidates[i], name))
      return candidates[i];
  int limit = len / 3 > 1 ? len / 3 : 1;
  if (limit >= len)
    limit = len - 1;
  const char *best = NULL;
  int best_dist = limit + 1;
  for (int i = 0; i < n; i++) {
    const char *c = candidates[i];
    if (!c)
      continue;
    int clen = (int)strlen(c);
    // The distance is at least the difference in length: skip the work.
    int diff = clen > len ? clen - len : len - clen;
    if (diff >= best_dist || clen > MAX_SUGGEST_LEN)
      continue;
    int d = edit_distance(name, len, c, clen);
    // The name itself is no suggestion (the caller's lookup failed for
    // another reason); strictly less: ties go to the first candidate.
    if (d > 0 && d < best_dist) {
      best = c;
      best_dist = d;
    }
  }
  return best;
}

// Reads a whole file ("-" is standard input), NUL-terminated. The contents
// may contain NUL bytes: len is the real length.
SrcFile *read_file(const char *path) {
  FILE *fp;
  bool is_stdin = strcmp(path, "-") == 0;
  if (is_stdin)
    fp = stdin;
  else
    fp = fopen(path, "rb");
  if (!fp)
    return NULL;

  size_t cap = 4096, len = 0;
  char *buf = xcalloc(cap, 1);
  for (;;) {
    if (cap - len < 2) {
      cap *= 2;
      buf = xrealloc(buf, cap);
    }
    size_t n = fread(buf + len, 1, cap - len - 1, fp);
    if (n == 0)
      break;
    len += n;
  }
  bool failed = ferror(fp);
  if (!is_stdin)
    fclose(fp);
  if (failed)
    return NULL;
  buf[len] = '\0';

  SrcFile *file = xcalloc(1, sizeof(SrcFile));
  file->name = xstrdup(is_stdin ? "<stdin>" : path);
  file->text = buf;
  file->len = len;
  return file;
}
