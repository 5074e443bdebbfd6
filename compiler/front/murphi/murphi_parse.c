// SPDX-License-Identifier: MIT
// murphi_parse.c: the Murphi front end's parser. Reads the tokens of a .m
// file into the Murphi syntax tree of murphi.h by recursive descent, one
// function per grammar rule with the rule written above it. Expressions,
// statements and types are the .mc tree's nodes (mcgen.h) plus the
// Murphi-only kinds of murphi.h; names are not resolved here
// (murphi_lower.c).
//
// The grammar is Rumur's: declarations, procedures, functions, rules and
// properties in any order; `;` between items, optional where Rumur lets it
// be left out; every block closed by `end` or its own `endX` keyword.
//
// Errors: a syntax error is reported where it is met, and the parser
// resumes at the next declaration, rule or property keyword that starts a
// line (column 1), so that one run reports the errors of every top-level
// item; the items in between are dropped.
#include <setjmp.h>

#include "murphi.h"

static Token *tok;
static jmp_buf recover;

//
// Tokens.
//

static bool is(const char *s) {
  return tok->kind == TK_PUNCT && equal(tok, s);
}

static bool is_kw(const char *kw) {
  return murphi_is_kw(tok, kw);
}

static const char *describe(const Token *t) {
  if (t->kind == TK_EOF)
    return "the end of the file";
  if (t->kind == TK_STR)
    return "a string";
  return format("'%.*s'", t->len, t->loc);
}

static _Noreturn void syntax_error(const char *what) {
  error_at(tok, "expected %s, found %s", what, describe(tok));
  longjmp(recover, 1);
}

static Token *consume(void) {
  Token *t = tok;
  if (tok->kind != TK_EOF)
    tok = tok->next;
  return t;
}

static bool accept(const char *s) {
  if (!is(s))
    return false;
  consume();
  return true;
}

static bool accept_kw(const char *kw) {
  if (!is_kw(kw))
    return false;
  consume();
  return true;
}

static Token *expect(const char *s) {
  if (!is(s))
    syntax_error(format("'%s'", s));
  return consume();
}

static Token *expect_kw(const char *kw) {
  if (!is_kw(kw))
    syntax_error(format("'%s'", kw));
  return consume();
}

static Token *ident(void) {
  if (tok->kind != TK_IDENT)
    syntax_error(tok->kind == TK_KEYWORD ? "a name (this is a keyword)" : "a name");
  return consume();
}

// `end` or the block's own closer (`endrule`, ...); `opener` says where the
// block began, for the note.
static void expect_end(const char *own, Token *opener) {
  if (accept_kw("end") || accept_kw(own))
    return;
  error_at(tok, "expected 'end' or '%s', found %s", own, describe(tok));
  note_at(opener, "to close this '%.*s'", opener->len, opener->loc);
  longjmp(recover, 1);
}

//
// Nodes.
//

Type *murphi_type(TypeKind kind, Token *t) {
  Type *ty = xcalloc(1, sizeof *ty);
  ty->kind = kind;
  ty->tok = t;
  return ty;
}

static Node *expr(void);
static Type *type_expr(void);
static Node *stmts(void);

//
// Expressions, loosest first.
//

// quantifier = NAME ":" type | NAME ":=" expr "to" expr ["by" expr]
// Returns the binder; a `:=` form sets *lo, *hi and *step.
static Binder *quantifier(Node **lo, Node **hi, Node **step) {
  Binder *b = xcalloc(1, sizeof *b);
  b->name = ident();
  *lo = *hi = *step = NULL;
  if (accept(":=")) {
    *lo = expr();
    expect_kw("to");
    *hi = expr();
    if (accept_kw("by"))
      *step = expr();
    return b;
  }
  expect(":");
  b->type = type_expr();
  return b;
}

// quant_expr = ("forall" | "exists") quantifier "do" expr ("end" | "endforall" | "endexists")
static Node *quant_expr(void) {
  Token *t = consume();
  bool all = murphi_is_kw(t, "forall");
  Node *lo, *hi, *step;
  Binder *b = quantifier(&lo, &hi, &step);
  Node *n = murphi_node(lo ? MND_STEP_QUANT : ND_QUANT, t);
  n->op = all ? OP_FORALL : OP_EXISTS;
  vec_push(&n->binders, b);
  n->lhs = lo, n->rhs = hi, n->cond = step;
  expect_kw("do");
  n->body = expr();
  expect_end(all ? "endforall" : "endexists", t);
  return n;
}

// ms_pred = "(" NAME ":" designator ";" expr ")"   (multisetcount, multisetremovepred)
static Node *ms_pred(int kind, Token *t) {
  Node *n = murphi_node(kind, t);
  expect("(");
  Binder *b = xcalloc(1, sizeof *b);
  b->name = ident();
  expect(":");
  b->in_expr = expr();
  vec_push(&n->binders, b);
  expect(";");
  n->cond = expr();
  expect(")");
  return n;
}

// args = "(" [expr {"," expr}] ")"
static void args(Vec *out) {
  expect("(");
  if (accept(")"))
    return;
  do
    vec_push(out, expr());
  while (accept(","));
  expect(")");
}

// primary = NUM | "true" | "false" | "(" expr ")" | quant_expr
//         | "isundefined" "(" expr ")" | "multisetcount" ms_pred
//         | NAME "(" args ")" | NAME
static Node *primary(void) {
  if (tok->kind == TK_NUM) {
    Node *n = murphi_node(ND_NUM, tok);
    n->val = consume()->val;
    return n;
  }
  if (is_kw("true") || is_kw("false")) {
    Node *n = murphi_node(ND_BOOL, tok);
    n->val = murphi_is_kw(consume(), "true");
    return n;
  }
  if (accept("(")) {
    Node *n = expr();
    expect(")");
    return n;
  }
  if (is_kw("forall") || is_kw("exists"))
    return quant_expr();
  if (is_kw("isundefined")) {
    Node *n = murphi_node(MND_ISUNDEF, consume());
    expect("(");
    n->lhs = expr();
    expect(")");
    return n;
  }
  if (is_kw("multisetcount"))
    return ms_pred(MND_MSCOUNT, consume());
  if (tok->kind == TK_IDENT) {
    Token *name = consume();
    if (is("(")) {
      Node *n = murphi_node(ND_CALL, name);
      n->name = name;
      args(&n->args);
      return n;
    }
    Node *n = murphi_node(ND_IDENT, name);
    n->name = name;
    return n;
  }
  syntax_error("an expression");
}

// postfix = primary {"." NAME | "[" expr "]"}
static Node *postfix(void) {
  Node *n = primary();
  for (;;) {
    if (is(".")) {
      Node *f = murphi_node(ND_FIELD, consume());
      f->lhs = n;
      f->name = ident();
      n = f;
    } else if (is("[")) {
      Node *i = murphi_node(ND_INDEX, consume());
      i->lhs = n;
      i->rhs = expr();
      expect("]");
      n = i;
    } else {
      return n;
    }
  }
}

static Node *not_expr(void);

// unary = ("-" | "+" | "~") unary | "!" not | postfix
// (`x = !y`: a `!` in an operand's place negates what follows it up to a
// comparison, as Rumur's grammar has it)
static Node *unary(void) {
  if (is("!")) {
    Node *n = murphi_node(ND_UNARY, consume());
    n->op = OP_NOT;
    n->lhs = not_expr();
    return n;
  }
  if (is("-") || is("~")) {
    Token *t = consume();
    Node *n = murphi_node(ND_UNARY, t);
    n->op = equal(t, "-") ? OP_NEG : OP_BNOT;
    n->lhs = unary();
    return n;
  }
  if (accept("+"))
    return unary();
  return postfix();
}

// One level of left-associative binary operators: `ops` lists the
// spellings and `opv` their Ops.
typedef Node *Level(void);
static Node *binary_level(Level *next, const char *const *ops, const Op *opv, int nops) {
  Node *n = next();
  for (;;) {
    int i = 0;
    while (i < nops && !is(ops[i]))
      i++;
    if (i == nops)
      return n;
    Token *t = consume();
    n = new_binary(opv[i], n, next(), t);
  }
}

// mul = unary {("*" | "/" | "%") unary}
static Node *mul(void) {
  static const char *const ops[] = {"*", "/", "%"};
  static const Op opv[] = {OP_MUL, OP_DIV, OP_MOD};
  return binary_level(unary, ops, opv, 3);
}

// add = mul {("+" | "-") mul}
static Node *add(void) {
  static const char *const ops[] = {"+", "-"};
  static const Op opv[] = {OP_ADD, OP_SUB};
  return binary_level(mul, ops, opv, 2);
}

// shift = add {("<<" | ">>") add}
static Node *shift(void) {
  static const char *const ops[] = {"<<", ">>"};
  static const Op opv[] = {OP_SHL, OP_SHR};
  return binary_level(add, ops, opv, 2);
}

// rel = shift [("<" | "<=" | "=" | "==" | "!=" | ">=" | ">") shift]
static Node *rel(void) {
  static const char *const ops[] = {"<", "<=", "=", "==", "!=", ">=", ">"};
  static const Op opv[] = {OP_LT, OP_LE, OP_EQ, OP_EQ, OP_NE, OP_GE, OP_GT};
  Node *n = shift();
  for (int i = 0; i < 7; i++)
    if (is(ops[i])) {
      Token *t = consume();
      return new_binary(opv[i], n, shift(), t);
    }
  return n;
}

// not = "!" not | rel
static Node *not_expr(void) {
  if (is("!")) {
    Node *n = murphi_node(ND_UNARY, consume());
    n->op = OP_NOT;
    n->lhs = not_expr();
    return n;
  }
  return rel();
}

// and = not {("&" | "&&") not}   (`&` on integers is bitwise: murphi_lower.c)
static Node *and_expr(void) {
  static const char *const ops[] = {"&", "&&"};
  static const Op opv[] = {OP_AND, OP_AND};
  return binary_level(not_expr, ops, opv, 2);
}

// xor = and {"^" and}
static Node *xor_expr(void) {
  static const char *const ops[] = {"^"};
  static const Op opv[] = {OP_BXOR};
  return binary_level(and_expr, ops, opv, 1);
}

// or = xor {("|" | "||") xor}
static Node *or_expr(void) {
  static const char *const ops[] = {"|", "||"};
  static const Op opv[] = {OP_OR, OP_OR};
  return binary_level(xor_expr, ops, opv, 2);
}

// implies = or ["->" implies]
static Node *implies(void) {
  Node *n = or_expr();
  if (is("->")) {
    Token *t = consume();
    return new_binary(OP_IMPLIES, n, implies(), t);
  }
  return n;
}

// expr = implies ["?" expr ":" expr]
static Node *expr(void) {
  Node *n = implies();
  if (is("?")) {
    Node *c = murphi_node(ND_COND, consume());
    c->cond = n;
    c->then = expr();
    expect(":");
    c->els = expr();
    return c;
  }
  return n;
}

//
// Types.
//

// fields = {NAME {"," NAME} ":" type [";"]} ("end" | "endrecord")
static Type *record_type(Token *t) {
  Type *ty = murphi_type(TY_RECORD, t);
  Vec fields = {0};
  while (tok->kind == TK_IDENT) {
    Vec names = {0};
    do
      vec_push(&names, ident());
    while (accept(","));
    expect(":");
    Type *fty = type_expr();
    for (int i = 0; i < names.len; i++) {
      Field *f = xcalloc(1, sizeof *f);
      f->name = names.data[i];
      f->type = fty;
      vec_push(&fields, f);
    }
    accept(";");
  }
  expect_end("endrecord", t);
  ty->fields = (Field **)fields.data;
  ty->nfields = fields.len;
  return ty;
}

// type = "boolean" | "enum" "{" NAME {"," NAME} "}" | "record" fields
//      | "array" "[" type "]" "of" type | "scalarset" "(" expr ")"
//      | "multiset" "[" expr "]" "of" type | "union" "{" type {"," type} "}"
//      | expr ".." expr | NAME
static Type *type_expr(void) {
  Token *t = tok;
  if (accept_kw("boolean"))
    return murphi_type(TY_BOOL, t);
  if (accept_kw("enum")) {
    Type *ty = murphi_type(TY_ENUM, t);
    expect("{");
    do
      vec_push(&ty->members, ident());
    while (accept(",") && !is("}"));
    expect("}");
    return ty;
  }
  if (accept_kw("record"))
    return record_type(t);
  if (accept_kw("array")) {
    Type *ty = murphi_type(TY_ARRAY, t);
    expect("[");
    ty->index = type_expr();
    expect("]");
    expect_kw("of");
    ty->base = type_expr();
    return ty;
  }
  if (accept_kw("scalarset")) {
    Type *ty = murphi_type(TY_SCALARSET, t);
    expect("(");
    ty->size_expr = expr();
    expect(")");
    return ty;
  }
  if (accept_kw("multiset")) {
    Type *ty = murphi_type(TY_MULTISET, t);
    expect("[");
    ty->cap_expr = expr();
    expect("]");
    expect_kw("of");
    ty->base = type_expr();
    return ty;
  }
  if (accept_kw("union")) {
    // Unions are read so that they can be refused by name (murphi_lower.c).
    Type *ty = murphi_type(TY_ERROR, t);
    expect("{");
    do
      type_expr();
    while (accept(","));
    expect("}");
    return ty;
  }
  Node *lo = expr();
  if (accept("..")) {
    Type *ty = murphi_type(TY_RANGE, t);
    ty->lo_expr = lo;
    ty->hi_expr = expr();
    return ty;
  }
  if (lo->kind != ND_IDENT) {
    tok = t;
    syntax_error("a type");
  }
  Type *ty = murphi_type(TY_NAMED, t);
  ty->ref = lo->name;
  return ty;
}

//
// Statements.
//

// if = "if" expr "then" stmts {"elsif" expr "then" stmts} ["else" stmts] ("end" | "endif")
static Node *if_stmt(Token *t) {
  Node *n = murphi_node(ND_IF, t);
  n->cond = expr();
  expect_kw("then");
  n->then = stmts();
  Node *last = n;
  while (is_kw("elsif")) {
    Node *e = murphi_node(ND_IF, consume());
    e->cond = expr();
    expect_kw("then");
    e->then = stmts();
    last->els = e;
    last = e;
  }
  if (accept_kw("else"))
    last->els = stmts();
  expect_end("endif", t);
  return n;
}

// switch = "switch" expr {"case" expr {"," expr} ":" stmts} ["else" stmts] ("end" | "endswitch")
static Node *switch_stmt(Token *t) {
  Node *n = murphi_node(MND_SWITCH, t);
  n->lhs = expr();
  while (is_kw("case")) {
    Node *c = murphi_node(MND_CASE, consume());
    do
      vec_push(&c->args, expr());
    while (accept(","));
    expect(":");
    c->body = stmts();
    vec_push(&n->args, c);
  }
  if (accept_kw("else"))
    n->els = stmts();
  expect_end("endswitch", t);
  return n;
}

// for = "for" quantifier {";" quantifier} "do" stmts ("end" | "endfor")
// Several quantifiers nest, the first outermost.
static Node *for_stmt(Token *t) {
  Vec loops = {0};
  do {
    Node *lo, *hi, *step;
    Binder *b = quantifier(&lo, &hi, &step);
    Node *n = murphi_node(lo ? MND_STEP_FOR : ND_FOR, t);
    vec_push(&n->binders, b);
    n->lhs = lo, n->rhs = hi, n->cond = step;
    vec_push(&loops, n);
  } while (accept(";") || accept(","));
  expect_kw("do");
  Node *body = stmts();
  expect_end("endfor", t);
  for (int i = loops.len - 1; i >= 0; i--) {
    Node *n = loops.data[i];
    n->body = body;
    if (i > 0) {
      body = murphi_node(ND_BLOCK, t);
      vec_push(&body->args, n);
    }
  }
  return loops.data[0];
}

// aliases = NAME ":" expr {";" NAME ":" expr}
static void aliases(Vec *out) {
  do {
    Binder *b = xcalloc(1, sizeof *b);
    b->name = ident();
    expect(":");
    b->in_expr = expr();
    vec_push(out, b);
    // Rumur lets the separators be left out, and one end the list.
  } while ((accept(";") || accept(",") || tok->kind == TK_IDENT) && !is_kw("do"));
}

// alias = "alias" aliases "do" stmts ("end" | "endalias")
static Node *alias_stmt(Token *t) {
  Node *n = murphi_node(MND_ALIAS, t);
  aliases(&n->binders);
  expect_kw("do");
  n->body = stmts();
  expect_end("endalias", t);
  return n;
}

// A property's expression and its optional name, on either side:
// [STRING] expr | expr [STRING]. The name goes to *label.
static Node *labelled_expr(Token **label) {
  *label = tok->kind == TK_STR ? consume() : NULL;
  Node *e = expr();
  if (!*label && tok->kind == TK_STR)
    *label = consume();
  return e;
}

// A statement that checks a property: assert, assume, cover.
static Node *property_stmt(int kind, Token *t) {
  Node *n = murphi_node(kind, t);
  Token *label;
  n->lhs = labelled_expr(&label);
  if (label) {
    n->rhs = murphi_node(ND_STR, label);
  }
  return n;
}

// Whether the statements of a block end here: at a closer, or at a keyword
// that only starts a top-level item (the block's `end` is missing: the
// closer's error says so).
static bool stmts_end(void) {
  static const char *const closers[] = {
      "end",        "else",          "elsif",        "case",        "endif",      "endfor",
      "endwhile",   "endswitch",     "endalias",     "endrule",     "endstartstate",
      "endprocedure", "endfunction", "endruleset",   "endexists",   "endforall",
      "endchoose",
      "rule",       "startstate",    "ruleset",      "invariant",   "liveness",
      "procedure",  "function",      "const",        "type",        "var"};
  if (tok->kind == TK_EOF)
    return true;
  for (size_t i = 0; i < sizeof closers / sizeof *closers; i++)
    if (is_kw(closers[i]))
      return true;
  return false;
}

// stmt = if | switch | for | while | alias | "clear" expr | "undefine" expr
//      | "error" STRING | "assert" labelled | "assume" labelled | "cover" labelled
//      | "put" (expr | STRING) | "return" [expr]
//      | "multisetadd" "(" expr "," expr ")" | "multisetremove" "(" expr "," expr ")"
//      | "multisetremovepred" ms_pred | NAME "(" args ")" | designator ":=" expr
static Node *stmt(void) {
  Token *t = tok;
  if (accept_kw("if"))
    return if_stmt(t);
  if (accept_kw("switch"))
    return switch_stmt(t);
  if (accept_kw("for"))
    return for_stmt(t);
  if (accept_kw("while")) {
    Node *n = murphi_node(MND_WHILE, t);
    n->cond = expr();
    expect_kw("do");
    n->body = stmts();
    expect_end("endwhile", t);
    return n;
  }
  if (accept_kw("alias"))
    return alias_stmt(t);
  if (accept_kw("clear") || accept_kw("undefine")) {
    Node *n = murphi_node(murphi_is_kw(t, "clear") ? MND_CLEAR : MND_UNDEFINE, t);
    n->lhs = postfix();
    return n;
  }
  if (accept_kw("error")) {
    Node *n = murphi_node(MND_ERROR, t);
    if (tok->kind != TK_STR)
      syntax_error("a string (the error's message)");
    n->rhs = murphi_node(ND_STR, consume());
    return n;
  }
  if (accept_kw("assert"))
    return property_stmt(ND_ASSERT, t);
  if (accept_kw("assume"))
    return property_stmt(MND_ASSUME, t);
  if (accept_kw("cover"))
    return property_stmt(MND_COVER, t);
  if (is_kw("liveness")) {
    error_at(tok, "a liveness property cannot be a statement");
    hint("declare it at the top level: liveness \"name\" EXPR");
    longjmp(recover, 1);
  }
  if (accept_kw("put")) {
    Node *n = murphi_node(MND_PUT, t);
    n->lhs = tok->kind == TK_STR ? murphi_node(ND_STR, consume()) : expr();
    return n;
  }
  if (accept_kw("return")) {
    Node *n = murphi_node(ND_RETURN, t);
    if (!is(";") && !stmts_end())
      n->lhs = expr();
    return n;
  }
  if (accept_kw("multisetadd") || accept_kw("multisetremove")) {
    Node *n = murphi_node(murphi_is_kw(t, "multisetadd") ? MND_MSADD : MND_MSREMOVE, t);
    expect("(");
    n->lhs = expr();
    expect(",");
    n->rhs = expr();
    expect(")");
    return n;
  }
  if (accept_kw("multisetremovepred"))
    return ms_pred(MND_MSREMOVEPRED, t);
  if (tok->kind == TK_IDENT && tok->next->kind == TK_PUNCT && equal(tok->next, "(")) {
    Node *n = murphi_node(MND_PCALL, tok);
    n->name = consume();
    args(&n->args);
    return n;
  }
  if (tok->kind != TK_IDENT)
    syntax_error("a statement");
  Node *lhs = postfix();
  if (!is(":="))
    syntax_error("':='");
  Node *n = murphi_node(ND_ASSIGN, consume());
  n->lhs = lhs;
  n->rhs = expr();
  return n;
}

// stmts = {stmt [";"]}   up to the closer of the enclosing block
static Node *stmts(void) {
  Node *block = murphi_node(ND_BLOCK, tok);
  while (!stmts_end()) {
    if (accept(";"))
      continue;
    vec_push(&block->args, stmt());
    if (!accept(";") && !stmts_end())
      syntax_error("';'");
  }
  return block;
}

//
// Declarations.
//

static MDecl *new_mdecl(MDeclKind kind, Token *t) {
  MDecl *d = xcalloc(1, sizeof *d);
  d->kind = kind;
  d->tok = t;
  return d;
}

static bool at_decl_section(void) {
  return is_kw("const") || is_kw("type") || is_kw("var");
}

// decl_section = "const" {NAME ":" expr [";"]} | "type" {NAME ":" type [";"]}
//              | "var" {NAME {"," NAME} ":" type [";"]}
static void decl_section(Vec *out) {
  Token *t = consume();
  MDeclKind kind = murphi_is_kw(t, "const") ? MD_CONST : murphi_is_kw(t, "type") ? MD_TYPE : MD_VAR;
  do {
    Vec names = {0};
    do
      vec_push(&names, ident());
    while (accept(","));
    if (!accept(":") && !(kind != MD_VAR && accept("=")))
      syntax_error("':'");
    Node *value = kind == MD_CONST ? expr() : NULL;
    Type *ty = kind == MD_CONST ? NULL : type_expr();
    for (int i = 0; i < names.len; i++) {
      MDecl *d = new_mdecl(kind, t);
      d->name = names.data[i];
      d->expr = value;
      d->type = ty;
      vec_push(out, d);
    }
    accept(";");
  } while (tok->kind == TK_IDENT);
}

// locals = {decl_section} "begin" | (nothing)
// Local declarations of a procedure, function, rule or start state.
static void locals(Vec *out) {
  bool any = false;
  while (at_decl_section()) {
    decl_section(out);
    any = true;
  }
  if (!accept_kw("begin") && any)
    syntax_error("'begin'");
}

// params = "(" [["var"] NAME {"," NAME} ":" type {";" ...}] ")"
static void params(Vec *out) {
  expect("(");
  while (!is(")")) {
    bool by_ref = accept_kw("var");
    accept_kw("const");
    Vec names = {0};
    do
      vec_push(&names, ident());
    while (accept(","));
    expect(":");
    Type *ty = type_expr();
    for (int i = 0; i < names.len; i++) {
      MParam *p = xcalloc(1, sizeof *p);
      p->name = names.data[i];
      p->type = ty;
      p->by_ref = by_ref;
      vec_push(out, p);
    }
    if (!accept(";") && !accept(",") && tok->kind != TK_IDENT && !is_kw("var"))
      break; // Rumur lets the `;` between parameters be left out
  }
  expect(")");
}

// function = ("procedure" | "function") NAME params [":" type] ";"
//            locals stmts ("end" | "endprocedure" | "endfunction")
static MDecl *function(Token *t) {
  MDecl *d = new_mdecl(MD_FUNCTION, t);
  d->name = ident();
  params(&d->params);
  if (murphi_is_kw(t, "function")) {
    expect(":");
    d->type = type_expr();
  }
  accept(";");
  locals(&d->locals);
  d->body = stmts();
  expect_end(murphi_is_kw(t, "function") ? "endfunction" : "endprocedure", t);
  return d;
}

static void rules(Vec *out, const char *closer);

// rule = "rule" [STRING] [expr "==>"] locals stmts ("end" | "endrule")
static MDecl *rule(Token *t) {
  MDecl *d = new_mdecl(MD_RULE, t);
  if (tok->kind == TK_STR)
    d->label = consume();
  if (!is_kw("begin") && !at_decl_section()) {
    d->expr = expr();
    expect("==>");
  }
  locals(&d->locals);
  d->body = stmts();
  expect_end("endrule", t);
  return d;
}

// startstate = "startstate" [STRING] locals stmts ("end" | "endstartstate")
static MDecl *startstate(Token *t) {
  MDecl *d = new_mdecl(MD_STARTSTATE, t);
  if (tok->kind == TK_STR)
    d->label = consume();
  locals(&d->locals);
  d->body = stmts();
  expect_end("endstartstate", t);
  return d;
}

// property = ("invariant" | "cover" | "assume" | "liveness") labelled
static MDecl *property(Token *t, MDeclKind kind) {
  MDecl *d = new_mdecl(kind, t);
  d->expr = labelled_expr(&d->label);
  return d;
}

// ruleset = "ruleset" quantifier {";" quantifier} "do" rules ("end" | "endruleset")
static MDecl *ruleset(Token *t) {
  MDecl *d = new_mdecl(MD_RULESET, t);
  do {
    Node *lo, *hi, *step;
    Binder *b = quantifier(&lo, &hi, &step);
    if (lo) {
      error_at(b->name, "a ruleset's parameter ranges over a type, not 'from := lo to hi'");
      hint("write %s: lo .. hi", b->name->str);
    }
    vec_push(&d->binders, b);
  } while (accept(";") || accept(","));
  expect_kw("do");
  rules(&d->inner, "endruleset");
  expect_end("endruleset", t);
  return d;
}

// alias_rule = "alias" aliases "do" rules ("end" | "endalias")
static MDecl *alias_rule(Token *t) {
  MDecl *d = new_mdecl(MD_ALIASRULE, t);
  aliases(&d->binders);
  expect_kw("do");
  rules(&d->inner, "endalias");
  expect_end("endalias", t);
  return d;
}

// choose = "choose" NAME ":" expr "do" rules ("end" | "endchoose")
// (CMurphi's: NAME ranges over the elements of the multiset; a ruleset
// whose binder has the multiset as in_expr)
static MDecl *choose(Token *t) {
  MDecl *d = new_mdecl(MD_RULESET, t);
  Binder *b = xcalloc(1, sizeof *b);
  b->name = ident();
  expect(":");
  b->in_expr = expr();
  vec_push(&d->binders, b);
  expect_kw("do");
  rules(&d->inner, "endchoose");
  expect_end("endchoose", t);
  return d;
}

// rule_item = rule | startstate | property | ruleset | alias_rule | choose
static MDecl *rule_item(void) {
  Token *t = consume();
  if (murphi_is_kw(t, "rule"))
    return rule(t);
  if (murphi_is_kw(t, "startstate"))
    return startstate(t);
  if (murphi_is_kw(t, "invariant"))
    return property(t, MD_INVARIANT);
  if (murphi_is_kw(t, "cover"))
    return property(t, MD_COVER);
  if (murphi_is_kw(t, "assume"))
    return property(t, MD_ASSUME);
  if (murphi_is_kw(t, "liveness"))
    return property(t, MD_LIVENESS);
  if (murphi_is_kw(t, "ruleset"))
    return ruleset(t);
  if (murphi_is_kw(t, "choose"))
    return choose(t);
  return alias_rule(t);
}

static bool at_rule_item(void) {
  static const char *const kws[] = {"rule", "startstate", "invariant", "cover", "assume",
                                    "liveness", "ruleset", "alias", "choose"};
  for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
    if (is_kw(kws[i]))
      return true;
  return false;
}

// rules = {rule_item [";"]}   inside a ruleset or alias rule
static void rules(Vec *out, const char *closer) {
  while (!is_kw("end") && !is_kw(closer) && tok->kind != TK_EOF) {
    if (accept(";"))
      continue;
    if (!at_rule_item())
      syntax_error("a rule, start state, property, ruleset or alias");
    vec_push(out, rule_item());
  }
}

static bool at_top_item(void) {
  return at_decl_section() || at_rule_item() || is_kw("procedure") || is_kw("function");
}

// Skips to the next top-level item that starts a line (error recovery).
static void skip_to_item(void) {
  consume();
  while (tok->kind != TK_EOF && !(at_top_item() && tok->col == 1))
    consume();
}

// model = {decl_section | function | rule_item | ";"}
MModel *murphi_parse(Token *t) {
  tok = t;
  MModel *m = xcalloc(1, sizeof *m);
  while (tok->kind != TK_EOF) {
    if (setjmp(recover)) {
      skip_to_item();
      continue;
    }
    if (accept(";"))
      continue;
    if (at_decl_section())
      decl_section(&m->decls);
    else if (is_kw("procedure") || is_kw("function"))
      vec_push(&m->decls, function(consume()));
    else if (at_rule_item())
      vec_push(&m->decls, rule_item());
    else
      syntax_error("a declaration, procedure, function, rule or property");
  }
  return m;
}
