// SPDX-License-Identifier: MIT
// deps.c: what each action rule reads and writes, for partial-order
// reduction (the checker's --por, runtime/context/por.c) and for people (mcgen
// --deps). Requires check() and layout().
//
// The state is cut into cells at the finest granularity the layout allows:
// a scalar (or optional) variable is one cell, an array one cell group per
// element, a record one per field, recursively; a set, multiset or queue is
// one cell (its encoding is not a per-element field). A location written in
// the spec (`x`, `a[i]`, `r.f`, `a[i].f[j]`) is a contiguous range of
// cells: the cells of array element k are the k-th block of the array's.
//
// Every binding of an action's parameters is analysed on its own (rule r is
// binding r - first of its action, first parameter most significant, as
// emit.c numbers them): an index that evaluates to a constant under the
// binding (a number, a constant, an enum member, a parameter, arithmetic on
// those) selects one element; any other index (a state variable, a
// quantifier or loop variable, a local) selects every element. Reads are
// every state location evaluated in the guard (guard list) and in guard and
// body (read list), including those read by the functions the rule calls
// (their parameters unbound); writes are the targets of assignments and of
// the mutating methods (push, pop, add, remove, clear; these also read),
// and every cell for DVE's error state (ND_RESET; the normal_write lists
// leave it out, and the rule is marked as one that resets). A scenario's state
// variable is read by every guard and written by every body (scenario.c
// adds it outside the tree). The process of a rule is the DVE process of
// its transition (Decl.process); in a .mc spec the binding of the action's
// first scalarset parameter (one process per action and value), else the
// action itself. The visible cells are those the invariants, reachable,
// terminal, constraint and accepting predicates read; what each of the five
// kinds reads is listed apart too (pred_reads; a scenario's state cell goes
// with the accepting predicates), for a search that needs only some of them
// (--search odpor: invariants and reachables).
#include "mcgen.h"

#define DEPS_MAX_RULES (1u << 20)
#define DEPS_MAX_CELLS (1u << 20)
#define DEPS_MAX_ENTRIES (1u << 26) // cells in all the lists together

// The kinds of predicate whose reads are listed apart, and their names in
// McrtDeps (n<name>_reads, <name>_reads) and in mcgen --deps-json.
enum { PK_INVARIANT, PK_REACHABLE, PK_TERMINAL, PK_CONSTRAINT, PK_ACCEPTING, PK_COUNT };
static const char *const pred_kind_name[PK_COUNT] = {"invariant", "reachable", "terminal",
                                                     "constraint", "accepting"};
static const DeclKind pred_kind_decl[PK_COUNT] = {DK_INVARIANT, DK_REACHABLE, DK_TERMINAL,
                                                  DK_CONSTRAINT, DK_ACCEPTING};

static Type *R(Type *ty) { return resolve(ty); }

// ---------------------------------------------------------------------------
// Cells

static int64_t ncells_of(Type *ty) {
  ty = R(ty);
  switch (ty->kind) {
  case TY_ARRAY:
    return R(ty->index)->card * ncells_of(ty->base);
  case TY_RECORD: {
    int64_t n = 0;
    for (int i = 0; i < ty->nfields; i++)
      n += ncells_of(ty->fields[i]->type);
    return n;
  }
  default:
    return 1;
  }
}

// Names every cell of a value of type ty at bit offset off, and records
// where its bits are (cell_bits: offset, width).
static void name_cells(Type *ty, const char *path, int64_t off, Vec *names, Vec *cell_bits) {
  ty = R(ty);
  if (ty->kind == TY_ARRAY) {
    for (int64_t i = 0; i < R(ty->index)->card; i++)
      name_cells(ty->base, format("%s[%s]", path, value_name(ty->index, i)),
                 off + i * R(ty->base)->width, names, cell_bits);
  } else if (ty->kind == TY_RECORD) {
    for (int i = 0; i < ty->nfields; i++)
      name_cells(ty->fields[i]->type, format("%s.%s", path, token_text(ty->fields[i]->name)),
                 off + ty->fields[i]->offset, names, cell_bits);
  } else {
    vec_push(names, (void *)path);
    vec_push(cell_bits, (void *)(intptr_t)off);
    vec_push(cell_bits, (void *)(intptr_t)ty->width);
  }
}

// A location in the state: blocks of `size` cells starting at each of
// `starts`, holding values of type ty. An array element at an index not
// known statically is every element's block.
typedef struct Loc {
  Vec starts; // (intptr_t) first cells
  int64_t size;
  Type *ty;
  // An element of one array at an index held by one scalar cell (a[j],
  // a[j + 1], a[j].f): which element, in a given state, is the one at
  // position enc(dyn_cell) + dyn_shift; within it, cells dyn_inner ..
  // dyn_inner + size. starts still lists every element's.
  bool dyn;
  int64_t dyn_base, dyn_k, dyn_n, dyn_cell, dyn_shift, dyn_inner;
} Loc;

static Layout *lay;
static int64_t *var_cell; // first cell of each state variable, by lay->vars index
static int64_t ncells;

static int var_index(Obj *var) {
  for (int i = 0; i < lay->vars.len; i++)
    if (lay->vars.data[i] == var)
      return i;
  return -1;
}

// ---------------------------------------------------------------------------
// Values under a binding

static Obj **bound_obj;   // the parameters of the action being analysed
static int64_t *bound_enc; // and their encodings in the current binding
static int nbound;

// The logical value of a constant expression (a range's integer, an enum,
// scalarset or bool's encoding). False when it is not constant.
static bool eval(Node *node, int64_t *v) {
  if (node->kind == ND_IDENT && node->obj && node->obj->kind == OBJ_PARAM) {
    for (int i = 0; i < nbound; i++)
      if (bound_obj[i] == node->obj) {
        Type *ty = R(node->obj->type);
        if (ty->kind != TY_RANGE && ty->kind != TY_ENUM && ty->kind != TY_SCALARSET &&
            ty->kind != TY_BOOL)
          return false;
        *v = ty->kind == TY_RANGE ? ty->lo + bound_enc[i] : bound_enc[i];
        return true;
      }
    return false;
  }
  if (node->is_const) {
    *v = node->val;
    return true;
  }
  int64_t a, b, c;
  switch (node->kind) {
  case ND_UNARY:
    if (node->op != OP_NEG || !eval(node->lhs, &a))
      return false;
    *v = -a;
    return true;
  case ND_BINARY:
    if (!eval(node->lhs, &a) || !eval(node->rhs, &b))
      return false;
    switch (node->op) {
    case OP_ADD: return !__builtin_add_overflow(a, b, v);
    case OP_SUB: return !__builtin_sub_overflow(a, b, v);
    case OP_MUL: return !__builtin_mul_overflow(a, b, v);
    case OP_DIV:
    case OP_MOD:
      if (b == 0 || (a == INT64_MIN && b == -1))
        return false;
      *v = node->op == OP_DIV ? a / b : a % b;
      return true;
    default:
      return false;
    }
  case ND_COND:
    if (!eval(node->cond, &c) || !eval(node->then, &a) || !eval(node->els, &b))
      return false;
    *v = c ? a : b;
    return true;
  default:
    return false;
  }
}

// ---------------------------------------------------------------------------
// One rule's sets

typedef struct CellSet {
  bool *in;    // ncells flags
  Vec touched; // (void *)(intptr_t)cell, in the order added
} CellSet;

static void set_add_range(CellSet *s, int64_t lo, int64_t hi) {
  for (int64_t c = lo; c < hi; c++)
    if (!s->in[c]) {
      s->in[c] = true;
      vec_push(&s->touched, (void *)(intptr_t)c);
    }
}

// The precise pass (see analyse_rule): a location at a dynamic index is
// recorded as a dyn entry of the rule instead of all its elements. The
// checker resolves a dyn entry in the state being expanded, which is the
// value its index cell holds only until the rule writes that cell: in the
// body, an access whose index cell the rule may already have written
// (`b[k] = 2; a[b[0]] = 3`, with k = 0) is every element's, as in the
// static lists. `written` holds the cells the body may have written so far
// in program order, a loop's whole body from its first iteration on (DVE's
// error state ends the action: nothing follows it).
static bool precise_mode;
static bool precise_writing; // the set being added to is the write set
static Vec *dyn_sink;        // (intptr_t) 8 numbers per entry
static CellSet *written;     // the precise pass's body: cells written so far

static void set_add_loc(CellSet *s, Loc *l) {
  if (precise_mode && l->dyn && !(written && written->in[l->dyn_cell])) {
    int64_t e[8] = {l->dyn_base, l->dyn_k,     l->dyn_n,    l->dyn_cell,
                    l->dyn_shift, l->dyn_inner, l->size, precise_writing};
    for (int i = 0; i < 8; i++)
      vec_push(dyn_sink, (void *)(intptr_t)e[i]);
    return;
  }
  for (int i = 0; i < l->starts.len; i++)
    set_add_range(s, (intptr_t)l->starts.data[i], (intptr_t)l->starts.data[i] + l->size);
}

// Notes in `written` (during the precise pass's body) every cell of a
// location the body writes, at every element for a dynamic index.
static void note_written(Loc *l) {
  if (!written)
    return;
  for (int i = 0; i < l->starts.len; i++)
    set_add_range(written, (intptr_t)l->starts.data[i], (intptr_t)l->starts.data[i] + l->size);
}

static int cmp_cell(const void *a, const void *b) {
  intptr_t x = (intptr_t)*(void *const *)a, y = (intptr_t)*(void *const *)b;
  return (x > y) - (x < y);
}

// Empties the set, appending its cells in ascending order to `out`.
static void set_drain(CellSet *s, Vec *out) {
  if (s->touched.len)
    qsort(s->touched.data, (size_t)s->touched.len, sizeof(void *), cmp_cell);
  for (int i = 0; i < s->touched.len; i++) {
    vec_push(out, s->touched.data[i]);
    s->in[(intptr_t)s->touched.data[i]] = false;
  }
  s->touched.len = 0;
}

// Empties the set.
static void set_clear(CellSet *s) {
  for (int i = 0; i < s->touched.len; i++)
    s->in[(intptr_t)s->touched.data[i]] = false;
  s->touched.len = 0;
}

// Makes a scratch set (static, reused) large enough for the model's cells.
static void set_reserve(CellSet *s, int64_t *cells) {
  if (*cells < ncells + 1) {
    s->in = xcalloc((size_t)ncells + 1, 1);
    *cells = ncells + 1;
  }
}

typedef struct Sets {
  CellSet *read, *write;
} Sets;

static void reads_of(Node *node, CellSet *read);

static bool index_cell(Node *idx, int64_t *cell, int64_t *shift);

// The location a state lvalue or rvalue denotes, reading on the way the
// index expressions (into `read`). False when the expression is not a
// location in the state.
static bool locate(Node *node, Loc *out, CellSet *read) {
  Loc base = {0};
  *out = (Loc){0};
  switch (node->kind) {
  case ND_IDENT: {
    if (!node->obj || node->obj->kind != OBJ_VAR)
      return false;
    int v = var_index(node->obj);
    if (v < 0)
      return false;
    Obj *var = lay->vars.data[v];
    vec_push(&out->starts, (void *)(intptr_t)var_cell[v]);
    out->size = ncells_of(var->type);
    out->ty = R(var->type);
    return true;
  }
  case ND_INDEX: {
    if (!locate(node->lhs, &base, read) || base.ty->kind != TY_ARRAY)
      return false;
    reads_of(node->rhs, read);
    Type *index = R(base.ty->index);
    int64_t k = ncells_of(base.ty->base), v, pos = -1;
    if (eval(node->rhs, &v)) {
      pos = index->kind == TY_RANGE ? v - index->lo : v;
      if (pos >= index->card)
        pos = -1; // a run-time error: said to touch every element
    }
    for (int i = 0; i < base.starts.len; i++)
      for (int64_t e = 0; e < index->card; e++)
        if (pos < 0 || e == pos)
          vec_push(&out->starts, (void *)((intptr_t)base.starts.data[i] + e * k));
    out->size = k;
    out->ty = R(base.ty->base);
    if (base.dyn && pos >= 0) { // a[j][2]: the element's inner part
      out->dyn = true;
      out->dyn_base = base.dyn_base, out->dyn_k = base.dyn_k, out->dyn_n = base.dyn_n;
      out->dyn_cell = base.dyn_cell, out->dyn_shift = base.dyn_shift;
      out->dyn_inner = base.dyn_inner + pos * k;
    } else if (!base.dyn && pos < 0 && base.starts.len == 1) {
      int64_t cell, shift;
      if (index_cell(node->rhs, &cell, &shift)) {
        out->dyn = true;
        out->dyn_base = (intptr_t)base.starts.data[0], out->dyn_k = k;
        out->dyn_n = index->card, out->dyn_cell = cell;
        out->dyn_shift = shift - (index->kind == TY_RANGE ? index->lo : 0);
        out->dyn_inner = 0;
      }
    }
    return true;
  }
  case ND_FIELD: {
    if (!locate(node->lhs, &base, read) || base.ty->kind != TY_RECORD)
      return false;
    int64_t off = 0;
    for (int i = 0; i < base.ty->nfields; i++) {
      Field *f = base.ty->fields[i];
      if (f == node->field) {
        for (int j = 0; j < base.starts.len; j++)
          vec_push(&out->starts, (void *)((intptr_t)base.starts.data[j] + off));
        out->size = ncells_of(f->type);
        out->ty = R(f->type);
        if (base.dyn) {
          out->dyn = true;
          out->dyn_base = base.dyn_base, out->dyn_k = base.dyn_k, out->dyn_n = base.dyn_n;
          out->dyn_cell = base.dyn_cell, out->dyn_shift = base.dyn_shift;
          out->dyn_inner = base.dyn_inner + off;
        }
        return true;
      }
      off += ncells_of(f->type);
    }
    return false;
  }
  default:
    return false;
  }
}

// Whether an index is one scalar state cell plus a constant (`j`, `j + 1`,
// `j - 1`, `p.next`): its cell and the constant added to its logical value,
// expressed on the encoding (logical = encoding + lo for a range).
static bool index_cell(Node *idx, int64_t *cell, int64_t *shift) {
  int64_t c = 0;
  if (idx->kind == ND_BINARY && (idx->op == OP_ADD || idx->op == OP_SUB)) {
    if (!eval(idx->rhs, &c))
      return false;
    if (idx->op == OP_SUB)
      c = -c;
    idx = idx->lhs;
  }
  Loc l;
  static CellSet junk_set; // the index's own reads: counted by the caller
  static int64_t junk_cells;
  set_reserve(&junk_set, &junk_cells);
  bool saved = precise_mode;
  precise_mode = false;
  bool ok = locate(idx, &l, &junk_set) && !l.dyn && l.starts.len == 1 && l.size == 1 &&
            (l.ty->kind == TY_RANGE || l.ty->kind == TY_ENUM || l.ty->kind == TY_BOOL ||
             l.ty->kind == TY_SCALARSET);
  precise_mode = saved;
  set_clear(&junk_set);
  if (!ok)
    return false;
  *cell = (intptr_t)l.starts.data[0];
  *shift = c + (l.ty->kind == TY_RANGE ? l.ty->lo : 0);
  return true;
}

// What the rule being analysed writes into single scalar cells (the
// precise pass only): (cell, encoding) of each constant assignment, and
// (cell, -1) where the value is not known (enabling sets: a rule that never
// writes value v into cell c cannot make `c == v` true).
static Vec *value_sink; // (intptr_t) pairs

static void note_value_write(Loc *l, Node *rhs) {
  if (!precise_mode || !value_sink)
    return;
  int64_t v = -1;
  if (rhs && !l->dyn && l->starts.len == 1 && l->size == 1 &&
      (l->ty->kind == TY_RANGE || l->ty->kind == TY_ENUM || l->ty->kind == TY_BOOL) &&
      eval(rhs, &v)) {
    v = l->ty->kind == TY_RANGE ? v - l->ty->lo : v;
    if (v < 0 || v >= l->ty->card)
      v = -1;
  } else {
    v = -1;
  }
  for (int i = 0; i < l->starts.len; i++)
    for (int64_t c = 0; c < l->size; c++) {
      vec_push(value_sink, (void *)((intptr_t)l->starts.data[i] + c));
      vec_push(value_sink, (void *)(intptr_t)v);
    }
}

static bool is_mutator(const char *name) {
  static const char *const names[] = {"push", "pop", "add", "remove", "clear"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(name, names[i]))
      return true;
  return false;
}

static Vec fns_open; // Decl*: the functions being walked (recursion)

// DVE's error state (ND_RESET: every variable to its default, then one
// assignment of an enum variable, the first process's state): the rule
// being analysed may take it, and where that assignment puts what value.
static bool rule_resets;
static bool have_error_mark;
static int64_t error_offset, error_width, error_value;

static void note_reset(Node *node) {
  rule_resets = true;
  Node *as = node->lhs;
  if (have_error_mark || !as || as->kind != ND_ASSIGN || as->lhs->kind != ND_IDENT ||
      !as->rhs->is_const)
    return;
  int v = var_index(as->lhs->obj);
  if (v < 0)
    return;
  have_error_mark = true;
  error_offset = lay->offsets[v];
  error_width = R(((Obj *)lay->vars.data[v])->type)->width;
  error_value = as->rhs->val;
}

// note_loop_writes: what a loop's body may write, noted in `written`
// before the body is walked (locations only: no dyn entries, no reads).
static bool loop_write_visit(Node *node, void *ctx) {
  CellSet *junk = ctx;
  Loc l;
  if (node->kind == ND_ASSIGN && locate(node->lhs, &l, junk))
    note_written(&l);
  else if (node->kind == ND_METHOD && is_mutator(token_text(node->name)) &&
           locate(node->lhs, &l, junk))
    note_written(&l);
  return node->kind != ND_RESET; // it ends the action
}

static void note_loop_writes(Node *body) {
  static CellSet junk; // the locations' index reads: counted by the caller
  static int64_t junk_cells;
  set_reserve(&junk, &junk_cells);
  bool saved = precise_mode;
  precise_mode = false;
  walk(body, loop_write_visit, &junk);
  precise_mode = saved;
  set_clear(&junk);
}

static bool visit(Node *node, void *ctx) {
  Sets *s = ctx;
  Loc l;
  switch (node->kind) {
  case ND_IDENT:
  case ND_INDEX:
  case ND_FIELD:
    if (!locate(node, &l, s->read))
      return true;
    set_add_loc(s->read, &l);
    return false;
  case ND_ASSIGN:
    if (s->write && locate(node->lhs, &l, s->read)) {
      precise_writing = true;
      set_add_loc(s->write, &l);
      precise_writing = false;
      note_value_write(&l, node->rhs);
      note_written(&l);
    } else
      walk(node->lhs, visit, s);
    walk(node->rhs, visit, s);
    return false;
  case ND_METHOD:
    if (s->write && is_mutator(token_text(node->name)) && locate(node->lhs, &l, s->read)) {
      set_add_loc(s->read, &l);
      precise_writing = true;
      set_add_loc(s->write, &l);
      precise_writing = false;
      note_value_write(&l, NULL);
      note_written(&l);
      for (int i = 0; i < node->args.len; i++)
        walk(node->args.data[i], visit, s);
      return false;
    }
    return true;
  case ND_RESET:
    // Its assignment (the first process to its error state) is part of
    // the error state, which every rule that resets writes whole (the
    // write lists) and which the normal_write lists leave out: walked as
    // an assignment, it made every such rule of every process a writer of
    // the first process's state cell, dependent on all its rules
    // (peterson.1: most closures held every enabled rule through it).
    // It ends the action (emit.c): no access follows it, so it adds
    // nothing to `written`.
    if (s->write)
      note_reset(node);
    return false;
  case ND_FOR:
    // A later iteration sees what the whole body writes in earlier ones.
    if (s->write && written)
      note_loop_writes(node->body);
    return true;
  case ND_CALL: {
    Decl *fn = node->obj ? node->obj->decl : NULL;
    if (fn && fn->body) {
      bool open = false;
      for (int i = 0; i < fns_open.len; i++)
        open |= fns_open.data[i] == fn;
      if (!open) {
        vec_push(&fns_open, fn);
        Sets fs = {s->read, NULL}; // a fn reads the state, never writes it
        walk(fn->body, visit, &fs);
        fns_open.len--;
      }
    }
    return true;
  }
  default:
    return true;
  }
}

static void reads_of(Node *node, CellSet *read) {
  Sets s = {read, NULL};
  walk(node, visit, &s);
}

// ---------------------------------------------------------------------------
// The tables

typedef struct Deps {
  uint32_t nrules, ncells;
  Vec cell_names;                       // const char*
  uint32_t *guard_start, *read_start, *write_start;
  Vec guard, read, write;               // (intptr_t) cells
  Vec normal_write;                     // writes other than the error state's
  Vec pread, pwrite, dyn;               // the precise pass: reads and writes
  Vec values;                           // (cell, encoding or -1) pairs per rule
  uint32_t *values_start;
  uint32_t *pread_start, *pwrite_start, *dyn_start;
  uint32_t *normal_write_start;
  uint8_t *resets;                      // per rule: may take the error state
  bool any_resets;
  Vec rule_names;                       // "enter_loop(i=Proc_1)"
  Vec cell_bits;                        // per cell: bit offset, width
  uint32_t *key_start;                  // per rule: its keys (find_keys)
  Vec key_cell, key_value, key_op;
  uint32_t *process;
  Vec process_names;
  Vec visible;
  Vec pred_reads[PK_COUNT]; // per kind of predicate, sorted cells
  const char *refused; // why there is no table, or NULL
} Deps;

static Deps deps;

// The first scalarset parameter of an action, or -1.
static int process_param(Decl *d) {
  for (int i = 0; i < d->params.len; i++) {
    Binder *b = d->params.data[i];
    if (!b->in_expr && R(b->type)->kind == TY_SCALARSET)
      return i;
  }
  return -1;
}

static Type *param_type(Binder *b) { return b->in_expr ? R(b->in_expr->ty)->base : R(b->type); }

// The index of the process named `name`, numbered in the order met. The
// set says whether the name is new; an old one is most often the last one
// met, else found by a scan of the names.
static uint32_t process_id(StrSet *seen, const char *name) {
  static int last;
  if (strset_add(seen, name)) {
    vec_push(&deps.process_names, (void *)name);
    return (uint32_t)(last = deps.process_names.len - 1);
  }
  if (last < deps.process_names.len && !strcmp(deps.process_names.data[last], name))
    return (uint32_t)last;
  for (int i = 0; i < deps.process_names.len; i++)
    if (!strcmp(deps.process_names.data[i], name))
      return (uint32_t)(last = i);
  unreachable();
}

// The key conjuncts' comparisons (Deps.key_op, McrtDeps.key_op): the
// cell's encoding against the key value.
enum { KEY_EQ, KEY_NE, KEY_LT, KEY_LE, KEY_GT, KEY_GE };
static const char *const key_op_text[] = {"==", "!=", "<", "<=", ">", ">="};

// Whether evaluating an expression may raise a run-time error (an index
// out of range, a division by zero, `none` used as a value, an overflow, a
// failing fn or method), judged from its form and its operands' types:
// false only where it cannot. A guard that fails is a step of the rule to
// an error, enabled or not: find_keys below needs to know where one can
// happen. Conservative: what it does not recognise may fail.
typedef struct Bounds {
  __int128 lo, hi;
  bool known;
} Bounds;

static bool fits_int64(Bounds b) { return b.known && b.lo >= INT64_MIN && b.hi <= INT64_MAX; }

static Bounds bounds_of(Node *node) {
  int64_t v;
  if (eval(node, &v)) // a constant, a parameter of this binding, arithmetic on them
    return (Bounds){v, v, true};
  Type *ty = R(node->ty);
  if (node->kind == ND_BINARY && ty->kind == TY_INT && node->op >= OP_ADD && node->op <= OP_MOD) {
    Bounds a = bounds_of(node->lhs), b = bounds_of(node->rhs);
    if (!a.known || !b.known || !fits_int64(a) || !fits_int64(b))
      return (Bounds){0, 0, false};
    __int128 ma = a.hi > -a.lo ? a.hi : -a.lo, mb = b.hi > -b.lo ? b.hi : -b.lo;
    switch (node->op) {
    case OP_ADD: return (Bounds){a.lo + b.lo, a.hi + b.hi, true};
    case OP_SUB: return (Bounds){a.lo - b.hi, a.hi - b.lo, true};
    case OP_DIV: return (Bounds){-ma, ma, true}; // truncating: |a / b| <= |a|
    case OP_MOD: { // the sign of a, |a % b| < |b| and <= |a|
      __int128 m = mb - 1 < ma ? mb - 1 : ma;
      return (Bounds){a.lo < 0 ? -m : 0, a.hi > 0 ? m : 0, true};
    }
    default: {
      __int128 p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi}, lo = p[0], hi = p[0];
      for (int i = 1; i < 4; i++)
        lo = p[i] < lo ? p[i] : lo, hi = p[i] > hi ? p[i] : hi;
      return (Bounds){lo, hi, true};
    }
    }
  }
  if (node->kind == ND_UNARY && node->op == OP_NEG && ty->kind == TY_INT) {
    Bounds a = bounds_of(node->lhs);
    return (Bounds){-a.hi, -a.lo, a.known};
  }
  if (node->kind == ND_COND && ty->kind == TY_INT) {
    Bounds a = bounds_of(node->then), b = bounds_of(node->els);
    return (Bounds){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, a.known && b.known};
  }
  switch (ty->kind) {
  case TY_BOOL: return (Bounds){0, 1, true};
  case TY_RANGE: return (Bounds){ty->lo, ty->hi, true};
  case TY_ENUM:
  case TY_SCALARSET: return (Bounds){0, ty->card - 1, true};
  default: return (Bounds){0, 0, false}; // TY_INT of another form, an optional
  }
}

static bool same_expr(Node *a, Node *b) {
  if (!a || !b)
    return a == b;
  if (a->kind != b->kind || a->op != b->op || a->obj != b->obj || a->val != b->val ||
      a->field != b->field || a->is_const != b->is_const)
    return false;
  return same_expr(a->lhs, b->lhs) && same_expr(a->rhs, b->rhs) &&
         (a->kind != ND_COND ||
          (same_expr(a->cond, b->cond) && same_expr(a->then, b->then) && same_expr(a->els, b->els)));
}

// `0 <= X && X < n`: DVE's range check before a read a[X] of an array of n.
static bool range_checked(Node *cond, Node *x, int64_t n) {
  return cond->kind == ND_BINARY && cond->op == OP_AND && cond->lhs->kind == ND_BINARY &&
         cond->lhs->op == OP_LE && cond->lhs->lhs->is_const && cond->lhs->lhs->val == 0 &&
         same_expr(cond->lhs->rhs, x) && cond->rhs->kind == ND_BINARY && cond->rhs->op == OP_LT &&
         same_expr(cond->rhs->lhs, x) && cond->rhs->rhs->is_const && cond->rhs->rhs->val == n;
}

static bool may_fail(Node *node);

// a[i] without its index check: the array and the index themselves.
static bool index_parts_may_fail(Node *node) {
  return may_fail(node->lhs) || may_fail(node->rhs);
}

// Program.none_undefined (a Murphi model): a read of a `none` is an error
// wherever it is not compared with the literal none.
static bool none_undefined;

static bool may_fail_here(Node *node);

static bool may_fail(Node *node) {
  if (node && !node->is_const && none_undefined && R(node->ty)->kind == TY_OPTIONAL &&
      (node->kind == ND_IDENT || node->kind == ND_INDEX || node->kind == ND_FIELD))
    return true;
  return may_fail_here(node);
}

// may_fail() but for the read of an undefined value at the node itself.
static bool may_fail_here(Node *node) {
  if (!node || node->is_const)
    return false;
  switch (node->kind) {
  case ND_NUM:
  case ND_BOOL:
  case ND_NONE:
  case ND_STR:
  case ND_IDENT:
    return false;
  case ND_FIELD:
    return may_fail(node->lhs);
  case ND_INDEX: {
    if (index_parts_may_fail(node))
      return true;
    Type *arr = R(node->lhs->ty);
    if (arr->kind != TY_ARRAY)
      return true;
    Type *it = R(arr->index);
    Bounds b = bounds_of(node->rhs);
    if (it->kind == TY_RANGE)
      return !b.known || b.lo < it->lo || b.hi > it->hi;
    // bool, enum, scalarset: an index of that type (not optional) is in range.
    return R(node->rhs->ty) != it && !(b.known && b.lo >= 0 && b.hi < it->card);
  }
  case ND_UNARY: // !, ~, and - (which overflows on INT64_MIN only)
    if (node->op == OP_NEG && !fits_int64(bounds_of(node->lhs)))
      return true;
    return may_fail(node->lhs);
  case ND_BINARY: {
    // `x == none` reads x's parts, not the (maybe undefined) value itself.
    if ((node->op == OP_EQ || node->op == OP_NE) &&
        (node->lhs->kind == ND_NONE || node->rhs->kind == ND_NONE))
      return may_fail_here(node->lhs->kind == ND_NONE ? node->rhs : node->lhs);
    if (may_fail(node->lhs) || may_fail(node->rhs))
      return true;
    Type *lt = R(node->lhs->ty), *rt = R(node->rhs->ty);
    switch (node->op) {
    case OP_AND: case OP_OR: case OP_IMPLIES: case OP_IFF: case OP_EQ: case OP_NE:
    case OP_IN: case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR:
      return false; // a T? compares with a T without a check; shifts out of range give 0
    case OP_LT: case OP_LE: case OP_GT: case OP_GE:
      return lt->kind == TY_OPTIONAL || rt->kind == TY_OPTIONAL;
    case OP_ADD: case OP_SUB: case OP_MUL: {
      Bounds b = bounds_of(node);
      return !fits_int64(b);
    }
    case OP_DIV: case OP_MOD: {
      Bounds b = bounds_of(node->rhs), a = bounds_of(node->lhs);
      return !b.known || (b.lo <= 0 && b.hi >= 0) ||
             ((!a.known || a.lo <= INT64_MIN) && b.lo <= -1 && b.hi >= -1);
    }
    default:
      return true;
    }
  }
  case ND_COND: {
    if (may_fail(node->cond))
      return true;
    // DVE's reads out of range give 0 (`0 <= i && i < n ? a[i] : 0`), and
    // so do its divisions by zero (`y == 0 ? 0 : x / y`): the lowering's
    // own checks, recognised so that its guards count as total.
    Node *t = node->then, *e = node->els, *c = node->cond;
    Type *arr = t->kind == ND_INDEX ? R(t->lhs->ty) : NULL;
    Type *it = arr && arr->kind == TY_ARRAY ? R(arr->index) : NULL;
    bool then_fails = it && it->kind == TY_RANGE && it->lo == 0 &&
                              range_checked(c, t->rhs, it->card)
                          ? index_parts_may_fail(t)
                          : may_fail(t);
    bool els_fails;
    if (e->kind == ND_BINARY && (e->op == OP_DIV || e->op == OP_MOD) && c->kind == ND_BINARY &&
        c->op == OP_EQ && same_expr(c->lhs, e->rhs) && c->rhs->is_const && c->rhs->val == 0) {
      Bounds a = bounds_of(e->lhs), b = bounds_of(e->rhs); // INT64_MIN / -1 overflows
      els_fails = may_fail(e->lhs) || may_fail(e->rhs) ||
                  ((!a.known || a.lo <= INT64_MIN) && (!b.known || (b.lo <= -1 && b.hi >= -1)));
    } else {
      els_fails = may_fail(e);
    }
    return then_fails || els_fails;
  }
  case ND_QUANT:
    for (int i = 0; i < node->binders.len; i++)
      if (may_fail(((Binder *)node->binders.data[i])->in_expr))
        return true;
    return may_fail(node->body);
  case ND_METHOD: {
    const char *m = token_text(node->name);
    if (strcmp(m, "len") && strcmp(m, "empty") && strcmp(m, "full") && strcmp(m, "count"))
      return true; // head() of an empty queue fails
    if (may_fail(node->lhs))
      return true;
    for (int i = 0; i < node->args.len; i++)
      if (may_fail(node->args.data[i]))
        return true;
    return false;
  }
  default:
    return true; // a fn call (it may fail), a record literal
  }
}

// The conjuncts of the guard of the form `LOC == CONST` or `LOC != CONST`
// where LOC is one scalar cell, and `LOC < CONST` (<=, >, >=) where it is
// one cell of an integer range (either side; `!(LOC == CONST)` too): while
// one of them is false the rule is disabled, and only a rule that writes its cell can
// enable it (a DVE transition's source state, a channel's fill, a loop's
// bound `j < N`; an action's `P[i] == L0`). Each is appended to the key
// lists: the cell, the value's encoding, and the comparison (KEY_*; a
// range's encodings are in the order of its values).
//
// A key counts only when no conjunct evaluated before it may fail
// (may_fail): while it is false the evaluation stops there, so the guard
// neither holds nor fails until a writer of its cell makes it hold. After
// a conjunct that may fail, a rule that writes none of the key's cell can
// still make the guard fail (`when a[i] > 0 && f == 1`, i moved out of
// range while f == 1 is false: the failure is the rule's step, enabled by
// the writer of i), and another that makes the guard stop before it (`m &&
// a[i] > 0 && f == 1`, m set false) hides that failure; the enabling set
// of such a rule is then every writer of a cell its guard reads (tests/por/
// specs/guard_fails.mc). *failed: a conjunct before may fail (in and out).
static void find_keys(Node *guard, bool negated, CellSet *scratch, bool *failed) {
  if (guard->kind == ND_BINARY && guard->op == OP_AND && !negated) {
    find_keys(guard->lhs, false, scratch, failed);
    find_keys(guard->rhs, false, scratch, failed);
    return;
  }
  bool before = *failed;
  *failed = *failed || may_fail(guard);
  if (before)
    return;
  if (guard->kind == ND_UNARY && guard->op == OP_NOT) {
    find_keys(guard->lhs, !negated, scratch, failed);
    *failed = before || may_fail(guard);
    return;
  }
  if (guard->kind != ND_BINARY || guard->op < OP_EQ || guard->op > OP_GE)
    return;
  // The comparison as `LOC op CONST`, LOC on the left (then on the right:
  // the mirrored one), negated under a `!`.
  static const int key_of[] = {KEY_EQ, KEY_NE, KEY_LT, KEY_LE, KEY_GT, KEY_GE};
  static const int mirrored[] = {KEY_EQ, KEY_NE, KEY_GT, KEY_GE, KEY_LT, KEY_LE};
  static const int negation[] = {KEY_NE, KEY_EQ, KEY_GE, KEY_GT, KEY_LE, KEY_LT};
  bool ordered = guard->op != OP_EQ && guard->op != OP_NE;
  for (int side = 0; side < 2; side++) {
    Node *loc = side ? guard->rhs : guard->lhs, *other = side ? guard->lhs : guard->rhs;
    Loc l;
    int64_t v;
    bool found = locate(loc, &l, scratch) && l.starts.len == 1 && l.size == 1 &&
                 (l.ty->kind == TY_RANGE ||
                  (!ordered && (l.ty->kind == TY_BOOL || l.ty->kind == TY_ENUM ||
                                l.ty->kind == TY_SCALARSET))) &&
                 eval(other, &v);
    set_clear(scratch);
    if (!found)
      continue;
    int64_t enc = l.ty->kind == TY_RANGE ? v - l.ty->lo : v;
    if (enc < 0 || enc >= l.ty->card)
      continue; // a value the cell never holds: no key
    vec_push(&deps.key_cell, (void *)(intptr_t)l.starts.data[0]);
    vec_push(&deps.key_value, (void *)(intptr_t)enc);
    int op = key_of[guard->op - OP_EQ];
    if (side)
      op = mirrored[op];
    if (negated)
      op = negation[op];
    vec_push(&deps.key_op, (void *)(intptr_t)op);
    return;
  }
}

static void analyse_rule(Decl *d, CellSet *g, CellSet *r, CellSet *w, int64_t scenario_cell) {
  // A binding of a parameter `x in EXPR` is a step only while its element
  // is in EXPR: the collection is read as a guard is, and a rule that adds
  // the element enables the binding (tests/por/specs/in_param.mc: without
  // it, the closure left that rule out).
  for (int i = 0; i < d->params.len; i++) {
    Binder *b = d->params.data[i];
    if (b->in_expr)
      reads_of(b->in_expr, g);
  }
  if (d->expr)
    reads_of(d->expr, g);
  for (int i = 0; i < g->touched.len; i++)
    set_add_range(r, (intptr_t)g->touched.data[i], (intptr_t)g->touched.data[i] + 1);
  Sets s = {r, w};
  rule_resets = false;
  walk(d->body, visit, &s);
  if (scenario_cell >= 0) {
    set_add_range(g, scenario_cell, scenario_cell + 1);
    set_add_range(r, scenario_cell, scenario_cell + 1);
    set_add_range(w, scenario_cell, scenario_cell + 1);
  }
  set_drain(g, &deps.guard);
  set_drain(r, &deps.read);
  int from = deps.write.len;
  set_drain(w, &deps.write);
  for (int i = from; i < deps.write.len; i++)
    vec_push(&deps.normal_write, deps.write.data[i]);
  if (rule_resets) { // the error state writes every cell
    deps.write.len = from;
    for (int64_t c = 0; c < ncells; c++)
      vec_push(&deps.write, (void *)(intptr_t)c);
  }
  // The precise pass: the same walk, where an access at an index held by
  // one cell is a dyn entry (the checker resolves it in the state at hand)
  // instead of every element; writes without the error state's.
  precise_mode = true;
  dyn_sink = &deps.dyn;
  value_sink = &deps.values;
  Sets ps = {r, w};
  for (int i = 0; i < d->params.len; i++) {
    Binder *b = d->params.data[i];
    if (b->in_expr)
      walk(b->in_expr, visit, &ps);
  }
  if (d->expr)
    walk(d->expr, visit, &ps);
  static CellSet body_written;
  static int64_t body_written_cells;
  set_reserve(&body_written, &body_written_cells);
  written = &body_written;
  walk(d->body, visit, &ps);
  written = NULL;
  set_clear(&body_written);
  precise_mode = false;
  if (scenario_cell >= 0) {
    set_add_range(r, scenario_cell, scenario_cell + 1);
    set_add_range(w, scenario_cell, scenario_cell + 1);
  }
  set_drain(r, &deps.pread);
  set_drain(w, &deps.pwrite);
}

static bool compute(Program *prog, Layout *layout) {
  lay = layout;
  none_undefined = prog->none_undefined;
  memset(&deps, 0, sizeof deps);
  var_cell = xcalloc((size_t)lay->vars.len + 1, sizeof *var_cell);
  ncells = 0;
  for (int i = 0; i < lay->vars.len; i++) {
    Obj *var = lay->vars.data[i];
    var_cell[i] = ncells;
    ncells += ncells_of(var->type);
    if (ncells > DEPS_MAX_CELLS) {
      deps.refused = format("the state has more than %u cells", DEPS_MAX_CELLS);
      return false;
    }
  }
  uint64_t nrules = 0;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_ACTION)
      continue;
    uint64_t n = 1;
    for (int j = 0; j < d->params.len && n <= DEPS_MAX_RULES; j++)
      n *= (uint64_t)binder_card(d->params.data[j]);
    nrules += n;
    if (nrules > DEPS_MAX_RULES) {
      deps.refused = format("the actions have more than %u rules", DEPS_MAX_RULES);
      return false;
    }
  }
  deps.nrules = (uint32_t)nrules;
  deps.ncells = (uint32_t)ncells;
  for (int i = 0; i < lay->vars.len; i++) {
    Obj *var = lay->vars.data[i];
    name_cells(var->type, var->name, lay->offsets[i], &deps.cell_names, &deps.cell_bits);
  }
  int64_t scenario_cell = -1;
  if (scenario_active())
    scenario_cell = var_cell[var_index(scenario_state_var())];

  CellSet g = {xcalloc((size_t)ncells + 1, 1), {0}}, r = {xcalloc((size_t)ncells + 1, 1), {0}},
          w = {xcalloc((size_t)ncells + 1, 1), {0}};
  deps.guard_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.read_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.write_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.process = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.normal_write_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.resets = xcalloc(nrules + 1, 1);
  deps.key_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.pread_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.pwrite_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.dyn_start = xcalloc(nrules + 1, sizeof(uint32_t));
  deps.values_start = xcalloc(nrules + 1, sizeof(uint32_t));
  have_error_mark = false;
  StrSet seen = {0};
  uint32_t rule = 0;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_ACTION)
      continue;
    const char *name = d->label ? d->label : token_text(d->name);
    nbound = d->params.len;
    bound_obj = xcalloc((size_t)nbound + 1, sizeof *bound_obj);
    bound_enc = xcalloc((size_t)nbound + 1, sizeof *bound_enc);
    for (int j = 0; j < nbound; j++)
      bound_obj[j] = ((Binder *)d->params.data[j])->obj;
    int pp = process_param(d);
    for (;;) { // every binding, the last parameter fastest
      Buf rn = {0};
      buf_puts(&rn, name);
      for (int j = 0; j < nbound; j++) {
        Binder *b = d->params.data[j];
        buf_printf(&rn, "%s%s=%s", j ? ", " : "(", token_text(b->name),
                   value_name(param_type(b), bound_enc[j]));
      }
      if (nbound)
        buf_puts(&rn, ")");
      vec_push(&deps.rule_names, rn.data);
      if (d->expr) {
        bool failed = false;
        find_keys(d->expr, false, &g, &failed);
      }
      analyse_rule(d, &g, &r, &w, scenario_cell);
      const char *proc = d->process ? d->process
                         : pp < 0  ? name
                                   : format("%s(%s)", name,
                                            value_name(param_type(d->params.data[pp]),
                                                       bound_enc[pp]));
      deps.process[rule] = process_id(&seen, proc);
      deps.resets[rule] = rule_resets;
      deps.any_resets |= rule_resets;
      rule++;
      deps.normal_write_start[rule] = (uint32_t)deps.normal_write.len;
      deps.key_start[rule] = (uint32_t)deps.key_cell.len;
      deps.pread_start[rule] = (uint32_t)deps.pread.len;
      deps.pwrite_start[rule] = (uint32_t)deps.pwrite.len;
      deps.dyn_start[rule] = (uint32_t)(deps.dyn.len / 8);
      deps.values_start[rule] = (uint32_t)(deps.values.len / 2);
      deps.guard_start[rule] = (uint32_t)deps.guard.len;
      deps.read_start[rule] = (uint32_t)deps.read.len;
      deps.write_start[rule] = (uint32_t)deps.write.len;
      if ((uint64_t)deps.guard.len + deps.read.len + deps.write.len > DEPS_MAX_ENTRIES) {
        deps.refused = format("the rules' cell lists hold more than %u cells", DEPS_MAX_ENTRIES);
        return false;
      }
      int j = nbound - 1;
      while (j >= 0 && ++bound_enc[j] == binder_card(d->params.data[j]))
        bound_enc[j--] = 0;
      if (j < 0)
        break;
    }
  }
  nbound = 0;
  for (int k = 0; k < PK_COUNT; k++) {
    for (int i = 0; i < prog->decls.len; i++) {
      Decl *d = prog->decls.data[i];
      if (d->kind == pred_kind_decl[k])
        reads_of(d->expr, &r);
    }
    if (k == PK_ACCEPTING && scenario_cell >= 0)
      set_add_range(&r, scenario_cell, scenario_cell + 1);
    set_drain(&r, &deps.pred_reads[k]);
  }
  for (int k = 0; k < PK_COUNT; k++)
    for (int i = 0; i < deps.pred_reads[k].len; i++) {
      intptr_t c = (intptr_t)deps.pred_reads[k].data[i];
      set_add_range(&r, c, c + 1);
    }
  set_drain(&r, &deps.visible);
  return true;
}

// ---------------------------------------------------------------------------
// Output: C tables, text, JSON

// The separator before item i of a C initializer, 16 items a line.
static const char *sep(uint64_t i) { return i == 0 ? "\n  " : i % 16 ? ", " : ",\n  "; }

// The C arrays mc_deps_NAME_start (where each of the n rules' entries
// start, and their end) and mc_deps_NAME (the entries): cell indices, or
// with `wide` the int64_t entries of the dyn and values lists.
static void c_list(Buf *out, const char *name, uint32_t *start, uint32_t n, Vec *entries,
                   bool wide) {
  buf_printf(out, "static const uint32_t mc_deps_%s_start[] = {", name);
  for (uint32_t i = 0; i <= n; i++)
    buf_printf(out, "%s%u", sep(i), start[i]);
  buf_printf(out, "\n};\nstatic const %s mc_deps_%s[] = {", wide ? "int64_t" : "uint32_t", name);
  for (int i = 0; i < entries->len; i++) {
    intptr_t e = (intptr_t)entries->data[i];
    if (wide)
      buf_printf(out, "%s%lld", sep((uint64_t)i), (long long)e);
    else
      buf_printf(out, "%s%u", sep((uint64_t)i), (uint32_t)e);
  }
  buf_printf(out, "%s};\n", entries->len ? "\n" : "0");
}

static void c_names(Buf *out, const char *name, Vec *names) {
  buf_printf(out, "static const char *const mc_deps_%s[] = {\n", name);
  for (int i = 0; i < names->len; i++)
    buf_printf(out, "  \"%s\",\n", c_escape(names->data[i]));
  buf_puts(out, "  NULL,\n};\n");
}

bool deps_emit(Program *prog, Layout *layout, Buf *out) {
  if (!compute(prog, layout)) {
    buf_printf(out, "/* No dependency tables: %s. */\n", c_comment_escape(deps.refused));
    return false;
  }
  buf_printf(out, "/* Dependency tables (compiler/analysis/deps.c): %u cells, %u rules. */\n",
             deps.ncells, deps.nrules);
  c_names(out, "cells", &deps.cell_names);
  c_list(out, "guard", deps.guard_start, deps.nrules, &deps.guard, false);
  c_list(out, "read", deps.read_start, deps.nrules, &deps.read, false);
  c_list(out, "write", deps.write_start, deps.nrules, &deps.write, false);
  buf_puts(out, "static const uint32_t mc_deps_process[] = {");
  for (uint32_t i = 0; i < deps.nrules; i++)
    buf_printf(out, "%s%u", sep(i), deps.process[i]);
  buf_printf(out, "%s};\n", deps.nrules ? "\n" : "0");
  c_names(out, "process_names", &deps.process_names);
  if (deps.any_resets) {
    c_list(out, "normal_write", deps.normal_write_start, deps.nrules, &deps.normal_write, false);
    buf_puts(out, "static const uint8_t mc_deps_resets[] = {");
    for (uint32_t i = 0; i < deps.nrules; i++)
      buf_printf(out, "%s%u", sep(i), deps.resets[i]);
    buf_puts(out, "\n};\n");
  }
  c_list(out, "key_cell", deps.key_start, deps.nrules, &deps.key_cell, false);
  buf_puts(out, "static const uint64_t mc_deps_key_value[] = {");
  for (int i = 0; i < deps.key_value.len; i++)
    buf_printf(out, "%s%lluu", sep((uint64_t)i), (unsigned long long)(intptr_t)deps.key_value.data[i]);
  buf_printf(out, "%s};\nstatic const uint8_t mc_deps_key_op[] = {",
             deps.key_value.len ? "\n" : "0");
  for (int i = 0; i < deps.key_op.len; i++)
    buf_printf(out, "%s%u", sep((uint64_t)i), (unsigned)(intptr_t)deps.key_op.data[i]);
  buf_printf(out, "%s};\nstatic const uint32_t mc_deps_cell_bits[] = {",
             deps.key_op.len ? "\n" : "0");
  for (int i = 0; i < deps.cell_bits.len; i++)
    buf_printf(out, "%s%llu", sep((uint64_t)i), (unsigned long long)(intptr_t)deps.cell_bits.data[i]);
  buf_printf(out, "%s};\n", deps.cell_bits.len ? "\n" : "0");
  c_list(out, "pread", deps.pread_start, deps.nrules, &deps.pread, false);
  c_list(out, "pwrite", deps.pwrite_start, deps.nrules, &deps.pwrite, false);
  c_list(out, "dyn", deps.dyn_start, deps.nrules, &deps.dyn, true);
  c_list(out, "values", deps.values_start, deps.nrules, &deps.values, true);
  buf_puts(out, "static const uint32_t mc_deps_visible[] = {");
  for (int i = 0; i < deps.visible.len; i++)
    buf_printf(out, "%s%u", sep(i), (uint32_t)(intptr_t)deps.visible.data[i]);
  buf_printf(out, "%s};\n", deps.visible.len ? "\n" : "0");
  for (int k = 0; k < PK_COUNT; k++) {
    Vec *v = &deps.pred_reads[k];
    buf_printf(out, "static const uint32_t mc_deps_%s_reads[] = {", pred_kind_name[k]);
    for (int i = 0; i < v->len; i++)
      buf_printf(out, "%s%u", sep((uint64_t)i), (uint32_t)(intptr_t)v->data[i]);
    buf_printf(out, "%s};\n", v->len ? "\n" : "0");
  }
  buf_printf(out,
             "static const McrtDeps mc_deps = {\n"
             "    .ncells = %uu,\n"
             "    .cell_names = mc_deps_cells,\n"
             "    .guard_start = mc_deps_guard_start,\n"
             "    .guard = mc_deps_guard,\n"
             "    .read_start = mc_deps_read_start,\n"
             "    .read = mc_deps_read,\n"
             "    .write_start = mc_deps_write_start,\n"
             "    .write = mc_deps_write,\n"
             "    .nprocesses = %uu,\n"
             "    .process = mc_deps_process,\n"
             "    .process_names = mc_deps_process_names,\n"
             "    .nvisible = %uu,\n"
             "    .visible = mc_deps_visible,\n"
             "    .resets = %s,\n"
             "    .normal_write_start = mc_deps_%s_start,\n"
             "    .normal_write = mc_deps_%s,\n"
             "    .error_offset = %lldu,\n"
             "    .error_width = %lldu,\n"
             "    .error_value = %lldu,\n"
             "    .key_start = mc_deps_key_cell_start,\n"
             "    .key_cell = mc_deps_key_cell,\n"
             "    .key_value = mc_deps_key_value,\n"
             "    .key_op = mc_deps_key_op,\n"
             "    .cell_bits = mc_deps_cell_bits,\n"
             "    .pread_start = mc_deps_pread_start,\n"
             "    .pread = mc_deps_pread,\n"
             "    .pwrite_start = mc_deps_pwrite_start,\n"
             "    .pwrite = mc_deps_pwrite,\n"
             "    .dyn_start = mc_deps_dyn_start,\n"
             "    .dyn = mc_deps_dyn,\n"
             "    .values_start = mc_deps_values_start,\n"
             "    .values = mc_deps_values,\n",
             deps.ncells, (uint32_t)deps.process_names.len, (uint32_t)deps.visible.len,
             deps.any_resets ? "mc_deps_resets" : "NULL",
             deps.any_resets ? "normal_write" : "write", deps.any_resets ? "normal_write" : "write",
             (long long)error_offset, (long long)error_width, (long long)error_value);
  for (int k = 0; k < PK_COUNT; k++)
    buf_printf(out, "    .n%s_reads = %uu,\n    .%s_reads = mc_deps_%s_reads,\n", pred_kind_name[k],
               (uint32_t)deps.pred_reads[k].len, pred_kind_name[k], pred_kind_name[k]);
  buf_puts(out, "};\n");
  return true;
}

static bool intersects(Vec *a, uint32_t alo, uint32_t ahi, Vec *b, uint32_t blo, uint32_t bhi) {
  while (alo < ahi && blo < bhi) {
    intptr_t x = (intptr_t)a->data[alo], y = (intptr_t)b->data[blo];
    if (x == y)
      return true;
    if (x < y)
      alo++;
    else
      blo++;
  }
  return false;
}

// Whether rule r writes a cell in the guard of rule s.
static bool affects_guard(uint32_t r, uint32_t s) {
  return intersects(&deps.write, deps.write_start[r], deps.write_start[r + 1], &deps.guard,
                    deps.guard_start[s], deps.guard_start[s + 1]);
}

static void text_cells(FILE *out, const char *what, Vec *cells, uint32_t lo, uint32_t hi) {
  fprintf(out, "  %-7s", what);
  if (lo == hi)
    fputs(" -", out);
  for (uint32_t i = lo; i < hi; i++)
    fprintf(out, " %s", (const char *)deps.cell_names.data[(intptr_t)cells->data[i]]);
  fputc('\n', out);
}

static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(out, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(out, "\\u%04x", *s);
    else
      fputc(*s, out);
  }
  fputc('"', out);
}

static void json_cells(FILE *out, const char *key, Vec *cells, uint32_t lo, uint32_t hi) {
  fprintf(out, "\"%s\": [", key);
  for (uint32_t i = lo; i < hi; i++)
    fprintf(out, "%s%u", i > lo ? ", " : "", (uint32_t)(intptr_t)cells->data[i]);
  fputc(']', out);
}

int deps_print(Program *prog, Layout *layout, FILE *out, bool json) {
  if (!compute(prog, layout)) {
    fprintf(stderr, "mcgen: no dependency tables: %s\n", deps.refused);
    return 2;
  }
  uint32_t n = deps.nrules;
  if (json) {
    fprintf(out, "{\"cells\": [");
    for (int i = 0; i < deps.cell_names.len; i++) {
      fputs(i ? ", " : "", out);
      json_string(out, deps.cell_names.data[i]);
    }
    fprintf(out, "],\n \"processes\": [");
    for (int i = 0; i < deps.process_names.len; i++) {
      fputs(i ? ", " : "", out);
      json_string(out, deps.process_names.data[i]);
    }
    fprintf(out, "],\n \"visible\": [");
    for (int i = 0; i < deps.visible.len; i++)
      fprintf(out, "%s%u", i ? ", " : "", (uint32_t)(intptr_t)deps.visible.data[i]);
    fprintf(out, "],\n \"predicate_reads\": {");
    for (int k = 0; k < PK_COUNT; k++) {
      fprintf(out, "%s", k ? ", " : "");
      json_cells(out, pred_kind_name[k], &deps.pred_reads[k], 0, (uint32_t)deps.pred_reads[k].len);
    }
    fprintf(out, "},\n \"rules\": [");
    for (uint32_t r = 0; r < n; r++) {
      fprintf(out, "%s\n  {\"rule\": %u, \"name\": ", r ? "," : "", r);
      json_string(out, deps.rule_names.data[r]);
      fprintf(out, ", \"process\": %u, ", deps.process[r]);
      json_cells(out, "guard", &deps.guard, deps.guard_start[r], deps.guard_start[r + 1]);
      fputs(", ", out);
      json_cells(out, "read", &deps.read, deps.read_start[r], deps.read_start[r + 1]);
      fputs(", ", out);
      json_cells(out, "write", &deps.write, deps.write_start[r], deps.write_start[r + 1]);
      fputs(", \"enables_or_disables\": [", out);
      bool first = true;
      for (uint32_t s = 0; s < n; s++)
        if (s != r && affects_guard(r, s)) {
          fprintf(out, "%s%u", first ? "" : ", ", s);
          first = false;
        }
      fputs("]}", out);
    }
    fprintf(out, "\n]}\n");
    return 0;
  }
  fprintf(out, "%u cells, %u rules, %d processes\n", deps.ncells, n,
          deps.process_names.len);
  for (uint32_t r = 0; r < n; r++) {
    fprintf(out, "rule %u: %s\n  process %s\n", r, (const char *)deps.rule_names.data[r],
            (const char *)deps.process_names.data[deps.process[r]]);
    text_cells(out, "guard", &deps.guard, deps.guard_start[r], deps.guard_start[r + 1]);
    text_cells(out, "reads", &deps.read, deps.read_start[r], deps.read_start[r + 1]);
    text_cells(out, "writes", &deps.write, deps.write_start[r], deps.write_start[r + 1]);
    for (uint32_t k = deps.key_start[r]; k < deps.key_start[r + 1]; k++)
      fprintf(out, "  key     %s %s %llu (encoding)\n",
              (const char *)deps.cell_names.data[(intptr_t)deps.key_cell.data[k]],
              key_op_text[(intptr_t)deps.key_op.data[k]],
              (unsigned long long)(intptr_t)deps.key_value.data[k]);
  }
  text_cells(out, "visible", &deps.visible, 0, (uint32_t)deps.visible.len);
  fputs("can enable or disable (writes a cell of the other's guard):\n", out);
  for (uint32_t r = 0; r < n; r++) {
    fprintf(out, "  %s:", (const char *)deps.rule_names.data[r]);
    bool any = false;
    for (uint32_t s = 0; s < n; s++)
      if (s != r && affects_guard(r, s)) {
        fprintf(out, " %s", (const char *)deps.rule_names.data[s]);
        any = true;
      }
    fputs(any ? "\n" : " -\n", out);
  }
  return 0;
}
