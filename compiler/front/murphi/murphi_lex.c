// SPDX-License-Identifier: MIT
// murphi_lex.c: the Murphi front end's lexer. Murphi as Rumur reads it:
// keywords in any case (`RULE`, `Rule`), identifiers case-sensitive, `--`
// line comments and `/* */` block comments, decimal numbers, octal ones with
// a leading 0 and hexadecimal ones with 0x, strings between straight or
// curved double quotes, and Rumur's Unicode spellings of operators (≔ ≤ ≥ ≠
// ¬ ∧ ∨ → ÷ × −), which read as their ASCII forms.
//
// Like lex.c it reports every bad character and goes on, keeping the
// character in the stream as a TK_PUNCT that no rule accepts, so the parser
// stops there without a second message.
#include "murphi.h"

static const char *const murphi_keywords[] = {
    "alias",      "array",     "assert",       "assume",         "begin",
    "boolean",    "by",        "case",         "clear",          "const",
    "cover",      "do",        "else",         "elsif",          "end",
    "endalias",   "endchoose", "endexists", "endforall",    "endfor",         "endfunction",
    "endif",      "endprocedure", "endrecord", "endrule",        "endruleset",
    "endstartstate", "endswitch", "endwhile",  "enum",           "error",
    "exists",     "false",     "for",          "forall",         "function",
    "if",         "invariant", "isundefined",  "liveness",       "of",
    "procedure",  "put",       "record",       "return",         "rule",
    "ruleset",    "scalarset", "startstate",   "switch",         "then",
    "to",         "traceuntil", "true",        "type",           "undefine",
    "union",      "var",       "while",        "multiset",       "multisetadd",
    "multisetremove", "multisetremovepred", "multisetcount", "choose", "ismember",
    "property",   "undefined", "program",
};

// Longest first, so that the first match is the longest one.
static const char *const murphi_puncts[] = {
    "==>", ":=", "..", "<=", ">=", "!=", "->", "&&", "||", "<<", ">>", "==", "(", ")", "[",
    "]",   "{",  "}",  ",",  ";",  ":",  ".",  "?",  "!",  "=",  "<",  ">",  "+",  "-",  "*",
    "/",   "%",  "&",  "|",  "^",  "~",  "#",
};

// Rumur's Unicode operators and what they stand for.
static const struct {
  const char *utf8, *ascii;
} murphi_unicode[] = {
    {"\u2254", ":="}, {"\u2264", "<="}, {"\u2265", ">="}, {"\u2260", "!="}, {"\u00ac", "!"},
    {"\u2227", "&"},  {"\u2228", "|"},  {"\u2192", "->"}, {"\u00f7", "/"},  {"\u2215", "/"},  {"\u00d7", "*"},
    {"\u2212", "-"},
};

bool murphi_is_kw(const Token *tok, const char *kw) {
  return tok->kind == TK_KEYWORD && !strcmp(tok->str, kw);
}

static bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

// The keyword that [p, p+len) spells in any case, or NULL.
static const char *keyword_of(const char *p, size_t len) {
  for (size_t i = 0; i < sizeof murphi_keywords / sizeof *murphi_keywords; i++) {
    const char *k = murphi_keywords[i];
    if (strlen(k) != len)
      continue;
    size_t j = 0;
    while (j < len && (p[j] | 0x20) == k[j])
      j++;
    if (j == len)
      return k;
  }
  return NULL;
}

typedef struct Lexer {
  const SrcFile *file;
  const char *p, *end, *ls; // position, end of text, start of the line
  int line;
} Lexer;

static Token *token_at(Lexer *lx, TokenKind kind, const char *start, const char *end) {
  Token *t = xcalloc(1, sizeof *t);
  t->kind = kind;
  t->loc = start;
  t->len = (int)(end - start);
  t->file = lx->file;
  t->line = lx->line;
  t->col = (int)(start - lx->ls) + 1;
  return t;
}

// Skips a `/* */` comment that starts at lx->p; false if it is unterminated
// (reported).
static bool skip_block_comment(Lexer *lx) {
  const char *start = lx->p;
  int line = lx->line;
  const char *ls = lx->ls;
  lx->p += 2;
  while (lx->p < lx->end && !(lx->p[0] == '*' && lx->p + 1 < lx->end && lx->p[1] == '/')) {
    if (*lx->p == '\n') {
      lx->line++;
      lx->ls = lx->p + 1;
    }
    lx->p++;
  }
  if (lx->p < lx->end) {
    lx->p += 2;
    return true;
  }
  Token t = {.kind = TK_PUNCT, .loc = start, .len = 2, .file = lx->file, .line = line,
             .col = (int)(start - ls) + 1};
  error_at(&t, "unterminated comment");
  return false;
}

static bool starts_with(const char *p, const char *end, const char *s) {
  size_t n = strlen(s);
  return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

// A number: decimal, octal (leading 0) or hexadecimal (0x).
static Token *number(Lexer *lx) {
  const char *start = lx->p;
  int base = 10;
  if (lx->p[0] == '0' && lx->p + 1 < lx->end && (lx->p[1] == 'x' || lx->p[1] == 'X')) {
    base = 16;
    lx->p += 2;
  } else if (lx->p[0] == '0') {
    base = 8;
  }
  uint64_t v = 0;
  bool bad = false, overflow = false;
  while (lx->p < lx->end && ident_char(*lx->p)) {
    char c = *lx->p++;
    int d = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : 99;
    if (d >= base)
      bad = true;
    else if (v > (UINT64_C(0x7fffffffffffffff) - (uint64_t)d) / (uint64_t)base)
      overflow = true;
    else
      v = v * (uint64_t)base + (uint64_t)d;
  }
  Token *t = token_at(lx, TK_NUM, start, lx->p);
  if (bad)
    error_at(t, "invalid %s number '%.*s'", base == 8 ? "octal" : base == 16 ? "hexadecimal" : "decimal",
             t->len, start);
  else if (overflow)
    error_at(t, "number '%.*s' is too large", t->len, start);
  t->val = (int64_t)v;
  return t;
}

// A string between `"` or between the curved quotes “ and ”.
static Token *string(Lexer *lx) {
  const char *start = lx->p;
  bool curved = *lx->p != '"';
  lx->p += curved ? 3 : 1;
  const char *close = curved ? "\u201d" : "\"";
  Buf body = {0};
  buf_puts(&body, "");
  while (lx->p < lx->end && !starts_with(lx->p, lx->end, close) && *lx->p != '\n') {
    if (*lx->p == '\\' && lx->p + 1 < lx->end && lx->p[1] != '\n')
      lx->p++; // \" and \\ stand for the character
    buf_printf(&body, "%c", *lx->p++);
  }
  Token *t = token_at(lx, TK_STR, start, lx->p);
  t->str = body.data;
  if (lx->p >= lx->end || *lx->p == '\n') {
    error_at(t, "unterminated string");
    return t;
  }
  lx->p += strlen(close);
  t->len = (int)(lx->p - start);
  return t;
}

// Punctuation at lx->p (ASCII or a Unicode operator); NULL if none.
static Token *punct(Lexer *lx) {
  for (size_t i = 0; i < sizeof murphi_unicode / sizeof *murphi_unicode; i++)
    if (starts_with(lx->p, lx->end, murphi_unicode[i].utf8)) {
      const char *start = lx->p;
      lx->p += strlen(murphi_unicode[i].utf8);
      Token *t = token_at(lx, TK_PUNCT, start, lx->p);
      t->spelling = murphi_unicode[i].ascii;
      return t;
    }
  for (size_t i = 0; i < sizeof murphi_puncts / sizeof *murphi_puncts; i++)
    if (starts_with(lx->p, lx->end, murphi_puncts[i])) {
      const char *start = lx->p;
      lx->p += strlen(murphi_puncts[i]);
      Token *t = token_at(lx, TK_PUNCT, start, lx->p);
      t->spelling = murphi_puncts[i];
      return t;
    }
  return NULL;
}

// A character no rule reads: reported, kept as a token of its own.
static Token *bad_char(Lexer *lx) {
  const char *start = lx->p;
  unsigned char c = (unsigned char)*lx->p;
  int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (lx->end - lx->p < n)
    n = 1;
  lx->p += n;
  Token *t = token_at(lx, TK_PUNCT, start, lx->p);
  t->spelling = "<bad character>";
  if (c >= 0x21 && c < 0x7f)
    error_at(t, "unexpected character '%c'", c);
  else
    error_at(t, "unexpected character (byte 0x%02x)", c);
  return t;
}

Token *murphi_tokenize(const SrcFile *file) {
  Lexer lx = {.file = file, .p = file->text, .end = file->text + file->len, .ls = file->text,
              .line = 1};
  Token head = {0}, *cur = &head;
  while (lx.p < lx.end) {
    char c = *lx.p;
    if (c == '\n') {
      lx.line++;
      lx.ls = ++lx.p;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      lx.p++;
      continue;
    }
    if (starts_with(lx.p, lx.end, "--")) {
      while (lx.p < lx.end && *lx.p != '\n')
        lx.p++;
      continue;
    }
    if (starts_with(lx.p, lx.end, "/*")) {
      if (!skip_block_comment(&lx))
        break;
      continue;
    }
    Token *t;
    if (ident_start(c)) {
      const char *start = lx.p;
      while (lx.p < lx.end && ident_char(*lx.p))
        lx.p++;
      const char *kw = keyword_of(start, (size_t)(lx.p - start));
      t = token_at(&lx, kw ? TK_KEYWORD : TK_IDENT, start, lx.p);
      t->str = kw ? (char *)kw : xstrndup(start, (size_t)(lx.p - start));
    } else if (c >= '0' && c <= '9') {
      t = number(&lx);
    } else if (c == '"' || starts_with(lx.p, lx.end, "\u201c")) {
      t = string(&lx);
    } else if (!(t = punct(&lx))) {
      t = bad_char(&lx);
    }
    cur = cur->next = t;
  }
  Token *eof = token_at(&lx, TK_EOF, lx.end, lx.end);
  cur->next = eof;
  return head.next;
}
