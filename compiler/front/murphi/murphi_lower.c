// SPDX-License-Identifier: MIT
// murphi_lower.c: the Murphi front end's last part. Resolves the names of
// the tree that murphi_parse.c builds, in Murphi's order (a name is known
// from its declaration on; an inner name hides an outer one), infers the
// Murphi type of every expression, and lowers the model to the same
// Program/Decl/Node tree that parse.c builds from a .mc spec, so that check,
// layout and emit never learn which language the model came from.
//
// Lowering:
// - Undefined values. Every scalar a Murphi model stores (a variable, an
//   array element, a record field, a local) may be undefined, and starts so.
//   It is lowered to the optional `T?`, undefined being `none`; arrays and
//   records hold optional leaves. The Program is marked `none_undefined`,
//   which makes emit.c treat a read of `none` anywhere but in
//   `isundefined(x)` (lowered to `x == none`) as the run-time error "read
//   of an undefined value", as Rumur and CMurphi do. Whole arrays and
//   records, and values passed to value parameters (`x == none ? none :
//   x`), are copied as they are, undefined parts included, as Rumur copies
//   them. Types used as indices, parameters and quantifier ranges stay
//   plain. `loop_order_free` and `range_checks_at_run_time` give Murphi's
//   loops and constant range errors their meaning (mcgen.h).
// - Rules in rulesets become actions whose parameters are the rulesets'
//   quantifiers, outermost first; start states become init blocks, the same
//   way. Invariants stay invariants, `cover` is `reachable`, a top-level
//   `assume` a constraint that also guards every invariant and cover.
// - Aliases, `var` parameters and constants of a type other than an integer
//   or a bool are substituted: the name stands for a copy of its
//   expression. A function that writes nothing but its locals is a .mc fn;
//   procedures, and functions that write, are inlined at each call: their
//   value parameters and locals become fresh locals of the caller, and a
//   `return` sets a local `returned` that guards what follows it.
// - Every local name (parameter, quantifier, loop variable, local variable)
//   is renamed to a fresh one where it would hide another name, which .mc
//   forbids.
// - `for i := lo to hi by s` is a loop over 0..(hi-lo)/s with i standing
//   for lo + k*s; `while` is ND_WHILE; `switch` an if-chain; `error` an
//   assertion that fails; `undefine` an assignment of none (of a fresh
//   all-undefined local for a whole array or record); `clear` assigns each
//   scalar its type's first value. A multiset of scalars is a .mc multiset;
//   its indices stand for its distinct elements (see "Multisets" below).
// - What has no lowering is refused, naming the construct: union types,
//   multisets of arrays or records, liveness, `assume` and `cover` as
//   statements, recursion, loops and ranges with bounds that are not
//   constant, a writing function's call inside an expression.
#include <setjmp.h>

#include "murphi.h"

static const SrcFile *src;
static Program *prog;
// Names: every top-level name (the model's, then the generated ones) is in
// `names`; the locals of the top-level item being lowered are in `locals`,
// every local ever named in `all_locals`. A local is renamed only where it
// would hide a top-level name or another local of its item (which .mc
// forbids); a generated top-level name avoids every local.
static StrSet names, locals, all_locals;

// A token standing for a generated name at the Murphi location `at`.
static Token *synth(const Token *at, const char *text) {
  return name_token(src, at ? at->line : 0, at ? at->col : 0, text);
}

// `base`, or the first of base_2, base_3, ... that is in neither set.
static const char *fresh_in(StrSet *a, StrSet *b, const char *base) {
  const char *name = base;
  for (int k = 2; strset_has(a, name) || strset_has(b, name); k++)
    name = format("%s_%d", base, k);
  return name;
}

// A fresh top-level name.
static const char *top_name(const char *base) {
  const char *name = fresh_in(&names, &all_locals, base);
  strset_add(&names, name);
  return name;
}

// A fresh local name.
static const char *local_name(const char *base) {
  const char *name = fresh_in(&names, &locals, base);
  strset_add(&locals, name);
  strset_add(&all_locals, name);
  return name;
}

// A token for a local named `tok`: itself if its name is free.
static Token *local_token(Token *tok) {
  const char *name = local_name(tok->str);
  return strcmp(name, tok->str) ? synth(tok, name) : tok;
}

//
// Scopes.
//

typedef enum {
  SYM_CONST,   // an integer or bool constant: decl
  SYM_SUBST,   // an alias, a `var` parameter, another constant: a copy of expr
  SYM_TYPE,    // type: the Murphi type; lowered: its .mc name
  SYM_VAR,     // a state variable
  SYM_LOCAL,   // a local, parameter or binder: renamed
  SYM_MEMBER,  // an enum member
  SYM_FUNCTION,// decl
  SYM_BROKEN,  // a declaration that had an error: its uses fail silently
  SYM_CHOOSE,  // a multiset's index (choose, multisetcount, ...): m[i] is the
               // element bound to tok, expr the multiset
} SymKind;

typedef struct Sym {
  SymKind kind;
  const char *name;  // the Murphi name
  Token *tok;        // the .mc name's token (renamed locals), or where declared
  Type *type;        // the Murphi type of its value (resolved), or the type itself
  Node *expr;        // SYM_SUBST: the lowered expression; SYM_CONST: its value
  MDecl *decl;       // SYM_FUNCTION
  bool scalar_type;  // SYM_TYPE: a bool, range, enum or scalarset
  bool writes;       // SYM_FUNCTION: writes the state or a var parameter (inlined)
  bool constant;     // SYM_SUBST: a constant's value
  bool plain;        // SYM_LOCAL: a quantifier's or ruleset's binder (never undefined)
  struct Sym *next;
} Sym;

static Sym *scope;   // innermost first

// The lowered names that are never undefined (a binder, a constant, an enum
// member), by node, copies included: a value parameter passes them as they
// are (pass_value).
static StrSet plain_nodes;

static const char *node_key(Node *n) { return format("%p", (void *)n); }
static Vec inlining; // MDecl*: the procedures and functions being inlined
static bool in_function;    // lowering a function's body (a .mc fn): `return e` stays
static Node *inline_result; // inlining a function that writes: where its value goes

static Sym *declare(SymKind kind, const char *name, Token *tok, Type *type) {
  Sym *s = xcalloc(1, sizeof *s);
  s->kind = kind;
  s->name = name;
  s->tok = tok;
  s->type = type;
  s->next = scope;
  scope = s;
  return s;
}

static Sym *lookup(const char *name) {
  for (Sym *s = scope; s; s = s->next)
    if (!strcmp(s->name, name))
      return s;
  return NULL;
}

// The nearest name in scope, for a hint.
static void suggest(const char *name) {
  Vec cands = {0};
  for (Sym *s = scope; s; s = s->next)
    vec_push(&cands, (void *)s->name);
  const char *best = closest_name(name, (const char *const *)cands.data, cands.len);
  if (best)
    hint("did you mean '%s'?", best);
}

//
// Refusals and errors. Lowering of one declaration stops at its first
// error: the next declaration is lowered on.
//

static jmp_buf decl_fail;

static _Noreturn void fail(void) {
  longjmp(decl_fail, 1);
}

static _Noreturn void refuse(Token *at, const char *what, const char *why) {
  error_at(at, "%s: not supported by mcgen's Murphi front end", what);
  if (why)
    hint("%s", why);
  fail();
}

//
// Nodes and types.
//


static Node *ident_node(Token *name) {
  Node *n = murphi_node(ND_IDENT, name);
  n->name = name;
  return n;
}

static Node *num_node(Token *at, int64_t v) {
  Node *n = murphi_node(ND_NUM, at);
  n->val = v;
  return n;
}


static Node *block_of(Vec *stmts, Token *at) {
  Node *b = murphi_node(ND_BLOCK, at);
  b->args = *stmts;
  return b;
}


static Type ty_int_m = {.kind = TY_INT}, ty_bool_m = {.kind = TY_BOOL};

static Node *clone(Node *n);

static Type *clone_type(Type *t) {
  if (!t)
    return NULL;
  Type *c = xcalloc(1, sizeof *c);
  *c = *t;
  c->lo_expr = clone(t->lo_expr);
  c->hi_expr = clone(t->hi_expr);
  c->size_expr = clone(t->size_expr);
  c->cap_expr = clone(t->cap_expr);
  c->base = clone_type(t->base);
  c->index = clone_type(t->index);
  if (t->fields) {
    c->fields = xcalloc((size_t)t->nfields, sizeof *c->fields);
    for (int i = 0; i < t->nfields; i++) {
      c->fields[i] = xcalloc(1, sizeof **c->fields);
      *c->fields[i] = *t->fields[i];
      c->fields[i]->type = clone_type(t->fields[i]->type);
    }
  }
  return c;
}

// A deep copy of a lowered expression (a substituted name stands for a
// copy: check.c annotates every node once).
static Node *clone(Node *n) {
  if (!n)
    return NULL;
  Node *c = xcalloc(1, sizeof *c);
  *c = *n;
  c->ty = NULL;
  if (strset_has(&plain_nodes, node_key(n)))
    strset_add(&plain_nodes, node_key(c));
  c->lhs = clone(n->lhs), c->rhs = clone(n->rhs), c->cond = clone(n->cond);
  c->then = clone(n->then), c->els = clone(n->els), c->body = clone(n->body);
  c->args = (Vec){0};
  for (int i = 0; i < n->args.len; i++)
    vec_push(&c->args, clone(n->args.data[i]));
  c->binders = (Vec){0};
  for (int i = 0; i < n->binders.len; i++) {
    Binder *b = xcalloc(1, sizeof *b);
    *b = *(Binder *)n->binders.data[i];
    b->type = clone_type(b->type);
    b->in_expr = clone(b->in_expr);
    vec_push(&c->binders, b);
  }
  return c;
}

//
// Murphi types: resolution and lowering.
//

static bool is_scalar_m(const Type *t) {
  return t->kind == TY_BOOL || t->kind == TY_RANGE || t->kind == TY_ENUM ||
         t->kind == TY_SCALARSET || t->kind == TY_INT;
}

static bool is_intlike_m(const Type *t) {
  return t->kind == TY_RANGE || t->kind == TY_INT;
}

// The type a name stands for (reported when there is none).
static Sym *type_sym(Token *ref) {
  Sym *s = lookup(ref->str);
  if (s && s->kind == SYM_BROKEN)
    fail();
  if (!s || s->kind != SYM_TYPE) {
    error_at(ref, s ? "'%s' is not a type" : "unknown type '%s'", ref->str);
    if (!s)
      suggest(ref->str);
    fail();
  }
  return s;
}

// Follows named types to the Murphi type they stand for.
static Type *mresolve(Type *t) {
  while (t && t->kind == TY_NAMED)
    t = type_sym(t->ref)->type;
  return t;
}

static Node *lower_expr(Node *e);
static bool is_constant(Node *e);

// A hoisted type: an enum or scalarset written in place, where .mc wants a
// named type (so that it is one type however often it is lowered).
typedef struct Hoisted {
  Type *murphi;
  Token *name;
  struct Hoisted *next;
} Hoisted;
static Hoisted *hoisted;

static Type *lower_type(Type *t, bool leaf);

static Token *hoist(Type *t) {
  for (Hoisted *h = hoisted; h; h = h->next)
    if (h->murphi == t)
      return h->name;
  Hoisted *h = xcalloc(1, sizeof *h);
  h->murphi = t;
  h->name = synth(t->tok, top_name(t->kind == TY_ENUM ? "enum" : "scalarset"));
  h->next = hoisted;
  hoisted = h;
  Decl *d = xcalloc(1, sizeof *d);
  d->kind = DK_TYPE;
  d->tok = t->tok;
  d->name = h->name;
  d->type = lower_type(t, false);
  vec_push(&prog->decls, d);
  return h->name;
}

// Declares the members of an enum written anywhere (they are constants of
// the scope it is written in).
static void declare_members(Type *t) {
  for (int i = 0; i < t->members.len; i++) {
    Token *m = t->members.data[i];
    declare(SYM_MEMBER, m->str, m, t);
  }
}

static Type *optional(Type *t, bool leaf) {
  if (!leaf)
    return t;
  Type *o = murphi_type(TY_OPTIONAL, t->tok);
  o->base = t;
  return o;
}

// The .mc type of a Murphi type: scalars optional where `leaf` (they may
// be undefined), plain as indices and ranges of parameters.
static Type *lower_type(Type *t, bool leaf) {
  switch (t->kind) {
  case TY_NAMED: {
    Sym *s = type_sym(t->ref);
    Type *n = murphi_type(TY_NAMED, t->tok);
    n->ref = s->tok;
    return optional(n, leaf && s->scalar_type);
  }
  case TY_BOOL:
    return optional(murphi_type(TY_BOOL, t->tok), leaf);
  case TY_RANGE: {
    if (!is_constant(t->lo_expr) || !is_constant(t->hi_expr))
      refuse(t->tok, "a range whose bounds are not constant expressions (Rumur folds 0 * f() "
                     "to 0)", NULL);
    Type *r = murphi_type(TY_RANGE, t->tok);
    r->lo_expr = lower_expr(t->lo_expr);
    r->hi_expr = lower_expr(t->hi_expr);
    return optional(r, leaf);
  }
  case TY_ENUM:
  case TY_SCALARSET: {
    if (leaf || t->name == NULL) {
      // In place: named once (hoist() comes back here with the name set).
      if (!t->name) {
        t->name = "";
        if (t->kind == TY_ENUM)
          declare_members(t);
        Token *name = hoist(t);
        Type *n = murphi_type(TY_NAMED, t->tok);
        n->ref = name;
        return optional(n, leaf);
      }
    }
    Type *c = murphi_type(t->kind, t->tok);
    c->members = t->members;
    c->size_expr = t->size_expr ? lower_expr(t->size_expr) : NULL;
    return optional(c, leaf);
  }
  case TY_ARRAY: {
    Type *a = murphi_type(TY_ARRAY, t->tok);
    a->index = lower_type(t->index, false);
    a->base = lower_type(t->base, true);
    return a;
  }
  case TY_RECORD: {
    Type *r = murphi_type(TY_RECORD, t->tok);
    r->nfields = t->nfields;
    r->fields = xcalloc((size_t)t->nfields, sizeof *r->fields);
    for (int i = 0; i < t->nfields; i++) {
      r->fields[i] = xcalloc(1, sizeof **r->fields);
      r->fields[i]->name = t->fields[i]->name;
      r->fields[i]->type = lower_type(t->fields[i]->type, true);
    }
    return r;
  }
  case TY_MULTISET: {
    if (!is_scalar_m(mresolve(t->base)))
      refuse(t->tok, "a multiset of arrays or records", "hold a scalar, or use an array");
    if (!is_constant(t->cap_expr))
      refuse(t->tok, "a multiset whose size is not constant", NULL);
    Type *m = murphi_type(TY_MULTISET, t->tok);
    m->base = lower_type(t->base, false);
    m->cap_expr = lower_expr(t->cap_expr);
    return m;
  }
  case TY_ERROR:
    refuse(t->tok, "union types", NULL);
  default:
    unreachable();
  }
}

// Resolves a Murphi type's names (in place: they name Murphi types) and
// returns it resolved, checking that an index is a scalar.
static Type *check_mtype(Type *t) {
  Type *r = mresolve(t);
  if (r->kind == TY_ARRAY) {
    Type *ix = mresolve(r->index);
    if (!is_scalar_m(ix)) {
      error_at(r->index->tok, "an array index must be a boolean, a range, an enum or a scalarset");
      fail();
    }
    check_mtype(r->base);
  } else if (r->kind == TY_RECORD) {
    for (int i = 0; i < r->nfields; i++)
      check_mtype(r->fields[i]->type);
  } else if (r->kind == TY_MULTISET) {
    check_mtype(r->base);
  }
  return r;
}

//
// Expressions. Each lowered node carries its Murphi type in `ty` until
// the end of lowering (check.c sets its own).
//

static Vec typed_nodes; // every node given a Murphi type, cleared at the end

static Node *typed(Node *n, Type *t) {
  n->ty = t;
  vec_push(&typed_nodes, n);
  return n;
}

static Type *mtype(Node *n) {
  return n->ty;
}

static const char *mtype_name(Type *t) {
  switch (t->kind) {
  case TY_BOOL: return "boolean";
  case TY_RANGE: case TY_INT: return "an integer";
  case TY_ENUM: return "an enum";
  case TY_SCALARSET: return "a scalarset";
  case TY_ARRAY: return "an array";
  case TY_RECORD: return "a record";
  default: return "a value";
  }
}

static void expect_mtype(Node *n, bool (*ok)(const Type *), const char *what) {
  if (!ok(mtype(n))) {
    error_at(n->tok, "expected %s, found %s", what, mtype_name(mtype(n)));
    fail();
  }
}

static bool is_bool_m(const Type *t) { return t->kind == TY_BOOL; }

static Node *lower_designator_ident(Node *e) {
  Sym *s = lookup(e->name->str);
  if (!s) {
    error_at(e->tok, "unknown name '%s'", e->name->str);
    suggest(e->name->str);
    fail();
  }
  switch (s->kind) {
  case SYM_BROKEN:
    fail();
  case SYM_CHOOSE:
    refuse(e->tok, "a multiset index used other than as m[i]", NULL);
  case SYM_SUBST:
    return typed(clone(s->expr), s->type);
  case SYM_TYPE:
  case SYM_FUNCTION:
    error_at(e->tok, "'%s' is a %s, not a value", s->name,
             s->kind == SYM_TYPE ? "type" : s->decl->type ? "function" : "procedure");
    fail();
  default: {
    // The .mc name, at the place of use.
    Token *at = strcmp(s->tok->str, e->name->str) ? synth(e->name, s->tok->str) : e->name;
    Node *n = typed(ident_node(at), s->type);
    if (s->kind != SYM_VAR && (s->kind != SYM_LOCAL || s->plain))
      strset_add(&plain_nodes, node_key(n));
    return n;
  }
  }
}

// Pushes a quantifier's binder; returns it lowered (the scope grows by one).
static Binder *lower_choose_binder(Binder *b);

static Binder *lower_binder(Binder *b) {
  if (b->in_expr)
    return lower_choose_binder(b);
  Binder *l = xcalloc(1, sizeof *l);
  Type *mt = check_mtype(b->type);
  if (!is_scalar_m(mt)) {
    error_at(b->type->tok, "a quantifier ranges over a boolean, a range, an enum or a scalarset");
    fail();
  }
  l->type = lower_type(b->type, false);
  l->name = local_token(b->name);
  declare(SYM_LOCAL, b->name->str, l->name, mt)->plain = true;
  return l;
}

// Whether a Murphi expression is constant: numbers, booleans, constants,
// enum members, and operators over them.
static bool is_constant(Node *e) {
  switch (e->kind) {
  case ND_NUM:
  case ND_BOOL:
    return true;
  case ND_IDENT: {
    Sym *s = lookup(e->name->str);
    return s && (s->kind == SYM_CONST || s->kind == SYM_MEMBER ||
                 (s->kind == SYM_SUBST && s->constant));
  }
  case ND_UNARY:
    return is_constant(e->lhs);
  case ND_BINARY:
    return is_constant(e->lhs) && is_constant(e->rhs);
  case ND_COND:
    return is_constant(e->cond) && is_constant(e->then) && is_constant(e->els);
  default:
    return false;
  }
}

static void expect_constant(Node *e, const char *what) {
  if (!is_constant(e)) {
    error_at(e->tok, "%s must be a constant expression", what);
    fail();
  }
}

// `name := lo to hi by step`: a binder k over 0..(hi-lo)/step, and `name`
// standing for lo + k*step. Returns the binder; the scope grows by one.
static Binder *lower_step_binder(Binder *b, Node *lo, Node *hi, Node *step) {
  if (!is_constant(lo) || !is_constant(hi) || (step && !is_constant(step)))
    refuse(b->name, "a loop whose bounds or step are not constant", NULL);
  Node *l = lower_expr(lo), *h = lower_expr(hi);
  Node *s = step ? lower_expr(step) : num_node(b->name, 1);
  if (s->kind == ND_NUM && s->val == 0) {
    error_at(step->tok, "a loop's step cannot be 0");
    fail();
  }
  Binder *k = xcalloc(1, sizeof *k);
  k->name = synth(b->name, local_name(format("%s_step", b->name->str)));
  Type *r = murphi_type(TY_RANGE, b->name);
  r->lo_expr = num_node(b->name, 0);
  r->hi_expr = new_binary(OP_DIV, new_binary(OP_SUB, clone(h), clone(l), b->name), clone(s), b->name);
  k->type = r;
  Node *value = new_binary(OP_ADD, clone(l), new_binary(OP_MUL, ident_node(k->name), clone(s), b->name),
                       b->name);
  Sym *sym = declare(SYM_SUBST, b->name->str, b->name, &ty_int_m);
  sym->expr = value;
  return k;
}

static Node *lower_call(Node *e);

//
// Multisets: CMurphi's slots are lowered to a .mc multiset of the element
// type; an index bound by choose, multisetcount or multisetremovepred
// stands for an element (one binding per distinct element: CMurphi fires a
// rule once per occupied slot, so duplicates fire once here), m[i] is that
// element, multisetremove(i, m) removes one occurrence of it.
//

// The symbol of a multiset index written at `e` (reported if it is not one).
static Sym *multiset_index(Node *e) {
  Sym *s = e->kind == ND_IDENT ? lookup(e->name->str) : NULL;
  if (!s || s->kind != SYM_CHOOSE)
    refuse(e->tok, "a multiset indexed by anything but a choose, multisetcount or "
                   "multisetremovepred index", NULL);
  return s;
}

// m[i]: the element bound to i.
static Node *multiset_element(Node *e) {
  Sym *s = multiset_index(e->rhs);
  Node *n = typed(ident_node(synth(e->tok, s->tok->str)), s->type);
  strset_add(&plain_nodes, node_key(n));
  return n;
}

// Declares the index `b->name` over the multiset `b->in_expr`; returns the
// .mc binder `x in m` of its element.
static Binder *lower_choose_binder(Binder *b) {
  Node *m = lower_expr(b->in_expr);
  if (mtype(m)->kind != TY_MULTISET) {
    error_at(b->in_expr->tok, "expected a multiset, found %s", mtype_name(mtype(m)));
    fail();
  }
  Binder *l = xcalloc(1, sizeof *l);
  l->name = local_token(b->name);
  l->in_expr = m;
  Sym *s = declare(SYM_CHOOSE, b->name->str, l->name, mresolve(mtype(m)->base));
  s->expr = m;
  return l;
}

// coll.name(arg) as a statement.
static Node *method_stmt(Token *at, Node *coll, const char *name, Node *arg) {
  Node *m = murphi_node(ND_METHOD, at);
  m->name = synth(at, name);
  m->lhs = coll;
  if (arg)
    vec_push(&m->args, arg);
  Node *st = murphi_node(ND_EXPR_STMT, at);
  st->lhs = m;
  return st;
}

// coll.count(x), an expression.
static Node *count_of(Token *at, Node *coll, Node *x) {
  Node *m = murphi_node(ND_METHOD, at);
  m->name = synth(at, "count");
  m->lhs = coll;
  vec_push(&m->args, x);
  return typed(m, &ty_int_m);
}

// multisetcount(i: m; pred): the occurrences of the elements where pred
// holds, `sum x in m :: pred ? m.count(x) : 0`.
static Node *lower_multisetcount(Node *e) {
  Sym *mark = scope;
  Node *q = murphi_node(ND_QUANT, e->tok);
  q->op = OP_SUM;
  Binder *b = lower_choose_binder(e->binders.data[0]);
  vec_push(&q->binders, b);
  Node *c = murphi_node(ND_COND, e->tok);
  c->cond = lower_expr(e->cond);
  expect_mtype(c->cond, is_bool_m, "a boolean");
  c->then = count_of(e->tok, clone(b->in_expr), ident_node(b->name));
  c->els = num_node(e->tok, 0);
  q->body = c;
  scope = mark;
  return typed(q, &ty_int_m);
}

static bool is_designator(Node *n) {
  return n->kind == ND_IDENT || n->kind == ND_INDEX || n->kind == ND_FIELD;
}

// A value passed to a value parameter: Rumur copies it as it is, undefined
// or not, so a scalar is passed as `x == none ? none : x` (which emit.c
// copies without a read check).
static Node *pass_value(Node *arg) {
  if (!is_scalar_m(mtype(arg)) || !is_designator(arg) || strset_has(&plain_nodes, node_key(arg)))
    return arg;
  Node *c = murphi_node(ND_COND, arg->tok);
  c->cond = new_binary(OP_EQ, clone(arg), murphi_node(ND_NONE, arg->tok), arg->tok);
  c->then = murphi_node(ND_NONE, arg->tok);
  c->els = arg;
  return typed(c, mtype(arg));
}

static Node *lower_binary(Node *e) {
  Node *l = lower_expr(e->lhs), *r = lower_expr(e->rhs);
  Op op = e->op;
  Type *lt = mtype(l), *rt = mtype(r);
  switch (op) {
  case OP_AND:
  case OP_OR:
    if (is_intlike_m(lt) && is_intlike_m(rt))
      op = op == OP_AND ? OP_BAND : OP_BOR; // Rumur: & and | on integers are bitwise
    else {
      expect_mtype(l, is_bool_m, "a boolean");
      expect_mtype(r, is_bool_m, "a boolean");
    }
    break;
  case OP_IMPLIES:
    expect_mtype(l, is_bool_m, "a boolean");
    expect_mtype(r, is_bool_m, "a boolean");
    break;
  case OP_BXOR:
    if (lt->kind == TY_BOOL && rt->kind == TY_BOOL)
      op = OP_NE;
    break;
  default:
    break;
  }
  Node *n = new_binary(op, l, r, e->tok);
  bool logical = op == OP_AND || op == OP_OR || op == OP_IMPLIES || op == OP_NE || op == OP_EQ ||
                 op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
  return typed(n, logical ? &ty_bool_m : &ty_int_m);
}

static Node *lower_quant(Node *e) {
  Sym *mark = scope;
  Node *n = murphi_node(ND_QUANT, e->tok);
  n->op = e->op;
  Binder *b = e->binders.data[0];
  vec_push(&n->binders, (int)e->kind == MND_STEP_QUANT ? lower_step_binder(b, e->lhs, e->rhs, e->cond)
                                                  : lower_binder(b));
  n->body = lower_expr(e->body);
  expect_mtype(n->body, is_bool_m, "a boolean");
  scope = mark;
  return typed(n, &ty_bool_m);
}

static Node *lower_expr(Node *e) {
  switch ((int)e->kind) {
  case ND_NUM:
    return typed(num_node(e->tok, e->val), &ty_int_m);
  case ND_BOOL: {
    Node *n = murphi_node(ND_BOOL, e->tok);
    n->val = e->val;
    return typed(n, &ty_bool_m);
  }
  case ND_IDENT:
    return lower_designator_ident(e);
  case ND_INDEX: {
    Node *a = lower_expr(e->lhs);
    Type *at = mtype(a);
    if (at->kind == TY_MULTISET)
      return multiset_element(e);
    if (at->kind != TY_ARRAY) {
      error_at(e->tok, "only an array can be indexed, not %s", mtype_name(at));
      fail();
    }
    Node *n = murphi_node(ND_INDEX, e->tok);
    n->lhs = a;
    n->rhs = lower_expr(e->rhs);
    return typed(n, mresolve(at->base));
  }
  case ND_FIELD: {
    Node *r = lower_expr(e->lhs);
    Type *rt = mtype(r);
    if (rt->kind != TY_RECORD) {
      error_at(e->tok, "only a record has fields, not %s", mtype_name(rt));
      fail();
    }
    for (int i = 0; i < rt->nfields; i++)
      if (!strcmp(rt->fields[i]->name->str, e->name->str)) {
        Node *n = murphi_node(ND_FIELD, e->tok);
        n->lhs = r;
        n->name = e->name;
        return typed(n, mresolve(rt->fields[i]->type));
      }
    error_at(e->name, "the record has no field '%s'", e->name->str);
    fail();
  }
  case ND_CALL:
    return lower_call(e);
  case ND_BINARY:
    return lower_binary(e);
  case ND_UNARY: {
    Node *n = murphi_node(ND_UNARY, e->tok);
    n->op = e->op;
    n->lhs = lower_expr(e->lhs);
    if (e->op == OP_NOT)
      expect_mtype(n->lhs, is_bool_m, "a boolean");
    return typed(n, e->op == OP_NOT ? &ty_bool_m : &ty_int_m);
  }
  case ND_COND: {
    Node *n = murphi_node(ND_COND, e->tok);
    n->cond = lower_expr(e->cond);
    expect_mtype(n->cond, is_bool_m, "a boolean");
    if (n->cond->kind == ND_BOOL) // `false ? f() : 1` is the constant 1, as Rumur folds it
      return lower_expr(n->cond->val ? e->then : e->els);
    n->then = lower_expr(e->then);
    n->els = lower_expr(e->els);
    return typed(n, mtype(n->then));
  }
  case ND_QUANT:
  case MND_STEP_QUANT:
    return lower_quant(e);
  case MND_ISUNDEF: {
    Node *x = lower_expr(e->lhs);
    if (x->kind != ND_IDENT && x->kind != ND_INDEX && x->kind != ND_FIELD) {
      error_at(e->lhs->tok, "isundefined() takes a variable, an element or a field");
      fail();
    }
    if (!is_scalar_m(mtype(x)))
      refuse(e->tok, "isundefined() of a whole array or record", "test each element");
    return typed(new_binary(OP_EQ, x, murphi_node(ND_NONE, e->tok), e->tok), &ty_bool_m);
  }
  case MND_MSCOUNT:
    return lower_multisetcount(e);
  default:
    die("lower_expr: node kind %d", e->kind);
  }
}

//
// Functions and procedures.
//

static Sym *callee(Node *call) {
  Sym *s = lookup(call->name->str);
  if (s && s->kind == SYM_BROKEN)
    fail();
  if (!s || s->kind != SYM_FUNCTION) {
    error_at(call->name, s ? "'%s' is not a function or procedure" : "unknown function '%s'",
             call->name->str);
    if (!s)
      suggest(call->name->str);
    fail();
  }
  if (call->args.len != s->decl->params.len) {
    error_at(call->tok, "'%s' takes %d argument%s, not %d", call->name->str, s->decl->params.len,
             s->decl->params.len == 1 ? "" : "s", call->args.len);
    fail();
  }
  return s;
}

static MDecl *lowering_fn; // the function whose body is being lowered

static Node *lower_call(Node *e) {
  Sym *s = callee(e);
  if (s->decl == lowering_fn)
    refuse(e->tok, "recursive functions", NULL);
  if (!s->decl->type) {
    error_at(e->tok, "procedure '%s' has no value: call it as a statement", s->name);
    fail();
  }
  if (s->writes)
    refuse(e->tok, format("a call of '%s' (a function that writes the state or a var parameter) "
                          "inside an expression", s->name),
           "assign its value to a variable first: x := f(...)");
  Node *n = murphi_node(ND_CALL, e->tok);
  n->name = s->tok;
  for (int i = 0; i < e->args.len; i++)
    vec_push(&n->args, pass_value(lower_expr(e->args.data[i])));
  return typed(n, mresolve(s->decl->type));
}

//
// Statements. Each appends the lowered statements to `out`.
//

static void lower_stmts(Node *block, Vec *out);
static void lower_stmt(Node *s, Vec *out);

// The local that says a rule, start state or inlined procedure or function
// has met a `return` (NULL outside them, and in a .mc fn, where `return`
// is .mc's own).
static Token *returned;

static bool return_visit(Node *n, void *found) {
  if (n->kind == ND_RETURN)
    *(bool *)found = true;
  return true;
}

static bool contains_return(Node *n) {
  bool found = false;
  walk(n, return_visit, &found);
  return found;
}

static Node *not_returned(Token *at) {
  Node *n = murphi_node(ND_UNARY, at);
  n->op = OP_NOT;
  n->lhs = ident_node(returned);
  return n;
}

static Node *unless_returned(Node *body) {
  Node *g = murphi_node(ND_IF, body->tok);
  g->cond = not_returned(body->tok);
  g->then = body;
  Node *b = murphi_node(ND_BLOCK, body->tok);
  vec_push(&b->args, g);
  return b;
}

// Lowers a body that `return` may leave early: its own `returned` local.
static void lower_returning_body(Node *body, Vec *out) {
  Token *outer = returned;
  if (!contains_return(body)) {
    returned = NULL;
    lower_stmts(body, out);
    returned = outer;
    return;
  }
  Node *flag = murphi_node(ND_VARDECL, body->tok);
  flag->name = synth(body->tok, local_name("returned"));
  flag->decl_type = murphi_type(TY_BOOL, body->tok);
  flag->rhs = murphi_node(ND_BOOL, body->tok);
  vec_push(out, flag);
  returned = flag->name;
  lower_stmts(body, out);
  returned = outer;
}

// A local variable of the Murphi type `mt`, starting undefined.
static Token *new_local(Token *name, Type *mt, Vec *out) {
  Node *d = murphi_node(ND_VARDECL, name);
  d->name = local_token(name);
  d->decl_type = lower_type(mt, true);
  vec_push(out, d);
  return d->name;
}

// The locals of a function, rule or start state: constants and types are
// declared in scope, variables become locals.
static void lower_locals(Vec *locals, Vec *out) {
  for (int i = 0; i < locals->len; i++) {
    MDecl *d = locals->data[i];
    if (d->kind == MD_VAR) {
      Type *mt = check_mtype(d->type);
      declare(SYM_LOCAL, d->name->str, new_local(d->name, d->type, out), mt);
    } else if (d->kind == MD_CONST) {
      expect_constant(d->expr, format("the value of constant '%s'", d->name->str));
      Sym *s = declare(SYM_SUBST, d->name->str, d->name, NULL);
      s->constant = true;
      s->expr = lower_expr(d->expr);
      s->type = mtype(s->expr);
    } else {
      refuse(d->tok, "local type declarations", "declare the type at the top level");
    }
  }
}

static Node *lower_lvalue(Node *e) {
  Node *n = lower_expr(e);
  if (!is_designator(n)) {
    error_at(e->tok, "expected a variable, an element or a field here");
    fail();
  }
  return n;
}

// Inlines a call of a procedure, or of a function that writes (its value
// assigned to `result`): value parameters and locals become fresh locals,
// `var` parameters stand for the argument's location.
static void inline_call(Node *call, Node *result, Vec *out) {
  Sym *s = callee(call);
  MDecl *d = s->decl;
  if (d->type && !result) // the value is ignored: it goes to a local no one reads
    result = ident_node(new_local(synth(call->tok, "ignored"), d->type, out));
  for (int i = 0; i < inlining.len; i++)
    if (inlining.data[i] == d)
      refuse(call->tok, "recursive procedures", NULL);
  Vec args = {0};
  for (int i = 0; i < call->args.len; i++) {
    MParam *p = d->params.data[i];
    vec_push(&args, p->by_ref ? lower_lvalue(call->args.data[i])
                              : pass_value(lower_expr(call->args.data[i])));
  }
  // The body sees the top level and its own names, not the caller's.
  Sym *saved = scope;
  scope = s; // the procedure itself and what was declared before it
  vec_push(&inlining, d);
  for (int i = 0; i < d->params.len; i++) {
    MParam *p = d->params.data[i];
    Node *a = args.data[i];
    Type *mt = check_mtype(p->type);
    if (p->by_ref) {
      Sym *sym = declare(SYM_SUBST, p->name->str, p->name, mt);
      sym->expr = a;
      continue;
    }
    Node *local = murphi_node(ND_VARDECL, p->name);
    local->name = local_token(p->name);
    local->decl_type = lower_type(p->type, true);
    local->rhs = a;
    vec_push(out, local);
    declare(SYM_LOCAL, p->name->str, local->name, mt);
  }
  lower_locals(&d->locals, out);
  Node *outer_result = inline_result;
  bool outer_fn = in_function;
  inline_result = result, in_function = false;
  lower_returning_body(d->body, out);
  inline_result = outer_result, in_function = outer_fn;
  inlining.len--;
  scope = saved;
}

// Assigns each scalar in `x` (of Murphi type mt) its type's first value.
static void clear_value(Node *x, Type *mt, Token *at, Vec *out) {
  Type *t = mresolve(mt);
  if (t->kind == TY_ARRAY) {
    Node *loop = murphi_node(ND_FOR, at);
    Binder *b = xcalloc(1, sizeof *b);
    b->name = synth(at, local_name("clear_index"));
    b->type = lower_type(t->index, false);
    vec_push(&loop->binders, b);
    Node *elem = murphi_node(ND_INDEX, at);
    elem->lhs = clone(x);
    elem->rhs = ident_node(b->name);
    Vec body = {0};
    clear_value(elem, t->base, at, &body);
    loop->body = block_of(&body, at);
    vec_push(out, loop);
    return;
  }
  if (t->kind == TY_RECORD) {
    for (int i = 0; i < t->nfields; i++) {
      Node *f = murphi_node(ND_FIELD, at);
      f->lhs = clone(x);
      f->name = t->fields[i]->name;
      clear_value(f, t->fields[i]->type, at, out);
    }
    return;
  }
  Node *v;
  if (t->kind == TY_BOOL) {
    v = murphi_node(ND_BOOL, at);
  } else if (t->kind == TY_RANGE) {
    v = lower_expr(t->lo_expr);
  } else if (t->kind == TY_ENUM) {
    Token *m = t->members.data[0];
    v = ident_node(m);
  } else {
    refuse(at, "clear of a scalarset", "assign it a value");
  }
  Node *set = murphi_node(ND_ASSIGN, at);
  set->lhs = clone(x);
  set->rhs = v;
  vec_push(out, set);
}

static void lower_undefine(Node *s, Vec *out) {
  Node *x = lower_lvalue(s->lhs);
  Node *set = murphi_node(ND_ASSIGN, s->tok);
  set->lhs = x;
  if (is_scalar_m(mtype(x))) {
    set->rhs = murphi_node(ND_NONE, s->tok);
  } else {
    Token *undef = new_local(synth(s->tok, "undefined"), mtype(x), out);
    set->rhs = ident_node(undef);
  }
  vec_push(out, set);
}

// switch e case a, b: S ... else T end  ->  if e = a | e = b then S elsif ... else T
static void lower_switch(Node *s, Vec *out) {
  if (!is_scalar_m(mtype(lower_expr(s->lhs)))) {
    error_at(s->lhs->tok, "a switch's expression must be a boolean, an integer, an enum or a "
                          "scalarset");
    fail();
  }
  Node *first = NULL, *last = NULL;
  for (int i = 0; i < s->args.len; i++) {
    Node *c = s->args.data[i];
    Node *cond = NULL;
    for (int j = 0; j < c->args.len; j++) {
      Node *eq = new_binary(OP_EQ, s->lhs, c->args.data[j], c->tok);
      cond = cond ? new_binary(OP_OR, cond, eq, c->tok) : eq;
    }
    Node *n = murphi_node(ND_IF, c->tok);
    n->cond = cond;
    n->then = c->body;
    if (last)
      last->els = n;
    else
      first = n;
    last = n;
  }
  if (!first) {
    if (s->els)
      lower_stmts(s->els, out);
    return;
  }
  last->els = s->els;
  lower_stmt(first, out);
}

static Node *lower_block(Node *b) {
  Sym *mark = scope;
  Vec stmts = {0};
  lower_stmts(b, &stmts);
  scope = mark;
  return block_of(&stmts, b->tok);
}

static void lower_for(Node *s, Vec *out) {
  Sym *mark = scope;
  Node *loop = murphi_node(ND_FOR, s->tok);
  Binder *b = s->binders.data[0];
  vec_push(&loop->binders, (int)s->kind == MND_STEP_FOR ? lower_step_binder(b, s->lhs, s->rhs, s->cond)
                                                   : lower_binder(b));
  loop->body = lower_block(s->body);
  if (returned && contains_return(s->body))
    loop->body = unless_returned(loop->body);
  scope = mark;
  vec_push(out, loop);
}

// Declares each alias of an alias statement or rule: its name stands for
// a copy of its expression.
static void declare_aliases(Vec *binders) {
  for (int i = 0; i < binders->len; i++) {
    Binder *b = binders->data[i];
    Node *e = lower_expr(b->in_expr);
    Sym *sym = declare(SYM_SUBST, b->name->str, b->name, mtype(e));
    sym->expr = e;
  }
}

static void lower_alias(Node *s, Vec *out) {
  Sym *mark = scope;
  declare_aliases(&s->binders);
  lower_stmts(s->body, out);
  scope = mark;
}

// multisetremovepred(i: m; pred): every occurrence of the elements where
// pred holds, `for x in m { if pred { while m.count(x) > 0 { m.remove(x) } } }`
// (the loop runs over a copy of m taken before it).
static void lower_multisetremovepred(Node *s, Vec *out) {
  Sym *mark = scope;
  Node *loop = murphi_node(ND_FOR, s->tok);
  Binder *b = lower_choose_binder(s->binders.data[0]);
  vec_push(&loop->binders, b);
  Node *drain = murphi_node(ND_WHILE, s->tok);
  drain->cond = new_binary(OP_GT, count_of(s->tok, clone(b->in_expr), ident_node(b->name)),
                              num_node(s->tok, 0), s->tok);
  Vec one = {0};
  vec_push(&one, method_stmt(s->tok, clone(b->in_expr), "remove", ident_node(b->name)));
  drain->body = block_of(&one, s->tok);
  Node *when = murphi_node(ND_IF, s->tok);
  when->cond = lower_expr(s->cond);
  expect_mtype(when->cond, is_bool_m, "a boolean");
  Vec then = {0};
  vec_push(&then, drain);
  when->then = block_of(&then, s->tok);
  Vec body = {0};
  vec_push(&body, when);
  loop->body = block_of(&body, s->tok);
  vec_push(out, loop);
  scope = mark;
}

static Node *message(Node *str, const char *dflt, Token *at) {
  Node *m = murphi_node(ND_STR, str ? str->tok : at);
  if (!str)
    m->tok = synth(at, dflt), m->tok->str = (char *)dflt;
  return m;
}

static void lower_stmt(Node *s, Vec *out) {
  switch ((int)s->kind) {
  case ND_ASSIGN: {
    Sym *f = s->rhs->kind == ND_CALL ? lookup(s->rhs->name->str) : NULL;
    if (f && f->kind == SYM_FUNCTION && f->writes) {
      inline_call(s->rhs, lower_lvalue(s->lhs), out);
      return;
    }
    Node *n = murphi_node(ND_ASSIGN, s->tok);
    n->lhs = lower_lvalue(s->lhs);
    n->rhs = lower_expr(s->rhs);
    vec_push(out, n);
    return;
  }
  case ND_IF: {
    Node *n = murphi_node(ND_IF, s->tok);
    n->cond = lower_expr(s->cond);
    expect_mtype(n->cond, is_bool_m, "a boolean");
    n->then = lower_block(s->then);
    if (s->els && s->els->kind == ND_IF) {
      Vec one = {0};
      lower_stmt(s->els, &one);
      n->els = one.data[0];
    } else if (s->els) {
      n->els = lower_block(s->els);
    }
    vec_push(out, n);
    return;
  }
  case ND_FOR:
  case MND_STEP_FOR:
    lower_for(s, out);
    return;
  case ND_ASSERT:
  case MND_ERROR: {
    Node *n = murphi_node(ND_ASSERT, s->tok);
    if (s->kind == ND_ASSERT) {
      n->lhs = lower_expr(s->lhs);
      expect_mtype(n->lhs, is_bool_m, "a boolean");
    } else {
      n->lhs = murphi_node(ND_BOOL, s->tok);
    }
    n->rhs = message(s->rhs, s->kind == ND_ASSERT ? "assertion failed" : "error", s->tok);
    vec_push(out, n);
    return;
  }
  case MND_UNDEFINE:
    lower_undefine(s, out);
    return;
  case MND_CLEAR: {
    Node *x = lower_lvalue(s->lhs);
    clear_value(x, mtype(x), s->tok, out);
    return;
  }
  case MND_SWITCH:
    lower_switch(s, out);
    return;
  case MND_ALIAS:
    lower_alias(s, out);
    return;
  case MND_PCALL:
    inline_call(s, NULL, out);
    return;
  case MND_PUT:
    return; // output only: the checker does not print it
  case MND_WHILE: {
    Node *n = murphi_node(ND_WHILE, s->tok);
    n->cond = lower_expr(s->cond);
    expect_mtype(n->cond, is_bool_m, "a boolean");
    n->body = lower_block(s->body);
    if (returned && contains_return(s->body))
      n->body = unless_returned(n->body);
    vec_push(out, n);
    return;
  }
  case MND_ASSUME:
    refuse(s->tok, "assume statements", "write the assumption as a top-level assume");
  case MND_COVER:
    refuse(s->tok, "cover statements", "write the property as a top-level cover");
  case MND_MSADD: {
    Node *m = lower_lvalue(s->rhs);
    if (mtype(m)->kind != TY_MULTISET) {
      error_at(s->rhs->tok, "expected a multiset, found %s", mtype_name(mtype(m)));
      fail();
    }
    vec_push(out, method_stmt(s->tok, m, "add", lower_expr(s->lhs)));
    return;
  }
  case MND_MSREMOVE: {
    Sym *i = multiset_index(s->lhs);
    vec_push(out, method_stmt(s->tok, clone(i->expr), "remove", ident_node(synth(s->tok, i->tok->str))));
    return;
  }
  case MND_MSREMOVEPRED:
    lower_multisetremovepred(s, out);
    return;
  case ND_RETURN:
    if (in_function && s->lhs) {
      Node *r = murphi_node(ND_RETURN, s->tok);
      r->lhs = lower_expr(s->lhs);
      vec_push(out, r);
      return;
    }
    if (!s->lhs != !inline_result) {
      error_at(s->tok, s->lhs ? "a rule or procedure returns no value" : "a function must return a value");
      fail();
    }
    if (s->lhs) {
      Node *set = murphi_node(ND_ASSIGN, s->tok);
      set->lhs = clone(inline_result);
      set->rhs = lower_expr(s->lhs);
      vec_push(out, set);
    }
    Node *done = murphi_node(ND_ASSIGN, s->tok);
    done->lhs = ident_node(returned);
    done->rhs = murphi_node(ND_BOOL, s->tok);
    done->rhs->val = 1;
    vec_push(out, done);
    return;
  default:
    die("lower_stmt: node kind %d", s->kind);
  }
}

// Lowers a block's statements in order. In a rule, start state or inlined
// procedure or function, a `return` sets the local `returned` (and assigns
// the function's value), and what follows a statement that may return runs
// only if it did not.
static void lower_stmts(Node *block, Vec *out) {
  for (int i = 0; i < block->args.len; i++) {
    Node *s = block->args.data[i];
    lower_stmt(s, out);
    if (returned && i + 1 < block->args.len && contains_return(s)) {
      Node *rest = murphi_node(ND_BLOCK, s->tok);
      for (int j = i + 1; j < block->args.len; j++)
        vec_push(&rest->args, block->args.data[j]);
      Node *guarded = murphi_node(ND_IF, s->tok);
      guarded->cond = not_returned(s->tok);
      guarded->then = lower_block(rest);
      vec_push(out, guarded);
      return;
    }
  }
}

//
// Declarations.
//

// A name for a rule, start state or property: from its label (letters,
// digits and _ kept), else from its kind.
static Token *label_name(MDecl *d, const char *kind) {
  Buf b = {0};
  for (const char *p = d->label ? d->label->str : ""; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        *p == '_')
      buf_printf(&b, "%c", *p);
    else if (b.len && b.data[b.len - 1] != '_')
      buf_puts(&b, "_");
  }
  if (!b.len || (b.data[0] >= '0' && b.data[0] <= '9'))
    buf_printf(&b, "%s%s", b.len ? "_" : "", kind);
  return synth(d->tok, top_name(b.data));
}

// The rulesets' parameters around the rule being lowered.
static Vec params;

static void lower_const(MDecl *d) {
  expect_constant(d->expr, format("the value of constant '%s'", d->name->str));
  Node *v = lower_expr(d->expr);
  Type *t = mtype(v);
  if (!v->is_const && t->kind != TY_INT && t->kind != TY_BOOL && t->kind != TY_RANGE) {
    // An enum-valued constant: its name stands for its value.
    Sym *s = declare(SYM_SUBST, d->name->str, d->name, t);
    s->expr = v;
    s->constant = true;
    return;
  }
  Decl *c = new_decl(prog, DK_CONST, d->tok, d->name);
  c->expr = v;
  declare(SYM_CONST, d->name->str, c->name, t->kind == TY_BOOL ? &ty_bool_m : &ty_int_m);
}

static void lower_type_decl(MDecl *d) {
  Type *t = d->type;
  if (t->kind == TY_ENUM || t->kind == TY_SCALARSET)
    t->name = d->name->str; // named here: not hoisted
  Decl *td = new_decl(prog, DK_TYPE, d->tok, d->name);
  td->type = lower_type(t, false);
  if (t->kind == TY_ENUM)
    declare_members(t);
  Type *resolved = check_mtype(t);
  Sym *s = declare(SYM_TYPE, d->name->str, td->name, resolved);
  s->scalar_type = is_scalar_m(resolved);
}

static void lower_var(MDecl *d) {
  Type *mt = check_mtype(d->type);
  Decl *v = new_decl(prog, DK_VAR, d->tok, d->name);
  v->type = lower_type(d->type, true);
  declare(SYM_VAR, d->name->str, v->name, mt);
}

// Whether a name is a parameter or local of the function.
static bool own_name(MDecl *f, const char *name) {
  for (int i = 0; i < f->params.len; i++) {
    MParam *p = f->params.data[i];
    if (!p->by_ref && !strcmp(p->name->str, name))
      return true;
  }
  for (int i = 0; i < f->locals.len; i++) {
    MDecl *l = f->locals.data[i];
    if (!strcmp(l->name->str, name))
      return true;
  }
  return false;
}

static bool found_write; // write_visit() met a write outside the function

static bool write_visit(Node *n, void *ctx) {
  MDecl *f = ctx;
  if ((int)n->kind == MND_PCALL || (int)n->kind == MND_MSADD || (int)n->kind == MND_MSREMOVE ||
      (int)n->kind == MND_MSREMOVEPRED)
    found_write = true;
  if (n->kind == ND_ASSIGN || (int)n->kind == MND_UNDEFINE || (int)n->kind == MND_CLEAR) {
    Node *root = n->lhs;
    while (root->kind == ND_INDEX || root->kind == ND_FIELD)
      root = root->lhs;
    if (root->kind != ND_IDENT || !own_name(f, root->name->str))
      found_write = true;
  }
  return true;
}

// Whether a function writes anything but its own locals and value
// parameters (or calls a procedure): it is then inlined at each call.
static bool writes_outside(MDecl *f) {
  for (int i = 0; i < f->params.len; i++)
    if (((MParam *)f->params.data[i])->by_ref)
      return true;
  found_write = false;
  walk(f->body, write_visit, f);
  return found_write;
}

// Lowers the body of a procedure, or of a function that writes, once where
// it is declared, and drops the result: its errors are reported there,
// once, even if nothing calls it (each call lowers it again, inlined).
static void check_inlined(Sym *s) {
  MDecl *d = s->decl;
  Sym *mark = scope;
  Vec scratch = {0};
  for (int i = 0; i < d->params.len; i++) {
    MParam *p = d->params.data[i];
    Type *mt = check_mtype(p->type);
    declare(SYM_LOCAL, p->name->str, new_local(p->name, p->type, &scratch), mt);
  }
  lower_locals(&d->locals, &scratch);
  vec_push(&inlining, d);
  inline_result = d->type ? ident_node(new_local(d->name, d->type, &scratch)) : NULL;
  lower_returning_body(d->body, &scratch);
  inline_result = NULL;
  inlining.len--;
  scope = mark;
}

// A function becomes a .mc fn, unless it writes; a procedure, or a
// function that writes, is kept for inlining.
static void lower_function(MDecl *d) {
  Sym *s = declare(SYM_FUNCTION, d->name->str, d->name, NULL);
  s->decl = d;
  s->writes = d->type && writes_outside(d);
  if (!d->type || s->writes) {
    check_inlined(s);
    return;
  }
  Sym *mark = scope;
  Decl *f = new_decl(prog, DK_FN, d->tok, s->tok);
  f->type = lower_type(d->type, true); // it may return an undefined value
  check_mtype(d->type);
  for (int i = 0; i < d->params.len; i++) {
    MParam *p = d->params.data[i];
    if (p->by_ref)
      refuse(p->name, "var parameters of a function", "make it a procedure");
    Binder *b = xcalloc(1, sizeof *b);
    Type *mt = check_mtype(p->type);
    b->type = lower_type(p->type, true);
    b->name = local_token(p->name);
    declare(SYM_LOCAL, p->name->str, b->name, mt);
    vec_push(&f->params, b);
  }
  Vec body = {0};
  lower_locals(&d->locals, &body);
  in_function = true;
  lowering_fn = d;
  Token *outer_returned = returned;
  returned = NULL;
  for (int i = 0; i < d->body->args.len; i++)
    lower_stmt(d->body->args.data[i], &body);
  in_function = false;
  lowering_fn = NULL;
  returned = outer_returned;
  f->body = block_of(&body, d->tok);
  scope = mark;
}

// The body of a rule or start state: its locals, then its statements.
static Node *rule_body(MDecl *d) {
  Sym *mark = scope;
  Vec body = {0};
  lower_locals(&d->locals, &body);
  lower_returning_body(d->body, &body);
  scope = mark;
  return block_of(&body, d->tok);
}

// The rulesets' parameters, a copy for each rule (check.c annotates a
// binder once).
static void copy_params(Vec *to) {
  for (int i = 0; i < params.len; i++) {
    Binder *b = xcalloc(1, sizeof *b);
    *b = *(Binder *)params.data[i];
    b->type = clone_type(b->type);
    b->in_expr = clone(b->in_expr);
    vec_push(to, b);
  }
}

static void lower_rule(MDecl *d);

// After an error: no procedure is being inlined, no body lowered.
static void reset_context(void) {
  inlining.len = 0;
  inline_result = NULL;
  in_function = false;
  returned = NULL;
  lowering_fn = NULL;
}

static void lower_rules(Vec *inner) {
  for (int i = 0; i < inner->len; i++)
    lower_rule(inner->data[i]);
}

static void lower_ruleset(MDecl *d) {
  Sym *mark = scope;
  int nparams = params.len;
  for (int i = 0; i < d->binders.len; i++)
    vec_push(&params, lower_binder(d->binders.data[i]));
  lower_rules(&d->inner);
  params.len = nparams;
  scope = mark;
}

static void lower_alias_rule(MDecl *d) {
  Sym *mark = scope;
  declare_aliases(&d->binders);
  lower_rules(&d->inner);
  scope = mark;
}

// A property; inside rulesets it holds for every binding of their
// parameters (a cover: for some binding).
static void lower_property(MDecl *d, DeclKind kind, const char *what) {
  Decl *p = new_decl(prog, kind, d->tok, label_name(d, what));
  p->label = d->label ? d->label->str : NULL;
  p->expr = lower_expr(d->expr);
  expect_mtype(p->expr, is_bool_m, "a boolean");
  if (params.len) {
    Node *q = murphi_node(ND_QUANT, d->tok);
    q->op = kind == DK_REACHABLE ? OP_EXISTS : OP_FORALL;
    copy_params(&q->binders);
    q->body = p->expr;
    p->expr = q;
  }
}

// Rumur drops a state that breaks an assumption before checking anything
// in it: each invariant and cover holds where the assumptions do.
static void assume_before_properties(void) {
  Node *assumed = NULL;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_CONSTRAINT)
      assumed = assumed ? new_binary(OP_AND, assumed, clone(d->expr), d->tok) : clone(d->expr);
  }
  if (!assumed)
    return;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_INVARIANT)
      d->expr = new_binary(OP_IMPLIES, clone(assumed), d->expr, d->tok);
    else if (d->kind == DK_REACHABLE)
      d->expr = new_binary(OP_AND, clone(assumed), d->expr, d->tok);
  }
}

// A rule, start state, property, ruleset or alias rule, inside the
// rulesets whose parameters are in `params`.
static void lower_rule(MDecl *d) {
  jmp_buf outer;
  memcpy(outer, decl_fail, sizeof outer);
  Sym *mark = scope;
  int nparams = params.len;
  int ndecls = prog->decls.len;
  if (setjmp(decl_fail)) {
    scope = mark;
    params.len = nparams;
    prog->decls.len = ndecls;
    reset_context();
    memcpy(decl_fail, outer, sizeof outer);
    return;
  }
  switch (d->kind) {
  case MD_RULE: {
    Decl *a = new_decl(prog, DK_ACTION, d->tok, label_name(d, "rule"));
    a->label = d->label ? d->label->str : NULL;
    copy_params(&a->params);
    if (d->expr) {
      a->expr = lower_expr(d->expr);
      expect_mtype(a->expr, is_bool_m, "a boolean");
    }
    a->body = rule_body(d);
    break;
  }
  case MD_STARTSTATE: {
    Decl *i = new_decl(prog, DK_INIT, d->tok, label_name(d, "startstate"));
    i->label = d->label ? d->label->str : NULL;
    copy_params(&i->params);
    i->body = rule_body(d);
    break;
  }
  case MD_INVARIANT:
    lower_property(d, DK_INVARIANT, "invariant");
    break;
  case MD_COVER:
    lower_property(d, DK_REACHABLE, "cover");
    break;
  case MD_ASSUME:
    lower_property(d, DK_CONSTRAINT, "assume");
    break;
  case MD_LIVENESS:
    refuse(d->tok, "liveness properties", "Rumur's liveness is AG EF p, which mcgen does not check");
  case MD_RULESET:
    lower_ruleset(d);
    break;
  case MD_ALIASRULE:
    lower_alias_rule(d);
    break;
  default:
    unreachable();
  }
  memcpy(decl_fail, outer, sizeof outer);
}

static void lower_decl(MDecl *d) {
  Sym *mark = scope;
  locals = (StrSet){0};
  int ndecls = prog->decls.len;
  if (setjmp(decl_fail)) {
    // Its lowering is dropped, and the locals it declared; its name stays,
    // broken, so that its uses are not errors of their own.
    scope = mark;
    prog->decls.len = ndecls;
    reset_context();
    if (d->name)
      declare(SYM_BROKEN, d->name->str, d->name, NULL);
    return;
  }
  switch (d->kind) {
  case MD_CONST:
    lower_const(d);
    return;
  case MD_TYPE:
    lower_type_decl(d);
    return;
  case MD_VAR:
    lower_var(d);
    return;
  case MD_FUNCTION:
    lower_function(d);
    return;
  default:
    lower_rule(d);
  }
}

// Every top-level Murphi name is taken before any local is renamed, so that
// no local takes a name that a later declaration needs.
static void reserve_names(MModel *m) {
  for (int i = 0; i < m->decls.len; i++) {
    MDecl *d = m->decls.data[i];
    if (d->name)
      strset_add(&names, d->name->str);
  }
}

// Clears the Murphi types left in `ty` (check.c sets the .mc ones); the
// copies of typed nodes that clone() made are cleared by their own typed().
static void clear_types(void) {
  for (int i = 0; i < typed_nodes.len; i++)
    ((Node *)typed_nodes.data[i])->ty = NULL;
}

Program *parse_murphi(const SrcFile *file) {
  src = file;
  prog = xcalloc(1, sizeof *prog);
  prog->file = file;
  prog->none_undefined = true;
  prog->loop_order_free = true;
  prog->range_checks_at_run_time = true;
  int before = error_count();
  MModel *m = murphi_parse(murphi_tokenize(file));
  if (error_count() > before)
    return prog;
  reserve_names(m);
  for (int i = 0; i < m->decls.len; i++)
    lower_decl(m->decls.data[i]);
  assume_before_properties();
  clear_types();
  return prog;
}
