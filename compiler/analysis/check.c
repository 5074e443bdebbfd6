// SPDX-License-Identifier: MIT
// check.c: name resolution, types, constants and the scalarset rules.
//
// Requires parse(). Resolves every name over the whole file (declarations
// may come in any order), evaluates constants (after `-D` overrides),
// resolves and validates types, types every expression (Node.ty), and
// enforces what makes symmetry reduction sound: a scalarset value may only be
// stored, compared for equality with its own type, used as an index of an
// array indexed by its type, and bound by quantifiers, loops and parameters;
// and that no loop over a scalarset depends on the order of its elements.
// It also checks that every path of every init block assigns each state
// variable whose type holds a scalarset (those have no default).
//
// Errors are reported and checking goes on; a node whose type could not be
// determined gets TY_ERROR, which suppresses follow-on errors.
#include "mcgen.h"
#include <errno.h>

static Type ty_int_ = {.kind = TY_INT};
static Type ty_bool_ = {.kind = TY_BOOL, .name = "bool"};
static Type ty_none_ = {.kind = TY_NONE};
static Type *ty_int = &ty_int_, *ty_bool = &ty_bool_, *ty_none = &ty_none_;

//
// Scopes
//

// The global namespace: an open-addressing hash map (10,000 actions must not
// make name lookup quadratic).
static Obj **globals;
static int nglobals_cap, nglobals;
static Vec global_list; // Obj*, in declaration order (for "did you mean")

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static Obj *global_lookup(const char *name) {
  if (!nglobals_cap)
    return NULL;
  for (uint64_t i = hash_str(name) & (nglobals_cap - 1);; i = (i + 1) & (nglobals_cap - 1)) {
    if (!globals[i])
      return NULL;
    if (!strcmp(globals[i]->name, name))
      return globals[i];
  }
}

static void global_insert_raw(Obj *obj) {
  for (uint64_t i = hash_str(obj->name) & (nglobals_cap - 1);; i = (i + 1) & (nglobals_cap - 1)) {
    if (!globals[i]) {
      globals[i] = obj;
      return;
    }
  }
}

static void global_insert(Obj *obj) {
  if (2 * (nglobals + 1) > nglobals_cap) {
    Obj **old = globals;
    int oldcap = nglobals_cap;
    nglobals_cap = nglobals_cap ? 2 * nglobals_cap : 256;
    globals = xcalloc(nglobals_cap, sizeof *globals);
    for (int i = 0; i < oldcap; i++)
      if (old[i])
        global_insert_raw(old[i]);
  }
  global_insert_raw(obj);
  nglobals++;
  vec_push(&global_list, obj);
}

// Local scopes: a stack of bindings, searched from the top.
static Vec locals;        // Obj*
static int next_obj_id;

static Obj *new_obj(ObjKind kind, Token *tok) {
  Obj *obj = xcalloc(1, sizeof *obj);
  obj->kind = kind;
  obj->tok = tok;
  obj->name = tok ? token_text(tok) : "";
  obj->id = next_obj_id++;
  return obj;
}

static Obj *lookup(const char *name) {
  for (int i = locals.len - 1; i >= 0; i--) {
    Obj *obj = locals.data[i];
    if (!strcmp(obj->name, name))
      return obj;
  }
  return global_lookup(name);
}

// What other languages call mcgen's types and values (`int`, `TRUE`,
// `not(x)`): the hint for such a name when the spec declares none of it.
static const struct {
  const char *word;
  bool is_type;
  const char *hint;
} foreign_names[] = {
    {"int", true, "mcgen's integers are ranges: write 'LO..HI', e.g. '0..255'"},
    {"integer", true, "mcgen's integers are ranges: write 'LO..HI', e.g. '0..255'"},
    {"nat", true, "mcgen's integers are ranges: write 'LO..HI', e.g. '0..255'"},
    {"Int", true, "mcgen's integers are ranges: write 'LO..HI', e.g. '0..255'"},
    {"Nat", true, "mcgen's integers are ranges: write 'LO..HI', e.g. '0..255'"},
    {"boolean", true, "write 'bool'"},
    {"BOOLEAN", true, "write 'bool'"},
    {"TRUE", false, "write 'true'"},
    {"FALSE", false, "write 'false'"},
    {"not", false, "to negate, write '!'"},
};

static bool foreign_hint(const char *name, bool is_type) {
  for (size_t i = 0; i < sizeof foreign_names / sizeof *foreign_names; i++)
    if (foreign_names[i].is_type == is_type && !strcmp(foreign_names[i].word, name)) {
      hint("%s", foreign_names[i].hint);
      return true;
    }
  return false;
}

static void suggest(const char *name, bool values_only) {
  if (foreign_hint(name, false))
    return;
  Vec names = {0};
  for (int i = locals.len - 1; i >= 0; i--)
    vec_push(&names, (void *)((Obj *)locals.data[i])->name);
  for (int i = 0; i < global_list.len; i++) {
    Obj *obj = global_list.data[i];
    if (values_only && (obj->kind == OBJ_TYPE || obj->kind == OBJ_ACTION ||
                        obj->kind == OBJ_INIT || obj->kind == OBJ_PREDICATE))
      continue;
    vec_push(&names, (void *)obj->name);
  }
  const char *best = closest_name(name, (const char *const *)names.data, names.len);
  if (best)
    hint("did you mean '%s'?", best);
}

static void push_local(Obj *obj) {
  Obj *prev = lookup(obj->name);
  if (prev && prev->kind != OBJ_VAR && prev->kind != OBJ_CONST && prev->kind != OBJ_FN &&
      prev->kind != OBJ_TYPE && prev->kind != OBJ_ENUM_MEMBER && prev->kind != OBJ_ACTION &&
      prev->kind != OBJ_INIT && prev->kind != OBJ_PREDICATE) {
    error_at(obj->tok, "'%s' is already bound here", obj->name);
    note_at(prev->tok, "previous binding of '%s'", obj->name);
  } else if (prev) {
    error_at(obj->tok, "'%s' hides the top-level name declared here; choose another name",
             obj->name);
    note_at(prev->tok, "'%s' declared here", obj->name);
  }
  vec_push(&locals, obj);
}

//
// Types
//

static bool is_intlike(const Type *ty) { return ty->kind == TY_INT || ty->kind == TY_RANGE; }

// Optional types read as their base wherever a base value is expected.
static Type *unopt(Type *ty) { return ty->kind == TY_OPTIONAL ? resolve(ty->base) : ty; }

static bool is_collection(const Type *ty) {
  return ty->kind == TY_SET || ty->kind == TY_MULTISET || ty->kind == TY_QUEUE;
}

// Structural equality, with enums and scalarsets nominal. Composite values
// are copied bit for bit, so element types must encode identically.
static bool same_type(Type *a, Type *b) {
  a = resolve(a), b = resolve(b);
  if (a == b)
    return true;
  if (a->kind == TY_ERROR || b->kind == TY_ERROR)
    return true;
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_BOOL:
  case TY_INT:
    return true;
  case TY_RANGE:
    return a->lo == b->lo && a->hi == b->hi;
  case TY_ENUM:
  case TY_SCALARSET:
    return false;
  case TY_OPTIONAL:
  case TY_SET:
    return same_type(a->base, b->base);
  case TY_MULTISET:
  case TY_QUEUE:
    return a->size == b->size && same_type(a->base, b->base);
  case TY_ARRAY:
    return same_type(a->index, b->index) && same_type(a->base, b->base);
  case TY_RECORD:
    if (a->nfields != b->nfields)
      return false;
    for (int i = 0; i < a->nfields; i++)
      if (strcmp(token_text(a->fields[i]->name), token_text(b->fields[i]->name)) ||
          !same_type(a->fields[i]->type, b->fields[i]->type))
        return false;
    return true;
  default:
    return false;
  }
}

// Whether a value of type `src` may be stored where `dst` is expected
// (assignment, argument, index, element). Range checks happen at run time;
// a `T?` stands for a T with a run-time check.
static bool assignable(Type *dst, Type *src) {
  dst = resolve(dst), src = resolve(src);
  if (dst->kind == TY_ERROR || src->kind == TY_ERROR)
    return true;
  if (dst->kind == TY_OPTIONAL) {
    if (src->kind == TY_NONE)
      return true;
    if (src->kind == TY_OPTIONAL)
      return assignable(dst->base, src->base);
    return assignable(dst->base, src);
  }
  src = unopt(src);
  if (is_intlike(dst))
    return is_intlike(src);
  if (dst->kind == TY_BOOL)
    return src->kind == TY_BOOL;
  if (dst->kind == TY_ENUM || dst->kind == TY_SCALARSET)
    return dst == src;
  return same_type(dst, src);
}

// Whether a state variable of this type has no default (holds a
// non-optional scalarset outside any collection).
static bool needs_init(Type *ty) {
  ty = resolve(ty);
  switch (ty->kind) {
  case TY_SCALARSET:
    return true;
  case TY_ARRAY:
    return needs_init(ty->base);
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++)
      if (needs_init(ty->fields[i]->type))
        return true;
    return false;
  default:
    return false;
  }
}

//
// Constants
//

static Program *prog;
static Define *defines;
static int ndefines;
static bool *define_used;

static void check_expr(Node *node);
static int64_t const_value(Node *expr, const char *what);

// Evaluates a const declaration on first use; detects cycles.
static void eval_const_decl(Obj *obj) {
  Decl *decl = obj->decl;
  if (decl->index == -2)
    return; // done
  if (decl->index == -1) {
    error_at(decl->name, "constant '%s' is defined in terms of itself", obj->name);
    obj->type = ty_error;
    return;
  }
  decl->index = -1;
  check_expr(decl->expr); // the written value is checked, overridden or not
  // A -D override replaces the written value; a bad one is reported once and
  // the written value stands in for it, so that its uses raise nothing more.
  for (int i = 0; i < ndefines; i++) {
    if (strcmp(defines[i].name, obj->name))
      continue;
    define_used[i] = true;
    const char *v = defines[i].value;
    char *end;
    bool is_bool = !strcmp(v, "true") || !strcmp(v, "false");
    errno = 0;
    long long n = is_bool ? !strcmp(v, "true") : strtoll(v, &end, 10);
    Type *wt = resolve(decl->expr->ty);
    if (!is_bool && (!*v || *end)) {
      error_at(decl->name, "-D %s=%s: the value must be an integer, true or false",
               defines[i].name, v);
    } else if (!is_bool && errno == ERANGE) { // strtoll clamped it
      error_at(decl->name, "-D %s=%s: integer literal too large", defines[i].name, v);
    } else if (wt->kind != TY_ERROR && (wt->kind == TY_BOOL) != is_bool) {
      error_at(decl->name, "-D %s=%s: constant '%s' is %s, not %s", defines[i].name, v,
               obj->name, wt->kind == TY_BOOL ? "a bool" : "an integer",
               is_bool ? "a bool" : "an integer");
    } else {
      obj->type = is_bool ? ty_bool : ty_int, obj->val = n;
      decl->index = -2;
      return;
    }
    break;
  }
  Type *ty = resolve(decl->expr->ty);
  if (ty->kind == TY_ERROR) {
    obj->type = ty_error;
  } else if (!decl->expr->is_const) {
    error_at(decl->expr->tok, "the value of constant '%s' must be a constant expression",
             obj->name);
    obj->type = ty_error;
  } else if (ty->kind == TY_BOOL) {
    obj->type = ty_bool, obj->val = decl->expr->val;
  } else if (is_intlike(ty)) {
    obj->type = ty_int, obj->val = decl->expr->val;
  } else {
    error_at(decl->expr->tok, "constant '%s' must be an integer or a bool, not %s", obj->name,
             type_name(ty));
    obj->type = ty_error;
  }
  decl->index = -2;
}

// The value of a constant integer expression (type bounds, sizes).
static int64_t const_value(Node *expr, const char *what) {
  check_expr(expr);
  Type *ty = resolve(expr->ty);
  if (ty->kind == TY_ERROR)
    return 0;
  if (!is_intlike(ty)) {
    error_at(expr->tok, "%s must be an integer, not %s", what, type_name(ty));
    return 0;
  }
  if (!expr->is_const) {
    error_at(expr->tok, "%s must be a constant expression", what);
    return 0;
  }
  return expr->val;
}

//
// Type resolution
//

static void resolve_type(Type *ty);

// Resolves a type alias on first use; detects cycles.
static void resolve_alias(Obj *obj) {
  Decl *decl = obj->decl;
  if (decl->index == -2)
    return;
  if (decl->index == -1) {
    error_at(decl->name, "type '%s' is defined in terms of itself", obj->name);
    decl->type = ty_error;
    obj->type = ty_error;
    return;
  }
  decl->index = -1;
  Type *ty = decl->type;
  if (!ty->name && ty->kind != TY_NAMED)
    ty->name = obj->name;
  resolve_type(ty);
  obj->type = ty;
  decl->index = -2;
}

static const int64_t MAX_CARD = 1 << 20;

// Generated code holds a T? as an int64_t with INT64_MIN for none, so a
// range under `?` must leave INT64_MIN out.
static void check_optional_range(Type *base, Token *tok) {
  if (base->kind != TY_RANGE || base->lo != INT64_MIN)
    return;
  error_at(tok, "an optional range cannot include -9223372036854775808: mcgen represents none by "
                "that value");
  hint("start the range at -9223372036854775807");
}

static void resolve_type(Type *ty) {
  switch (ty->kind) {
  case TY_BOOL:
  case TY_INT:
  case TY_NONE:
  case TY_ERROR:
  case TY_STRING:
    return;
  case TY_NAMED: {
    if (ty->target)
      return;
    const char *name = token_text(ty->ref);
    Obj *obj = global_lookup(name);
    if (!obj) {
      error_at(ty->ref, "unknown type '%s'", name);
      Vec names = {0};
      for (int i = 0; i < global_list.len; i++)
        if (((Obj *)global_list.data[i])->kind == OBJ_TYPE)
          vec_push(&names, (void *)((Obj *)global_list.data[i])->name);
      const char *builtin[] = {"bool"};
      const char *best = closest_name(name, (const char *const *)names.data, names.len);
      if (!best)
        best = closest_name(name, builtin, 1);
      if (best)
        hint("did you mean '%s'?", best);
      else
        foreign_hint(name, true);
      ty->target = ty_error;
      return;
    }
    if (obj->kind != OBJ_TYPE) {
      error_at(ty->ref, "'%s' is not a type", name);
      ty->target = ty_error;
      return;
    }
    resolve_alias(obj);
    ty->target = obj->decl->type;
    if (resolve(ty)->kind == TY_ERROR)
      ty->target = ty_error;
    return;
  }
  case TY_RANGE:
    ty->lo = const_value(ty->lo_expr, "a range bound");
    ty->hi = const_value(ty->hi_expr, "a range bound");
    if (ty->lo > ty->hi) {
      error_at(ty->tok, "empty range %lld..%lld", (long long)ty->lo, (long long)ty->hi);
      ty->hi = ty->lo;
      ty->made_up = true;
    }
    return;
  case TY_ENUM:
    return; // members were registered by collect_type
  case TY_SCALARSET:
    ty->size = const_value(ty->size_expr, "the size of a scalarset");
    if (ty->size < 1 || ty->size > MAX_CARD) {
      error_at(ty->size_expr->tok, "the size of a scalarset must be between 1 and %lld, not %lld",
               (long long)MAX_CARD, (long long)ty->size);
      ty->size = 1;
    }
    return;
  case TY_OPTIONAL: {
    resolve_type(ty->base);
    Type *base = resolve(ty->base);
    if (base->kind != TY_ERROR && !is_scalar(base))
      error_at(ty->tok, "an optional type must be of bool, a range, an enum or a scalarset, not %s",
               type_name(base));
    else
      check_optional_range(base, base->tok ? base->tok : ty->tok);
    return;
  }
  case TY_ARRAY: {
    resolve_type(ty->index);
    resolve_type(ty->base);
    Type *index = resolve(ty->index);
    if (index->kind != TY_ERROR && !is_scalar(index))
      error_at(ty->index->tok ? ty->index->tok : ty->tok,
               "an array index must be bool, a range, an enum or a scalarset, not %s",
               type_name(index));
    return;
  }
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++) {
      for (int j = 0; j < i; j++)
        if (equal(ty->fields[i]->name, token_text(ty->fields[j]->name))) {
          error_at(ty->fields[i]->name, "duplicate field '%s'", token_text(ty->fields[i]->name));
          note_at(ty->fields[j]->name, "first declared here");
        }
      resolve_type(ty->fields[i]->type);
    }
    return;
  case TY_SET:
  case TY_MULTISET:
  case TY_QUEUE: {
    resolve_type(ty->base);
    if (ty->kind != TY_SET) {
      ty->size = const_value(ty->cap_expr, "a capacity");
      if (ty->size < 1 || ty->size > 4096) {
        error_at(ty->cap_expr->tok, "a capacity must be between 1 and 4096, not %lld",
                 (long long)ty->size);
        ty->size = 1;
      }
    }
    Type *base = resolve(ty->base);
    if (base->kind == TY_ERROR)
      return;
    if (is_collection(base))
      error_at(ty->tok, "collections of collections are not supported");
    else if (ty->kind == TY_SET && !is_scalar(base) && base->kind != TY_RECORD)
      error_at(ty->tok, "the elements of a set must be bool, a range, an enum, a scalarset or a "
                        "record of those, not %s", type_name(base));
    return;
  }
  }
}

// Registers enum members found anywhere inside a type written at the top
// level (enum members share the file's one namespace).
static void declare_global(Obj *obj);

// Calls fn on every enum written inside ty (type names are not followed).
static void for_each_enum(Type *ty, void (*fn)(Type *enum_type)) {
  if (!ty)
    return;
  switch (ty->kind) {
  case TY_ENUM:
    fn(ty);
    return;
  case TY_OPTIONAL:
  case TY_SET:
  case TY_MULTISET:
  case TY_QUEUE:
    for_each_enum(ty->base, fn);
    return;
  case TY_ARRAY:
    for_each_enum(ty->index, fn);
    for_each_enum(ty->base, fn);
    return;
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++)
      for_each_enum(ty->fields[i]->type, fn);
    return;
  default:
    return;
  }
}

static void declare_members(Type *ty) {
  if (ty->member_objs)
    return;
  vec_push(&prog->enums, ty);
  ty->member_objs = xcalloc(ty->members.len, sizeof(Obj *));
  for (int i = 0; i < ty->members.len; i++) {
    Token *tok = ty->members.data[i];
    Obj *obj = new_obj(OBJ_ENUM_MEMBER, tok);
    obj->enum_type = ty;
    obj->type = ty;
    obj->index = i;
    ty->member_objs[i] = obj;
    declare_global(obj);
  }
}

static void collect_type(Type *ty) { for_each_enum(ty, declare_members); }

static void declare_global(Obj *obj) {
  Obj *prev = global_lookup(obj->name);
  if (prev) {
    // Enum members are declared after the top-level names: blame whichever
    // of the two comes later in the file.
    Token *first = prev->tok, *second = obj->tok;
    if (first && second && first->loc > second->loc)
      first = obj->tok, second = prev->tok;
    error_at(second, "duplicate name '%s'", obj->name);
    note_at(first, "'%s' first declared here", obj->name);
    return;
  }
  global_insert(obj);
}

//
// Expressions
//

// What the code being checked may do.
typedef enum {
  CTX_CONST,     // constant expressions (types, const values): no state
  CTX_READ,      // guards, predicates, `when`: reads state
  CTX_FN,        // fn bodies: reads state, writes only locals
  CTX_ACTION,    // action and init bodies: reads and writes state
} Context;

static Context ctx = CTX_CONST;
static Decl *cur_decl;      // the declaration being checked
static int depth;           // nesting guard (a chain `a + b + c` counts once)
static int levels;          // tree depth, chains included: every later stage
                            // recurses once per level, so it is bounded too
static bool too_deep;       // reported for the expression being checked

// The most levels an expression tree may have: with a chain of N operands
// (one level each) a stage recurses N deep, and the generated C nests N
// deep. 5000 levels fit the default 8 MiB stack in every stage, even under
// AddressSanitizer.
// MAX_NESTING stays under 256 with room to spare: clang refuses C with
// more than 256 nested brackets, and each level of nesting that is not a
// chain becomes at least one pair of parentheses in the generated C.
enum { MAX_NESTING = 240, MAX_LEVELS = 5000 };

static Node *set_type(Node *node, Type *ty) {
  node->ty = ty;
  return node;
}

static bool is_error(Node *node) { return resolve(node->ty)->kind == TY_ERROR; }

static const char *op_text(Op op) { return op_info[op].spelling; }

// Requires a bool operand.
static void want_bool(Node *node, const char *what) {
  if (is_error(node))
    return;
  Type *ty = unopt(resolve(node->ty));
  if (ty->kind != TY_BOOL)
    error_at(node->tok, "%s must be a bool, not %s", what, type_name(resolve(node->ty)));
}

// Requires an integer operand; names the scalarset rule when it applies.
static bool want_int(Node *node, const char *what) {
  if (is_error(node))
    return false;
  Type *ty = unopt(resolve(node->ty));
  if (ty->kind == TY_SCALARSET) {
    error_at(node->tok, "a scalarset value (%s) cannot be used in arithmetic", type_name(ty));
    hint("scalarset elements are interchangeable: they have no numeric value");
    return false;
  }
  if (!is_intlike(ty)) {
    error_at(node->tok, "%s must be an integer, not %s", what, type_name(resolve(node->ty)));
    return false;
  }
  return true;
}

static bool fold(Op op, int64_t a, int64_t b, int64_t *out, Token *tok) {
  switch (op) {
  case OP_ADD:
    if (__builtin_add_overflow(a, b, out)) goto overflow;
    return true;
  case OP_SUB:
    if (__builtin_sub_overflow(a, b, out)) goto overflow;
    return true;
  case OP_MUL:
    if (__builtin_mul_overflow(a, b, out)) goto overflow;
    return true;
  case OP_DIV:
  case OP_MOD:
    if (b == 0) {
      error_at(tok, "division by zero in a constant expression");
      return false;
    }
    if (a == INT64_MIN && b == -1) { // INT64_MIN / -1 overflows; the remainder is 0
      if (op == OP_DIV) goto overflow;
      *out = 0;
      return true;
    }
    *out = op == OP_DIV ? a / b : a % b;
    return true;
  case OP_EQ: *out = a == b; return true;
  case OP_NE: *out = a != b; return true;
  case OP_LT: *out = a < b; return true;
  case OP_LE: *out = a <= b; return true;
  case OP_GT: *out = a > b; return true;
  case OP_GE: *out = a >= b; return true;
  case OP_AND: *out = a && b; return true;
  case OP_OR: *out = a || b; return true;
  case OP_IMPLIES: *out = !a || b; return true;
  case OP_IFF: *out = !a == !b; return true;
  case OP_BAND: *out = a & b; return true;
  case OP_BOR: *out = a | b; return true;
  case OP_BXOR: *out = a ^ b; return true;
  case OP_SHL: *out = b < 0 || b > 62 ? 0 : (int64_t)((uint64_t)a << b); return true;
  case OP_SHR: *out = b < 0 || b > 63 ? (a < 0 ? -1 : 0) : a >> b; return true;
  default:
    return false;
  }
overflow:
  error_at(tok, "integer overflow in a constant expression");
  return false;
}

// Whether two operand types may be compared with == / !=.
static bool comparable(Type *a, Type *b) {
  a = resolve(a), b = resolve(b);
  if (a->kind == TY_NONE)
    return b->kind == TY_OPTIONAL || b->kind == TY_NONE;
  if (b->kind == TY_NONE)
    return a->kind == TY_OPTIONAL;
  Type *ua = unopt(a), *ub = unopt(b);
  if (is_intlike(ua) && is_intlike(ub))
    return true;
  if (ua->kind == TY_BOOL && ub->kind == TY_BOOL)
    return true;
  if ((ua->kind == TY_ENUM || ua->kind == TY_SCALARSET) && ua == ub)
    return true;
  if (a->kind == TY_OPTIONAL || b->kind == TY_OPTIONAL)
    return false;
  return !is_scalar(a) && same_type(a, b);
}

static void check_binders(Vec *binders, bool action_params);
static void pop_binders(Vec *binders);

static void check_binary(Node *node) {
  // A chain `a + b + c` (parsed with a loop) is a left spine, not nesting:
  // its left operand is at the same depth; so is the right one of `a -> b ->
  // c`, folded from the right.
  bool chain = node->lhs->kind == ND_BINARY;
  depth -= chain;
  check_expr(node->lhs);
  depth += chain;
  chain = node->op == OP_IMPLIES && node->rhs->kind == ND_BINARY && node->rhs->op == OP_IMPLIES;
  depth -= chain;
  check_expr(node->rhs);
  depth += chain;
  Node *l = node->lhs, *r = node->rhs;
  if (is_error(l) || is_error(r)) {
    // Propagate the error: a result typed int/bool but not constant would
    // make a constant context report a second, spurious error.
    set_type(node, ty_error);
    return;
  }
  Type *lt = resolve(l->ty), *rt = resolve(r->ty);
  switch (op_info[node->op].cls) {
  case OPC_ARITH: {
    bool ok = want_int(l, format("the left operand of '%s'", op_text(node->op)));
    ok &= want_int(r, format("the right operand of '%s'", op_text(node->op)));
    set_type(node, ok ? ty_int : ty_error);
    if (ok && l->is_const && r->is_const) {
      node->is_const = fold(node->op, l->val, r->val, &node->val, node->tok);
      if (!node->is_const)
        set_type(node, ty_error); // division by zero or overflow, reported
    }
    return;
  }
  case OPC_ORDER: {
    set_type(node, ty_bool);
    Type *ul = unopt(lt), *ur = unopt(rt);
    if (ul->kind == TY_SCALARSET || ur->kind == TY_SCALARSET) {
      error_at(node->tok, "scalarset values cannot be ordered with '%s'", op_text(node->op));
      hint("only == and != compare scalarset values; order would break symmetry");
      return;
    }
    if (ul->kind == TY_ENUM && ul == ur)
      return;
    bool lok = want_int(l, format("the left operand of '%s'", op_text(node->op)));
    bool rok = want_int(r, format("the right operand of '%s'", op_text(node->op)));
    if (!lok || !rok)
      return;
    if (l->is_const && r->is_const)
      node->is_const = fold(node->op, l->val, r->val, &node->val, node->tok);
    return;
  }
  case OPC_EQUAL:
    set_type(node, ty_bool);
    if (!comparable(lt, rt)) {
      error_at(node->tok, "cannot compare %s with %s", type_name(lt), type_name(rt));
      return;
    }
    if (l->is_const && r->is_const)
      node->is_const = fold(node->op, l->val, r->val, &node->val, node->tok);
    return;
  case OPC_LOGIC:
    set_type(node, ty_bool);
    want_bool(l, format("the left operand of '%s'", op_text(node->op)));
    want_bool(r, format("the right operand of '%s'", op_text(node->op)));
    if (l->is_const && r->is_const)
      node->is_const = fold(node->op, l->val, r->val, &node->val, node->tok);
    return;
  case OPC_MEMBER:
    set_type(node, ty_bool);
    if (!is_collection(rt)) {
      error_at(r->tok, "the right operand of 'in' must be a set, multiset or queue, not %s",
               type_name(rt));
      return;
    }
    if (!assignable(rt->base, lt))
      error_at(l->tok, "%s cannot be an element of %s", type_name(lt), type_name(rt));
    return;
  default:
    unreachable();
  }
}

// Checks `lhs.name(args)`. Mutating methods are statements; `pop` is also
// allowed as the whole right-hand side of a statement (checked by the caller
// through `allow_pop`).
static bool allow_pop;
static bool stmt_position; // the method call is a whole statement

static void check_lvalue(Node *node, const char *what);

static void check_method(Node *node) {
  const char *name = token_text(node->name);
  bool pop_ok = allow_pop, whole_stmt = stmt_position;
  allow_pop = stmt_position = false;
  check_expr(node->lhs);
  for (int i = 0; i < node->args.len; i++)
    check_expr(node->args.data[i]);
  set_type(node, ty_error);
  if (is_error(node->lhs))
    return;
  Type *recv = resolve(node->lhs->ty);
  static const struct {
    const char *name;
    int nargs;
    bool mutates;
    unsigned kinds; // bit per TypeKind accepted
  } methods[] = {
      {"len", 0, false, 1u << TY_SET | 1u << TY_MULTISET | 1u << TY_QUEUE},
      {"head", 0, false, 1u << TY_QUEUE},
      {"pop", 0, true, 1u << TY_QUEUE},
      {"empty", 0, false, 1u << TY_SET | 1u << TY_MULTISET | 1u << TY_QUEUE},
      {"full", 0, false, 1u << TY_MULTISET | 1u << TY_QUEUE},
      {"count", 1, false, 1u << TY_SET | 1u << TY_MULTISET | 1u << TY_QUEUE},
      {"push", 1, true, 1u << TY_QUEUE},
      {"add", 1, true, 1u << TY_SET | 1u << TY_MULTISET},
      {"remove", 1, true, 1u << TY_SET | 1u << TY_MULTISET},
      {"clear", 0, true, 1u << TY_SET | 1u << TY_MULTISET | 1u << TY_QUEUE},
  };
  int m = -1;
  for (int i = 0; i < (int)(sizeof methods / sizeof methods[0]); i++)
    if (!strcmp(methods[i].name, name))
      m = i;
  if (m < 0) {
    error_at(node->name, "unknown method '%s'", name);
    const char *names[sizeof methods / sizeof methods[0]];
    for (int i = 0; i < (int)(sizeof methods / sizeof methods[0]); i++)
      names[i] = methods[i].name;
    const char *best = closest_name(name, names, sizeof methods / sizeof methods[0]);
    if (best)
      hint("did you mean '%s'?", best);
    return;
  }
  if (!(methods[m].kinds & (1u << recv->kind))) {
    error_at(node->name, "%s has no method '%s'", type_name(recv), name);
    if (recv->kind == TY_QUEUE && !strcmp(name, "add"))
      hint("a queue is updated with push() and pop()");
    else if ((recv->kind == TY_SET || recv->kind == TY_MULTISET) &&
             (!strcmp(name, "push") || !strcmp(name, "pop") || !strcmp(name, "head")))
      hint("a set or multiset is updated with add() and remove()");
    return;
  }
  if (node->args.len != methods[m].nargs) {
    error_at(node->name, "'%s' takes %d argument%s, not %d", name, methods[m].nargs,
             methods[m].nargs == 1 ? "" : "s", node->args.len);
    return;
  }
  if (methods[m].nargs == 1) {
    Node *arg = node->args.data[0];
    if (!is_error(arg) && !assignable(recv->base, arg->ty)) {
      error_at(arg->tok, "%s cannot be an element of %s", type_name(resolve(arg->ty)),
               type_name(recv));
      return;
    }
  }
  if (methods[m].mutates) {
    if (!strcmp(name, "pop") && !pop_ok) {
      error_at(node->name, "pop() changes the queue: use it only as a statement, or as the whole "
                           "right-hand side of an assignment, let or var, in an action or init "
                           "block");
      return;
    }
    check_lvalue(node->lhs, format("the receiver of %s()", name));
  }
  stmt_position = whole_stmt;
  if (!strcmp(name, "len") || !strcmp(name, "count"))
    set_type(node, ty_int);
  else if (!strcmp(name, "empty") || !strcmp(name, "full"))
    set_type(node, ty_bool);
  else if (!strcmp(name, "head") || !strcmp(name, "pop"))
    set_type(node, recv->base);
  else if (stmt_position)
    set_type(node, NULL); // statement-only methods have no value
  else
    error_at(node->name, "%s() changes the collection and has no value: use it as a statement",
             name);
}

static void check_call(Node *node) {
  const char *name = token_text(node->name);
  for (int i = 0; i < node->args.len; i++)
    check_expr(node->args.data[i]);
  set_type(node, ty_error);
  Obj *obj = lookup(name);
  if (!obj) {
    error_at(node->name, "unknown function '%s'", name);
    suggest(name, true);
    return;
  }
  if (obj->kind != OBJ_FN) {
    error_at(node->name, "'%s' is not a function", name);
    return;
  }
  node->obj = obj;
  Decl *fn = obj->decl;
  if (ctx == CTX_CONST) {
    error_at(node->name, "a function call is not a constant expression");
    return;
  }
  if (node->args.len != fn->params.len) {
    error_at(node->name, "'%s' takes %d argument%s, not %d", name, fn->params.len,
             fn->params.len == 1 ? "" : "s", node->args.len);
    note_at(fn->name, "'%s' declared here", name);
    return;
  }
  for (int i = 0; i < node->args.len; i++) {
    Node *arg = node->args.data[i];
    Binder *b = fn->params.data[i];
    if (!is_error(arg) && (!arg->ty || !assignable(b->type, arg->ty)))
      error_at(arg->tok, "argument %d of '%s' must be %s, not %s", i + 1, name,
               type_name(resolve(b->type)), type_name(arg->ty ? resolve(arg->ty) : NULL));
  }
  set_type(node, fn->type);
}

static void check_index(Node *node) {
  check_expr(node->lhs);
  check_expr(node->rhs);
  set_type(node, ty_error);
  if (is_error(node->lhs) || is_error(node->rhs))
    return;
  Type *arr = resolve(node->lhs->ty);
  if (arr->kind != TY_ARRAY) {
    error_at(node->tok, "only arrays can be indexed, not %s", type_name(arr));
    return;
  }
  set_type(node, arr->base);
  Type *index = resolve(arr->index), *it = resolve(node->rhs->ty);
  if (!it) {
    error_at(node->rhs->tok, "an index must have a value");
    return;
  }
  Type *uit = unopt(it);
  if (index->kind == TY_SCALARSET || uit->kind == TY_SCALARSET) {
    if (uit != index) {
      error_at(node->rhs->tok, "an array indexed by %s cannot be indexed by %s",
               type_name(index), type_name(it));
      if (uit->kind == TY_SCALARSET)
        hint("a scalarset value may only index arrays indexed by its own type");
      else
        hint("scalarset elements have no literals or numbers: index with a parameter, "
             "a loop variable or a stored value of type %s", type_name(index));
    }
    return;
  }
  if (!assignable(index, it))
    error_at(node->rhs->tok, "an array indexed by %s cannot be indexed by %s", type_name(index),
             type_name(it));
  else if (node->rhs->is_const && index->kind == TY_RANGE && !index->made_up &&
           !prog->range_checks_at_run_time &&
           (node->rhs->val < index->lo || node->rhs->val > index->hi))
    error_at(node->rhs->tok, "index %lld is out of range %lld..%lld", (long long)node->rhs->val,
             (long long)index->lo, (long long)index->hi);
}

static void check_field(Node *node) {
  check_expr(node->lhs);
  set_type(node, ty_error);
  if (is_error(node->lhs))
    return;
  Type *rec = resolve(node->lhs->ty);
  const char *name = token_text(node->name);
  if (rec->kind != TY_RECORD) {
    error_at(node->name, "%s has no field '%s'", type_name(rec), name);
    return;
  }
  for (int i = 0; i < rec->nfields; i++) {
    if (equal(rec->fields[i]->name, name)) {
      node->field = rec->fields[i];
      set_type(node, rec->fields[i]->type);
      return;
    }
  }
  error_at(node->name, "%s has no field '%s'", type_name(rec), name);
  const char **names = xcalloc(rec->nfields + 1, sizeof *names);
  for (int i = 0; i < rec->nfields; i++)
    names[i] = token_text(rec->fields[i]->name);
  const char *best = closest_name(name, names, rec->nfields);
  if (best)
    hint("did you mean '%s'?", best);
}

static void check_record_lit(Node *node) {
  const char *name = token_text(node->name);
  for (int i = 0; i < node->args.len; i++)
    check_expr(node->args.data[i]);
  set_type(node, ty_error);
  Obj *obj = global_lookup(name);
  if (!obj || obj->kind != OBJ_TYPE) {
    error_at(node->name, obj ? "'%s' is not a record type" : "unknown record type '%s'", name);
    return;
  }
  resolve_alias(obj);
  Type *rec = resolve(obj->decl->type);
  if (rec->kind == TY_ERROR)
    return;
  if (rec->kind != TY_RECORD) {
    error_at(node->name, "'%s' is %s, not a record type", name, type_name(rec));
    return;
  }
  set_type(node, obj->decl->type);
  // node->field is unused here; the emitter matches names to fields.
  for (int i = 0; i < node->fnames.len; i++) {
    Token *fname = node->fnames.data[i];
    Field *field = NULL;
    for (int j = 0; j < rec->nfields; j++)
      if (equal(rec->fields[j]->name, token_text(fname)))
        field = rec->fields[j];
    if (!field) {
      error_at(fname, "record '%s' has no field '%s'", name, token_text(fname));
      continue;
    }
    for (int j = 0; j < i; j++)
      if (equal(node->fnames.data[j], token_text(fname)))
        error_at(fname, "field '%s' given twice", token_text(fname));
    Node *arg = node->args.data[i];
    if (!is_error(arg) && (!arg->ty || !assignable(field->type, arg->ty)))
      error_at(arg->tok, "field '%s' is %s, not %s", token_text(fname),
               type_name(resolve(field->type)), type_name(arg->ty ? resolve(arg->ty) : NULL));
  }
  for (int j = 0; j < rec->nfields; j++) {
    bool given = false;
    for (int i = 0; i < node->fnames.len; i++)
      given |= equal(node->fnames.data[i], token_text(rec->fields[j]->name));
    if (!given)
      error_at(node->name, "field '%s' of '%s' is not given", token_text(rec->fields[j]->name),
               name);
  }
}

static void check_ident(Node *node) {
  const char *name = token_text(node->name ? node->name : node->tok);
  Obj *obj = lookup(name);
  set_type(node, ty_error);
  if (!obj) {
    error_at(node->tok, "unknown name '%s'", name);
    suggest(name, true);
    return;
  }
  node->obj = obj;
  switch (obj->kind) {
  case OBJ_CONST:
    eval_const_decl(obj);
    set_type(node, obj->type);
    node->is_const = obj->type != ty_error;
    node->val = obj->val;
    return;
  case OBJ_ENUM_MEMBER:
    set_type(node, obj->type);
    node->is_const = true;
    node->val = obj->index;
    return;
  case OBJ_VAR:
    if (ctx == CTX_CONST) {
      error_at(node->tok, "state variable '%s' cannot be used in a constant expression", name);
      return;
    }
    set_type(node, obj->type);
    return;
  case OBJ_PARAM:
  case OBJ_LOCAL:
    set_type(node, obj->type);
    return;
  case OBJ_TYPE:
    error_at(node->tok, "'%s' is a type, not a value", name);
    return;
  case OBJ_FN:
    error_at(node->tok, "function '%s' must be called: %s(...)", name, name);
    return;
  case OBJ_ACTION:
  case OBJ_INIT:
  case OBJ_PREDICATE:
    error_at(node->tok, "'%s' is not a value", name);
    return;
  }
}

static void check_quant(Node *node) {
  check_binders(&node->binders, false);
  check_expr(node->body);
  pop_binders(&node->binders);
  switch (node->op) {
  case OP_FORALL:
  case OP_EXISTS:
    want_bool(node->body, format("the body of '%s'", op_text(node->op)));
    set_type(node, ty_bool);
    return;
  case OP_COUNT:
    want_bool(node->body, "the body of 'count'");
    set_type(node, ty_int);
    return;
  case OP_SUM:
    want_int(node->body, "the body of 'sum'");
    set_type(node, ty_int);
    return;
  default:
    unreachable();
  }
}

static void check_expr_kind(Node *node);

// Types an expression. A node inside which an error was reported gets
// TY_ERROR, so that its consumers report nothing more about it.
static void check_expr(Node *node) {
  int errors_before = error_count();
  check_expr_kind(node);
  if (error_count() != errors_before && node->ty) {
    node->ty = ty_error;
    node->is_const = false;
  }
}

// The type of `c ? a : b`. When one branch may be none, so may the whole
// (a T and a none give T?); integers of different ranges give an integer
// (the emitter bounds it by the union of the branches).
static Type *cond_type(Node *node, Type *a, Type *b) {
  Type *ra = resolve(a), *rb = resolve(b);
  if (ra->kind == TY_NONE && rb->kind == TY_NONE) {
    error_at(node->tok, "the type of '?:' is unknown: both branches are none");
    return ty_error;
  }
  if (ra->kind == TY_NONE || rb->kind == TY_NONE) {
    Type *other = ra->kind == TY_NONE ? b : a, *ro = resolve(other);
    Node *onode = ra->kind == TY_NONE ? node->els : node->then;
    if (ro->kind == TY_OPTIONAL)
      return other;
    if (ro->kind == TY_INT && onode->is_const) {
      // `c ? none : 2`: an optional of the one-value range 2..2 (a value is
      // range-checked where it is stored).
      Type *one = xcalloc(1, sizeof *one);
      one->kind = TY_RANGE;
      one->tok = onode->tok;
      one->lo = one->hi = onode->val;
      other = one, ro = one;
    }
    if (is_scalar(ro) && ro->kind != TY_INT) {
      check_optional_range(ro, onode->tok);
      Type *opt = xcalloc(1, sizeof *opt);
      opt->kind = TY_OPTIONAL;
      opt->tok = node->tok;
      opt->base = other;
      return opt;
    }
    error_at(node->tok, "'?:' mixes none with %s, which cannot be optional", type_name(ro));
    hint("give the other branch a type that can be optional, e.g. through a variable of "
         "a range type");
    return ty_error;
  }
  Type *ua = unopt(ra), *ub = unopt(rb);
  bool optional = ra->kind == TY_OPTIONAL || rb->kind == TY_OPTIONAL;
  if (is_intlike(ua) && is_intlike(ub))
    return optional ? (ra->kind == TY_OPTIONAL ? a : b) : ty_int;
  if (is_scalar(ua) && ua == ub) // the same bool, enum or scalarset
    return optional ? (ra->kind == TY_OPTIONAL ? a : b) : a;
  if (ua->kind == TY_BOOL && ub->kind == TY_BOOL)
    return optional ? (ra->kind == TY_OPTIONAL ? a : b) : ty_bool;
  if (!optional && !is_scalar(ra) && same_type(a, b))
    return a;
  error_at(node->tok, "the branches of '?:' have different types: %s and %s", type_name(ra),
           type_name(rb));
  return ty_error;
}

static void check_expr_kind(Node *node) {
  depth++, levels++;
  if (depth > MAX_NESTING || levels > MAX_LEVELS) {
    // Once per expression: the siblings of the node that hit the limit are
    // as deep.
    if (too_deep)
      ;
    else if (depth > MAX_NESTING)
      error_at(node->tok, "expression nested too deeply (more than %d levels)", MAX_NESTING);
    else
      error_at(node->tok, "expression too long (more than %d levels of operators)", MAX_LEVELS);
    too_deep = true;
    depth--, levels--;
    set_type(node, ty_error);
    return;
  }
  switch (node->kind) {
  case ND_NUM:
    set_type(node, ty_int);
    node->is_const = true;
    break;
  case ND_BOOL:
    set_type(node, ty_bool);
    node->is_const = true;
    break;
  case ND_NONE:
    set_type(node, ty_none);
    break;
  case ND_STR:
    error_at(node->tok, "a string may only be an assert message");
    set_type(node, ty_error);
    break;
  case ND_IDENT:
    check_ident(node);
    break;
  case ND_BINARY:
    check_binary(node);
    break;
  case ND_UNARY:
    check_expr(node->lhs);
    if (is_error(node->lhs)) {
      set_type(node, ty_error);
      break;
    }
    if (node->op == OP_NOT) {
      want_bool(node->lhs, "the operand of '!'");
      set_type(node, ty_bool);
    } else {
      bool ok = want_int(node->lhs, format("the operand of '%s'", op_text(node->op)));
      set_type(node, ty_int);
      if (ok && node->lhs->is_const && node->op == OP_BNOT) {
        node->is_const = true;
        node->val = ~node->lhs->val;
      } else if (ok && node->lhs->is_const) {
        if (node->lhs->val == INT64_MIN) {
          error_at(node->tok, "integer overflow in a constant expression");
        } else {
          node->is_const = true;
          node->val = -node->lhs->val;
        }
      }
    }
    if (node->op == OP_NOT && node->lhs->is_const) {
      node->is_const = true;
      node->val = !node->lhs->val;
    }
    break;
  case ND_COND: {
    check_expr(node->cond);
    check_expr(node->then);
    bool chain = node->els->kind == ND_COND; // `a ? b : c ? d : e`
    depth -= chain;
    check_expr(node->els);
    depth += chain;
    want_bool(node->cond, "the condition of '?:'");
    Type *a = node->then->ty, *b = node->els->ty;
    if (is_error(node->then) || is_error(node->els)) {
      set_type(node, ty_error);
    } else if (!a || !b) {
      error_at(node->tok, "both branches of '?:' must have a value");
      set_type(node, ty_error);
    } else {
      set_type(node, cond_type(node, a, b));
    }
    if (node->cond->is_const && node->then->is_const && node->els->is_const &&
        !is_error(node)) {
      node->is_const = true;
      node->val = node->cond->val ? node->then->val : node->els->val;
    }
    break;
  }
  case ND_INDEX:
    check_index(node);
    break;
  case ND_FIELD:
    check_field(node);
    break;
  case ND_CALL:
    check_call(node);
    break;
  case ND_METHOD:
    check_method(node);
    break;
  case ND_RECORD_LIT:
    check_record_lit(node);
    break;
  case ND_QUANT:
    check_quant(node);
    break;
  default:
    error_at(node->tok, "expected an expression");
    set_type(node, ty_error);
    break;
  }
  if (ctx == CTX_CONST && !node->is_const && !is_error(node) && node->kind != ND_NONE) {
    // Reported by the caller with context (const_value / eval_const_decl).
  }
  depth--, levels--;
  if (levels == 0)
    too_deep = false;
}

// Checks an expression used as a value (it must have one).
static void check_value(Node *node) {
  check_expr(node);
  if (!node->ty) {
    error_at(node->tok, "this expression has no value");
    set_type(node, ty_error);
  }
}

//
// Binders (parameters, quantifier and loop variables)
//

static bool finite_domain(Type *ty) {
  ty = resolve(ty);
  return ty->kind == TY_BOOL || ty->kind == TY_RANGE || ty->kind == TY_ENUM ||
         ty->kind == TY_SCALARSET || ty->kind == TY_ERROR;
}

static void check_binders(Vec *binders, bool action_params) {
  for (int i = 0; i < binders->len; i++) {
    Binder *b = binders->data[i];
    Obj *obj = new_obj(OBJ_PARAM, b->name);
    obj->binder = b;
    b->obj = obj;
    if (b->in_expr) {
      check_value(b->in_expr);
      Type *ct = resolve(b->in_expr->ty);
      if (ct->kind == TY_ERROR) {
        obj->type = ty_error;
      } else if (ct->kind != TY_SET && ct->kind != TY_MULTISET &&
                 !(ct->kind == TY_QUEUE && !action_params)) {
        error_at(b->in_expr->tok, "'%s in ...' ranges over a set or multiset%s, not %s",
                 obj->name, action_params ? "" : " (or queue)", type_name(ct));
        obj->type = ty_error;
      } else {
        obj->type = ct->base;
      }
    } else {
      collect_type(b->type);
      resolve_type(b->type);
      obj->type = b->type;
      if (!finite_domain(b->type)) {
        error_at(b->type->tok ? b->type->tok : b->name,
                 "'%s' must range over bool, a range, an enum or a scalarset, not %s", obj->name,
                 type_name(resolve(b->type)));
        obj->type = ty_error;
      }
    }
    push_local(obj);
  }
}

static void pop_binders(Vec *binders) { locals.len -= binders->len; }

//
// Statements
//

// The state variable or local at the root of an lvalue, or NULL.
static Node *lvalue_root(Node *node) {
  while (node->kind == ND_INDEX || node->kind == ND_FIELD)
    node = node->lhs;
  return node->kind == ND_IDENT ? node : NULL;
}

// Checks that a (typed) expression may be written, in the current context.
static void check_lvalue(Node *node, const char *what) {
  Node *root = lvalue_root(node);
  if (!root) {
    error_at(node->tok, "%s must be a variable, an element or a field", what);
    return;
  }
  Obj *obj = root->obj;
  if (!obj)
    return; // unknown name, reported
  switch (obj->kind) {
  case OBJ_VAR:
    if (ctx == CTX_FN)
      error_at(root->tok, "function '%s' cannot write state variable '%s'",
               cur_decl->name ? token_text(cur_decl->name) : "?", obj->name);
    else if (ctx != CTX_ACTION)
      error_at(root->tok, "state variable '%s' cannot be written here", obj->name);
    return;
  case OBJ_LOCAL:
    if (!obj->writable) {
      error_at(root->tok, "'%s' is a let constant; declare it with 'var' to assign it", obj->name);
      note_at(obj->tok, "'%s' declared here", obj->name);
    }
    return;
  case OBJ_PARAM:
    error_at(root->tok, "parameter '%s' cannot be assigned", obj->name);
    return;
  case OBJ_CONST:
  case OBJ_ENUM_MEMBER:
    error_at(root->tok, "'%s' is a constant and cannot be assigned", obj->name);
    return;
  default:
    error_at(root->tok, "'%s' cannot be assigned", obj->name);
    return;
  }
}

// Reports a constant assigned to a range it does not fit.
static void check_const_fits(Type *dst, Node *src) {
  Type *ty = unopt(resolve(dst));
  if (ty->kind == TY_RANGE && !ty->made_up && src->is_const && is_intlike(resolve(src->ty)) &&
      (src->val < ty->lo || src->val > ty->hi) && !prog->range_checks_at_run_time)
    error_at(src->tok, "constant %lld is out of range %lld..%lld", (long long)src->val,
             (long long)ty->lo, (long long)ty->hi);
}

static void check_rhs(Node *rhs) {
  allow_pop = ctx == CTX_ACTION && rhs->kind == ND_METHOD && equal(rhs->name, "pop");
  check_value(rhs);
  allow_pop = false;
}

static void check_stmt(Node *node);

static void check_block(Node *node) {
  int mark = locals.len;
  for (int i = 0; i < node->args.len; i++)
    check_stmt(node->args.data[i]);
  locals.len = mark;
}

static void check_stmt(Node *node) {
  switch (node->kind) {
  case ND_BLOCK:
    check_block(node);
    return;
  case ND_RESET:
    if (ctx != CTX_ACTION)
      error_at(node->tok, "only an action can reset the state");
    if (node->lhs)
      check_stmt(node->lhs);
    return;
  case ND_ASSIGN:
    check_expr(node->lhs);
    check_rhs(node->rhs);
    if (is_error(node->lhs))
      return;
    check_lvalue(node->lhs, "the left side of '='");
    if (!is_error(node->rhs) && !assignable(node->lhs->ty, node->rhs->ty)) {
      error_at(node->tok, "cannot assign %s to %s", type_name(resolve(node->rhs->ty)),
               type_name(resolve(node->lhs->ty)));
      if (unopt(resolve(node->lhs->ty))->kind == TY_SCALARSET &&
          is_intlike(unopt(resolve(node->rhs->ty))))
        hint("scalarset elements have no literals or numbers: assign a parameter, a loop "
             "variable or a stored value of type %s", type_name(unopt(resolve(node->lhs->ty))));
      return;
    }
    check_const_fits(node->lhs->ty, node->rhs);
    return;
  case ND_IF:
    check_value(node->cond);
    want_bool(node->cond, "an 'if' condition");
    check_block(node->then);
    if (node->els)
      check_stmt(node->els);
    return;
  case ND_WHILE:
    check_value(node->cond);
    want_bool(node->cond, "a 'while' condition");
    check_block(node->body);
    return;
  case ND_FOR: {
    check_binders(&node->binders, false);
    check_block(node->body);
    pop_binders(&node->binders);
    return;
  }
  case ND_LET:
  case ND_VARDECL: {
    if (node->kind == ND_VARDECL)
      collect_type(node->decl_type); // its enum members are in scope for the value
    if (node->rhs) // none: the type's default (a Murphi local)
      check_rhs(node->rhs);
    Obj *obj = new_obj(OBJ_LOCAL, node->name);
    obj->node = node;
    obj->writable = node->kind == ND_VARDECL;
    node->obj = obj;
    if (node->kind == ND_VARDECL) {
      collect_type(node->decl_type);
      resolve_type(node->decl_type);
      obj->type = node->decl_type;
      if (node->rhs && !is_error(node->rhs) && !assignable(node->decl_type, node->rhs->ty))
        error_at(node->rhs->tok, "cannot initialise '%s' (%s) with %s", obj->name,
                 type_name(resolve(node->decl_type)), type_name(resolve(node->rhs->ty)));
      else if (node->rhs)
        check_const_fits(node->decl_type, node->rhs);
    } else {
      Type *ty = resolve(node->rhs->ty);
      if (ty->kind == TY_NONE) {
        error_at(node->rhs->tok, "the type of 'let %s = none' is unknown; use 'var %s: T? = none'",
                 obj->name, obj->name);
        ty = ty_error;
      }
      obj->type = is_intlike(ty) ? ty_int : node->rhs->ty;
    }
    push_local(obj);
    return;
  }
  case ND_ASSERT:
    check_value(node->lhs);
    want_bool(node->lhs, "an assert condition");
    return;
  case ND_RETURN:
    if (ctx != CTX_FN) {
      error_at(node->tok, "'return' is only allowed in a fn");
      check_value(node->lhs);
      return;
    }
    check_value(node->lhs);
    if (!is_error(node->lhs) && !assignable(cur_decl->type, node->lhs->ty))
      error_at(node->lhs->tok, "function '%s' returns %s: it cannot return %s",
               token_text(cur_decl->name), type_name(resolve(cur_decl->type)),
               type_name(resolve(node->lhs->ty)));
    else
      check_const_fits(cur_decl->type, node->lhs);
    return;
  case ND_EXPR_STMT: {
    Node *e = node->lhs;
    if (e->kind != ND_METHOD) {
      check_expr(e);
      error_at(e->tok, "this expression does nothing: a statement must assign or call a "
                       "collection update (push, add, remove, clear, pop)");
      return;
    }
    static const char *updates[] = {"push", "add", "remove", "clear", "pop"};
    bool update = false;
    for (int i = 0; i < 5; i++)
      update |= equal(e->name, updates[i]);
    if (update && ctx != CTX_ACTION) {
      check_expr(e->lhs);
      if (!is_error(e->lhs) && lvalue_root(e->lhs) && lvalue_root(e->lhs)->obj &&
          lvalue_root(e->lhs)->obj->kind == OBJ_LOCAL) {
        allow_pop = stmt_position = true;
        check_expr(e);
        allow_pop = stmt_position = false;
        return;
      }
      error_at(e->name, "%s() changes state: not allowed in a %s", token_text(e->name),
               ctx == CTX_FN ? "fn" : "predicate");
      return;
    }
    allow_pop = stmt_position = true;
    check_expr(e);
    allow_pop = stmt_position = false;
    if (!update && !is_error(e))
      error_at(e->name, "the result of %s() is not used", token_text(e->name));
    return;
  }
  default:
    error_at(node->tok, "expected a statement");
    return;
  }
}

//
// Definite assignment of scalarset-holding state variables in init blocks.
// A fact is an access path that is certainly assigned: "v", "v.f",
// "v[#12]" (indexed by binder 12), "v[*]" (every element).
//

typedef struct Facts {
  Vec paths; // char*
} Facts;

static bool has_fact(Facts *f, const char *path) {
  for (int i = 0; i < f->paths.len; i++)
    if (!strcmp(f->paths.data[i], path))
      return true;
  return false;
}

static void add_fact(Facts *f, const char *path) {
  if (!has_fact(f, path))
    vec_push(&f->paths, (void *)path);
}

static Facts copy_facts(Facts *f) {
  Facts c = {0};
  for (int i = 0; i < f->paths.len; i++)
    vec_push(&c.paths, f->paths.data[i]);
  return c;
}

static Facts intersect_facts(Facts *a, Facts *b) {
  Facts c = {0};
  for (int i = 0; i < a->paths.len; i++)
    if (has_fact(b, a->paths.data[i]))
      vec_push(&c.paths, a->paths.data[i]);
  return c;
}

// The access path of an lvalue, or NULL if it is not rooted at a state var.
static char *lvalue_path(Node *node) {
  switch (node->kind) {
  case ND_IDENT:
    return node->obj && node->obj->kind == OBJ_VAR ? xstrdup(node->obj->name) : NULL;
  case ND_FIELD: {
    char *p = lvalue_path(node->lhs);
    return p ? format("%s.%s", p, token_text(node->name)) : NULL;
  }
  case ND_INDEX: {
    char *p = lvalue_path(node->lhs);
    if (!p)
      return NULL;
    Node *i = node->rhs;
    Type *arr = resolve(node->lhs->ty);
    if (i->kind == ND_IDENT && i->obj && i->obj->kind == OBJ_PARAM && arr->kind == TY_ARRAY &&
        same_type(i->obj->type, arr->index))
      return format("%s[#%d]", p, i->obj->id);
    return format("%s[?]", p);
  }
  default:
    return NULL;
  }
}

// Whether `path` (of type ty) is certainly assigned.
static bool covered(Facts *f, const char *path, Type *ty) {
  if (has_fact(f, path))
    return true;
  // A prefix assigned whole covers its parts.
  for (const char *p = path + strlen(path); p > path; p--) {
    if (*p == '.' || *p == '[') {
      char *prefix = xstrndup(path, p - path);
      if (has_fact(f, prefix))
        return true;
    }
  }
  ty = resolve(ty);
  if (!needs_init(ty))
    return true;
  if (ty->kind == TY_RECORD) {
    for (int i = 0; i < ty->nfields; i++)
      if (!covered(f, format("%s.%s", path, token_text(ty->fields[i]->name)),
                   ty->fields[i]->type))
        return false;
    return true;
  }
  if (ty->kind == TY_ARRAY)
    return covered(f, format("%s[*]", path), ty->base);
  return false;
}

static void da_stmt(Node *node, Facts *f);

static void da_block(Node *node, Facts *f) {
  for (int i = 0; i < node->args.len; i++)
    da_stmt(node->args.data[i], f);
}

// The state variables without a default (see check_init_assignments).
static Vec *da_needy;

// Whether anything of the variable has been assigned yet.
static bool mentioned(Facts *f, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; i < f->paths.len; i++) {
    const char *p = f->paths.data[i];
    if (!strncmp(p, name, n) && (p[n] == '\0' || p[n] == '.' || p[n] == '['))
      return true;
  }
  return false;
}

// Reports a read of a variable that has no default and of which nothing has
// been assigned yet on this path: its value would be an arbitrary element,
// which is what a scalarset may not name. (Reads of a part of a variable
// that is only partly assigned are not caught.)
static bool da_read(Node *node, void *f) {
  if (node->kind == ND_IDENT && node->obj && node->obj->kind == OBJ_VAR) {
    for (int i = 0; i < da_needy->len; i++)
      if (da_needy->data[i] == node->obj && !mentioned(f, node->obj->name))
        error_at(node->tok, "'%s' is read before it is assigned (a scalarset has no default)",
                 node->obj->name);
    return false;
  }
  return true;
}

static void da_reads(Node *node, Facts *f) { walk(node, da_read, f); }

// The expressions a statement reads (the indexes of an assignment's target
// included), not its nested statements.
static void da_stmt_reads(Node *node, Facts *f) {
  switch (node->kind) {
  case ND_ASSIGN:
    da_reads(node->rhs, f);
    for (Node *l = node->lhs; l && (l->kind == ND_INDEX || l->kind == ND_FIELD); l = l->lhs)
      if (l->kind == ND_INDEX)
        da_reads(l->rhs, f);
    return;
  case ND_IF:
  case ND_WHILE:
    da_reads(node->cond, f);
    return;
  case ND_FOR:
    da_reads(((Binder *)node->binders.data[0])->in_expr, f);
    return;
  case ND_LET:
  case ND_VARDECL:
  case ND_RETURN:
    da_reads(node->rhs ? node->rhs : node->lhs, f);
    return;
  case ND_ASSERT:
  case ND_EXPR_STMT:
    da_reads(node->lhs, f);
    return;
  default:
    return;
  }
}

static void da_stmt(Node *node, Facts *f) {
  da_stmt_reads(node, f);
  switch (node->kind) {
  case ND_BLOCK:
    da_block(node, f);
    return;
  case ND_ASSIGN: {
    char *path = lvalue_path(node->lhs);
    if (path)
      add_fact(f, path);
    return;
  }
  case ND_WHILE: { // the body may not run: what it assigns is not assigned after
    Facts body = copy_facts(f);
    da_block(node->body, &body);
    return;
  }
  case ND_IF: {
    Facts t = copy_facts(f);
    da_block(node->then, &t);
    Facts e = copy_facts(f);
    if (node->els)
      da_stmt(node->els, &e);
    *f = intersect_facts(&t, &e);
    return;
  }
  case ND_FOR: {
    Binder *b = node->binders.data[0];
    Facts body = copy_facts(f);
    da_block(node->body, &body);
    if (b->in_expr || !b->obj)
      return; // iterates over a state-dependent collection: may not run
    // `for x: T` runs once per value of T: what it assigns at [x] of an
    // array indexed by T, it assigns at every index.
    // The body runs at least once (T is never empty), so what it assigns
    // without the loop variable is assigned after the loop as well.
    char *seg = format("[#%d]", b->obj->id);
    for (int i = 0; i < body.paths.len; i++) {
      char *p = body.paths.data[i];
      char *at = strstr(p, seg);
      if (!at) {
        add_fact(f, p);
        continue;
      }
      char *gen = format("%.*s[*]%s", (int)(at - p), p, at + strlen(seg));
      add_fact(f, gen);
    }
    return;
  }
  default:
    return;
  }
}

// The optional type that would give a needy variable a default: `Proc?` for
// a scalarset, `[I] Proc?` for an array of them; NULL for a record (records
// cannot be optional: their scalarset fields can).
static const char *optional_spelling(Type *ty) {
  ty = resolve(ty);
  if (ty->kind == TY_SCALARSET)
    return format("%s?", type_name(ty));
  if (ty->kind == TY_ARRAY) {
    const char *base = optional_spelling(ty->base);
    return base ? format("[%s] %s", type_name(resolve(ty->index)), base) : NULL;
  }
  return NULL;
}

static void check_init_assignments(Decl *init, Vec *needy) {
  Facts f = {0};
  da_needy = needy;
  da_reads(init->expr, &f); // the `when` sees only defaults
  da_block(init->body, &f);
  for (int i = 0; i < needy->len; i++) {
    Obj *var = needy->data[i];
    if (!covered(&f, var->name, var->type)) {
      Token *where = init->name ? init->name : init->tok;
      error_at(where, "state variable '%s' (%s) has no default and is not assigned on every "
                      "path of this init block", var->name, type_name(resolve(var->type)));
      const char *opt = optional_spelling(var->type);
      if (opt)
        hint("assign it in every branch (a 'for x: T' loop assigns every element of an array "
             "indexed by T), or make it optional: %s", opt);
      else
        hint("assign it in every branch (a 'for x: T' loop assigns every element of an array "
             "indexed by T), or make its scalarset fields optional");
    }
  }
}

//
// Declarations
//

// A watch shows a value of the state: any expression a predicate may
// write, of any type but `none` alone.
static void check_watch(Decl *decl) {
  check_value(decl->expr);
  Type *ty = resolve(decl->expr->ty);
  if (ty->kind == TY_NONE)
    error_at(decl->expr->tok, "watch '%s' is always none: give its expression a type",
             token_text(decl->name));
  else if (ty->kind == TY_STRING)
    error_at(decl->expr->tok, "watch '%s' is a string: a watch shows a value of the state",
             token_text(decl->name));
}

static void check_decl(Decl *decl) {
  cur_decl = decl;
  locals.len = 0;
  switch (decl->kind) {
  case DK_MODEL:
  case DK_TYPE:
  case DK_VAR:
    return; // resolved earlier
  case DK_CONST:
    eval_const_decl(decl->obj);
    return;
  case DK_FN:
    ctx = CTX_FN;
    check_binders(&decl->params, false);
    // fn parameters may be of any type: undo the finite-domain complaint
    check_block(decl->body);
    return;
  case DK_INIT:
  case DK_ACTION:
    ctx = CTX_READ;
    check_binders(&decl->params, true);
    if (decl->expr) {
      check_value(decl->expr);
      want_bool(decl->expr, "a 'when' condition");
    }
    ctx = CTX_ACTION;
    check_block(decl->body);
    return;
  case DK_INVARIANT:
  case DK_REACHABLE:
  case DK_TERMINAL:
  case DK_CONSTRAINT:
  case DK_ACCEPTING:
    ctx = CTX_READ;
    check_value(decl->expr);
    want_bool(decl->expr, format("%s '%s'", token_text(decl->tok), token_text(decl->name)));
    return;
  case DK_SCENARIO:
    return; // scenario.c, after check()
  case DK_WATCH:
    ctx = CTX_READ;
    check_watch(decl);
    return;
  case DK_PROPERTY:
    ctx = CTX_READ;
    check_binders(&decl->params, false);
    // One instance per binding, fixed before the search: no `x in EXPR`.
    for (int i = 0; i < decl->params.len; i++) {
      Binder *b = decl->params.data[i];
      if (b->in_expr)
        error_at(b->name, "a property's forall binder needs a type: '%s: T' ('in' ranges over "
                          "a state's collection, but a property has one instance per binding)",
                 token_text(b->name));
    }
    check_value(decl->expr);
    want_bool(decl->expr, "a temporal operand");
    if (decl->expr2) {
      check_value(decl->expr2);
      want_bool(decl->expr2, "a temporal operand");
    }
    return;
  case DK_FAIR:
    for (int i = 0; i < decl->fair_actions.len; i++) {
      Token *name = decl->fair_actions.data[i];
      Obj *obj = global_lookup(token_text(name));
      if (!obj || obj->kind != OBJ_ACTION) {
        error_at(name, obj ? "'%s' is not an action" : "unknown action '%s'", token_text(name));
        if (!obj) {
          Vec names = {0};
          for (int j = 0; j < global_list.len; j++)
            if (((Obj *)global_list.data[j])->kind == OBJ_ACTION)
              vec_push(&names, (void *)((Obj *)global_list.data[j])->name);
          const char *best =
              closest_name(token_text(name), (const char *const *)names.data, names.len);
          if (best)
            hint("did you mean '%s'?", best);
        }
      }
    }
    return;
  }
}

// fn parameters may be of any type; action, init and quantifier parameters
// must range over a finite scalar type. check_binders reports the latter, so
// fn parameters are checked here instead.
static void check_fn_params(Decl *fn) {
  for (int i = 0; i < fn->params.len; i++) {
    Binder *b = fn->params.data[i];
    if (b->in_expr)
      error_at(b->name, "a fn parameter needs a type: '%s: T'", token_text(b->name));
  }
}

// Functions may call functions, but not recursively.

static bool find_call(Node *node, void *out) {
  if (node->kind == ND_CALL && node->obj)
    vec_push(out, node);
  return true;
}

static void find_calls(Node *node, Vec *out) { walk(node, find_call, out); }

// Depth-first over the call graph; state per fn: 0 new, 1 on the path, 2 done.
static void check_recursion(Decl *fn, int *state) {
  state[fn->index] = 1;
  Vec calls = {0};
  find_calls(fn->body, &calls);
  for (int i = 0; i < calls.len; i++) {
    Node *call = calls.data[i];
    Decl *callee = call->obj->decl;
    if (state[callee->index] == 1)
      error_at(call->name, "recursive call of '%s': functions may not recurse",
               token_text(callee->name));
    else if (state[callee->index] == 0)
      check_recursion(callee, state);
  }
  state[fn->index] = 2;
}

//
// Iteration order over scalarsets. A `for` loop over a scalarset, or over a
// set or multiset whose elements hold one, visits the elements in an order
// that a permutation of the scalarset changes, so under symmetry reduction
// its effect must not depend on that order. It does not when the iterations
// commute: no iteration reads what another writes, and what two iterations
// both write is written apart or by updates whose order does not matter.
// This is checked on the syntax, conservatively, after typing:
//   - an access "indexed by the loop variable" (`a[p]`, `a[p].f`, `b[i][p]`,
//     the same depth of index being exactly `p`) touches one element per
//     iteration, never another iteration's; two accesses through different
//     record fields never overlap;
//   - any other write must be a commutative update, and every access to the
//     same place in the loop one of the same kind: `v = c` (one constant),
//     `v = v + e` / `v - e` all one way (e never negative, or never
//     positive: the partial sums then stay between the start and the end,
//     within v's range in any order), `s.add(e)` or `s.remove(e)` on a set
//     or multiset (all adds or all removes), `x.clear()`;
//   - a fn called in the loop reads what its body reads, a parameter
//     passed the loop variable standing for it;
//   - `return` leaves the loop at whichever element gets there first.
// Locals declared in the body are per iteration and not tracked. A loop over
// a queue is not checked: it follows the queue's order, which permutations
// keep. (When two iterations would both fail, which failure is reported may
// still depend on the order; that the step fails does not.)
//

typedef enum {
  UPD_READ,      // not a write
  UPD_PLAIN,     // any other write: iterations must write apart
  UPD_CONST,     // v = constant
  UPD_ADD_UP,    // v = v + e, e >= 0 (or v = v - e, e <= 0)
  UPD_ADD_DOWN,  // v = v - e, e >= 0 (or v = v + e, e <= 0)
  UPD_ADD_ANY,   // v = v + e, sign of e unknown
  UPD_SET_ADD,    // add on a set or multiset
  UPD_SET_REMOVE, // remove on a set or multiset
  UPD_CLEAR,
} Update;

typedef struct Access {
  Node *at;    // where (the path's outermost node, a method's receiver)
  Node *via;   // the call in the loop's body that led there, if any
  Obj *root;   // the state variable or outer local
  Vec comps;   // Node*: ND_INDEX / ND_FIELD from the root outwards
  bool *own;   // per comp: an index that is the loop variable
  Update upd;
  bool none;   // UPD_CONST: the constant is `none`
  int64_t val; // UPD_CONST: otherwise its value
} Access;

static Obj *loop_var;   // the loop being checked
static Vec loop_alias;  // Obj*: fn parameters passed loop_var in the call walked
static Vec loop_calls;  // Decl*: the fns being walked (a recursive call is an error)
static Vec loop_walked; // char*: "fn/mask" of each call walked (its accesses are known)
static Node *loop_via;  // the outermost call being walked
static Vec loop_inner;  // Obj*: locals declared in its body
static Vec loop_acc;    // Access*
static Node *loop_ret;  // a return in its body

static bool order_tracked(Obj *obj) {
  if (!obj || (obj->kind != OBJ_VAR && !(obj->kind == OBJ_LOCAL && obj->writable)))
    return false;
  for (int i = 0; i < loop_inner.len; i++)
    if (loop_inner.data[i] == obj)
      return false;
  return true;
}

// Whether two index expressions or paths certainly denote the same value.
static bool same_path(Node *a, Node *b) {
  if (a->kind != b->kind)
    return a->is_const && b->is_const && a->val == b->val;
  switch (a->kind) {
  case ND_IDENT:
    return a->obj && a->obj == b->obj;
  case ND_FIELD:
    return a->field && a->field == b->field && same_path(a->lhs, b->lhs);
  case ND_INDEX:
    return same_path(a->lhs, b->lhs) && same_path(a->rhs, b->rhs);
  default:
    return a->is_const && b->is_const && a->val == b->val;
  }
}

// +1 if an integer expression is never negative, -1 if never positive, 0
// if not known.
static int sign_of(Node *e) {
  if (e->is_const)
    return e->val >= 0 ? 1 : -1;
  Type *ty = resolve(e->ty);
  if (ty && ty->kind == TY_RANGE && (ty->lo >= 0 || ty->hi <= 0))
    return ty->lo >= 0 ? 1 : -1;
  if (e->kind == ND_QUANT && e->op == OP_COUNT)
    return 1;
  if (e->kind == ND_METHOD && (equal(e->name, "len") || equal(e->name, "count")))
    return 1;
  if (e->kind == ND_QUANT && e->op == OP_SUM)
    return sign_of(e->body);
  if (e->kind == ND_COND) {
    int a = sign_of(e->then), b = sign_of(e->els);
    return a == b ? a : 0;
  }
  if (e->kind == ND_UNARY && e->op == OP_NEG)
    return -sign_of(e->lhs);
  if (e->kind == ND_BINARY && (e->op == OP_ADD || e->op == OP_MUL)) {
    int a = sign_of(e->lhs), b = sign_of(e->rhs);
    return e->op == OP_MUL ? a * b : a == b ? a : 0;
  }
  return 0;
}

static void order_read(Node *e);

static bool is_loop_var(Node *e) {
  if (e->kind != ND_IDENT || !e->obj)
    return false;
  if (e->obj == loop_var)
    return true;
  for (int i = 0; i < loop_alias.len; i++)
    if (loop_alias.data[i] == e->obj)
      return true;
  return false;
}

// Records an access to a path (an lvalue-shaped expression); its index
// expressions are reads.
static Access *order_access(Node *path, Update upd) {
  Node *root = lvalue_root(path);
  for (Node *n = path; n->kind == ND_INDEX || n->kind == ND_FIELD; n = n->lhs)
    if (n->kind == ND_INDEX)
      order_read(n->rhs);
  if (!root) {
    Node *base = path;
    while (base->kind == ND_INDEX || base->kind == ND_FIELD)
      base = base->lhs;
    order_read(base);
    return NULL;
  }
  if (!order_tracked(root->obj))
    return NULL;
  Access *a = xcalloc(1, sizeof *a);
  a->at = path;
  a->root = root->obj;
  a->upd = upd;
  a->via = loop_via;
  for (Node *n = path; n != root; n = n->lhs)
    vec_push(&a->comps, n);
  for (int i = 0, j = a->comps.len - 1; i < j; i++, j--) {
    void *t = a->comps.data[i];
    a->comps.data[i] = a->comps.data[j];
    a->comps.data[j] = t;
  }
  a->own = xcalloc(a->comps.len + 1, sizeof *a->own);
  for (int i = 0; i < a->comps.len; i++) {
    Node *c = a->comps.data[i];
    a->own[i] = c->kind == ND_INDEX && is_loop_var(c->rhs);
  }
  vec_push(&loop_acc, a);
  return a;
}

static void order_method(Node *m, Update upd) {
  order_access(m->lhs, upd);
  for (int i = 0; i < m->args.len; i++)
    order_read(m->args.data[i]);
}

static void order_stmt(Node *s);

// A fn only reads state: its body's reads are the call's, with each
// parameter passed the loop variable standing for it. Its locals are its
// own, and its returns end the call, not the loop.
static void order_call(Node *call) {
  Decl *fn = call->obj ? call->obj->decl : NULL;
  if (!fn || !fn->body)
    return;
  for (int i = 0; i < loop_calls.len; i++)
    if (loop_calls.data[i] == fn)
      return;
  // A call's accesses depend only on the fn and which parameters stand for
  // the loop variable: walk each such pair once (fns calling fns twice
  // would otherwise take exponential time).
  char *key = format("%p/", (void *)fn);
  int aliases = loop_alias.len;
  for (int i = 0; i < fn->params.len && i < call->args.len; i++) {
    Binder *b = fn->params.data[i];
    bool alias = b->obj && is_loop_var(call->args.data[i]);
    if (alias)
      vec_push(&loop_alias, b->obj);
    key = format("%s%c", key, alias ? '1' : '0');
  }
  for (int i = 0; i < loop_walked.len; i++)
    if (!strcmp(loop_walked.data[i], key)) {
      loop_alias.len = aliases;
      return;
    }
  vec_push(&loop_walked, key);
  vec_push(&loop_calls, fn);
  Node *via = loop_via, *ret = loop_ret;
  if (!loop_via)
    loop_via = call;
  order_stmt(fn->body);
  loop_via = via;
  loop_ret = ret;
  loop_alias.len = aliases;
  loop_calls.len--;
}

static bool order_visit(Node *e, void *unused) {
  (void)unused;
  switch (e->kind) {
  case ND_IDENT:
  case ND_INDEX:
  case ND_FIELD:
    order_access(e, UPD_READ);
    return false;
  case ND_METHOD:
    // pop() is the one update allowed in an expression (a right-hand side)
    order_method(e, equal(e->name, "pop") ? UPD_PLAIN : UPD_READ);
    return false;
  case ND_CALL:
    for (int i = 0; i < e->args.len; i++)
      order_read(e->args.data[i]);
    order_call(e);
    return false;
  default:
    return true;
  }
}

static void order_read(Node *e) { walk(e, order_visit, NULL); }

static void order_assign(Node *s) {
  Node *lhs = s->lhs, *rhs = s->rhs;
  if (rhs->is_const || rhs->kind == ND_NONE) {
    Access *a = order_access(lhs, UPD_CONST);
    if (a) {
      a->none = rhs->kind == ND_NONE;
      a->val = rhs->val;
    }
    return;
  }
  if (rhs->kind == ND_BINARY && (rhs->op == OP_ADD || rhs->op == OP_SUB)) {
    Node *other = NULL;
    if (same_path(rhs->lhs, lhs))
      other = rhs->rhs;
    else if (rhs->op == OP_ADD && same_path(rhs->rhs, lhs))
      other = rhs->lhs;
    if (other) {
      int sign = sign_of(other) * (rhs->op == OP_SUB ? -1 : 1);
      order_access(lhs, sign > 0 ? UPD_ADD_UP : sign < 0 ? UPD_ADD_DOWN : UPD_ADD_ANY);
      order_read(other);
      return;
    }
  }
  order_access(lhs, UPD_PLAIN);
  order_read(rhs);
}

static void order_stmt(Node *s) {
  switch (s->kind) {
  case ND_BLOCK:
    for (int i = 0; i < s->args.len; i++)
      order_stmt(s->args.data[i]);
    return;
  case ND_ASSIGN:
    order_assign(s);
    return;
  case ND_IF:
    order_read(s->cond);
    order_stmt(s->then);
    if (s->els)
      order_stmt(s->els);
    return;
  case ND_FOR:
    order_read(((Binder *)s->binders.data[0])->in_expr);
    order_stmt(s->body);
    return;
  case ND_WHILE:
    order_read(s->cond);
    order_stmt(s->body);
    return;
  case ND_LET:
  case ND_VARDECL:
    order_read(s->rhs);
    vec_push(&loop_inner, s->obj);
    return;
  case ND_RETURN:
    if (!loop_ret)
      loop_ret = s;
    order_read(s->lhs);
    return;
  case ND_EXPR_STMT: {
    Node *m = s->lhs;
    if (m->kind != ND_METHOD) {
      order_read(m);
      return;
    }
    Type *ty = resolve(m->lhs->ty);
    bool coll = ty && (ty->kind == TY_SET || ty->kind == TY_MULTISET);
    Update upd = UPD_PLAIN;
    if (equal(m->name, "clear"))
      upd = UPD_CLEAR;
    else if (coll && equal(m->name, "add"))
      upd = UPD_SET_ADD;
    else if (coll && equal(m->name, "remove"))
      upd = UPD_SET_REMOVE;
    order_method(m, upd);
    return;
  }
  default:
    order_read(s->lhs);
    order_read(s->rhs);
    return;
  }
}

// Whether accesses a and b, made in two iterations with different values
// of the loop variable, touch different places.
static bool apart(Access *a, Access *b) {
  for (int d = 0; d < a->comps.len && d < b->comps.len; d++) {
    Node *x = a->comps.data[d], *y = b->comps.data[d];
    if (x->kind != y->kind)
      return false;
    if (x->kind == ND_FIELD && x->field != y->field)
      return true;
    if (a->own[d] && b->own[d])
      return true;
  }
  return false;
}

static bool commute(Access *a, Access *b) {
  if (a->upd != b->upd || a->upd == UPD_READ || a->upd == UPD_PLAIN || a->upd == UPD_ADD_ANY)
    return false;
  return a->upd != UPD_CONST || (a->none == b->none && (a->none || a->val == b->val));
}

static Token *access_tok(Access *a) {
  Node *root = lvalue_root(a->at);
  return root ? root->tok : a->at->tok;
}

// Whether two accesses of a loop's iterations make its order matter: one
// writes what the other touches, at places not apart, in ways that do not
// commute.
static bool conflict(Access *x, Access *y) {
  return x->root == y->root && (x->upd != UPD_READ || y->upd != UPD_READ) && !apart(x, y) &&
         !commute(x, y);
}

// Whether the order of the loop walked by order_stmt() matters.
static bool loop_order_matters(void) {
  if (loop_ret)
    return true;
  for (int i = 0; i < loop_acc.len; i++)
    for (int j = i; j < loop_acc.len; j++)
      if (conflict(loop_acc.data[i], loop_acc.data[j]))
        return true;
  return false;
}

// Checks one loop (its binder is over a scalarset or a collection of them).
static void check_loop_order(Node *loop) {
  Binder *b = loop->binders.data[0];
  Type *dom = b->in_expr ? resolve(b->in_expr->ty) : resolve(b->type);
  if (!b->obj || !dom || dom->kind == TY_QUEUE) // a queue's order is kept by permutations
    return;
  Type *sym = scalarset_in(dom);
  if (!sym)
    return;
  loop_var = b->obj;
  loop_alias = loop_calls = loop_walked = (Vec){0};
  loop_via = NULL;
  loop_inner = (Vec){0};
  loop_acc = (Vec){0};
  loop_ret = NULL;
  order_stmt(loop->body);

  const char *what = b->in_expr
      ? format("the loop 'for %s in %s' visits its elements (which hold scalarset %s)",
               token_text(b->name),
               b->in_expr->kind == ND_IDENT ? token_text(b->in_expr->tok) : "...", type_name(sym))
      : format("the loop 'for %s: %s' visits the elements of scalarset %s", token_text(b->name),
               type_name(resolve(b->type)), type_name(sym));
  if (prog->loop_order_free) {
    // The model's loops keep their order: symmetry reduction is refused
    // instead (said once, for the first such loop).
    if (!prog->symmetry_refused && loop_order_matters())
      prog->symmetry_refused = format("%s in an order that symmetry reduction does not keep "
                                      "(line %d)", what, loop->tok->line);
    return;
  }
  bool bad = false;
  if (loop_ret) {
    error_at(loop->tok, "%s in an order that symmetry reduction does not keep, and its 'return' "
                        "leaves it at whichever element comes first", what);
    note_at(loop_ret->tok, "returns here");
    bad = true;
  }
  for (int i = 0; i < loop_acc.len && !bad; i++) {
    Access *x = loop_acc.data[i];
    for (int j = i; j < loop_acc.len && !bad; j++) {
      Access *y = loop_acc.data[j];
      if (!conflict(x, y))
        continue;
      bad = true;
      Access *w = x->upd == UPD_READ ? y : x, *o = w == x ? y : x;
      const char *name = x->root->name;
      if (w == o && w->upd == UPD_ADD_ANY) {
        error_at(loop->tok, "%s in an order that symmetry reduction does not keep, and adds to "
                            "'%s' a value whose sign is not known: whether a partial sum leaves "
                            "the range of '%s' depends on that order", what, name, name);
        note_at(access_tok(w), "'%s' updated here", name);
      } else if (w == o) {
        error_at(loop->tok, "%s in an order that symmetry reduction does not keep, and more than "
                            "one iteration may write '%s' (not at an element indexed by '%s'): "
                            "the last one decides its value", what, name, token_text(b->name));
        note_at(access_tok(w), "'%s' written here", name);
      } else if (o->upd == UPD_READ) {
        error_at(loop->tok, "%s in an order that symmetry reduction does not keep, and reads "
                            "'%s', which other iterations write: what it reads depends on which "
                            "elements came before", what, name);
        note_at(access_tok(o), "'%s' read here", name);
        if (o->via)
          note_at(o->via->tok, "in this call of '%s' from the loop", token_text(o->via->name));
        note_at(access_tok(w), "'%s' written here", name);
      } else {
        error_at(loop->tok, "%s in an order that symmetry reduction does not keep, and writes "
                            "'%s' in two ways whose order matters", what, name);
        note_at(access_tok(x), "'%s' written here", name);
        note_at(access_tok(y), "and here");
      }
    }
  }
  if (bad)
    hint("scalarset elements have no order: ask about them with a quantifier (exists, forall, "
         "count, sum); in a loop, write only elements indexed by '%s', or accumulate (n = n + 1, "
         "s.add(e), found = true) what no iteration reads; if the order matters, make %s a range "
         "instead of a scalarset (no symmetry reduction)", token_text(b->name), type_name(sym));
}

// Statements are the only nodes that hold loops: a walk over all nodes
// finds them.
static bool find_loop(Node *node, void *unused) {
  (void)unused;
  if (node->kind == ND_FOR)
    check_loop_order(node);
  return true;
}

static void find_loops(Node *node) { walk(node, find_loop, NULL); }

// Forgets any earlier program (unit tests check several in one process).
static void reset_checker(Program *p, Define *defs, int ndefs) {
  globals = NULL;
  nglobals_cap = nglobals = 0;
  global_list = (Vec){0};
  locals.len = 0;
  depth = levels = 0;
  too_deep = false;
  allow_pop = stmt_position = false;
  ctx = CTX_CONST;
  cur_decl = NULL;
  prog = p;
  defines = defs;
  ndefines = ndefs;
  define_used = xcalloc(ndefs + 1, sizeof *define_used);
}

// Every top-level name, and enum members of top-level types.
static void declare_globals(Program *p) {
  int counts[DK_WATCH + 1] = {0};
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    d->index = counts[d->kind]++;
    ObjKind kind;
    switch (d->kind) {
    case DK_CONST: kind = OBJ_CONST; break;
    case DK_TYPE: kind = OBJ_TYPE; break;
    case DK_VAR: kind = OBJ_VAR; break;
    case DK_FN: kind = OBJ_FN; break;
    case DK_ACTION: kind = OBJ_ACTION; break;
    case DK_INIT: kind = OBJ_INIT; break;
    case DK_INVARIANT:
    case DK_REACHABLE:
    case DK_TERMINAL:
    case DK_CONSTRAINT:
    case DK_ACCEPTING:
    case DK_WATCH:
    case DK_PROPERTY: kind = OBJ_PREDICATE; break;
    default: continue;
    }
    if (d->kind == DK_INIT && !d->name)
      continue;
    Obj *obj = new_obj(kind, d->name);
    obj->decl = d;
    d->obj = obj;
    declare_global(obj);
  }
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->kind == DK_TYPE || d->kind == DK_VAR || d->kind == DK_FN)
      collect_type(d->type);
    if (d->kind == DK_FN || d->kind == DK_ACTION || d->kind == DK_INIT)
      for (int j = 0; j < d->params.len; j++)
        collect_type(((Binder *)d->params.data[j])->type);
  }
  // Const and type declarations evaluate lazily, in dependency order; their
  // `index` is reused as the evaluation state (0 new, -1 busy, -2 done).
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->kind == DK_CONST || d->kind == DK_TYPE)
      d->index = 0;
  }
}

// -D overrides must name constants, each once.
static void check_defines(Program *p, Define *defs, int ndefs) {
  for (int i = 0; i < ndefs; i++) {
    int first = 0;
    while (first < i && strcmp(defs[first].name, defs[i].name))
      first++;
    if (first < i) {
      error_plain("-D %s=%s: constant '%s' is already set by -D %s=%s", defs[i].name,
                  defs[i].value, defs[i].name, defs[first].name, defs[first].value);
      continue;
    }
    Obj *obj = global_lookup(defs[i].name);
    if (!obj || obj->kind != OBJ_CONST) {
      error_plain("-D %s=%s: %s", defs[i].name, defs[i].value,
                  obj ? format("'%s' is not a constant", defs[i].name)
                      : format("%s has no constant '%s'", p->file->name, defs[i].name));
      Vec names = {0};
      for (int j = 0; j < global_list.len; j++)
        if (((Obj *)global_list.data[j])->kind == OBJ_CONST)
          vec_push(&names, (void *)((Obj *)global_list.data[j])->name);
      const char *best = closest_name(defs[i].name, (const char *const *)names.data, names.len);
      if (best)
        hint("did you mean '%s'?", best);
    } else if (obj->decl && obj->decl->is_extern) { // its value is the C's (extern.c)
      error_plain("-D %s=%s: '%s' is a C constant ('extern const'): change it in the C, which "
                  "uses it too", defs[i].name, defs[i].value, defs[i].name);
    }
  }
}

// Constants, types, state variables, signatures. NEEDY gets the state
// variables whose type has no default; HAS_INIT whether an init block exists.
static void check_declarations(Program *p, Vec *needy, bool *has_init) {
  ctx = CTX_CONST;
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    cur_decl = d;
    if (d->kind == DK_CONST)
      eval_const_decl(d->obj);
    else if (d->kind == DK_TYPE && d->obj)
      resolve_alias(d->obj);
  }
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    cur_decl = d;
    if (d->kind == DK_VAR) {
      int errors = error_count();
      resolve_type(d->type);
      if (d->obj) {
        d->obj->type = d->type;
        // (a type with errors was reported: nothing more about its variable)
        if (needs_init(d->type) && error_count() == errors)
          vec_push(needy, d->obj);
      }
    } else if (d->kind == DK_FN) {
      resolve_type(d->type);
      for (int j = 0; j < d->params.len; j++) {
        Binder *b = d->params.data[j];
        if (b->type)
          resolve_type(b->type);
      }
      check_fn_params(d);
      if (d->obj)
        d->obj->type = d->type;
    } else if (d->kind == DK_INIT) {
      *has_init = true;
    }
  }
}

// Bodies and predicates.
static void check_bodies(Program *p) {
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->kind == DK_FN) {
      // fn params: any type; bind them directly.
      cur_decl = d;
      locals.len = 0;
      ctx = CTX_FN;
      for (int j = 0; j < d->params.len; j++) {
        Binder *b = d->params.data[j];
        Obj *obj = new_obj(OBJ_PARAM, b->name);
        obj->binder = b;
        obj->type = b->type ? b->type : ty_error;
        b->obj = obj;
        push_local(obj);
      }
      if (d->body) // an `extern fn` has none (extern.c)
        check_block(d->body);
      continue;
    }
    check_decl(d);
  }
  locals.len = 0;
}

// Scalarset variables have no default: an init block assigns them.
static void check_defaults(Program *p, Vec *needy, bool has_init) {
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->kind == DK_INIT)
      check_init_assignments(d, needy);
  }
  if (!has_init)
    for (int i = 0; i < needy->len; i++) {
      Obj *var = needy->data[i];
      error_at(var->tok, "state variable '%s' (%s) has no default value: assign it in an init "
                         "block", var->name, type_name(resolve(var->type)));
      const char *opt = optional_spelling(var->type);
      if (opt)
        hint("or make it optional (default none): %s", opt);
    }
}

// Functions do not recurse.
static void check_no_recursion(Program *p) {
  int nfns = 0;
  for (int i = 0; i < p->decls.len; i++)
    if (((Decl *)p->decls.data[i])->kind == DK_FN)
      ((Decl *)p->decls.data[i])->index = nfns++;
  int *state = xcalloc(nfns + 1, sizeof *state);
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->kind == DK_FN && state[d->index] == 0)
      check_recursion(d, state);
  }
  // Restore per-kind indexes (used by the emitter).
  int counts[DK_WATCH + 1] = {0};
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    d->index = counts[d->kind]++;
  }
}

// Loops over scalarsets do not depend on the order of the elements.
static void check_scalarset_loops(Program *p) {
  for (int i = 0; i < p->decls.len; i++) {
    Decl *d = p->decls.data[i];
    if (d->kind == DK_FN || d->kind == DK_ACTION || d->kind == DK_INIT)
      find_loops(d->body);
  }
}

// The passes of the checker, in order; true if none found an error.
bool check(Program *p, Define *defs, int ndefs) {
  reset_checker(p, defs, ndefs);
  int errors_before = error_count();
  declare_globals(p);
  check_defines(p, defs, ndefs);
  Vec needy = {0};
  bool has_init = false;
  check_declarations(p, &needy, &has_init);
  check_bodies(p);
  check_defaults(p, &needy, has_init);
  check_no_recursion(p);
  check_scalarset_loops(p);
  return error_count() == errors_before;
}
