// layout.c: the bit encoding of every type and the offset of every state
// variable. Requires check().
//
// Each value is encoded in the fewest bits its type needs (mcrt.h states the
// encodings; the runtime prints states from the same rules). State
// variables are packed one after another in declaration order, with no
// alignment, so a state costs exactly the sum of its variables' widths.
#include "mcgen.h"

// Bits to encode n distinct values (0 for a single value).
static int64_t bits_for(unsigned __int128 n) {
  int64_t b = 0;
  while (n > 1 && ((unsigned __int128)1 << b) < n)
    b++;
  return b;
}

static const int64_t MAX_STATE_BITS = (int64_t)1 << 24; // 2 MiB per state
static const int64_t MAX_ELEMENT_BITS = 56;              // one mcrt_get
static const int64_t MAX_SET_BITS = (int64_t)1 << 16;

static bool layout_type(Type *ty, Token *where);

// The number of distinct encodings of a collection element: its card if
// scalar, else every bit pattern of its width.
int64_t element_space(Type *ty) {
  ty = resolve(ty);
  return ty->card ? ty->card : (int64_t)1 << ty->width;
}

static bool too_big(Token *where, const char *what, int64_t bits, int64_t max) {
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
      return too_big(where, "this array", (int64_t)(w > INT64_MAX ? INT64_MAX : w),
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
        return too_big(where, "this record", off, MAX_STATE_BITS);
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
      return too_big(where, "an element of this collection", base->width, MAX_ELEMENT_BITS);
    if (ty->kind == TY_SET) {
      int64_t space = element_space(base);
      if (base->width > 16 || space > MAX_SET_BITS)
        return too_big(where, "this set", base->width > 16 ? (int64_t)1 << 17 : space,
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

bool layout(Program *prog, Layout *out) {
  memset(out, 0, sizeof *out);
  bool ok = true;
  for (int i = 0; i < prog->decls.len; i++) {
    Decl *d = prog->decls.data[i];
    if (d->kind == DK_VAR)
      vec_push(&out->vars, d->obj);
  }
  out->offsets = xcalloc(out->vars.len + 1, sizeof *out->offsets);
  int64_t off = 0;
  for (int i = 0; i < out->vars.len; i++) {
    Obj *var = out->vars.data[i];
    if (!layout_type(var->type, var->tok)) {
      ok = false;
      continue;
    }
    out->offsets[i] = off;
    off += resolve(var->type)->width;
    if (off > MAX_STATE_BITS) {
      ok = too_big(var->tok, "the state", off, MAX_STATE_BITS);
      break;
    }
  }
  // Types that appear outside state variables (parameters, locals, fn
  // signatures) are laid out on demand by the emitter through layout_of().
  out->state_bits = off;
  out->state_bytes = (off + 7) / 8;
  if (out->state_bytes == 0)
    out->state_bytes = 1;
  return ok;
}

// Lays out a type met outside the state (a local, parameter or fn result).
bool layout_of(Type *ty, Token *where) { return layout_type(resolve(ty), where); }
