// SPDX-License-Identifier: MIT
// test_parse.c: every grammar rule, precedence and associativity, record
// literal disambiguation, token locations, error messages, recovery,
// truncated and garbage input, deep nesting and speed.
//
// Trees are compared as S-expressions: (op lhs rhs), (if c then else), ...
#include <criterion/criterion.h>
#include <time.h>

#include "mcgen.h"

static char *cap_buf;
static size_t cap_len;

static const char *captured(void) {
  fflush(diag_out);
  return cap_buf ? cap_buf : "";
}

static Program *parse_src(const char *text) {
  diag_out = open_memstream(&cap_buf, &cap_len);
  SrcFile *f = xcalloc(1, sizeof(SrcFile));
  f->name = "t.mc";
  f->text = text;
  f->len = strlen(text);
  return parse(tokenize(f));
}

static Decl *decl_at(Program *p, int i) {
  cr_assert_lt(i, p->decls.len);
  return p->decls.data[i];
}

//
// S-expressions
//

static void sx_node(Buf *b, Node *n);
static void sx_type(Buf *b, Type *t);

static const char *op_name(Op op) {
  static const char *const names[] = {
      [OP_ADD] = "+",  [OP_SUB] = "-",    [OP_MUL] = "*",      [OP_DIV] = "/",
      [OP_MOD] = "%",  [OP_EQ] = "==",    [OP_NE] = "!=",      [OP_LT] = "<",
      [OP_LE] = "<=",  [OP_GT] = ">",     [OP_GE] = ">=",      [OP_AND] = "&&",
      [OP_OR] = "||",  [OP_IMPLIES] = "->", [OP_IFF] = "<->",  [OP_IN] = "in",
      [OP_NOT] = "!",  [OP_NEG] = "neg",  [OP_FORALL] = "forall", [OP_EXISTS] = "exists",
      [OP_COUNT] = "count", [OP_SUM] = "sum", [OP_BAND] = "&", [OP_BOR] = "|",
      [OP_BXOR] = "^", [OP_SHL] = "<<", [OP_SHR] = ">>", [OP_BNOT] = "~",
  };
  return names[op];
}

static void sx_binder(Buf *b, Binder *bd) {
  if (bd->type) {
    buf_printf(b, "%s: ", bd->name->str);
    sx_type(b, bd->type);
  } else {
    buf_printf(b, "%s in ", bd->name->str);
    sx_node(b, bd->in_expr);
  }
}

static void sx_binders(Buf *b, Vec *v) {
  buf_puts(b, "(");
  for (int i = 0; i < v->len; i++) {
    if (i)
      buf_puts(b, ", ");
    sx_binder(b, v->data[i]);
  }
  buf_puts(b, ")");
}

static void sx_args(Buf *b, Vec *v) {
  for (int i = 0; i < v->len; i++) {
    buf_puts(b, " ");
    sx_node(b, v->data[i]);
  }
}

static void sx_type(Buf *b, Type *t) {
  if (!t) {
    buf_puts(b, "<null>");
    return;
  }
  switch (t->kind) {
  case TY_BOOL: buf_puts(b, "bool"); return;
  case TY_NAMED: buf_puts(b, t->ref->str); return;
  case TY_RANGE:
    buf_puts(b, "(range ");
    sx_node(b, t->lo_expr);
    buf_puts(b, " ");
    sx_node(b, t->hi_expr);
    buf_puts(b, ")");
    return;
  case TY_ENUM:
    buf_puts(b, "(enum");
    for (int i = 0; i < t->members.len; i++)
      buf_printf(b, " %s", ((Token *)t->members.data[i])->str);
    buf_puts(b, ")");
    return;
  case TY_SCALARSET:
    buf_puts(b, "(scalarset ");
    sx_node(b, t->size_expr);
    buf_puts(b, ")");
    return;
  case TY_OPTIONAL:
    buf_puts(b, "(opt ");
    sx_type(b, t->base);
    buf_puts(b, ")");
    return;
  case TY_ARRAY:
    buf_puts(b, "(array ");
    sx_type(b, t->index);
    buf_puts(b, " ");
    sx_type(b, t->base);
    buf_puts(b, ")");
    return;
  case TY_RECORD:
    buf_puts(b, "(record");
    for (int i = 0; i < t->nfields; i++) {
      buf_printf(b, " %s: ", t->fields[i]->name->str);
      sx_type(b, t->fields[i]->type);
    }
    buf_puts(b, ")");
    return;
  case TY_SET:
    buf_puts(b, "(set ");
    sx_type(b, t->base);
    buf_puts(b, ")");
    return;
  case TY_MULTISET:
  case TY_QUEUE:
    buf_puts(b, t->kind == TY_QUEUE ? "(queue " : "(multiset ");
    sx_type(b, t->base);
    buf_puts(b, " ");
    sx_node(b, t->cap_expr);
    buf_puts(b, ")");
    return;
  case TY_ERROR: buf_puts(b, "<error>"); return;
  default: buf_puts(b, "<?type>"); return;
  }
}

static void sx_node(Buf *b, Node *n) {
  if (!n) {
    buf_puts(b, "<null>");
    return;
  }
  switch (n->kind) {
  case ND_NUM: buf_printf(b, "%lld", (long long)n->val); return;
  case ND_BOOL: buf_puts(b, n->val ? "true" : "false"); return;
  case ND_NONE: buf_puts(b, "none"); return;
  case ND_STR: buf_printf(b, "\"%s\"", n->tok->str); return;
  case ND_IDENT: buf_puts(b, n->name->str); return;
  case ND_BINARY:
    buf_printf(b, "(%s ", op_name(n->op));
    sx_node(b, n->lhs);
    buf_puts(b, " ");
    sx_node(b, n->rhs);
    buf_puts(b, ")");
    return;
  case ND_UNARY:
    buf_printf(b, "(%s ", op_name(n->op));
    sx_node(b, n->lhs);
    buf_puts(b, ")");
    return;
  case ND_COND:
    buf_puts(b, "(? ");
    sx_node(b, n->cond);
    buf_puts(b, " ");
    sx_node(b, n->then);
    buf_puts(b, " ");
    sx_node(b, n->els);
    buf_puts(b, ")");
    return;
  case ND_INDEX:
    buf_puts(b, "(idx ");
    sx_node(b, n->lhs);
    buf_puts(b, " ");
    sx_node(b, n->rhs);
    buf_puts(b, ")");
    return;
  case ND_FIELD:
    buf_puts(b, "(. ");
    sx_node(b, n->lhs);
    buf_printf(b, " %s)", n->name->str);
    return;
  case ND_CALL:
    buf_printf(b, "(call %s", n->name->str);
    sx_args(b, &n->args);
    buf_puts(b, ")");
    return;
  case ND_METHOD:
    buf_puts(b, "(method ");
    sx_node(b, n->lhs);
    buf_printf(b, " %s", n->name->str);
    sx_args(b, &n->args);
    buf_puts(b, ")");
    return;
  case ND_RECORD_LIT:
    buf_printf(b, "(rec %s", n->name->str);
    for (int i = 0; i < n->args.len; i++) {
      buf_printf(b, " %s: ", ((Token *)n->fnames.data[i])->str);
      sx_node(b, n->args.data[i]);
    }
    buf_puts(b, ")");
    return;
  case ND_QUANT:
    buf_printf(b, "(%s ", op_name(n->op));
    sx_binders(b, &n->binders);
    buf_puts(b, " ");
    sx_node(b, n->body);
    buf_puts(b, ")");
    return;
  case ND_ASSIGN:
    buf_puts(b, "(= ");
    sx_node(b, n->lhs);
    buf_puts(b, " ");
    sx_node(b, n->rhs);
    buf_puts(b, ")");
    return;
  case ND_IF:
    buf_puts(b, "(if ");
    sx_node(b, n->cond);
    buf_puts(b, " ");
    sx_node(b, n->then);
    if (n->els) {
      buf_puts(b, " ");
      sx_node(b, n->els);
    }
    buf_puts(b, ")");
    return;
  case ND_FOR:
    buf_puts(b, "(for ");
    sx_binders(b, &n->binders);
    buf_puts(b, " ");
    sx_node(b, n->body);
    buf_puts(b, ")");
    return;
  case ND_LET:
    buf_printf(b, "(let %s ", n->name->str);
    sx_node(b, n->rhs);
    buf_puts(b, ")");
    return;
  case ND_VARDECL:
    buf_printf(b, "(var %s ", n->name->str);
    sx_type(b, n->decl_type);
    buf_puts(b, " ");
    sx_node(b, n->rhs);
    buf_puts(b, ")");
    return;
  case ND_ASSERT:
    buf_puts(b, "(assert ");
    sx_node(b, n->lhs);
    if (n->rhs) {
      buf_puts(b, " ");
      sx_node(b, n->rhs);
    }
    buf_puts(b, ")");
    return;
  case ND_RETURN:
    buf_puts(b, "(return ");
    sx_node(b, n->lhs);
    buf_puts(b, ")");
    return;
  case ND_EXPR_STMT:
    buf_puts(b, "(do ");
    sx_node(b, n->lhs);
    buf_puts(b, ")");
    return;
  case ND_BLOCK:
    buf_puts(b, "{");
    sx_args(b, &n->args);
    buf_puts(b, " }");
    return;
  case ND_RESET: // made by the DVE front end only
    buf_puts(b, "(reset)");
    return;
  case ND_WHILE: // made by the Murphi front end only
    buf_puts(b, "(while ");
    sx_node(b, n->cond);
    buf_puts(b, " ");
    sx_node(b, n->body);
    buf_puts(b, ")");
    return;
  }
  buf_puts(b, "<?node>");
}

static char *sx(Node *n) {
  Buf b = {0};
  buf_puts(&b, "");
  sx_node(&b, n);
  return b.data;
}

static char *sxt(Type *t) {
  Buf b = {0};
  buf_puts(&b, "");
  sx_type(&b, t);
  return b.data;
}

// The tree of an expression, parsed as `const X = <text>;`, with no errors.
static char *ex(const char *text) {
  Program *p = parse_src(format("const X = %s;", text));
  cr_assert_eq(error_count(), 0, "errors in '%s':\n%s", text, captured());
  cr_assert_eq(p->decls.len, 1);
  return sx(decl_at(p, 0)->expr);
}

// The tree of a type, parsed as `type T = <text>;`.
static char *ty(const char *text) {
  Program *p = parse_src(format("type T = %s;", text));
  cr_assert_eq(error_count(), 0, "errors in '%s':\n%s", text, captured());
  return sxt(decl_at(p, 0)->type);
}

// The body of `action a { <text> }`.
static char *st(const char *text) {
  Program *p = parse_src(format("action a {\n%s\n}", text));
  cr_assert_eq(error_count(), 0, "errors in '%s':\n%s", text, captured());
  return sx(decl_at(p, 0)->body);
}

// Parses `text` expecting errors; returns the diagnostics.
static const char *errors_of(const char *text) {
  parse_src(text);
  cr_assert_gt(error_count(), 0, "no error for:\n%s", text);
  return captured();
}

#define assert_has(hay, needle) \
  cr_assert(strstr((hay), (needle)), "expected to find\n%s\nin\n%s", (needle), (hay))

//
// Declarations
//

Test(parse, the_filter_example_from_the_language_page) {
  const char *text =
      "// Peterson's filter lock for N processes.\n"
      "model filter;\n"
      "const N = 3;\n"
      "type Proc  = scalarset(N);\n"
      "type Level = 0..N-1;\n"
      "type Pc    = enum { idle, trying, critical };\n"
      "var pc:     [Proc] Pc;\n"
      "var level:  [Proc] Level;\n"
      "var victim: [Level] Proc?;\n"
      "action start(p: Proc) when pc[p] == idle {\n"
      "  pc[p] = trying;\n  level[p] = 0;\n  victim[0] = p;\n}\n"
      "action climb(p: Proc)\n"
      "  when pc[p] == trying && level[p] < N-1 &&\n"
      "       (victim[level[p]] != p || forall q: Proc :: q == p || level[q] < level[p])\n"
      "{\n  level[p] = level[p] + 1;\n  victim[level[p]] = p;\n}\n"
      "invariant mutex: forall p: Proc, q: Proc :: p != q -> !(pc[p] == critical && pc[q] == "
      "critical);\n"
      "reachable someone_in: exists p: Proc :: pc[p] == critical;\n"
      "property no_starvation: forall p: Proc :: pc[p] == trying ~> pc[p] == critical;\n"
      "fair weak climb;\n";
  Program *p = parse_src(text);
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_eq(p->decls.len, 14);
  cr_assert_str_eq(p->model_name->str, "filter");
  cr_assert_eq(decl_at(p, 0)->kind, DK_MODEL);
  cr_assert_eq(decl_at(p, 1)->kind, DK_CONST);
  cr_assert_eq(decl_at(p, 4)->kind, DK_TYPE);
  cr_assert_eq(decl_at(p, 5)->kind, DK_VAR);
  cr_assert_str_eq(sxt(decl_at(p, 7)->type), "(array Level (opt Proc))");
  Decl *climb = decl_at(p, 9);
  cr_assert_eq(climb->kind, DK_ACTION);
  cr_assert_str_eq(sx(climb->expr),
                   "(&& (&& (== (idx pc p) trying) (< (idx level p) (- N 1))) "
                   "(|| (!= (idx victim (idx level p)) p) "
                   "(forall (q: Proc) (|| (== q p) (< (idx level q) (idx level p))))))");
  cr_assert_str_eq(sx(decl_at(p, 10)->expr),
                   "(forall (p: Proc, q: Proc) (-> (!= p q) "
                   "(! (&& (== (idx pc p) critical) (== (idx pc q) critical)))))");
  Decl *prop = decl_at(p, 12);
  cr_assert_eq(prop->kind, DK_PROPERTY);
  cr_assert_eq(prop->temporal, TEMP_LEADSTO);
  cr_assert_eq(prop->params.len, 1);
  cr_assert_str_eq(sx(prop->expr), "(== (idx pc p) trying)");
  cr_assert_str_eq(sx(prop->expr2), "(== (idx pc p) critical)");
  cr_assert_eq(decl_at(p, 13)->kind, DK_FAIR);
}

Test(parse, model_const_type_var) {
  Program *p = parse_src("model m; const N = 3 + 1; type T = bool; var x: T;");
  cr_assert_eq(error_count(), 0);
  Decl *d = decl_at(p, 0);
  cr_assert_eq(d->kind, DK_MODEL);
  cr_assert_str_eq(d->name->str, "m");
  cr_assert(equal(d->tok, "model"));
  d = decl_at(p, 1);
  cr_assert_eq(d->kind, DK_CONST);
  cr_assert_str_eq(d->name->str, "N");
  cr_assert_str_eq(sx(d->expr), "(+ 3 1)");
  d = decl_at(p, 2);
  cr_assert_eq(d->kind, DK_TYPE);
  cr_assert_eq(d->type->kind, TY_BOOL);
  cr_assert_str_eq(d->type->name, "T");
  d = decl_at(p, 3);
  cr_assert_eq(d->kind, DK_VAR);
  cr_assert_str_eq(sxt(d->type), "T");
  cr_assert_null(p->model_name == NULL ? (void *)1 : NULL);
}

Test(parse, no_model_declaration) {
  Program *p = parse_src("const N = 1;");
  cr_assert_null(p->model_name);
  cr_assert_not_null(p->file);
  cr_assert_str_eq(p->file->name, "t.mc");
}

Test(parse, empty_and_comment_only_files) {
  Program *p = parse_src("");
  cr_assert_eq(p->decls.len, 0);
  cr_assert_eq(error_count(), 0);
  p = parse_src("// nothing\n/* here */\n");
  cr_assert_eq(p->decls.len, 0);
  cr_assert_eq(error_count(), 0);
}

Test(parse, fn_declaration) {
  Program *p = parse_src("fn f(a: bool, b in s): 0..3 { if a { return 1; } return 2; }");
  cr_assert_eq(error_count(), 0, "%s", captured());
  Decl *d = decl_at(p, 0);
  cr_assert_eq(d->kind, DK_FN);
  cr_assert_str_eq(d->name->str, "f");
  cr_assert_eq(d->params.len, 2);
  Binder *b0 = d->params.data[0], *b1 = d->params.data[1];
  cr_assert_str_eq(b0->name->str, "a");
  cr_assert_eq(b0->type->kind, TY_BOOL);
  cr_assert_null(b0->in_expr);
  cr_assert_null(b1->type);
  cr_assert_str_eq(sx(b1->in_expr), "s");
  cr_assert_str_eq(sxt(d->type), "(range 0 3)");
  cr_assert_str_eq(sx(d->body), "{ (if a { (return 1) }) (return 2) }");
  p = parse_src("fn g(): bool { return true; }");
  cr_assert_eq(error_count(), 0);
  cr_assert_eq(decl_at(p, 0)->params.len, 0);
}

Test(parse, init_forms) {
  Program *p = parse_src("init { x = 1; }\n"
                         "init named { }\n"
                         "init (p: Proc) { }\n"
                         "init withguard(p: Proc) when p != q { }\n"
                         "init when ready { }\n");
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_eq(p->decls.len, 5);
  Decl *d = decl_at(p, 0);
  cr_assert_eq(d->kind, DK_INIT);
  cr_assert_null(d->name);
  cr_assert_null(d->expr);
  cr_assert_str_eq(sx(d->body), "{ (= x 1) }");
  cr_assert_str_eq(decl_at(p, 1)->name->str, "named");
  cr_assert_null(decl_at(p, 2)->name);
  cr_assert_eq(decl_at(p, 2)->params.len, 1);
  d = decl_at(p, 3);
  cr_assert_str_eq(d->name->str, "withguard");
  cr_assert_eq(d->params.len, 1);
  cr_assert_str_eq(sx(d->expr), "(!= p q)");
  cr_assert_str_eq(sx(decl_at(p, 4)->expr), "ready");
}

Test(parse, action_forms) {
  Program *p = parse_src("action a { }\n"
                         "action b() { }\n"
                         "action c(p: Proc, q: Proc) when p != q { }\n"
                         "action d when g { }\n");
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_eq(decl_at(p, 0)->kind, DK_ACTION);
  cr_assert_eq(decl_at(p, 0)->params.len, 0);
  cr_assert_eq(decl_at(p, 1)->params.len, 0);
  cr_assert_eq(decl_at(p, 2)->params.len, 2);
  cr_assert_str_eq(sx(decl_at(p, 3)->expr), "g");
  cr_assert_eq(decl_at(p, 3)->body->kind, ND_BLOCK);
}

Test(parse, predicates) {
  Program *p = parse_src("invariant i: a;\nreachable r: b;\nterminal t: c;\nconstraint k: d;");
  cr_assert_eq(error_count(), 0);
  DeclKind kinds[] = {DK_INVARIANT, DK_REACHABLE, DK_TERMINAL, DK_CONSTRAINT};
  const char *names[] = {"i", "r", "t", "k"}, *exprs[] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; i++) {
    cr_assert_eq(decl_at(p, i)->kind, kinds[i]);
    cr_assert_str_eq(decl_at(p, i)->name->str, names[i]);
    cr_assert_str_eq(sx(decl_at(p, i)->expr), exprs[i]);
  }
}

Test(parse, temporal_forms) {
  Program *p = parse_src("property a: [] x;\n"
                         "property b: <> x;\n"
                         "property c: []<> x && y;\n"
                         "property d: <>[] x;\n"
                         "property e: x ~> y || z;\n"
                         "property f: forall p: Proc, q: Proc :: [] p != q;\n"
                         "property g: [ ] < > x;\n"
                         "property h: [] forall p: Proc :: x[p];\n");
  cr_assert_eq(error_count(), 0, "%s", captured());
  TemporalKind kinds[] = {TEMP_ALWAYS, TEMP_EVENTUALLY, TEMP_ALWAYS_EVENTUALLY,
                          TEMP_EVENTUALLY_ALWAYS, TEMP_LEADSTO, TEMP_ALWAYS,
                          TEMP_ALWAYS_EVENTUALLY, TEMP_ALWAYS};
  for (int i = 0; i < 8; i++)
    cr_assert_eq(decl_at(p, i)->temporal, kinds[i], "property %d", i);
  cr_assert_str_eq(sx(decl_at(p, 2)->expr), "(&& x y)");
  cr_assert_null(decl_at(p, 2)->expr2);
  cr_assert_str_eq(sx(decl_at(p, 4)->expr), "x");
  cr_assert_str_eq(sx(decl_at(p, 4)->expr2), "(|| y z)");
  cr_assert_eq(decl_at(p, 5)->params.len, 2);
  cr_assert_str_eq(sx(decl_at(p, 5)->expr), "(!= p q)");
  cr_assert_eq(decl_at(p, 7)->params.len, 0);
  cr_assert_str_eq(sx(decl_at(p, 7)->expr), "(forall (p: Proc) (idx x p))");
}

Test(parse, fairness) {
  Program *p = parse_src("fair weak a;\nfair strong b, (c | d | e), f;\n");
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_eq(p->decls.len, 4);
  Decl *d = decl_at(p, 0);
  cr_assert_eq(d->kind, DK_FAIR);
  cr_assert_not(d->strong);
  cr_assert_eq(d->fair_actions.len, 1);
  cr_assert(equal(d->tok, "fair"));
  cr_assert(decl_at(p, 1)->strong);
  cr_assert_eq(decl_at(p, 1)->fair_actions.len, 1);
  d = decl_at(p, 2);
  cr_assert(d->strong);
  cr_assert_eq(d->fair_actions.len, 3);
  cr_assert_str_eq(((Token *)d->fair_actions.data[2])->str, "e");
  cr_assert_str_eq(((Token *)decl_at(p, 3)->fair_actions.data[0])->str, "f");
}

Test(parse, contextual_words_are_ordinary_names) {
  Program *p = parse_src("var weak: bool; var strong: bool; const count = 1; const sum = count + 2;");
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_str_eq(sx(decl_at(p, 3)->expr), "(+ count 2)");
}

//
// Types
//

Test(parse, types) {
  cr_assert_str_eq(ty("bool"), "bool");
  cr_assert_str_eq(ty("0..N-1"), "(range 0 (- N 1))");
  cr_assert_str_eq(ty("-1..(N*2)"), "(range (neg 1) (* N 2))");
  cr_assert_str_eq(ty("lo..hi"), "(range lo hi)");
  cr_assert_str_eq(ty("enum { a, b, c }"), "(enum a b c)");
  cr_assert_str_eq(ty("enum { a, b, }"), "(enum a b)");
  cr_assert_str_eq(ty("enum {a}"), "(enum a)");
  cr_assert_str_eq(ty("scalarset(N + 1)"), "(scalarset (+ N 1))");
  cr_assert_str_eq(ty("Proc?"), "(opt Proc)");
  cr_assert_str_eq(ty("0..3?"), "(opt (range 0 3))");
  cr_assert_str_eq(ty("[Proc] bool"), "(array Proc bool)");
  cr_assert_str_eq(ty("[Proc][0..2] Pc?"), "(array Proc (array (range 0 2) (opt Pc)))");
  cr_assert_str_eq(ty("record { f: bool, g: 0..3 }"), "(record f: bool g: (range 0 3))");
  cr_assert_str_eq(ty("record { f: bool; g: T; }"), "(record f: bool g: T)");
  cr_assert_str_eq(ty("record { f: bool, }"), "(record f: bool)");
  cr_assert_str_eq(ty("set<Proc>"), "(set Proc)");
  cr_assert_str_eq(ty("set<set<0..3>>"), "(set (set (range 0 3)))");
  cr_assert_str_eq(ty("multiset<Msg, N*2>"), "(multiset Msg (* N 2))");
  cr_assert_str_eq(ty("queue<record { a: bool }, 4>"), "(queue (record a: bool) 4)");
  cr_assert_str_eq(ty("queue<T, 4>?"), "(opt (queue T 4))");
}

Test(parse, type_tokens) {
  Program *p = parse_src("type A = [Proc] 0..3?;");
  Type *t = decl_at(p, 0)->type;
  cr_assert(equal(t->tok, "["));
  cr_assert_eq(t->tok->col, 10);
  cr_assert(equal(t->index->tok, "Proc"));
  cr_assert(equal(t->index->ref, "Proc"));
  cr_assert(equal(t->base->tok, "?"));
  cr_assert(equal(t->base->base->tok, ".."));
  cr_assert_str_eq(t->name, "A");
}

Test(parse, greater_equal_after_a_type_is_split) {
  char *s = st("var s: set<T>= t;");
  cr_assert_str_eq(s, "{ (var s (set T) t) }");
}

//
// Expressions: precedence and associativity
//

Test(parse, arithmetic_precedence) {
  cr_assert_str_eq(ex("a + b * c"), "(+ a (* b c))");
  cr_assert_str_eq(ex("a * b + c"), "(+ (* a b) c)");
  cr_assert_str_eq(ex("a - b - c"), "(- (- a b) c)");
  cr_assert_str_eq(ex("a / b % c * d"), "(* (% (/ a b) c) d)");
  cr_assert_str_eq(ex("-a * b"), "(* (neg a) b)");
  cr_assert_str_eq(ex("- -a"), "(neg (neg a))");
  cr_assert_str_eq(ex("(a + b) * c"), "(* (+ a b) c)");
}

Test(parse, comparison_and_logic_precedence) {
  cr_assert_str_eq(ex("a + 1 < b == c"), "(== (< (+ a 1) b) c)");
  cr_assert_str_eq(ex("a == b && c != d || e"), "(|| (&& (== a b) (!= c d)) e)");
  cr_assert_str_eq(ex("a || b && c"), "(|| a (&& b c))");
  cr_assert_str_eq(ex("!a && b"), "(&& (! a) b)");
  cr_assert_str_eq(ex("!(a && b)"), "(! (&& a b))");
  cr_assert_str_eq(ex("x in s || y"), "(|| (in x s) y)");
  cr_assert_str_eq(ex("x + 1 in s"), "(in (+ x 1) s)");
  cr_assert_str_eq(ex("a <= b"), "(<= a b)");
  cr_assert_str_eq(ex("a >= b > c"), "(> (>= a b) c)");
}

Test(parse, implication_and_equivalence) {
  cr_assert_str_eq(ex("a -> b -> c"), "(-> a (-> b c))");
  cr_assert_str_eq(ex("a <-> b <-> c"), "(<-> (<-> a b) c)");
  cr_assert_str_eq(ex("a || b -> c && d"), "(-> (|| a b) (&& c d))");
  cr_assert_str_eq(ex("a -> b <-> c"), "(-> a (<-> b c))");
  cr_assert_str_eq(ex("a <-> b -> c"), "(-> (<-> a b) c)");
  cr_assert_str_eq(ex("a -> b -> c -> d"), "(-> a (-> b (-> c d)))");
}

Test(parse, conditional) {
  cr_assert_str_eq(ex("a ? b : c"), "(? a b c)");
  cr_assert_str_eq(ex("a ? b : c ? d : e"), "(? a b (? c d e))");
  cr_assert_str_eq(ex("a -> b ? c : d"), "(? (-> a b) c d)");
  cr_assert_str_eq(ex("a ? b ? c : d : e"), "(? a (? b c d) e)");
  cr_assert_str_eq(ex("a ? b || c : d || e"), "(? a (|| b c) (|| d e))");
}

Test(parse, quantifiers) {
  cr_assert_str_eq(ex("forall x: T :: a && b"), "(forall (x: T) (&& a b))");
  cr_assert_str_eq(ex("exists x: T, y in s :: a"), "(exists (x: T, y in s) a)");
  cr_assert_str_eq(ex("count x: 0..3 :: x > 1"), "(count (x: (range 0 3)) (> x 1))");
  cr_assert_str_eq(ex("sum x in s :: x + 1"), "(sum (x in s) (+ x 1))");
  // The body extends as far right as possible.
  cr_assert_str_eq(ex("a || forall x: T :: b || c"), "(|| a (forall (x: T) (|| b c)))");
  cr_assert_str_eq(ex("forall x: T :: a -> b ? c : d"), "(forall (x: T) (? (-> a b) c d))");
  cr_assert_str_eq(ex("!exists x: T :: p"), "(! (exists (x: T) p))");
  cr_assert_str_eq(ex("(forall x: T :: p) && q"), "(&& (forall (x: T) p) q)");
  cr_assert_str_eq(ex("forall x: T :: forall y: T :: x == y"),
                   "(forall (x: T) (forall (y: T) (== x y)))");
  cr_assert_str_eq(ex("1 + sum i: R :: f(i)"), "(+ 1 (sum (i: R) (call f i)))");
}

Test(parse, count_and_sum_are_contextual) {
  cr_assert_str_eq(ex("count + sum"), "(+ count sum)");
  cr_assert_str_eq(ex("count(x)"), "(call count x)");
  cr_assert_str_eq(ex("m.count(e)"), "(method m count e)");
  cr_assert_str_eq(ex("count[i]"), "(idx count i)");
}

Test(parse, postfix) {
  cr_assert_str_eq(ex("a[i][j]"), "(idx (idx a i) j)");
  cr_assert_str_eq(ex("r.f.g"), "(. (. r f) g)");
  cr_assert_str_eq(ex("a[i].f[j]"), "(idx (. (idx a i) f) j)");
  cr_assert_str_eq(ex("q.len()"), "(method q len)");
  cr_assert_str_eq(ex("a[i].q.head().f"), "(. (method (. (idx a i) q) head) f)");
  cr_assert_str_eq(ex("f()"), "(call f)");
  cr_assert_str_eq(ex("f(a, b + 1)"), "(call f a (+ b 1))");
  cr_assert_str_eq(ex("-a[i]"), "(neg (idx a i))");
  // Keywords are fine after '.'.
  cr_assert_str_eq(ex("r.set"), "(. r set)");
  cr_assert_str_eq(ex("r.in.none"), "(. (. r in) none)");
}

Test(parse, literals) {
  cr_assert_str_eq(ex("42"), "42");
  cr_assert_str_eq(ex("true && false"), "(&& true false)");
  cr_assert_str_eq(ex("x == none"), "(== x none)");
}

Test(parse, record_literals) {
  cr_assert_str_eq(ex("Msg { kind: req, src: p }"), "(rec Msg kind: req src: p)");
  cr_assert_str_eq(ex("Msg { kind: req, }"), "(rec Msg kind: req)");
  cr_assert_str_eq(ex("M { a: N { b: 1 } }"), "(rec M a: (rec N b: 1))");
  cr_assert_str_eq(ex("m == Msg { a: 1 }"), "(== m (rec Msg a: 1))");
}

Test(parse, blocks_are_not_record_literals) {
  cr_assert_str_eq(st("if x == y { a = 1; }"), "{ (if (== x y) { (= a 1) }) }");
  cr_assert_str_eq(st("if x { }"), "{ (if x { }) }");
  cr_assert_str_eq(st("for i in s { q.push(i); }"), "{ (for (i in s) { (do (method q push i)) }) }");
  cr_assert_str_eq(st("for i: 0..N { x = i; }"), "{ (for (i: (range 0 N)) { (= x i) }) }");
  Program *p = parse_src("action a when g { x = 1; }\naction b when m == M { f: 1 } { }");
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_str_eq(sx(decl_at(p, 0)->expr), "g");
  cr_assert_str_eq(sx(decl_at(p, 0)->body), "{ (= x 1) }");
  cr_assert_str_eq(sx(decl_at(p, 1)->expr), "(== m (rec M f: 1))");
}

Test(parse, expression_tokens) {
  Program *p = parse_src("const X = a + b * f(c).g;");
  Node *e = decl_at(p, 0)->expr;
  cr_assert(equal(e->tok, "+"));
  cr_assert_eq(e->tok->col, 13);
  cr_assert(equal(e->lhs->tok, "a"));
  cr_assert(equal(e->lhs->name, "a"));
  cr_assert(equal(e->rhs->tok, "*"));
  Node *field = e->rhs->rhs;
  cr_assert_eq(field->kind, ND_FIELD);
  cr_assert(equal(field->tok, "g"));
  cr_assert(equal(field->lhs->tok, "f"));
  p = parse_src("const Y = forall x: T :: !x[1];");
  Node *q = decl_at(p, 0)->expr;
  cr_assert(equal(q->tok, "forall"));
  cr_assert(equal(q->body->tok, "!"));
  cr_assert(equal(q->body->lhs->tok, "["));
  cr_assert_eq(q->body->lhs->rhs->val, 1);
}

//
// Statements
//

Test(parse, statements) {
  cr_assert_str_eq(st("x = 1;"), "{ (= x 1) }");
  cr_assert_str_eq(st("a[i].f = b;"), "{ (= (. (idx a i) f) b) }");
  cr_assert_str_eq(st("let y = x + 1;"), "{ (let y (+ x 1)) }");
  cr_assert_str_eq(st("var z: 0..3 = 2;"), "{ (var z (range 0 3) 2) }");
  cr_assert_str_eq(st("assert x > 0;"), "{ (assert (> x 0)) }");
  cr_assert_str_eq(st("assert x > 0, \"x is positive\";"),
                   "{ (assert (> x 0) \"x is positive\") }");
  cr_assert_str_eq(st("return x;"), "{ (return x) }");
  cr_assert_str_eq(st("q.push(e); s.add(e); s.remove(e); x.clear(); q.pop();"),
                   "{ (do (method q push e)) (do (method s add e)) (do (method s remove e)) "
                   "(do (method x clear)) (do (method q pop)) }");
  cr_assert_str_eq(st("for p: Proc { }"), "{ (for (p: Proc) { }) }");
  cr_assert_str_eq(st("x = q.pop();"), "{ (= x (method q pop)) }");
}

Test(parse, if_else_chains) {
  cr_assert_str_eq(st("if a { x = 1; } else { x = 2; }"),
                   "{ (if a { (= x 1) } { (= x 2) }) }");
  cr_assert_str_eq(st("if a { } else if b { x = 1; } else if c { } else { x = 3; }"),
                   "{ (if a { } (if b { (= x 1) } (if c { } { (= x 3) }))) }");
  Program *p = parse_src("action a { if a { } else if b { } }");
  Node *s = decl_at(p, 0)->body->args.data[0];
  cr_assert_eq(s->kind, ND_IF);
  cr_assert_eq(s->els->kind, ND_IF);
  cr_assert_null(s->els->els);
  cr_assert(equal(s->els->tok, "if"));
  cr_assert_eq(s->els->tok->col, 26);
}

Test(parse, long_else_if_chain_is_not_recursive) {
  Buf b = {0};
  buf_puts(&b, "action a { if c0 { }");
  for (int i = 1; i < 5000; i++)
    buf_printf(&b, " else if c%d { }", i);
  buf_puts(&b, " else { } }");
  Program *p = parse_src(b.data);
  cr_assert_eq(error_count(), 0, "%s", captured());
  Node *s = decl_at(p, 0)->body->args.data[0];
  int n = 0;
  while (s->kind == ND_IF) {
    n++;
    s = s->els;
  }
  cr_assert_eq(n, 5000);
  cr_assert_eq(s->kind, ND_BLOCK);
}

Test(parse, statement_tokens) {
  Program *p = parse_src("action a {\n  let y = 1;\n  x = y;\n  q.push(1);\n  for i: T { }\n}");
  Vec *v = &decl_at(p, 0)->body->args;
  cr_assert(equal(((Node *)v->data[0])->tok, "let"));
  cr_assert(equal(((Node *)v->data[0])->name, "y"));
  cr_assert(equal(((Node *)v->data[1])->tok, "="));
  cr_assert(equal(((Node *)v->data[2])->tok, "push"));
  cr_assert(equal(((Node *)v->data[3])->tok, "for"));
  cr_assert_eq(((Node *)v->data[3])->tok->line, 5);
  cr_assert(equal(decl_at(p, 0)->body->tok, "{"));
}

//
// Errors
//

Test(parse, missing_semicolon_points_after_the_previous_token) {
  const char *out = errors_of("const N = 3\nvar x: bool;\n");
  cr_assert_str_eq(out, "t.mc:1:12: error: expected ';' after the constant's value\n"
                        "   1 | const N = 3\n"
                        "     |            ^\n");
  cr_assert_eq(error_count(), 1);
}

Test(parse, expected_an_expression) {
  const char *out = errors_of("action a {\n  x = ;\n}\n");
  cr_assert_str_eq(out, "t.mc:2:7: error: expected an expression\n"
                        "   2 |   x = ;\n"
                        "     |       ^\n");
}

Test(parse, expected_a_type) {
  const char *out = errors_of("var x: ;\n");
  cr_assert_str_eq(out, "t.mc:1:8: error: expected a type\n"
                        "   1 | var x: ;\n"
                        "     |        ^\n");
  assert_has(errors_of("var x: 5;"), "error: expected '..' (a range type is written 'LO..HI')");
}

Test(parse, expected_a_declaration) {
  const char *out = errors_of("x = 1;\nconst N = 1;\n");
  assert_has(out, "t.mc:1:1: error: expected a declaration (const, type, var, fn, init, "
                  "action, invariant, ");
  cr_assert_eq(error_count(), 1);
}

Test(parse, unclosed_brace_notes_the_opener) {
  const char *out = errors_of("action a {\n  x = 1;\n\naction b { }\n");
  cr_assert_str_eq(out, "t.mc:4:1: error: expected '}'\n"
                        "   4 | action b { }\n"
                        "     | ^~~~~~\n"
                        "t.mc:1:10: note: to match this '{'\n"
                        "   1 | action a {\n"
                        "     |          ^\n");
}

Test(parse, unclosed_paren_and_bracket_note_the_opener) {
  const char *out = errors_of("const X = f(a, b;\nconst Y = a[1;\nconst Z = (1 + 2;\n");
  assert_has(out, "t.mc:1:17: error: expected ')'\n");
  assert_has(out, "t.mc:1:12: note: to match this '('\n");
  assert_has(out, "t.mc:2:14: error: expected ']'\n");
  assert_has(out, "t.mc:2:12: note: to match this '['\n");
  assert_has(out, "t.mc:3:17: error: expected ')'\n");
  assert_has(out, "t.mc:3:11: note: to match this '('\n");
  cr_assert_eq(error_count(), 3);
}

Test(parse, truncated_file_reports_end_of_file) {
  const char *out = errors_of("action a {\n  if x {\n    y = 1;\n");
  cr_assert_str_eq(out, "t.mc:3:11: error: unexpected end of file: expected '}'\n"
                        "   3 |     y = 1;\n"
                        "     |           ^\n"
                        "t.mc:2:8: note: to match this '{'\n"
                        "   2 |   if x {\n"
                        "     |        ^\n");
  cr_assert_eq(error_count(), 1);
  assert_has(errors_of("const X = "), "unexpected end of file: expected an expression");
  assert_has(errors_of("type T = "), "unexpected end of file: expected a type");
}

Test(parse, every_prefix_of_a_spec_terminates) {
  const char *text = "model m; const N = 2; type P = scalarset(N); type R = record { a: bool; b: "
                     "0..N }; var s: multiset<R, 3>; var q: [P] queue<0..3, 2>?;\n"
                     "fn f(x: P): bool { let y = x; return y == x; }\n"
                     "init { for p: P { q[p] = none; } }\n"
                     "action go(p: P) when forall r in s :: r.a { s.add(R { a: true, b: 1 }); "
                     "if p == p { } else if q[p].len() > 0 { var z: bool = !f(p); } }\n"
                     "invariant i: count r in s :: r.b > 0 -> true;\n"
                     "property l: forall p: P :: []<> q[p] != none;\n"
                     "fair strong (go | go), go;\n";
  size_t n = strlen(text);
  for (size_t i = 0; i <= n; i++) {
    char *prefix = xstrndup(text, i);
    parse_src(prefix);
    fclose(diag_out);
    cap_buf = NULL;
  }
  int before = error_count(); // counts over the whole process
  parse_src(text);
  cr_assert_eq(error_count(), before, "%s", captured());
}

Test(parse, several_errors_in_one_run) {
  const char *out = errors_of("model m;\n"
                              "const N = 3\n"
                              "type T = scalarset(N);\n"
                              "action foo(p: T) {\n"
                              "  x = busy\n"
                              "  y = ;\n"
                              "  q.push(3)\n"
                              "  if x == { z = 1; }\n"
                              "  w = 1;\n"
                              "  f(1;\n"
                              "}\n"
                              "invariant ok x == 1;\n"
                              "var v: bool;\n");
  cr_assert_eq(error_count(), 7, "%s", out);
  assert_has(out, "t.mc:2:12: error: expected ';' after the constant's value\n");
  assert_has(out, "t.mc:5:11: error: expected ';' after the assignment\n");
  assert_has(out, "t.mc:6:7: error: expected an expression\n");
  assert_has(out, "t.mc:7:12: error: expected ';' after the method call\n");
  assert_has(out, "t.mc:8:11: error: expected an expression\n");
  assert_has(out, "t.mc:10:6: error: expected ')'\n");
  assert_has(out, "t.mc:12:14: error: expected ':' after the invariant's name\n");
  assert_has(out, "  hint: it is written 'invariant NAME: EXPR;'\n");
}

Test(parse, recovery_keeps_later_declarations) {
  Program *p = parse_src("const A = ;\n"
                         "action a { x = = 1; y = 2; }\n"
                         "var 3: bool;\n"
                         "const C = 1;\n"
                         "garbage here ) ] }\n"
                         "const B = 2;\n");
  const char *out = captured();
  cr_assert_eq(error_count(), 4, "%s", out);
  assert_has(out, "t.mc:3:5: error: expected the variable's name\n");
  assert_has(out, "t.mc:5:1: error: expected a declaration");
  Decl *last = decl_at(p, p->decls.len - 1);
  cr_assert_eq(last->kind, DK_CONST);
  cr_assert_str_eq(last->name->str, "B");
  Decl *a = decl_at(p, 1);
  cr_assert_eq(a->kind, DK_ACTION);
  // The statement after the bad one survives (the bad one keeps a
  // placeholder for its missing expression).
  cr_assert_str_eq(sx(a->body), "{ (= x 0) (= y 2) }");
}

Test(parse, statement_errors) {
  assert_has(errors_of("action a { f(x); }"),
             "error: this is not a statement: expected an assignment or a method call");
  assert_has(errors_of("action a { x == 1; }"), "error: expected '=' in an assignment, not '=='");
  assert_has(errors_of("action a { x y; }"), "error: expected '=' after the assignment target");
  assert_has(errors_of("action a { + 1; }"), "t.mc:1:12: error: expected a statement");
  assert_has(errors_of("action a { else { } }"), "error: 'else' without a matching 'if'");
  assert_has(errors_of("action a { var x: bool; }"), "error: expected '=' and an initial value");
  assert_has(errors_of("action a { assert x, y; }"),
             "error: expected a string: the message of the assert");
  assert_has(errors_of("const X = \"s\";"), "error: a string can only be the message of an assert");
}

Test(parse, declaration_errors) {
  assert_has(errors_of("var set: bool;"),
             "t.mc:1:5: error: 'set' is a reserved word and cannot be the variable's name");
  assert_has(errors_of("var x: bool = true;"), "error: a state variable has no initializer");
  assert_has(errors_of("fair x;"), "error: expected 'weak' or 'strong' after 'fair'");
  assert_has(errors_of("property p: x;"), "error: expected '~>' or a temporal operator");
  assert_has(errors_of("invariant: x;"), "error: expected a name for the invariant");
  assert_has(errors_of("action a(p Proc) { }"), "error: expected ':' or 'in' after 'p'");
  assert_has(errors_of("const X = forall x: T : x;"),
             "error: expected '::' before the body of 'forall'");
  assert_has(errors_of("type T = queue<bool>;"), "error: expected ',' and the capacity of the queue");
  assert_has(errors_of("type T = set<bool;"), "error: expected '>'");
  assert_has(errors_of("const X = a.3;"), "error: expected a field or method name after '.'");
  assert_has(errors_of("const X = a ? b;"), "error: expected ':' in the conditional expression");
  const char *out = errors_of("action a { if x = 1 { } }");
  assert_has(out, "t.mc:1:17: error: expected '{'\n");
  assert_has(out, "  hint: to compare, use '=='\n");
}

Test(parse, one_error_for_a_bad_header) {
  Program *p = parse_src("action a(p Proc) when x { y = 1; }\nconst B = 1;");
  cr_assert_eq(error_count(), 1, "%s", captured());
  cr_assert_eq(p->decls.len, 2);
}

Test(parse, garbage_input_never_crashes) {
  srand(11);
  const char *pieces[] = {"action", "a", "{", "}", "(", ")", "[", "]", "<", ">", ";", ":",
                          "::", "=", "==", "forall", "if", "else", "x", "1", ",", "?", "->",
                          "record", "set", "var", "type", "\"s\"", ".", "..", "|", "fair",
                          "count", "init", "when", "~>", "!", "-", "enum", "queue"};
  int np = sizeof pieces / sizeof *pieces;
  for (int round = 0; round < 300; round++) {
    Buf b = {0};
    int n = rand() % 80;
    for (int i = 0; i < n; i++)
      buf_printf(&b, "%s ", pieces[rand() % np]);
    buf_puts(&b, "");
    parse_src(b.data);
    fclose(diag_out);
    cap_buf = NULL;
  }
  for (int round = 0; round < 50; round++) {
    size_t n = (size_t)(rand() % 3000);
    char *text = xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++)
      text[i] = (char)(1 + rand() % 255);
    parse_src(text);
    fclose(diag_out);
    cap_buf = NULL;
  }
}

//
// Limits
//

static char *repeat(const char *s, int n) {
  Buf b = {0};
  buf_puts(&b, "");
  for (int i = 0; i < n; i++)
    buf_puts(&b, s);
  return b.data;
}

Test(parse, moderate_nesting_is_fine) {
  Program *p = parse_src(format("const X = %s1%s;\ntype T = %sbool;\n", repeat("(", 400),
                                repeat(")", 400), repeat("[bool] ", 400)));
  cr_assert_eq(error_count(), 0, "%s", captured());
  cr_assert_eq(p->decls.len, 2);
}

Test(parse, deep_nesting_is_one_error_each) {
  Program *p = parse_src(format("const X = %s1%s;\n"
                                "const Y = %s1;\n"
                                "type T = %sbool;\n"
                                "action a { %s }\n"
                                "const Z = %s;\n"
                                "const OK = 1;\n",
                                repeat("(", 100000), repeat(")", 100000), repeat("!-", 50000),
                                repeat("[bool] ", 20000),
                                format("%s%s", repeat("if x { ", 3000), repeat("} ", 3000)),
                                repeat("forall x: T :: ", 3000)));
  const char *out = captured();
  cr_assert_eq(error_count(), 5, "%s", out);
  cr_assert_eq(strstr(out, "error: nested too deeply (more than 512 levels)") != NULL, 1);
  Decl *last = decl_at(p, p->decls.len - 1);
  cr_assert_str_eq(last->name->str, "OK");
}

Test(parse, long_flat_chains) {
  Program *p = parse_src(format("const X = 1%s;\nconst Y = a%s;\nconst Z = a%s;\n",
                                repeat(" + 1", 20000), repeat(" -> a", 20000),
                                repeat(" ? b : a", 20000)));
  cr_assert_eq(error_count(), 0, "%s", captured());
  Node *y = decl_at(p, 1)->expr;
  for (int i = 0; i < 20000; i++)
    y = y->rhs;
  cr_assert_eq(y->kind, ND_IDENT);
  Node *z = decl_at(p, 2)->expr;
  for (int i = 0; i < 20000; i++)
    z = z->els;
  cr_assert_eq(z->kind, ND_IDENT);
}

Test(parse, ten_thousand_actions_parse_quickly) {
  Buf b = {0};
  buf_puts(&b, "model big; type Proc = scalarset(3); var pc: [Proc] enum { idle, busy };\n");
  for (int i = 0; i < 10000; i++)
    buf_printf(&b,
               "action a%d(p: Proc) when pc[p] == idle && forall q: Proc :: q == p || "
               "pc[q] != busy { pc[p] = busy; if p == p { pc[p] = idle; } else { pc[p] = "
               "busy; } }\n",
               i);
  clock_t start = clock();
  Program *p = parse_src(b.data);
  double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
  cr_assert_eq(error_count(), 0);
  cr_assert_eq(p->decls.len, 10003);
  // Generous for sanitizer builds on slow machines; -O2 takes a fraction.
  cr_assert_lt(secs, 5.0, "took %.2f s", secs);
}
