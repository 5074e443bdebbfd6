// SPDX-License-Identifier: MIT
// scenario.c: scenarios, Cord behaviours compiled to automata, and their
// product with the model.
//
// The alphabet. A behaviour speaks of action invocations; the checker fires
// rules, one per binding of an action's parameters (emit.c numbers them: the
// actions in order, each binding's parameters first-most-significant). Two
// bindings of one action that every invocation written in the scenarios
// either matches or not are interchangeable in every behaviour, so the
// automata run over classes of bindings: (action, the set of written
// invocations that match), and a table maps each rule to its class.
//
// The automata. Every operator yields a complete deterministic automaton
// over the classes (start state 0): `!` by complementing, the others by a
// subset construction over their operands' states (one pair of states for
// `|`, `&`, `||` and `|?|`; sets of them for `;`, `->`, `*`, `+`, `{}` and
// `|||`). Each result is minimised (Hopcroft's partition refinement) and
// numbered in breadth-first order, so the tables are the same on every run.
// An automaton larger than the cap is a spec error at the operator that
// built it, and so is a construction over its own limits (see Automata).
// Each scenario is built once, after the scenarios it names.
//
// The product. When `--scenario NAME` picks a scenario, the compiler adds a
// state variable, the automaton's state (the dead state left out), and
// emit.c wraps every action's guard (the automaton has a move on the rule's
// class) and body (the variable takes the move's target). Every option of
// the checker then works on the product unchanged. Symmetry stays sound when
// no invocation fixes a scalarset argument: the class of a binding is then
// invariant under permutations of the scalarsets.
#include "mcgen.h"

#include <limits.h>

#define MAX_CLASSES 4096
#define MAX_BINDINGS (1 << 22)
#define MASK_SLOTS (2 * MAX_CLASSES) // build_alphabet's hash of an action's classes
#define MAX_LEVELS 5000 // operators nested in a behaviour, as in an expression (check.c)

//
// The alphabet
//

// A written invocation, resolved: the action and, per parameter, the
// encoding it is fixed to or -1 (free).
typedef struct Atom {
  Behaviour *beh;
  int action;     // index in actions
  int64_t *fixed; // per parameter
  bool fixes_scalarset; // names a value of a scalarset
} Atom;

typedef struct Action {
  Decl *decl;
  int64_t *cards; // per parameter
  uint64_t first, nbindings;
  Vec atoms;      // Atom* of this action
  int nclasses;
  uint64_t *masks; // per class of this action: the atoms (bit i: atoms[i]) it matches
  int class0;      // its first class
} Action;

static Program *prog;
static Action *actions;
static int nactions;
static Vec atoms;         // Atom*, all of them
static Vec scenarios;     // Decl* DK_SCENARIO
static Vec *scenario_refs; // per scenario: the BH_NAMEs of scenarios in its behaviour
static int *times_named;   // per scenario: how often the behaviours name it
static int nclasses;
static int *class_action; // per class
static uint64_t *class_mask;
static int *rule_class;   // per rule
static uint64_t nrules;
static int max_states;    // the cap of an operator's automaton
static bool fixes_scalarset; // set by arg_encoding

// A name and the index of what it names. The actions' and the scenarios'
// are sorted by name (then index) and looked up by binary search: a spec
// may have 10,000 of either, and scanning them would make resolving the
// names quadratic.
typedef struct NameIndex {
  const char *name;
  int index;
} NameIndex;

static NameIndex *action_names, *scenario_names;

static int cmp_name_index(const void *x, const void *y) {
  const NameIndex *a = x, *b = y;
  int r = strcmp(a->name, b->name);
  return r ? r : (a->index > b->index) - (a->index < b->index);
}

static NameIndex *name_table(Token *(*name_of)(int), int n) {
  NameIndex *t = xcalloc(n + 1, sizeof *t);
  for (int i = 0; i < n; i++)
    t[i] = (NameIndex){token_text(name_of(i)), i};
  qsort(t, (size_t)n, sizeof *t, cmp_name_index);
  return t;
}

// The first declared of the n in table that has this name, or -1.
static int lookup(const NameIndex *table, int n, const char *name) {
  int lo = 0, hi = n; // the first entry not before `name` is in [lo, hi]
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (strcmp(table[mid].name, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && !strcmp(table[lo].name, name) ? table[lo].index : -1;
}

static int find_action(const char *name) { return lookup(action_names, nactions, name); }

static int find_scenario_index(const char *name) {
  return lookup(scenario_names, scenarios.len, name);
}

static Decl *find_scenario(const char *name) {
  int i = find_scenario_index(name);
  return i < 0 ? NULL : scenarios.data[i];
}

// The scenario a resolved BH_NAME names.
static int named_index(const Behaviour *b) { return find_scenario_index(token_text(b->tok)); }

static Token *action_name(int i) { return actions[i].decl->name; }

static Token *scenario_name_tok(int i) { return ((Decl *)scenarios.data[i])->name; }

static Type *param_type(Binder *b) {
  return resolve(b->in_expr ? resolve(b->in_expr->ty)->base : b->type);
}

static bool int_value(Node *n, int64_t *out) {
  if (n->kind == ND_NUM) {
    *out = n->val;
    return true;
  }
  if (n->kind == ND_UNARY && n->op == OP_NEG && n->lhs->kind == ND_NUM) {
    *out = -n->lhs->val;
    return true;
  }
  if (n->kind == ND_IDENT) {
    for (int i = 0; i < prog->decls.len; i++) {
      Decl *d = prog->decls.data[i];
      if (d->kind == DK_CONST && d->obj && !strcmp(token_text(d->name), token_text(n->tok)) &&
          resolve(d->obj->type)->kind != TY_BOOL) {
        *out = d->obj->val;
        return true;
      }
    }
  }
  return false;
}

static bool bool_value(Node *n, int64_t *out) {
  if (n->kind == ND_BOOL) {
    *out = n->val;
    return true;
  }
  if (n->kind == ND_IDENT) {
    for (int i = 0; i < prog->decls.len; i++) {
      Decl *d = prog->decls.data[i];
      if (d->kind == DK_CONST && d->obj && !strcmp(token_text(d->name), token_text(n->tok)) &&
          resolve(d->obj->type)->kind == TY_BOOL) {
        *out = d->obj->val;
        return true;
      }
    }
  }
  return false;
}

// The encoding of the argument `n` for a parameter of type ty (the one the
// generated code gives it), or -1 after an error.
static int64_t arg_encoding(Node *n, Type *ty, Binder *param) {
  int64_t v;
  const char *pname = token_text(param->name);
  switch (ty->kind) {
  case TY_BOOL:
    if (bool_value(n, &v))
      return v;
    break;
  case TY_RANGE:
    if (int_value(n, &v)) {
      if (v < ty->lo || v > ty->hi) {
        error_at(n->tok, "%lld is not a value of parameter '%s' (%lld..%lld)", (long long)v, pname,
                 (long long)ty->lo, (long long)ty->hi);
        return -1;
      }
      return v - ty->lo;
    }
    break;
  case TY_ENUM:
    if (n->kind == ND_IDENT)
      for (int i = 0; i < ty->members.len; i++)
        if (equal(ty->members.data[i], token_text(n->tok)))
          return i;
    break;
  case TY_SCALARSET:
    if (n->kind == ND_IDENT && ty->name) {
      const char *s = token_text(n->tok);
      size_t len = strlen(ty->name);
      if (!strncmp(s, ty->name, len) && s[len] == '_' && s[len + 1]) {
        char *end;
        long long k = strtoll(s + len + 1, &end, 10);
        if (!*end && k >= 1 && k <= ty->size) {
          fixes_scalarset = true;
          return k - 1;
        }
      }
      error_at(n->tok, "expected a value of parameter '%s' of scalarset %s: %s_1 .. %s_%lld", pname,
               ty->name, ty->name, ty->name, (long long)ty->size);
      return -1;
    }
    break;
  case TY_OPTIONAL:
    if (n->kind == ND_NONE)
      return 0;
    v = arg_encoding(n, resolve(ty->base), param);
    return v < 0 ? -1 : v + 1;
  default:
    error_at(n->tok, "parameter '%s' is of type %s: only '_' can stand for it in a scenario", pname,
             type_name(ty));
    return -1;
  }
  error_at(n->tok, "expected a value of type %s for parameter '%s'", type_name(ty), pname);
  return -1;
}

// Resolves an invocation of action a: every argument to its parameter.
static void resolve_atom(Behaviour *b, int a) {
  Action *act = &actions[a];
  Vec *params = &act->decl->params;
  Atom *atom = xcalloc(1, sizeof *atom);
  atom->beh = b;
  atom->action = a;
  atom->fixed = xcalloc(params->len + 1, sizeof *atom->fixed);
  for (int i = 0; i < params->len; i++)
    atom->fixed[i] = -1;
  bool *given = xcalloc(params->len + 1, sizeof *given);
  if (b->has_args && b->args.len != params->len) {
    error_at(b->tok, "action '%s' takes %d argument%s, %d given", token_text(b->tok), params->len,
             params->len == 1 ? "" : "s", b->args.len);
    note_at(act->decl->name, "'%s' is declared here", token_text(b->tok));
    hint("write '_' for an argument left free, or the name alone for any invocation");
  } else {
    for (int i = 0; i < b->args.len; i++) {
      BehArg *arg = b->args.data[i];
      int p = i;
      if (arg->param) {
        p = -1;
        for (int j = 0; j < params->len; j++)
          if (equal(((Binder *)params->data[j])->name, token_text(arg->param)))
            p = j;
        if (p < 0) {
          error_at(arg->param, "action '%s' has no parameter '%s'", token_text(b->tok),
                   token_text(arg->param));
          continue;
        }
      }
      if (given[p]) {
        error_at(arg->tok, "parameter '%s' is given twice",
                 token_text(((Binder *)params->data[p])->name));
        continue;
      }
      given[p] = true;
      if (arg->value) {
        Binder *param = params->data[p];
        fixes_scalarset = false;
        atom->fixed[p] = arg_encoding(arg->value, param_type(param), param);
        atom->fixes_scalarset |= fixes_scalarset;
      }
    }
  }
  vec_push(&act->atoms, atom);
  vec_push(&atoms, atom);
}

// Resolves the names of a behaviour (those of scenarios into `refs`);
// checks the repetition counts and that the operators nest at most
// MAX_LEVELS deep, so that the walks over the behaviour that follow cannot
// overflow the stack. False when too deep (an error reported).
static bool resolve_beh(Behaviour *b, Vec *refs, int level) {
  if (!b)
    return true;
  if (level > MAX_LEVELS) {
    error_at(b->tok, "behaviour too long (more than %d levels of operators)", MAX_LEVELS);
    hint("split it into scenarios that name one another");
    return false;
  }
  if (b->kind == BH_NAME) {
    const char *name = token_text(b->tok);
    int a = find_action(name);
    if (a >= 0) {
      resolve_atom(b, a);
      return true;
    }
    if (find_scenario(name)) {
      vec_push(refs, b);
      if (b->has_args)
        error_at(b->tok, "'%s' is a scenario: it takes no arguments", name);
      return true;
    }
    error_at(b->tok, "unknown action or scenario '%s'", name);
    Vec names = {0};
    for (int i = 0; i < nactions; i++)
      vec_push(&names, token_text(actions[i].decl->name));
    for (int i = 0; i < scenarios.len; i++)
      vec_push(&names, token_text(((Decl *)scenarios.data[i])->name));
    const char *best = closest_name(name, (const char *const *)names.data, names.len);
    if (best)
      hint("did you mean '%s'?", best);
    return true;
  }
  if (b->kind == BH_REPEAT) {
    int64_t lo = 0, hi = 0;
    bool ok = int_value(b->min_expr, &lo) && (!b->max_expr || int_value(b->max_expr, &hi));
    if (!ok || lo < 0 || (b->max_expr && hi < lo) || lo > 64 || (b->max_expr && hi > 64))
      error_at(b->tok, "a repetition count is a constant from 0 to 64, written {n} or {n,m} "
                       "with n <= m");
  }
  return resolve_beh(b->lhs, refs, level + 1) && resolve_beh(b->rhs, refs, level + 1);
}

static bool atom_matches(Atom *atom, const int64_t *vals, int nparams) {
  for (int i = 0; i < nparams; i++)
    if (atom->fixed[i] >= 0 && atom->fixed[i] != vals[i])
      return false;
  return true;
}

// The slot of mask in an action's table of its classes' masks: open
// addressing over MASK_SLOTS slots, each a class + 1, or 0 where mask goes.
static int *mask_slot(int *slots, const uint64_t *masks, uint64_t mask) {
  uint64_t j = (mask * 0x9e3779b97f4a7c15u >> 32) % MASK_SLOTS;
  while (slots[j] && masks[slots[j] - 1] != mask)
    j = (j + 1) % MASK_SLOTS;
  return &slots[j];
}

// The classes of bindings and the rule-to-class table.
static bool build_alphabet(void) {
  nrules = 0;
  for (int a = 0; a < nactions; a++) {
    Action *act = &actions[a];
    Vec *params = &act->decl->params;
    act->cards = xcalloc(params->len + 1, sizeof *act->cards);
    __int128 n = 1;
    for (int i = 0; i < params->len; i++) {
      Binder *b = params->data[i];
      Type *ty = param_type(b);
      if (!layout_of(ty, b->name))
        return false;
      act->cards[i] = ty->card ? ty->card : (int64_t)1 << ty->width;
      n *= act->cards[i];
      if (n > MAX_BINDINGS)
        break;
    }
    if (n + nrules > MAX_BINDINGS) {
      error_at(act->decl->name, "a scenario needs a table of every action binding, and the "
                                "actions have more than %d", MAX_BINDINGS);
      return false;
    }
    act->first = nrules;
    act->nbindings = (uint64_t)n;
    nrules += act->nbindings;
    if (act->atoms.len > 64) {
      Atom *atom = act->atoms.data[64];
      error_at(atom->beh->tok, "more than 64 invocations of action '%s' in the scenarios",
               token_text(act->decl->name));
      return false;
    }
  }
  rule_class = xcalloc(nrules + 1, sizeof *rule_class);
  Vec cls_action = {0}, cls_mask = {0};
  int *slots = xcalloc(MASK_SLOTS, sizeof *slots);
  for (int a = 0; a < nactions; a++) {
    Action *act = &actions[a];
    int np = act->decl->params.len;
    int64_t *vals = xcalloc(np + 1, sizeof *vals);
    act->class0 = cls_action.len;
    act->masks = xcalloc((act->nbindings < MAX_CLASSES ? act->nbindings : MAX_CLASSES) + 1,
                         sizeof *act->masks);
    memset(slots, 0, MASK_SLOTS * sizeof *slots);
    for (uint64_t b = 0; b < act->nbindings; b++) {
      uint64_t rest = b;
      for (int i = np - 1; i >= 0; i--) {
        vals[i] = (int64_t)(rest % (uint64_t)act->cards[i]);
        rest /= (uint64_t)act->cards[i];
      }
      uint64_t mask = 0;
      for (int k = 0; k < act->atoms.len; k++)
        if (atom_matches(act->atoms.data[k], vals, np))
          mask |= (uint64_t)1 << k;
      int *slot = mask_slot(slots, act->masks, mask);
      if (!*slot) {
        if (cls_action.len >= MAX_CLASSES) {
          error_at(act->decl->name, "the scenarios split the action bindings into more than %d "
                                    "classes", MAX_CLASSES);
          return false;
        }
        act->masks[act->nclasses++] = mask;
        *slot = act->nclasses;
        vec_push(&cls_action, (void *)(intptr_t)a);
        vec_push(&cls_mask, NULL);
      }
      rule_class[act->first + b] = act->class0 + *slot - 1;
    }
  }
  free(slots);
  nclasses = cls_action.len;
  class_action = xcalloc(nclasses + 1, sizeof *class_action);
  class_mask = xcalloc(nclasses + 1, sizeof *class_mask);
  for (int c = 0; c < nclasses; c++) {
    int a = (int)(intptr_t)cls_action.data[c];
    class_action[c] = a;
    class_mask[c] = actions[a].masks[c - actions[a].class0];
  }
  return true;
}

//
// Automata
//
// Every construction is bounded as it goes, so that a scenario too big to
// build is refused at once rather than after the memory runs out. An
// operator's result may have up to max_states states (the cap); the
// automaton a construction makes before minimising it (the subset
// construction's sets, a product's reachable pairs) up to build_states,
// BUILD_FACTOR times the cap, fewer over a wide alphabet so that its tables
// stay within build_cells cells; the sets of a subset construction hold up
// to build_cells states in all. The limits are checked each time a
// construction meets a new state, so that what it holds stays within them.
//
// Unlike the rest of the compiler (docs/STYLE.md rule 6), this part frees
// what it no longer needs: `{n,m}` builds up to 64 automata in a row, each
// up to the limits, and keeping them all would multiply the memory by as
// much.
//

#define BUILD_FACTOR 16      // a construction's automaton: 16 times the cap's states
#define CELLS_PER_STATE 1024 // its tables and sets: 1024 cells per state of the cap

// A complete deterministic automaton over the classes; start state 0.
typedef struct Dfa {
  int n;
  int *delta; // n * nclasses
  bool *acc;
  int dead;   // the state from which nothing is accepted, or -1
} Dfa;

static Behaviour *cap_at; // the operator being built, for the size errors
static bool over_cap;     // a size error was reported for this scenario
static int build_states;
static size_t build_cells;

// An automaton of n states with the table delta (n * nclasses), which it
// takes over.
static Dfa *dfa_with(int n, int *delta) {
  Dfa *d = xcalloc(1, sizeof *d);
  d->n = n;
  d->delta = delta;
  d->acc = xcalloc(n + 1, sizeof *d->acc);
  d->dead = -1;
  return d;
}

static Dfa *dfa_new(int n) { return dfa_with(n, xcalloc((size_t)n * nclasses + 1, sizeof(int))); }

static void dfa_free(Dfa *d) {
  if (!d)
    return;
  free(d->delta);
  free(d->acc);
  free(d);
}

static Dfa *dfa_copy(const Dfa *d) {
  Dfa *c = dfa_new(d->n);
  memcpy(c->delta, d->delta, (size_t)d->n * nclasses * sizeof *d->delta);
  memcpy(c->acc, d->acc, (size_t)d->n * sizeof *d->acc);
  c->dead = d->dead;
  return c;
}

// The limits for the cap and the alphabet (after build_alphabet).
static void set_limits(int cap) {
  size_t k = nclasses ? (size_t)nclasses : 1;
  max_states = cap;
  build_cells = (size_t)CELLS_PER_STATE * (size_t)cap;
  size_t states = (size_t)BUILD_FACTOR * (size_t)cap;
  if (states * k > build_cells)
    states = build_cells / k;
  if (states < (size_t)cap)
    states = (size_t)cap;
  // Hopcroft's tables index the n * nclasses moves with an int.
  if (states > (size_t)(INT_MAX - 1) / k)
    states = (size_t)(INT_MAX - 1) / k;
  build_states = (int)states;
}

// An operator's result over the cap.
static bool too_big(int n) {
  if (n <= max_states || over_cap)
    return over_cap;
  over_cap = true;
  error_at(cap_at->tok, "the automaton of this behaviour has more than %d states", max_states);
  hint("mcgen --scenario-max-states N raises the cap");
  return true;
}

// A construction over its limits: `states` states, `cells` states in its
// sets, so far.
static bool build_too_big(int states, size_t cells) {
  if ((states <= build_states && cells <= build_cells) || over_cap)
    return over_cap;
  over_cap = true;
  if (states > build_states)
    error_at(cap_at->tok, "the construction of this behaviour's automaton is too big: more "
                          "than %d states before minimisation", build_states);
  else
    error_at(cap_at->tok, "the construction of this behaviour's automaton is too big: its "
                          "subsets hold more than %zu states in all", build_cells);
  hint("the result may be under the cap of %d states, but not the automaton it is minimised "
       "from; mcgen --scenario-max-states N raises the cap and these limits with it", max_states);
  return true;
}

// A growable array of ints.
typedef struct IntBuf {
  int *data;
  size_t len, cap;
} IntBuf;

static void ib_push(IntBuf *b, int v) {
  if (b->len == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    b->data = xrealloc(b->data, b->cap * sizeof *b->data);
  }
  b->data[b->len++] = v;
}

// Interned sets of a construction's states (sorted int sequences), numbered
// in the order first met.
typedef struct SetTable {
  IntBuf pool;     // the sets, one after the other
  size_t *start;   // set i is pool[start[i] .. start[i + 1])
  int n, start_cap;
  int *slots;      // open addressing: a set's number + 1, or 0
  size_t nslots;
} SetTable;

static uint64_t seq_hash(const int *k, size_t n) {
  uint64_t h = 1469598103934665603u ^ (uint64_t)n;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (uint64_t)(unsigned)k[i]) * 1099511628211u;
  return h;
}

static const int *set_at(const SetTable *t, int i, size_t *len) {
  *len = t->start[i + 1] - t->start[i];
  return *len ? t->pool.data + t->start[i] : NULL;
}

// The slot of set s in t: the one holding it, or the empty one where it goes.
static size_t set_slot(const SetTable *t, const int *s, size_t len) {
  size_t j = seq_hash(s, len) % t->nslots;
  for (; t->slots[j]; j = (j + 1) % t->nslots) {
    size_t l;
    const int *u = set_at(t, t->slots[j] - 1, &l);
    if (l == len && (!len || !memcmp(u, s, len * sizeof *s)))
      break;
  }
  return j;
}

static void set_rehash(SetTable *t) {
  free(t->slots);
  t->nslots = t->nslots ? 2 * t->nslots : 64;
  t->slots = xcalloc(t->nslots, sizeof *t->slots);
  for (int i = 0; i < t->n; i++) {
    size_t len;
    const int *s = set_at(t, i, &len);
    t->slots[set_slot(t, s, len)] = i + 1;
  }
}

// The number of set s, a new one (t->n - 1 after the call) if it was not in t.
static int set_intern(SetTable *t, const int *s, size_t len) {
  if (2 * ((size_t)t->n + 1) > t->nslots)
    set_rehash(t);
  size_t j = set_slot(t, s, len);
  if (t->slots[j])
    return t->slots[j] - 1;
  if (t->n + 2 > t->start_cap) {
    t->start_cap = t->start_cap ? 2 * t->start_cap : 64;
    t->start = xrealloc(t->start, (size_t)t->start_cap * sizeof *t->start);
    t->start[0] = 0;
  }
  for (size_t i = 0; i < len; i++)
    ib_push(&t->pool, s[i]);
  t->start[t->n + 1] = t->pool.len;
  t->slots[j] = ++t->n;
  return t->n - 1;
}

static void set_table_free(SetTable *t) {
  free(t->pool.data);
  free(t->start);
  free(t->slots);
}

//
// Minimisation: Hopcroft's partition refinement, O(k n log n) for n states
// and k classes. The blocks start as the accepting and the other states;
// a splitter block S divides every block into the states that move into S
// on a class and the others, until no splitter divides any more. A block's
// states are contiguous in `elems`, its marked ones (moving into S) first.
//

typedef struct Partition {
  int *elems, *loc, *block;   // the states by block; per state: index in elems, block
  int *first, *end, *nmarked; // per block
  int nblocks;
  int *work, nwork;           // the splitters to come
  int *touched, ntouched;     // the blocks with marked states
} Partition;

// The moves into each state by class: the states that move to t on c are
// src[first[c * n + t] .. first[c * n + t + 1]).
typedef struct Preds {
  int *first, *src;
} Preds;

static Preds predecessors(const Dfa *d) {
  int n = d->n, k = nclasses;
  size_t cells = (size_t)n * k;
  Preds p = {xcalloc(cells + 1, sizeof(int)), xcalloc(cells + 1, sizeof(int))};
  // Counting sort: first[i + 1] counts the moves into i, then first[i] is
  // where they go and, once filled, where the next ones start.
  for (int q = 0; q < n; q++)
    for (int c = 0; c < k; c++)
      p.first[(size_t)c * n + d->delta[(size_t)q * k + c] + 1]++;
  for (size_t i = 0; i < cells; i++)
    p.first[i + 1] += p.first[i];
  for (int q = 0; q < n; q++)
    for (int c = 0; c < k; c++)
      p.src[p.first[(size_t)c * n + d->delta[(size_t)q * k + c]]++] = q;
  memmove(p.first + 1, p.first, cells * sizeof *p.first);
  p.first[0] = 0;
  return p;
}

static void part_init(Partition *P, const Dfa *d) {
  int n = d->n;
  P->elems = xcalloc(n + 1, sizeof(int));
  P->loc = xcalloc(n + 1, sizeof(int));
  P->block = xcalloc(n + 1, sizeof(int));
  P->first = xcalloc(n + 1, sizeof(int));
  P->end = xcalloc(n + 1, sizeof(int));
  P->nmarked = xcalloc(n + 1, sizeof(int));
  P->work = xcalloc(n + 1, sizeof(int));
  P->touched = xcalloc(n + 1, sizeof(int));
  int len = 0;
  for (int acc = 0; acc < 2; acc++) {
    int b = P->nblocks;
    P->first[b] = len;
    for (int q = 0; q < n; q++)
      if (d->acc[q] == acc)
        P->loc[q] = len, P->elems[len++] = q, P->block[q] = b;
    P->end[b] = len;
    if (len > P->first[b])
      P->nblocks++;
  }
  // Either block splits the rest the same way: the smaller one is enough.
  if (P->nblocks == 2)
    P->work[P->nwork++] = P->end[0] <= n - P->end[0] ? 0 : 1;
}

static void part_mark(Partition *P, int s) {
  int b = P->block[s];
  int i = P->loc[s], j = P->first[b] + P->nmarked[b];
  if (i < j)
    return; // marked already
  int u = P->elems[j];
  P->elems[j] = s, P->loc[s] = j;
  P->elems[i] = u, P->loc[u] = i;
  if (P->nmarked[b]++ == 0)
    P->touched[P->ntouched++] = b;
}

// Splits each touched block into its marked and unmarked states. The smaller
// part becomes a new block and a splitter: if the block was a splitter still
// to come, both parts now are; if not, the smaller part is enough (the
// larger one splits nothing that the block and the smaller part do not).
static void part_split(Partition *P) {
  for (int i = 0; i < P->ntouched; i++) {
    int b = P->touched[i], m = P->nmarked[b], size = P->end[b] - P->first[b];
    P->nmarked[b] = 0;
    if (m == size)
      continue;
    int nb = P->nblocks++;
    if (m <= size - m) {
      P->first[nb] = P->first[b], P->end[nb] = P->first[b] + m;
      P->first[b] += m;
    } else {
      P->first[nb] = P->first[b] + m, P->end[nb] = P->end[b];
      P->end[b] = P->first[nb];
    }
    for (int j = P->first[nb]; j < P->end[nb]; j++)
      P->block[P->elems[j]] = nb;
    P->work[P->nwork++] = nb;
  }
  P->ntouched = 0;
}

// The block of each state once no splitter divides a block.
static void part_refine(Partition *P, const Dfa *d) {
  int n = d->n, k = nclasses;
  Preds p = predecessors(d);
  int *splitter = xcalloc(n + 1, sizeof *splitter);
  while (P->nwork) {
    int s = P->work[--P->nwork];
    // The splitter's states as they are now: it may split while it is used.
    int len = P->end[s] - P->first[s];
    memcpy(splitter, P->elems + P->first[s], (size_t)len * sizeof *splitter);
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < len; i++) {
        size_t at = (size_t)c * n + splitter[i];
        for (int e = p.first[at]; e < p.first[at + 1]; e++)
          part_mark(P, p.src[e]);
      }
      part_split(P);
    }
  }
  free(splitter);
  free(p.first);
  free(p.src);
}

static void part_free(Partition *P) {
  free(P->elems), free(P->loc), free(P->block);
  free(P->first), free(P->end), free(P->nmarked);
  free(P->work), free(P->touched);
}

// The non-accepting state that moves only to itself, or -1.
static int find_dead(const Dfa *d) {
  for (int q = 0; q < d->n; q++) {
    bool stuck = !d->acc[q];
    for (int c = 0; stuck && c < nclasses; c++)
      stuck = d->delta[(size_t)q * nclasses + c] == q;
    if (stuck)
      return q;
  }
  return -1;
}

// The minimal automaton of d, its states numbered breadth-first from the
// start (so the tables are the same on every run); d is freed.
static Dfa *minimise(Dfa *d) {
  int n = d->n, k = nclasses;
  Partition P = {0};
  part_init(&P, d);
  part_refine(&P, d);
  int nblocks = P.nblocks;
  int *num = xcalloc(nblocks + 1, sizeof *num);
  int *rep = xcalloc(nblocks + 1, sizeof *rep);
  int *order = xcalloc(nblocks + 1, sizeof *order);
  for (int i = 0; i < nblocks; i++)
    num[i] = -1;
  for (int q = n - 1; q >= 0; q--)
    rep[P.block[q]] = q;
  int len = 0;
  num[P.block[0]] = len, order[len++] = P.block[0];
  for (int i = 0; i < len; i++) {
    int q = rep[order[i]];
    for (int c = 0; c < k; c++) {
      int b = P.block[d->delta[(size_t)q * k + c]];
      if (num[b] < 0)
        num[b] = len, order[len++] = b;
    }
  }
  Dfa *r = dfa_new(len);
  for (int i = 0; i < len; i++) {
    int q = rep[order[i]];
    r->acc[i] = d->acc[q];
    for (int c = 0; c < k; c++)
      r->delta[(size_t)i * k + c] = num[P.block[d->delta[(size_t)q * k + c]]];
  }
  r->dead = find_dead(r);
  free(num), free(rep), free(order);
  part_free(&P);
  dfa_free(d);
  return r;
}

// The automaton of the invocations in classes where in[c]: one step.
static Dfa *dfa_step(const bool *in) {
  Dfa *d = dfa_new(3); // 0 start, 1 after one step (accepting), 2 dead
  d->acc[1] = true;
  for (int c = 0; c < nclasses; c++) {
    d->delta[c] = in[c] ? 1 : 2;
    d->delta[nclasses + c] = 2;
    d->delta[2 * nclasses + c] = 2;
  }
  return minimise(d);
}

static Dfa *dfa_all(void) { // every sequence
  Dfa *d = dfa_new(1);
  d->acc[0] = true;
  return d;
}

static Dfa *dfa_empty_word(void) { // the empty sequence alone
  Dfa *d = dfa_new(2);
  d->acc[0] = true;
  for (int c = 0; c < nclasses; c++)
    d->delta[c] = 1, d->delta[nclasses + c] = 1;
  d->dead = 1;
  return d;
}

static Dfa *complement(const Dfa *a) {
  Dfa *d = dfa_copy(a);
  for (int q = 0; q < a->n; q++)
    d->acc[q] = !a->acc[q];
  return minimise(d);
}

static bool is_empty(const Dfa *d) {
  for (int q = 0; q < d->n; q++)
    if (d->acc[q])
      return false;
  return true;
}

//
// Constructions: every operator but `!` builds a deterministic automaton
// whose states are sets of its operands' states, reachable from the start
// set, then minimises it. The sets are never held as a nondeterministic
// automaton: their moves are read off the operands' tables. A state of x or
// y that accepts nothing ever (its dead state) is left out of the sets, so
// that the empty set is the result's dead state.
//

typedef enum {
  CO_CONCAT,     // x; y: a state of x, or of y offset by x->n; x accepting adds y's start
  CO_REPEAT,     // x+ (x* with_empty): a state of x, or x->n (the empty run, accepting);
                 // x accepting adds x's start
  CO_SHUFFLE,    // x ||| y: pairs (p, q), two ints each; a step moves p or q
  CO_AND,        // x & y: one pair, a step moves both
  CO_OR,         // x | y: one pair, a step moves both
  CO_SYNC_INTER, // x |?| y: one pair, a step moves the operands whose signature holds it
} ConsKind;

typedef struct Cons {
  ConsKind kind;
  const Dfa *x, *y;
  bool with_empty;           // CO_REPEAT
  const bool *sig_x, *sig_y; // CO_SYNC_INTER: per action
} Cons;

// Whether a's sets are of pairs (the kinds from CO_SHUFFLE on).
static bool of_pairs(const Cons *a) { return a->kind >= CO_SHUFFLE; }

static void add_state(const Cons *a, IntBuf *set, int s) {
  int nx = a->x->n;
  bool dead = s < nx ? s == a->x->dead : a->kind == CO_CONCAT && s - nx == a->y->dead;
  if (!dead)
    ib_push(set, s);
}

static void add_pair(const Cons *a, IntBuf *set, int p, int q) {
  bool dx = p == a->x->dead, dy = q == a->y->dead;
  if (a->kind == CO_OR ? dx && dy : dx || dy)
    return;
  ib_push(set, p);
  ib_push(set, q);
}

static int cmp_int(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

static int cmp_pair(const void *x, const void *y) {
  int r = cmp_int(x, y);
  return r ? r : cmp_int((const int *)x + 1, (const int *)y + 1);
}

// Closes a set under the empty moves (an accepting state of x adds the start
// of what follows), then sorts it and drops duplicates.
static void close_set(const Cons *a, IntBuf *set) {
  size_t w = of_pairs(a) ? 2 : 1, len = set->len;
  if (!of_pairs(a))
    for (size_t i = 0; i < len; i++) {
      int s = set->data[i];
      if (s < a->x->n && a->x->acc[s]) {
        add_state(a, set, a->kind == CO_CONCAT ? a->x->n : 0);
        break;
      }
    }
  if (set->len <= w)
    return;
  qsort(set->data, set->len / w, w * sizeof(int), w == 2 ? cmp_pair : cmp_int);
  size_t n = 0;
  for (size_t i = 0; i < set->len; i += w)
    if (!n || memcmp(set->data + n - w, set->data + i, w * sizeof(int)))
      for (size_t j = 0; j < w; j++)
        set->data[n++] = set->data[i + j];
  set->len = n;
}

static void start_set(const Cons *a, IntBuf *set) {
  set->len = 0;
  if (of_pairs(a))
    add_pair(a, set, 0, 0);
  else
    add_state(a, set, 0);
  if (a->kind == CO_REPEAT && a->with_empty)
    ib_push(set, a->x->n);
  close_set(a, set);
}

// The set that `from` (len ints) moves to on class c.
static void step_set(const Cons *a, const int *from, size_t len, int c, IntBuf *to) {
  const Dfa *x = a->x, *y = a->y;
  int k = nclasses;
  to->len = 0;
  for (size_t i = 0; i < len; i += of_pairs(a) ? 2 : 1) {
    int p = from[i];
    if (!of_pairs(a)) {
      if (p < x->n)
        add_state(a, to, x->delta[(size_t)p * k + c]);
      else if (a->kind == CO_CONCAT)
        add_state(a, to, x->n + y->delta[(size_t)(p - x->n) * k + c]);
      continue;
    }
    int q = from[i + 1];
    int px = x->delta[(size_t)p * k + c], qy = y->delta[(size_t)q * k + c];
    if (a->kind == CO_SHUFFLE) {
      add_pair(a, to, px, q);
      add_pair(a, to, p, qy);
    } else if (a->kind != CO_SYNC_INTER) {
      add_pair(a, to, px, qy);
    } else {
      bool in_x = a->sig_x[class_action[c]], in_y = a->sig_y[class_action[c]];
      if (in_x || in_y)
        add_pair(a, to, in_x ? px : p, in_y ? qy : q);
    }
  }
  close_set(a, to);
}

static bool set_accepts(const Cons *a, const int *set, size_t len) {
  const Dfa *x = a->x, *y = a->y;
  for (size_t i = 0; i < len; i += of_pairs(a) ? 2 : 1) {
    int p = set[i];
    if (!of_pairs(a)) {
      if (p < x->n ? a->kind == CO_REPEAT && x->acc[p]
                   : a->kind == CO_REPEAT || y->acc[p - x->n])
        return true;
      continue;
    }
    bool ax = x->acc[p], ay = y->acc[set[i + 1]];
    if (a->kind == CO_OR ? ax || ay : ax && ay)
      return true;
  }
  return false;
}

// The subset construction, then minimisation; NULL after a size error.
static Dfa *construct(const Cons *a) {
  int k = nclasses;
  SetTable sets = {0};
  IntBuf buf = {0}, delta = {0};
  start_set(a, &buf);
  set_intern(&sets, buf.data, buf.len);
  bool ok = !build_too_big(sets.n, sets.pool.len);
  for (int i = 0; ok && i < sets.n; i++)
    for (int c = 0; ok && c < k; c++) {
      size_t len;
      const int *set = set_at(&sets, i, &len);
      step_set(a, set, len, c, &buf);
      int n = sets.n, id = set_intern(&sets, buf.data, buf.len);
      ok = id < n || !build_too_big(sets.n, sets.pool.len);
      ib_push(&delta, id);
    }
  Dfa *d = NULL;
  if (ok) {
    // The table as built, not a copy: it may be the largest one.
    d = dfa_with(sets.n, delta.data ? delta.data : xcalloc(1, sizeof(int)));
    delta.data = NULL;
    for (int i = 0; i < sets.n; i++) {
      size_t len;
      const int *set = set_at(&sets, i, &len);
      d->acc[i] = set_accepts(a, set, len);
    }
  }
  set_table_free(&sets);
  free(buf.data);
  free(delta.data);
  return d ? minimise(d) : NULL;
}

static Dfa *concat(const Dfa *x, const Dfa *y) {
  return construct(&(Cons){.kind = CO_CONCAT, .x = x, .y = y});
}

// x* (with_empty) or x+.
static Dfa *repeat(const Dfa *x, bool with_empty) {
  return construct(&(Cons){.kind = CO_REPEAT, .x = x, .with_empty = with_empty});
}

static Dfa *shuffle(const Dfa *x, const Dfa *y) {
  return construct(&(Cons){.kind = CO_SHUFFLE, .x = x, .y = y});
}

// x & y, x | y, or x |?| y with the operands' signatures.
static Dfa *product(const Dfa *x, const Dfa *y, ConsKind kind, const bool *sig_x,
                    const bool *sig_y) {
  return construct(&(Cons){.kind = kind, .x = x, .y = y, .sig_x = sig_x, .sig_y = sig_y});
}

static Dfa *optional(const Dfa *x) { // x?
  Dfa *e = dfa_empty_word();
  Dfa *r = product(x, e, CO_OR, NULL, NULL);
  dfa_free(e);
  return r;
}

// Each scenario's automaton and what the scenarios naming it need of it,
// built once, in an order where a scenario comes after those it names: no
// build happens inside another, however long a chain of scenarios naming
// one another, and none is repeated, however often it is named.
typedef struct Built {
  Dfa *dfa;               // NULL after an error (or once no longer needed)
  Behaviour *first_empty; // the innermost operator of its own that emptied it
  bool *sig;              // its signature (per action) when it is named
  bool fixes_scalarset;   // an invocation in it, or in what it names, fixes a scalarset value
} Built;

static Built *built; // per scenario

static Built *built_named(const Behaviour *b) { return &built[named_index(b)]; }

// The signature of a behaviour (Cord's "offered signature"): the actions it
// speaks of; `_`, `...`, `!` and `->` offer every action.
static void signature(Behaviour *b, bool *sig) {
  switch (b->kind) {
  case BH_NAME: {
    int a = find_action(token_text(b->tok));
    if (a >= 0) {
      sig[a] = true;
      return;
    }
    bool *named_sig = built_named(b)->sig;
    for (a = 0; a < nactions; a++)
      sig[a] |= named_sig[a];
    return;
  }
  case BH_ANY:
  case BH_ANY_SEQ:
  case BH_NOT:
  case BH_LOOSE_SEQ:
    for (int a = 0; a < nactions; a++)
      sig[a] = true;
    return;
  case BH_SYNC:
  case BH_AND: {
    bool *l = xcalloc(nactions + 1, 1), *r = xcalloc(nactions + 1, 1);
    signature(b->lhs, l);
    signature(b->rhs, r);
    for (int a = 0; a < nactions; a++)
      sig[a] |= l[a] && r[a];
    free(l);
    free(r);
    return;
  }
  default:
    signature(b->lhs, sig);
    if (b->rhs)
      signature(b->rhs, sig);
    return;
  }
}

// Whether an invocation in a behaviour, or in the scenarios it names, fixes
// a scalarset value.
static bool fixes_scalarset_in(Behaviour *b) {
  if (!b)
    return false;
  if (b->kind == BH_NAME) {
    for (int i = 0; i < atoms.len; i++) {
      Atom *atom = atoms.data[i];
      if (atom->beh == b)
        return atom->fixes_scalarset;
    }
    return built_named(b)->fixes_scalarset;
  }
  return fixes_scalarset_in(b->lhs) || fixes_scalarset_in(b->rhs);
}

// The order to build the scenarios in: each after those it names (a
// depth-first search from each in declaration order, without recursion: a
// chain of names may be as long as the spec). A name that closes a cycle is
// an error.
static int *build_order(void) {
  int n = scenarios.len, len = 0;
  int *order = xcalloc(n + 1, sizeof *order);
  int *state = xcalloc(n + 1, sizeof *state); // 0 not met, 1 on the stack, 2 ordered
  int *next = xcalloc(n + 1, sizeof *next);   // per scenario: its next name to follow
  int *stack = xcalloc(n + 1, sizeof *stack);
  for (int root = 0; root < n; root++) {
    if (state[root])
      continue;
    int top = 0;
    stack[top++] = root, state[root] = 1;
    while (top) {
      int s = stack[top - 1];
      if (next[s] == scenario_refs[s].len) {
        state[s] = 2, order[len++] = s, top--;
        continue;
      }
      Behaviour *b = scenario_refs[s].data[next[s]++];
      int t = named_index(b);
      if (state[t] == 1)
        error_at(b->tok, "scenario '%s' refers to itself", token_text(b->tok));
      else if (!state[t])
        stack[top++] = t, state[t] = 1;
    }
  }
  free(state), free(next), free(stack);
  return order;
}

static Behaviour *first_empty; // the innermost operator whose language is empty

// A scenario named in a behaviour: a copy of its automaton.
static Dfa *named_scenario(Behaviour *b) {
  Built *m = built_named(b);
  if (!first_empty)
    first_empty = m->first_empty;
  return m->dfa ? dfa_copy(m->dfa) : NULL;
}

// An invocation of an action: one step in the classes it matches.
static Dfa *invocation(Behaviour *b) {
  Action *act = &actions[find_action(token_text(b->tok))];
  int bit = -1;
  for (int i = 0; i < act->atoms.len; i++)
    if (((Atom *)act->atoms.data[i])->beh == b)
      bit = i;
  bool *in = xcalloc(nclasses + 1, 1);
  for (int c = 0; c < act->nclasses; c++)
    in[act->class0 + c] = act->masks[c] >> bit & 1;
  Dfa *r = dfa_step(in);
  free(in);
  return r;
}

static Dfa *any_step(void) { // `_`
  bool *in = xcalloc(nclasses + 1, 1);
  memset(in, true, (size_t)nclasses);
  Dfa *r = dfa_step(in);
  free(in);
  return r;
}

// x -> y: x; ...; y.
static Dfa *loose_seq(const Dfa *x, const Dfa *y) {
  Dfa *all = dfa_all();
  Dfa *head = concat(x, all);
  Dfa *r = head ? concat(head, y) : NULL;
  dfa_free(all);
  dfa_free(head);
  return r;
}

// x |?| y, synchronised on the actions of both signatures.
static Dfa *sync_inter(Behaviour *b, const Dfa *x, const Dfa *y) {
  bool *sx = xcalloc(nactions + 1, 1), *sy = xcalloc(nactions + 1, 1);
  signature(b->lhs, sx);
  signature(b->rhs, sy);
  Dfa *r = product(x, y, CO_SYNC_INTER, sx, sy);
  free(sx);
  free(sy);
  return r;
}

// x{lo,hi} = x^lo (x?)^(hi-lo), minimised at each step, so that no step
// is bigger than the automaton of its prefix of the repetition.
static Dfa *repeat_count(Behaviour *b, const Dfa *x) {
  int64_t lo = 0, hi = 0;
  int_value(b->min_expr, &lo);
  hi = lo;
  if (b->max_expr)
    int_value(b->max_expr, &hi);
  Dfa *opt = hi > lo ? optional(x) : NULL;
  if (hi > lo && !opt)
    return NULL;
  Dfa *r = minimise(dfa_empty_word());
  for (int64_t i = 0; r && i < hi; i++) {
    Dfa *next = concat(r, i < lo ? x : opt);
    dfa_free(r);
    r = next;
  }
  dfa_free(opt);
  return r;
}

// The automaton of operator b over its operands' x and y.
static Dfa *operator_dfa(Behaviour *b, const Dfa *x, const Dfa *y) {
  switch (b->kind) {
  case BH_NAME:
    return invocation(b);
  case BH_ANY:
    return any_step();
  case BH_ANY_SEQ:
    return dfa_all();
  case BH_SEQ:
    return concat(x, y);
  case BH_LOOSE_SEQ:
    return loose_seq(x, y);
  case BH_CHOICE:
    return product(x, y, CO_OR, NULL, NULL);
  case BH_AND:
  case BH_SYNC:
    return product(x, y, CO_AND, NULL, NULL);
  case BH_INTERLEAVE:
    return shuffle(x, y);
  case BH_SYNC_INTER:
    return sync_inter(b, x, y);
  case BH_STAR:
    return repeat(x, true);
  case BH_PLUS:
    return repeat(x, false);
  case BH_OPT:
    return optional(x);
  case BH_REPEAT:
    return repeat_count(b, x);
  case BH_NOT:
    return complement(x);
  }
  unreachable();
}

// The automaton of a behaviour, or NULL after an error.
static Dfa *compile_beh(Behaviour *b) {
  if (b->kind == BH_NAME && find_action(token_text(b->tok)) < 0)
    return named_scenario(b);
  Dfa *x = NULL, *y = NULL;
  if (b->lhs && !(x = compile_beh(b->lhs)))
    return NULL;
  if (b->rhs && !(y = compile_beh(b->rhs))) {
    dfa_free(x);
    return NULL;
  }
  cap_at = b;
  Dfa *r = operator_dfa(b, x, y);
  if (r && is_empty(r) && !first_empty && (!x || !is_empty(x)) && (!y || !is_empty(y)))
    first_empty = b;
  dfa_free(x);
  dfa_free(y);
  if (r && too_big(r->n)) {
    dfa_free(r);
    return NULL;
  }
  return r;
}

//
// The chosen scenario
//

static Decl *chosen;
static Dfa *chosen_dfa;
static int dead = -1;     // the chosen automaton's dead state, or -1
static int *state_num;    // automaton state -> value of the state variable (-1: dead)
static int nlive;
static Obj *state_var;

// Builds scenario i (after those it names). `used`: the scenario is explored
// (or its words printed), and an empty language is then an error. The
// automaton of a scenario neither used nor named is not kept.
static bool compile_scenario(int i, bool used) {
  Decl *s = scenarios.data[i];
  Built *m = &built[i];
  first_empty = NULL;
  over_cap = false;
  m->dfa = compile_beh(s->beh);
  m->first_empty = first_empty;
  m->fixes_scalarset = fixes_scalarset_in(s->beh);
  if (m->dfa && times_named[i]) {
    m->sig = xcalloc(nactions + 1, sizeof *m->sig);
    signature(s->beh, m->sig);
  }
  if (m->dfa && used && is_empty(m->dfa)) {
    Behaviour *at = first_empty ? first_empty : s->beh;
    const char *name = token_text(s->name);
    if (at == s->beh)
      error_at(at->tok, "scenario '%s' accepts no sequence of actions", name);
    else
      error_at(at->tok, "this behaviour accepts no sequence of actions, so scenario '%s' "
                        "accepts none", name);
    return false;
  }
  bool ok = m->dfa != NULL;
  if (!used && !times_named[i]) {
    dfa_free(m->dfa);
    m->dfa = NULL;
  }
  return ok;
}

// Adds `var NAME: 0..n-1` to the program, after the spec's variables.
static void add_state_var(int n) {
  const char *name = "scenario";
  for (int tries = 0;; tries++) {
    bool taken = false;
    for (int i = 0; i < prog->decls.len; i++) {
      Decl *d = prog->decls.data[i];
      if (d->name && !strcmp(token_text(d->name), name))
        taken = true;
    }
    if (!taken)
      break;
    name = format("scenario%d", tries + 1);
  }
  Token *t = xcalloc(1, sizeof *t);
  *t = *chosen->name;
  t->kind = TK_IDENT;
  t->loc = name, t->len = (int)strlen(name), t->str = (char *)name;
  t->file = chosen->name->file;
  Type *ty = xcalloc(1, sizeof *ty);
  ty->kind = TY_RANGE;
  ty->tok = chosen->name;
  ty->lo = 0, ty->hi = n - 1;
  Decl *d = xcalloc(1, sizeof *d);
  d->kind = DK_VAR;
  d->tok = chosen->tok;
  d->name = t;
  d->type = ty;
  Obj *obj = xcalloc(1, sizeof *obj);
  obj->kind = OBJ_VAR;
  obj->name = name;
  obj->tok = t;
  obj->type = ty;
  obj->decl = d;
  d->obj = obj;
  state_var = obj;
  // After the last variable, so the spec's variables keep their offsets.
  int at = 0;
  for (int i = 0; i < prog->decls.len; i++)
    if (((Decl *)prog->decls.data[i])->kind == DK_VAR)
      at = i + 1;
  vec_push(&prog->decls, NULL);
  memmove(prog->decls.data + at + 1, prog->decls.data + at,
          (size_t)(prog->decls.len - 1 - at) * sizeof(void *));
  prog->decls.data[at] = d;
}

static Node *true_node(Token *at) {
  Node *n = xcalloc(1, sizeof *n);
  n->kind = ND_BOOL;
  n->tok = at;
  n->val = 1;
  n->is_const = true;
  Type *ty = xcalloc(1, sizeof *ty);
  ty->kind = TY_BOOL;
  ty->tok = at;
  ty->card = 2, ty->width = 1;
  n->ty = ty;
  return n;
}

bool scenario_compile(Program *p, const ScenarioOptions *opt) {
  prog = p;
  Vec acts = {0};
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->kind == DK_ACTION)
      vec_push(&acts, d);
    if (d->kind == DK_SCENARIO)
      vec_push(&scenarios, d);
  }
  nactions = acts.len;
  actions = xcalloc(nactions + 1, sizeof *actions);
  for (int i = 0; i < nactions; i++)
    actions[i].decl = acts.data[i];
  action_names = name_table(action_name, nactions);
  scenario_names = name_table(scenario_name_tok, scenarios.len);

  int errors = error_count();
  for (int i = 0; i < scenarios.len; i++) {
    Decl *s = scenarios.data[i];
    const char *name = token_text(s->name);
    int first = find_scenario_index(name);
    if (first != i) {
      error_at(s->name, "scenario '%s' is declared twice", name);
      note_at(((Decl *)scenarios.data[first])->name, "first declared here");
    }
    if (find_action(name) >= 0)
      error_at(s->name, "scenario '%s' has the name of an action", name);
  }
  scenario_refs = xcalloc(scenarios.len + 1, sizeof *scenario_refs);
  times_named = xcalloc(scenarios.len + 1, sizeof *times_named);
  for (int i = 0; i < scenarios.len; i++)
    resolve_beh(((Decl *)scenarios.data[i])->beh, &scenario_refs[i], 1);
  for (int i = 0; i < scenarios.len; i++)
    for (int j = 0; j < scenario_refs[i].len; j++)
      times_named[named_index(scenario_refs[i].data[j])]++;
  if (opt->name && !find_scenario(opt->name)) {
    error_plain("--scenario %s: the spec has no scenario of that name", opt->name);
    return false;
  }
  if (error_count() > errors || !scenarios.len)
    return error_count() == errors;
  if (!build_alphabet())
    return false;
  int *order = build_order(); // after a cycle, the scenarios outside it are still built
  set_limits(opt->max_states > 0 ? opt->max_states : 4096);
  built = xcalloc(scenarios.len + 1, sizeof *built);
  for (int i = 0; i < scenarios.len; i++) {
    Decl *s = scenarios.data[order[i]];
    bool used = opt->name && !strcmp(opt->name, token_text(s->name));
    if (compile_scenario(order[i], used) && used)
      chosen = s, chosen_dfa = built[order[i]].dfa;
  }
  if (error_count() > errors || !chosen)
    return error_count() == errors;

  Dfa *d = chosen_dfa;
  dead = d->dead;
  state_num = xcalloc(d->n + 1, sizeof *state_num);
  for (int q = 0; q < d->n; q++)
    state_num[q] = q == dead ? -1 : nlive++;
  add_state_var(nlive);
  for (int i = 0; i < nactions; i++) {
    Decl *a = actions[i].decl;
    if (opt->behaviour_only) {
      a->expr = NULL;
      Node *blk = xcalloc(1, sizeof *blk);
      blk->kind = ND_BLOCK;
      blk->tok = a->body->tok;
      a->body = blk;
    }
    if (!a->expr)
      a->expr = true_node(a->tok);
  }
  return true;
}

bool scenario_active(void) { return chosen != NULL; }

bool scenario_symmetric(void) {
  return !chosen || !built[find_scenario_index(token_text(chosen->name))].fixes_scalarset;
}

const char *scenario_name(void) { return chosen ? token_text(chosen->name) : NULL; }

Obj *scenario_state_var(void) { return state_var; }

// The rule's class and the tables: mc_scenario_step(q, rule) is the
// variable's next value, or -1 when the automaton has no move (or only to
// its dead state); mc_scenario_accepts(q).
void scenario_emit_tables(Buf *out) {
  Dfa *d = chosen_dfa;
  const char *ct = nclasses <= 256 ? "uint8_t" : "uint16_t";
  // The narrowest type holding every live state and -1 (the dead one).
  const char *st = nlive <= INT8_MAX ? "int8_t" : nlive <= INT16_MAX ? "int16_t" : "int32_t";
  buf_printf(out, "/* scenario %s: %d states, %d classes of action bindings */\n",
             c_comment_escape(token_text(chosen->name)), nlive, nclasses);
  buf_printf(out, "static const %s mc_scenario_class[%llu] = {", ct,
             (unsigned long long)(nrules ? nrules : 1));
  for (uint64_t r = 0; r < nrules; r++)
    buf_printf(out, "%s%s%d", r ? "," : "", r % 20 == 0 ? "\n  " : " ", rule_class[r]);
  buf_puts(out, nrules ? "\n};\n" : "0};\n");
  buf_printf(out, "static const %s mc_scenario_delta[%d][%d] = {\n", st, nlive, nclasses);
  for (int q = 0; q < d->n; q++) {
    if (q == dead)
      continue;
    buf_puts(out, "  {");
    for (int c = 0; c < nclasses; c++)
      buf_printf(out, "%s%d", c ? ", " : "", state_num[d->delta[(size_t)q * nclasses + c]]);
    buf_puts(out, "},\n");
  }
  buf_puts(out, "};\n");
  buf_printf(out, "static const bool mc_scenario_accept[%d] = {", nlive);
  for (int q = 0, i = 0; q < d->n; q++)
    if (q != dead)
      buf_printf(out, "%s%s", i++ ? ", " : "", d->acc[q] ? "true" : "false");
  buf_puts(out, "};\n");
  buf_puts(out, "static int mc_scenario_step(uint64_t q, uint64_t rule) {\n"
                "  return q < sizeof mc_scenario_accept ? "
                "mc_scenario_delta[q][mc_scenario_class[rule]] : -1;\n}\n\n");
}

// Per state of d, the fewest steps to an accepting state (INT_MAX: none).
static int *steps_to_accept(const Dfa *d) {
  Preds p = predecessors(d);
  int *dist = xcalloc(d->n + 1, sizeof *dist), *queue = xcalloc(d->n + 1, sizeof *queue);
  int len = 0;
  for (int q = 0; q < d->n; q++) {
    dist[q] = d->acc[q] ? 0 : INT_MAX;
    if (d->acc[q])
      queue[len++] = q;
  }
  for (int i = 0; i < len; i++)
    for (int c = 0; c < nclasses; c++) {
      size_t at = (size_t)c * d->n + queue[i];
      for (int e = p.first[at]; e < p.first[at + 1]; e++)
        if (dist[p.src[e]] == INT_MAX)
          dist[p.src[e]] = dist[queue[i]] + 1, queue[len++] = p.src[e];
    }
  free(queue), free(p.first), free(p.src);
  return dist;
}

// Prints the accepted words of up to `len` steps, each step as the name of
// its action (two classes of one action print alike: the operator tests use
// actions without parameters). The search goes only where a word ends in
// the steps left, so its work is bounded by what it prints.
bool scenario_print_words(FILE *out, int len) {
  Dfa *d = chosen_dfa;
  if (!d)
    return false;
  char **names = xcalloc(nclasses + 1, sizeof *names);
  for (int c = 0; c < nclasses; c++) {
    Action *act = &actions[class_action[c]];
    names[c] = token_text(act->decl->name);
  }
  int *word = xcalloc(len + 1, sizeof *word);
  int *states = xcalloc(len + 2, sizeof *states);
  int *dist = steps_to_accept(d);
  // Depth-first, classes ascending (the caller sorts if it needs to).
  int depth = 0;
  word[0] = -1;
  states[0] = 0;
  if (d->acc[0])
    fputs("<empty>\n", out);
  while (depth >= 0) {
    if (depth == len || ++word[depth] >= nclasses) {
      depth--;
      continue;
    }
    int q = d->delta[(size_t)states[depth] * nclasses + word[depth]];
    if (dist[q] > len - depth - 1)
      continue;
    states[depth + 1] = q;
    if (d->acc[q]) {
      for (int j = 0; j <= depth; j++)
        fprintf(out, "%s%s", j ? " " : "", names[word[j]]);
      fputc('\n', out);
    }
    depth++;
    word[depth] = -1;
  }
  return true;
}
