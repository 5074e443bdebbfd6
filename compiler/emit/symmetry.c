// SPDX-License-Identifier: MIT
// symmetry.c: what a checker needs to explore one state per symmetry class.
// Requires check() and layout().
//
// The symmetry group of a spec is the product of the permutation groups of
// its scalarsets (docs/LANGUAGE.md: nothing may tell two elements apart). Only
// the scalarsets that occur in the state matter; each gets an index k and,
// in the generated C, the table of all its permutations (for N <= 7; the
// runtime builds larger ones itself when asked to enumerate them).
//
// Two functions are written, specialised to the state layout:
//
//   mc_sym_apply(in, out, pm)  applies one group element: pm[k][i] is the
//     element that element i of scalarset k becomes. Arrays indexed by a
//     scalarset move their entries; values of a scalarset are renamed
//     wherever they are (fields, records, optionals, collection elements,
//     nested); a set's bit positions are renamed, a multiset's slots renamed
//     and sorted again (its encoding is canonical), a queue's slots renamed
//     in place. Everything without a scalarset in it is copied bit for bit.
//
//   mc_sym_keys(s, key)  adds to key[k][i] a hash of what the state says
//     about element i of scalarset k, in a way no permutation changes: the
//     entries of arrays at index i (scalarset values in them reduced to
//     "none", "i itself" or "another element"), and each place i occurs as
//     a value (where, not next to which other element). Sums of hashes, so
//     the order of the walk does not matter. The runtime sorts each
//     scalarset's elements by key and only has to try the orders of
//     elements with equal keys (runtime/store/symmetry.c): an exact canonical form,
//     far cheaper than all N! permutations.
#include "mcgen.h"

static Vec syms;      // Type*: scalarsets in the state, in the order met
static int nvars_c;   // counter for unique C names
static Buf helpers;   // element renaming helpers, written before their users
static Vec renamed_types, renamer_names; // the helpers written so far

static Type *R(Type *ty) { return resolve(ty); }

// The index of a scalarset among syms, or -1.
static int sym_index(Type *ty) {
  ty = R(ty);
  for (int i = 0; i < syms.len; i++)
    if (syms.data[i] == ty)
      return i;
  return -1;
}

// The scalarset a scalar leaf holds (plain or optional), or -1.
static int leaf_sym(Type *ty) {
  ty = R(ty);
  if (ty->kind == TY_OPTIONAL)
    ty = R(ty->base);
  return ty->kind == TY_SCALARSET ? sym_index(ty) : -1;
}

static char *cname(const char *prefix) { return format("%s%d", prefix, ++nvars_c); }

static void ln(Buf *b, int ind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void ln(Buf *b, int ind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = vformat(fmt, ap);
  va_end(ap);
  buf_printf(b, "%*s%s\n", ind * 2, "", s);
}

static char *plus(const char *off, const char *what, int64_t scale) {
  return format("%s + (uint64_t)%s * %lld", off, what, (long long)scale);
}

static int64_t queue_len_width(Type *ty) { return ty->width - ty->size * R(ty->base)->width; }

//
// mc_sym_apply
//

static void gen_apply(Buf *b, int ind, Type *ty, const char *in, const char *ioff, const char *out,
                      const char *ooff);

// The name of a function renaming the encoding of a collection element of
// type ty (written once per type into helpers).
static const char *elem_renamer(Type *ty) {
  ty = R(ty);
  for (int i = 0; i < renamed_types.len; i++)
    if (renamed_types.data[i] == ty)
      return renamer_names.data[i];
  char *name = cname("mc_sym_elem_");
  vec_push(&renamed_types, ty);
  vec_push(&renamer_names, name);
  Buf f = {0};
  ln(&f, 0, "/* Renames the encoding of a collection element (%s). */", type_name(ty));
  ln(&f, 0, "static uint64_t %s(uint64_t e, const uint8_t *const *pm) {", name);
  ln(&f, 1, "uint8_t a[16] = {0}, b[16] = {0};");
  ln(&f, 1, "mcrt_set(a, 0, %lld, e);", (long long)ty->width);
  gen_apply(&f, 1, ty, "a", "0", "b", "0");
  ln(&f, 1, "return mcrt_get(b, 0, %lld);", (long long)ty->width);
  ln(&f, 0, "}");
  buf_puts(&helpers, f.data);
  return name;
}

static void gen_apply_array(Buf *b, int ind, Type *ty, const char *in, const char *ioff,
                            const char *out, const char *ooff) {
  Type *index = R(ty->index), *base = R(ty->base);
  int64_t w = base->width, n = index->card;
  int k = index->kind == TY_SCALARSET ? sym_index(index) : -1;
  char *j = cname("j");
  ln(b, ind, "for (unsigned %s = 0; %s < %lld; %s++) {", j, j, (long long)n, j);
  char *to = k >= 0 ? format("pm[%d][%s]", k, j) : j;
  gen_apply(b, ind + 1, base, in, plus(ioff, j, w), out, plus(ooff, to, w));
  ln(b, ind, "}");
}

static void gen_apply_set(Buf *b, int ind, Type *ty, const char *in, const char *ioff,
                          const char *out, const char *ooff) {
  int64_t space = element_space(ty->base);
  const char *ren = elem_renamer(ty->base);
  char *c = cname("c"), *m = cname("m"), *e = cname("e");
  ln(b, ind, "mcrt_clear(%s, %s, %lld);", out, ooff, (long long)space);
  ln(b, ind, "for (uint64_t %s = 0; %s < %lld; %s += 56) {", c, c, (long long)space, c);
  ln(b, ind + 1, "uint64_t %s = mcrt_get(%s, %s, (unsigned)(%lld - %s < 56 ? %lld - %s : 56));",
     m, in, plus(ioff, c, 1), (long long)space, c, (long long)space, c);
  ln(b, ind + 1, "for (; %s; %s &= %s - 1) {", m, m, m);
  ln(b, ind + 2, "uint64_t %s = %s + (uint64_t)__builtin_ctzll(%s);", e, c, m);
  ln(b, ind + 2, "mcrt_set(%s, %s + %s(%s, pm), 1, 1);", out, ooff, ren, e);
  ln(b, ind + 1, "}");
  ln(b, ind, "}");
}

static void gen_apply_multiset(Buf *b, int ind, Type *ty, const char *in, const char *ioff,
                               const char *out, const char *ooff) {
  int64_t k = ty->size, sw = R(ty->base)->width + 1;
  const char *ren = elem_renamer(ty->base);
  char *v = cname("v"), *n = cname("n"), *i = cname("i"), *x = cname("x"), *p = cname("p");
  ln(b, ind, "{ /* renamed, then sorted again: the encoding is canonical */");
  // Zeroed, though only the first n entries are read: GCC cannot tell.
  ln(b, ind + 1, "uint64_t %s[%lld] = {0};", v, (long long)k);
  ln(b, ind + 1, "unsigned %s = 0;", n);
  ln(b, ind + 1, "for (unsigned %s = 0; %s < %lld; %s++) {", i, i, (long long)k, i);
  ln(b, ind + 2, "uint64_t %s = mcrt_get(%s, %s, %lld);", x, in, plus(ioff, i, sw), (long long)sw);
  ln(b, ind + 2, "if (!%s)", x);
  ln(b, ind + 3, "break;");
  ln(b, ind + 2, "%s = %s(%s - 1, pm) + 1;", x, ren, x);
  ln(b, ind + 2, "unsigned %s = %s++;", p, n);
  ln(b, ind + 2, "for (; %s > 0 && %s[%s - 1] > %s; %s--)", p, v, p, x, p);
  ln(b, ind + 3, "%s[%s] = %s[%s - 1];", v, p, v, p);
  ln(b, ind + 2, "%s[%s] = %s;", v, p, x);
  ln(b, ind + 1, "}");
  ln(b, ind + 1, "for (unsigned %s = 0; %s < %lld; %s++)", i, i, (long long)k, i);
  ln(b, ind + 2, "mcrt_set(%s, %s, %lld, %s < %s ? %s[%s] : 0);", out, plus(ooff, i, sw),
     (long long)sw, i, n, v, i);
  ln(b, ind, "}");
}

static void gen_apply_queue(Buf *b, int ind, Type *ty, const char *in, const char *ioff,
                            const char *out, const char *ooff) {
  Type *base = R(ty->base);
  int64_t lw = queue_len_width(ty), ew = base->width;
  char *n = cname("n"), *i = cname("i");
  ln(b, ind, "mcrt_copy_bits(%s, %s, %s, %s, %lld);", out, ooff, in, ioff, (long long)ty->width);
  ln(b, ind, "for (uint64_t %s = 0, %s = mcrt_get(%s, %s, %lld); %s < %s; %s++) {", i, n, in, ioff,
     (long long)lw, i, n, i);
  gen_apply(b, ind + 1, base, in, plus(format("%s + %lld", ioff, (long long)lw), i, ew), out,
            plus(format("%s + %lld", ooff, (long long)lw), i, ew));
  ln(b, ind, "}");
}

// Writes the statements that store the image of the value of type ty at
// in+ioff into out+ooff.
static void gen_apply(Buf *b, int ind, Type *ty, const char *in, const char *ioff, const char *out,
                      const char *ooff) {
  ty = R(ty);
  if (!scalarset_in(ty)) {
    if (ty->width > 0)
      ln(b, ind, "mcrt_copy_bits(%s, %s, %s, %s, %lld);", out, ooff, in, ioff,
         (long long)ty->width);
    return;
  }
  int k = leaf_sym(ty);
  long long w = (long long)ty->width;
  switch (ty->kind) {
  case TY_SCALARSET:
    if (w > 0)
      ln(b, ind, "mcrt_set(%s, %s, %lld, pm[%d][mcrt_get(%s, %s, %lld)]);", out, ooff, w, k, in,
         ioff, w);
    return;
  case TY_OPTIONAL: {
    char *v = cname("v");
    ln(b, ind, "{ uint64_t %s = mcrt_get(%s, %s, %lld);", v, in, ioff, w);
    ln(b, ind + 1, "mcrt_set(%s, %s, %lld, %s ? (uint64_t)pm[%d][%s - 1] + 1 : 0); }", out, ooff, w,
       v, k, v);
    return;
  }
  case TY_ARRAY:
    gen_apply_array(b, ind, ty, in, ioff, out, ooff);
    return;
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++) {
      Field *f = ty->fields[i];
      gen_apply(b, ind, f->type, in, format("%s + %lld", ioff, (long long)f->offset), out,
                format("%s + %lld", ooff, (long long)f->offset));
    }
    return;
  case TY_SET:
    gen_apply_set(b, ind, ty, in, ioff, out, ooff);
    return;
  case TY_MULTISET:
    gen_apply_multiset(b, ind, ty, in, ioff, out, ooff);
    return;
  case TY_QUEUE:
    gen_apply_queue(b, ind, ty, in, ioff, out, ooff);
    return;
  default:
    unreachable();
  }
}

//
// mc_sym_keys
//

// owner[k]: the C name of the element of scalarset k whose array entry is
// being walked, or NULL outside any array indexed by k.
typedef const char **Owners;

static Owners owners_copy(Owners o) {
  Owners c = xcalloc(syms.len + 1, sizeof *c);
  memcpy(c, o, syms.len * sizeof *c);
  return c;
}

static bool any_owner(Owners o) {
  for (int k = 0; k < syms.len; k++)
    if (o[k])
      return true;
  return false;
}

static char *mix(const char *path, const char *what) {
  return format("mcrt_sym_mix(%s, %s)", path, what);
}

// Adds mix(path, what) to the key of every owner.
static void to_owners(Buf *b, int ind, Owners o, const char *path, const char *what) {
  for (int k = 0; k < syms.len; k++)
    if (o[k])
      ln(b, ind, "key[%d][%s] += %s;", k, o[k], mix(path, what));
}

static void gen_key(Buf *b, int ind, Type *ty, const char *s, const char *off, const char *path,
                    Owners o);

// A scalar leaf of scalarset k (plain or optional): the element it names
// gets "occurs here"; owners learn none / itself / another.
static void gen_key_leaf(Buf *b, int ind, Type *ty, const char *s, const char *off,
                         const char *path, Owners o) {
  int k = leaf_sym(ty);
  bool opt = R(ty)->kind == TY_OPTIONAL;
  char *v = cname("v");
  ln(b, ind, "{ uint64_t %s = mcrt_get(%s, %s, %lld);", v, s, off, (long long)R(ty)->width);
  const char *present = opt ? v : "1";
  char *idx = opt ? format("%s - 1", v) : v;
  if (opt)
    ln(b, ind + 1, "if (%s)", v);
  ln(b, ind + (opt ? 2 : 1), "key[%d][%s] += %s;", k, idx, mix(path, "1"));
  for (int m = 0; m < syms.len; m++) {
    if (!o[m])
      continue;
    if (m == k)
      ln(b, ind + 1, "key[%d][%s] += %s;", m, o[m],
         mix(path, format("!%s ? 2 : %s == %s ? 3 : 4", present, idx, o[m])));
    else
      ln(b, ind + 1, "key[%d][%s] += %s;", m, o[m], mix(path, format("%s ? 5 : 2", present)));
  }
  ln(b, ind, "}");
}

// Walks each element of a set or multiset from a buffer of its own.
static void gen_key_members(Buf *b, int ind, Type *ty, const char *s, const char *off,
                            const char *path, Owners o) {
  Type *elem = R(ty->base);
  char *tb = cname("tb"), *e = cname("e");
  char *mpath = mix(path, "11");
  if (ty->kind == TY_SET) {
    int64_t space = element_space(elem);
    ln(b, ind, "for (uint64_t %s = 0; %s < %lld; %s++) {", e, e, (long long)space, e);
    ln(b, ind + 1, "if (!mcrt_get(%s, %s, 1))", s, plus(off, e, 1));
    ln(b, ind + 2, "continue;");
  } else {
    int64_t sw = elem->width + 1;
    char *x = cname("x");
    ln(b, ind, "for (uint64_t %s = 0; %s < %lld; %s++) {", e, e, (long long)ty->size, e);
    ln(b, ind + 1, "uint64_t %s = mcrt_get(%s, %s, %lld);", x, s, plus(off, e, sw), (long long)sw);
    ln(b, ind + 1, "if (!%s)", x);
    ln(b, ind + 2, "break;");
    e = format("%s - 1", x);
  }
  ln(b, ind + 1, "uint8_t %s[16] = {0};", tb);
  ln(b, ind + 1, "mcrt_set(%s, 0, %lld, %s);", tb, (long long)elem->width, e);
  gen_key(b, ind + 1, elem, tb, "0", mpath, o);
  ln(b, ind, "}");
}

// Writes the statements that add what the value of type ty at s+off says
// about scalarset elements to their keys.
static void gen_key(Buf *b, int ind, Type *ty, const char *s, const char *off, const char *path,
                    Owners o) {
  ty = R(ty);
  if (!scalarset_in(ty)) {
    // Plain data: only an owner can learn from it (as 56-bit pieces).
    if (!any_owner(o))
      return;
    for (int64_t c = 0; c < ty->width; c += 56) {
      int64_t n = ty->width - c < 56 ? ty->width - c : 56;
      to_owners(b, ind, o, mix(path, format("%lld", (long long)c)),
                format("mcrt_get(%s, %s + %lld, %lld)", s, off, (long long)c, (long long)n));
    }
    return;
  }
  switch (ty->kind) {
  case TY_SCALARSET:
  case TY_OPTIONAL:
    gen_key_leaf(b, ind, ty, s, off, path, o);
    return;
  case TY_ARRAY: {
    Type *index = R(ty->index), *base = R(ty->base);
    int k = index->kind == TY_SCALARSET ? sym_index(index) : -1;
    char *j = cname("j");
    Owners o2 = owners_copy(o);
    const char *p2;
    if (k >= 0 && !o[k]) {
      o2[k] = j; // the entry of element j
      p2 = mix(path, "7");
    } else if (k >= 0) {
      p2 = mix(path, format("%s == %s ? 8 : 9", j, o[k]));
    } else {
      p2 = mix(path, format("100 + %s", j));
    }
    ln(b, ind, "for (unsigned %s = 0; %s < %lld; %s++) {", j, j, (long long)index->card, j);
    gen_key(b, ind + 1, base, s, plus(off, j, base->width), p2, o2);
    ln(b, ind, "}");
    return;
  }
  case TY_RECORD:
    for (int i = 0; i < ty->nfields; i++) {
      Field *f = ty->fields[i];
      gen_key(b, ind, f->type, s, format("%s + %lld", off, (long long)f->offset),
              mix(path, format("%d", 200 + i)), o);
    }
    return;
  case TY_SET:
  case TY_MULTISET:
    gen_key_members(b, ind, ty, s, off, path, o);
    return;
  case TY_QUEUE: {
    Type *base = R(ty->base);
    int64_t lw = queue_len_width(ty);
    char *n = cname("n"), *i = cname("i");
    ln(b, ind, "{ uint64_t %s = mcrt_get(%s, %s, %lld);", n, s, off, (long long)lw);
    to_owners(b, ind + 1, o, path, n);
    ln(b, ind + 1, "for (uint64_t %s = 0; %s < %s; %s++) {", i, i, n, i);
    gen_key(b, ind + 2, base, s, plus(format("%s + %lld", off, (long long)lw), i, base->width),
            mix(path, format("300 + %s", i)), o);
    ln(b, ind + 1, "}");
    ln(b, ind, "}");
    return;
  }
  default:
    unreachable();
  }
}

//
// Tables and the two functions
//

static const int MAX_TABLE_N = 7; // 7! = 5040 rows

// Writes all permutations of 0..n-1 in lexicographic order.
static void gen_perm_table(Buf *b, int k, int n) {
  int p[16];
  for (int i = 0; i < n; i++)
    p[i] = i;
  ln(b, 0, "static const uint8_t mc_perms_%d[] = {", k);
  for (;;) {
    buf_puts(b, " ");
    for (int i = 0; i < n; i++)
      buf_printf(b, " %d,", p[i]);
    buf_puts(b, "\n");
    int i = n - 2;
    while (i >= 0 && p[i] > p[i + 1])
      i--;
    if (i < 0)
      break;
    int j = n - 1;
    while (p[j] < p[i])
      j--;
    int t = p[i];
    p[i] = p[j], p[j] = t;
    for (int a = i + 1, z = n - 1; a < z; a++, z--)
      t = p[a], p[a] = p[z], p[z] = t;
  }
  ln(b, 0, "};");
}

int emit_symmetry(Layout *lay, Buf *out) {
  syms = (Vec){0};
  helpers = (Buf){0};
  renamed_types = (Vec){0}, renamer_names = (Vec){0};
  for (int i = 0; i < lay->vars.len; i++)
    scalarsets_in(((Obj *)lay->vars.data[i])->type, &syms);
  for (int k = 0; k < syms.len; k++) {
    Type *t = syms.data[k];
    if (t->size > 255) {
      // Permutations are stored as bytes; such a model runs unreduced.
      syms.len = 0;
      buf_printf(out, "/* No symmetry reduction: scalarset %s has more than 255 elements. */\n",
                 t->name ? t->name : "scalarset");
      return 0;
    }
  }
  if (!syms.len)
    return 0;

  Buf tables = {0};
  for (int k = 0; k < syms.len; k++) {
    Type *t = syms.data[k];
    if (t->size <= MAX_TABLE_N) {
      ln(&tables, 0, "/* Scalarset %s: its %lld! permutations, row r maps element i to row[i]. */",
         t->name ? t->name : "scalarset", (long long)t->size);
      gen_perm_table(&tables, k, (int)t->size);
    }
  }
  ln(&tables, 0, "static const McrtScalarset mc_scalarsets[] = {");
  for (int k = 0; k < syms.len; k++) {
    Type *t = syms.data[k];
    int64_t fact = 1;
    for (int64_t i = 2; i <= t->size; i++)
      fact *= i;
    bool table = t->size <= MAX_TABLE_N;
    ln(&tables, 1, "{\"%s\", %lld, %lld, %s},", t->name ? t->name : "scalarset",
       (long long)t->size, (long long)(table ? fact : 0),
       table ? format("mc_perms_%d", k) : "NULL");
  }
  ln(&tables, 0, "};");

  Buf apply = {0}, keys = {0};
  ln(&apply, 0, "/* Applies one permutation per scalarset (pm[k][i]: what element i of");
  ln(&apply, 0, " * scalarset k becomes) to the state in, writing every bit of out. */");
  ln(&apply, 0, "static void mc_sym_apply(const uint8_t *restrict in, uint8_t *restrict out,");
  ln(&apply, 0, "                         const uint8_t *const *pm) {");
  ln(&keys, 0, "/* Adds to key[k][i] what the state says about element i of scalarset k,");
  ln(&keys, 0, " * invariantly: a permutation of the state permutes the keys alike. */");
  ln(&keys, 0, "static void mc_sym_keys(const uint8_t *s, uint64_t *const *key) {");
  Owners none = xcalloc(syms.len + 1, sizeof *none);
  for (int i = 0; i < lay->vars.len; i++) {
    Obj *var = lay->vars.data[i];
    char *off = format("%lld", (long long)lay->offsets[i]);
    ln(&apply, 1, "/* %s */", var->name);
    gen_apply(&apply, 1, var->type, "in", off, "out", off);
    if (scalarset_in(var->type)) {
      ln(&keys, 1, "/* %s */", var->name);
      gen_key(&keys, 1, var->type, "s", off, format("%d", i + 1), none);
    }
  }
  ln(&apply, 0, "}");
  ln(&keys, 0, "}");
  buf_puts(out, tables.data);
  if (helpers.data)
    buf_puts(out, helpers.data);
  buf_puts(out, apply.data);
  buf_puts(out, keys.data);
  return syms.len;
}
