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
// over the classes (start state 0): the boolean ones (`|`, `&`, `||`, `!`,
// `|?|`) by products, the sequential ones (`;`, `->`, `*`, `+`, `?`, `{}`)
// and `|||` through a Thompson-style NFA and the subset construction. Each
// result is minimised (Moore's partition refinement) and numbered in
// breadth-first order, so the tables are the same on every run. An
// automaton larger than the cap is a spec error at the operator that built
// it.
//
// The product. When `--scenario NAME` picks a scenario, the compiler adds a
// state variable, the automaton's state (the dead state left out), and
// emit.c wraps every action's guard (the automaton has a move on the rule's
// class) and body (the variable takes the move's target). Every option of
// the checker then works on the product unchanged. Symmetry stays sound when
// no invocation fixes a scalarset argument: the class of a binding is then
// invariant under permutations of the scalarsets.
#include "mcgen.h"

#define MAX_CLASSES 4096
#define MAX_BINDINGS (1 << 22)
#define MASK_SLOTS (2 * MAX_CLASSES) // build_alphabet's hash of an action's classes

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
static int nclasses;
static int *class_action; // per class
static uint64_t *class_mask;
static int *rule_class;   // per rule
static uint64_t nrules;
static int max_states;
static bool fixes_scalarset; // set by arg_encoding

static int find_action(const char *name) {
  for (int i = 0; i < nactions; i++)
    if (!strcmp(token_text(actions[i].decl->name), name))
      return i;
  return -1;
}

static Decl *find_scenario(const char *name) {
  for (int i = 0; i < scenarios.len; i++) {
    Decl *d = scenarios.data[i];
    if (!strcmp(token_text(d->name), name))
      return d;
  }
  return NULL;
}

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

// Resolves the names of a behaviour; checks the repetition counts.
static void resolve_beh(Behaviour *b) {
  if (!b)
    return;
  if (b->kind == BH_NAME) {
    const char *name = token_text(b->tok);
    int a = find_action(name);
    if (a >= 0) {
      resolve_atom(b, a);
      return;
    }
    if (find_scenario(name)) {
      if (b->has_args)
        error_at(b->tok, "'%s' is a scenario: it takes no arguments", name);
      return;
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
    return;
  }
  if (b->kind == BH_REPEAT) {
    int64_t lo = 0, hi = 0;
    bool ok = int_value(b->min_expr, &lo) && (!b->max_expr || int_value(b->max_expr, &hi));
    if (!ok || lo < 0 || (b->max_expr && hi < lo) || lo > 64 || (b->max_expr && hi > 64))
      error_at(b->tok, "a repetition count is a constant from 0 to 64, written {n} or {n,m} "
                       "with n <= m");
  }
  resolve_beh(b->lhs);
  resolve_beh(b->rhs);
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

// A complete deterministic automaton over the classes; start state 0.
typedef struct Dfa {
  int n;
  int *delta; // n * nclasses
  bool *acc;
} Dfa;

static Behaviour *cap_at; // the operator being built, for the size error
static bool over_cap;

static Dfa *dfa_new(int n) {
  Dfa *d = xcalloc(1, sizeof *d);
  d->n = n;
  d->delta = xcalloc((size_t)n * nclasses + 1, sizeof *d->delta);
  d->acc = xcalloc(n + 1, sizeof *d->acc);
  return d;
}

static bool too_big(int n) {
  if (n <= max_states || over_cap)
    return over_cap;
  over_cap = true;
  error_at(cap_at->tok, "the automaton of this behaviour has more than %d states", max_states);
  hint("mcgen --scenario-max-states N raises the cap");
  return true;
}

// A hash map from int sequences (states of a construction) to numbers.
typedef struct SeqMap {
  int **keys;
  int *lens, *vals;
  int cap, len;
} SeqMap;

static uint64_t seq_hash(const int *k, int n) {
  uint64_t h = 1469598103934665603u ^ (uint64_t)n;
  for (int i = 0; i < n; i++)
    h = (h ^ (uint64_t)(unsigned)k[i]) * 1099511628211u;
  return h;
}

static int seqmap_get(SeqMap *m, const int *k, int n, int fresh) {
  if (2 * (m->len + 1) > m->cap) {
    SeqMap big = {0};
    big.cap = m->cap ? m->cap * 2 : 64;
    big.keys = xcalloc(big.cap, sizeof *big.keys);
    big.lens = xcalloc(big.cap, sizeof *big.lens);
    big.vals = xcalloc(big.cap, sizeof *big.vals);
    for (int i = 0; i < m->cap; i++) {
      if (!m->keys[i])
        continue;
      uint64_t j = seq_hash(m->keys[i], m->lens[i]) % (uint64_t)big.cap;
      while (big.keys[j])
        j = (j + 1) % (uint64_t)big.cap;
      big.keys[j] = m->keys[i], big.lens[j] = m->lens[i], big.vals[j] = m->vals[i];
    }
    big.len = m->len;
    *m = big;
  }
  uint64_t j = seq_hash(k, n) % (uint64_t)m->cap;
  while (m->keys[j]) {
    if (m->lens[j] == n && !memcmp(m->keys[j], k, (size_t)n * sizeof *k))
      return m->vals[j];
    j = (j + 1) % (uint64_t)m->cap;
  }
  if (fresh < 0)
    return -1;
  m->keys[j] = xcalloc(n + 1, sizeof *k);
  memcpy(m->keys[j], k, (size_t)n * sizeof *k);
  m->lens[j] = n;
  m->vals[j] = fresh;
  m->len++;
  return fresh;
}

// Minimises (Moore) and numbers the states breadth-first from the start.
static Dfa *minimise(Dfa *d) {
  int n = d->n, k = nclasses;
  int *block = xcalloc(n + 1, sizeof *block);
  int nblocks = 0;
  for (int q = 0; q < n; q++)
    block[q] = d->acc[q];
  nblocks = 2;
  int *sig = xcalloc((size_t)k + 1, sizeof *sig);
  for (;;) {
    SeqMap m = {0};
    int *next = xcalloc(n + 1, sizeof *next);
    int count = 0;
    for (int q = 0; q < n; q++) {
      sig[0] = block[q];
      for (int c = 0; c < k; c++)
        sig[c + 1] = block[d->delta[(size_t)q * k + c]];
      int id = seqmap_get(&m, sig, k + 1, count);
      if (id == count)
        count++;
      next[q] = id;
    }
    block = next;
    if (count == nblocks)
      break;
    nblocks = count;
  }
  // Breadth-first numbering of the blocks reachable from the start.
  int *num = xcalloc(nblocks + 1, sizeof *num);
  int *rep = xcalloc(nblocks + 1, sizeof *rep);
  for (int i = 0; i < nblocks; i++)
    num[i] = -1;
  for (int q = n - 1; q >= 0; q--)
    rep[block[q]] = q;
  int *order = xcalloc(nblocks + 1, sizeof *order);
  int len = 0;
  num[block[0]] = len, order[len++] = block[0];
  for (int i = 0; i < len; i++) {
    int q = rep[order[i]];
    for (int c = 0; c < k; c++) {
      int b = block[d->delta[(size_t)q * k + c]];
      if (num[b] < 0)
        num[b] = len, order[len++] = b;
    }
  }
  Dfa *r = dfa_new(len);
  for (int i = 0; i < len; i++) {
    int q = rep[order[i]];
    r->acc[i] = d->acc[q];
    for (int c = 0; c < k; c++)
      r->delta[(size_t)i * k + c] = num[block[d->delta[(size_t)q * k + c]]];
  }
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
  return d;
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
  return d;
}

typedef enum { PR_AND, PR_OR, PR_SYNC_INTER } ProductKind;

// The product of a and b, reachable pairs only. PR_SYNC_INTER: a class in
// both signatures moves both, in one moves that one, in neither dies.
static Dfa *product(Dfa *a, Dfa *b, ProductKind kind, const bool *sig_a, const bool *sig_b) {
  int k = nclasses;
  SeqMap m = {0};
  Vec pairs = {0};
  int *p0 = xcalloc(2, sizeof *p0); // {0, 0}
  seqmap_get(&m, p0, 2, 0);
  vec_push(&pairs, p0);
  Vec trans = {0};
  for (int i = 0; i < pairs.len; i++) {
    int *pq = pairs.data[i];
    int *row = xcalloc(k + 1, sizeof *row);
    for (int c = 0; c < k; c++) {
      int key[2];
      if (pq[0] < 0) {
        key[0] = key[1] = -1;
      } else if (kind == PR_SYNC_INTER) {
        bool ia = sig_a[class_action[c]], ib = sig_b[class_action[c]];
        key[0] = ia ? a->delta[(size_t)pq[0] * k + c] : pq[0];
        key[1] = ib ? b->delta[(size_t)pq[1] * k + c] : pq[1];
        if (!ia && !ib)
          key[0] = key[1] = -1;
      } else {
        key[0] = a->delta[(size_t)pq[0] * k + c];
        key[1] = b->delta[(size_t)pq[1] * k + c];
      }
      int id = seqmap_get(&m, key, 2, pairs.len);
      if (id == pairs.len) {
        if (too_big(pairs.len + 1))
          return NULL;
        int *np = xcalloc(2, sizeof *np);
        np[0] = key[0], np[1] = key[1];
        vec_push(&pairs, np);
      }
      row[c] = id;
    }
    vec_push(&trans, row);
  }
  Dfa *d = dfa_new(pairs.len);
  for (int i = 0; i < pairs.len; i++) {
    int *pq = pairs.data[i];
    bool x = pq[0] >= 0 && a->acc[pq[0]], y = pq[1] >= 0 && b->acc[pq[1]];
    d->acc[i] = kind == PR_OR ? x || y : x && y;
    memcpy(d->delta + (size_t)i * k, trans.data[i], (size_t)k * sizeof(int));
  }
  return minimise(d);
}

static Dfa *complement(Dfa *a) {
  Dfa *d = dfa_new(a->n);
  memcpy(d->delta, a->delta, (size_t)a->n * nclasses * sizeof(int));
  for (int q = 0; q < a->n; q++)
    d->acc[q] = !a->acc[q];
  return d;
}

// A nondeterministic automaton with empty moves (sym -1).
typedef struct Nfa {
  int n, start;
  Vec *edges; // per state: pairs (sym, to) packed in an int array
  int *nedges;
  bool *acc;
} Nfa;

static Nfa *nfa_new(int n) {
  Nfa *a = xcalloc(1, sizeof *a);
  a->n = n;
  a->edges = xcalloc(n + 1, sizeof *a->edges);
  a->acc = xcalloc(n + 1, sizeof *a->acc);
  return a;
}

static void nfa_edge(Nfa *a, int from, int sym, int to) {
  vec_push(&a->edges[from], (void *)(intptr_t)sym);
  vec_push(&a->edges[from], (void *)(intptr_t)to);
}

// Copies d into a at offset off (its accepting states accepting in a if keep_acc).
static void nfa_add(Nfa *a, Dfa *d, int off, bool keep_acc) {
  for (int q = 0; q < d->n; q++) {
    for (int c = 0; c < nclasses; c++)
      nfa_edge(a, off + q, c, off + d->delta[(size_t)q * nclasses + c]);
    if (keep_acc)
      a->acc[off + q] = d->acc[q];
  }
}

static int cmp_int(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

// The empty-move closure of a set (sorted, without duplicates).
static int close_set(Nfa *a, int *set, int n, bool *mark) {
  for (int i = 0; i < n; i++)
    mark[set[i]] = true;
  for (int i = 0; i < n; i++) {
    Vec *e = &a->edges[set[i]];
    for (int j = 0; j < e->len; j += 2)
      if ((intptr_t)e->data[j] == -1) {
        int t = (int)(intptr_t)e->data[j + 1];
        if (!mark[t])
          mark[t] = true, set[n++] = t;
      }
  }
  for (int i = 0; i < n; i++)
    mark[set[i]] = false;
  qsort(set, (size_t)n, sizeof *set, cmp_int);
  return n;
}

// The subset construction.
static Dfa *determinise(Nfa *a) {
  int k = nclasses;
  bool *mark = xcalloc(a->n + 1, sizeof *mark);
  int *buf = xcalloc(a->n + 1, sizeof *buf);
  SeqMap m = {0};
  Vec sets = {0}, lens = {0}, trans = {0};
  buf[0] = a->start;
  int n0 = close_set(a, buf, 1, mark);
  int *s0 = xcalloc(n0 + 1, sizeof *s0);
  memcpy(s0, buf, (size_t)n0 * sizeof *s0);
  seqmap_get(&m, s0, n0, 0);
  vec_push(&sets, s0);
  vec_push(&lens, (void *)(intptr_t)n0);
  for (int i = 0; i < sets.len; i++) {
    int *set = sets.data[i];
    int len = (int)(intptr_t)lens.data[i];
    int *row = xcalloc(k + 1, sizeof *row);
    for (int c = 0; c < k; c++) {
      int n = 0;
      for (int j = 0; j < len; j++) {
        Vec *e = &a->edges[set[j]];
        for (int x = 0; x < e->len; x += 2)
          if ((intptr_t)e->data[x] == c) {
            int t = (int)(intptr_t)e->data[x + 1];
            if (!mark[t])
              mark[t] = true, buf[n++] = t;
          }
      }
      for (int j = 0; j < n; j++)
        mark[buf[j]] = false;
      n = close_set(a, buf, n, mark);
      int id = seqmap_get(&m, buf, n, sets.len);
      if (id == sets.len) {
        if (too_big(sets.len + 1))
          return NULL;
        int *s = xcalloc(n + 1, sizeof *s);
        memcpy(s, buf, (size_t)n * sizeof *s);
        vec_push(&sets, s);
        vec_push(&lens, (void *)(intptr_t)n);
      }
      row[c] = id;
    }
    vec_push(&trans, row);
  }
  Dfa *d = dfa_new(sets.len);
  for (int i = 0; i < sets.len; i++) {
    int *set = sets.data[i];
    int len = (int)(intptr_t)lens.data[i];
    for (int j = 0; j < len; j++)
      d->acc[i] |= a->acc[set[j]];
    memcpy(d->delta + (size_t)i * k, trans.data[i], (size_t)k * sizeof(int));
  }
  return minimise(d);
}

static Dfa *concat(Dfa *x, Dfa *y) {
  Nfa *a = nfa_new(x->n + y->n);
  nfa_add(a, x, 0, false);
  nfa_add(a, y, x->n, true);
  for (int q = 0; q < x->n; q++)
    if (x->acc[q])
      nfa_edge(a, q, -1, x->n);
  return determinise(a);
}

// x* (with_empty) or x+.
static Dfa *repeat(Dfa *x, bool with_empty) {
  Nfa *a = nfa_new(x->n + 1);
  nfa_add(a, x, 0, true);
  int s = x->n; // a new start
  a->start = s;
  a->acc[s] = with_empty;
  nfa_edge(a, s, -1, 0);
  for (int q = 0; q < x->n; q++)
    if (x->acc[q])
      nfa_edge(a, q, -1, 0);
  return determinise(a);
}

static Dfa *shuffle(Dfa *x, Dfa *y) {
  if (too_big(x->n * y->n > max_states * 16 ? max_states + 1 : 0))
    return NULL;
  Nfa *a = nfa_new(x->n * y->n);
  for (int p = 0; p < x->n; p++)
    for (int q = 0; q < y->n; q++) {
      int s = p * y->n + q;
      a->acc[s] = x->acc[p] && y->acc[q];
      for (int c = 0; c < nclasses; c++) {
        nfa_edge(a, s, c, x->delta[(size_t)p * nclasses + c] * y->n + q);
        nfa_edge(a, s, c, p * y->n + y->delta[(size_t)q * nclasses + c]);
      }
    }
  return determinise(a);
}

static bool is_empty(Dfa *d) {
  for (int q = 0; q < d->n; q++)
    if (d->acc[q])
      return false;
  return true;
}

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
    signature(find_scenario(token_text(b->tok))->beh, sig);
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
    return;
  }
  default:
    signature(b->lhs, sig);
    if (b->rhs)
      signature(b->rhs, sig);
    return;
  }
}

static Behaviour *first_empty; // the innermost operator whose language is empty

// The automaton of a behaviour, or NULL after an error. `busy`: the
// scenarios being compiled (a scenario may not refer to itself).
static Dfa *compile_beh(Behaviour *b, Vec *busy) {
  Dfa *x = NULL, *y = NULL, *r = NULL;
  int k = nclasses;
  if (b->lhs && !(x = compile_beh(b->lhs, busy)))
    return NULL;
  if (b->rhs && !(y = compile_beh(b->rhs, busy)))
    return NULL;
  cap_at = b;
  bool *in = xcalloc(k + 1, 1);
  switch (b->kind) {
  case BH_NAME: {
    const char *name = token_text(b->tok);
    int a = find_action(name);
    if (a < 0) {
      Decl *s = find_scenario(name);
      for (int i = 0; i < busy->len; i++)
        if (busy->data[i] == s) {
          error_at(b->tok, "scenario '%s' refers to itself", name);
          return NULL;
        }
      vec_push(busy, s);
      r = compile_beh(s->beh, busy);
      busy->len--;
      return r;
    }
    Action *act = &actions[a];
    int bit = -1;
    for (int i = 0; i < act->atoms.len; i++)
      if (((Atom *)act->atoms.data[i])->beh == b)
        bit = i;
    for (int c = 0; c < act->nclasses; c++)
      in[act->class0 + c] = act->masks[c] >> bit & 1;
    r = minimise(dfa_step(in));
    break;
  }
  case BH_ANY:
    for (int c = 0; c < k; c++)
      in[c] = true;
    r = minimise(dfa_step(in));
    break;
  case BH_ANY_SEQ:
    r = dfa_all();
    break;
  case BH_SEQ:
    r = concat(x, y);
    break;
  case BH_LOOSE_SEQ:
    r = concat(x, dfa_all());
    r = r ? concat(r, y) : NULL;
    break;
  case BH_CHOICE:
    r = product(x, y, PR_OR, NULL, NULL);
    break;
  case BH_AND:
  case BH_SYNC:
    r = product(x, y, PR_AND, NULL, NULL);
    break;
  case BH_INTERLEAVE:
    r = shuffle(x, y);
    break;
  case BH_SYNC_INTER: {
    bool *sl = xcalloc(nactions + 1, 1), *sr = xcalloc(nactions + 1, 1);
    signature(b->lhs, sl);
    signature(b->rhs, sr);
    r = product(x, y, PR_SYNC_INTER, sl, sr);
    break;
  }
  case BH_STAR:
    r = repeat(x, true);
    break;
  case BH_PLUS:
    r = repeat(x, false);
    break;
  case BH_OPT:
    r = product(x, dfa_empty_word(), PR_OR, NULL, NULL);
    break;
  case BH_REPEAT: {
    int64_t lo = 0, hi = 0;
    int_value(b->min_expr, &lo);
    hi = lo;
    if (b->max_expr)
      int_value(b->max_expr, &hi);
    // x{lo,hi} = x^lo (x?)^(hi-lo)
    Dfa *opt = product(x, dfa_empty_word(), PR_OR, NULL, NULL);
    r = minimise(dfa_empty_word());
    for (int64_t i = 0; r && i < hi; i++)
      r = concat(r, i < lo ? x : opt);
    break;
  }
  case BH_NOT:
    r = minimise(complement(x));
    break;
  }
  if (r && is_empty(r) && !first_empty && (!x || !is_empty(x)) && (!y || !is_empty(y)))
    first_empty = b;
  if (r && too_big(r->n))
    return NULL;
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

// The automaton of a scenario. `used`: the scenario is explored (or its
// words printed), and an empty language is then an error.
static Dfa *compile_scenario(Decl *s, bool used) {
  Vec busy = {0};
  vec_push(&busy, s);
  first_empty = NULL;
  over_cap = false;
  Dfa *d = compile_beh(s->beh, &busy);
  if (d && used && is_empty(d)) {
    Behaviour *at = first_empty ? first_empty : s->beh;
    const char *name = token_text(s->name);
    if (at == s->beh)
      error_at(at->tok, "scenario '%s' accepts no sequence of actions", name);
    else
      error_at(at->tok, "this behaviour accepts no sequence of actions, so scenario '%s' "
                        "accepts none", name);
    return NULL;
  }
  return d;
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
  max_states = opt->max_states > 0 ? opt->max_states : 4096;
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

  int errors = error_count();
  for (int i = 0; i < scenarios.len; i++) {
    Decl *s = scenarios.data[i];
    const char *name = token_text(s->name);
    for (int j = 0; j < i; j++)
      if (!strcmp(token_text(((Decl *)scenarios.data[j])->name), name)) {
        error_at(s->name, "scenario '%s' is declared twice", name);
        note_at(((Decl *)scenarios.data[j])->name, "first declared here");
      }
    if (find_action(name) >= 0)
      error_at(s->name, "scenario '%s' has the name of an action", name);
  }
  for (int i = 0; i < scenarios.len; i++)
    resolve_beh(((Decl *)scenarios.data[i])->beh);
  if (opt->name && !find_scenario(opt->name)) {
    error_plain("--scenario %s: the spec has no scenario of that name", opt->name);
    return false;
  }
  if (error_count() > errors || !scenarios.len)
    return error_count() == errors;
  if (!build_alphabet())
    return false;
  Dfa **dfas = xcalloc(scenarios.len + 1, sizeof *dfas);
  for (int i = 0; i < scenarios.len; i++) {
    Decl *s = scenarios.data[i];
    bool used = opt->name && !strcmp(opt->name, token_text(s->name));
    dfas[i] = compile_scenario(s, used);
    if (dfas[i] && used)
      chosen = s, chosen_dfa = dfas[i];
  }
  if (error_count() > errors || !chosen)
    return error_count() == errors;

  // The dead state: the one non-accepting state that moves only to itself.
  Dfa *d = chosen_dfa;
  state_num = xcalloc(d->n + 1, sizeof *state_num);
  for (int q = 0; q < d->n; q++) {
    bool stuck = !d->acc[q];
    for (int c = 0; stuck && c < nclasses; c++)
      stuck = d->delta[(size_t)q * nclasses + c] == q;
    if (stuck)
      dead = q;
  }
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

// Whether a behaviour names a scalarset value, itself or through the
// scenarios it refers to.
static bool names_scalarset_value(Behaviour *b) {
  if (!b)
    return false;
  if (b->kind == BH_NAME) {
    for (int i = 0; i < atoms.len; i++) {
      Atom *atom = atoms.data[i];
      if (atom->beh == b)
        return atom->fixes_scalarset;
    }
    Decl *s = find_scenario(token_text(b->tok));
    return s && names_scalarset_value(s->beh);
  }
  return names_scalarset_value(b->lhs) || names_scalarset_value(b->rhs);
}

bool scenario_symmetric(void) { return !chosen || !names_scalarset_value(chosen->beh); }

const char *scenario_name(void) { return chosen ? token_text(chosen->name) : NULL; }

Obj *scenario_state_var(void) { return state_var; }

// The rule's class and the tables: mc_scenario_step(q, rule) is the
// variable's next value, or -1 when the automaton has no move (or only to
// its dead state); mc_scenario_accepts(q).
void scenario_emit_tables(Buf *out) {
  Dfa *d = chosen_dfa;
  const char *ct = nclasses <= 256 ? "uint8_t" : "uint16_t";
  const char *st = nlive <= 127 ? "int8_t" : "int16_t";
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

// Prints the accepted words of up to `len` steps, each step as the name of
// its action (two classes of one action print alike: the operator tests use
// actions without parameters).
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
