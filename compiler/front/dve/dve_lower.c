// SPDX-License-Identifier: MIT
// dve_lower.c: the DVE front end's second half. Resolves the names of the
// DVE syntax tree that dve_parse.c builds (declarations in source order,
// then every expression), then lowers it to the same Program/Decl/Node tree
// that parse.c builds from a .mc spec, so that check, layout and emit never
// learn which language the model came from. Resolution runs even after
// syntax errors, on what could be parsed, so that all errors of a file are
// reported in one run; lowering runs only on a file without errors.
//
// Lowering:
// - `byte` is the range 0..255 and `int` the range -32768..32767; every
//   assignment wraps its value into the target's range, as DiVinE's
//   generated C stores into uint8_t / int16_t.
// - Each process gets a state variable named after it, of an enum type
//   whose members are its control states (printed by their DVE names), and
//   one state variable per local (printed as `P.var`).
// - A transition without sync (or with a sync on a buffered channel) is one
//   action: `P == from && guard` plus the committed-state rule. A rendezvous
//   is one action per (receiver, sender) pair of transitions of different
//   processes on the same channel.
// - Committed states (as DiVinE's C code generator does it): while any
//   process is in a committed state, only transitions leaving a committed
//   state may fire, and a rendezvous only when both sides leave committed
//   states.
// - Effects run in order, each seeing the ones before it; in a rendezvous
//   the received value is evaluated first (in the source state), then the
//   receiver's effects, then the sender's.
// - A buffered channel `channel {byte, int} c[K]` is one queue per component.
#include <setjmp.h>

#include "dve.h"

//
// Name resolution.
//

static DSystem *sys;

// The element of `items` called `name`, or NULL: a DVar, DChan or DProc
// (each begins with its name's token).
static void *find_named(Vec *items, const char *name) {
  for (int i = 0; i < items->len; i++) {
    Token *item_name = *(Token **)items->data[i];
    if (!strcmp(item_name->str, name))
      return items->data[i];
  }
  return NULL;
}

static DVar *find_var(Vec *vars, const char *name) { return find_named(vars, name); }

// find_var() among the variables declared before `before` (NULL: all).
static DVar *find_var_before(Vec *vars, const char *name, const Token *before) {
  DVar *v = find_var(vars, name);
  return v && (!before || v->name->loc < before->loc) ? v : NULL;
}

// Value of a constant expression (array sizes): numbers, constants declared
// before `before` (NULL: all), and arithmetic. Reports an error and returns
// 0 otherwise; *failed is set then, and when the value depends on a
// constant whose value is unknown (after an error reported earlier).
static int64_t const_value(DExpr *e, DProc *proc, const Token *before, bool *failed) {
  switch (e->kind) {
  case DE_NUM:
    return e->val;
  case DE_VAR: {
    DVar *v = proc ? find_var_before(&proc->vars, e->name->str, before) : NULL;
    if (!v)
      v = find_var_before(&sys->vars, e->name->str, before);
    if (v && v->is_const && v->size < 0 && !e->idx && !e->proc) {
      if (v->cval_unknown)
        *failed = true;
      return v->cval;
    }
    *failed = true;
    if (!v && (dve_name_lost(e->name->str) || sys->vars_lost || (proc && proc->vars_lost)))
      return 0;
    error_at(e->tok, "'%s' is not a constant", e->name->str);
    return 0;
  }
  case DE_UNARY: {
    int64_t a = const_value(e->l, proc, before, failed);
    return e->op == OP_NEG ? -a : e->op == OP_NOT ? !a : ~a;
  }
  case DE_BINARY: {
    int64_t a = const_value(e->l, proc, before, failed);
    int64_t b = const_value(e->r, proc, before, failed);
    if ((e->op == OP_DIV || e->op == OP_MOD) && b == 0) {
      if (!*failed)
        error_at(e->tok, "division by zero in a constant expression");
      *failed = true;
      return 0;
    }
    if (a < INT32_MIN || a > INT32_MAX || b < INT32_MIN || b > INT32_MAX) {
      if (!*failed)
        error_at(e->tok, "constant out of range");
      *failed = true;
      return 0;
    }
    switch (e->op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    case OP_MOD: return a % b;
    case OP_SHL: return b < 0 || b > 31 ? 0 : a << b;
    case OP_SHR: return b < 0 || b > 31 ? 0 : a >> b;
    case OP_BAND: return a & b;
    case OP_BOR: return a | b;
    case OP_BXOR: return a ^ b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    case OP_AND: return a && b;
    case OP_OR: return a || b;
    case OP_IMPLIES: return !a || b;
    default: break;
    }
    unreachable();
  }
  default:
    *failed = true;
    error_at(e->tok, "not a constant expression");
    return 0;
  }
}

static int64_t wrap_value(int64_t v, bool is_int) {
  return is_int ? (int64_t)(int16_t)(uint16_t)v : (int64_t)(uint8_t)v;
}

static int state_index(DProc *p, Token *name) {
  for (int i = 0; i < p->states.len; i++)
    if (!strcmp(((Token *)p->states.data[i])->str, name->str))
      return i;
  return -1;
}

// Reports an unknown state of process p.
static int resolve_state(DProc *p, Token *name) {
  int i = state_index(p, name);
  if (i < 0 && !dve_name_lost(name->str) && !p->states_lost) {
    error_at(name, "process '%s' has no state '%s'", p->name->str, name->str);
    const char **names = xcalloc((size_t)p->states.len + 1, sizeof *names);
    for (int j = 0; j < p->states.len; j++)
      names[j] = ((Token *)p->states.data[j])->str;
    const char *s = closest_name(name->str, names, p->states.len);
    if (s)
      hint("did you mean '%s'?", s);
  }
  return i;
}

// A variable's declaration: not declared twice in `vars` (the variables of
// its scope), the size of an array, the value of a constant. Declarations
// see the constants declared before them.
static void resolve_var_decl(DVar *v, Vec *vars) {
  Token *prev = NULL;
  for (int i = 0; i < vars->len && vars->data[i] != v && !prev; i++)
    if (!strcmp(((DVar *)vars->data[i])->name->str, v->name->str))
      prev = ((DVar *)vars->data[i])->name;
  if (v->size_expr) {
    bool failed = v->broken; // its size may be cut short: not evaluated
    if (!failed)
      v->size = const_value(v->size_expr, v->proc, v->name, &failed);
    if (!failed && (v->size < 1 || v->size > 1 << 20))
      error_at(v->size_expr->tok, "array size %lld out of range (1 to 2^20)", (long long)v->size);
    if (failed || v->size < 1 || v->size > 1 << 20)
      v->size = 1;
  }
  if (v->is_const && v->size < 0) {
    bool failed = v->broken || !v->init.len; // no value: reported by the parser
    if (!failed)
      v->cval = wrap_value(const_value(v->init.data[0], v->proc, v->name, &failed), v->is_int);
    v->cval_unknown = failed;
  }
  if (prev) {
    error_at(v->name, "'%s' is declared twice", v->name->str);
    note_at(prev, "first declared here");
  }
}

static void resolve_chan_decl(DChan *c) {
  if (!c->cap_expr)
    return;
  bool failed = false;
  c->cap = const_value(c->cap_expr, NULL, c->name, &failed);
  if (!failed && (c->cap < 0 || c->cap > 1 << 16))
    error_at(c->cap_expr->tok, "channel capacity %lld out of range (0 to 65536)",
             (long long)c->cap);
  if (failed || c->cap < 0 || c->cap > 1 << 16)
    c->cap = 0;
}

// A process's declarations: its variables, its states (at least one, each
// once, one of them initial), its committed and accepting states and the
// states of its transitions.
static void resolve_process_decl(DProc *p) {
  for (int i = 0; i < p->vars.len; i++)
    resolve_var_decl(p->vars.data[i], &p->vars);
  if (!p->states.len && !p->broken)
    error_at(p->name, "process '%s' declares no states", p->name->str);
  if (!p->init && p->states.len && !p->broken)
    error_at(p->name, "process '%s' has no 'init' state", p->name->str);
  p->commit = xcalloc((size_t)p->states.len + 1, sizeof(bool));
  p->accept = xcalloc((size_t)p->states.len + 1, sizeof(bool));
  for (int i = 0; i < p->commits.len; i++) {
    int s = resolve_state(p, p->commits.data[i]);
    if (s >= 0)
      p->commit[s] = true;
  }
  for (int i = 0; i < p->accepts.len; i++) {
    int s = resolve_state(p, p->accepts.data[i]);
    if (s >= 0)
      p->accept[s] = true;
  }
  for (int i = 0; i < p->states.len; i++)
    for (int j = 0; j < i; j++)
      if (!strcmp(((Token *)p->states.data[i])->str, ((Token *)p->states.data[j])->str))
        error_at(p->states.data[i], "state '%s' is declared twice",
                 ((Token *)p->states.data[i])->str);
  p->initi = p->init ? resolve_state(p, p->init) : -1;
  for (int i = 0; i < p->trans.len; i++) {
    DTrans *t = p->trans.data[i];
    t->fromi = resolve_state(p, t->from);
    t->toi = resolve_state(p, t->to);
  }
}

// Every declaration, in source order (as they were written, so are their
// errors).
static void resolve_decls(void) {
  int i = 0, j = 0, k = 0;
  for (;;) {
    DVar *v = i < sys->vars.len ? sys->vars.data[i] : NULL;
    DChan *c = j < sys->chans.len ? sys->chans.data[j] : NULL;
    DProc *p = k < sys->procs.len ? sys->procs.data[k] : NULL;
    const char *vl = v ? v->name->loc : NULL, *cl = c ? c->name->loc : NULL;
    const char *pl = p ? p->name->loc : NULL;
    if (v && (!cl || vl < cl) && (!pl || vl < pl)) {
      resolve_var_decl(v, &sys->vars);
      i++;
    } else if (c && (!pl || cl < pl)) {
      resolve_chan_decl(c);
      j++;
    } else if (p) {
      resolve_process_decl(p);
      k++;
    } else
      return;
  }
}

static DProc *prop_proc; // the property process (system async property P), or NULL

static DProc *find_proc(const char *name) { return find_named(&sys->procs, name); }

static DChan *find_chan(const char *name) { return find_named(&sys->chans, name); }

static bool comp_is_int(DChan *c, int k) {
  return c->types.data[k] && !strcmp(c->types.data[k], "int");
}

// Suggests a close variable name visible in `proc`.
static void suggest_var(const char *name, DProc *proc) {
  Vec names = {0};
  if (proc)
    for (int i = 0; i < proc->vars.len; i++)
      vec_push(&names, ((DVar *)proc->vars.data[i])->name->str);
  for (int i = 0; i < sys->vars.len; i++)
    vec_push(&names, ((DVar *)sys->vars.data[i])->name->str);
  const char *s = closest_name(name, (const char *const *)names.data, names.len);
  if (s)
    hint("did you mean '%s'?", s);
}

// Whether a variable name of e's scope is missing (after a syntax error).
static bool scope_lost(DExpr *e, DProc *proc) {
  if (e->proc) {
    DProc *p = find_proc(e->proc->str);
    return p && p->vars_lost;
  }
  return sys->vars_lost || (proc && proc->vars_lost);
}

static void resolve_expr(DExpr *e, DProc *proc) {
  if (!e)
    return;
  switch (e->kind) {
  case DE_NUM:
    return;
  case DE_STATE: {
    DProc *p = find_proc(e->proc->str);
    if (!p) {
      if (!dve_name_lost(e->proc->str) && !sys->procs_lost)
        error_at(e->proc, "unknown process '%s'", e->proc->str);
      return;
    }
    e->sproc = p;
    e->state = resolve_state(p, e->name);
    return;
  }
  case DE_VAR: {
    DProc *scope = proc;
    if (e->proc) {
      scope = find_proc(e->proc->str);
      if (!scope) {
        if (!dve_name_lost(e->proc->str) && !sys->procs_lost)
          error_at(e->proc, "unknown process '%s'", e->proc->str);
        return;
      }
    }
    DVar *v = scope ? find_var(&scope->vars, e->name->str) : NULL;
    if (!v && !e->proc)
      v = find_var(&sys->vars, e->name->str);
    if (!v) {
      if (dve_name_lost(e->name->str) || scope_lost(e, proc))
        ; // its declaration may be in what a syntax error made us skip
      else if (e->proc)
        error_at(e->name, "process '%s' has no variable '%s'", e->proc->str, e->name->str);
      else if (find_chan(e->name->str))
        error_at(e->name, "channel '%s' used as a value", e->name->str);
      else if (find_proc(e->name->str))
        error_at(e->name, "process '%s' used as a value (write '%s.STATE' to test its state)",
                 e->name->str, e->name->str);
      else {
        error_at(e->name, "unknown variable '%s'", e->name->str);
        suggest_var(e->name->str, proc);
      }
      return;
    }
    e->var = v;
    // DiVinE reads and writes an array named without an index as its first
    // element (`byte e[3]; ... e == 1` is `e[0] == 1`); sizes are at least 1.
    if (v->size >= 0 && !e->idx) {
      e->idx = xcalloc(1, sizeof *e->idx);
      *e->idx = (DExpr){.kind = DE_NUM, .tok = e->name, .val = 0};
    }
    if (v->size < 0 && e->idx && !v->broken)
      error_at(e->name, "'%s' is not an array", v->name->str);
    resolve_expr(e->idx, proc);
    return;
  }
  case DE_UNARY:
    resolve_expr(e->l, proc);
    return;
  case DE_BINARY:
    resolve_expr(e->l, proc);
    resolve_expr(e->r, proc);
    return;
  }
}

static void resolve_lvalue(DExpr *e, DProc *proc) {
  resolve_expr(e, proc);
  if (e->kind == DE_VAR && e->var && e->var->is_const)
    error_at(e->name, "constant '%s' cannot be assigned", e->var->name->str);
}

// An initial value: a constant expression (lowering computes it).
static void resolve_init(DExpr *e, DProc *proc) {
  int before = error_count();
  resolve_expr(e, proc);
  bool failed = false;
  if (error_count() == before)
    const_value(e, proc, NULL, &failed);
}

// A rendezvous whose sides disagree on the number of values.
static void check_rendezvous_arity(void) {
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    for (int j = 0; j < p->trans.len; j++) {
      DTrans *t = p->trans.data[j];
      if (!t->chan || t->chan->cap > 0 || t->send || t->broken)
        continue;
      for (int k = 0; k < sys->procs.len; k++) {
        DProc *q = sys->procs.data[k];
        for (int m = 0; q != p && m < q->trans.len; m++) {
          DTrans *s = q->trans.data[m];
          if (s->chan == t->chan && s->send && !s->broken && s->sexprs.len != t->sexprs.len) {
            error_at(s->chan_tok, "'%s!' sends %d value%s but '%s?' in process '%s' receives %d",
                     t->chan->name->str, s->sexprs.len, s->sexprs.len == 1 ? "" : "s",
                     t->chan->name->str, p->name->str, t->sexprs.len);
            note_at(t->chan_tok, "the receive");
          }
        }
      }
    }
  }
}

// Every expression (a constant's value was checked by resolve_decls()), the
// channel of every sync, the property process.
static void resolve_all(void) {
  for (int i = 0; i < sys->vars.len; i++) {
    DVar *v = sys->vars.data[i];
    for (int j = 0; j < v->init.len && !(v->is_const && v->size < 0); j++)
      resolve_init(v->init.data[j], NULL);
  }
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    for (int j = 0; j < i; j++)
      if (!strcmp(((DProc *)sys->procs.data[j])->name->str, p->name->str))
        error_at(p->name, "process '%s' is declared twice", p->name->str);
    for (int j = 0; j < p->vars.len; j++) {
      DVar *v = p->vars.data[j];
      for (int k = 0; k < v->init.len && !(v->is_const && v->size < 0); k++)
        resolve_init(v->init.data[k], p);
    }
    for (int j = 0; j < p->assert_states.len; j++) {
      resolve_state(p, p->assert_states.data[j]);
      resolve_expr(p->assert_exprs.data[j], p);
    }
    for (int j = 0; j < p->trans.len; j++) {
      DTrans *t = p->trans.data[j];
      for (int k = 0; k < t->guards.len; k++)
        resolve_expr(t->guards.data[k], p);
      for (int k = 0; k < t->lhs.len; k++) {
        resolve_lvalue(t->lhs.data[k], p);
        resolve_expr(t->rhs.data[k], p);
      }
      if (t->chan_tok) {
        t->chan = find_chan(t->chan_tok->str);
        if (!t->chan) {
          if (!dve_name_lost(t->chan_tok->str) && !sys->chans_lost)
            error_at(t->chan_tok, "unknown channel '%s'", t->chan_tok->str);
          continue;
        }
        for (int k = 0; k < t->sexprs.len; k++) {
          if (t->send)
            resolve_expr(t->sexprs.data[k], p);
          else
            resolve_lvalue(t->sexprs.data[k], p);
        }
        if (t->broken)
          continue;
        if (t->chan->typed && t->sexprs.len != t->chan->ncomp)
          error_at(t->chan_tok, "channel '%s' carries %d value%s, this sync has %d",
                   t->chan->name->str, t->chan->ncomp, t->chan->ncomp == 1 ? "" : "s",
                   t->sexprs.len);
        if (!t->chan->typed && t->chan->cap > 0 && t->sexprs.len > 1)
          error_at(t->chan_tok, "an untyped buffered channel carries at most one value");
      }
    }
  }
  prop_proc = NULL;
  if (sys->property) {
    prop_proc = find_proc(sys->property->str);
    if (!prop_proc && !dve_name_lost(sys->property->str) && !sys->procs_lost)
      error_at(sys->property, "unknown property process '%s'", sys->property->str);
    for (int j = 0; prop_proc && j < prop_proc->trans.len; j++) {
      DTrans *t = prop_proc->trans.data[j];
      if (t->sync_tok)
        error_at(t->sync_tok, "a property process cannot synchronise");
    }
  }
  check_rendezvous_arity();
}

//
// Lowering to the .mc tree.
//

static const SrcFile *src;
static Program *prog;
static StrSet names; // every C-level name given out

// A token standing for a generated name at the DVE location `at`.
static Token *synth(const Token *at, const char *text) {
  return name_token(src, at ? at->line : 0, at ? at->col : 0, text);
}

// A fresh C-safe name based on `base` (numbered if taken).
static const char *fresh_name(const char *base) { return strset_fresh(&names, base); }

// Lowering copies some subexpressions (an index is read for its value and
// for its range check): a bound on the nodes made keeps pathological
// nesting from exhausting memory.
static jmp_buf lower_fail;
enum { MAX_NODES = 20 * 1000 * 1000 };

static void too_many_nodes(Token *at) {
  error_at(at, "the model is too large to lower (more than %d expression nodes)", MAX_NODES);
  longjmp(lower_fail, 1);
}

static Node *ident(Token *at, const char *name) { return new_ident(at, synth(at, name)); }

static Node *assign(Node *l, Node *r, Token *at) {
  Node *n = new_node(ND_ASSIGN, at);
  n->lhs = l;
  n->rhs = r;
  return n;
}

static Node *and_all(Vec *conds, Token *at) {
  Node *n = NULL;
  for (int i = 0; i < conds->len; i++)
    n = n ? new_binary(OP_AND, n, conds->data[i], at) : conds->data[i];
  if (!n) {
    n = new_node(ND_BOOL, at);
    n->val = 1;
  }
  return n;
}

static Type *dve_scalar_type(Token *at, bool is_int) {
  return is_int ? new_range_type(at, -32768, 32767) : new_range_type(at, 0, 255);
}

static Decl *add_decl(DeclKind kind, Token *at, const char *kw, const char *name) {
  return new_decl(prog, kind, synth(at, kw), name ? synth(at, name) : NULL);
}

// What is known of a lowered expression's value: a bool, a byte, an int16,
// or any integer.
typedef enum { V_BOOL, V_BYTE, V_INT16, V_ANY } ValKind;

// A lowered DVE expression: its value and what is known of it, and the
// condition under which evaluating it is an error in DiVinE (an array index
// out of range, a division by zero; NULL: never). The value never fails in
// the generated code: a bad read gives 0, as DiVinE's evaluator does.
typedef struct LExpr {
  Node *node;
  ValKind kind;
  Node *bad;
} LExpr;

static Node *or_bad(Node *a, Node *b, Token *at) {
  if (!a)
    return b;
  if (!b)
    return a;
  return new_binary(OP_OR, a, b, at);
}

static Node *as_int(LExpr e) {
  if (e.kind != V_BOOL)
    return e.node;
  return new_cond(ND_COND, e.node, new_num(e.node->tok, 1), new_num(e.node->tok, 0), e.node->tok);
}

static Node *as_bool(LExpr e) {
  if (e.kind == V_BOOL)
    return e.node;
  if (e.node->kind == ND_NUM)
    return new_bool(e.node->tok, e.node->val != 0);
  return new_binary(OP_NE, e.node, new_num(e.node->tok, 0), e.node->tok);
}

static LExpr lower(DExpr *e);

// `0 <= i && i < n` for an index expression.
static Node *index_ok(DExpr *idx, int64_t n) {
  Token *at = idx->tok;
  return new_binary(OP_AND, new_binary(OP_LE, new_num(at, 0), as_int(lower(idx)), at),
                    new_binary(OP_LT, as_int(lower(idx)), new_num(at, n), at), at);
}

static bool const_index_ok(DExpr *idx, int64_t n) {
  return idx->kind == DE_NUM && idx->val >= 0 && idx->val < n;
}

// The array element `a[idx]` with the index as written (the caller makes
// sure it is in range).
static Node *element(DExpr *e) {
  DVar *v = e->var;
  Node *ix = new_node(ND_INDEX, e->idx->tok);
  ix->lhs = ident(e->name, v->cname);
  ix->rhs = as_int(lower(e->idx));
  return ix;
}

// A variable read: `x`, `P->x`, or `a[i]` (0 and an error when i is out of
// range).
static LExpr lower_read(DExpr *e) {
  DVar *v = e->var;
  // (A constant's value was wrapped into its type's range too.)
  ValKind kind = v->is_int ? V_INT16 : V_BYTE;
  if (!e->idx)
    return (LExpr){ident(e->name, v->cname), kind, NULL};
  LExpr ix = lower(e->idx);
  if (const_index_ok(e->idx, v->size))
    return (LExpr){element(e), kind, NULL};
  Node *ok = index_ok(e->idx, v->size);
  Node *bad = or_bad(ix.bad, new_unary(OP_NOT, index_ok(e->idx, v->size), e->tok), e->tok);
  return (LExpr){new_cond(ND_COND, ok, element(e), new_num(e->tok, 0), e->tok), kind, bad};
}

// A binary operator by its op_info class: logic short-circuits, comparisons
// give a bool, arithmetic an integer (/ and % by zero give 0 and fail).
static LExpr lower_binary(DExpr *e) {
  LExpr l = lower(e->l), r = lower(e->r);
  Op op = e->op;
  Token *at = e->tok;
  OpClass cls = op_info[op].cls;
  if (cls == OPC_LOGIC) {
    // Short-circuit: the right operand is evaluated (and can fail) only
    // when the left one does not decide.
    Node *bad = l.bad;
    if (r.bad) {
      LExpr l2 = lower(e->l);
      Node *decides = op == OP_OR ? as_bool(l2) : new_unary(OP_NOT, as_bool(l2), at);
      bad = or_bad(bad, new_binary(OP_AND, new_unary(OP_NOT, decides, at), r.bad, at), at);
    }
    return (LExpr){new_binary(op, as_bool(l), as_bool(r), at), V_BOOL, bad};
  }
  Node *bad = or_bad(l.bad, r.bad, at);
  if (cls == OPC_EQUAL || cls == OPC_ORDER) {
    if (cls == OPC_EQUAL && l.kind == V_BOOL && r.kind == V_BOOL)
      return (LExpr){new_binary(op, l.node, r.node, at), V_BOOL, bad};
    return (LExpr){new_binary(op, as_int(l), as_int(r), at), V_BOOL, bad};
  }
  if (cls != OPC_ARITH)
    unreachable();
  Node *n = new_binary(op, as_int(l), as_int(r), at);
  if ((op == OP_DIV || op == OP_MOD) && !(r.node->kind == ND_NUM && r.node->val != 0)) {
    Node *zero = new_binary(OP_EQ, as_int(lower(e->r)), new_num(at, 0), at);
    n = new_cond(ND_COND, zero, new_num(at, 0), n, at);
    bad = or_bad(bad, new_binary(OP_EQ, as_int(lower(e->r)), new_num(at, 0), at), at);
  }
  return (LExpr){n, V_ANY, bad};
}

static LExpr lower(DExpr *e) {
  switch (e->kind) {
  case DE_NUM:
    return (LExpr){new_num(e->tok, e->val), e->val >= 0 && e->val <= 255 ? V_BYTE : V_ANY, NULL};
  case DE_VAR:
    return lower_read(e);
  case DE_STATE:
    return (LExpr){new_binary(OP_EQ, ident(e->proc, e->sproc->cname),
                              ident(e->name, e->sproc->state_cnames[e->state]), e->tok),
                   V_BOOL, NULL};
  case DE_UNARY: {
    LExpr a = lower(e->l);
    if (e->op == OP_NOT)
      return (LExpr){new_unary(OP_NOT, as_bool(a), e->tok), V_BOOL, a.bad};
    return (LExpr){new_unary(e->op, as_int(a), e->tok), V_ANY, a.bad};
  }
  case DE_BINARY:
    return lower_binary(e);
  }
  unreachable();
}

// Whether a value certainly fits a byte (or an int).
static bool fits(LExpr e, bool is_int) {
  Node *n = e.node;
  if (n->kind == ND_NUM)
    return is_int ? n->val >= -32768 && n->val <= 32767 : n->val >= 0 && n->val <= 255;
  return e.kind == V_BOOL || e.kind == V_BYTE || (is_int && e.kind == V_INT16);
}

// The value `e` converted to a byte or int by truncation (a channel's item
// type, an initial value): C's conversion to uint8_t / int16_t.
static Node *wrapped(LExpr e, bool is_int, Token *at) {
  Node *n = as_int(e);
  if (n->kind == ND_NUM) {
    n->val = wrap_value(n->val, is_int);
    return n;
  }
  if (fits(e, is_int))
    return n;
  int64_t m = is_int ? 65536 : 256;
  if (is_int)
    n = new_binary(OP_ADD, n, new_num(at, 32768), at);
  n = new_binary(OP_MOD,
                 new_binary(OP_ADD, new_binary(OP_MOD, n, new_num(at, m), at), new_num(at, m), at),
                 new_num(at, m), at);
  if (is_int)
    n = new_binary(OP_SUB, n, new_num(at, 32768), at);
  return n;
}

// Declares the state variables, constants and types of the system.
static void lower_var_decl(DVar *v) {
  const char *display = v->proc ? format("%s.%s", v->proc->name->str, v->name->str)
                                : v->name->str;
  v->cname = fresh_name(v->proc ? format("%s_%s", v->proc->name->str, v->name->str)
                                : v->name->str);
  if (v->is_const && v->size < 0) {
    Decl *d = add_decl(DK_CONST, v->name, "const", v->cname);
    d->expr = new_num(v->name, v->cval);
    d->label = display;
    return;
  }
  Decl *d = add_decl(DK_VAR, v->name, "var", v->cname);
  d->label = display;
  Type *elem = dve_scalar_type(v->name, v->is_int);
  if (v->size >= 0) {
    Type *arr = new_type(TY_ARRAY, v->name);
    arr->index = new_range_type(v->name, 0, v->size - 1);
    arr->base = elem;
    d->type = arr;
  } else
    d->type = elem;
}

// DiVinE builds the initial state in a byte image laid out as: global
// variables in order (byte: 1 byte, int: 2, arrays element after element),
// typed buffered channels (a 2-byte count and their items), then per process
// its 2-byte state and its variables. Each variable with initial values
// writes them in order; an initialiser longer than its array writes on into
// the bytes that follow, and the variables there keep those values unless
// they have initialisers of their own, which come later. This emulates
// that image and reads every variable back from it.
typedef struct Image {
  uint8_t *bytes;
  int64_t size;
} Image;

static int64_t var_bytes(DVar *v) {
  return (v->is_int ? 2 : 1) * (v->size < 0 ? 1 : v->size);
}

static void image_put(Image *im, int64_t off, int64_t v, bool is_int) {
  if (off >= 0 && off < im->size)
    im->bytes[off] = (uint8_t)v;
  if (is_int && off + 1 >= 0 && off + 1 < im->size)
    im->bytes[off + 1] = (uint8_t)((uint64_t)v >> 8);
}

static int64_t image_get(Image *im, int64_t off, bool is_int) {
  if (!is_int)
    return im->bytes[off];
  return (int16_t)(uint16_t)(im->bytes[off] | im->bytes[off + 1] << 8);
}

// Writes the initial values of v at `off` (and past it, as DiVinE does).
static void image_init(Image *im, DVar *v, int64_t off) {
  for (int i = 0; i < v->init.len; i++) {
    bool failed = false;
    int64_t val = const_value(v->init.data[i], v->proc, NULL, &failed);
    image_put(im, off + i * (v->is_int ? 2 : 1), val, v->is_int);
  }
}

// Assignments of every variable's value in the image into `body`.
static void image_read(Image *im, DVar *v, int64_t off, Node *body) {
  Token *at = v->name;
  int64_t n = v->size < 0 ? 1 : v->size, w = v->is_int ? 2 : 1;
  for (int64_t i = 0; i < n; i++) {
    int64_t val = image_get(im, off + i * w, v->is_int);
    if (val == 0)
      continue; // the default
    Node *lhs = ident(at, v->cname);
    if (v->size >= 0) {
      Node *ix = new_node(ND_INDEX, at);
      ix->lhs = lhs;
      ix->rhs = new_num(at, i);
      lhs = ix;
    }
    vec_push(&body->args, assign(lhs, new_num(at, val), at));
  }
}

static bool is_state_var(DVar *v) {
  return !(v->is_const && v->size < 0);
}

static void lower_initial_state(Node *body) {
  // Offsets in DiVinE's layout.
  int64_t size = 0;
  Vec offs = {0};
  for (int i = 0; i < sys->vars.len; i++) {
    DVar *v = sys->vars.data[i];
    vec_push(&offs, (void *)(intptr_t)size);
    if (is_state_var(v))
      size += var_bytes(v);
  }
  for (int i = 0; i < sys->chans.len; i++) {
    DChan *c = sys->chans.data[i];
    if (c->typed && c->cap > 0) {
      int64_t elem = 0;
      for (int k = 0; k < c->types.len; k++)
        elem += comp_is_int(c, k) ? 2 : 1;
      size += 2 + elem * c->cap;
    }
  }
  Vec poffs = {0};
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    vec_push(&poffs, (void *)(intptr_t)size);
    size += 2;
    for (int j = 0; j < p->vars.len; j++)
      if (is_state_var(p->vars.data[j]))
        size += var_bytes(p->vars.data[j]);
  }
  Image im = {xcalloc((size_t)size + 2, 1), size};
  // The writes, in DiVinE's order.
  for (int i = 0; i < sys->vars.len; i++)
    if (is_state_var(sys->vars.data[i]))
      image_init(&im, sys->vars.data[i], (intptr_t)offs.data[i]);
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    int64_t off = (intptr_t)poffs.data[i];
    image_put(&im, off, p->initi, true);
    off += 2;
    for (int j = 0; j < p->vars.len; j++) {
      DVar *v = p->vars.data[j];
      if (!is_state_var(v))
        continue;
      image_init(&im, v, off);
      off += var_bytes(v);
    }
  }
  // The values.
  for (int i = 0; i < sys->vars.len; i++)
    if (is_state_var(sys->vars.data[i]))
      image_read(&im, sys->vars.data[i], (intptr_t)offs.data[i], body);
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    if (p->initi > 0)
      vec_push(&body->args, assign(ident(p->init, p->cname),
                                   ident(p->init, p->state_cnames[p->initi]), p->init));
    int64_t off = (intptr_t)poffs.data[i] + 2;
    for (int j = 0; j < p->vars.len; j++) {
      DVar *v = p->vars.data[j];
      if (!is_state_var(v))
        continue;
      image_read(&im, v, off, body);
      off += var_bytes(v);
    }
  }
}

static const char *error_member; // the error state: one more state of the first process

static void lower_process_decl(DProc *p, bool first) {
  p->cname = fresh_name(p->name->str);
  Type *en = new_type(TY_ENUM, p->name);
  p->state_cnames = xcalloc((size_t)p->states.len + 1, sizeof(char *));
  en->member_labels = xcalloc((size_t)p->states.len + 2, sizeof(char *));
  for (int i = 0; i < p->states.len; i++) {
    Token *s = p->states.data[i];
    p->state_cnames[i] = fresh_name(format("%s_%s", p->name->str, s->str));
    en->member_labels[i] = s->str;
    vec_push(&en->members, synth(s, p->state_cnames[i]));
  }
  if (first) {
    error_member = fresh_name(format("%s_dve_error", p->name->str));
    en->member_labels[p->states.len] = "(error state)";
    vec_push(&en->members, synth(p->name, error_member));
  }
  Decl *d = add_decl(DK_VAR, p->name, "var", p->cname);
  d->label = p->name->str;
  d->type = en;
  for (int i = 0; i < p->vars.len; i++)
    lower_var_decl(p->vars.data[i]);
}

// `P == s` for the process's state variable.
static Node *in_state(DProc *p, int s, Token *at) {
  return new_binary(OP_EQ, ident(at, p->cname), ident(at, p->state_cnames[s]), at);
}

static bool any_committed; // some process has a committed state

static Node *committed_expr(Token *at) {
  Node *n = NULL;
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    for (int s = 0; s < p->states.len; s++)
      if (p->commit[s])
        n = n ? new_binary(OP_OR, n, in_state(p, s, at), at) : in_state(p, s, at);
  }
  return n;
}

// The body of one action under construction. DiVinE replaces the whole
// successor by its error state as soon as one evaluation fails: the body
// checks each evaluation that can fail where it happens, and on failure
// sets the error state and ends (error_exit).
typedef struct Body {
  Node *block;
  Token *at;
} Body;

static const char *val_name;

static Node *block_of(Node *stmt, Token *at) {
  Node *blk = new_node(ND_BLOCK, at);
  if (stmt)
    vec_push(&blk->args, stmt);
  return blk;
}

static void add_stmt(Body *b, Node *stmt) { vec_push(&b->block->args, stmt); }

// DiVinE's error state, and the end of the action: every variable 0, every
// channel empty, every process in its first state (all of which is the
// default state), except the first process, which is in a state of its own.
static Node *error_exit(Token *at) {
  Node *reset = new_node(ND_RESET, at);
  DProc *first = sys->procs.data[0];
  reset->lhs = assign(ident(at, first->cname), ident(at, error_member), at);
  return block_of(reset, at);
}

// Records that evaluating `bad` (in the current state) is an error.
static void add_check(Body *b, Node *bad) {
  if (bad)
    add_stmt(b, new_cond(ND_IF, bad, error_exit(b->at), NULL, b->at));
}

// The lvalue `x` / `a[i]` and the condition under which its index is bad.
static Node *lower_lvalue(DExpr *l, Node **bad) {
  *bad = NULL;
  if (!l->idx)
    return ident(l->name, l->var->cname);
  LExpr ix = lower(l->idx);
  if (!const_index_ok(l->idx, l->var->size))
    *bad = or_bad(ix.bad, new_unary(OP_NOT, index_ok(l->idx, l->var->size), l->tok), l->tok);
  return element(l);
}

// `lhs = val` with DiVinE's rule: a value out of the variable's range, or an
// index out of range, is an error.
static void add_assign(Body *b, DExpr *l, LExpr val, Token *at) {
  Node *lbad;
  Node *lhs = lower_lvalue(l, &lbad);
  bool is_int = l->var->is_int;
  Node *bad = or_bad(val.bad, lbad, at);
  if (!bad && fits(val, is_int)) {
    add_stmt(b, assign(lhs, as_int(val), at));
    return;
  }
  // { let v = VAL; if (!BAD && lo <= v && v <= hi) lhs = v; else <error state>; }
  // The emitter sees from the condition that v is in range where it is
  // stored, and checks it no second time.
  Node *blk = new_node(ND_BLOCK, at);
  Node *let = new_node(ND_LET, at);
  let->name = synth(at, val_name);
  let->rhs = as_int(val);
  vec_push(&blk->args, let);
  Node *ok = bad ? new_unary(OP_NOT, bad, at) : NULL;
  if (!fits(val, is_int)) {
    Node *low = new_binary(OP_LE, new_num(at, is_int ? -32768 : 0), ident(at, val_name), at);
    Node *high = new_binary(OP_LE, ident(at, val_name), new_num(at, is_int ? 32767 : 255), at);
    Node *range = new_binary(OP_AND, low, high, at);
    ok = ok ? new_binary(OP_AND, ok, range, at) : range;
  }
  Node *store = block_of(assign(lhs, ident(at, val_name), at), at);
  vec_push(&blk->args, new_cond(ND_IF, ok, store, error_exit(at), at));
  add_stmt(b, blk);
}

// Guard conjuncts of one side of a transition (its source state and
// guards, reads out of range giving 0) and their error condition.
static Node *side_guard(DTrans *t, Vec *conds) {
  vec_push(conds, in_state(t->proc, t->fromi, t->tok));
  Node *bad = NULL;
  for (int i = 0; i < t->guards.len; i++) {
    LExpr g = lower(t->guards.data[i]);
    vec_push(conds, as_bool(g));
    bad = or_bad(bad, g.bad, t->tok);
  }
  return bad;
}

// One side's move to its target state, then its effects in order.
static void side_effects(DTrans *t, Body *b) {
  add_stmt(b, assign(ident(t->to, t->proc->cname), ident(t->to, t->proc->state_cnames[t->toi]),
                     t->to));
  for (int i = 0; i < t->lhs.len; i++) {
    DExpr *l = t->lhs.data[i];
    add_assign(b, l, lower(t->rhs.data[i]), l->tok);
  }
}

// An action is named after its transition, `P_NCS_wait` (with the other
// side's and the property's after it), made unique; the label is how
// reports show it.
static Decl *new_action(Token *at, const char *name, const char *label, Body *b) {
  Decl *d = add_decl(DK_ACTION, at, "action", fresh_name(name));
  d->label = label;
  d->body = new_node(ND_BLOCK, at);
  *b = (Body){.block = d->body, .at = at};
  return d;
}

static const char *side_label(DTrans *t) {
  return format("%s: %s -> %s", t->proc->name->str, t->from->str, t->to->str);
}

// The same as a name: DVE names are C names, so this one is too.
static const char *side_name(DTrans *t) {
  return format("%s_%s_%s", t->proc->name->str, t->from->str, t->to->str);
}

static Node *method(Node *recv, const char *name, Node *arg, Token *at) {
  Node *m = new_node(ND_METHOD, at);
  m->lhs = recv;
  m->name = synth(at, name);
  if (arg)
    vec_push(&m->args, arg);
  return m;
}

static Node *expr_stmt(Node *call) {
  Node *st = new_node(ND_EXPR_STMT, call->tok);
  st->lhs = call;
  return st;
}

// A buffered send or receive, after the transition's effects (as DiVinE
// does it: the sent values are evaluated after the effects, the received
// ones stored after them).
static void buffered_io(DTrans *t, Body *b) {
  DChan *c = t->chan;
  Token *at = t->sync_tok;
  if (c->ncomp == 0) {
    Node *n = ident(at, c->qnames[0]);
    add_stmt(b, assign(ident(at, c->qnames[0]),
                       new_binary(t->send ? OP_ADD : OP_SUB, n, new_num(at, 1), at), at));
    return;
  }
  for (int k = 0; k < c->ncomp; k++) {
    Node *q = ident(at, c->qnames[k]);
    if (t->send) {
      LExpr v =
          k < t->sexprs.len ? lower(t->sexprs.data[k]) : (LExpr){new_num(at, 0), V_BYTE, NULL};
      add_check(b, v.bad);
      add_stmt(b, expr_stmt(method(q, "push", wrapped(v, comp_is_int(c, k), at), at)));
    } else if (k < t->sexprs.len) {
      LExpr h = {method(ident(at, c->qnames[k]), "head", NULL, at),
                 comp_is_int(c, k) ? V_INT16 : V_BYTE, NULL};
      add_assign(b, t->sexprs.data[k], h, at);
    }
  }
  if (!t->send)
    for (int k = 0; k < c->ncomp; k++)
      add_stmt(b, expr_stmt(method(ident(at, c->qnames[k]), "pop", NULL, at)));
}

// Guard of a transition without a rendezvous: its source state and guards,
// the committed-state rule, a buffered channel's room or content. *bad:
// when evaluating it is an error.
static Node *single_guard(DTrans *t, Node **bad) {
  Vec conds = {0};
  *bad = side_guard(t, &conds);
  if (!t->proc->commit[t->fromi] && any_committed)
    vec_push(&conds, new_unary(OP_NOT, committed_expr(t->tok), t->tok));
  DChan *c = t->chan;
  if (c) { // buffered
    Token *at = t->sync_tok;
    Node *q0 = ident(at, c->qnames[0]);
    if (c->ncomp == 0)
      vec_push(&conds,
               new_binary(t->send ? OP_LT : OP_GT, q0, new_num(at, t->send ? c->cap : 0), at));
    else
      vec_push(&conds, new_unary(OP_NOT, method(q0, t->send ? "full" : "empty", NULL, at), at));
  }
  return and_all(&conds, t->tok);
}

// Guard of the rendezvous of receiver r and sender s.
static Node *pair_guard(DTrans *r, DTrans *s, Node **bad) {
  Vec conds = {0};
  *bad = side_guard(r, &conds);
  *bad = or_bad(*bad, side_guard(s, &conds), r->tok);
  if (!r->proc->commit[r->fromi] && any_committed)
    vec_push(&conds, new_unary(OP_NOT, committed_expr(r->tok), r->tok));
  return and_all(&conds, r->tok);
}

// The property process's transition pt joins a system step: its source
// state and guards (evaluated in the step's source state) join the guard;
// its move follows the step's effects (unless the step failed).
static Node *with_property(Node *guard, Node **bad, DTrans *pt) {
  if (!pt)
    return guard;
  Vec conds = {0};
  vec_push(&conds, guard);
  *bad = or_bad(*bad, side_guard(pt, &conds), pt->tok);
  return and_all(&conds, pt->tok);
}

static const char *with_property_label(const char *label, DTrans *pt) {
  return pt ? format("%s; %s", label, side_label(pt)) : label;
}

static const char *with_property_name(const char *name, DTrans *pt) {
  return pt ? format("%s_%s", name, side_name(pt)) : name;
}

// One action for a transition without a rendezvous (with the property's pt).
static void lower_single(DTrans *t, DTrans *pt) {
  Body b;
  Decl *d = new_action(t->tok, with_property_name(side_name(t), pt),
                       with_property_label(side_label(t), pt), &b);
  d->process = t->proc->name->str;
  Node *gbad;
  d->expr = with_property(single_guard(t, &gbad), &gbad, pt);
  add_check(&b, gbad);
  side_effects(t, &b);
  if (t->chan)
    buffered_io(t, &b);
  if (pt)
    side_effects(pt, &b);
}

// Whether the rendezvous of r and s can ever fire: not when only one side
// is committed (that side puts the system in committed mode, where the
// other may not move).
static bool pair_possible(DTrans *r, DTrans *s) {
  return r->proc->commit[r->fromi] == s->proc->commit[s->fromi];
}

// One action for a rendezvous of receiver r and sender s (with pt).
static void lower_pair(DTrans *r, DTrans *s, DTrans *pt) {
  Body b;
  const char *label = format("%s, %s (%s)", side_label(s), side_label(r), r->chan->name->str);
  const char *name = format("%s_%s", side_name(s), side_name(r));
  Decl *d = new_action(r->tok, with_property_name(name, pt), with_property_label(label, pt), &b);
  d->process = s->proc->name->str; // a rendezvous is the sender's step
  Node *gbad;
  d->expr = with_property(pair_guard(r, s, &gbad), &gbad, pt);
  add_check(&b, gbad);
  for (int k = 0; k < r->sexprs.len && k < s->sexprs.len; k++) {
    DExpr *l = r->sexprs.data[k];
    LExpr v = lower(s->sexprs.data[k]);
    if (r->chan->typed) { // the value is first converted to the channel's item type
      bool is_int = comp_is_int(r->chan, k);
      v = (LExpr){wrapped(v, is_int, l->tok), is_int ? V_INT16 : V_BYTE, v.bad};
    }
    add_assign(&b, l, v, l->tok);
  }
  side_effects(r, &b);
  side_effects(s, &b);
  if (pt)
    side_effects(pt, &b);
}

// Calls fn for every step of the system (the property process excluded):
// each transition without a rendezvous (b NULL), and each rendezvous of a
// receiver a and a sender b of another process that can fire.
static void each_step(void (*fn)(DTrans *a, DTrans *b, void *arg), void *arg) {
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    if (p == prop_proc)
      continue;
    for (int j = 0; j < p->trans.len; j++) {
      DTrans *t = p->trans.data[j];
      if (!t->chan || t->chan->cap > 0) {
        fn(t, NULL, arg);
        continue;
      }
      if (t->send)
        continue;
      for (int k = 0; k < sys->procs.len; k++) {
        DProc *q = sys->procs.data[k];
        if (q == p || q == prop_proc)
          continue;
        for (int m = 0; m < q->trans.len; m++) {
          DTrans *s = q->trans.data[m];
          if (s->chan == t->chan && s->send && s->sexprs.len == t->sexprs.len &&
              pair_possible(t, s))
            fn(t, s, arg);
        }
      }
    }
  }
}

// Lowers one step, once per transition of the property process if any.
static void step_actions(DTrans *a, DTrans *b, void *arg) {
  (void)arg;
  int n = prop_proc ? prop_proc->trans.len : 1;
  for (int i = 0; i < n; i++) {
    DTrans *pt = prop_proc ? prop_proc->trans.data[i] : NULL;
    if (b)
      lower_pair(a, b, pt);
    else
      lower_single(a, pt);
  }
}

// ORs a step's guard into *arg.
static void step_guard_or(DTrans *a, DTrans *b, void *arg) {
  Node **acc = arg, *bad;
  Node *g = b ? pair_guard(a, b, &bad) : single_guard(a, &bad);
  *acc = *acc ? new_binary(OP_OR, *acc, g, a->tok) : g;
}

// With a property process: when no system step is possible, the property
// process moves alone (DiVinE extends a deadlock of the system by
// stuttering). A state is accepting when the property process is in an
// accept state; the property holds when no behaviour visits accepting states
// infinitely often: `<>[] (!accepting || no successor)` (a state without
// successors is no cycle for DiVinE, but repeats forever for mcgen; it has
// none exactly when the property process can take no transition).
static void lower_property(void) {
  DProc *pp = prop_proc;
  Token *at = sys->property;
  for (int i = 0; i < pp->trans.len; i++) {
    DTrans *pt = pp->trans.data[i];
    Node *any = NULL;
    each_step(step_guard_or, &any);
    Body b;
    Decl *d = new_action(pt->tok, format("idle_%s", side_name(pt)),
                         format("(no system step); %s", side_label(pt)), &b);
    d->process = pp->name->str;
    Vec conds = {0};
    Node *gbad = side_guard(pt, &conds);
    if (any)
      vec_push(&conds, new_unary(OP_NOT, any, pt->tok));
    d->expr = and_all(&conds, pt->tok);
    add_check(&b, gbad);
    side_effects(pt, &b);
    }
  Node *accepting = NULL, *can_move = NULL;
  for (int s = 0; s < pp->states.len; s++)
    if (pp->accept[s])
      accepting = or_bad(accepting, in_state(pp, s, at), at);
  for (int i = 0; i < pp->trans.len; i++) {
    Vec conds = {0};
    side_guard(pp->trans.data[i], &conds);
    can_move = or_bad(can_move, and_all(&conds, at), at);
  }
  Decl *d = add_decl(DK_PROPERTY, at, "property", fresh_name(format("%s_ltl", pp->name->str)));
  d->label = format("no accepting cycle of %s", pp->name->str);
  d->temporal = TEMP_EVENTUALLY_ALWAYS;
  Node *ok = accepting ? new_unary(OP_NOT, accepting, at) : new_bool(at, true);
  if (can_move)
    ok = new_binary(OP_OR, ok, new_unary(OP_NOT, can_move, at), at);
  d->expr = ok;
}

static void lower_channels(void) {
  for (int i = 0; i < sys->chans.len; i++) {
    DChan *c = sys->chans.data[i];
    if (c->cap == 0)
      continue;
    if (!c->typed && c->ncomp == 0) {
      // An untyped buffered channel: values are ints if any sync sends one.
      for (int j = 0; j < sys->procs.len; j++) {
        DProc *p = sys->procs.data[j];
        for (int k = 0; k < p->trans.len; k++) {
          DTrans *t = p->trans.data[k];
          if (t->chan == c && t->sexprs.len && !c->ncomp) {
            c->ncomp = 1;
            vec_push(&c->types, "int");
          }
        }
      }
    }
    int n = c->ncomp ? c->ncomp : 1;
    c->qnames = xcalloc((size_t)n, sizeof(char *));
    for (int k = 0; k < n; k++) {
      c->qnames[k] = fresh_name(c->ncomp > 1 ? format("%s_%d", c->name->str, k) : c->name->str);
      Decl *d = add_decl(DK_VAR, c->name, "var", c->qnames[k]);
      d->label = c->ncomp > 1 ? format("%s.%d", c->name->str, k) : c->name->str;
      if (c->ncomp == 0) {
        d->type = new_range_type(c->name, 0, c->cap);
      } else {
        Type *q = new_type(TY_QUEUE, c->name);
        q->base = dve_scalar_type(c->name, comp_is_int(c, k));
        q->cap_expr = new_num(c->name, c->cap);
        d->type = q;
      }
    }
  }
}

static void lower_system(void) {
  for (int i = 0; i < sys->vars.len; i++)
    lower_var_decl(sys->vars.data[i]);
  for (int i = 0; i < sys->procs.len; i++)
    lower_process_decl(sys->procs.data[i], i == 0);
  lower_channels();
  val_name = fresh_name("dve_val");

  Decl *init = add_decl(DK_INIT, sys->system_tok, "init", NULL);
  init->body = new_node(ND_BLOCK, sys->system_tok);
  lower_initial_state(init->body);

  any_committed = committed_expr(sys->system_tok) != NULL;
  each_step(step_actions, NULL);
  if (prop_proc)
    lower_property();
  for (int i = 0; i < sys->procs.len; i++) {
    DProc *p = sys->procs.data[i];
    for (int j = 0; j < p->assert_states.len; j++) {
      Token *st = p->assert_states.data[j];
      int s = state_index(p, st);
      if (s < 0)
        continue;
      Decl *d = add_decl(DK_INVARIANT, st, "invariant", fresh_name(format("assert_%s_%s",
                                                                         p->name->str, st->str)));
      d->label = format("assert %s: %s", p->name->str, st->str);
      d->expr = new_binary(OP_OR, new_unary(OP_NOT, in_state(p, s, st), st),
                           as_bool(lower(p->assert_exprs.data[j])), st);
    }
  }
}

// Parses, resolves and lowers a .dve file. Errors are reported; the result
// is only meaningful when none were.
Program *parse_dve(const SrcFile *file) {
  src = file;
  prog = xcalloc(1, sizeof *prog);
  prog->file = file;
  names = (StrSet){0};
  int before = error_count();
  sys = dve_parse(file);
  resolve_decls();
  resolve_all();
  if (error_count() > before)
    return prog;
  if (setjmp(lower_fail)) {
    ast_node_budget(0, NULL);
    return prog;
  }
  ast_node_budget(MAX_NODES, too_many_nodes);
  lower_system();
  ast_node_budget(0, NULL);
  return prog;
}
