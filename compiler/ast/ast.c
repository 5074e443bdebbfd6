// SPDX-License-Identifier: MIT
// ast.c: the syntax tree that every front end builds and every later stage
// reads: its builders, the table of its operators (op_info), the walk over
// its nodes, and the spelling of its tokens.
#include "mcgen.h"

//
// Tokens
//

bool equal(const Token *tok, const char *s) {
  if (tok->spelling)
    return !strcmp(tok->spelling, s);
  size_t n = strlen(s);
  return tok->kind != TK_STR && tok->kind != TK_EOF && (size_t)tok->len == n &&
         memcmp(tok->loc, s, n) == 0;
}

char *token_text(const Token *tok) {
  return xstrndup(tok->loc, (size_t)tok->len);
}

//
// Builders
//

// Nodes, types and binders come from large zeroed chunks rather than one
// calloc each (never freed, like all compiler memory).
void *ast_alloc(size_t size) {
  enum { CHUNK = 1 << 20 };
  static char *chunk;
  static size_t used = CHUNK;
  size = (size + 15) & ~(size_t)15;
  if (size > CHUNK / 4)
    return xcalloc(1, size);
  if (used + size > CHUNK) {
    chunk = xcalloc(1, CHUNK);
    used = 0;
  }
  void *p = chunk + used;
  used += size;
  return p;
}

// A bound on the nodes made (0: none) and what to do past it (it does not
// return): DVE's lowering copies subexpressions, and pathological nesting
// must not exhaust memory.
static long nodes_made, node_budget;
static void (*over_budget)(Token *at);

void ast_node_budget(long max, void (*over)(Token *at)) {
  nodes_made = 0;
  node_budget = max;
  over_budget = over;
}

Node *new_node(NodeKind kind, Token *t) {
  if (node_budget && ++nodes_made > node_budget) {
    over_budget(t);
    unreachable();
  }
  Node *node = ast_alloc(sizeof(Node));
  node->kind = kind;
  node->tok = t;
  return node;
}

Node *new_binary(Op op, Node *lhs, Node *rhs, Token *t) {
  Node *node = new_node(ND_BINARY, t);
  node->op = op;
  node->lhs = lhs;
  node->rhs = rhs;
  return node;
}

Node *new_num(Token *at, int64_t v) {
  Node *n = new_node(ND_NUM, at);
  n->val = v;
  return n;
}

Node *new_bool(Token *at, bool v) {
  Node *n = new_node(ND_BOOL, at);
  n->val = v;
  return n;
}

Node *new_ident(Token *at, Token *name) {
  Node *n = new_node(ND_IDENT, at);
  n->name = name;
  return n;
}

Node *new_unary(Op op, Node *l, Token *at) {
  Node *n = new_node(ND_UNARY, at);
  n->op = op;
  n->lhs = l;
  return n;
}

// A conditional: ND_COND (an expression) or ND_IF (a statement; els may
// be NULL).
Node *new_cond(NodeKind kind, Node *cond, Node *then, Node *els, Token *at) {
  Node *n = new_node(kind, at);
  n->cond = cond;
  n->then = then;
  n->els = els;
  return n;
}

Type *new_type(TypeKind kind, Token *t) {
  Type *ty = ast_alloc(sizeof(Type));
  ty->kind = kind;
  ty->tok = t;
  return ty;
}

// The range lo..hi, as written at `at`.
Type *new_range_type(Token *at, int64_t lo, int64_t hi) {
  Type *t = new_type(TY_RANGE, at);
  t->lo_expr = new_num(at, lo);
  t->hi_expr = new_num(at, hi);
  return t;
}

Decl *new_decl(Program *prog, DeclKind kind, Token *tok, Token *name) {
  Decl *d = xcalloc(1, sizeof(Decl));
  d->kind = kind;
  d->tok = tok;
  d->name = name;
  vec_push(&prog->decls, d);
  return d;
}

// A name that a front end makes up (a DVE or PNML element's C name), as the
// identifier token it would have been, placed at line:col of `file`.
Token *name_token(const SrcFile *file, int line, int col, const char *text) {
  Token *t = xcalloc(1, sizeof *t);
  t->kind = TK_IDENT;
  t->loc = t->str = xstrdup(text);
  t->len = (int)strlen(text);
  t->line = line;
  t->col = col;
  t->file = file;
  return t;
}

const OpInfo op_info[OP_BNOT + 1] = {
    [OP_IMPLIES] = {"->", 1, true, OPC_LOGIC, "||", PREC_OR, NULL, NULL, false, PREC_OR - 1},
    [OP_IFF] = {"<->", 2, false, OPC_LOGIC, NULL, 0, NULL, NULL, false, 0},
    [OP_OR] = {"||", 3, false, OPC_LOGIC, "||", PREC_OR, NULL, NULL, false, PREC_OR},
    [OP_AND] = {"&&", 4, false, OPC_LOGIC, "&&", PREC_AND, NULL, NULL, false, PREC_AND},
    [OP_EQ] = {"==", 5, false, OPC_EQUAL, "==", PREC_EQ, NULL, NULL, false, PREC_EQ},
    [OP_NE] = {"!=", 5, false, OPC_EQUAL, "!=", PREC_EQ, NULL, NULL, false, PREC_EQ},
    [OP_LT] = {"<", 6, false, OPC_ORDER, "<", PREC_REL, NULL, NULL, false, PREC_REL},
    [OP_LE] = {"<=", 6, false, OPC_ORDER, "<=", PREC_REL, NULL, NULL, false, PREC_REL},
    [OP_GT] = {">", 6, false, OPC_ORDER, ">", PREC_REL, NULL, NULL, false, PREC_REL},
    [OP_GE] = {">=", 6, false, OPC_ORDER, ">=", PREC_REL, NULL, NULL, false, PREC_REL},
    [OP_IN] = {"in", 6, false, OPC_MEMBER, NULL, 0, NULL, NULL, false, 0},
    [OP_ADD] = {"+", 7, false, OPC_ARITH, "+", PREC_ADD, NULL, "add", false, PREC_ADD},
    [OP_SUB] = {"-", 7, false, OPC_ARITH, "-", PREC_ADD, NULL, "sub", false, PREC_ADD},
    [OP_MUL] = {"*", 8, false, OPC_ARITH, "*", PREC_MUL, NULL, "mul", false, PREC_MUL},
    [OP_DIV] = {"/", 8, false, OPC_ARITH, "/", PREC_MUL, NULL, NULL, false, PREC_MUL},
    [OP_MOD] = {"%", 8, false, OPC_ARITH, "%", PREC_MUL, NULL, NULL, false, PREC_MUL},
    [OP_NOT] = {"!", 0, false, OPC_UNARY, "!", PREC_UNARY, NULL, NULL, false, 0},
    [OP_NEG] = {"-", 0, false, OPC_UNARY, "-", PREC_UNARY, NULL, NULL, false, 0},
    [OP_FORALL] = {"forall", 0, false, OPC_QUANT, NULL, 0, NULL, NULL, false, 0},
    [OP_EXISTS] = {"exists", 0, false, OPC_QUANT, NULL, 0, NULL, NULL, false, 0},
    [OP_COUNT] = {"count", 0, false, OPC_QUANT, NULL, 0, NULL, NULL, false, 0},
    [OP_SUM] = {"sum", 0, false, OPC_QUANT, NULL, 0, NULL, NULL, false, 0},
    // Bitwise operators: DVE only.
    [OP_BAND] = {"&", 0, false, OPC_ARITH, "&", PREC_BAND, NULL, NULL, true, PREC_BAND},
    [OP_BOR] = {"|", 0, false, OPC_ARITH, "|", PREC_BOR, NULL, NULL, true, PREC_BOR},
    [OP_BXOR] = {"^", 0, false, OPC_ARITH, "^", PREC_BXOR, NULL, NULL, true, PREC_BXOR},
    [OP_SHL] = {"<<", 0, false, OPC_ARITH, NULL, 0, "mcrt_shl", NULL, true, PREC_SHIFT},
    [OP_SHR] = {">>", 0, false, OPC_ARITH, NULL, 0, "mcrt_shr", NULL, true, PREC_SHIFT},
    [OP_BNOT] = {"~", 0, false, OPC_UNARY, "~", PREC_UNARY, NULL, NULL, true, 0},
};

//
// The walk
//

void walk(Node *node, Visitor *visit, void *ctx) {
  if (!node || !visit(node, ctx))
    return;
  walk(node->lhs, visit, ctx);
  walk(node->rhs, visit, ctx);
  walk(node->cond, visit, ctx);
  walk(node->then, visit, ctx);
  walk(node->els, visit, ctx);
  walk(node->body, visit, ctx);
  for (int i = 0; i < node->args.len; i++)
    walk(node->args.data[i], visit, ctx);
  for (int i = 0; i < node->binders.len; i++)
    walk(((Binder *)node->binders.data[i])->in_expr, visit, ctx);
}
