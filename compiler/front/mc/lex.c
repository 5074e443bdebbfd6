// SPDX-License-Identifier: MIT
// lex.c: source text to a list of tokens.
//
// The whole file is tokenized up front into a linked list ending in TK_EOF.
// Errors (bad characters, unterminated strings and comments, oversized
// integers) are reported and lexing goes on, so that one run shows them all;
// the parser sees a best-effort token list.
//
// The lexer knows only the reserved keywords. Contextual words (count, sum,
// weak, strong) are plain identifiers that the parser recognizes in context.
// `[]` and `<>` are not tokens: the parser combines `[` `]` and `<` `>` in a
// temporal property, so that `a[i]` and `set<T>` need no special cases.
//
// Positions: every token records its line and 1-based byte column. The file
// may contain any bytes, NUL included: the lexer runs to file->len, never to
// the first NUL.
#include "mcgen.h"

static const char *const keywords[] = {
    "model", "const", "type", "var", "fn", "init", "action", "invariant", "reachable",
    "terminal", "constraint", "property", "fair", "when", "if", "else", "for", "let",
    "assert", "return", "forall", "exists", "in", "true", "false", "none", "bool",
    "enum", "scalarset", "record", "set", "multiset", "queue",
};

// The punctuation that is not an operator; the operators are spelled in
// op_info (ast.c).
static const char *const puncts[] = {
    "::", "..", "~>", "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "?", "=", "|",
};

// The lexer's position: the current pointer and the start of its line.
typedef struct Lexer {
  const SrcFile *file;
  const char *p, *end;
  const char *line_start;
  int line;
} Lexer;

static bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static bool is_keyword(const char *s, int len) {
  for (size_t i = 0; i < sizeof(keywords) / sizeof(*keywords); i++)
    if ((int)strlen(keywords[i]) == len && memcmp(keywords[i], s, (size_t)len) == 0)
      return true;
  return false;
}

// Tokens are allocated from large zeroed chunks: a spec of 10,000 actions
// has over half a million tokens, and one calloc each costs more time and
// memory than the lexing itself. Like everything else, never freed.
static Token *alloc_token(void) {
  enum { CHUNK = 4096 };
  static Token *chunk;
  static int used = CHUNK;
  if (used == CHUNK) {
    chunk = xcalloc(CHUNK, sizeof(Token));
    used = 0;
  }
  return &chunk[used++];
}

// Identifier and keyword spellings, interned: each distinct name is stored
// once and equal names share one string.
typedef struct Name {
  struct Name *next;
  int len;
  char str[];
} Name;

static char *intern(const char *s, int len) {
  static Name **table;
  static size_t cap, count;
  if (count * 2 >= cap) {
    size_t ncap = cap ? cap * 2 : 1024;
    Name **nt = xcalloc(ncap, sizeof(Name *));
    for (size_t i = 0; i < cap; i++) {
      for (Name *n = table[i], *next; n; n = next) {
        next = n->next;
        uint32_t h = 2166136261u;
        for (int j = 0; j < n->len; j++)
          h = (h ^ (unsigned char)n->str[j]) * 16777619u;
        n->next = nt[h & (ncap - 1)];
        nt[h & (ncap - 1)] = n;
      }
    }
    free(table);
    table = nt;
    cap = ncap;
  }
  uint32_t h = 2166136261u; // FNV-1a
  for (int j = 0; j < len; j++)
    h = (h ^ (unsigned char)s[j]) * 16777619u;
  Name **slot = &table[h & (cap - 1)];
  for (Name *n = *slot; n; n = n->next)
    if (n->len == len && memcmp(n->str, s, (size_t)len) == 0)
      return n->str;
  Name *n = xcalloc(1, sizeof(Name) + (size_t)len + 1);
  n->len = len;
  memcpy(n->str, s, (size_t)len);
  n->next = *slot;
  *slot = n;
  count++;
  return n->str;
}

static Token *new_token(Lexer *lx, TokenKind kind, const char *start, const char *end) {
  Token *tok = alloc_token();
  tok->kind = kind;
  tok->loc = start;
  tok->len = (int)(end - start);
  tok->file = lx->file;
  tok->line = lx->line;
  tok->col = (int)(start - lx->line_start) + 1;
  return tok;
}

// Reports an error at [start, start+len) on the current line.
static void lex_error(Lexer *lx, const char *start, int len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lex_error(Lexer *lx, const char *start, int len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  Token t = {
      .kind = TK_PUNCT,
      .loc = start,
      .len = len,
      .file = lx->file,
      .line = lx->line,
      .col = (int)(start - lx->line_start) + 1,
  };
  error_at(&t, "%s", msg);
}

// Same, for a position on an earlier line (unterminated comments/strings).
static void lex_error_at(Lexer *lx, const char *start, int line, const char *line_start,
                         int len, const char *msg) {
  Token t = {
      .kind = TK_PUNCT,
      .loc = start,
      .len = len,
      .file = lx->file,
      .line = line,
      .col = (int)(start - line_start) + 1,
  };
  error_at(&t, "%s", msg);
}

static void newline(Lexer *lx, const char *nl) {
  lx->line++;
  lx->line_start = nl + 1;
}

// The length of the UTF-8 sequence at p (1 if it is not a valid one), so
// that a stray "smart quote" is one error, not three.
static int utf8_len(const char *p, const char *end) {
  unsigned char c = (unsigned char)*p;
  int n = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 1;
  if (n == 1 || c >= 0xf8 || end - p < n)
    return 1;
  for (int i = 1; i < n; i++)
    if (((unsigned char)p[i] & 0xc0) != 0x80)
      return 1;
  return n;
}

// A bad character: show printable ones as themselves, others as \xNN.
static void bad_char(Lexer *lx, const char *p, int n) {
  Buf b = {0};
  for (int i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c >= 0x21 && c < 0x7f && c != '\'' && c != '\\')
      buf_printf(&b, "%c", c);
    else
      buf_printf(&b, "\\x%02x", c);
  }
  lex_error(lx, p, n, "unexpected character '%s'", b.data);
  if (*p == '&')
    hint("did you mean '&&'?");
  else if (*p == '\'')
    hint("strings are written in double quotes");
}

// TLA+'s spellings of mcgen's operators and quantifiers: reported with
// mcgen's, and read as it (a token whose spelling is mcgen's), so that the
// parser adds no follow-on error. Longest first.
static const struct {
  const char *tla, *mc;
  TokenKind kind;
} tla_words[] = {
    {"\\lnot", "!", TK_PUNCT},     {"\\land", "&&", TK_PUNCT}, {"\\lor", "||", TK_PUNCT},
    {"\\neg", "!", TK_PUNCT},      {"\\in", "in", TK_KEYWORD}, {"\\A", "forall", TK_KEYWORD},
    {"\\E", "exists", TK_KEYWORD}, {"/\\", "&&", TK_PUNCT},    {"\\/", "||", TK_PUNCT},
};

static Token *tla_word(Lexer *lx) {
  for (size_t i = 0; i < sizeof tla_words / sizeof *tla_words; i++) {
    int n = (int)strlen(tla_words[i].tla);
    const char *p = lx->p, *after = p + n;
    if (lx->end - p < n || memcmp(p, tla_words[i].tla, (size_t)n) ||
        (tla_words[i].kind == TK_KEYWORD && after < lx->end && is_ident_char(*after)))
      continue;
    lex_error(lx, p, n, "'%s' is TLA+'s, not mcgen's", tla_words[i].tla);
    if (!strcmp(tla_words[i].mc, "forall") || !strcmp(tla_words[i].mc, "exists"))
      hint("write '%s' (it is written '%s x: T :: P')", tla_words[i].mc, tla_words[i].mc);
    else
      hint("write '%s'", tla_words[i].mc);
    Token *tok = new_token(lx, tla_words[i].kind, p, after);
    tok->spelling = tla_words[i].mc;
    tok->str = intern(tla_words[i].mc, (int)strlen(tla_words[i].mc));
    lx->p = after;
    return tok;
  }
  return NULL;
}

// Skips a /* */ comment starting at lx->p.
static void block_comment(Lexer *lx) {
  const char *start = lx->p;
  int line = lx->line;
  const char *line_start = lx->line_start;
  const char *p = start + 2;
  for (; p < lx->end; p++) {
    if (p[0] == '*' && p + 1 < lx->end && p[1] == '/') {
      lx->p = p + 2;
      return;
    }
    if (*p == '\n')
      newline(lx, p);
  }
  lex_error_at(lx, start, line, line_start, 2, "unterminated comment");
  lx->p = lx->end;
}

// "..." with escapes \" \\ \n \t. An unterminated string ends at the end of
// its line (and is reported there, at its start).
static Token *string_literal(Lexer *lx) {
  const char *start = lx->p;
  const char *p = start + 1;
  Buf b = {0};
  buf_puts(&b, "");
  for (;;) {
    if (p >= lx->end || *p == '\n') {
      lex_error(lx, start, 1, "unterminated string");
      break;
    }
    if (*p == '"') {
      p++;
      break;
    }
    if (*p == '\\') {
      char c = p + 1 < lx->end ? p[1] : '\0';
      if (c == '"' || c == '\\')
        buf_printf(&b, "%c", c);
      else if (c == 'n')
        buf_puts(&b, "\n");
      else if (c == 't')
        buf_puts(&b, "\t");
      else if (c == '\n' || p + 1 >= lx->end) {
        p++;
        continue; // reported as unterminated next time round
      } else {
        lex_error(lx, p, 2, "unknown escape sequence (use \\\" \\\\ \\n or \\t)");
        buf_printf(&b, "%c", c ? c : '?');
      }
      p += 2;
      continue;
    }
    if (*p == '\0') {
      lex_error(lx, p, 1, "unexpected character '\\x00' in string");
      p++;
      continue;
    }
    buf_printf(&b, "%c", *p);
    p++;
  }
  Token *tok = new_token(lx, TK_STR, start, p);
  tok->str = b.data;
  lx->p = p;
  return tok;
}

static Token *number(Lexer *lx) {
  const char *start = lx->p;
  const char *p = start;
  int64_t val = 0;
  bool overflow = false;
  while (p < lx->end && is_digit(*p)) {
    int d = *p - '0';
    if (val > (INT64_MAX - d) / 10)
      overflow = true;
    else
      val = val * 10 + d;
    p++;
  }
  // `12abc` or `0x1f`: one bad literal rather than a number and a name.
  bool bad = false;
  while (p < lx->end && is_ident_char(*p)) {
    bad = true;
    p++;
  }
  Token *tok = new_token(lx, TK_NUM, start, p);
  if (bad) {
    lex_error(lx, start, tok->len, "invalid integer literal (integers are decimal)");
    val = 0;
  } else if (overflow) {
    lex_error(lx, start, tok->len, "integer literal too large");
    val = 0;
  }
  tok->val = val;
  lx->p = p;
  return tok;
}

// The length of `s` if the text at p begins with it, else 0.
static int starts_with(const char *p, const char *end, const char *s) {
  int n = (int)strlen(s);
  return end - p >= n && memcmp(p, s, (size_t)n) == 0 ? n : 0;
}

// The length of the longest punctuation or operator of a spec at p, or 0.
static int punct_len(const char *p, const char *end) {
  int len = 0;
  for (size_t i = 0; i < sizeof(puncts) / sizeof(*puncts); i++) {
    int n = starts_with(p, end, puncts[i]);
    len = n > len ? n : len;
  }
  for (int op = 0; op <= OP_BNOT; op++) {
    const OpInfo *o = &op_info[op];
    if (o->dve_only || is_ident_start(o->spelling[0]))
      continue; // `in` and the quantifiers are keywords
    int n = starts_with(p, end, o->spelling);
    len = n > len ? n : len;
  }
  return len;
}

Token *tokenize(const SrcFile *file) {
  Lexer lx = {
      .file = file,
      .p = file->text,
      .end = file->text + file->len,
      .line_start = file->text,
      .line = 1,
  };
  Token head = {0};
  Token *cur = &head;
  // Inside a scenario declaration (from `scenario NAME` to the next
  // declaration), a lone '&' is the intersection of behaviours.
  bool in_scenario = false;

  while (lx.p < lx.end) {
    const char *p = lx.p;
    char c = *p;

    if (c == '\n') {
      newline(&lx, p);
      lx.p++;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      lx.p++;
      continue;
    }
    if (c == '/' && p + 1 < lx.end && p[1] == '/') {
      while (lx.p < lx.end && *lx.p != '\n')
        lx.p++;
      continue;
    }
    if (c == '/' && p + 1 < lx.end && p[1] == '*') {
      block_comment(&lx);
      continue;
    }

    if (is_ident_start(c)) {
      const char *q = p + 1;
      while (q < lx.end && is_ident_char(*q))
        q++;
      int len = (int)(q - p);
      Token *before = cur;
      cur = cur->next = new_token(&lx, is_keyword(p, len) ? TK_KEYWORD : TK_IDENT, p, q);
      cur->str = intern(p, len);
      lx.p = q;
      bool decl_start = before == &head || equal(before, ";") || equal(before, "}");
      if (cur->kind == TK_KEYWORD && !equal(cur, "true") && !equal(cur, "false"))
        in_scenario = false;
      else if (decl_start && (equal(cur, "scenario") || equal(cur, "accepting") ||
                                equal(cur, "watch"))) {
        const char *r = q; // a declaration only if a name follows
        while (r < lx.end && (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r'))
          r++;
        if (r < lx.end && is_ident_start(*r))
          in_scenario = equal(cur, "scenario");
      }
      continue;
    }
    if (is_digit(c)) {
      cur = cur->next = number(&lx);
      continue;
    }
    if (c == '"') {
      cur = cur->next = string_literal(&lx);
      continue;
    }

    Token *tla = c == '\\' || c == '/' ? tla_word(&lx) : NULL;
    if (tla) {
      cur = cur->next = tla;
      continue;
    }
    int plen = punct_len(p, lx.end);
    if (plen) {
      cur = cur->next = new_token(&lx, TK_PUNCT, p, p + plen);
      lx.p += plen;
      continue;
    }

    if (c == '&' && in_scenario) {
      cur = cur->next = new_token(&lx, TK_PUNCT, p, p + 1);
      lx.p++;
      continue;
    }
    int n = utf8_len(p, lx.end);
    bad_char(&lx, p, n);
    // A lone '&' is reported, then read as the '&&' it almost certainly
    // meant, so that the parser adds no follow-on error.
    if (*p == '&') {
      cur = cur->next = new_token(&lx, TK_PUNCT, p, p + 1);
      cur->spelling = "&&";
    }
    lx.p += n;
  }

  // EOF sits at the end of the last line (not on an empty line after the
  // final newline), which is where "unexpected end of file" should point.
  const char *eof = lx.end;
  if (eof > file->text && eof[-1] == '\n') {
    eof--;
    int line = lx.line - 1;
    const char *ls = eof;
    while (ls > file->text && ls[-1] != '\n')
      ls--;
    lx.line = line;
    lx.line_start = ls;
  }
  cur = cur->next = new_token(&lx, TK_EOF, eof, eof);
  return head.next;
}
