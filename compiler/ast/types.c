// SPDX-License-Identifier: MIT
// types.c: every question about a Type, in one place: what a name stands
// for (resolve), its kind (is_scalar), how messages name it (type_name), and
// its encoding: the bits of each value and the number of values (width and
// card, laid out on first use; mcrt.h states the encodings, and the runtime
// prints states from the same rules).
#include "mcgen.h"

static Type ty_error_ = {.kind = TY_ERROR};
Type *const ty_error = &ty_error_;

//
// Names
//

Type *resolve(Type *ty) {
  for (int guard = 0; ty && ty->kind == TY_NAMED; guard++) {
    if (!ty->target || guard > 1000)
      return ty_error;
    ty = ty->target;
  }
  return ty;
}

bool is_scalar(const Type *ty) {
  switch (ty->kind) {
  case TY_BOOL:
  case TY_RANGE:
  case TY_ENUM:
  case TY_SCALARSET:
  case TY_INT:
    return true;
  default:
    return false;
  }
}

const char *type_name(const Type *ty) {
  if (!ty)
    return "nothing";
  if (ty->kind == TY_NAMED)
    return ty->ref ? token_text(ty->ref) : "?";
  if (ty->name)
    return ty->name;
  switch (ty->kind) {
  case TY_BOOL: return "bool";
  case TY_INT: return "int";
  case TY_RANGE: return format("%lld..%lld", (long long)ty->lo, (long long)ty->hi);
  case TY_ENUM: return "enum";
  case TY_SCALARSET: return format("scalarset(%lld)", (long long)ty->size);
  case TY_OPTIONAL: return format("%s?", type_name(resolve(ty->base)));
  case TY_ARRAY:
    return format("[%s] %s", type_name(resolve(ty->index)), type_name(resolve(ty->base)));
  case TY_RECORD: return "record";
  case TY_SET: return format("set<%s>", type_name(resolve(ty->base)));
  case TY_MULTISET:
    return format("multiset<%s, %lld>", type_name(resolve(ty->base)), (long long)ty->size);
  case TY_QUEUE:
    return format("queue<%s, %lld>", type_name(resolve(ty->base)), (long long)ty->size);
  case TY_NONE: return "none";
  case TY_STRING: return "string";
  case TY_ERROR: return "<error>";
  case TY_NAMED: break;
  }
  unreachable();
}

//
// Encodings
//

// Bits to encode n distinct values (0 for a single value).
static int64_t bits_for(unsigned __int128 n) {
  int64_t b = 0;
  while (n > 1 && ((unsigned __int128)1 << b) < n)
    b++;
  return b;
}

static const int64_t MAX_ELEMENT_BITS = 56;              // one mcrt_get
static const int64_t MAX_SET_BITS = (int64_t)1 << 16;

static bool layout_type(Type *ty, Token *where);

// The number of distinct encodings of a collection element: its card if
// scalar, else every bit pattern of its width.
int64_t element_space(Type *ty) {
  ty = resolve(ty);
  return ty->card ? ty->card : (int64_t)1 << ty->width;
}

bool too_many_bits(Token *where, const char *what, int64_t bits, int64_t max) {
  error_at(where, "%s needs %lld bits; at most %lld are supported", what, (long long)bits,
           (long long)max);
  return false;
}

static bool layout_type(Type *ty, Token *where) {
  ty = resolve(ty);
  if (ty->tok)
    where = ty->tok;
  if (ty->width || ty->card)
    return true; // done before (types are shared)
  switch (ty->kind) {
  case TY_INT: // a computed integer held by a local: 64 bits, never packed
    ty->width = 64;
    return true;
  case TY_BOOL:
    ty->card = 2, ty->width = 1;
    return true;
  case TY_RANGE: {
    unsigned __int128 n = (unsigned __int128)((__int128)ty->hi - ty->lo + 1);
    ty->width = bits_for(n);
    ty->card = n > (unsigned __int128)INT64_MAX ? INT64_MAX : (int64_t)n;
    return true;
  }
  case TY_ENUM:
    ty->card = ty->members.len, ty->width = bits_for(ty->members.len);
    return true;
  case TY_SCALARSET:
    ty->card = ty->size, ty->width = bits_for(ty->size);
    return true;
  case TY_OPTIONAL: {
    Type *base = resolve(ty->base);
    if (!layout_type(base, where))
      return false;
    // none is one more value (the encoding 0). A range's card is capped at
    // INT64_MAX, so its width comes from its true size (up to 2^64 - 1
    // values: check() keeps INT64_MIN, the logical none, out of optionals).
    unsigned __int128 n = base->kind == TY_RANGE
                              ? (unsigned __int128)((__int128)base->hi - base->lo + 1)
                              : (unsigned __int128)base->card;
    ty->width = bits_for(n + 1);
    ty->card = n + 1 > (unsigned __int128)INT64_MAX ? INT64_MAX : (int64_t)(n + 1);
    return true;
  }
  case TY_ARRAY: {
    Type *index = resolve(ty->index), *base = resolve(ty->base);
    if (!layout_type(index, where) || !layout_type(base, where))
      return false;
    __int128 w = (__int128)index->card * base->width;
    if (w > MAX_STATE_BITS)
      return too_many_bits(where, "this array", (int64_t)(w > INT64_MAX ? INT64_MAX : w),
                           MAX_STATE_BITS);
    ty->width = (int64_t)w;
    return true;
  }
  case TY_RECORD: {
    int64_t off = 0;
    for (int i = 0; i < ty->nfields; i++) {
      Type *fty = resolve(ty->fields[i]->type);
      if (!layout_type(fty, where))
        return false;
      ty->fields[i]->offset = off;
      off += fty->width;
      if (off > MAX_STATE_BITS)
        return too_many_bits(where, "this record", off, MAX_STATE_BITS);
    }
    ty->width = off;
    return true;
  }
  case TY_SET:
  case TY_MULTISET:
  case TY_QUEUE: {
    Type *base = resolve(ty->base);
    if (!layout_type(base, where))
      return false;
    if (base->width > MAX_ELEMENT_BITS)
      return too_many_bits(where, "an element of this collection", base->width, MAX_ELEMENT_BITS);
    if (ty->kind == TY_SET) {
      int64_t space = element_space(base);
      if (base->width > 16 || space > MAX_SET_BITS)
        return too_many_bits(where, "this set", base->width > 16 ? (int64_t)1 << 17 : space,
                             MAX_SET_BITS);
      ty->width = space;
    } else if (ty->kind == TY_MULTISET) {
      ty->width = ty->size * (base->width + 1);
    } else {
      ty->width = bits_for((unsigned __int128)ty->size + 1) + ty->size * base->width;
    }
    return true;
  }
  default:
    unreachable();
  }
}

// Lays out a type met outside the state (a local, parameter or fn result).
bool layout_of(Type *ty, Token *where) { return layout_type(resolve(ty), where); }

// The number of values of a scalar type (0: not scalar), laid out first.
int64_t card_of(Type *ty) {
  ty = resolve(ty);
  layout_of(ty, ty->tok);
  return ty->card;
}

// The number of values a parameter takes: its type's, or the elements of
// its `in` collection's type.
int64_t binder_card(Binder *b) {
  if (b->in_expr)
    return element_space(resolve(b->in_expr->ty)->base);
  // A range written in place (`q: 0..N-1`) is no state variable's type:
  // the emitter lays it out on demand, and mcgen --deps gets here first
  // (its card still 0, the bindings were counted as none and then
  // enumerated past the tables' end).
  layout_of(b->type, b->name);
  return resolve(b->type)->card;
}

// Appends to `out` every scalarset a type holds that is not there yet, in
// the order met: an array's index before its elements, the fields in order,
// the base of an optional or a collection.
void scalarsets_in(Type *ty, Vec *out) {
  ty = resolve(ty);
  switch (ty->kind) {
  case TY_SCALARSET:
    for (int i = 0; i < out->len; i++)
      if (out->data[i] == ty)
        return;
    vec_push(out, ty);
    return;
  case TY_ARRAY:
    scalarsets_in(ty->index, out);
    scalarsets_in(ty->base, out);
    return;
  case TY_OPTIONAL:
  case TY_SET:
  case TY_MULTISET:
  case TY_QUEUE:
    scalarsets_in(ty->base, out);
    return;
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++)
      scalarsets_in(ty->fields[i]->type, out);
    return;
  default:
    return;
  }
}

// The first scalarset a type holds (a permutation can change its values),
// or NULL.
Type *scalarset_in(Type *ty) {
  Vec found = {0};
  scalarsets_in(ty, &found);
  return found.len ? found.data[0] : NULL;
}

//
// Values
//

// The name of value `e` (an encoding) of a finite scalar type, as the
// runtime prints it in traces and reports.
char *value_name(Type *ty, int64_t e) {
  ty = resolve(ty);
  switch (ty->kind) {
  case TY_BOOL:
    return e ? "true" : "false";
  case TY_RANGE:
    return format("%lld", (long long)(ty->lo + e));
  case TY_ENUM:
    return ty->member_labels ? (char *)ty->member_labels[e] : token_text(ty->members.data[e]);
  case TY_SCALARSET:
    return format("%s_%lld", ty->name ? ty->name : "scalarset", (long long)e + 1);
  default:
    return format("%lld", (long long)e);
  }
}
