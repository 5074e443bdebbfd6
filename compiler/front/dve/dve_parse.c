// SPDX-License-Identifier: MIT
// dve_parse.c: the DVE front end's lexer and parser. Reads a .dve file (the
// input language of DiVinE and LTSmin, in which the BEEM benchmarks are
// written) into the DVE syntax tree of dve.h, by recursive descent, one
// function per grammar rule with the rule written above it. Names are not
// resolved here (dve_lower.c).
//
// Errors and recovery, as in parse.c. A syntax error sets `panic`; while it
// is set further errors are not reported, the token tests below answer no
// and consume nothing, and every function returns what it has (a missing
// expression is the number 0, a missing name an empty one). The loop that
// owns a synchronization point then skips to it and clears `panic`:
//   - a transition clause: to its `;` (consumed), the next `guard`, `sync`
//     or `effect`, or the transition's `}`;
//   - a transition: past the `}` of its body, or to the `,` or `;` after it;
//   - a process item: to its `;` (consumed), the next item keyword or the
//     process's `}`;
//   - a declaration: to the next `byte`, `int`, `const`, `channel`,
//     `process` or `system` outside any braces.
// The start of a top-level declaration and the end of the file end every
// inner construct: an inner recovery that meets one leaves `panic` set, so
// that the constructs around it end without reporting their missing
// closers, and the declaration loop takes over. A transition body missing
// its `{`, or closed by a stray `}`, is read on rather than cascading into
// errors about its clauses.
//
// No cascade into the resolver: identifiers that recovery skips are
// remembered (dve_name_lost()) and never called unknown; while a state,
// variable, channel or process name is missing, no name of that kind is
// (dve.h: *_lost); half-read expressions are dropped from the tree; a
// broken declaration or transition is marked so that what it says of sizes,
// values and arities is not checked. Characters the lexer rejected stay in
// the token stream, so that the parser stops there without a second
// message.
#include "dve.h"

//
// Lexer.
//

static const char *const dve_keywords[] = {
    "process", "state",    "init",   "trans", "guard", "effect", "sync",  "channel",
    "byte",    "int",      "const",  "commit", "accept", "system", "async", "property",
    "assert",  "and",      "or",     "not",   "imply", "true",   "false", "use",
};

// Longest first, so that the first match is the longest one.
static const char *const dve_puncts[] = {
    "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "(", ")", "[", "]", "{", "}", ",",
    ";",  ":",  ".",  "?",  "!",  "=",  "<",  ">",  "+",  "-", "*", "/", "%", "&", "|", "^", "~",
};

static bool is_dve_keyword(const char *s, size_t len) {
  for (size_t i = 0; i < sizeof dve_keywords / sizeof *dve_keywords; i++)
    if (strlen(dve_keywords[i]) == len && !memcmp(dve_keywords[i], s, len))
      return true;
  return false;
}

static bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

// A token at [p, q) on `line`, whose line starts at `ls`.
static Token *dve_token(const SrcFile *f, TokenKind kind, const char *p, const char *q, int line,
                        const char *ls) {
  Token *t = xcalloc(1, sizeof *t);
  t->kind = kind;
  t->loc = p;
  t->len = (int)(q - p);
  t->file = f;
  t->line = line;
  t->col = (int)(p - ls) + 1;
  if (kind == TK_IDENT || kind == TK_KEYWORD)
    t->str = xstrndup(p, (size_t)(q - p));
  return t;
}

// Whether t is a character the lexer rejected (and reported).
static bool is_bad_char(const Token *t) {
  if (t->kind != TK_PUNCT)
    return false;
  for (size_t i = 0; i < sizeof dve_puncts / sizeof *dve_puncts; i++)
    if (equal(t, dve_puncts[i]))
      return false;
  return true;
}

static bool comment_unterminated; // the lexer reported it: the file ends inside a comment

// Tokenizes a DVE file: `//` and `/* */` comments, identifiers, keywords,
// decimal numbers, punctuation. Reports bad characters, keeps them in the
// stream (see is_bad_char()) and goes on.
static Token *dve_tokenize(const SrcFile *f) {
  const char *p = f->text, *end = f->text + f->len, *ls = f->text;
  int line = 1;
  Token head = {0}, *cur = &head;
  comment_unterminated = false;
  while (p < end) {
    char c = *p;
    if (c == '\n') {
      line++;
      ls = ++p;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p++;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p < end && *p != '\n')
        p++;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '*') {
      const char *start = p;
      int sline = line;
      const char *sls = ls;
      p += 2;
      while (p < end && !(*p == '*' && p + 1 < end && p[1] == '/')) {
        if (*p == '\n') {
          line++;
          ls = p + 1;
        }
        p++;
      }
      if (p >= end) {
        Token t = {.kind = TK_PUNCT, .loc = start, .len = 2, .file = f, .line = sline,
                   .col = (int)(start - sls) + 1};
        error_at(&t, "unterminated comment");
        comment_unterminated = true;
        break;
      }
      p += 2;
      continue;
    }
    if (ident_start(c)) {
      const char *q = p;
      while (q < end && ident_char(*q))
        q++;
      cur = cur->next = dve_token(f, is_dve_keyword(p, (size_t)(q - p)) ? TK_KEYWORD : TK_IDENT,
                                  p, q, line, ls);
      p = q;
      continue;
    }
    if (c >= '0' && c <= '9') {
      const char *q = p;
      int64_t v = 0;
      bool big = false;
      while (q < end && *q >= '0' && *q <= '9') {
        if (v > (INT64_MAX - 9) / 10)
          big = true;
        else
          v = v * 10 + (*q - '0');
        q++;
      }
      cur = cur->next = dve_token(f, TK_NUM, p, q, line, ls);
      cur->val = v;
      if (big || v > INT32_MAX)
        error_at(cur, "integer literal too large");
      if (q < end && ident_start(*q)) {
        Token *t = dve_token(f, TK_PUNCT, q, q + 1, line, ls);
        error_at(t, "a number cannot run into a name");
        while (q < end && ident_char(*q)) // the name is part of the bad number
          q++;
      }
      p = q;
      continue;
    }
    size_t n = 0;
    for (size_t i = 0; i < sizeof dve_puncts / sizeof *dve_puncts; i++) {
      size_t k = strlen(dve_puncts[i]);
      if ((size_t)(end - p) >= k && !memcmp(p, dve_puncts[i], k)) {
        n = k;
        break;
      }
    }
    if (n) {
      cur = cur->next = dve_token(f, TK_PUNCT, p, p + n, line, ls);
      p += n;
      continue;
    }
    Token *t = dve_token(f, TK_PUNCT, p, p + 1, line, ls);
    if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
      error_at(t, "unexpected character '%c'", c);
    else
      error_at(t, "unexpected byte 0x%02x", (unsigned char)c);
    cur = cur->next = t;
    p++;
  }
  // EOF sits at the end of the last line.
  const char *eof = end;
  if (eof > f->text && eof[-1] == '\n') {
    eof--;
    line--;
    ls = eof;
    while (ls > f->text && ls[-1] != '\n')
      ls--;
  }
  cur = cur->next = dve_token(f, TK_EOF, eof, eof, line < 1 ? 1 : line, ls);
  return head.next;
}

//
// Parser state and errors.
//

static Token *tok;
static Token *prev;   // the token before tok (NULL at the start)
static bool panic;    // a syntax error was reported; suppress others until we sync
static bool eof_seen; // an error at the end of the file was reported
static Token *last_error; // where the last syntax error was (NULL: none yet)
static int nsyntax;   // syntax errors so far (shown or not): a construct that
                      // saw one is broken
static DSystem *sys;

// The names skipped by recovery: an open-addressing set.
static const char **lost;
static size_t lost_cap, lost_count;

static size_t lost_hash(const char *s) {
  size_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void lose(const char *name) {
  if (2 * (lost_count + 1) > lost_cap) {
    size_t ncap = lost_cap ? lost_cap * 2 : 64;
    const char **nt = xcalloc(ncap, sizeof *nt);
    for (size_t i = 0; i < lost_cap; i++)
      if (lost[i]) {
        size_t j = lost_hash(lost[i]) & (ncap - 1);
        while (nt[j])
          j = (j + 1) & (ncap - 1);
        nt[j] = lost[i];
      }
    lost = nt;
    lost_cap = ncap;
  }
  size_t j = lost_hash(name) & (lost_cap - 1);
  for (; lost[j]; j = (j + 1) & (lost_cap - 1))
    if (!strcmp(lost[j], name))
      return;
  lost[j] = name;
  lost_count++;
}

bool dve_name_lost(const char *name) {
  if (!name[0])
    return true; // a name missing from the source
  if (!lost_cap)
    return false;
  for (size_t j = lost_hash(name) & (lost_cap - 1); lost[j]; j = (j + 1) & (lost_cap - 1))
    if (!strcmp(lost[j], name))
      return true;
  return false;
}

static void next(void) {
  if (tok->kind == TK_EOF)
    return;
  prev = tok;
  tok = tok->next;
}

static bool is(const char *s) {
  return !panic && (tok->kind == TK_PUNCT || tok->kind == TK_KEYWORD) && equal(tok, s);
}

static bool accept_tok(const char *s) {
  if (!is(s))
    return false;
  next();
  return true;
}

static const char *describe(const Token *t) {
  if (t->kind == TK_EOF)
    return "end of file";
  return format("'%.*s'", t->len > 40 ? 40 : t->len, t->loc);
}

// Reports a syntax error at t (unless one is being recovered from, t is a
// character the lexer rejected, or the file's end was reported already)
// and enters panic.
static void syntax_error_at(Token *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void syntax_error_at(Token *t, const char *fmt, ...) {
  if (panic)
    return;
  panic = true;
  nsyntax++;
  last_error = t;
  if (is_bad_char(t) || (t->kind == TK_EOF && eof_seen))
    return;
  if (t->kind == TK_EOF)
    eof_seen = true;
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  error_at(t, "%s", msg);
}

static void syntax_error(const char *what) {
  syntax_error_at(tok, "expected %s, found %s", what, describe(tok));
}

static void expect(const char *s) {
  if (!accept_tok(s))
    syntax_error(format("'%s'", s));
}

// A name standing for one that is missing: empty, so that the resolver
// never reports it (dve_name_lost()).
static Token *placeholder_name(void) {
  Token *t = xcalloc(1, sizeof *t);
  *t = *tok;
  t->kind = TK_IDENT;
  t->next = NULL;
  t->len = 0;
  t->str = "";
  return t;
}

static Token *expect_ident(const char *what) {
  if (panic || tok->kind != TK_IDENT) {
    syntax_error(what);
    return placeholder_name();
  }
  Token *t = tok;
  next();
  return t;
}

//
// Recovery.
//

// Keywords that start a declaration of the system or end a process whose
// `}` is missing.
static bool is_top_keyword(const Token *t) {
  return t->kind == TK_KEYWORD && (equal(t, "process") || equal(t, "channel") || equal(t, "system"));
}

// Keywords that start a process item.
static bool is_item_keyword(const Token *t) {
  static const char *const kws[] = {"byte",   "int",    "const",  "state", "init",
                                    "commit", "accept", "assert", "trans"};
  if (t->kind != TK_KEYWORD)
    return false;
  for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
    if (equal(t, kws[i]))
      return true;
  return false;
}

// An item keyword inside a transition ends it (its `}` is missing) only
// when it starts a line: one in the middle of a line is a stray word.
static bool is_item_start(const Token *t) {
  return is_item_keyword(t) && (!prev || t->line > prev->line);
}

static bool is_clause_keyword(const Token *t) {
  return t->kind == TK_KEYWORD && (equal(t, "guard") || equal(t, "sync") || equal(t, "effect"));
}

static bool is_punct(const Token *t, const char *s) {
  return t->kind == TK_PUNCT && equal(t, s);
}

// Skips the current token, remembering a name in it.
static void skip(void) {
  if (tok->kind == TK_IDENT)
    lose(tok->str);
  next();
}

// Nesting of braces while skipping. Parentheses and brackets are not
// counted: DVE has no `;` or `}` inside them, and one left open by the
// error would hide every `;` after it.
static void count_brace(int *nest) {
  if (is_punct(tok, "{"))
    (*nest)++;
  else if (is_punct(tok, "}") && *nest > 0)
    (*nest)--;
}

// A top-level keyword that really starts a declaration, as the tokens
// after it show: `process NAME { ITEM|}`, `channel NAME|{`, `system
// async|sync`.
static bool is_top_start(const Token *t) {
  if (!is_top_keyword(t))
    return false;
  const Token *n = t->next;
  if (equal(t, "process")) {
    const Token *b = n->kind == TK_IDENT ? n->next : NULL;
    const Token *c = b && is_punct(b, "{") ? b->next : NULL;
    return c && (is_item_keyword(c) || is_punct(c, "}"));
  }
  if (equal(t, "channel"))
    return n->kind == TK_IDENT || is_punct(n, "{");
  return n->kind == TK_KEYWORD && (equal(n, "async") || equal(n, "sync"));
}

// Whether recovery must stop at t and leave panic set: the end of the file
// or the start of a top-level declaration (the construct being recovered
// lacks its closer). Unlike item keywords, these count in the middle of a
// line: BEEM's models often start a process on the line of the last one's
// `}`.
static bool ends_construct(const Token *t) {
  return t->kind == TK_EOF || is_top_start(t);
}

// Where the recovery from an error inside a transition stops: not here
// (GO_ON); at this token, which starts what comes next (STOP_AT); past it,
// as it ends the broken construct (STOP_PAST); or at it with the panic kept,
// for an enclosing construct's recovery to take over (HAND_OVER).
typedef enum { GO_ON, STOP_AT, STOP_PAST, HAND_OVER } Stop;

// Skips tokens, counting braces (`nest` deep inside the construct), until
// `stop` says where to end, the next process item or the next top-level
// construct.
static void recover(Stop (*stop)(int nest)) {
  int nest = 0;
  while (!ends_construct(tok) && !is_item_start(tok)) {
    Stop s = stop(nest);
    if (s != GO_ON) {
      if (s == STOP_PAST)
        next();
      if (s != HAND_OVER)
        panic = false;
      return;
    }
    count_brace(&nest);
    skip();
  }
}

// After an error in a clause of a transition's body: to the clause's `;`
// (consumed), the next clause keyword or the body's `}`.
static Stop clause_stop(int nest) {
  if (nest == 0 && (is_punct(tok, "}") || is_clause_keyword(tok)))
    return STOP_AT;
  return nest == 0 && is_punct(tok, ";") ? STOP_PAST : GO_ON;
}

// After an error in a transition's body that is not in a clause: past the
// body's `}`.
static Stop body_stop(int nest) { return nest == 0 && is_punct(tok, "}") ? STOP_PAST : GO_ON; }

// After an error in a transition's head (`from -> to {`): past its body, or
// to the `,` or `;` after it. A `}` at depth 0 is the process's: the item's
// recovery takes it from there.
static Stop transition_stop(int nest) {
  if (nest == 0 && (is_punct(tok, ",") || is_punct(tok, ";")))
    return STOP_AT;
  if (nest == 0 && is_punct(tok, "}"))
    return HAND_OVER;
  return nest == 1 && is_punct(tok, "}") ? STOP_PAST : GO_ON;
}

// After an error in a process item that started at `start`: to the item's
// `;` (consumed), the next item keyword or the process's `}`.
static void recover_item(Token *start) {
  if (tok == start && !ends_construct(tok))
    skip(); // the item consumed nothing: make progress
  int nest = 0;
  while (!ends_construct(tok)) {
    if (is_item_keyword(tok) || (nest == 0 && is_punct(tok, "}"))) {
      panic = false;
      return;
    }
    if (nest == 0 && is_punct(tok, ";")) {
      next();
      panic = false;
      return;
    }
    count_brace(&nest);
    skip();
  }
}

// After an error in a declaration that started at `start`: to the next
// declaration keyword outside braces.
static void recover_decl(Token *start) {
  panic = false;
  if (tok == start)
    skip();
  int nest = 0;
  while (tok->kind != TK_EOF && !is_top_keyword(tok)) {
    if (nest == 0 && (equal(tok, "byte") || equal(tok, "int") || equal(tok, "const")) &&
        tok->kind == TK_KEYWORD)
      return;
    count_brace(&nest);
    skip();
  }
}

//
// Expressions.
//

// The token where an expression starts (its leftmost operand).
static Token *dexpr_start(DExpr *e) {
  while (e->kind == DE_BINARY)
    e = e->l;
  return e->kind == DE_VAR && e->proc ? e->proc : e->tok;
}

static DExpr *new_dexpr(DExprKind kind, Token *t) {
  DExpr *e = xcalloc(1, sizeof *e);
  e->kind = kind;
  e->tok = t;
  return e;
}

// Expressions nest at most this deep (parentheses and unary operators):
// deeper input is rejected rather than allowed to exhaust the stack here or
// in the later passes.
enum { MAX_NESTING = 200, MAX_INDEX_NESTING = 6 };
static int nesting, index_nesting;

static DExpr *dexpr(void);

// primary = NUM | "true" | "false" | "(" expr ")"
//         | IDENT "." IDENT                        (a process in a state)
//         | IDENT ("->" IDENT)? ("[" expr "]")?    (a variable, another process's)
static DExpr *dprimary(void) {
  Token *t = tok;
  if (!panic && t->kind == TK_NUM) {
    next();
    DExpr *e = new_dexpr(DE_NUM, t);
    e->val = t->val;
    return e;
  }
  if (accept_tok("true") || accept_tok("false")) {
    DExpr *e = new_dexpr(DE_NUM, t);
    e->val = equal(t, "true");
    return e;
  }
  if (accept_tok("(")) {
    DExpr *e = dexpr();
    expect(")");
    return e;
  }
  if (!panic && t->kind == TK_IDENT) {
    next();
    if (accept_tok(".")) {
      DExpr *e = new_dexpr(DE_STATE, t);
      e->proc = t;
      e->name = expect_ident("a state name after '.'");
      return e;
    }
    DExpr *e = new_dexpr(DE_VAR, t);
    e->name = t;
    if (accept_tok("->")) {
      e->proc = t;
      e->name = e->tok = expect_ident("a variable name after '->'");
    }
    if (accept_tok("[")) {
      // Lowering reads an index more than once (value and range check):
      // indexes nested deeper than this would blow up.
      if (++index_nesting > MAX_INDEX_NESTING) {
        index_nesting--;
        syntax_error_at(t, "array indexes nested too deeply (more than %d levels)",
                        MAX_INDEX_NESTING);
        return new_dexpr(DE_NUM, t);
      }
      e->idx = dexpr();
      index_nesting--;
      expect("]");
    }
    return e;
  }
  syntax_error("an expression");
  return new_dexpr(DE_NUM, t);
}

// DVE's keyword operators and the op_info rows they stand for; every other
// DVE operator is its row's spelling.
static const struct {
  const char *word;
  Op op;
} dve_op_words[] = {{"imply", OP_IMPLIES}, {"or", OP_OR}, {"and", OP_AND}, {"not", OP_NOT}};

// Whether `op` is a unary operator (if `unary`) or a binary one of DVE.
static bool is_dve_op(Op op, bool unary) {
  return unary ? op_info[op].cls == OPC_UNARY : op_info[op].dve_prec > 0;
}

// The operator of op_info that the current token spells in DVE, or -1: a
// unary operator if `unary`, else a binary one. `->`, the spelling of
// imply's row, is not an operator here: `P->x` reads a process's variable,
// and imply is only written `imply`.
static int dve_op_at(bool unary) {
  for (size_t i = 0; i < sizeof dve_op_words / sizeof *dve_op_words; i++)
    if (is(dve_op_words[i].word) && is_dve_op(dve_op_words[i].op, unary))
      return (int)dve_op_words[i].op;
  for (int op = 0; op <= OP_BNOT; op++)
    if (op != OP_IMPLIES && is(op_info[op].spelling) && is_dve_op((Op)op, unary))
      return op;
  return -1;
}

// unary = ("-" | "!" | "not" | "~" | "+") unary | primary
static DExpr *dunary(void) {
  Token *t = tok;
  if (nesting + 1 > MAX_NESTING) {
    syntax_error_at(tok, "expression nested too deeply (more than %d levels)", MAX_NESTING);
    return new_dexpr(DE_NUM, t);
  }
  if (is("+")) {
    next();
    nesting++;
    DExpr *u = dunary();
    nesting--;
    return u;
  }
  int op = dve_op_at(true);
  if (op < 0)
    return dprimary();
  next();
  DExpr *e = new_dexpr(DE_UNARY, t);
  e->op = (Op)op;
  nesting++;
  e->l = dunary();
  nesting--;
  if (op == OP_NEG && e->l->kind == DE_NUM) {
    e->l->val = -e->l->val;
    e->l->tok = t;
    return e->l;
  }
  return e;
}

// binary(min) = unary (OP binary(dve_prec(OP) + 1))*
//   for the operators OP with dve_prec(OP) >= min, by precedence climbing
//   over op_info's dve_prec, loosest first: "imply", "||" "or", "&&" "and",
//   "|", "^", "&", "==" "!=", "<" "<=" ">" ">=", "<<" ">>", "+" "-", and
//   "*" "/" "%"; all group to the left.
static DExpr *dbinary(int min_prec) {
  DExpr *l = dunary();
  for (;;) {
    int op = dve_op_at(false);
    if (op < 0 || op_info[op].dve_prec < min_prec)
      return l;
    DExpr *e = new_dexpr(DE_BINARY, tok);
    next();
    e->op = (Op)op;
    e->l = l;
    e->r = dbinary(op_info[op].dve_prec + 1);
    l = e;
  }
}

// expr = binary(1)
static DExpr *dexpr(void) {
  if (++nesting > MAX_NESTING) {
    nesting--;
    syntax_error_at(tok, "expression nested too deeply (more than %d levels)", MAX_NESTING);
    return new_dexpr(DE_NUM, tok);
  }
  DExpr *e = dbinary(1);
  nesting--;
  return e;
}

//
// Declarations.
//

// var_decl   = "const"? ("byte" | "int") declarator ("," declarator)* ";"
// declarator = IDENT ("[" expr "]")? ("=" (expr | "{" (expr ("," expr)*)? "}"))?
// Each variable joins `vars` as soon as its name is read, so that a syntax
// error in its size or initialiser does not make it unknown.
static void dvar_decl(Vec *vars, DProc *proc) {
  int before = nsyntax, first = vars->len;
  bool is_const = accept_tok("const");
  bool is_int = is("int");
  if (!accept_tok("int") && !accept_tok("byte")) {
    syntax_error("'byte' or 'int'");
    return;
  }
  do {
    Token *name = expect_ident("a variable name");
    if (panic) {
      *(proc ? &proc->vars_lost : &sys->vars_lost) = true;
      break;
    }
    DVar *v = xcalloc(1, sizeof *v);
    v->name = name;
    v->is_int = is_int;
    v->is_const = is_const;
    v->proc = proc;
    v->size = -1;
    vec_push(vars, v);
    if (accept_tok("[")) {
      v->size = 0;
      v->size_expr = dexpr();
      expect("]");
    }
    if (accept_tok("=")) {
      if (accept_tok("{")) {
        if (v->size < 0)
          error_at(tok, "a scalar variable cannot have a list initialiser");
        if (!is("}")) {
          do {
            DExpr *e = dexpr();
            if (!panic)
              vec_push(&v->init, e);
          } while (accept_tok(","));
        }
        expect("}");
      } else {
        DExpr *e = dexpr();
        if (!panic)
          vec_push(&v->init, e);
        if (v->size >= 0 && !panic)
          error_at(v->name, "an array needs a list initialiser '{ ... }'");
      }
    }
    if (is_const && v->size < 0 && v->init.len == 0 && nsyntax == before)
      error_at(v->name, "constant '%s' needs a value", v->name->str);
  } while (accept_tok(","));
  expect(";");
  // A syntax error anywhere in the declaration: what it says of each
  // variable (its size, its value) may be wrong.
  for (int i = first; i < vars->len && nsyntax != before; i++)
    ((DVar *)vars->data[i])->broken = true;
}

// chan_decl = "channel" ("{" type ("," type)* "}")? chan_name ("," chan_name)* ";"
// type      = "byte" | "int"
// chan_name = IDENT ("[" expr "]")?
static void dchan_decl(void) {
  expect("channel");
  Vec types = {0};
  bool typed = false;
  if (accept_tok("{")) {
    typed = true;
    do {
      bool is_int = is("int");
      if (!accept_tok("int") && !accept_tok("byte")) {
        syntax_error("'byte' or 'int'");
        sys->chans_lost = true;
        return;
      }
      vec_push(&types, is_int ? (void *)"int" : (void *)"byte");
    } while (accept_tok(","));
    expect("}");
  }
  do {
    Token *name = expect_ident("a channel name");
    if (panic) {
      sys->chans_lost = true;
      return;
    }
    DChan *c = xcalloc(1, sizeof *c);
    c->name = name;
    c->types = types;
    c->ncomp = types.len;
    c->typed = typed;
    vec_push(&sys->chans, c);
    if (accept_tok("[")) {
      c->cap_expr = dexpr();
      expect("]");
    }
  } while (accept_tok(","));
  expect(";");
}

// name_list = IDENT ("," IDENT)* ";"
// *lost is set when a name is missing.
static void dname_list(Vec *out, const char *what, bool *lost) {
  do {
    Token *name = expect_ident(what);
    if (panic) {
      *lost = true;
      return;
    }
    vec_push(out, name);
  } while (accept_tok(","));
  expect(";");
}

// One clause of a transition's body, then recovery at its end.
static void clause_end(DTrans *t, int before) {
  if (panic)
    recover(clause_stop);
  if (nsyntax != before)
    t->broken = true;
}

// transition = IDENT "->" IDENT "{" guard? sync? effect? "}"
// guard      = "guard" expr ("," expr)* ";"
// sync       = "sync" IDENT ("!" | "?") (expr | "{" expr ("," expr)* "}")? ";"
// effect     = "effect" expr "=" expr ("," expr "=" expr)* ";"
// A receive stores into variables; an effect assigns variables.
static DTrans *dtransition(DProc *proc) {
  DTrans *t = xcalloc(1, sizeof *t);
  int before = nsyntax;
  t->proc = proc;
  t->tok = tok;
  t->from = expect_ident("a state name");
  expect("->");
  t->to = expect_ident("a state name");
  if (!panic && is_clause_keyword(tok)) {
    // `a -> b guard ...`: the body without its `{`; read it all the same.
    syntax_error("'{'");
    panic = false;
  } else if (!panic && tok->kind != TK_EOF && !is("{") && is_punct(tok->next, "{")) {
    // `a -> b ; {`: one stray token before the body.
    syntax_error("'{'");
    panic = false;
    next();
    next();
  } else
    expect("{");
  if (panic) {
    t->broken = true;
    recover(transition_stop);
    return t;
  }
  if (accept_tok("guard")) {
    do {
      DExpr *g = dexpr();
      if (!panic) // a half-read expression is not resolved
        vec_push(&t->guards, g);
    } while (accept_tok(","));
    expect(";");
    clause_end(t, before);
  }
  if (is("sync")) {
    t->sync_tok = tok;
    next();
    t->chan_tok = expect_ident("a channel name");
    if (accept_tok("!"))
      t->send = true;
    else if (!accept_tok("?"))
      syntax_error("'!' or '?' after the channel name");
    if (!panic && !is(";")) {
      bool braces = accept_tok("{");
      do {
        DExpr *e = dexpr();
        if (!t->send && !panic && (e->kind != DE_VAR || e->proc))
          error_at(dexpr_start(e), "a receive needs a variable to store the value in");
        if (!panic)
          vec_push(&t->sexprs, e);
      } while (braces && accept_tok(","));
      if (braces)
        expect("}");
    }
    expect(";");
    clause_end(t, before);
  }
  if (accept_tok("effect")) {
    do {
      DExpr *l = dexpr();
      if (!panic && (l->kind != DE_VAR || l->proc))
        error_at(dexpr_start(l), "only a variable or an array element can be assigned");
      expect("=");
      DExpr *r = dexpr();
      if (!panic) {
        vec_push(&t->lhs, l);
        vec_push(&t->rhs, r);
      }
    } while (accept_tok(","));
    expect(";");
    clause_end(t, before);
  }
  if (!panic && !accept_tok("}")) {
    syntax_error("'}'");
    recover(body_stop);
  }
  if (nsyntax != before)
    t->broken = true;
  return t;
}

// trans_list = transition ("," transition)* ";"
// A transition recovers by itself; a panic left over ends the item.
static void dtrans_list(DProc *p) {
  do {
    DTrans *t = dtransition(p);
    vec_push(&p->trans, t);
    if (!panic && !is(",") && !is(";") && !is("}") && (t->broken || is_clause_keyword(tok))) {
      // The body's `}` came too early (a stray one in an expression, or
      // before a clause): what follows up to the next `}` belongs to the
      // body. After an error in the body this is no new error.
      if (t->broken)
        panic = true;
      else
        syntax_error("';'");
      recover(body_stop);
    }
  } while (accept_tok(","));
  expect(";");
}

// The body of a process: one item (a declaration or a list).
// proc_item = var_decl
//           | "state" name_list | "init" IDENT ";" | "commit" name_list
//           | "accept" name_list | "assert" assertion ("," assertion)* ";"
//           | "trans" trans_list?
// assertion = IDENT ":" expr
static void dproc_item(DProc *p) {
  if (is("byte") || is("int") || is("const"))
    dvar_decl(&p->vars, p);
  else if (accept_tok("state"))
    dname_list(&p->states, "a state name", &p->states_lost);
  else if (accept_tok("init")) {
    p->init = expect_ident("the initial state");
    expect(";");
  } else if (accept_tok("commit"))
    dname_list(&p->commits, "a state name", &(bool){false});
  else if (accept_tok("accept"))
    dname_list(&p->accepts, "a state name", &(bool){false});
  else if (accept_tok("assert")) {
    do {
      Token *state = expect_ident("a state name");
      expect(":");
      DExpr *e = dexpr();
      if (panic)
        return;
      vec_push(&p->assert_states, state);
      vec_push(&p->assert_exprs, e);
    } while (accept_tok(","));
    expect(";");
  } else if (accept_tok("trans")) {
    if (!is("}"))
      dtrans_list(p);
  } else if (is_clause_keyword(tok) && last_error && last_error->loc > p->name->loc) {
    // A clause after an error in this process: the rest of a body whose
    // `}` came too early (`guard x > 0 } ; effect ...`); no new error.
    panic = true;
    recover(body_stop);
    if (accept_tok(","))
      dtrans_list(p);
  } else
    syntax_error("a declaration, 'state', 'init', 'commit', 'accept', 'assert', 'trans' or '}'");
}

// process = "process" IDENT "{" proc_item* "}"
static void dprocess(void) {
  expect("process");
  int before = nsyntax;
  DProc *p = xcalloc(1, sizeof *p);
  p->name = expect_ident("a process name");
  expect("{");
  if (panic) {
    if (p->name->str[0])
      lose(p->name->str); // the process is skipped: its name is not unknown
    else
      sys->procs_lost = true;
    return;
  }
  while (!panic && !is("}") && !ends_construct(tok)) {
    Token *start = tok;
    dproc_item(p);
    if (panic)
      recover_item(start);
  }
  if (!panic && !accept_tok("}"))
    syntax_error("a declaration, 'state', 'init', 'commit', 'accept', 'assert', 'trans' or '}'");
  p->broken = nsyntax != before;
  vec_push(&sys->procs, p);
}

// system_line = "system" ("async" | "sync") ("property" IDENT)? ";"
static void dsystem_line(void) {
  sys->system_tok = tok;
  next();
  if (is("sync")) {
    error_at(tok, "'system sync' (synchronous composition) is not supported");
    hint("mcgen checks asynchronous DVE systems: write 'system async;'");
    next();
  } else
    expect("async");
  if (accept_tok("property"))
    sys->property = expect_ident("the property process");
  expect(";");
}

// system = (var_decl | chan_decl | process)* system_line EOF
// The `system` line ends the parse: what follows it is reported, not read.
static void dsystem(void) {
  while (tok->kind != TK_EOF) {
    Token *start = tok;
    if (is("byte") || is("int") || is("const"))
      dvar_decl(&sys->vars, NULL);
    else if (is("channel"))
      dchan_decl();
    else if (is("process"))
      dprocess();
    else if (is("system")) {
      dsystem_line();
      if (tok->kind != TK_EOF)
        syntax_error("end of file after the 'system' line");
      return;
    } else
      syntax_error("'byte', 'int', 'const', 'channel', 'process' or 'system'");
    if (panic)
      recover_decl(start);
  }
  if (!sys->system_tok && !eof_seen)
    error_at(tok, "missing 'system async;' at the end of the model");
}

DSystem *dve_parse(const SrcFile *file) {
  sys = xcalloc(1, sizeof *sys);
  lost = NULL;
  lost_cap = lost_count = 0;
  prev = NULL;
  last_error = NULL;
  panic = false;
  nsyntax = 0;
  nesting = index_nesting = 0;
  tok = dve_tokenize(file);
  eof_seen = comment_unterminated;
  dsystem();
  return sys;
}
