// SPDX-License-Identifier: MIT
// emit.c: writes the model as m4 definitions; templates/checker.c.m4 gives
// the generated C its fixed shape and includes each piece verbatim.
//
// Requires check() and layout(). Every spec name is mangled with a prefix
// naming its kind (v_ state variable, a_ action, g_ guard, f_ fn, p_
// parameter or bound variable, l_ local, i_ init, inv_ invariant, ...), so no
// spec name can collide with C, libc or the runtime. Temporaries are t1, t2...
//
// Values: a scalar is an int64_t holding its logical value (an integer, an
// enum or scalarset index, 0/1, or MCRT_NONE). A composite value (record,
// array, collection) lives at a bit location: a base pointer and a bit
// offset, in the state, in a local buffer or in a temporary. Expressions are
// lowered to C expressions plus statements emitted before them (bounds and
// range checks, quantifier loops, calls that may fail). Checks are emitted
// only where value intervals show they can fail.
#include "mcgen.h"

//
// Output
//

typedef struct Gen {
  Buf *out;           // statements of the function being written
  int indent;
  const char *fail;   // statement that leaves the function after an error
  const char *leave;  // statement that ends an action, its successor complete
  const char *state;  // C name of the state the code reads and writes
  bool can_fail;      // the function may report an error
  int spec_line;      // the spec line the lines written now come from (0: glue)
  int last_line;      // the spec_line of the last line written (-1: unknown)
  // An invariant's `forall`, or one nested directly in it, whose falsifying
  // binding the function hands to the runtime (mcrt_witness: "mutex does
  // not hold for p=Proc_1, q=Proc_2"), and the position of its first binder
  // in the chain; NULL: none.
  Node *witness;
  int witness_index;
} Gen;

static Gen g;
static int ntemps;
static const SrcFile *src;

// Marks where the generated file resumes; main.c replaces the marker with a
// #line naming the generated file itself.
#define LINE_BACK "#line MCGEN_HERE\n"

static void line_directive(int spec_line);

// Writes one line of C. A line from the spec gets a #line naming its spec
// line (a statement may expand to several C lines, and each must name it,
// or the next would claim the spec line below); glue after spec lines goes
// back to the generated file. main.c drops the directives that do not
// change what the line is attributed to.
static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...) {
  if (g.spec_line > 0)
    line_directive(g.spec_line);
  else if (g.last_line != 0)
    buf_puts(g.out, LINE_BACK);
  g.last_line = g.spec_line;
  for (int i = 0; i < g.indent; i++)
    buf_puts(g.out, "  ");
  va_list ap;
  va_start(ap, fmt);
  buf_puts(g.out, vformat(fmt, ap));
  va_end(ap);
  buf_puts(g.out, "\n");
}

static char *temp_name(void) { return format("t%d", ++ntemps); }

// Declares a temporary initialised to `init` and returns its name.
static char *temp(const char *ctype, const char *init) {
  char *t = temp_name();
  line("%s %s = %s;", ctype, t, init);
  return t;
}

// A C string literal. Non-ASCII bytes become octal escapes (they would
// clash with the m4 quotes), `?` is escaped against trigraphs.
static char *c_str(const char *s) {
  return format("\"%s\"", c_escape(s));
}

// A condition for `if (%s)`: one pair of parentheses around the whole is
// dropped (clang's -Wparentheses-equality warns on `if ((a == b))`).
static const char *cond_c(const char *c) {
  size_t n = strlen(c);
  if (n < 2 || c[0] != '(' || c[n - 1] != ')')
    return c;
  int depth = 0;
  for (size_t i = 0; i < n; i++) {
    if (c[i] == '(')
      depth++;
    else if (c[i] == ')' && --depth == 0 && i != n - 1)
      return c;
  }
  return xstrndup(c + 1, n - 2);
}

static void line_directive(int spec_line) {
  buf_printf(g.out, "#line %d %s\n", spec_line, c_str(src->name));
}

// Reports a run-time error at `at` when `cond` holds.
static void fail_if(Node *at, const char *cond, const char *msg_and_args) {
  line("if (%s) {", cond_c(cond));
  line("  mcrt_runtime_error(ctx, mc_file, %d, %d, %s);", at->tok->line, at->tok->col,
       msg_and_args);
  line("  %s", g.fail);
  line("}");
  g.can_fail = true;
}

//
// Types
//

static Type *R(Type *ty) { return resolve(ty); }

static int64_t W(Type *ty) {
  ty = R(ty);
  layout_of(ty, ty->tok);
  return ty->width;
}

static bool is_composite(Type *ty) {
  switch (R(ty)->kind) {
  case TY_ARRAY:
  case TY_RECORD:
  case TY_SET:
  case TY_MULTISET:
  case TY_QUEUE:
    return true;
  default:
    return false;
  }
}

static int64_t range_lo(Type *ty) {
  ty = R(ty);
  if (ty->kind == TY_OPTIONAL)
    ty = R(ty->base);
  return ty->kind == TY_RANGE ? ty->lo : 0;
}

// Bytes of a buffer holding a value of the type, slack included.
static int64_t buf_bytes(Type *ty) { return (W(ty) + 7) / 8 + 8; }

static const char *get_fn(int64_t w) { return w <= 56 ? "mcrt_get" : "mcrt_get_wide"; }
static const char *set_fn(int64_t w) { return w <= 56 ? "mcrt_set" : "mcrt_set_wide"; }

// An int64_t as a C constant: -9223372036854775808 is not one (it is the
// negation of a constant too large for long long).
static char *c_int(int64_t v) {
  return v == INT64_MIN ? "INT64_MIN" : format("%lld", (long long)v);
}

// Whether a range holds more than INT64_MAX + 1 values: v - lo may then
// overflow an int64_t, so its encoding is computed in uint64_t.
static bool wide_range(Type *ty) { return (__int128)ty->hi - ty->lo > INT64_MAX; }
//
// C expressions are printed with the parentheses they need and no more, plus
// those gcc's -Wparentheses asks for (&& inside ||, a comparison or
// arithmetic inside a comparison or a bitwise operator). The text of every
// operator expression built here is registered with its C precedence; any
// other text (a name, a literal, a call, a cast or a parenthesized
// expression) binds tighter than every operator.
//

// (The precedences, PREC_*, are in mcgen.h, with the operator table.)

typedef struct PrecEntry {
  const char *text;
  int prec;
} PrecEntry;
static PrecEntry *precs;
static uint64_t precs_cap, precs_len;

static PrecEntry *prec_slot(PrecEntry *table, uint64_t cap, const char *text) {
  for (uint64_t i = ((uintptr_t)text >> 3) * 0x9e3779b97f4a7c15u >> 20 & (cap - 1);;
       i = (i + 1) & (cap - 1))
    if (!table[i].text || table[i].text == text)
      return &table[i];
}

// Registers `text` as an expression of precedence `prec`; returns it.
static char *with_prec(char *text, int prec) {
  if (2 * (precs_len + 1) > precs_cap) {
    uint64_t cap = precs_cap ? 2 * precs_cap : 1024;
    PrecEntry *t = xcalloc(cap, sizeof *t);
    for (uint64_t i = 0; i < precs_cap; i++)
      if (precs[i].text)
        *prec_slot(t, cap, precs[i].text) = precs[i];
    precs = t;
    precs_cap = cap;
  }
  PrecEntry *e = prec_slot(precs, precs_cap, text);
  precs_len += !e->text;
  *e = (PrecEntry){text, prec};
  return text;
}

static int prec_of(const char *text) {
  if (!precs_cap)
    return PREC_PRIMARY;
  PrecEntry *e = prec_slot(precs, precs_cap, text);
  return e->text ? e->prec : PREC_PRIMARY;
}

// `text` as an operand that must bind at least as tightly as `prec`.
static char *operand(const char *text, int prec) {
  return prec_of(text) >= prec ? (char *)text : format("(%s)", text);
}

// `a OP b` for a binary operator of precedence p (left-associative).
static char *binary_c(int p, const char *a, const char *op, const char *b) {
  int left = p, right = p + 1;
  if (p == PREC_OR) {
    left = prec_of(a) == PREC_OR ? PREC_OR : PREC_AND + 1;
    right = PREC_AND + 1;
  } else if (p == PREC_EQ || p == PREC_REL) {
    left = right = PREC_SHIFT;
  } else if (p == PREC_BOR || p == PREC_BXOR || p == PREC_BAND) {
    left = prec_of(a) == p ? p : PREC_UNARY;
    right = PREC_UNARY;
  }
  char *l = operand(a, left), *r = operand(b, right);
  // gcc's -Wlogical-not-parentheses: `!x == y` reads as `!(x == y)`.
  if ((p == PREC_EQ || p == PREC_REL) && l[0] == '!' && r[0] != '!')
    l = format("(%s)", l);
  return with_prec(format("%s %s %s", l, op, r), p);
}

// `OPx` for a unary operator ("!", "~", "-").
static char *unary_c(const char *op, const char *x) {
  char *o = operand(x, PREC_UNARY);
  if (op[0] == '-' && o[0] == '-') // not `--x`
    o = format("(%s)", o);
  return with_prec(format("%s%s", op, o), PREC_UNARY);
}

// The logical value of a scalar from its encoding `raw`.
static char *decode(Type *ty, const char *raw) {
  ty = R(ty);
  if (ty->kind == TY_OPTIONAL)
    return format("mcrt_opt_decode(%s, %s)", raw, c_int(range_lo(ty->base)));
  if (ty->kind == TY_RANGE && wide_range(ty))
    return format("(int64_t)(%s + (uint64_t)%s)", raw, c_int(ty->lo));
  if (ty->kind == TY_RANGE && ty->lo != 0)
    return format("((int64_t)%s + %s)", raw, c_int(ty->lo));
  return format("(int64_t)%s", raw);
}

// The encoding of a logical value that is known to be in range.
static char *encode(Type *ty, const char *v) {
  ty = R(ty);
  if (ty->kind == TY_OPTIONAL)
    return format("mcrt_opt_encode(%s, %s)", v, c_int(range_lo(ty->base)));
  if (ty->kind == TY_RANGE && wide_range(ty))
    return format("((uint64_t)%s - (uint64_t)%s)", operand(v, PREC_UNARY), c_int(ty->lo));
  if (ty->kind == TY_RANGE && ty->lo != 0)
    return format("(uint64_t)(%s - %s)", operand(v, PREC_ADD), c_int(ty->lo));
  return format("(uint64_t)%s", operand(v, PREC_UNARY));
}

//
// Intervals: what values a scalar expression may take, to leave out checks
// that cannot fail.
//

typedef struct Iv {
  __int128 lo, hi;
  bool none; // may be none
} Iv;

static const __int128 I64MIN = INT64_MIN, I64MAX = INT64_MAX;

static Iv iv_full(void) { return (Iv){I64MIN, I64MAX, false}; }

static Iv iv_of_type(Type *ty) {
  ty = R(ty);
  switch (ty->kind) {
  case TY_BOOL: return (Iv){0, 1, false};
  case TY_RANGE: return (Iv){ty->lo, ty->hi, false};
  case TY_ENUM: return (Iv){0, ty->members.len - 1, false};
  case TY_SCALARSET: return (Iv){0, ty->size - 1, false};
  case TY_OPTIONAL: {
    Iv b = iv_of_type(ty->base);
    b.none = true;
    return b;
  }
  case TY_NONE: return (Iv){0, 0, true};
  default: return iv_full();
  }
}

static __int128 min4(__int128 a, __int128 b, __int128 c, __int128 d) {
  __int128 m = a < b ? a : b;
  m = m < c ? m : c;
  return m < d ? m : d;
}
static __int128 max4(__int128 a, __int128 b, __int128 c, __int128 d) {
  __int128 m = a > b ? a : b;
  m = m > c ? m : c;
  return m > d ? m : d;
}

static bool iv_fits(Iv v) { return v.lo >= I64MIN && v.hi <= I64MAX; }

// How many values `x in C` binds at most: the distinct elements of a set or
// multiset, every element of a queue (duplicates included).
static int64_t in_domain_size(Type *coll) {
  int64_t space = element_space(coll->base);
  switch (coll->kind) {
  case TY_SET: return space;
  case TY_MULTISET: return coll->size < space ? coll->size : space;
  default: return coll->size;
  }
}

static int64_t domain_size(Vec *binders) {
  __int128 n = 1;
  for (int i = 0; i < binders->len; i++) {
    Binder *b = binders->data[i];
    n *= b->in_expr ? in_domain_size(R(b->in_expr->ty)) : card_of(b->type);
    if (n > I64MAX)
      return INT64_MAX;
  }
  return (int64_t)n;
}

// Facts `lo <= x`, `x <= hi` about locals that cannot change (let), true
// inside the then-block of an `if` whose condition is a conjunction of them
// (DVE's range checks before a store): checks they make impossible are left
// out.
typedef struct Fact {
  Obj *obj;
  Iv iv;
} Fact;
static Fact *facts;
static int nfacts, facts_cap;

static bool is_scalar_or_opt(Type *ty) {
  return is_scalar(ty) || ty->kind == TY_OPTIONAL || ty->kind == TY_NONE;
}

static Iv interval(Node *node) {
  if (node->is_const)
    return (Iv){node->val, node->val, false};
  Type *ty = R(node->ty);
  if (node->kind == ND_COND && is_scalar_or_opt(ty)) {
    // The union of the branches, whatever type the checker gave the whole.
    Iv a = interval(node->then), b = interval(node->els);
    return (Iv){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, a.none || b.none};
  }
  if (ty->kind != TY_INT)
    return iv_of_type(ty);
  switch (node->kind) {
  case ND_BINARY: {
    Iv a = interval(node->lhs), b = interval(node->rhs);
    a.none = b.none = false;
    if (!iv_fits(a) || !iv_fits(b))
      return (Iv){I64MIN * 2, I64MAX * 2, false};
    switch (node->op) {
    case OP_ADD: return (Iv){a.lo + b.lo, a.hi + b.hi, false};
    case OP_SUB: return (Iv){a.lo - b.hi, a.hi - b.lo, false};
    case OP_MUL: {
      // Products of 64-bit bounds fit in 128 bits.
      __int128 p1 = a.lo * b.lo, p2 = a.lo * b.hi, p3 = a.hi * b.lo, p4 = a.hi * b.hi;
      return (Iv){min4(p1, p2, p3, p4), max4(p1, p2, p3, p4), false};
    }
    case OP_DIV: {
      __int128 m = max4(a.lo, -a.lo, a.hi, -a.hi);
      return (Iv){-m, m, false};
    }
    case OP_MOD: {
      __int128 m = max4(b.lo, -b.lo, b.hi, -b.hi);
      __int128 ma = max4(a.lo, -a.lo, a.hi, -a.hi);
      if (ma < m)
        m = ma + 1;
      return (Iv){a.lo >= 0 ? 0 : -(m - 1), a.hi <= 0 ? 0 : m - 1, false};
    }
    default: return iv_full();
    }
  }
  case ND_UNARY: {
    Iv a = interval(node->lhs);
    if (node->op == OP_BNOT) // ~x == -x - 1
      return (Iv){-a.hi - 1, -a.lo - 1, false};
    return (Iv){-a.hi, -a.lo, false};
  }
  case ND_IDENT:
    if (node->obj && node->obj->kind == OBJ_LOCAL && !node->obj->writable) {
      Iv v = interval(node->obj->node->rhs);
      for (int i = 0; i < nfacts; i++) {
        if (facts[i].obj != node->obj)
          continue;
        v.lo = v.lo > facts[i].iv.lo ? v.lo : facts[i].iv.lo;
        v.hi = v.hi < facts[i].iv.hi ? v.hi : facts[i].iv.hi;
      }
      return v;
    }
    return iv_full();
  case ND_QUANT: {
    int64_t n = domain_size(&node->binders);
    if (node->op == OP_COUNT)
      return (Iv){0, n, false};
    Iv b = interval(node->body);
    return (Iv){b.lo < 0 ? b.lo * n : 0, b.hi > 0 ? b.hi * n : 0, false};
  }
  case ND_METHOD: {
    Type *recv = R(node->lhs->ty);
    if (recv->kind == TY_SET)
      return (Iv){0, element_space(recv->base), false};
    return (Iv){0, recv->size, false};
  }
  default:
    return iv_full();
  }
}

// Adds the facts a condition gives while it holds (see Fact).
static void learn(Node *cond) {
  if (cond->kind != ND_BINARY)
    return;
  if (cond->op == OP_AND) {
    learn(cond->lhs);
    learn(cond->rhs);
    return;
  }
  if (cond->op != OP_LE && cond->op != OP_LT && cond->op != OP_GE && cond->op != OP_GT)
    return;
  // k OP x becomes x OP' k.
  Node *x = cond->lhs, *k = cond->rhs;
  Op op = cond->op;
  if (x->is_const) {
    Node *t = x;
    x = k;
    k = t;
    op = op == OP_LE ? OP_GE : op == OP_LT ? OP_GT : op == OP_GE ? OP_LE : OP_LT;
  }
  if (!k->is_const || x->kind != ND_IDENT || !x->obj || x->obj->kind != OBJ_LOCAL ||
      x->obj->writable)
    return;
  Iv iv = iv_full();
  if (op == OP_LE || op == OP_LT)
    iv.hi = (__int128)k->val - (op == OP_LT);
  else
    iv.lo = (__int128)k->val + (op == OP_GT);
  if (nfacts == facts_cap) {
    facts_cap = facts_cap ? 2 * facts_cap : 16;
    facts = xrealloc(facts, facts_cap * sizeof *facts);
  }
  facts[nfacts++] = (Fact){x->obj, iv};
}

static bool iv_within(Iv v, Type *ty) {
  Iv t = iv_of_type(ty);
  return v.lo >= t.lo && v.hi <= t.hi && (!v.none || t.none);
}

//
// Locations and values
//

// A bit location: base pointer expression, constant offset plus an
// optional dynamic part. A location inside a state variable reached only
// through indexes and fields also keeps the variable, the path and the
// positions, for its accessors.
typedef struct Loc {
  const char *base;
  int64_t k;
  char *dyn;
  Type *ty;
  Obj *var;       // state variable at the root, if the path is var[i].f[j]...
  const char *path; // "var[].f": the indexes and fields on the way
  Vec positions;  // encoded index positions (C expressions)
  bool pure;      // only indexes and fields since the variable
} Loc;

//
// Accessors: every scalar, record, array and collection inside a state
// variable is read and written through functions named after its path
// (var[i].f is get_var_f(s, i) and set_var_f(s, i, v); a queue var[i].q has
// q_len_var_q(s, i), q_push_var_q(s, i, e)...; off_var_f(i) is the bit
// offset of a composite). The path names are made unique once, when the
// accessors are written, before any code uses them.
//

// A string-to-string map (open addressing): path -> C name, and every
// accessor name already taken -> "".
typedef struct StrMap {
  const char **keys, **vals;
  uint64_t cap, len;
} StrMap;

static const char **strmap_slot(StrMap *m, const char *key) {
  for (uint64_t i = str_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1))
    if (!m->keys[i] || !strcmp(m->keys[i], key))
      return &m->keys[i];
}

static const char *strmap_get(StrMap *m, const char *key) {
  if (!m->cap)
    return NULL;
  const char **k = strmap_slot(m, key);
  return *k ? m->vals[k - m->keys] : NULL;
}

static void strmap_put(StrMap *m, const char *key, const char *val) {
  if (2 * (m->len + 1) > m->cap) {
    StrMap big = {.cap = m->cap ? 2 * m->cap : 64};
    big.keys = xcalloc(big.cap, sizeof *big.keys);
    big.vals = xcalloc(big.cap, sizeof *big.vals);
    for (uint64_t i = 0; i < m->cap; i++)
      if (m->keys[i])
        strmap_put(&big, m->keys[i], m->vals[i]);
    *m = big;
  }
  const char **k = strmap_slot(m, key);
  if (!*k)
    m->len++;
  *k = key;
  m->vals[k - m->keys] = val;
}

static StrMap accessor_names;

// The C name of a path's accessors (written by emit_accessors).
static const char *path_c(const char *path) {
  const char *name = strmap_get(&accessor_names, path);
  if (!name)
    die("no accessors for %s", path);
  return name;
}

// A whole array has no accessors of its own (its elements have).
static bool named(Loc *l) { return l->pure && l->var && R(l->ty)->kind != TY_ARRAY; }

// "(base, p1, p2" of an accessor call: the positions of a named location.
static char *accessor_args(Loc *l, const char *base) {
  Buf b = {0};
  buf_printf(&b, "(%s", base ? base : "");
  for (int i = 0; i < l->positions.len; i++)
    buf_printf(&b, "%s%s", base || i ? ", " : "", (char *)l->positions.data[i]);
  return b.data;
}

static char *off_str(Loc *l) {
  if (named(l))
    return format("off_%s%s)", path_c(l->path), accessor_args(l, NULL));
  if (!l->dyn)
    return format("%lld", (long long)l->k);
  if (l->k == 0)
    return l->dyn;
  return format("%lld + %s", (long long)l->k, l->dyn);
}

static Layout *lay;

static int64_t var_offset(Obj *var) {
  for (int i = 0; i < lay->vars.len; i++)
    if (lay->vars.data[i] == var)
      return lay->offsets[i];
  unreachable();
}

static void gen_composite_into(Node *node, Loc *dst);
static void default_bits(Type *ty, uint8_t *buf, int64_t off);
static Decl *cur_fn; // the fn being written (for `return`)
static bool none_undefined; // Program.none_undefined: reading none is an error
                            // wherever it is not compared with the literal none
static const char *symmetry_refused; // Program.symmetry_refused: why the checker
                                     // runs without symmetry reduction, or NULL
static char *gen_value(Node *node);   // scalar: the logical value
static char *gen_plain(Node *node);   // scalar, never none (checked)
static Loc gen_loc(Node *node);       // composite or lvalue: its location
static void gen_stmt(Node *node);
static void gen_block(Node *node);

// Reads the scalar at a location.
static char *read_loc(Loc *l) {
  if (named(l))
    return format("get_%s%s)", path_c(l->path), accessor_args(l, l->base));
  int64_t w = W(l->ty);
  return decode(l->ty, format("%s(%s, %s, %lld)", get_fn(w), l->base, off_str(l), (long long)w));
}

// Writes the (range-checked) logical value v to a scalar location.
static void write_loc(Loc *l, const char *v) {
  if (named(l)) {
    line("set_%s%s, %s);", path_c(l->path), accessor_args(l, l->base), v);
    return;
  }
  int64_t w = W(l->ty);
  line("%s(%s, %s, %lld, %s);", set_fn(w), l->base, off_str(l), (long long)w, encode(l->ty, v));
}

// Copies a composite value between locations.
static void copy_loc(Loc *dst, Loc *src_) {
  line("mcrt_copy_bits(%s, %s, %s, %s, %lld);", dst->base, off_str(dst), src_->base,
       off_str(src_), (long long)W(dst->ty));
}

// A fresh zeroed buffer for a composite value.
static Loc temp_buffer(Type *ty) {
  char *t = temp_name();
  line("uint8_t %s[%lld] = {0};", t, (long long)buf_bytes(ty));
  return (Loc){.base = t, .ty = ty};
}

// The run-time error of a `none` read where a value of `ty` is needed.
static char *none_read_message(Type *ty) {
  if (none_undefined)
    return c_str(format("read of an undefined value (%s)", type_name(ty)));
  return c_str(format("none used as a value of %s", type_name(ty)));
}

// Checks that a value fits the type it is stored as; returns the checked
// value (a temporary when a check was needed).
static char *convert(Node *at, Type *dst, Node *srcn, const char *v) {
  Type *d = R(dst);
  Iv iv = interval(srcn);
  if (R(srcn->ty)->kind == TY_NONE)
    return "MCRT_NONE";
  if (iv_within(iv, dst))
    return (char *)v;
  char *t = temp("int64_t", v);
  // Where none is undefined, `c ? none : x` copies an undefined value on
  // purpose (a Murphi value parameter); any other none read is an error.
  bool copies_none = srcn->kind == ND_COND &&
                     (srcn->then->kind == ND_NONE || srcn->els->kind == ND_NONE);
  if ((d->kind != TY_OPTIONAL || (none_undefined && !copies_none)) && iv.none)
    fail_if(at, format("%s == MCRT_NONE", t),
            none_read_message(d->kind == TY_OPTIONAL ? R(d->base) : d));
  Type *base = d->kind == TY_OPTIONAL ? R(d->base) : d;
  if (base->kind == TY_RANGE) {
    Iv plain = iv;
    plain.none = false;
    if (!iv_within(plain, base)) {
      // A plain INT64_MIN is no none: it is out of every optional's range.
      const char *guard = d->kind == TY_OPTIONAL && iv.none ? format("%s != MCRT_NONE && ", t) : "";
      fail_if(at, format("%s(%s < %s || %s > %s)", guard, t, c_int(base->lo), t,
                         c_int(base->hi)),
              format("%s, (long long)%s",
                     c_str(format("value %%lld is out of range %lld..%lld", (long long)base->lo,
                                  (long long)base->hi)),
                     t));
    }
  }
  return t;
}

// The encoded position of index value v in an array indexed by `index`.
static char *index_pos(Node *at, Type *index, Node *idx) {
  Type *it = R(index);
  char *v = gen_plain(idx);
  Iv iv = interval(idx);
  iv.none = false;
  if (it->kind == TY_RANGE && !iv_within(iv, it)) {
    char *t = temp("int64_t", v);
    fail_if(at, format("%s < %s || %s > %s", t, c_int(it->lo), t, c_int(it->hi)),
            format("%s, (long long)%s",
                   c_str(format("index %%lld is out of range %lld..%lld", (long long)it->lo,
                                (long long)it->hi)),
                   t));
    v = t;
  }
  if (it->kind == TY_RANGE && it->lo != 0)
    return format("(%s - %s)", operand(v, PREC_ADD), c_int(it->lo));
  return v;
}

static char *local_c(Obj *obj) {
  return format("%s_%s", obj->kind == OBJ_PARAM ? "p" : "l", obj->name);
}

static Loc gen_loc(Node *node) {
  switch (node->kind) {
  case ND_IDENT: {
    Obj *obj = node->obj;
    if (obj->kind == OBJ_VAR) {
      Loc l = {.base = g.state, .k = var_offset(obj), .ty = obj->type, .var = obj,
               .path = obj->name, .pure = true};
      return l;
    }
    if (obj->kind == OBJ_LOCAL || obj->kind == OBJ_PARAM)
      return (Loc){.base = local_c(obj), .ty = obj->type};
    break;
  }
  case ND_INDEX: {
    Loc l = gen_loc(node->lhs);
    Type *arr = R(l.ty);
    char *pos = index_pos(node->rhs, arr->index, node->rhs);
    int64_t ew = W(arr->base);
    char *p = operand(pos, PREC_UNARY);
    char *term = ew == 1 ? format("(uint64_t)%s", p) : format("%lld * (uint64_t)%s", (long long)ew, p);
    l.dyn = l.dyn ? format("%s + %s", l.dyn, term) : term;
    l.ty = arr->base;
    if (l.pure) {
      vec_push(&l.positions, pos);
      l.path = format("%s[]", l.path);
    }
    return l;
  }
  case ND_FIELD: {
    Loc l = gen_loc(node->lhs);
    l.k += node->field->offset;
    l.ty = node->field->type;
    if (l.pure)
      l.path = format("%s.%s", l.path, token_text(node->field->name));
    return l;
  }
  default:
    break;
  }
  // Any other composite expression is computed into a temporary.
  if (is_composite(node->ty)) {
    Loc t = temp_buffer(node->ty);
    gen_composite_into(node, &t);
    return t;
  }
  die("no location for node kind %d", node->kind);
}

// Element encoding of a value stored into a collection (checked).
static char *elem_encode(Node *at, Type *elem, Node *arg) {
  if (is_composite(elem)) {
    Loc l = gen_loc(arg);
    return format("%s(%s, %s, %lld)", get_fn(W(elem)), l.base, off_str(&l), (long long)W(elem));
  }
  char *v = convert(at, elem, arg, gen_value(arg));
  return encode(elem, v);
}

// Element encoding for a query (`in`, count, remove): a value outside the
// element type is simply absent, so it maps to an impossible encoding.
static char *elem_query(Type *elem, Node *arg) {
  if (is_composite(elem)) {
    Loc l = gen_loc(arg);
    return format("%s(%s, %s, %lld)", get_fn(W(elem)), l.base, off_str(&l), (long long)W(elem));
  }
  char *v = gen_value(arg);
  Iv iv = interval(arg);
  if (iv_within(iv, elem))
    return encode(elem, v);
  char *t = temp("int64_t", v);
  Type *e = R(elem);
  Type *base = e->kind == TY_OPTIONAL ? R(e->base) : e;
  if (base->kind != TY_RANGE)
    return encode(elem, t);
  const char *none_ok = e->kind == TY_OPTIONAL && iv.none ? format("%s == MCRT_NONE || ", t) : "";
  return format("(%s(%s >= %s && %s <= %s) ? %s : UINT64_MAX)", none_ok, t, c_int(base->lo), t,
                c_int(base->hi), encode(elem, t));
}

// Arguments shared by the collection helpers: base, offset and shape.
static char *coll_args(Loc *l) {
  Type *ty = R(l->ty);
  Type *elem = R(ty->base);
  switch (ty->kind) {
  case TY_SET:
    return format("%s, %s, %lld", l->base, off_str(l), (long long)element_space(elem));
  case TY_MULTISET:
    return format("%s, %s, %lld, %lld", l->base, off_str(l), (long long)ty->size,
                  (long long)W(elem) + 1);
  case TY_QUEUE:
    return format("%s, %s, %lld, %lld, %lld", l->base, off_str(l),
                  (long long)(W(ty) - ty->size * W(elem)), (long long)ty->size, (long long)W(elem));
  default:
    unreachable();
  }
}

static const char *coll_prefix(Type *ty) {
  switch (R(ty)->kind) {
  case TY_SET: return "set";
  case TY_MULTISET: return "ms";
  case TY_QUEUE: return "q";
  default: unreachable();
  }
}

// A call of collection operation `op` (has, len, push...) on the collection
// at l, with `extra` (", e" or "") after its location: its accessor for a
// named location, else the runtime's helper.
static char *coll_call(Loc *l, const char *op, const char *extra) {
  if (named(l))
    return format("%s_%s_%s%s%s)", coll_prefix(l->ty), op, path_c(l->path),
                  accessor_args(l, l->base), extra);
  return format("mcrt_%s_%s(%s%s)", coll_prefix(l->ty), op, coll_args(l), extra);
}

// The operations of each kind of collection, as the runtime names them.
typedef struct CollOp {
  TypeKind kind;
  const char *op, *ret;
  bool writes;
  const char *param; // the operation's own parameter, if any
} CollOp;

// The name of an operation's parameter ("e" of "uint64_t *e").
static const char *param_name(const char *param) {
  const char *p = param + strlen(param);
  while (p > param && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))
    p--;
  return p;
}

static const CollOp coll_ops[] = {
    {TY_SET, "has", "bool", false, "uint64_t e"},     {TY_SET, "add", "void", true, "uint64_t e"},
    {TY_SET, "remove", "void", true, "uint64_t e"},   {TY_SET, "len", "uint64_t", false, NULL},
    {TY_SET, "count", "uint64_t", false, "uint64_t e"},
    {TY_MULTISET, "slot", "uint64_t", false, "uint64_t i"},
    {TY_MULTISET, "len", "uint64_t", false, NULL},
    {TY_MULTISET, "first", "bool", false, "uint64_t i"},
    {TY_MULTISET, "count", "uint64_t", false, "uint64_t e"},
    {TY_MULTISET, "has", "bool", false, "uint64_t e"},
    {TY_MULTISET, "add", "bool", true, "uint64_t e"},
    {TY_MULTISET, "remove", "void", true, "uint64_t e"},
    {TY_QUEUE, "len", "uint64_t", false, NULL},       {TY_QUEUE, "at", "uint64_t", false, "uint64_t i"},
    {TY_QUEUE, "count", "uint64_t", false, "uint64_t e"},
    {TY_QUEUE, "has", "bool", false, "uint64_t e"},   {TY_QUEUE, "push", "bool", true, "uint64_t e"},
    {TY_QUEUE, "head", "bool", false, "uint64_t *e"}, {TY_QUEUE, "pop", "bool", true, "uint64_t *e"},
};

// The accessor names a path of type ty gets, given its C name.
static Vec accessor_fns(Type *ty, const char *name) {
  Vec v = {0};
  ty = R(ty);
  if (!is_composite(ty)) {
    vec_push(&v, format("get_%s", name));
    vec_push(&v, format("set_%s", name));
    return v;
  }
  vec_push(&v, format("off_%s", name));
  for (size_t i = 0; i < sizeof coll_ops / sizeof *coll_ops; i++)
    if (coll_ops[i].kind == ty->kind)
      vec_push(&v, format("%s_%s_%s", coll_prefix(ty), coll_ops[i].op, name));
  return v;
}

// Writes the accessors of the path `path` (C name chosen here) of type ty
// at bit offset `off` (an expression of the positions i0, i1...), then
// those of every path inside it.
static void emit_accessors_of(Buf *out, Type *ty, const char *path, const char *off,
                              const char *params, int nparams) {
  ty = R(ty);
  const char *ps = params ? params : "";
  if (ty->kind == TY_ARRAY) {
    int64_t ew = W(ty->base);
    emit_accessors_of(out, ty->base, format("%s[]", path),
                      format("%s + %lld * (uint64_t)i%d", off, (long long)ew, nparams),
                      format("%s, int64_t i%d", ps, nparams), nparams + 1);
    return;
  }
  // The path without "[]" and with '_' for '.', made unique against every
  // accessor so far.
  char *name = xcalloc(strlen(path) + 1, 1), *c = name;
  for (const char *p = path; *p; p++)
    if (*p == '.')
      *c++ = '_';
    else if (*p != '[' && *p != ']')
      *c++ = *p;
  for (int n = 2;; n++) {
    Vec fns = accessor_fns(ty, name);
    bool taken = false;
    for (int i = 0; i < fns.len; i++)
      taken |= strmap_get(&accessor_names, fns.data[i]) != NULL;
    if (!taken) {
      for (int i = 0; i < fns.len; i++)
        strmap_put(&accessor_names, fns.data[i], "");
      break;
    }
    name = format("%s_%d", name, n);
  }
  strmap_put(&accessor_names, path, name);
  if (!is_composite(ty)) {
    int64_t w = W(ty);
    buf_printf(out, "MC_ACCESSOR int64_t get_%s(const uint8_t *s%s) {\n  return %s;\n}\n", name,
               ps, decode(ty, format("%s(s, %s, %lld)", get_fn(w), off, (long long)w)));
    buf_printf(out, "MC_ACCESSOR void set_%s(uint8_t *s%s, int64_t v) {\n  %s(s, %s, %lld, %s);\n}\n",
               name, ps, set_fn(w), off, (long long)w, encode(ty, "v"));
    return;
  }
  buf_printf(out, "MC_ACCESSOR uint64_t off_%s(%s) {\n  return %s;\n}\n", name,
             params ? params + 2 : "void", off);
  // The positions as arguments: ", i0, i1".
  Buf args = {0};
  for (int i = 0; i < nparams; i++)
    buf_printf(&args, ", i%d", i);
  char *at = format("off_%s(%s)", name, args.data ? args.data + 2 : "");
  switch (ty->kind) {
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++) {
      Field *f = ty->fields[i];
      emit_accessors_of(out, f->type, format("%s.%s", path, token_text(f->name)),
                        f->offset ? format("%s + %lld", off, (long long)f->offset) : off, params,
                        nparams);
    }
    return;
  default: {
    Loc l = {.base = "s", .k = 0, .dyn = at, .ty = ty};
    for (size_t i = 0; i < sizeof coll_ops / sizeof *coll_ops; i++) {
      const CollOp *op = &coll_ops[i];
      if (op->kind != ty->kind)
        continue;
      const char *arg = op->param ? param_name(op->param) : NULL;
      buf_printf(out, "MC_ACCESSOR %s %s_%s_%s(%suint8_t *s%s%s%s) {\n  %s%s;\n}\n", op->ret,
                 coll_prefix(ty), op->op, name, op->writes ? "" : "const ", ps,
                 op->param ? ", " : "", op->param ? op->param : "",
                 strcmp(op->ret, "void") ? "return " : "",
                 coll_call(&l, op->op, arg ? format(", %s", arg) : ""));
    }
    return;
  }
  }
}

// The value of an element whose encoding is `enc`: a scalar's logical value,
// or (for composite elements) a buffer holding it.
static Loc elem_value(Type *elem, const char *enc, char **scalar) {
  if (is_composite(elem)) {
    Loc t = temp_buffer(elem);
    line("%s(%s, 0, %lld, %s);", set_fn(W(elem)), t.base, (long long)W(elem), enc);
    *scalar = NULL;
    return t;
  }
  *scalar = decode(elem, enc);
  return (Loc){0};
}

// Method calls with a value (len, head, pop, empty, full, count).
static char *gen_method_value(Node *node, Loc *composite_out) {
  const char *name = token_text(node->name);
  Loc l = gen_loc(node->lhs);
  Type *ty = R(l.ty), *elem = R(ty->base);
  if (!strcmp(name, "len"))
    return format("(int64_t)%s", coll_call(&l, "len", ""));
  if (!strcmp(name, "empty"))
    return format("(%s == 0)", coll_call(&l, "len", ""));
  if (!strcmp(name, "full"))
    return format("(%s == %lld)", coll_call(&l, "len", ""), (long long)ty->size);
  if (!strcmp(name, "count"))
    return format("(int64_t)%s",
                  coll_call(&l, "count", format(", %s", elem_query(elem, node->args.data[0]))));
  if (!strcmp(name, "head") || !strcmp(name, "pop")) {
    char *e = temp_name();
    line("uint64_t %s = 0;", e);
    bool pop = !strcmp(name, "pop");
    fail_if(node, format("!%s", coll_call(&l, pop ? "pop" : "head", format(", &%s", e))),
            c_str(pop ? "pop() of an empty queue" : "head() of an empty queue"));
    char *scalar;
    Loc v = elem_value(elem, e, &scalar);
    if (composite_out)
      *composite_out = v;
    return scalar;
  }
  unreachable();
}

// Quantifier and loop domains: opens loops binding each binder, in
// ascending order; returns how many blocks to close. `stop` (may be NULL) is
// a condition that ends the loops early. A collection iterated by a `for`
// statement is copied first, so the body may change it.
static int open_binder(Binder *b, const char *stop, bool snapshot) {
  Obj *obj = b->obj;
  char *v = local_c(obj);
  const char *cont = stop ? format("%s && ", stop) : "";
  if (!b->in_expr) {
    Type *ty = R(b->type);
    int64_t lo = ty->kind == TY_RANGE ? ty->lo : 0;
    int64_t hi = ty->kind == TY_RANGE ? ty->hi : card_of(ty) - 1;
    if (hi == INT64_MAX) {
      // v <= INT64_MAX always holds and v++ would overflow: count instead.
      char *k = temp_name();
      line("for (uint64_t %s = 0; %s%s <= (uint64_t)INT64_MAX - (uint64_t)%s; %s++) {", k, cont, k,
           c_int(lo), k);
      line("  int64_t %s = (int64_t)((uint64_t)%s + %s);", v, c_int(lo), k);
    } else {
      line("for (int64_t %s = %s; %s%s <= %lld; %s++) {", v, c_int(lo), cont, v, (long long)hi, v);
    }
    g.indent++;
    return 1;
  }
  Loc l = gen_loc(b->in_expr);
  Type *cty = R(l.ty), *elem = R(cty->base);
  if (snapshot) {
    Loc copy = temp_buffer(cty);
    copy_loc(&copy, &l);
    l = copy;
  }
  char *it = temp_name(), *enc = temp_name();
  char *at_it = format(", %s", it);
  switch (cty->kind) {
  case TY_SET:
    line("for (uint64_t %s = 0; %s%s < %lld; %s++) {", it, cont, it,
         (long long)element_space(elem), it);
    g.indent++;
    line("if (!%s)", coll_call(&l, "has", at_it));
    line("  continue;");
    line("uint64_t %s = %s;", enc, it);
    break;
  case TY_MULTISET:
    line("for (uint64_t %s = 0; %s%s < %s; %s++) {", it, cont, it, coll_call(&l, "len", ""), it);
    g.indent++;
    line("if (!%s)", coll_call(&l, "first", at_it));
    line("  continue;");
    line("uint64_t %s = %s - 1;", enc, coll_call(&l, "slot", at_it));
    break;
  case TY_QUEUE:
    line("for (uint64_t %s = 0; %s%s < %s; %s++) {", it, cont, it, coll_call(&l, "len", ""), it);
    g.indent++;
    line("uint64_t %s = %s;", enc, coll_call(&l, "at", at_it));
    break;
  default:
    unreachable();
  }
  if (is_composite(elem)) {
    line("uint8_t %s[%lld] = {0};", v, (long long)buf_bytes(elem));
    line("%s(%s, 0, %lld, %s);", set_fn(W(elem)), v, (long long)W(elem), enc);
  } else {
    line("int64_t %s = %s;", v, decode(elem, enc));
  }
  line("(void)%s;", v);
  return 1;
}

static void close_blocks(int n) {
  while (n-- > 0) {
    g.indent--;
    line("}");
  }
}

static char *type_desc(Type *ty);

// Whether each binder of an invariant's chain of `forall`s (forall p ::
// forall q :: ...) ranges over a type, whose values the runtime can print
// from their encodings (a binder `x in EXPR` has none of its own): then the
// chain's first forall, else NULL.
static Node *witness_chain(Node *expr) {
  for (Node *n = expr; n && n->kind == ND_QUANT && n->op == OP_FORALL; n = n->body)
    for (int i = 0; i < n->binders.len; i++)
      if (((Binder *)n->binders.data[i])->in_expr)
        return NULL;
  return expr && expr->kind == ND_QUANT && expr->op == OP_FORALL ? expr : NULL;
}

// Inside a witnessed forall's loops, right after its body was found false:
// the binding, one mcrt_witness per binder, as encodings of its type.
static void record_witness(Node *node, const char *acc, int first) {
  line("if (!%s) {", acc);
  for (int i = 0; i < node->binders.len; i++) {
    Binder *b = node->binders.data[i];
    Type *ty = R(b->type);
    line("  mcrt_witness(ctx, %d, %s, &%s, (uint64_t)%s - (uint64_t)%s);", first + i,
         c_str(token_text(b->name)), type_desc(ty), local_c(b->obj),
         c_int(ty->kind == TY_RANGE ? ty->lo : 0));
  }
  line("}");
}

static char *gen_quant(Node *node) {
  char *acc = temp_name();
  const char *stop = NULL;
  bool witness = node == g.witness;
  int first = g.witness_index;
  if (witness) { // the next forall of the chain, if the body is one
    g.witness = node->body->kind == ND_QUANT && node->body->op == OP_FORALL ? node->body : NULL;
    g.witness_index += node->binders.len;
  }
  switch (node->op) {
  case OP_FORALL:
    line("bool %s = true;", acc);
    stop = acc;
    break;
  case OP_EXISTS:
    line("bool %s = false;", acc);
    stop = format("!%s", acc);
    break;
  default:
    line("int64_t %s = 0;", acc);
    break;
  }
  int open = 0;
  for (int i = 0; i < node->binders.len; i++)
    open += open_binder(node->binders.data[i], stop, false);
  switch (node->op) {
  case OP_FORALL:
    line("%s = %s;", acc, gen_plain(node->body));
    if (witness)
      record_witness(node, acc, first);
    break;
  case OP_EXISTS:
    line("%s = %s;", acc, gen_plain(node->body));
    break;
  case OP_COUNT:
    line("%s += %s;", acc, gen_plain(node->body));
    break;
  case OP_SUM: {
    char *v = gen_plain(node->body);
    Iv iv = interval(node);
    if (iv_fits(iv)) {
      line("%s += %s;", acc, v);
    } else {
      fail_if(node, format("__builtin_add_overflow(%s, %s, &%s)", acc, v, acc),
              c_str("integer overflow in sum"));
    }
    break;
  }
  default:
    unreachable();
  }
  close_blocks(open);
  return acc;
}

// Evaluates `node` into a fresh buffer when the code for it has statements,
// else returns the expression; used for short-circuit operators and the
// branches of `?:`. `plain`: a `none` there is an error (see gen_plain).
static char *gen_lazy(Node *node, Buf **pre, bool plain) {
  Buf *saved = g.out;
  Buf *b = xcalloc(1, sizeof *b);
  g.out = b;
  g.indent++;
  g.last_line = -1;
  char *v = plain ? gen_plain(node) : gen_value(node);
  if (!plain && !interval(node).none && interval(node).lo <= I64MIN) {
    // A branch of an optional `?:` whose plain value could pass for none.
    v = temp("int64_t", v);
    fail_if(node, format("%s == INT64_MIN", v),
            c_str("value -9223372036854775808 cannot stand for a value of an optional"));
  }
  g.indent--;
  g.out = saved;
  g.last_line = -1; // the caller may splice b in here
  *pre = b->len ? b : NULL;
  return v;
}

static bool is_bitwise(Node *node) {
  return node->kind == ND_BINARY &&
         (node->op == OP_BAND || node->op == OP_BOR || node->op == OP_BXOR);
}

// A comparison of scalars `a OP b`. The C compiler warns on one whose
// result it can tell from the text (`q != q`, `(x | 1) != 0`), which a spec
// may well contain: a temporary for an operand hides the text.
static char *gen_compare(Node *node, int prec, const char *cop, char *a, char *b) {
  if (is_bitwise(node->rhs))
    b = temp("int64_t", b);
  else if (is_bitwise(node->lhs) || !strcmp(a, b))
    a = temp("int64_t", a);
  // A comparison of comparisons (`b == c == d`, a left-associative chain)
  // needs parentheses in C (-Wparentheses); a temporary keeps a long chain
  // flat, as clang refuses more than 256 nested brackets.
  int pa = prec_of(a);
  if (pa == PREC_EQ || pa == PREC_REL)
    a = temp("bool", a);
  return binary_c(prec, a, cop, b);
}

static char *gen_binary(Node *node) {
  Op op = node->op;
  if (op == OP_AND || op == OP_OR || op == OP_IMPLIES) {
    char *a = gen_plain(node->lhs);
    Buf *pre;
    char *b = gen_lazy(node->rhs, &pre, true);
    const char *la = op == OP_IMPLIES ? unary_c("!", a) : a;
    // A chain `a -> b -> c` is `!a || (!b || c)`: || associates, so the
    // right operand stays unparenthesized and a long chain stays flat in C
    // (clang refuses more than 256 nested parentheses).
    if (!pre && op == OP_IMPLIES && prec_of(b) == PREC_OR)
      return with_prec(format("%s || %s", operand(la, PREC_AND + 1), b), PREC_OR);
    if (!pre)
      return binary_c(op_info[op].c_prec, la, op_info[op].c_op, b);
    char *t = temp("bool", la);
    line(op == OP_AND ? "if (%s) {" : "if (!%s) {", t);
    buf_puts(g.out, pre->data);
    line("  %s = %s;", t, b);
    line("}");
    return t;
  }
  if (op == OP_EQ || op == OP_NE) {
    if (is_composite(node->lhs->ty)) {
      Loc a = gen_loc(node->lhs), b = gen_loc(node->rhs);
      char *eq = format("mcrt_equal_bits(%s, %s, %s, %s, %lld)", a.base, off_str(&a), b.base,
                        off_str(&b), (long long)W(node->lhs->ty));
      return op == OP_NE ? unary_c("!", eq) : eq;
    }
    // A T? compares with a T without a check: none equals no value. None is
    // INT64_MIN, which no T? holds, but a plain value may. Where none is
    // undefined, only a comparison with the literal none reads it.
    bool plain = none_undefined && R(node->lhs->ty)->kind != TY_NONE &&
                 R(node->rhs->ty)->kind != TY_NONE;
    char *a = plain ? gen_plain(node->lhs) : gen_value(node->lhs);
    char *b = plain ? gen_plain(node->rhs) : gen_value(node->rhs);
    Iv ia = interval(node->lhs), ib = interval(node->rhs);
    if (ia.none != ib.none && (ia.none ? ib : ia).lo <= I64MIN) {
      char *o = temp("int64_t", ia.none ? a : b), *p = temp("int64_t", ia.none ? b : a);
      if (op == OP_EQ)
        return format("(%s == %s && %s != MCRT_NONE)", o, p, o);
      return format("(%s != %s || %s == MCRT_NONE)", o, p, o);
    }
    return gen_compare(node, op_info[op].c_prec, op_info[op].c_op, a, b);
  }
  if (op == OP_IFF)
    return binary_c(PREC_EQ, unary_c("!", gen_plain(node->lhs)), "==",
                    unary_c("!", gen_plain(node->rhs)));
  if (op == OP_IN) {
    Loc l = gen_loc(node->rhs);
    Type *cty = R(l.ty);
    char *e = elem_query(cty->base, node->lhs);
    return coll_call(&l, "has", format(", %s", e));
  }
  char *a = gen_plain(node->lhs), *b = gen_plain(node->rhs);
  if (op == OP_BAND || op == OP_BOR || op == OP_BXOR)
    return binary_c(op_info[op].c_prec, a, op_info[op].c_op, b);
  if (op_info[op].c_fn) // << >>: out-of-range shift counts give 0, never undefined behaviour
    return format("%s(%s, %s)", op_info[op].c_fn, a, b);
  const char *cop = op_info[op].c_op;
  if (op_info[op].cls == OPC_ORDER)
    return gen_compare(node, op_info[op].c_prec, cop, a, b);
  Iv ivb = interval(node->rhs);
  if (op == OP_DIV || op == OP_MOD) {
    if (ivb.lo <= 0 && ivb.hi >= 0) {
      b = temp("int64_t", b);
      fail_if(node, format("%s == 0", b), c_str(op == OP_DIV ? "division by zero" : "remainder by zero"));
    }
    Iv iva = interval(node->lhs);
    if (iva.lo <= I64MIN && ivb.lo <= -1 && ivb.hi >= -1) {
      // INT64_MIN / -1 overflows; INT64_MIN % -1 is 0, but undefined in C.
      if (op == OP_MOD) {
        b = temp("int64_t", b);
        return format("(%s == -1 ? 0 : %s %% %s)", b, a, b);
      }
      a = temp("int64_t", a);
      fail_if(node, format("%s == INT64_MIN && %s == -1", a, b), c_str("integer overflow"));
    }
    return binary_c(op_info[op].c_prec, a, cop, b);
  }
  if (iv_fits(interval(node)))
    return binary_c(op_info[op].c_prec, a, cop, b);
  char *t = temp_name();
  line("int64_t %s;", t);
  fail_if(node, format("__builtin_%s_overflow(%s, %s, &%s)", op_info[op].overflow, a, b, t),
          c_str("integer overflow"));
  return t;
}

// Calls a fn; returns the C call expression (for scalars), after emitting a
// failure check when the fn can fail. Composite results go to `dst`.
static bool *fn_can_fail;

static char *gen_call(Node *node, Loc *dst) {
  Decl *fn = node->obj->decl;
  Buf b = {0};
  buf_printf(&b, "f_%s(ctx, %s", token_text(fn->name), g.state);
  if (dst)
    buf_printf(&b, ", %s", dst->base);
  for (int i = 0; i < node->args.len; i++) {
    Node *arg = node->args.data[i];
    Binder *param = fn->params.data[i];
    if (is_composite(param->type)) {
      Loc l = gen_loc(arg);
      if (l.dyn || l.k % 8) {
        Loc t = temp_buffer(param->type);
        copy_loc(&t, &l);
        l = t;
      }
      buf_printf(&b, ", %s + %lld", l.base, (long long)(l.k / 8));
    } else {
      buf_printf(&b, ", %s", convert(arg, param->type, arg, gen_value(arg)));
    }
  }
  buf_puts(&b, ")");
  if (dst) {
    line("%s;", b.data);
    if (fn_can_fail[fn->index]) {
      line("if (mcrt_failed(ctx))");
      line("  %s", g.fail);
      g.can_fail = true;
    }
    return NULL;
  }
  if (!fn_can_fail[fn->index])
    return b.data;
  char *t = temp("int64_t", b.data);
  line("if (mcrt_failed(ctx))");
  line("  %s", g.fail);
  g.can_fail = true;
  return t;
}

// Writes a composite value computed by an expression into `dst`.
static void gen_composite_into(Node *node, Loc *dst) {
  switch (node->kind) {
  case ND_RECORD_LIT: {
    Type *rec = R(node->ty);
    for (int i = 0; i < rec->nfields; i++) {
      Field *f = rec->fields[i];
      Node *arg = NULL;
      for (int j = 0; j < node->fnames.len; j++)
        if (equal(node->fnames.data[j], token_text(f->name)))
          arg = node->args.data[j];
      Loc fl = *dst;
      fl.k += f->offset;
      fl.ty = f->type;
      fl.pure = false;
      if (is_composite(f->type)) {
        Loc sl = gen_loc(arg);
        copy_loc(&fl, &sl);
      } else {
        write_loc(&fl, convert(arg, f->type, arg, gen_value(arg)));
      }
    }
    return;
  }
  case ND_CALL:
    gen_call(node, dst);
    return;
  case ND_METHOD: {
    Loc v;
    gen_method_value(node, &v);
    copy_loc(dst, &v);
    return;
  }
  case ND_COND: {
    char *c = gen_plain(node->cond);
    line("if (%s) {", cond_c(c));
    g.indent++;
    Loc a = gen_loc(node->then);
    copy_loc(dst, &a);
    g.indent--;
    line("} else {");
    g.indent++;
    Loc b = gen_loc(node->els);
    copy_loc(dst, &b);
    g.indent--;
    line("}");
    return;
  }
  default: {
    Loc l = gen_loc(node);
    copy_loc(dst, &l);
    return;
  }
  }
}

// The logical value of a scalar expression (may be MCRT_NONE for a T?).
static char *gen_value(Node *node) {
  if (node->kind == ND_IDENT && node->obj->kind == OBJ_ENUM_MEMBER)
    return format("e_%s", node->obj->name);
  if (node->is_const)
    return c_int(node->val);
  switch (node->kind) {
  case ND_NONE:
    return "MCRT_NONE";
  case ND_IDENT: {
    Obj *obj = node->obj;
    if (obj->kind == OBJ_VAR) {
      Loc l = gen_loc(node);
      return read_loc(&l);
    }
    return local_c(obj);
  }
  case ND_INDEX:
  case ND_FIELD: {
    Loc l = gen_loc(node);
    return read_loc(&l);
  }
  case ND_BINARY:
    return gen_binary(node);
  case ND_UNARY:
    if (node->op == OP_NOT)
      return unary_c("!", gen_plain(node->lhs));
    if (node->op == OP_BNOT)
      return unary_c("~", gen_plain(node->lhs));
    if (interval(node->lhs).lo <= I64MIN) {
      char *t = temp("int64_t", gen_plain(node->lhs));
      fail_if(node, format("%s == INT64_MIN", t), c_str("integer overflow"));
      return unary_c("-", t);
    }
    return unary_c("-", gen_plain(node->lhs));
  case ND_COND: {
    char *c = gen_plain(node->cond);
    Buf *pa, *pb;
    // An optional result may be none: the branches are not checked here, the
    // use of the result is.
    bool plain = R(node->ty)->kind != TY_OPTIONAL;
    char *a = gen_lazy(node->then, &pa, plain), *b = gen_lazy(node->els, &pb, plain);
    if (!pa && !pb)
      return with_prec(format("%s ? %s : %s", operand(c, PREC_OR), operand(a, PREC_OR),
                              operand(b, PREC_COND)),
                       PREC_COND);
    char *t = temp_name();
    line("int64_t %s;", t);
    line("if (%s) {", cond_c(c));
    if (pa)
      buf_puts(g.out, pa->data);
    line("  %s = %s;", t, a);
    line("} else {");
    if (pb)
      buf_puts(g.out, pb->data);
    line("  %s = %s;", t, b);
    line("}");
    return t;
  }
  case ND_CALL:
    return gen_call(node, NULL);
  case ND_METHOD:
    return gen_method_value(node, NULL);
  case ND_QUANT:
    return gen_quant(node);
  default:
    die("gen_value: node kind %d", node->kind);
  }
}

// A scalar that must be a plain value: a T? holding none is an error here.
static char *gen_plain(Node *node) {
  char *v = gen_value(node);
  if (!interval(node).none || R(node->ty)->kind == TY_NONE)
    return v;
  char *t = temp("int64_t", v);
  fail_if(node, format("%s == MCRT_NONE", t), none_read_message(R(R(node->ty)->base)));
  return t;
}

//
// Statements
//

// A local variable declared without a value: its type's default, the
// encoding default_bits() gives a state variable.
static void gen_default_local(Obj *obj) {
  Type *ty = obj->type;
  if (!is_composite(ty)) {
    Type *r = R(ty);
    int64_t v = r->kind == TY_RANGE && (r->lo > 0 || r->hi < 0) ? r->lo : 0;
    line("int64_t %s = %s;", local_c(obj), r->kind == TY_OPTIONAL ? "MCRT_NONE" : c_int(v));
    line("(void)%s;", local_c(obj));
    return;
  }
  int64_t n = buf_bytes(ty);
  uint8_t *bits = xcalloc((size_t)n, 1);
  default_bits(ty, bits, 0);
  Buf init = {0};
  for (int64_t i = 0; i < n; i++)
    buf_printf(&init, "%s%u", i ? ", " : "", bits[i]);
  line("uint8_t %s[%lld] = {%s};", local_c(obj), (long long)n, init.data);
}

// Assignment: the right side is computed first (its checks come first), then
// the target's location; indexes never write, so neither can disturb the
// other. A composite is copied bit for bit (equal types encode alike).
static void gen_assign(Node *node) {
  Node *lhs = node->lhs, *rhs = node->rhs;
  if (is_composite(lhs->ty)) {
    Loc s = gen_loc(rhs);
    Loc d = gen_loc(lhs);
    copy_loc(&d, &s);
    return;
  }
  char *v = convert(node, lhs->ty, rhs, gen_value(rhs));
  if (lhs->kind == ND_IDENT && lhs->obj->kind == OBJ_LOCAL) {
    line("%s = %s;", local_c(lhs->obj), v);
    return;
  }
  Loc d = gen_loc(lhs);
  write_loc(&d, v);
}

static void gen_update(Node *node) {
  const char *name = token_text(node->name);
  Loc l = gen_loc(node->lhs);
  Type *ty = R(l.ty), *elem = R(ty->base);
  if (!strcmp(name, "clear")) {
    line("mcrt_clear(%s, %s, %lld);", l.base, off_str(&l), (long long)W(ty));
  } else if (!strcmp(name, "pop")) {
    char *e = temp_name();
    line("uint64_t %s = 0;", e);
    fail_if(node, format("!%s", coll_call(&l, "pop", format(", &%s", e))),
            c_str("pop() of an empty queue"));
  } else if (!strcmp(name, "push")) {
    char *e = elem_encode(node->args.data[0], elem, node->args.data[0]);
    fail_if(node, format("!%s", coll_call(&l, "push", format(", %s", e))),
            c_str("push() on a full queue"));
  } else if (!strcmp(name, "add")) {
    char *e = elem_encode(node->args.data[0], elem, node->args.data[0]);
    if (ty->kind == TY_SET)
      line("%s;", coll_call(&l, "add", format(", %s", e)));
    else
      fail_if(node, format("!%s", coll_call(&l, "add", format(", %s", e))),
              c_str("add() to a full multiset"));
  } else if (!strcmp(name, "remove")) {
    char *e = elem_query(elem, node->args.data[0]);
    line("%s;", coll_call(&l, "remove", format(", %s", e)));
  } else {
    unreachable();
  }
}

// Coverage: each statement of a body marks its slot of mc_covered when it
// runs (MC_COVER: a relaxed load, and a store the first time only, so that
// threads do not write one cache line back and forth), and cover_lines
// keeps its spec line for the runtime's table. Not for a net, whose XML
// has no statements to show.
static bool covering;
static Vec cover_lines; // (intptr_t) spec line of statement k

static void cover(Node *node) {
  if (!covering || node->kind == ND_BLOCK)
    return;
  line("MC_COVER(%d);", cover_lines.len);
  vec_push(&cover_lines, (void *)(intptr_t)node->tok->line);
}

// The C lines of a statement (its loops and checks included) come from its
// spec line; those of the statements nested in it from theirs.
static void gen_stmt_lines(Node *node);
static void gen_stmt(Node *node) {
  int outer = g.spec_line;
  g.spec_line = node->tok->line;
  cover(node);
  gen_stmt_lines(node);
  g.spec_line = outer;
}

static void gen_stmt_lines(Node *node) {
  switch (node->kind) {
  case ND_BLOCK:
    line("{");
    g.indent++;
    gen_block(node);
    g.indent--;
    line("}");
    return;
  case ND_ASSIGN:
    gen_assign(node);
    return;
  case ND_RESET:
    line("memcpy(%s, mc_default_state, MC_STATE_BYTES);", g.state);
    if (node->lhs)
      gen_stmt(node->lhs);
    line("%s", g.leave);
    return;
  case ND_IF: {
    char *c = gen_plain(node->cond);
    line("if (%s) {", cond_c(c));
    g.indent++;
    int known = nfacts;
    learn(node->cond);
    gen_block(node->then);
    nfacts = known;
    g.indent--;
    if (node->els) {
      line("} else {");
      g.indent++;
      if (node->els->kind == ND_BLOCK)
        gen_block(node->els);
      else
        gen_stmt(node->els);
      g.indent--;
    }
    line("}");
    return;
  }
  case ND_WHILE: {
    // The condition is computed at the top of each iteration (its checks
    // with it); past MCGEN_WHILE_LIMIT iterations the step fails.
    char *n = temp("int64_t", "0");
    line("for (;;) {");
    g.indent++;
    char *c = gen_plain(node->cond);
    line("if (!%s)", operand(c, PREC_UNARY));
    line("  break;");
    fail_if(node, format("++%s > %d", n, MCGEN_WHILE_LIMIT),
            c_str(format("the while loop ran more than %d iterations", MCGEN_WHILE_LIMIT)));
    gen_block(node->body);
    g.indent--;
    line("}");
    return;
  }
  case ND_FOR: {
    line("{");
    g.indent++;
    int open = open_binder(node->binders.data[0], NULL, true);
    gen_block(node->body);
    close_blocks(open);
    g.indent--;
    line("}");
    return;
  }
  case ND_LET:
  case ND_VARDECL: {
    Obj *obj = node->obj;
    Type *ty = obj->type;
    if (!node->rhs) { // the type's default
      gen_default_local(obj);
      return;
    }
    if (is_composite(ty)) {
      Loc s = gen_loc(node->rhs);
      line("uint8_t %s[%lld] = {0};", local_c(obj), (long long)buf_bytes(ty));
      Loc d = {.base = local_c(obj), .ty = ty};
      copy_loc(&d, &s);
    } else {
      char *v = node->kind == ND_VARDECL ? convert(node->rhs, ty, node->rhs, gen_value(node->rhs))
                                         : gen_value(node->rhs);
      line("int64_t %s = %s;", local_c(obj), v);
      line("(void)%s;", local_c(obj));
    }
    return;
  }
  case ND_ASSERT: {
    char *c = gen_plain(node->lhs);
    const char *msg = node->rhs ? node->rhs->tok->str : "assertion failed";
    line("if (%s) {", unary_c("!", c));
    line("  mcrt_assert_failed(ctx, mc_file, %d, %d, %s);", node->tok->line, node->tok->col,
         c_str(msg));
    line("  %s", g.fail);
    line("}");
    g.can_fail = true;
    return;
  }
  case ND_RETURN: {
    if (is_composite(cur_fn->type)) {
      Loc s = gen_loc(node->lhs);
      Loc d = {.base = "ret", .ty = cur_fn->type};
      copy_loc(&d, &s);
      line("return;");
    } else {
      line("return %s;", convert(node->lhs, cur_fn->type, node->lhs, gen_value(node->lhs)));
    }
    return;
  }
  case ND_EXPR_STMT:
    gen_update(node->lhs);
    return;
  default:
    die("gen_stmt: node kind %d", node->kind);
  }
}

static void gen_block(Node *node) {
  for (int i = 0; i < node->args.len; i++)
    gen_stmt(node->args.data[i]);
}

//
// Type descriptors
//

static Buf types_out;
static int ntypes;

static char *type_desc(Type *ty) {
  ty = R(ty);
  W(ty);
  if (ty->id)
    return format("mc_type_%d", ty->id);
  char *base = NULL, *index = NULL, *fields = NULL, *members = NULL;
  if (ty->base)
    base = type_desc(ty->base);
  if (ty->kind == TY_ARRAY)
    index = type_desc(ty->index);
  int id = ++ntypes;
  if (ty->kind == TY_RECORD) {
    Vec descs = {0};
    for (int i = 0; i < ty->nfields; i++)
      vec_push(&descs, type_desc(ty->fields[i]->type));
    fields = format("mc_fields_%d", id);
    buf_printf(&types_out, "static const McrtField %s[] = {\n", fields);
    for (int i = 0; i < ty->nfields; i++)
      buf_printf(&types_out, "  {%s, &%s, %lld},\n", c_str(token_text(ty->fields[i]->name)),
                 (char *)descs.data[i], (long long)ty->fields[i]->offset);
    buf_puts(&types_out, "};\n");
  }
  if (ty->kind == TY_ENUM) {
    buf_puts(&types_out, "enum {");
    for (int i = 0; i < ty->members.len; i++)
      buf_printf(&types_out, "%s e_%s = %d", i ? "," : "", token_text(ty->members.data[i]), i);
    buf_puts(&types_out, " };\n");
    members = format("mc_members_%d", id);
    buf_printf(&types_out, "static const char *const %s[] = {", members);
    for (int i = 0; i < ty->members.len; i++)
      buf_printf(&types_out, "%s%s", i ? ", " : "", c_str(ty->member_labels ? ty->member_labels[i] : token_text(ty->members.data[i])));
    buf_puts(&types_out, "};\n");
  }
  static const char *kinds[] = {
      [TY_BOOL] = "MCRT_BOOL",         [TY_RANGE] = "MCRT_RANGE",   [TY_ENUM] = "MCRT_ENUM",
      [TY_SCALARSET] = "MCRT_SCALARSET", [TY_OPTIONAL] = "MCRT_OPTIONAL", [TY_ARRAY] = "MCRT_ARRAY",
      [TY_RECORD] = "MCRT_RECORD",     [TY_SET] = "MCRT_SET",       [TY_MULTISET] = "MCRT_MULTISET",
      [TY_QUEUE] = "MCRT_QUEUE",
  };
  int64_t len_width = ty->kind == TY_QUEUE ? W(ty) - ty->size * W(ty->base) : 0;
  buf_printf(&types_out,
             "static const McrtType mc_type_%d MC_MAYBE_UNUSED = { /* %s */\n"
             "  .kind = %s, .width = %lld, .card = %lld, .lo = %s, .name = %s,\n"
             "  .members = %s, .base = %s, .index = %s, .capacity = %lld, .len_width = %lld,\n"
             "  .nfields = %d, .fields = %s,\n};\n",
             id, type_name(ty), kinds[ty->kind], (long long)ty->width, (long long)ty->card,
             c_int(ty->kind == TY_RANGE ? ty->lo : 0),
             ty->kind == TY_ENUM || ty->kind == TY_SCALARSET
                 ? c_str(ty->name ? ty->name : ty->kind == TY_ENUM ? "enum" : "scalarset")
                 : "NULL",
             members ? members : "NULL", base ? format("&%s", base) : "NULL",
             index ? format("&%s", index) : "NULL",
             (long long)(ty->kind == TY_MULTISET || ty->kind == TY_QUEUE ? ty->size : 0),
             (long long)len_width, ty->kind == TY_RECORD ? ty->nfields : 0,
             fields ? fields : "NULL");
  ty->id = id;
  return format("mc_type_%d", id);
}

//
// Functions of the model
//

static char *params_c(Vec *params) {
  Buf b = {0};
  for (int i = 0; i < params->len; i++) {
    Binder *p = params->data[i];
    Type *ty = p->in_expr ? R(p->in_expr->ty)->base : p->type;
    buf_printf(&b, is_composite(ty) ? ", const uint8_t *%s" : ", int64_t %s", local_c(p->obj));
  }
  return b.data ? b.data : "";
}

static char *args_c(Vec *params) {
  Buf b = {0};
  for (int i = 0; i < params->len; i++) {
    Binder *p = params->data[i];
    buf_printf(&b, ", %s", local_c(p->obj));
  }
  return b.data ? b.data : "";
}

static void begin_fn(Buf *out, const char *fail, const char *state) {
  g = (Gen){.out = out, .indent = 1, .fail = fail, .state = state, .last_line = -1};
}

// Marks the context, state and parameters used: not every function reads
// all of them, and generated code compiles with -Wextra -Werror.
static void mark_used(Vec *params) {
  Buf b = {0};
  buf_printf(&b, "(void)ctx, (void)%s", g.state);
  for (int i = 0; params && i < params->len; i++)
    buf_printf(&b, ", (void)%s", local_c(((Binder *)params->data[i])->obj));
  line("%s;", b.data);
}

// A boolean function of the state (guard, when, predicate). Returns whether
// it can fail. witness: the forall whose falsifying binding it names (an
// invariant's: witness_chain), or NULL.
static bool emit_predicate(Buf *out, const char *comment, const char *cname, Vec *params,
                           Node *expr, Node *witness) {
  Buf body = {0};
  begin_fn(&body, "return false;", "s");
  g.witness = witness;
  mark_used(params);
  g.spec_line = expr->tok->line;
  char *v = gen_plain(expr);
  line("return %s;", v);
  buf_printf(out, "/* %s */\nstatic bool %s(McrtCtx *ctx, const uint8_t *s%s) {\n",
             comment, cname, params ? params_c(params) : "");
  buf_puts(out, body.data);
  buf_puts(out, LINE_BACK "}\n\n");
  return g.can_fail;
}

// An action or init body, run on the successor `n`.
static bool emit_body(Buf *out, const char *comment, const char *cname, Vec *params, Node *block) {
  Buf body = {0};
  begin_fn(&body, "return;", "n");
  g.leave = "return;";
  mark_used(params);
  gen_block(block);
  buf_printf(out, "/* %s */\nstatic void %s(McrtCtx *ctx, uint8_t *n%s) {\n",
             comment, cname, params_c(params));
  buf_puts(out, body.data ? body.data : "");
  buf_puts(out, LINE_BACK "}\n\n");
  return g.can_fail;
}

// An action without parameters as one function: its guard on the state
// `s`, then its body on the successor `n`. Returns true when the action is
// enabled and `n` holds its successor, or when it reported an error
// (mcrt_failed tells); false when the guard does not hold. One function per
// action, called directly by mc_successors: the C compiler has half as many
// functions to compile as with a guard and a body of their own. Returns
// whether it can fail. *test: the guard as one short C expression of `s`
// that cannot fail, or NULL; mc_successors tests it before the call, so
// that a disabled action costs no call.
static bool emit_action_fn(Buf *out, const char *comment, const char *cname, Node *guard,
                           Node *block, const char **test) {
  Buf body = {0};
  begin_fn(&body, "return true;", "s");
  g.leave = "return true;";
  line("(void)ctx, (void)s, (void)n;");
  *test = NULL;
  if (guard) {
    g.spec_line = guard->tok->line;
    size_t before = body.len;
    char *v = gen_plain(guard);
    if (body.len == before && !g.can_fail && strlen(v) <= 160)
      *test = v;
    line("if (%s)", unary_c("!", v));
    line("  return false;");
    g.spec_line = 0;
  }
  g.state = "n";
  line("memcpy(n, s, MC_STATE_BYTES);");
  gen_block(block);
  line("return true;");
  buf_printf(out, "/* %s: guard, then body */\n"
                  "MC_ACTION bool %s(McrtCtx *ctx, const uint8_t *s, uint8_t *n) {\n",
             comment, cname);
  buf_puts(out, body.data);
  buf_puts(out, "}\n\n");
  return g.can_fail;
}

static const char *decl_comment(Decl *d) {
  int line_no = d->tok->line;
  const char *kind = token_text(d->tok);
  return format("%s %s at %s:%d", kind, d->name ? token_text(d->name) : "(unnamed)",
                c_comment_escape(src->name), line_no);
}

// Whether every path through a block ends in `return` (written out: the
// last statement returns, or is an if/else whose every branch does).
static bool always_returns(Node *block) {
  if (!block->args.len)
    return false;
  Node *last = block->args.data[block->args.len - 1];
  switch (last->kind) {
  case ND_RETURN:
    return true;
  case ND_BLOCK:
    return always_returns(last);
  case ND_IF:
    for (Node *n = last;; n = n->els) {
      if (!always_returns(n->then) || !n->els)
        return false;
      if (n->els->kind != ND_IF)
        return always_returns(n->els);
    }
  default:
    return false;
  }
}

static void emit_fn(Buf *protos, Buf *out, Decl *fn) {
  cur_fn = fn;
  bool composite = is_composite(fn->type);
  Buf sig = {0};
  // MC_MAYBE_UNUSED: a spec may declare a fn that nothing calls.
  buf_printf(&sig, "static MC_MAYBE_UNUSED %s f_%s(McrtCtx *ctx, const uint8_t *s%s%s)",
             composite ? "void" : "int64_t", token_text(fn->name), composite ? ", uint8_t *ret" : "",
             params_c(&fn->params));
  buf_printf(protos, "%s;\n", sig.data);
  Buf body = {0};
  begin_fn(&body, composite ? "return;" : "return 0;", "s");
  mark_used(&fn->params);
  gen_block(fn->body);
  if (always_returns(fn->body)) {
    line("%s /* not reached: every path returns */", g.fail);
  } else {
    line("mcrt_runtime_error(ctx, mc_file, %d, %d, %s);", fn->name->line, fn->name->col,
         c_str(format("fn %s ended without return", token_text(fn->name))));
    line("%s", g.fail);
    g.can_fail = true;
  }
  buf_printf(out, "/* %s */\n%s {\n", decl_comment(fn), sig.data);
  buf_puts(out, body.data);
  buf_puts(out, LINE_BACK "}\n\n");
}

static bool find_call(Node *node, void *out) {
  if (node->kind == ND_CALL)
    vec_push(out, node->obj->decl);
  return true;
}

static void find_calls(Node *node, Vec *out) { walk(node, find_call, out); }

// Emits a fn after every fn it calls (check() rejected recursion), so that
// whether a call can fail is known when the call is written.
static void emit_fn_after_callees(Buf *protos, Buf *out, Decl *fn, bool *done) {
  if (done[fn->index])
    return;
  done[fn->index] = true;
  if (fn->is_extern) { // a C function's wrapper (extern.c); may fail (result check)
    emit_extern_fn(protos, out, fn);
    fn_can_fail[fn->index] = true;
    return;
  }
  Vec callees = {0};
  find_calls(fn->body, &callees);
  for (int i = 0; i < callees.len; i++)
    emit_fn_after_callees(protos, out, callees.data[i], done);
  emit_fn(protos, out, fn);
  fn_can_fail[fn->index] = g.can_fail;
}

//
// Rule groups: actions and init blocks with their parameter bindings
//

typedef struct Group {
  Decl *decl;
  const char *name;   // as the runtime prints it
  const char *body;   // C name of the body function; the guard is g + this
  uint64_t first, nbindings;
  int64_t *cards; // per parameter
  bool guard_fails, body_fails;
  const char *test; // the guard that mc_successors tests inline, or NULL
} Group;

static Type *param_type(Binder *b) { return b->in_expr ? R(b->in_expr->ty)->base : b->type; }

// Opens the loops over every binding of a group in `s`; sets `rule` to the
// rule index expression. Returns blocks to close.
static int open_bindings(Group *gr, char **rule) {
  Vec *params = &gr->decl->params;
  int open = 0;
  Buf r = {0};
  buf_printf(&r, "%lluu", (unsigned long long)gr->first);
  uint64_t stride = gr->nbindings;
  for (int i = 0; i < params->len; i++) {
    Binder *b = params->data[i];
    open += open_binder(b, NULL, false);
    stride /= (uint64_t)gr->cards[i];
    Type *ty = param_type(b);
    char *pos = is_composite(ty)
                    ? format("%s(%s, 0, %lld)", get_fn(W(ty)), local_c(b->obj), (long long)W(ty))
                    : encode(ty, local_c(b->obj));
    buf_printf(&r, " + %lluu * %s", (unsigned long long)stride, pos);
  }
  *rule = r.data;
  return open;
}

//
// Liveness: property instances and fairness constraints
//

#define MAX_INSTANCES 65536

// Emits, for every property, its predicates (P and, for `~>`, Q) as
// functions of the state and the forall binders, then one instance per
// binding (first binder most significant, each domain ascending): the
// instance table and mc_property_bits, which evaluates every instance in a
// state. Returns false after a spec error.
static bool emit_properties(Program *prog, Buf *preds, Buf *table, Buf *bits_fn, int *ninst) {
  static const char *forms[] = {
      [TEMP_ALWAYS] = "MCRT_TEMP_ALWAYS",
      [TEMP_EVENTUALLY] = "MCRT_TEMP_EVENTUALLY",
      [TEMP_LEADSTO] = "MCRT_TEMP_LEADSTO",
      [TEMP_ALWAYS_EVENTUALLY] = "MCRT_TEMP_ALWAYS_EVENTUALLY",
      [TEMP_EVENTUALLY_ALWAYS] = "MCRT_TEMP_EVENTUALLY_ALWAYS",
  };
  int n = 0, nprop = 0;
  buf_puts(bits_fn, "static void mc_property_bits(McrtCtx *ctx, const uint8_t *s, uint8_t *bits) {\n");
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_PROPERTY)
      continue;
    const char *name = token_text(d->name);
    bool fp = emit_predicate(preds, format("P of %s", decl_comment(d)), format("prop_%s_P", name),
                             &d->params, d->expr, NULL);
    bool fq = d->expr2 && emit_predicate(preds, format("Q of %s", decl_comment(d)),
                                          format("prop_%s_Q", name), &d->params, d->expr2, NULL);
    int64_t count = 1;
    for (int j = 0; j < d->params.len; j++) {
      count *= card_of(((Binder *)d->params.data[j])->type);
      if (count + n > MAX_INSTANCES) {
        error_at(d->name, "property '%s' has more than %d instances (one per forall binding)",
                 name, MAX_INSTANCES);
        return false;
      }
    }
    for (int64_t k = 0; k < count; k++) {
      Buf label = {0}, args = {0};
      buf_puts(&label, name);
      int64_t stride = count;
      for (int j = 0; j < d->params.len; j++) {
        Binder *b = d->params.data[j];
        Type *ty = R(b->type);
        stride /= card_of(ty);
        int64_t e = k / stride % card_of(ty);
        buf_printf(&label, "%s%s=%s", j ? ", " : "(", token_text(b->name), value_name(ty, e));
        buf_printf(&args, ", (int64_t)%s", c_int(ty->kind == TY_RANGE ? ty->lo + e : e));
      }
      if (d->params.len)
        buf_puts(&label, ")");
      buf_printf(table, "  {%s, %d, %s},\n", c_str(label.data), nprop, forms[d->temporal]);
      const char *a = args.data ? args.data : "";
      buf_printf(bits_fn, "  if (prop_%s_P(ctx, s%s))\n    bits[%d] |= %du;\n", name, a, 2 * n / 8,
                 1 << (2 * n % 8));
      if (fp)
        buf_puts(bits_fn, "  if (mcrt_failed(ctx))\n    return;\n");
      if (d->expr2) {
        buf_printf(bits_fn, "  if (prop_%s_Q(ctx, s%s))\n    bits[%d] |= %du;\n", name, a,
                   (2 * n + 1) / 8, 1 << ((2 * n + 1) % 8));
        if (fq)
          buf_puts(bits_fn, "  if (mcrt_failed(ctx))\n    return;\n");
      }
      n++;
    }
    nprop++;
  }
  buf_puts(bits_fn, "  (void)ctx, (void)s, (void)bits;\n}\n");
  if (!n)
    buf_puts(table, "  {NULL, 0, MCRT_TEMP_ALWAYS},\n");
  *ninst = n;
  return true;
}

// Emits one McrtFairness per `fair` declaration (the parser gives each item
// of `fair weak a, (b | c);` its own declaration): the rule ranges of its
// actions. A single action with parameters is fair per binding.
static void emit_fairness(Program *prog, Vec *actions, Buf *out, int *nfair) {
  Buf table = {0};
  int n = 0;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_FAIR)
      continue;
    Buf ranges = {0}, text = {0};
    buf_puts(&text, d->strong ? "strong " : "weak ");
    bool group = d->fair_actions.len > 1;
    bool per_binding = false;
    if (group)
      buf_puts(&text, "(");
    for (int j = 0; j < d->fair_actions.len; j++) {
      const char *aname = token_text(d->fair_actions.data[j]);
      buf_printf(&text, "%s%s", j ? " | " : "", aname);
      for (int k = 0; k < actions->len; k++) {
        Group *gr = actions->data[k];
        if (strcmp(gr->name, aname) != 0)
          continue;
        buf_printf(&ranges, "{%lluu, %lluu}, ", (unsigned long long)gr->first,
                   (unsigned long long)gr->nbindings);
        per_binding = !group && gr->decl->params.len > 0;
      }
    }
    if (group)
      buf_puts(&text, ")");
    buf_printf(out, "static const McrtRuleRange mc_fair_ranges_%d[] = {%s};\n", n,
               ranges.data ? ranges.data : "{0, 0}");
    buf_printf(&table, "  {%s, %s, %d, mc_fair_ranges_%d, %s, mc_file, %d},\n",
               d->strong ? "true" : "false", per_binding ? "true" : "false", d->fair_actions.len,
               n, c_str(text.data), d->tok->line);
    n++;
  }
  buf_puts(out, "static const McrtFairness mc_fairness[] = {\n");
  buf_puts(out, table.data ? table.data : "  {false, false, 0, NULL, NULL, NULL, 0},\n");
  buf_puts(out, "};\n");
  *nfair = n;
}

// Writes m4_define(⟦name⟧, ⟦body⟧). A quote in the body would end the
// quoted text early and let m4 read the rest as macros.
static void m4_define(FILE *out, const char *name, const char *body) {
  if (strstr(body, "\xe2\x9f\xa6") || strstr(body, "\xe2\x9f\xa7"))
    die("the m4 definition %s holds an m4 quote", name);
  fprintf(out, "m4_define(\xe2\x9f\xa6%s\xe2\x9f\xa7, \xe2\x9f\xa6%s\xe2\x9f\xa7)m4_dnl\n", name,
          body);
}

// The pieces of the generated C, as emit()'s steps write them; the last
// step turns each into an m4 definition for the template.
typedef struct Parts {
  const char *model;
  const char *constants; // NAME=VALUE lines (the build identity's)
  Buf accessors, fn_protos, fns, vars, defaults, rules;
  Vec actions, inits; // Group*
  uint64_t nrules, ninit_rules;
  Buf preds, inv_table, reach_table, prop_table;
  Buf check_inv, check_reach, terminal, constraint;
  int ninv, nreach, nprop, nterm, ncons;
  Buf inst_table, bits_fn, fair_tables;
  int ninst, nfair;
  Buf search, groups, sym, deps;
  bool has_deps;
  int nscalarsets, nsym;
  bool has_accepting; // a scenario or an accepting predicate: mc_is_accepting
  Buf watches; // the trace printers' watches
  int nwatches;
} Parts;

// The model's name: `model NAME;`, or the spec file's base name without its
// extension (a file named `.mc` keeps its whole name). main.c names the
// checker after it.
const char *model_name(Program *prog) {
  if (prog->model_name)
    return token_text(prog->model_name);
  const char *base = strrchr(prog->file->name, '/');
  base = base ? base + 1 : prog->file->name;
  const char *dot = strrchr(base, '.');
  return dot && dot != base ? xstrndup(base, dot - base) : base;
}

// Accessors of the state, first: every piece of code uses them.
static void emit_state_accessors(Parts *p) {
  Layout *layout = lay;
  Buf accessors = {0};
  for (int i = 0; i < layout->vars.len; i++) {
    Obj *var = layout->vars.data[i];
    buf_printf(&accessors, "/* var %s: %s, bits %lld..%lld */\n", var->name,
               type_name(R(var->type)), (long long)layout->offsets[i],
               (long long)(layout->offsets[i] + W(var->type) - 1));
    emit_accessors_of(&accessors, var->type, var->name,
                      format("%lldu", (long long)layout->offsets[i]), NULL, 0);
  }
  p->accessors = accessors;
}

// The C functions the spec calls, as the runtime sees them (mcrt.h's
// McrtExternFn: named when a call is abandoned or a trace does not
// replay): mc_externs[k] is the k-th `extern fn` in declaration order
// (extern_fn_index), its parameters' names and types in mc_xparams_k.
static int nexterns;

static void emit_extern_table(Program *prog, Buf *out) {
  Buf table = {0};
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_FN || !d->is_extern)
      continue;
    buf_printf(out, "static const McrtParam mc_xparams_%d[] = {", nexterns);
    for (int j = 0; j < d->params.len; j++) {
      Binder *b = d->params.data[j];
      buf_printf(out, "%s{%s, &%s}", j ? ", " : "", c_str(token_text(b->name)), type_desc(b->type));
    }
    buf_puts(out, d->params.len ? "};\n" : "{NULL, NULL}};\n");
    buf_printf(&table, "  {%s, mc_file, %d, %d, %s, %d, mc_xparams_%d},\n",
               c_str(token_text(d->name)), d->name->line, d->name->col,
               d->trusted ? "true" : "false", d->params.len, nexterns);
    nexterns++;
  }
  if (nexterns)
    buf_printf(out, "static const McrtExternFn mc_externs[] = {\n%s};\n\n", table.data);
}

// Functions: which can fail is known only after they are written, and
// calls need it: emit them in call order (no recursion), leaves first.
static void emit_functions(Program *prog, Parts *p) {
  int nfns = 0;
  for (int i = 0; i < prog->decls.len; i++)
    nfns += ((Decl *)prog->decls.data[i])->kind == DK_FN;
  fn_can_fail = xcalloc(nfns + 1, sizeof *fn_can_fail);
  bool *done = xcalloc(nfns + 1, sizeof *done);
  Buf fn_protos = {0}, fns = {0};
  buf_puts(&fn_protos, extern_includes(prog));
  emit_extern_table(prog, &fn_protos);
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_FN)
      emit_fn_after_callees(&fn_protos, &fns, d, done);
  }
  p->fn_protos = fn_protos;
  p->fns = fns;
}

// Every enum gets its constants (e_MEMBER), wherever it was written.
static void emit_enum_types(Program *prog) {
  for (int i = 0; i < prog->enums.len; i++)
    type_desc(prog->enums.data[i]);
}

// State variables: type descriptors and offsets.
static void emit_state_vars(Parts *p) {
  Layout *layout = lay;
  Buf vars = {0};
  buf_puts(&vars, "static const McrtVar mc_vars[] = {\n");
  for (int i = 0; i < layout->vars.len; i++) {
    Obj *var = layout->vars.data[i];
    char *desc = type_desc(var->type);
    const char *shown = var->decl && var->decl->label ? var->decl->label : var->name;
    buf_printf(&vars, "  {%s, &%s, %lld},\n", c_str(shown), desc,
               (long long)layout->offsets[i]);
  }
  if (!layout->vars.len)
    buf_puts(&vars, "  {NULL, NULL, 0},\n");
  buf_puts(&vars, "};\n");
  p->vars = vars;
}

// The default state: every variable at its type's default.
static void emit_default_state(Parts *p) {
  Layout *layout = lay;
  uint8_t *defstate = xcalloc(layout->state_bytes + 8, 1);
  for (int i = 0; i < layout->vars.len; i++) {
    Obj *var = layout->vars.data[i];
    default_bits(var->type, defstate, layout->offsets[i]);
  }
  Buf defaults = {0};
  buf_printf(&defaults, "static const uint8_t mc_default_state[%lld] = {",
             (long long)layout->state_bytes + 8);
  for (int64_t i = 0; i < layout->state_bytes; i++)
    buf_printf(&defaults, "%s%s%u", i ? "," : "", i % 16 == 0 ? "\n  " : " ", defstate[i]);
  buf_puts(&defaults, "\n};\n");
  p->defaults = defaults;
}

// Actions and init blocks: one group each, numbered from its first rule
// (one rule per parameter binding).
static bool number_rules(Program *prog, Parts *p) {
  Vec actions = {0}, inits = {0};
  uint64_t nrules = 0, ninit_rules = 0;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_ACTION && d->kind != DK_INIT)
      continue;
    Group *gr = xcalloc(1, sizeof *gr);
    gr->decl = d;
    gr->name = d->label ? d->label : d->name ? token_text(d->name) : "init";
    // An unnamed init block gets a C name no spec name can produce.
    gr->body = d->name ? format("%s_%s", d->kind == DK_ACTION ? "a" : "i", token_text(d->name))
                       : format("iu%d", inits.len + 1);
    gr->cards = xcalloc(d->params.len + 1, sizeof *gr->cards);
    __int128 n = 1;
    for (int j = 0; j < d->params.len; j++) {
      gr->cards[j] = binder_card(d->params.data[j]);
      n *= gr->cards[j];
    }
    uint64_t *counter = d->kind == DK_ACTION ? &nrules : &ninit_rules;
    // The checker numbers rules in 32 bits (its trace log) and refuses more.
    if (n + *counter > ((__int128)1 << 32)) {
      error_at(d->name ? d->name : d->tok,
               "too many parameter bindings: the %s have more than 2^32 in all, the most a "
               "checker can number",
               d->kind == DK_ACTION ? "actions" : "init blocks");
      note_at(d->name ? d->name : d->tok, "this one has %s",
              n > UINT64_MAX ? "more than 2^64" : format("%llu", (unsigned long long)n));
      return false;
    }
    gr->nbindings = (uint64_t)n;
    gr->first = *counter;
    *counter += gr->nbindings;
    vec_push(d->kind == DK_ACTION ? &actions : &inits, gr);
  }
  p->actions = actions;
  p->inits = inits;
  p->nrules = nrules;
  p->ninit_rules = ninit_rules;
  return true;
}

// Within a scenario: the guard of an action binding also asks that the
// automaton has a move on the binding's rule, and the body moves it (read
// before the action's own body runs, written after).
static void emit_scenario_wrappers(Buf *out, Group *gr) {
  Decl *d = gr->decl;
  Obj *var = scenario_state_var();
  int64_t off = var_offset(var), w = W(var->type);
  Buf rule = {0};
  buf_printf(&rule, "%lluu", (unsigned long long)gr->first);
  uint64_t stride = gr->nbindings;
  for (int i = 0; i < d->params.len; i++) {
    Binder *b = d->params.data[i];
    stride /= (uint64_t)gr->cards[i];
    Type *ty = param_type(b);
    char *pos = is_composite(ty)
                    ? format("%s(%s, 0, %lld)", get_fn(W(ty)), local_c(b->obj), (long long)W(ty))
                    : encode(ty, local_c(b->obj));
    buf_printf(&rule, " + %lluu * (uint64_t)%s", (unsigned long long)stride, pos);
  }
  if (!d->params.len) { // one function, guard then body (emit_action_fn)
    buf_printf(out, "/* %s within scenario %s */\n"
                    "static bool %s(McrtCtx *ctx, const uint8_t *s, uint8_t *n) {\n"
                    "  int q = mc_scenario_step(mcrt_get(s, %lld, %lld), %s);\n"
                    "  if (q < 0 || !%s_model(ctx, s, n))\n"
                    "    return false;\n"
                    "  mcrt_set(n, %lld, %lld, (uint64_t)q);\n"
                    "  return true;\n}\n\n",
               decl_comment(d), c_comment_escape(scenario_name()), gr->body, (long long)off,
               (long long)w, rule.data, gr->body, (long long)off, (long long)w);
    return;
  }
  const char *params = params_c(&d->params), *args = args_c(&d->params);
  buf_printf(out, "/* guard of %s within scenario %s */\n"
                  "static bool g%s(McrtCtx *ctx, const uint8_t *s%s) {\n"
                  "  if (mc_scenario_step(mcrt_get(s, %lld, %lld), %s) < 0)\n"
                  "    return false;\n"
                  "  return g%s_model(ctx, s%s);\n}\n\n",
             decl_comment(d), c_comment_escape(scenario_name()), gr->body, params, (long long)off,
             (long long)w, rule.data, gr->body, args);
  buf_printf(out, "/* %s within scenario %s */\n"
                  "static void %s(McrtCtx *ctx, uint8_t *n%s) {\n"
                  "  int q = mc_scenario_step(mcrt_get(n, %lld, %lld), %s);\n"
                  "  %s_model(ctx, n%s);\n"
                  "  mcrt_set(n, %lld, %lld, (uint64_t)q);\n}\n\n",
             decl_comment(d), c_comment_escape(scenario_name()), gr->body, params, (long long)off,
             (long long)w, rule.data, gr->body, args, (long long)off, (long long)w);
}

// The guard and body of every init block and action with parameters; one
// function for an action without.
static void emit_actions(Parts *p) {
  Vec actions = p->actions, inits = p->inits;
  Buf rules = {0};
  if (scenario_active())
    scenario_emit_tables(&rules);
  for (int pass = 0; pass < 2; pass++) {
    Vec *list = pass ? &actions : &inits;
    for (int i = 0; i < list->len; i++) {
      Group *gr = list->data[i];
      Decl *d = gr->decl;
      // Within a scenario, the action's own functions get a suffix and the
      // wrappers (emit_scenario_wrappers) take their names.
      const char *own = pass && scenario_active() ? "_model" : "";
      if (pass && !d->params.len) {
        gr->body_fails = emit_action_fn(&rules, decl_comment(d), format("%s%s", gr->body, own),
                                        d->expr, d->body, &gr->test);
        if (*own)
          emit_scenario_wrappers(&rules, gr);
        continue;
      }
      if (d->expr)
        gr->guard_fails = emit_predicate(&rules, format("guard of %s", decl_comment(d)),
                                         format("g%s%s", gr->body, own), &d->params, d->expr,
                                         NULL);
      gr->body_fails = emit_body(&rules, decl_comment(d), format("%s%s", gr->body, own),
                                 &d->params, d->body);
      if (*own)
        emit_scenario_wrappers(&rules, gr);
    }
  }
  p->rules = rules;
}

// Watches (`watch NAME: EXPR;`, mcgen -W): one function each, writing the
// value's encoding to `out`, and mc_watch, which the trace printers call
// on every state they show (never the search). An integer expression shows
// as a 64-bit range.
static Type *watch_type(Node *expr) {
  Type *ty = R(expr->ty);
  if (ty->kind != TY_INT)
    return ty;
  static Type *int64_type;
  if (!int64_type) {
    int64_type = new_range_type(expr->tok, INT64_MIN, INT64_MAX);
    int64_type->lo = INT64_MIN, int64_type->hi = INT64_MAX;
  }
  return int64_type;
}

static void emit_watch(Buf *out, Buf *table, Decl *d, int k) {
  Buf body = {0};
  begin_fn(&body, "return false;", "s");
  const char *file = d->tok->file->name;
  if (d->tok->file != src) // mcgen -W: its run-time errors name the option (a local mc_file)
    line("static const char mc_file[] = %s;", c_str(file));
  line("(void)ctx, (void)s, (void)mc_file;");
  g.spec_line = d->tok->file == src ? d->expr->tok->line : 0; // (no #line into -W's text)
  Type *ty = watch_type(d->expr);
  if (is_composite(ty)) {
    Loc src_loc = gen_loc(d->expr);
    Loc dst = {.base = "out", .ty = ty};
    copy_loc(&dst, &src_loc);
  } else {
    char *v = gen_value(d->expr);
    line("%s(out, 0, %lld, %s);", set_fn(W(ty)), (long long)W(ty), encode(ty, v));
  }
  line("return true;");
  buf_printf(out, "/* watch %s at %s:%d */\n"
                  "static bool w%d(McrtCtx *ctx, const uint8_t *s, uint8_t *out) {\n",
             c_comment_escape(token_text(d->name)), c_comment_escape(file), d->tok->line, k);
  buf_puts(out, body.data);
  buf_puts(out, LINE_BACK "}\n\n");
  buf_printf(table, "  {%s, &%s, %s, %d},\n", c_str(token_text(d->name)), type_desc(ty),
             d->tok->file == src ? "mc_file" : c_str(file), d->tok->line);
}

static void emit_watches(Program *prog, Parts *p) {
  Buf fns = {0}, table = {0}, calls = {0};
  int n = 0;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_WATCH)
      continue;
    emit_watch(&fns, &table, d, n);
    buf_printf(&calls, "  case %d: return w%d(ctx, s, out);\n", n, n);
    n++;
  }
  if (n)
    buf_printf(&fns, "static const McrtWatch mc_watches[] = {\n%s};\n"
                     "static bool mc_watch(McrtCtx *ctx, uint32_t i, const uint8_t *s, "
                     "uint8_t *out) {\n  switch (i) {\n%s  }\n  return false;\n}\n\n",
               table.data, calls.data);
  p->watches = fns;
  p->nwatches = n;
}

// Invariants, reachability goals, terminal and constraint predicates.
static void emit_predicates(Program *prog, Parts *p) {
  Buf preds = {0}, inv_table = {0}, reach_table = {0}, prop_table = {0};
  Buf check_inv = {0}, check_reach = {0}, terminal = {0}, constraint = {0}, accepting = {0};
  int ninv = 0, nreach = 0, nprop = 0, nterm = 0, ncons = 0;
  Buf check_one = {0}; // one invariant: mc_check_invariant
  buf_puts(&check_inv, "static int mc_check_invariants(McrtCtx *ctx, const uint8_t *s) {\n");
  buf_puts(&check_one, "static bool mc_check_invariant(McrtCtx *ctx, uint32_t i, const uint8_t *s) {\n"
                       "  switch (i) {\n");
  buf_puts(&check_reach,
           "static bool mc_check_reachable(McrtCtx *ctx, uint32_t i, const uint8_t *s) {\n"
           "  switch (i) {\n");
  buf_puts(&terminal, "static bool mc_is_terminal(McrtCtx *ctx, const uint8_t *s) {\n");
  buf_puts(&constraint, "static bool mc_within_constraints(McrtCtx *ctx, const uint8_t *s) {\n");
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    const char *name = d->name ? token_text(d->name) : "";
    char *entry = format("  {%s, mc_file, %d},\n", c_str(name), d->name ? d->name->line : 0);
    switch (d->kind) {
    case DK_INVARIANT:
      emit_predicate(&preds, decl_comment(d), format("inv_%s", name), NULL, d->expr,
                     witness_chain(d->expr));
      buf_printf(&check_one, "  case %d:\n    return inv_%s(ctx, s);\n", ninv, name);
      buf_printf(&check_inv, "  if (!inv_%s(ctx, s))\n    return %d;\n", name, ninv++);
      buf_puts(&inv_table, entry);
      break;
    case DK_REACHABLE:
      emit_predicate(&preds, decl_comment(d), format("reach_%s", name), NULL, d->expr, NULL);
      buf_printf(&check_reach, "  case %d:\n    return reach_%s(ctx, s);\n", nreach++, name);
      buf_puts(&reach_table, entry);
      break;
    case DK_TERMINAL:
      emit_predicate(&preds, decl_comment(d), format("term_%s", name), NULL, d->expr, NULL);
      buf_printf(&terminal, "  if (term_%s(ctx, s))\n    return true;\n", name);
      nterm++;
      break;
    case DK_CONSTRAINT:
      emit_predicate(&preds, decl_comment(d), format("cons_%s", name), NULL, d->expr, NULL);
      buf_printf(&constraint, "  if (!cons_%s(ctx, s))\n    return false;\n", name);
      ncons++;
      break;
    case DK_PROPERTY:
      buf_puts(&prop_table, entry);
      nprop++;
      break;
    case DK_ACCEPTING:
      emit_predicate(&preds, decl_comment(d), format("acc_%s", name), NULL, d->expr, NULL);
      buf_printf(&accepting, "  if (!acc_%s(ctx, s))\n    return false;\n", name);
      p->has_accepting = true;
      break;
    default:
      break;
    }
  }
  // A state is accepting when the scenario's automaton accepts there and
  // every accepting predicate holds; an accepting state may end a run (it
  // counts as terminal, not as a deadlock).
  if (scenario_active()) {
    Obj *var = scenario_state_var();
    buf_printf(&accepting, "  if (!mc_scenario_accept[mcrt_get(s, %lld, %lld)])\n"
                           "    return false;\n",
               (long long)var_offset(var), (long long)W(var->type));
    p->has_accepting = true;
  }
  if (p->has_accepting) {
    buf_printf(&preds, "/* accepting states */\n"
                       "static bool mc_is_accepting(McrtCtx *ctx, const uint8_t *s) {\n%s"
                       "  (void)ctx, (void)s;\n  return true;\n}\n\n",
               accepting.data ? accepting.data : "");
    buf_puts(&terminal, "  if (mc_is_accepting(ctx, s))\n    return true;\n");
    nterm++;
  }
  buf_puts(&check_inv, "  (void)ctx, (void)s;\n  return -1;\n}\n");
  buf_printf(&check_inv, "%s  }\n  (void)ctx, (void)s;\n  return true;\n}\n", check_one.data);
  buf_puts(&check_reach, "  }\n  (void)ctx, (void)s;\n  return false;\n}\n");
  buf_puts(&terminal, "  (void)ctx, (void)s;\n  return false;\n}\n");
  buf_puts(&constraint, "  (void)ctx, (void)s;\n  return true;\n}\n");
  p->preds = preds;
  p->inv_table = inv_table;
  p->reach_table = reach_table;
  p->prop_table = prop_table;
  p->check_inv = check_inv;
  p->check_reach = check_reach;
  p->terminal = terminal;
  p->constraint = constraint;
  p->ninv = ninv;
  p->nreach = nreach;
  p->nprop = nprop;
  p->nterm = nterm;
  p->ncons = ncons;
}

// Liveness: the temporal properties' instances and the fairness tables.
static bool emit_liveness(Program *prog, Parts *p) {
  Buf inst_table = {0}, bits_fn = {0}, fair_tables = {0};
  int ninst = 0, nfair = 0;
  if (!emit_properties(prog, &p->preds, &inst_table, &bits_fn, &ninst))
    return false;
  emit_fairness(prog, &p->actions, &fair_tables, &nfair);
  p->inst_table = inst_table;
  p->bits_fn = bits_fn;
  p->fair_tables = fair_tables;
  p->ninst = ninst;
  p->nfair = nfair;
  return true;
}

// Per init block and action with parameters: x_ expands every binding (a
// loop per parameter), and r_ replays one binding. An action without
// parameters has neither: mc_successors calls its a_ function directly, and
// mc_apply_rule through the table mc_action_fns. A spec with thousands of
// actions gives thousands of small C functions, not one enormous one, and no
// more of them than it needs (the compile time grows with the number of
// functions).
static void emit_search(Parts *p) {
  Vec actions = p->actions, inits = p->inits;
  Buf search = {0};
  for (int pass = 0; pass < 2; pass++) {
    Vec *list = pass ? &actions : &inits;
    bool init = !pass;
    for (int i = 0; i < list->len; i++) {
      Group *gr = list->data[i];
      Decl *d = gr->decl;
      if (!init && !d->params.len)
        continue; // its a_ function, called by mc_successors and mc_apply_rule
      begin_fn(&search, "", "s");
      buf_printf(&search, "/* every binding of %s */\n", decl_comment(d));
      buf_printf(&search, "static bool x_%s(McrtCtx *ctx, const uint8_t *s, uint8_t *n) {\n",
                 gr->body);
      g.fail = format("{ mcrt_failed_in_rule(ctx, %s, %lluu); return true; }",
                      init ? "true" : "false", (unsigned long long)gr->first);
      char *rule;
      int open = open_bindings(gr, &rule);
      char *rule_t = temp("uint64_t", rule);
      const char *fail_rule = format("{ mcrt_failed_in_rule(ctx, %s, %s); return true; }",
                                     init ? "true" : "false", rule_t);
      if (d->expr) {
        line("bool %s_en = g%s(ctx, s%s);", rule_t, gr->body, args_c(&d->params));
        if (gr->guard_fails)
          line("if (mcrt_failed(ctx)) %s", fail_rule);
        line("if (%s_en) {", rule_t);
      } else {
        line("{");
      }
      g.indent++;
      line("memcpy(n, s, MC_STATE_BYTES);");
      line("%s(ctx, n%s);", gr->body, args_c(&d->params));
      if (gr->body_fails)
        line("if (mcrt_failed(ctx)) %s", fail_rule);
      if (init)
        line("mcrt_emit_initial(ctx, n, %s);", rule_t);
      else {
        line("if (mcrt_emit_successor(ctx, n, %d, %s))", i, rule_t);
        line("  return true;");
      }
      g.indent--;
      line("}");
      close_blocks(open);
      buf_puts(&search, "  return false;\n}\n\n");

      // Replay of binding b: decode the parameters (first most significant).
      begin_fn(&search, "return false;", "s");
      buf_printf(&search, "static bool r_%s(McrtCtx *ctx, uint64_t b, const uint8_t *s, "
                          "uint8_t *n) {\n", gr->body);
      uint64_t stride = gr->nbindings;
      for (int j = 0; j < d->params.len; j++) {
        Binder *b = d->params.data[j];
        stride /= (uint64_t)gr->cards[j];
        Type *ty = param_type(b);
        char *enc = format("(b / %lluu %% %lluu)", (unsigned long long)stride,
                           (unsigned long long)gr->cards[j]);
        if (b->in_expr) {
          // The element must be in the collection in this state.
          Loc l = gen_loc(b->in_expr);
          line("if (!%s)", coll_call(&l, "has", format(", %s", enc)));
          line("  return false;");
        }
        if (is_composite(ty)) {
          line("uint8_t %s[%lld] = {0};", local_c(b->obj), (long long)buf_bytes(ty));
          line("%s(%s, 0, %lld, %s);", set_fn(W(ty)), local_c(b->obj), (long long)W(ty), enc);
        } else {
          line("int64_t %s = %s;", local_c(b->obj), decode(ty, enc));
        }
      }
      line("(void)b;");
      if (d->expr) {
        line("if (!g%s(ctx, s%s))", gr->body, args_c(&d->params));
        line("  return false;");
      }
      line("memcpy(n, s, MC_STATE_BYTES);");
      line("%s(ctx, n%s);", gr->body, args_c(&d->params));
      line("return !mcrt_failed(ctx);");
      buf_puts(&search, "}\n\n");
    }
  }

  buf_puts(&search, "static void mc_initial_states(McrtCtx *ctx) {\n"
                    "  const uint8_t *s = mc_default_state;\n"
                    "  uint8_t n[MC_STATE_BYTES + MCRT_SLACK];\n");
  if (!inits.len)
    buf_puts(&search, "  /* no init block: the default state */\n"
                      "  memcpy(n, s, sizeof n);\n"
                      "  mcrt_emit_initial(ctx, n, 0);\n");
  for (int i = 0; i < inits.len; i++)
    buf_printf(&search, "  if (x_%s(ctx, s, n))\n    return;\n",
               ((Group *)inits.data[i])->body);
  buf_puts(&search, "}\n\n");

  bool any_fails = false;
  for (int i = 0; i < actions.len; i++) {
    Group *gr = actions.data[i];
    any_fails |= !gr->decl->params.len && gr->body_fails;
  }
  if (any_fails)
    buf_puts(&search,
             "/* The successor n of an action without parameters, or the error it\n"
             " * reported: true when the search must stop. */\n"
             "static bool mc_emit_checked(McrtCtx *ctx, const uint8_t *n, uint32_t action, "
             "uint64_t rule) {\n"
             "  if (mcrt_failed(ctx)) {\n"
             "    mcrt_failed_in_rule(ctx, false, rule);\n"
             "    return true;\n"
             "  }\n"
             "  return mcrt_emit_successor(ctx, n, action, rule);\n"
             "}\n\n");
  // The actions in order, in chunks of SUCC_CHUNK, each a function of its
  // own: one function with the guard tests of thousands of actions costs
  // gcc far more than the same code cut into pieces (pouring.1's C: 17.1 s
  // against 11.4 s of CPU); a call per chunk costs the checker nothing
  // measurable.
  enum { SUCC_CHUNK = 32 };
  bool chunked = actions.len > SUCC_CHUNK;
  Buf calls = {0};
  for (int i = 0; i < actions.len; i++) {
    Group *gr = actions.data[i];
    if (chunked && i % SUCC_CHUNK == 0) {
      buf_printf(&search, "static __attribute__((noinline)) bool mc_successors_%d(McrtCtx *ctx, "
                          "const uint8_t *s, uint8_t *n) {\n", i / SUCC_CHUNK);
      buf_printf(&calls, "  if (mc_successors_%d(ctx, s, n))\n    return;\n", i / SUCC_CHUNK);
    }
    Buf *to = chunked ? &search : &calls;
    const char *stop = chunked ? "return true;" : "return;";
    if (gr->decl->params.len)
      buf_printf(to, "  if (x_%s(ctx, s, n))\n    %s\n", gr->body, stop);
    else
      buf_printf(to, "  if (%s%s(ctx, s, n) && %s(ctx, n, %d, %lluu))\n    %s\n",
                 gr->test ? format("%s &&\n      ", operand(gr->test, PREC_AND)) : "", gr->body,
                 gr->body_fails ? "mc_emit_checked" : "mcrt_emit_successor", i,
                 (unsigned long long)gr->first, stop);
    if (chunked && (i % SUCC_CHUNK == SUCC_CHUNK - 1 || i == actions.len - 1))
      buf_puts(&search, "  return false;\n}\n\n");
  }
  buf_puts(&search, "static void mc_successors(McrtCtx *ctx, const uint8_t *s) {\n"
                    "  uint8_t n[MC_STATE_BYTES + MCRT_SLACK];\n");
  buf_puts(&search, calls.data ? calls.data : "");
  buf_puts(&search, "  (void)ctx, (void)s, (void)n;\n}\n\n");
  if (!actions.len) {
    p->search = search;
    return;
  }
  // For replay, one entry per action group, in rule order: an action
  // without parameters (most of a DVE model's) is its a_ function; one
  // with parameters has an r_ function of its own.
  buf_puts(&search,
           "typedef struct {\n"
           "  bool (*action)(McrtCtx *ctx, const uint8_t *s, uint8_t *n); /* no parameters */\n"
           "  McrtReplay *replay; /* with parameters */\n"
           "} McAction;\n\n"
           "static const McAction mc_action_fns[] = {\n");
  for (int i = 0; i < actions.len; i++) {
    Group *gr = actions.data[i];
    if (gr->decl->params.len)
      buf_printf(&search, "  {NULL, r_%s},\n", gr->body);
    else
      buf_printf(&search, "  {%s, NULL},\n", gr->body);
  }
  buf_puts(&search, "};\n\n");
  // For the profile (runtime/context/profile.c), which times each action's
  // successors on a sample of the expansions: mc_successors's steps one by
  // one, an x_ function (it emits) or an action's own function.
  buf_puts(&search, "static const McrtActionStep mc_action_steps[] = {\n");
  for (int i = 0; i < actions.len; i++) {
    Group *gr = actions.data[i];
    bool per_state = false;
    for (int j = 0; j < gr->decl->params.len; j++)
      per_state |= ((Binder *)gr->decl->params.data[j])->in_expr != NULL;
    buf_printf(&search, "  {%s%s, %s, %s},\n", gr->decl->params.len ? "x_" : "", gr->body,
               gr->decl->params.len ? "true" : "false", per_state ? "true" : "false");
  }
  buf_puts(&search, "};\n\n");
  p->search = search;
}

// Replay of one rule: the runtime finds its group (binary search on
// first_rule); an init block's r_ function, or an action's entry of
// mc_action_fns, replays the binding.
static void emit_replay(Parts *p) {
  Vec actions = p->actions, inits = p->inits;
  Buf search = p->search;
  if (inits.len) {
    buf_puts(&search, "static McrtReplay *const mc_init_replay[] = {\n");
    for (int i = 0; i < inits.len; i++)
      buf_printf(&search, "  r_%s,\n", ((Group *)inits.data[i])->body);
    buf_puts(&search, "};\n");
  }
  if (inits.len)
    buf_printf(&search, "static bool mc_apply_init(McrtCtx *ctx, uint64_t rule, uint8_t *n) {\n"
                        "  return mcrt_replay(mc_inits, mc_init_replay, %d, ctx, rule, "
                        "mc_default_state, n);\n}\n",
               inits.len);
  else
    buf_puts(&search, "static bool mc_apply_init(McrtCtx *ctx, uint64_t rule, uint8_t *n) {\n"
                      "  (void)ctx;\n"
                      "  if (rule != 0)\n    return false;\n"
                      "  memcpy(n, mc_default_state, MC_STATE_BYTES);\n"
                      "  return true;\n}\n");
  if (actions.len)
    buf_printf(&search, "static bool mc_apply_rule(McrtCtx *ctx, uint64_t rule, const uint8_t *s, "
                        "uint8_t *n) {\n"
                        "  uint32_t i = mcrt_find_group(mc_actions, %d, rule);\n"
                        "  if (i == UINT32_MAX)\n"
                        "    return false;\n"
                        "  const McAction *a = &mc_action_fns[i];\n"
                        "  if (a->replay)\n"
                        "    return a->replay(ctx, rule - mc_actions[i].first_rule, s, n);\n"
                        "  return a->action(ctx, s, n) && !mcrt_failed(ctx);\n}\n",
               actions.len);
  else
    buf_puts(&search, "static bool mc_apply_rule(McrtCtx *ctx, uint64_t rule, const uint8_t *s, "
                      "uint8_t *n) {\n"
                      "  (void)ctx, (void)rule, (void)s, (void)n;\n  return false;\n}\n");
  p->search = search;
}

// Rule-group tables.
static void emit_rule_groups(Parts *p) {
  Vec actions = p->actions, inits = p->inits;
  Buf groups = {0};
  for (int pass = 0; pass < 2; pass++) {
    Vec *list = pass ? &actions : &inits;
    for (int i = 0; i < list->len; i++) {
      Group *gr = list->data[i];
      Decl *d = gr->decl;
      if (!d->params.len)
        continue;
      buf_printf(&groups, "static const McrtParam mc_params_%s[] = {\n", gr->body);
      for (int j = 0; j < d->params.len; j++) {
        Binder *b = d->params.data[j];
        buf_printf(&groups, "  {%s, &%s},\n", c_str(token_text(b->name)),
                   type_desc(param_type(b)));
      }
      buf_puts(&groups, "};\n");
    }
    buf_printf(&groups, "static const McrtRuleGroup mc_%s[] = {\n", pass ? "actions" : "inits");
    for (int i = 0; i < list->len; i++) {
      Group *gr = list->data[i];
      Decl *d = gr->decl;
      buf_printf(&groups, "  {%s, %d, %s, %lluu, %lluu, mc_file, %d},\n", c_str(gr->name),
                 d->params.len,
                 d->params.len ? format("mc_params_%s", gr->body) : "NULL",
                 (unsigned long long)gr->first, (unsigned long long)gr->nbindings, d->tok->line);
    }
    if (!pass && !list->len)
      buf_printf(&groups, "  {\"default\", 0, NULL, 0, 1, mc_file, 0},\n");
    if (pass && !list->len)
      buf_puts(&groups, "  {NULL, 0, NULL, 0, 0, NULL, 0},\n");
    buf_puts(&groups, "};\n");
  }

  if (!p->inits.len)
    p->ninit_rules = 1;
  p->groups = groups;
}

// Symmetry: the scalarsets and the permutation of a state.
static void emit_symmetry_reduction(Program *prog, Parts *p) {
  int nscalarsets = 0;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_TYPE && R(d->type)->kind == TY_SCALARSET)
      nscalarsets++;
  }

  Buf sym = {0};
  // A scenario that fixes a scalarset argument tells the elements apart:
  // the checker then runs without symmetry reduction (and says why).
  int nsym = scenario_symmetric() && !symmetry_refused ? emit_symmetry(lay, &sym) : 0;
  p->nscalarsets = nscalarsets;
  p->sym = sym;
  p->nsym = nsym;
}

// The m4 definitions. Names, paths and spec text reach them only through
// c_escape (printable ASCII), so no definition holds an m4 quote; the
// template inserts every one that may hold a word with m4_defn.
static const char *net_c; // a PNML net's McrtNet table (pnml.c), or NULL

// The spec's constants after -D (and the C's for `extern const`), as lines
// `NAME=VALUE`: what the checker's build identity names when a checkpoint
// of another build is refused (runtime/context/checkpoint.c).
static const char *constants_text(Program *prog) {
  Buf b = {0};
  buf_puts(&b, "");
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind != DK_CONST || !d->obj)
      continue;
    const char *name = d->label ? d->label : token_text(d->name);
    if (R(d->obj->type)->kind == TY_BOOL)
      buf_printf(&b, "%s=%s\n", name, d->obj->val ? "true" : "false");
    else
      buf_printf(&b, "%s=%lld\n", name, (long long)d->obj->val);
  }
  return b.data;
}

// The spec's lines that hold statements, for the coverage table.
static const char *cover_table(void) {
  Buf b = {0};
  buf_puts(&b, "");
  for (int k = 0; k < cover_lines.len; k++)
    buf_printf(&b, "%s%s%d", k ? "," : "", k % 16 ? " " : "\n  ", (int)(intptr_t)cover_lines.data[k]);
  return cover_lines.len ? b.data : "0";
}

static void write_definitions(Parts *p, FILE *out) {
  Layout *layout = lay;
  fputs("m4_changecom()m4_changequote(`\xe2\x9f\xa6', `\xe2\x9f\xa7')m4_dnl\n", out);
#define DEF(name, fmt, ...) m4_define(out, name, format(fmt, __VA_ARGS__))
  DEF("MCGEN_VERSION", "%s", MCGEN_VERSION);
  DEF("MCGEN_MODEL_STR", "%s", c_str(p->model));
  DEF("MCGEN_SOURCE", "%s", c_str(src->name));
  DEF("MCGEN_SOURCE_COMMENT", "%s", c_comment_escape(src->name));
  DEF("MCGEN_SOURCE_HASH", "%016llx", (unsigned long long)bytes_hash(src->text, src->len));
  DEF("MCGEN_CONSTANTS", "%s", c_str(p->constants));
  DEF("MCGEN_EXTERN_FILES", "%s", c_str(extern_file_hashes()));
  DEF("MCGEN_STATE_BITS", "%lld", (long long)layout->state_bits);
  DEF("MCGEN_STATE_BYTES", "%lld", (long long)layout->state_bytes);
  DEF("MCGEN_NVARS", "%d", layout->vars.len);
  DEF("MCGEN_NINITS", "%d", p->inits.len ? p->inits.len : 1);
  DEF("MCGEN_NINIT_RULES", "%lluu", (unsigned long long)p->ninit_rules);
  DEF("MCGEN_NACTIONS", "%d", p->actions.len);
  DEF("MCGEN_NRULES", "%lluu", (unsigned long long)p->nrules);
  DEF("MCGEN_NINVARIANTS", "%d", p->ninv);
  DEF("MCGEN_NREACHABLES", "%d", p->nreach);
  DEF("MCGEN_NPROPERTIES", "%d", p->nprop);
  DEF("MCGEN_HAS_TERMINAL", "%s", p->nterm ? "true" : "false");
  DEF("MCGEN_HAS_CONSTRAINT", "%s", p->ncons ? "true" : "false");
  DEF("MCGEN_NSCALARSETS", "%d", p->nscalarsets);
  DEF("MCGEN_NSYM", "%d", p->nsym);
  DEF("MCGEN_SYMMETRY", "%s", p->sym.data ? p->sym.data : "");
  DEF("MCGEN_SYM_TABLE", "%s", p->nsym ? "mc_scalarsets" : "NULL");
  DEF("MCGEN_SYM_APPLY", "%s", p->nsym ? "mc_sym_apply" : "NULL");
  DEF("MCGEN_SYM_KEYS", "%s", p->nsym ? "mc_sym_keys" : "NULL");
  DEF("MCGEN_TYPES", "%s", types_out.data ? types_out.data : "");
  DEF("MCGEN_VARS", "%s", p->vars.data);
  DEF("MCGEN_ACCESSORS", "%s", p->accessors.data ? p->accessors.data : "");
  DEF("MCGEN_DEFAULT_STATE", "%s", p->defaults.data);
  DEF("MCGEN_FN_PROTOTYPES", "%s", p->fn_protos.data ? p->fn_protos.data : "");
  DEF("MCGEN_FNS", "%s", p->fns.data ? p->fns.data : "");
  DEF("MCGEN_RULES", "%s", p->rules.data ? p->rules.data : "");
  DEF("MCGEN_PREDICATES", "%s%s%s%s%s", p->preds.data ? p->preds.data : "", p->check_inv.data,
      p->check_reach.data, p->terminal.data, p->constraint.data);
  DEF("MCGEN_SEARCH", "%s", p->search.data);
  DEF("MCGEN_GROUPS", "%s", p->groups.data);
  DEF("MCGEN_INVARIANT_TABLE", "%s", p->inv_table.data ? p->inv_table.data : "  {NULL, NULL, 0},\n");
  DEF("MCGEN_REACHABLE_TABLE", "%s", p->reach_table.data ? p->reach_table.data : "  {NULL, NULL, 0},\n");
  DEF("MCGEN_PROPERTY_TABLE", "%s", p->prop_table.data ? p->prop_table.data : "  {NULL, NULL, 0},\n");
  DEF("MCGEN_NINSTANCES", "%d", p->ninst);
  DEF("MCGEN_INSTANCE_TABLE", "%s", p->inst_table.data);
  DEF("MCGEN_PROPERTY_BITS", "%s", p->bits_fn.data);
  DEF("MCGEN_NFAIRNESS", "%d", p->nfair);
  DEF("MCGEN_FAIRNESS", "%s", p->fair_tables.data);
  DEF("MCGEN_IS_ACCEPTING", "%s", p->has_accepting ? "mc_is_accepting" : "NULL");
  DEF("MCGEN_SCENARIO", "%s", scenario_active() ? c_str(scenario_name()) : "NULL");
  // Why the checker runs without symmetry reduction (NULL: it does not).
  const char *refused = "NULL";
  if (emit_symmetry(lay, &(Buf){0}) && symmetry_refused)
    refused = c_str(symmetry_refused);
  else if (emit_symmetry(lay, &(Buf){0}) && !scenario_symmetric())
    refused = c_str(format("scenario '%s' names scalarset values, which symmetry reduction "
                           "would confuse", scenario_name()));
  DEF("MCGEN_SYMMETRY_REFUSED", "%s", refused);
  DEF("MCGEN_NET", "%s", net_c ? net_c : "");
  DEF("MCGEN_NET_PTR", "%s", net_c ? "&mc_net" : "NULL");
  DEF("MCGEN_DEPS", "%s", p->deps.data);
  DEF("MCGEN_DEPS_PTR", "%s", p->has_deps ? "&mc_deps" : "NULL");
  DEF("MCGEN_NEXTERN", "%d", nexterns);
  DEF("MCGEN_EXTERNS", "%s", nexterns ? "mc_externs" : "NULL");
  DEF("MCGEN_WATCHES", "%s", p->watches.data ? p->watches.data : "");
  DEF("MCGEN_NWATCHES", "%d", p->nwatches);
  DEF("MCGEN_WATCH_TABLE", "%s", p->nwatches ? "mc_watches" : "NULL");
  DEF("MCGEN_WATCH_FN", "%s", p->nwatches ? "mc_watch" : "NULL");
  DEF("MCGEN_NCOVER", "%d", cover_lines.len);
  DEF("MCGEN_COVER_LINES", "%s", cover_table());
  DEF("MCGEN_ACTION_STEPS", "%s", p->actions.len ? "mc_action_steps" : "NULL");
#undef DEF
}

// The model as m4 definitions, one step per part of the checker.
static uint64_t nrules_emitted;

uint64_t emitted_rules(void) {
  return nrules_emitted;
}

bool emit(Program *prog, Layout *layout, FILE *out) {
  lay = layout;
  src = prog->file;
  net_c = prog->net_c;
  none_undefined = prog->none_undefined;
  symmetry_refused = prog->symmetry_refused;
  Parts p = {.model = model_name(prog), .constants = constants_text(prog)};
  covering = !net_c;
  cover_lines = (Vec){0};
  emit_state_accessors(&p);
  emit_functions(prog, &p);
  emit_enum_types(prog);
  emit_state_vars(&p);
  emit_default_state(&p);
  if (!number_rules(prog, &p))
    return false;
  nrules_emitted = p.nrules;
  emit_actions(&p);
  emit_predicates(prog, &p);
  if (!emit_liveness(prog, &p))
    return false;
  emit_search(&p);
  emit_replay(&p);
  emit_rule_groups(&p);
  emit_symmetry_reduction(prog, &p);
  p.has_deps = deps_emit(prog, lay, &p.deps);
  emit_watches(prog, &p);
  write_definitions(&p, out);
  return true;
}

// Writes the default encoding of a type at a bit offset: 0 for every type
// but a range that does not start at 0 and contains it.
static void default_bits(Type *ty, uint8_t *buf, int64_t off) {
  ty = R(ty);
  switch (ty->kind) {
  case TY_RANGE:
    if (ty->lo < 0 && ty->hi >= 0) {
      uint64_t enc = (uint64_t)(0 - ty->lo);
      for (int64_t b = 0; b < ty->width; b++)
        if (enc >> b & 1)
          buf[(off + b) / 8] |= (uint8_t)(1u << ((off + b) % 8));
    }
    return;
  case TY_ARRAY: {
    int64_t n = card_of(ty->index), w = W(ty->base);
    for (int64_t i = 0; i < n; i++)
      default_bits(ty->base, buf, off + i * w);
    return;
  }
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++)
      default_bits(ty->fields[i]->type, buf, off + ty->fields[i]->offset);
    return;
  default:
    return;
  }
}
