// SPDX-License-Identifier: MIT
// parse.c: tokens to an AST, by recursive descent, one function per grammar
// rule with the rule written above it.
//
// Errors and recovery. A syntax error sets `panic`; while it is set further
// errors are not reported (they are almost always consequences of the
// first). Parsing itself carries on without backtracking: a failed expect()
// consumes nothing and a missing expression becomes a placeholder node, so
// every function returns a well-formed (if wrong) tree. Panic ends at a
// synchronization point: after a statement inside a block (skip to the next
// `;`, consumed, or to the `}` that closes the block) or after a top-level
// declaration (skip to the next token that starts a declaration outside any
// brackets). Both skips advance at least one token when the failed construct
// consumed nothing, so parsing always terminates.
//
// Nesting depth (expressions, unary operators, types, blocks) is bounded by
// MAX_DEPTH so that a pathological file cannot overflow the stack, here or in
// the later stages that walk the tree recursively. Long chains of binary
// operators, `->`, `?:` and `else if` are parsed with loops.
//
// The parser does no name resolution and no type checking (check.c).
#include "mcgen.h"

#define MAX_DEPTH 512

static Token *tok;       // the current token
static Token *prev;      // the last token consumed (NULL at the start)
static bool panic;       // an error was reported; suppress others until we sync
static bool eof_seen;    // an error at the end of the file was reported
static int depth;        // current nesting depth, bounded by MAX_DEPTH
static Program *prog;

static Node *expr(void);
static Node *unary(void);
static Node *postfix(void);
static Type *type(void);
static Node *block(void);

//
// Tokens
//

static void next(void) {
  prev = tok;
  if (tok->kind != TK_EOF)
    tok = tok->next;
}

static bool consume(const char *s) {
  if (!equal(tok, s))
    return false;
  next();
  return true;
}

static bool is_kw(const Token *t, const char *s) {
  return t->kind == TK_KEYWORD && equal(t, s);
}

// A contextual word: an identifier spelled `s`.
static bool is_word(const Token *t, const char *s) {
  return t->kind == TK_IDENT && equal(t, s);
}

// The keywords that start a top-level declaration. `var` also starts a
// statement, so inside a block it does not end the block.
static bool is_decl_start(const Token *t, bool in_block) {
  static const char *const kws[] = {
      "model", "const", "type", "fn", "init", "action", "invariant", "reachable",
      "terminal", "constraint", "property", "fair",
  };
  if (!in_block && is_word(t, "extern"))
    return true;
  if (t->kind == TK_IDENT)
    return (equal(t, "scenario") || equal(t, "accepting") || equal(t, "watch")) &&
           t->next->kind == TK_IDENT;
  if (t->kind != TK_KEYWORD)
    return false;
  for (size_t i = 0; i < sizeof(kws) / sizeof(*kws); i++)
    if (equal(t, kws[i]))
      return true;
  return !in_block && equal(t, "var");
}

static bool is_stmt_keyword(const Token *t) {
  return is_kw(t, "if") || is_kw(t, "for") || is_kw(t, "let") || is_kw(t, "var") ||
         is_kw(t, "assert") || is_kw(t, "return");
}

//
// Errors
//

static void syntax_error(Token *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void syntax_error(Token *t, const char *fmt, ...) {
  if (panic || (t->kind == TK_EOF && eof_seen)) {
    panic = true;
    return;
  }
  panic = true;
  va_list ap;
  va_start(ap, fmt);
  char *msg = vformat(fmt, ap);
  va_end(ap);
  // At the end of the file, one error says it all: not one per unclosed
  // block (the note points at the innermost opener).
  if (t->kind == TK_EOF) {
    eof_seen = true;
    error_at(t, "unexpected end of file: %s", msg);
  }
  else
    error_at(t, "%s", msg);
}

// "expected ';' after ...", pointing just past the previous token, where
// the missing text belongs (usually the end of a line).
static void missing_after(const char *s, const char *what) {
  if (panic)
    return;
  if (!prev) {
    syntax_error(tok, "expected '%s' after %s", s, what);
    return;
  }
  panic = true;
  Token at = *prev;
  at.loc = prev->loc + prev->len;
  at.col = prev->col + prev->len;
  at.len = 1;
  error_at(&at, "expected '%s' after %s", s, what);
}

static void expect_after(const char *s, const char *what) {
  if (!consume(s))
    missing_after(s, what);
}

static void expect(const char *s, const char *context) {
  if (consume(s))
    return;
  syntax_error(tok, "expected '%s' %s", s, context);
}

// A closer for `open`: on failure say where the opener was.
static void expect_closer(const char *s, Token *open) {
  if (consume(s))
    return;
  if (panic || (tok->kind == TK_EOF && eof_seen)) {
    panic = true;
    return;
  }
  syntax_error(tok, "expected '%s'", s);
  note_at(open, "to match this '%.*s'", open->len, open->loc);
}

// A token to stand for a name that is missing, so that Decl.name and
// Binder.name are never NULL.
static Token *placeholder_name(void) {
  Token *t = xcalloc(1, sizeof(Token));
  *t = *tok;
  t->kind = TK_IDENT;
  t->len = 0;
  t->next = NULL;
  t->str = "";
  return t;
}

// IDENT, described as `what` in the error ("expected a name for ...").
static Token *ident(const char *what) {
  if (tok->kind == TK_IDENT) {
    Token *t = tok;
    next();
    return t;
  }
  // A keyword where a name belongs (`var set: bool;`): say so, and take it
  // as the name when what follows shows that it was meant as one.
  const Token *n = tok->next;
  if (tok->kind == TK_KEYWORD && !panic &&
      (equal(n, ":") || equal(n, "=") || equal(n, "(") || equal(n, ";") ||
       equal(n, ",") || equal(n, "{"))) {
    syntax_error(tok, "'%s' is a reserved word and cannot be %s", tok->str, what);
    Token *t = tok;
    next();
    return t;
  }
  syntax_error(tok, "expected %s", what);
  return placeholder_name();
}

// Depth guard: every recursive rule calls enter() and, whatever enter()
// returned, leave().
static bool enter(void) {
  if (++depth <= MAX_DEPTH)
    return true;
  syntax_error(tok, "nested too deeply (more than %d levels)", MAX_DEPTH);
  return false;
}

static void leave(void) {
  depth--;
}

//
// Recovery
//

// After a statement that reported an error: skip to the end of the
// statement (`;` consumed), to the `}` that closes the enclosing block, or
// to what looks like the start of the next statement.
static void recover_stmt(Token *start) {
  panic = false;
  // The statement ended where statements end: nothing to skip.
  if (tok != start && prev &&
      (equal(prev, ";") || (equal(prev, "}") && (is_kw(start, "if") || is_kw(start, "for")))))
    return;
  if (tok == start)
    next();
  int nest = 0;
  while (tok->kind != TK_EOF) {
    if (nest == 0 && (is_decl_start(tok, true) || is_stmt_keyword(tok)))
      return;
    // A token that starts a line no further right than the failed statement
    // is taken for the next statement (typically after a missing `;`).
    if (nest == 0 && prev && tok->line > prev->line && tok->col <= start->col)
      return;
    if (equal(tok, "(") || equal(tok, "[") || equal(tok, "{")) {
      nest++;
    } else if (equal(tok, ")") || equal(tok, "]") || equal(tok, "}")) {
      if (nest == 0 && equal(tok, "}"))
        return;
      if (nest > 0)
        nest--;
    } else if (nest == 0 && equal(tok, ";")) {
      next();
      return;
    }
    next();
  }
}

// After a declaration that reported an error: skip to the next token that
// starts a declaration outside any brackets.
static void recover_decl(Token *start) {
  panic = false;
  if (tok != start && prev && (equal(prev, ";") || equal(prev, "}")) &&
      (tok->kind == TK_EOF || is_decl_start(tok, false)))
    return;
  if (tok == start)
    next();
  int nest = 0;
  while (tok->kind != TK_EOF) {
    if (nest <= 0 && is_decl_start(tok, false))
      return;
    if (equal(tok, "(") || equal(tok, "[") || equal(tok, "{"))
      nest++;
    else if (equal(tok, ")") || equal(tok, "]") || equal(tok, "}"))
      nest--;
    next();
  }
}

//
// Constructors
//

// The binary operator of the spec grammar that `t` spells, or -1.
static int binary_op_at(const Token *t) {
  for (int op = 0; op <= OP_BNOT; op++) {
    const OpInfo *o = &op_info[op];
    if (o->prec && (o->cls == OPC_MEMBER ? is_kw(t, o->spelling) : equal(t, o->spelling)))
      return op;
  }
  return -1;
}

// Can `t` start an operand (a unary expression)?
static bool starts_operand(const Token *t) {
  return t->kind == TK_IDENT || t->kind == TK_NUM || equal(t, "(") || equal(t, "!") ||
         equal(t, "-") || is_kw(t, "true") || is_kw(t, "false") || is_kw(t, "none") ||
         is_kw(t, "forall") || is_kw(t, "exists");
}

// Stands for a missing expression (only ever seen after an error).
static Node *error_node(Token *t) {
  return new_node(ND_NUM, t);
}

//
// Types
//

// Can `t` start an additive expression (a range bound)?
static bool starts_range(const Token *t) {
  return t->kind == TK_NUM || t->kind == TK_IDENT || equal(t, "-") || equal(t, "(");
}

static bool starts_type(const Token *t) {
  return starts_range(t) || equal(t, "[") || is_kw(t, "bool") || is_kw(t, "enum") ||
         is_kw(t, "scalarset") || is_kw(t, "record") || is_kw(t, "set") ||
         is_kw(t, "multiset") || is_kw(t, "queue");
}

// The `>` that closes `set<`, `multiset<` or `queue<`. A `>=` right after a
// type (`var s: set<T>= ...`) is split into `>` and `=`.
static void expect_close_angle(Token *open) {
  if (equal(tok, ">=")) {
    Token *eq = xcalloc(1, sizeof(Token));
    *eq = *tok;
    eq->loc++;
    eq->col++;
    eq->len = 1;
    tok->len = 1;
    tok->next = eq;
  }
  expect_closer(">", open);
}

static Node *add(void);

// Can `t` continue an additive expression (or start the `..` of a range)?
static bool continues_add(const Token *t) {
  static const char *const ops[] = {"..", "+", "-", "*", "/", "%", "(", "[", "."};
  for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++)
    if (equal(t, ops[i]))
      return true;
  return false;
}

// range = add ".." add          (or a named type: a lone IDENT)
static Type *range_or_named(void) {
  Token *start = tok;
  // The common case, a lone name, without building an expression for it.
  if (tok->kind == TK_IDENT && !continues_add(tok->next)) {
    next();
    Type *ty = new_type(TY_NAMED, start);
    ty->ref = start;
    return ty;
  }
  Node *lo = add();
  if (equal(tok, "..")) {
    Type *ty = new_type(TY_RANGE, tok);
    next();
    ty->lo_expr = lo;
    ty->hi_expr = add();
    return ty;
  }
  if (lo->kind == ND_IDENT) {
    Type *ty = new_type(TY_NAMED, start);
    ty->ref = start;
    return ty;
  }
  syntax_error(tok, "expected '..' (a range type is written 'LO..HI')");
  return new_type(TY_ERROR, start);
}

// enum_type = "enum" "{" IDENT ("," IDENT)* ","? "}"
static Type *enum_type(void) {
  Type *ty = new_type(TY_ENUM, tok);
  next();
  Token *open = tok;
  expect("{", "after 'enum'");
  do {
    if (equal(tok, "}") && ty->members.len > 0)
      break; // trailing comma
    vec_push(&ty->members, ident("an enum member name"));
    if (panic)
      break;
  } while (consume(","));
  expect_closer("}", open);
  return ty;
}

// record_type = "record" "{" field ((","|";") field)* (","|";")? "}"
// field       = IDENT ":" type
static Type *record_type(void) {
  Type *ty = new_type(TY_RECORD, tok);
  next();
  Token *open = tok;
  expect("{", "after 'record'");
  Vec fields = {0};
  do {
    if (equal(tok, "}") && fields.len > 0)
      break; // trailing separator
    Field *f = ast_alloc(sizeof(Field));
    f->name = ident("a field name");
    expect(":", "after the field name");
    f->type = type();
    vec_push(&fields, f);
    if (panic)
      break;
  } while (consume(",") || consume(";"));
  expect_closer("}", open);
  ty->fields = (Field **)fields.data;
  ty->nfields = fields.len;
  return ty;
}

// base_type = "bool" | enum_type | "scalarset" "(" expr ")" | "[" type "]" type
//           | record_type | "set" "<" type ">"
//           | "multiset" "<" type "," add ">" | "queue" "<" type "," add ">"
//           | range | IDENT
static Type *base_type(void) {
  Token *start = tok;

  if (is_kw(tok, "bool")) {
    next();
    return new_type(TY_BOOL, start);
  }
  if (is_kw(tok, "enum"))
    return enum_type();
  if (is_kw(tok, "record"))
    return record_type();
  if (is_kw(tok, "scalarset")) {
    Type *ty = new_type(TY_SCALARSET, start);
    next();
    Token *open = tok;
    expect("(", "after 'scalarset' (it is written 'scalarset(N)')");
    ty->size_expr = expr();
    expect_closer(")", open);
    return ty;
  }
  if (equal(tok, "[")) {
    Type *ty = new_type(TY_ARRAY, start);
    next();
    ty->index = type();
    expect_closer("]", start);
    ty->base = type();
    return ty;
  }
  if (is_kw(tok, "set")) {
    Type *ty = new_type(TY_SET, start);
    next();
    Token *open = tok;
    expect("<", "after 'set' (it is written 'set<T>')");
    ty->base = type();
    expect_close_angle(open);
    return ty;
  }
  if (is_kw(tok, "multiset") || is_kw(tok, "queue")) {
    bool is_queue = is_kw(tok, "queue");
    Type *ty = new_type(is_queue ? TY_QUEUE : TY_MULTISET, start);
    next();
    Token *open = tok;
    if (!consume("<"))
      syntax_error(tok, "expected '<' after '%s' (it is written '%s<T, CAPACITY>')",
                   start->str, start->str);
    ty->base = type();
    if (!consume(","))
      syntax_error(tok, "expected ',' and the capacity of the %s", start->str);
    // The capacity is an additive expression so that `>` closes the type.
    ty->cap_expr = add();
    expect_close_angle(open);
    return ty;
  }
  if (starts_range(tok))
    return range_or_named();

  syntax_error(tok, "expected a type");
  return new_type(TY_ERROR, start);
}

// type = base_type "?"*
static Type *type(void) {
  if (!enter()) {
    leave();
    return new_type(TY_ERROR, tok);
  }
  Type *ty = base_type();
  while (equal(tok, "?")) {
    Type *opt = new_type(TY_OPTIONAL, tok);
    opt->base = ty;
    ty = opt;
    next();
  }
  leave();
  return ty;
}

//
// Expressions
//

// binder = IDENT ":" type | IDENT "in" expr
static Binder *binder(void) {
  Binder *b = ast_alloc(sizeof(Binder));
  b->name = ident("a name");
  if (consume(":")) {
    b->type = type();
  } else if (consume("in")) {
    b->in_expr = expr();
  } else {
    syntax_error(tok, "expected ':' or 'in' after '%s'", b->name->str);
    // `p Proc`: take the type anyway, so that the rest parses.
    b->type = starts_type(tok) ? type() : new_type(TY_ERROR, tok);
  }
  return b;
}

// binders = binder ("," binder)*
static void binders(Vec *out) {
  do
    vec_push(out, binder());
  while (consume(","));
}

// Is `t` the start of a quantifier? `count` and `sum` are contextual: only
// when followed by a name and then `:` or `in`.
static bool is_quant_start(const Token *t) {
  if (is_kw(t, "forall") || is_kw(t, "exists"))
    return true;
  if (!is_word(t, "count") && !is_word(t, "sum"))
    return false;
  const Token *n = t->next;
  return n->kind == TK_IDENT && (equal(n->next, ":") || is_kw(n->next, "in"));
}

// quantifier = ("forall"|"exists"|"count"|"sum") binder ("," binder)* "::" expr
static Node *quantifier(void) {
  Node *node = new_node(ND_QUANT, tok);
  node->op = equal(tok, "forall") ? OP_FORALL
           : equal(tok, "exists") ? OP_EXISTS
           : equal(tok, "count")  ? OP_COUNT
                                  : OP_SUM;
  next();
  binders(&node->binders);
  if (!consume("::"))
    syntax_error(tok, "expected '::' before the body of '%s'", node->tok->str);
  node->body = expr();
  return node;
}

// args = expr ("," expr)*      (the caller has consumed "(")
static void args(Vec *out, Token *open) {
  if (!equal(tok, ")")) {
    do
      vec_push(out, expr());
    while (consume(","));
  }
  expect_closer(")", open);
}

// Does `IDENT {` start a record literal? Only when `{` is followed by
// `IDENT :`, so that `if x == y {` and `when g {` are not taken for one.
static bool is_record_lit(const Token *t) {
  const Token *brace = t->next;
  return equal(brace, "{") && brace->next->kind == TK_IDENT && equal(brace->next->next, ":");
}

// record_lit = IDENT "{" IDENT ":" expr ("," IDENT ":" expr)* ","? "}"
static Node *record_lit(void) {
  Node *node = new_node(ND_RECORD_LIT, tok);
  node->name = tok;
  next();
  Token *open = tok;
  next(); // "{"
  do {
    if (equal(tok, "}") && node->fnames.len > 0)
      break; // trailing comma
    vec_push(&node->fnames, ident("a field name"));
    expect(":", "after the field name");
    vec_push(&node->args, expr());
    if (panic)
      break;
  } while (consume(","));
  expect_closer("}", open);
  return node;
}

// primary = NUM | "true" | "false" | "none" | "(" expr ")"
//         | IDENT "(" args? ")" | record_lit | IDENT
static Node *primary(void) {
  Token *start = tok;

  if (tok->kind == TK_NUM) {
    Node *node = new_node(ND_NUM, tok);
    node->val = tok->val;
    next();
    return node;
  }
  if (is_kw(tok, "true") || is_kw(tok, "false")) {
    Node *node = new_node(ND_BOOL, tok);
    node->val = is_kw(tok, "true");
    next();
    return node;
  }
  if (is_kw(tok, "none")) {
    next();
    return new_node(ND_NONE, start);
  }
  if (equal(tok, "(")) {
    next();
    Node *node = expr();
    expect_closer(")", start);
    return node;
  }
  if (tok->kind == TK_IDENT) {
    if (equal(tok->next, "(")) {
      Node *node = new_node(ND_CALL, tok);
      node->name = tok;
      next();
      Token *open = tok;
      next();
      args(&node->args, open);
      return node;
    }
    if (is_record_lit(tok))
      return record_lit();
    Node *node = new_node(ND_IDENT, tok);
    node->name = tok;
    next();
    return node;
  }
  if (tok->kind == TK_STR) {
    syntax_error(tok, "a string can only be the message of an assert");
    next();
    return error_node(start);
  }
  syntax_error(tok, "expected an expression");
  return error_node(start);
}

// postfix = primary ("[" expr "]" | "." NAME "(" args? ")" | "." NAME)*
// (NAME: any identifier or keyword, e.g. `m.count(e)`, `r.set`)
static Node *postfix(void) {
  Node *node = primary();
  for (;;) {
    if (equal(tok, "[")) {
      Token *open = tok;
      next();
      Node *idx = new_node(ND_INDEX, open);
      idx->lhs = node;
      idx->rhs = expr();
      expect_closer("]", open);
      node = idx;
      continue;
    }
    if (equal(tok, ".")) {
      next();
      if (tok->kind != TK_IDENT && tok->kind != TK_KEYWORD) {
        syntax_error(tok, "expected a field or method name after '.'");
        return node;
      }
      Token *name = tok;
      next();
      if (equal(tok, "(")) {
        Node *m = new_node(ND_METHOD, name);
        m->name = name;
        m->lhs = node;
        Token *open = tok;
        next();
        args(&m->args, open);
        node = m;
      } else {
        Node *f = new_node(ND_FIELD, name);
        f->name = name;
        f->lhs = node;
        node = f;
      }
      continue;
    }
    return node;
  }
}

// unary = ("!"|"-") unary | quantifier | postfix
// (`not x`, another language's '!', is reported and read as `!x`; `not(x)`
// may call a fn named not, which check.c looks for)
static Node *unary(void) {
  bool not_word = is_word(tok, "not") && starts_operand(tok->next) && !equal(tok->next, "(");
  if (equal(tok, "!") || equal(tok, "-") || not_word) {
    Token *op = tok;
    if (!enter()) {
      leave();
      return error_node(tok);
    }
    if (not_word && !panic) {
      error_at(tok, "'not' is not an operator of mcgen");
      hint("write '!'");
    }
    next();
    Node *node = new_node(ND_UNARY, op);
    node->op = equal(op, "-") ? OP_NEG : OP_NOT;
    node->lhs = unary();
    leave();
    return node;
  }
  if (is_quant_start(tok))
    return quantifier();
  return postfix();
}

// A binary operator of another language where mcgen's belongs (`x and y`,
// `x <> y`): its Op, or -1.
static const struct {
  const char *word, *mc;
  Op op;
} foreign_ops[] = {{"and", "&&", OP_AND}, {"or", "||", OP_OR}, {"<>", "!=", OP_NE}};

static int foreign_op_at(const Token *t) {
  if (equal(t, "<") && equal(t->next, ">") && t->next->loc == t->loc + t->len)
    return OP_NE;
  for (size_t i = 0; i < 2; i++)
    if (is_word(t, foreign_ops[i].word) && starts_operand(t->next))
      return (int)foreign_ops[i].op;
  return -1;
}

// Reports the foreign operator at tok with mcgen's spelling and consumes
// it: it is then read as that operator, so that the rest parses without
// follow-on errors.
static void take_foreign_op(int op) {
  for (size_t i = 0; i < sizeof foreign_ops / sizeof *foreign_ops; i++) {
    if ((int)foreign_ops[i].op != op)
      continue;
    if (!panic && op == OP_NE) {
      error_at(tok, "'<>' is not an operator of an expression");
      hint("write '!=' for not equal ('<>' is 'eventually', at the start of a property)");
    } else if (!panic) {
      error_at(tok, "'%s' is not an operator of mcgen", foreign_ops[i].word);
      hint("write '%s'", foreign_ops[i].mc);
    }
  }
  next();
  if (op == OP_NE)
    next(); // the '>'
}

// binary = unary (BINOP unary)*, by precedence climbing over op_info, from
// the loosest to the tightest level:
//   "->" | "<->" | "||" | "&&" | "==" "!=" | "<" "<=" ">" ">=" "in" | "+" "-" | "*" "/" "%"
// `->` groups to the right, the others to the left: `a <-> b -> c` is
// `(a <-> b) -> c` and `a -> b <-> c` is `a -> (b <-> c)`. A chain of one
// level is built with a loop (a chain of `->` collected and folded from the
// right), not with a recursion per operator.
static Node *binary(int min_prec) {
  Node *node = unary();
  for (;;) {
    int op = foreign_op_at(tok); // before binary_op_at, which reads `<>`'s '<'
    bool foreign = op >= 0;
    if (!foreign)
      op = binary_op_at(tok);
    if (op < 0 || op_info[op].prec < min_prec)
      return node;
    int prec = op_info[op].prec;
    Token *op_tok = tok;
    if (foreign)
      take_foreign_op(op);
    else
      next();
    if (!op_info[op].right_assoc) {
      node = new_binary(op, node, binary(prec + 1), op_tok);
      continue;
    }
    Vec operands = {0}, ops = {0};
    vec_push(&operands, node);
    vec_push(&ops, op_tok);
    for (;;) {
      vec_push(&operands, binary(prec + 1));
      if (binary_op_at(tok) != op)
        break;
      vec_push(&ops, tok);
      next();
    }
    node = operands.data[operands.len - 1];
    for (int i = ops.len - 1; i >= 0; i--)
      node = new_binary(op, operands.data[i], node, ops.data[i]);
    free(operands.data);
    free(ops.data);
  }
}

// add = the operands of "+" and "-" and tighter (a range's bounds, a
// capacity: `..` and `>` end them)
static Node *add(void) { return binary(op_info[OP_ADD].prec); }

// cond = binary ("?" expr ":" cond)?
// (a chain `a ? b : c ? d : e` is collected with a loop and folded from the
// right)
static Node *cond(void) {
  Node *first = binary(1);
  if (!equal(tok, "?"))
    return first;
  Vec conds = {0};
  Node *last = first;
  while (equal(tok, "?")) {
    Node *c = new_node(ND_COND, tok);
    next();
    c->cond = last;
    c->then = expr();
    if (!consume(":"))
      syntax_error(tok, "expected ':' in the conditional expression");
    vec_push(&conds, c);
    last = binary(1);
  }
  Node *node = last;
  for (int i = conds.len - 1; i >= 0; i--) {
    Node *c = conds.data[i];
    c->els = node;
    node = c;
  }
  free(conds.data);
  return node;
}

// expr = quantifier | cond
static Node *expr(void) {
  if (!enter()) {
    leave();
    return error_node(tok);
  }
  Node *node = is_quant_start(tok) ? quantifier() : cond();
  leave();
  return node;
}

//
// Statements
//

// for = "for" IDENT ":" type block | "for" IDENT "in" expr block
static Node *for_stmt(void) {
  Node *node = new_node(ND_FOR, tok);
  next();
  vec_push(&node->binders, binder());
  node->body = block();
  return node;
}

// if = "if" expr block ("else" (if | block))?
// (an `else if` chain is built with a loop: els = the nested ND_IF)
static Node *if_stmt(void) {
  Node *first = NULL, *last = NULL;
  for (;;) {
    Node *node = new_node(ND_IF, tok);
    next(); // "if"
    node->cond = expr();
    node->then = block();
    if (last)
      last->els = node;
    else
      first = node;
    last = node;
    // `elif` and its kin, of other languages, reported and read as `else if`.
    if (is_word(tok, "elif") || is_word(tok, "elsif") || is_word(tok, "elseif")) {
      if (!panic) {
        error_at(tok, "'%s' is not a keyword of mcgen", tok->str);
        hint("write 'else if'");
      }
      continue;
    }
    if (!is_kw(tok, "else"))
      return first;
    next();
    if (is_kw(tok, "if"))
      continue;
    node->els = block();
    return first;
  }
}

// stmt = if | for
//      | "let" IDENT "=" expr ";" | "var" IDENT ":" type "=" expr ";"
//      | "assert" expr ("," STRING)? ";" | "return" expr ";"
//      | postfix "=" expr ";"           (`:=`, another language's '=', reported)
//      | postfix ";"                    (a method call: push, add, remove, ...)
static Node *stmt(void) {
  Token *start = tok;

  if (is_kw(tok, "if"))
    return if_stmt();
  if (is_kw(tok, "for"))
    return for_stmt();

  if (is_kw(tok, "let")) {
    Node *node = new_node(ND_LET, start);
    next();
    node->name = ident("a name after 'let'");
    expect("=", "after the name (it is written 'let NAME = EXPR;')");
    node->rhs = expr();
    expect_after(";", "the value");
    return node;
  }

  if (is_kw(tok, "var")) {
    Node *node = new_node(ND_VARDECL, start);
    next();
    node->name = ident("a name after 'var'");
    expect(":", "after the name (it is written 'var NAME: TYPE = EXPR;')");
    node->decl_type = type();
    expect("=", "and an initial value (it is written 'var NAME: TYPE = EXPR;')");
    node->rhs = expr();
    expect_after(";", "the initial value");
    return node;
  }

  if (is_kw(tok, "assert")) {
    Node *node = new_node(ND_ASSERT, start);
    next();
    node->lhs = expr();
    if (consume(",")) {
      if (tok->kind == TK_STR) {
        node->rhs = new_node(ND_STR, tok);
        next();
      } else {
        syntax_error(tok, "expected a string: the message of the assert");
      }
    }
    expect_after(";", "the assertion");
    return node;
  }

  if (is_kw(tok, "return")) {
    Node *node = new_node(ND_RETURN, start);
    next();
    node->lhs = expr();
    expect_after(";", "the return value");
    return node;
  }

  if (tok->kind == TK_IDENT || tok->kind == TK_NUM || equal(tok, "(") ||
      is_kw(tok, "true") || is_kw(tok, "false") || is_kw(tok, "none")) {
    Node *lhs = postfix();
    if (equal(tok, ":") && equal(tok->next, "=") && tok->next->loc == tok->loc + 1) {
      if (!panic) {
        error_at(tok, "':=' is not the assignment of mcgen");
        hint("write '='");
      }
      next();
    }
    if (equal(tok, "=")) {
      Node *node = new_node(ND_ASSIGN, tok);
      next();
      node->lhs = lhs;
      node->rhs = expr();
      expect_after(";", "the assignment");
      return node;
    }
    if (lhs->kind == ND_METHOD) {
      Node *node = new_node(ND_EXPR_STMT, lhs->tok);
      node->lhs = lhs;
      expect_after(";", "the method call");
      return node;
    }
    if (equal(tok, "==")) {
      syntax_error(tok, "expected '=' in an assignment, not '=='");
      return NULL;
    }
    if (equal(tok, ";")) {
      syntax_error(lhs->tok, "this is not a statement: expected an assignment or a "
                             "method call such as 'q.push(e)'");
      return NULL;
    }
    missing_after("=", "the assignment target");
    return NULL;
  }

  if (is_kw(tok, "else"))
    syntax_error(tok, "'else' without a matching 'if'");
  else
    syntax_error(tok, "expected a statement");
  return NULL;
}

// block = "{" stmt* "}"
//
// The block also ends (with an error) at a keyword that can only start a
// declaration, so that a missing `}` costs one error, not one per line.
static Node *block(void) {
  Node *node = new_node(ND_BLOCK, tok);
  if (!equal(tok, "{")) {
    if (!panic && equal(tok, "=")) {
      syntax_error(tok, "expected '{'");
      hint("to compare, use '=='");
      return node;
    }
    syntax_error(tok, "expected '{'");
    return node;
  }
  if (!enter()) {
    leave();
    return node;
  }
  Token *open = tok;
  next();
  while (!equal(tok, "}") && tok->kind != TK_EOF && !is_decl_start(tok, true)) {
    Token *start = tok;
    Node *s = stmt();
    if (s)
      vec_push(&node->args, s);
    if (panic)
      recover_stmt(start);
  }
  expect_closer("}", open);
  leave();
  return node;
}

//
// Declarations
//

// params = "(" (binder ("," binder)*)? ")"
static void params(Vec *out) {
  Token *open = tok;
  next();
  if (!equal(tok, ")"))
    binders(out);
  expect_closer(")", open);
}

// temporal = ("forall" binder ("," binder)* "::")?
//            ("[]" expr | "<>" expr | "[]" "<>" expr | "<>" "[]" expr | expr "~>" expr)
// `[]` and `<>` are two tokens each (see lex.c).
static bool is_box(const Token *t) {
  return equal(t, "[") && equal(t->next, "]");
}

static bool is_diamond(const Token *t) {
  return equal(t, "<") && equal(t->next, ">");
}

static void temporal(Decl *d) {
  if (is_kw(tok, "forall")) {
    next();
    binders(&d->params);
    if (!consume("::"))
      syntax_error(tok, "expected '::' after the property's 'forall' binders");
  }
  if (is_box(tok)) {
    next();
    next();
    d->temporal = TEMP_ALWAYS;
    if (is_diamond(tok)) {
      next();
      next();
      d->temporal = TEMP_ALWAYS_EVENTUALLY;
    }
    d->expr = expr();
    return;
  }
  if (is_diamond(tok)) {
    next();
    next();
    d->temporal = TEMP_EVENTUALLY;
    if (is_box(tok)) {
      next();
      next();
      d->temporal = TEMP_EVENTUALLY_ALWAYS;
    }
    d->expr = expr();
    return;
  }
  d->expr = expr();
  d->temporal = TEMP_LEADSTO;
  if (consume("~>")) {
    d->expr2 = expr();
    return;
  }
  if (!panic) {
    syntax_error(tok, "expected '~>' or a temporal operator");
    hint("a property is '[] P', '<> P', '[]<> P', '<>[] P' or 'P ~> Q'");
  }
}

// fair     = "fair" ("weak"|"strong") fairitem ("," fairitem)* ";"
// fairitem = IDENT | "(" IDENT ("|" IDENT)* ")"
static void fair(void) {
  Token *kw = tok;
  next();
  bool strong = false;
  if (is_word(tok, "strong")) {
    strong = true;
    next();
  } else if (is_word(tok, "weak")) {
    next();
  } else {
    syntax_error(tok, "expected 'weak' or 'strong' after 'fair'");
  }
  do {
    Decl *d = new_decl(prog, DK_FAIR, kw, NULL);
    d->strong = strong;
    if (equal(tok, "(")) {
      Token *open = tok;
      next();
      do
        vec_push(&d->fair_actions, ident("an action name"));
      while (!panic && consume("|"));
      expect_closer(")", open);
    } else {
      vec_push(&d->fair_actions, ident("an action name"));
    }
  } while (!panic && consume(","));
  expect_after(";", "the fairness assumption");
}

//
// Scenarios: behaviours in Cord's syntax (scenario.c gives the meaning).
// Loosest first: the parallel operators, `|`, `&`, the sequences `;` and
// `->` (right-associative), then the postfix repetitions and prefix `!`.
// `|||`, `|?|` and `...` are written as adjacent tokens of the expression
// lexer (`||` `|`, `|` `?` `|`, `..` `.`).
//

static Behaviour *behaviour(void);

static Behaviour *new_beh(BehKind kind, Token *t) {
  Behaviour *b = ast_alloc(sizeof(Behaviour));
  b->kind = kind;
  b->tok = t;
  return b;
}

static Behaviour *new_beh2(BehKind kind, Token *t, Behaviour *lhs, Behaviour *rhs) {
  Behaviour *b = new_beh(kind, t);
  b->lhs = lhs;
  b->rhs = rhs;
  return b;
}

// Whether token a is immediately followed by token b spelled `s`.
static bool glued(const Token *a, const char *s) {
  const Token *b = a->next;
  return equal(b, s) && b->loc == a->loc + a->len;
}

// The parallel operator at t (1: `||`, 2: `|||`, 3: `|?|`), or 0.
static int parallel_op_at(const Token *t) {
  if (equal(t, "||"))
    return glued(t, "|") ? 2 : 1;
  if (equal(t, "|") && glued(t, "?") && glued(t->next, "|"))
    return 3;
  return 0;
}

static bool is_any_seq(const Token *t) { return equal(t, "..") && glued(t, "."); }

// Does t start a behaviour? An identifier followed by a name, a keyword or
// a string does not: it is the next declaration (`scenario B = ...`,
// `accepting x: ...`, `extern fn ...`).
static bool starts_behaviour(const Token *t) {
  if (t->kind == TK_IDENT)
    return t->next->kind == TK_PUNCT || t->next->kind == TK_EOF;
  return equal(t, "(") || equal(t, "!") || is_any_seq(t);
}

// beh_arg = "_" | (IDENT "=")? expr
static BehArg *beh_arg(void) {
  BehArg *a = ast_alloc(sizeof(BehArg));
  a->tok = tok;
  if (tok->kind == TK_IDENT && equal(tok->next, "=")) {
    a->param = tok;
    next();
    next();
  }
  if (equal(tok, "_")) {
    next();
    return a;
  }
  a->value = expr();
  return a;
}

// beh_atom = "_" | "..." | "(" behaviour ")"
//          | IDENT ("(" (beh_arg ("," beh_arg)*)? ")")?
static Behaviour *beh_atom(void) {
  Token *start = tok;
  if (equal(tok, "_")) {
    next();
    return new_beh(BH_ANY, start);
  }
  if (is_any_seq(tok)) {
    next();
    next();
    return new_beh(BH_ANY_SEQ, start);
  }
  if (equal(tok, "(")) {
    next();
    Behaviour *b = behaviour();
    expect_closer(")", start);
    return b;
  }
  if (tok->kind == TK_IDENT) {
    Behaviour *b = new_beh(BH_NAME, tok);
    next();
    if (equal(tok, "(")) {
      Token *open = tok;
      next();
      b->has_args = true;
      if (!equal(tok, ")")) {
        do
          vec_push(&b->args, beh_arg());
        while (!panic && consume(","));
      }
      expect_closer(")", open);
    }
    return b;
  }
  syntax_error(tok, "expected a behaviour (an action, a scenario, '_', '...' or '(')");
  return new_beh(BH_ANY, start);
}

// beh_repeat = "!" beh_repeat
//            | beh_atom ("*" | "+" | "?" | "{" add ("," add)? "}")*
static Behaviour *beh_repeat(void) {
  Behaviour *b;
  if (!enter()) {
    leave();
    return new_beh(BH_ANY, tok);
  }
  if (equal(tok, "!")) {
    Token *op = tok;
    next();
    b = new_beh2(BH_NOT, op, beh_repeat(), NULL);
    leave();
    return b;
  }
  b = beh_atom();
  for (;;) {
    Token *op = tok;
    if (consume("*"))
      b = new_beh2(BH_STAR, op, b, NULL);
    else if (consume("+"))
      b = new_beh2(BH_PLUS, op, b, NULL);
    else if (consume("?"))
      b = new_beh2(BH_OPT, op, b, NULL);
    else if (equal(tok, "{")) {
      next();
      b = new_beh2(BH_REPEAT, op, b, NULL);
      b->min_expr = add();
      if (consume(","))
        b->max_expr = add();
      expect_closer("}", op);
    } else
      break;
  }
  leave();
  return b;
}

// beh_seq = beh_repeat ((";" | "->") beh_seq)?
// A `;` not followed by a behaviour ends the declaration.
static Behaviour *beh_seq(void) {
  Behaviour *b = beh_repeat();
  Token *op = tok;
  if (equal(tok, "->") || (equal(tok, ";") && starts_behaviour(tok->next))) {
    next();
    if (!enter()) {
      leave();
      return b;
    }
    b = new_beh2(equal(op, "->") ? BH_LOOSE_SEQ : BH_SEQ, op, b, beh_seq());
    leave();
  }
  return b;
}

// beh_and = beh_seq ("&" beh_seq)*
static Behaviour *beh_and(void) {
  Behaviour *b = beh_seq();
  while (equal(tok, "&") && !panic) {
    Token *op = tok;
    next();
    b = new_beh2(BH_AND, op, b, beh_seq());
  }
  return b;
}

// beh_choice = beh_and ("|" beh_and)*
static Behaviour *beh_choice(void) {
  Behaviour *b = beh_and();
  while (equal(tok, "|") && !parallel_op_at(tok) && !panic) {
    Token *op = tok;
    next();
    b = new_beh2(BH_CHOICE, op, b, beh_and());
  }
  return b;
}

// behaviour = beh_choice (("||" | "|||" | "|?|") beh_choice)*
static Behaviour *behaviour(void) {
  Behaviour *b = beh_choice();
  for (int k; (k = parallel_op_at(tok)) && !panic;) {
    Token *op = tok;
    next();
    if (k > 1)
      next();
    if (k > 2)
      next();
    BehKind kind = k == 1 ? BH_SYNC : k == 2 ? BH_INTERLEAVE : BH_SYNC_INTER;
    b = new_beh2(kind, op, b, beh_choice());
  }
  return b;
}

// Is t the contextual word `w` starting a declaration (`scenario NAME`)?
static bool is_decl_word(const Token *t, const char *w) {
  return is_word(t, w) && t->next->kind == TK_IDENT;
}

// extern = "extern" STRING ("sources" STRING ("," STRING)*)? ";"
//        | "extern" "fn" IDENT "(" params? ")" ":" type "trusted"? ";"
//        | "extern" "type" IDENT ";"
//        | "extern" "const" IDENT ";"
// (`extern`, `sources` and `trusted` are contextual words; extern.c reads
// the C.)
static void extern_decl(void) {
  Token *kw = tok;
  next();
  if (tok->kind == TK_STR) {
    ExternFile *f = xcalloc(1, sizeof *f);
    f->tok = kw;
    f->header = tok;
    next();
    if (is_word(tok, "sources")) {
      next();
      do {
        if (tok->kind != TK_STR) {
          syntax_error(tok, "expected a C file name in quotes after 'sources'");
          return;
        }
        vec_push(&f->sources, tok);
        next();
      } while (consume(","));
    }
    vec_push(&prog->extern_files, f);
    expect_after(";", "the extern files");
    return;
  }
  if (is_kw(tok, "fn")) {
    Decl *d = new_decl(prog, DK_FN, kw, NULL);
    d->is_extern = true;
    next();
    d->name = ident("the C function's name");
    if (equal(tok, "("))
      params(&d->params);
    else
      syntax_error(tok, "expected '(' after the function's name");
    expect(":", "and the result type after the parameters (it is written "
                "'extern fn NAME(PARAMS): TYPE;')");
    d->type = type();
    if (is_word(tok, "trusted")) {
      d->trusted = true;
      next();
    }
    expect_after(";", "the extern fn");
    return;
  }
  if (is_kw(tok, "type")) {
    next();
    vec_push(&prog->extern_types, ident("the C type's name"));
    expect_after(";", "the extern type");
    return;
  }
  if (is_kw(tok, "const")) {
    Decl *d = new_decl(prog, DK_CONST, kw, NULL);
    d->is_extern = true;
    next();
    d->name = ident("the C constant's name");
    expect_after(";", "the extern const");
    return;
  }
  syntax_error(tok, "expected a header in quotes, 'fn', 'type' or 'const' after 'extern'");
  hint("it is written 'extern \"file.h\" sources \"file.c\";' or 'extern fn NAME(PARAMS): TYPE;'");
}

// The hint for a name where a declaration belongs: the declaration word it
// misspells (`invarient`), or mcgen's for another language's (Murphi's
// `rule`, Promela's `ltl`, `function`).
static void decl_word_hint(const char *name) {
  static const char *const words[] = {
      "model", "const", "type", "var", "fn", "init", "action", "invariant", "reachable",
      "terminal", "constraint", "property", "fair", "extern", "scenario", "accepting", "watch",
  };
  static const char *const foreign[][2] = {
      {"rule", "action"}, {"ruleset", "action with parameters"}, {"startstate", "init"},
      {"function", "fn"}, {"def", "fn"}, {"fun", "fn"}, {"func", "fn"}, {"procedure", "fn"},
      {"ltl", "property"}, {"typedef", "type"}, {"constant", "const"}, {"variable", "var"},
  };
  for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++)
    if (!strcmp(name, foreign[i][0])) {
      hint("mcgen writes '%s' as '%s'", name, foreign[i][1]);
      return;
    }
  const char *best = closest_name(name, words, sizeof words / sizeof *words);
  if (best)
    hint("did you mean '%s'?", best);
}

// A declaration `WORD NAME: EXPR;` (a predicate, accepting, watch);
// `what` names it in messages.
static void named_expr_decl(DeclKind kind, Token *kw, const char *word, const char *what) {
  Decl *d = new_decl(prog, kind, kw, NULL);
  next();
  d->name = ident(format("a name for the %s", what));
  if (!consume(":") && !panic) {
    syntax_error(tok, "expected ':' after the %s's name", what);
    hint("it is written '%s NAME: EXPR;'", word);
  }
  d->expr = expr();
  expect_after(";", format("the %s", what));
}

static const char *predicate_word(DeclKind kind) {
  switch (kind) {
  case DK_INVARIANT: return "invariant";
  case DK_REACHABLE: return "reachable";
  case DK_TERMINAL: return "terminal";
  case DK_CONSTRAINT: return "constraint";
  default: unreachable();
  }
}

// decl = "model" IDENT ";"
//      | "const" IDENT "=" expr ";"
//      | "type" IDENT "=" type ";"
//      | "var" IDENT ":" type ";"
//      | "fn" IDENT "(" params? ")" ":" type block
//      | "init" IDENT? ("(" params? ")")? ("when" expr)? block
//      | "action" IDENT ("(" params? ")")? ("when" expr)? block
//      | ("invariant"|"reachable"|"terminal"|"constraint") IDENT ":" expr ";"
//      | "property" IDENT ":" temporal ";"
//      | "accepting" IDENT ":" expr ";"
//      | "scenario" IDENT "=" behaviour ";"
//      | "watch" IDENT ":" expr ";"
//      | fair
//      | extern
static void decl(void) {
  Token *kw = tok;

  if (is_word(tok, "extern")) {
    extern_decl();
    return;
  }

  if (is_kw(tok, "model")) {
    Decl *d = new_decl(prog, DK_MODEL, kw, NULL);
    next();
    d->name = ident("the model's name");
    if (!prog->model_name)
      prog->model_name = d->name;
    expect_after(";", "the model name");
    return;
  }

  if (is_kw(tok, "const")) {
    Decl *d = new_decl(prog, DK_CONST, kw, NULL);
    next();
    d->name = ident("the constant's name");
    expect("=", "after the constant's name (it is written 'const NAME = EXPR;')");
    d->expr = expr();
    expect_after(";", "the constant's value");
    return;
  }

  if (is_kw(tok, "type")) {
    Decl *d = new_decl(prog, DK_TYPE, kw, NULL);
    next();
    d->name = ident("the type's name");
    expect("=", "after the type's name (it is written 'type NAME = TYPE;')");
    d->type = type();
    if (!d->type->name)
      d->type->name = d->name->str;
    expect_after(";", "the type");
    return;
  }

  if (is_kw(tok, "var")) {
    Decl *d = new_decl(prog, DK_VAR, kw, NULL);
    next();
    d->name = ident("the variable's name");
    expect(":", "after the variable's name (it is written 'var NAME: TYPE;')");
    d->type = type();
    if (equal(tok, "=") && !panic) {
      syntax_error(tok, "a state variable has no initializer");
      hint("state variables start from their type's default; set them in an 'init' block");
    }
    expect_after(";", "the variable's type");
    return;
  }

  if (is_kw(tok, "fn")) {
    Decl *d = new_decl(prog, DK_FN, kw, NULL);
    next();
    d->name = ident("the function's name");
    if (equal(tok, "("))
      params(&d->params);
    else
      syntax_error(tok, "expected '(' after the function's name");
    expect(":", "and the result type after the parameters (it is written "
                "'fn NAME(PARAMS): TYPE { ... }')");
    d->type = type();
    d->body = block();
    return;
  }

  if (is_kw(tok, "init") || is_kw(tok, "action")) {
    bool is_init = is_kw(tok, "init");
    Decl *d = new_decl(prog, is_init ? DK_INIT : DK_ACTION, kw, NULL);
    next();
    if (!is_init)
      d->name = ident("the action's name");
    else if (tok->kind == TK_IDENT)
      d->name = ident("the init block's name");
    if (equal(tok, "("))
      params(&d->params);
    if (is_kw(tok, "when")) {
      next();
      d->expr = expr();
    }
    d->body = block();
    return;
  }

  if (is_kw(tok, "invariant") || is_kw(tok, "reachable") || is_kw(tok, "terminal") ||
      is_kw(tok, "constraint")) {
    DeclKind kind = is_kw(tok, "invariant")   ? DK_INVARIANT
                  : is_kw(tok, "reachable")   ? DK_REACHABLE
                  : is_kw(tok, "terminal")    ? DK_TERMINAL
                                              : DK_CONSTRAINT;
    const char *word = predicate_word(kind);
    named_expr_decl(kind, kw, word, word);
    return;
  }

  if (is_kw(tok, "property")) {
    Decl *d = new_decl(prog, DK_PROPERTY, kw, NULL);
    next();
    d->name = ident("a name for the property");
    if (!consume(":") && !panic) {
      syntax_error(tok, "expected ':' after the property's name");
      hint("it is written 'property NAME: TEMPORAL;'");
    }
    temporal(d);
    expect_after(";", "the property");
    return;
  }

  if (is_kw(tok, "fair")) {
    fair();
    return;
  }

  if (is_decl_word(tok, "accepting")) {
    named_expr_decl(DK_ACCEPTING, kw, "accepting", "accepting predicate");
    return;
  }

  if (is_decl_word(tok, "watch")) {
    named_expr_decl(DK_WATCH, kw, "watch", "watch");
    return;
  }

  if (is_decl_word(tok, "scenario")) {
    Decl *d = new_decl(prog, DK_SCENARIO, kw, NULL);
    next();
    d->name = ident("the scenario's name");
    expect("=", "after the scenario's name (it is written 'scenario NAME = BEHAVIOUR;')");
    d->beh = behaviour();
    expect_after(";", "the scenario");
    return;
  }

  syntax_error(tok, "expected a declaration (const, type, var, fn, init, action, "
                    "invariant, reachable, terminal, constraint, property, accepting, scenario, "
                    "watch, fair)");
  if (tok->kind == TK_IDENT)
    decl_word_hint(tok->str);
}

// The -W option's text:
//   watch_option = IDENT "=" expr EOF
bool parse_watch_option(Program *p, Token *first) {
  prog = p;
  tok = first;
  prev = NULL;
  panic = eof_seen = false;
  depth = 0;
  Decl *d = new_decl(prog, DK_WATCH, first, NULL);
  d->name = ident("the watch's name");
  if (!consume("=") && !panic) {
    syntax_error(tok, "expected '=' after the watch's name");
    hint("it is written -W 'NAME=EXPR'");
  }
  d->expr = expr();
  if (tok->kind != TK_EOF && !panic)
    syntax_error(tok, "unexpected '%s' after the watch's expression", token_text(tok));
  return !panic;
}

// program = decl* EOF
Program *parse(Token *first) {
  prog = xcalloc(1, sizeof(Program));
  prog->file = first->file;
  tok = first;
  prev = NULL;
  panic = false;
  eof_seen = false;
  depth = 0;
  while (tok->kind != TK_EOF) {
    Token *start = tok;
    decl();
    if (panic)
      recover_decl(start);
  }
  return prog;
}
