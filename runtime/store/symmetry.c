// SPDX-License-Identifier: MIT
// symmetry.c: canonical forms of states under scalarset permutations, and
// genuine traces under symmetry reduction.
//
// Definition. The symmetry group G is the product, over the model's
// scalarsets, of all permutations of each (the generated mc_sym_apply
// applies one element of G). The canonical form of a state s is the
// smallest of the encodings {g(s) : g in a candidate set C(s)}, compared as
// byte strings (memcmp), where C(s) must satisfy
//     { g(s) : g in C(s) }  =  { g(h(s)) : g in C(h(s)) }  for every h in G,
// which makes the canonical form a function of the orbit: exactly one state
// per symmetry class, whatever C is otherwise.
//
// Two methods:
//   exhaustive  C(s) = G: every permutation of every scalarset, from the
//               tables the generated file carries (N! per scalarset). The
//               reference; the smallest encoding of the whole orbit.
//   sorted      the generated mc_sym_keys gives each element a key that
//               permutations carry along (key_{h(s)}(h(i)) = key_s(i)).
//               C(s) is the set of permutations that send the elements, in
//               ascending key order, to 0, 1, 2, ...: only elements with
//               equal keys (a tie) may go in either order. C(h(s)) is then
//               C(s) composed with h^-1, so the condition above holds.
//               A tie whose every adjacent transposition leaves s unchanged
//               is a group of elements s cannot tell apart: all its orders
//               give the same image, and one is tried. Far fewer candidates
//               than N! (usually one). The representative may differ from
//               the exhaustive one (it is the least of fewer encodings); the
//               number of classes is the same, which the tests check.
// `auto` picks exhaustive when G has at most 6 elements, sorted otherwise.
#include "store/store.h"

#include <stdlib.h>

static void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p)
    mcrt_die("out of memory");
  return p;
}

// All permutations of 0..n-1 in lexicographic order (n <= 10).
static uint8_t *build_table(uint32_t n, uint64_t *count) {
  uint64_t f = 1;
  for (uint32_t i = 2; i <= n; i++)
    f *= i;
  uint8_t *t = xmalloc(f * n), p[16];
  for (uint32_t i = 0; i < n; i++)
    p[i] = (uint8_t)i;
  for (uint64_t r = 0; r < f; r++) {
    memcpy(t + r * n, p, n);
    if (n < 2)
      break;
    int i = (int)n - 2;
    while (i >= 0 && p[i] > p[i + 1])
      i--;
    if (i < 0)
      break;
    int j = (int)n - 1;
    while (p[j] < p[i])
      j--;
    uint8_t x = p[i];
    p[i] = p[j], p[j] = x;
    for (int a = i + 1, z = (int)n - 1; a < z; a++, z--)
      x = p[a], p[a] = p[z], p[z] = x;
  }
  *count = f;
  return t;
}

bool mcrt_sym_available(const McrtModel *m) { return m->nsym > 0 && m->sym_apply && m->sym_keys; }

McrtSym *mcrt_sym_new(const McrtModel *m, McrtSymMethod method) {
  if (!mcrt_sym_available(m))
    return NULL;
  McrtSym *sy = xmalloc(sizeof *sy);
  sy->model = m;
  sy->n = m->nsym;
  sy->state_bytes = m->state_bytes;
  size_t bytes = m->state_bytes + MCRT_SLACK;
  sy->tmp = xmalloc(bytes);
  sy->best = xmalloc(bytes);
  sy->pm = xmalloc(sy->n * sizeof *sy->pm);
  sy->key = xmalloc(sy->n * sizeof *sy->key);
  sy->order = xmalloc(sy->n * sizeof *sy->order);
  sy->tables = xmalloc(sy->n * sizeof *sy->tables);
  sy->nperms = xmalloc(sy->n * sizeof *sy->nperms);
  sy->row = xmalloc(sy->n * sizeof *sy->row);
  double group = 1;
  for (uint32_t k = 0; k < sy->n; k++) {
    uint32_t size = m->sym[k].size;
    sy->pm[k] = xmalloc(size);
    sy->key[k] = xmalloc(size * sizeof **sy->key);
    sy->order[k] = xmalloc(size);
    sy->ties = sy->ties > size ? sy->ties : size;
    for (uint32_t i = 2; i <= size; i++)
      group *= i;
  }
  sy->seg = xmalloc((sy->ties + 1) * sy->n * sizeof *sy->seg);
  if (method == MCRT_SYM_METHOD_AUTO)
    method = group <= 6 ? MCRT_SYM_METHOD_EXHAUSTIVE : MCRT_SYM_METHOD_SORTED;
  sy->method = method;
  return sy;
}

// Tables for the exhaustive method: the model's, or built (N <= 10).
// False when a scalarset is too large to enumerate.
static bool need_tables(McrtSym *sy) {
  if (sy->have_tables)
    return true;
  for (uint32_t k = 0; k < sy->n; k++) {
    const McrtScalarset *s = &sy->model->sym[k];
    if (s->perms) {
      sy->tables[k] = (uint8_t *)s->perms;
      sy->nperms[k] = s->nperms;
    } else if (s->size <= 10) {
      sy->tables[k] = build_table(s->size, &sy->nperms[k]);
    } else {
      return false;
    }
  }
  sy->have_tables = true;
  return true;
}

void mcrt_sym_free(McrtSym *sy) {
  if (!sy)
    return;
  for (uint32_t k = 0; k < sy->n; k++) {
    if (sy->have_tables && sy->tables[k] != sy->model->sym[k].perms)
      free(sy->tables[k]);
    free(sy->pm[k]);
    free(sy->key[k]);
    free(sy->order[k]);
  }
  free(sy->pm), free(sy->key), free(sy->order), free(sy->tables), free(sy->nperms);
  free(sy->row), free(sy->seg), free(sy->tmp), free(sy->best);
  free(sy);
}

const char *mcrt_sym_method_name(McrtSymMethod m) {
  switch (m) {
  case MCRT_SYM_METHOD_AUTO: return "auto";
  case MCRT_SYM_METHOD_EXHAUSTIVE: return "exhaustive";
  case MCRT_SYM_METHOD_SORTED: return "sorted";
  }
  return "?";
}

// Tries the permutation in sy->pm: keeps its image if it is the least yet.
static void try_candidate(McrtSym *sy, const uint8_t *in, bool first) {
  sy->model->sym_apply(in, sy->tmp, (const uint8_t *const *)sy->pm);
  sy->candidates++;
  if (first || memcmp(sy->tmp, sy->best, sy->state_bytes) < 0) {
    uint8_t *t = sy->best;
    sy->best = sy->tmp, sy->tmp = t;
  }
}

// The reference: every combination of one table row per scalarset.
static bool canon_exhaustive(McrtSym *sy, const uint8_t *in, uint8_t *out) {
  if (!need_tables(sy))
    return false;
  uint32_t n = sy->n;
  for (uint32_t k = 0; k < n; k++)
    sy->row[k] = 0;
  for (bool first = true;; first = false) {
    for (uint32_t k = 0; k < n; k++)
      memcpy(sy->pm[k], sy->tables[k] + sy->row[k] * sy->model->sym[k].size,
             sy->model->sym[k].size);
    try_candidate(sy, in, first);
    uint32_t k = 0;
    while (k < n && ++sy->row[k] == sy->nperms[k])
      sy->row[k++] = 0;
    if (k == n)
      break;
  }
  memcpy(out, sy->best, sy->state_bytes);
  return true;
}

// Sorts order[k] by key (ties by element number, so each tie starts in
// ascending order). Insertion sort: scalarsets are small.
static void sort_by_key(const uint64_t *key, uint8_t *order, uint32_t size) {
  for (uint32_t i = 0; i < size; i++) {
    uint8_t e = (uint8_t)i;
    uint32_t p = i;
    for (; p > 0 && key[order[p - 1]] > key[e]; p--)
      order[p] = order[p - 1];
    order[p] = e;
  }
}

// Whether every adjacent transposition within order[k][a..b) leaves the
// state unchanged (then every order of those elements gives the same image).
static bool tie_is_free(McrtSym *sy, const uint8_t *in, uint32_t k, uint32_t a, uint32_t b) {
  for (uint32_t j = 0; j < sy->n; j++)
    for (uint32_t i = 0; i < sy->model->sym[j].size; i++)
      sy->pm[j][i] = (uint8_t)i;
  for (uint32_t p = a; p + 1 < b; p++) {
    uint8_t x = sy->order[k][p], y = sy->order[k][p + 1];
    sy->pm[k][x] = y, sy->pm[k][y] = x;
    sy->model->sym_apply(in, sy->tmp, (const uint8_t *const *)sy->pm);
    sy->pm[k][x] = x, sy->pm[k][y] = y;
    if (memcmp(sy->tmp, in, sy->state_bytes) != 0)
      return false;
  }
  return true;
}

// Next permutation of a[0..n) in lexicographic order; false (and a sorted
// again) after the last.
static bool next_perm(uint8_t *a, uint32_t n) {
  if (n < 2)
    return false;
  int i = (int)n - 2;
  while (i >= 0 && a[i] > a[i + 1])
    i--;
  if (i >= 0) {
    int j = (int)n - 1;
    while (a[j] < a[i])
      j--;
    uint8_t x = a[i];
    a[i] = a[j], a[j] = x;
  }
  for (int p = i + 1, z = (int)n - 1; p < z; p++, z--) {
    uint8_t x = a[p];
    a[p] = a[z], a[z] = x;
  }
  return i >= 0;
}

// Sets pm from the orders: the element at position p becomes element p.
static void perms_from_orders(McrtSym *sy) {
  for (uint32_t k = 0; k < sy->n; k++)
    for (uint32_t p = 0; p < sy->model->sym[k].size; p++)
      sy->pm[k][sy->order[k][p]] = (uint8_t)p;
}

static void canon_sorted(McrtSym *sy, const uint8_t *in, uint8_t *out) {
  const McrtModel *m = sy->model;
  for (uint32_t k = 0; k < sy->n; k++)
    memset(sy->key[k], 0, m->sym[k].size * sizeof **sy->key);
  m->sym_keys(in, sy->key);

  // The ties that must be enumerated.
  uint32_t nseg = 0;
  for (uint32_t k = 0; k < sy->n; k++) {
    uint32_t size = m->sym[k].size;
    sort_by_key(sy->key[k], sy->order[k], size);
    for (uint32_t a = 0, b; a < size; a = b) {
      for (b = a + 1; b < size && sy->key[k][sy->order[k][b]] == sy->key[k][sy->order[k][a]]; b++)
        ;
      if (b - a > 1 && !tie_is_free(sy, in, k, a, b))
        sy->seg[nseg++] = (McrtSymSeg){k, a, b - a};
    }
  }
  if (nseg == 0) {
    perms_from_orders(sy);
    m->sym_apply(in, out, (const uint8_t *const *)sy->pm);
    sy->candidates++;
    return;
  }
  // Every combination of orders within the ties (an odometer; each tie
  // starts ascending and next_perm leaves it ascending after its last).
  for (bool first = true;; first = false) {
    perms_from_orders(sy);
    try_candidate(sy, in, first);
    uint32_t i = 0;
    while (i < nseg && !next_perm(sy->order[sy->seg[i].k] + sy->seg[i].start, sy->seg[i].len))
      i++;
    if (i == nseg)
      break;
  }
  memcpy(out, sy->best, sy->state_bytes);
}

bool mcrt_sym_canon(McrtSym *sy, const uint8_t *in, uint8_t *out) {
  sy->calls++;
  if (sy->method == MCRT_SYM_METHOD_EXHAUSTIVE)
    return canon_exhaustive(sy, in, out);
  canon_sorted(sy, in, out);
  return true;
}
