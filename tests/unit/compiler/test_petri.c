// SPDX-License-Identifier: MIT
// test_petri.c: the structural net analyses (petri.c) on nets written
// inline, with every answer checked independently: semiflows against the
// incidence matrix and for minimality, counts against derivations by hand,
// bounds against hand counts, and every witness (pumping sequences,
// workflow violations) replayed with a firing rule written here, not
// petri.c's.
#include <criterion/criterion.h>

#include "mcgen.h"
#include "front/pnml/petri.h"

// The compiler never frees (STYLE.md rule 6): leaks are by design.
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

//
// Nets in a line of text:
//   "i*1 p | t1: i -> p q*2 | t2: p !q*2 -> o"
// The first segment lists places with their initial marking (NAME*K, K
// tokens; NAME alone, none); every other segment a transition NAME: its
// input places -> its output places, each NAME or NAME*W (weight W), and
// !NAME*W an inhibitor arc. Places first named in a transition have no
// tokens.
//

static uint32_t place_index(Net *n, const char *name) {
  for (uint32_t p = 0; p < n->nplaces; p++)
    if (!strcmp(n->places[p].name, name))
      return p;
  n->places = xrealloc(n->places, (n->nplaces + 1) * sizeof *n->places);
  n->places[n->nplaces] = (Place){.id = xstrdup(name), .name = xstrdup(name)};
  return n->nplaces++;
}

// NAME or NAME*K: the name, and K (or 1).
static char *item(char *tok, int64_t *k) {
  char *star = strchr(tok, '*');
  *k = 1;
  if (star) {
    *star = '\0';
    *k = strtoll(star + 1, NULL, 10);
  }
  return tok;
}

static int by_arc(const void *a, const void *b) {
  const Arc *x = a, *y = b;
  if (x->trans != y->trans)
    return x->trans < y->trans ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return (x->place > y->place) - (x->place < y->place);
}

static Net *net_parse(const char *text) {
  Net *n = xcalloc(1, sizeof *n);
  n->name = n->id = n->path = "test";
  char *copy = xstrdup(text), *seg_save, *tok_save;
  char *seg = strtok_r(copy, "|", &seg_save);
  for (char *tok = strtok_r(seg, " ", &tok_save); tok; tok = strtok_r(NULL, " ", &tok_save)) {
    bool marked = strchr(tok, '*');
    int64_t k;
    char *name = item(tok, &k);
    uint32_t p = place_index(n, name);
    n->places[p].initial = marked ? k : 0;
  }
  while ((seg = strtok_r(NULL, "|", &seg_save))) {
    char *colon = strchr(seg, ':');
    cr_assert(colon, "no ':' in transition '%s'", seg);
    *colon = '\0';
    char *tname = strtok_r(seg, " ", &tok_save);
    n->trans = xrealloc(n->trans, (n->ntrans + 1) * sizeof *n->trans);
    n->trans[n->ntrans] = (Transition){.id = xstrdup(tname), .name = xstrdup(tname)};
    bool output = false;
    for (char *tok = strtok_r(colon + 1, " ", &tok_save); tok;
         tok = strtok_r(NULL, " ", &tok_save)) {
      if (!strcmp(tok, "->")) {
        output = true;
        continue;
      }
      ArcKind kind = output ? ARC_OUT : ARC_IN;
      if (*tok == '!')
        kind = ARC_INHIBITOR, tok++;
      int64_t w;
      char *name = item(tok, &w);
      n->arcs = xrealloc(n->arcs, (n->narcs + 1) * sizeof *n->arcs);
      uint32_t p = place_index(n, name);
      n->arcs[n->narcs++] = (Arc){p, n->ntrans, kind, w, 0};
    }
    n->ntrans++;
  }
  if (n->narcs)
    qsort(n->arcs, n->narcs, sizeof *n->arcs, by_arc);
  return n;
}

static uint32_t pl(const Net *n, const char *name) {
  for (uint32_t p = 0; p < n->nplaces; p++)
    if (!strcmp(n->places[p].name, name))
      return p;
  cr_assert_fail("no place %s", name);
  return 0;
}

static uint32_t tr(const Net *n, const char *name) {
  for (uint32_t t = 0; t < n->ntrans; t++)
    if (!strcmp(n->trans[t].name, name))
      return t;
  cr_assert_fail("no transition %s", name);
  return 0;
}

//
// The firing rule, from the arcs directly
//

static int64_t incidence(const Net *n, uint32_t p, uint32_t t) {
  int64_t c = 0;
  for (uint32_t i = 0; i < n->narcs; i++)
    if (n->arcs[i].place == p && n->arcs[i].trans == t)
      c += n->arcs[i].kind == ARC_OUT ? n->arcs[i].weight
           : n->arcs[i].kind == ARC_IN ? -n->arcs[i].weight
                                       : 0;
  return c;
}

static bool can_fire(const Net *n, uint32_t t, const int64_t *m) {
  for (uint32_t i = 0; i < n->narcs; i++) {
    const Arc *a = &n->arcs[i];
    if (a->trans == t && a->kind == ARC_IN && m[a->place] < a->weight)
      return false;
    if (a->trans == t && a->kind == ARC_INHIBITOR && m[a->place] >= a->weight)
      return false;
  }
  return true;
}

static void fire_one(const Net *n, uint32_t t, int64_t *m) {
  cr_assert(can_fire(n, t, m), "%s is not enabled", n->trans[t].name);
  for (uint32_t p = 0; p < n->nplaces; p++)
    m[p] += incidence(n, p, t);
}

static void replay(const Net *n, FiringSeq f, int64_t *m) {
  for (uint32_t i = 0; i < f.len; i++) {
    cr_assert_lt(f.trans[i], n->ntrans);
    fire_one(n, f.trans[i], m);
  }
}

static int64_t *initial(const Net *n) {
  int64_t *m = xcalloc(n->nplaces, sizeof *m);
  for (uint32_t p = 0; p < n->nplaces; p++)
    m[p] = n->places[p].initial;
  return m;
}

static int64_t *only(const Net *n, uint32_t place) {
  int64_t *m = xcalloc(n->nplaces, sizeof *m);
  m[place] = 1;
  return m;
}

// The markings reachable from m (at most 10000; the nets here are small),
// by a naive search; *count gets their number.
static int64_t *reachable(const Net *n, const int64_t *m, uint32_t *count) {
  uint32_t np = n->nplaces, cap = 10000, len = 1;
  int64_t *all = xcalloc((size_t)cap * np, sizeof *all);
  memcpy(all, m, np * sizeof *m);
  int64_t *next = xcalloc(np, sizeof *next);
  for (uint32_t i = 0; i < len; i++)
    for (uint32_t t = 0; t < n->ntrans; t++) {
      if (!can_fire(n, t, all + (size_t)i * np))
        continue;
      memcpy(next, all + (size_t)i * np, np * sizeof *next);
      fire_one(n, t, next);
      uint32_t k = 0;
      while (k < len && memcmp(all + (size_t)k * np, next, np * sizeof *next))
        k++;
      if (k == len) {
        cr_assert_lt(len, cap, "the test net has more than %u markings", cap);
        memcpy(all + (size_t)len++ * np, next, np * sizeof *next);
      }
    }
  *count = len;
  return all;
}

static bool reaches(const Net *n, const int64_t *from, const int64_t *target) {
  uint32_t count;
  int64_t *all = reachable(n, from, &count);
  for (uint32_t i = 0; i < count; i++)
    if (!memcmp(all + (size_t)i * n->nplaces, target, n->nplaces * sizeof *target))
      return true;
  return false;
}

//
// Semiflow checks
//

static int64_t gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t r = a % b;
    a = b;
    b = r;
  }
  return a < 0 ? -a : a;
}

// The rank of the k vectors vec[0..k) of length len (fraction-free
// elimination in 128 bits, rows divided by their gcd).
static int rank(__int128 *vec, int k, int len) {
  int r = 0;
  for (int c = 0; c < len && r < k; c++) {
    int piv = -1;
    for (int i = r; i < k && piv < 0; i++)
      if (vec[i * len + c])
        piv = i;
    if (piv < 0)
      continue;
    for (int j = 0; j < len; j++) {
      __int128 x = vec[r * len + j];
      vec[r * len + j] = vec[piv * len + j];
      vec[piv * len + j] = x;
    }
    for (int i = r + 1; i < k; i++) {
      __int128 f = vec[i * len + c], g = vec[r * len + c];
      int64_t d = 0;
      for (int j = 0; j < len; j++) {
        vec[i * len + j] = vec[i * len + j] * g - vec[r * len + j] * f;
        d = gcd(d, (int64_t)vec[i * len + j]); // the values here stay small
      }
      for (int j = 0; j < len && d > 1; j++)
        vec[i * len + j] /= d;
    }
    r++;
  }
  return r;
}

// Whether s is a set of distinct minimal-support semiflows of the net
// (P-semiflows y.C = 0 if places, else T-semiflows C.x = 0); the reason
// into *why otherwise.
static bool semiflows_ok(const Net *n, SemiflowSet s, bool places, const char **why) {
  uint32_t nodes = places ? n->nplaces : n->ntrans, other = places ? n->ntrans : n->nplaces;
  for (uint32_t f = 0; f < s.nflows; f++) {
    const Semiflow *y = &s.flows[f];
    int64_t g = 0;
    if (!y->len)
      return *why = "empty support", false;
    for (uint32_t i = 0; i < y->len; i++) {
      if (y->coef[i] <= 0 || y->idx[i] >= nodes || (i && y->idx[i] <= y->idx[i - 1]))
        return *why = "coefficients not positive or indices not ascending", false;
      g = gcd(g, y->coef[i]);
    }
    if (g != 1)
      return *why = "coefficients with a common divisor", false;
    for (uint32_t o = 0; o < other; o++) {
      int64_t sum = 0;
      for (uint32_t i = 0; i < y->len; i++)
        sum += y->coef[i] * (places ? incidence(n, y->idx[i], o) : incidence(n, o, y->idx[i]));
      if (sum)
        return *why = places ? "y.C != 0" : "C.x != 0", false;
    }
    // Minimal support: without any one of its elements, the vectors of
    // the rest (rows of C for places, columns for transitions) are
    // linearly independent, so no semiflow has a smaller support.
    for (uint32_t drop = 0; drop < y->len; drop++) {
      int k = 0;
      __int128 *vec = xcalloc((size_t)y->len * (other ? other : 1), sizeof *vec);
      for (uint32_t i = 0; i < y->len; i++) {
        if (i == drop)
          continue;
        for (uint32_t o = 0; o < other; o++)
          vec[k * other + o] = places ? incidence(n, y->idx[i], o) : incidence(n, o, y->idx[i]);
        k++;
      }
      if (rank(vec, (int)y->len - 1, (int)other) != (int)y->len - 1)
        return *why = "support not minimal", false;
    }
    for (uint32_t f2 = 0; f2 < f; f2++) {
      const Semiflow *z = &s.flows[f2];
      if (z->len == y->len && !memcmp(z->idx, y->idx, y->len * sizeof *y->idx))
        return *why = "two semiflows with one support", false;
    }
  }
  return true;
}

static void check_semiflows(const Net *n, SemiflowSet s, bool places) {
  const char *why = NULL;
  cr_assert_null(s.refused, "refused: %s", s.refused);
  cr_assert(semiflows_ok(n, s, places, &why), "%s", why);
}

// Whether the semiflow over `names` (with coefficient 1 each) is in s.
static bool has_flow(const Net *n, SemiflowSet s, bool places, const char *const *names, int k) {
  for (uint32_t f = 0; f < s.nflows; f++) {
    if (s.flows[f].len != (uint32_t)k)
      continue;
    int found = 0;
    for (int i = 0; i < k; i++) {
      uint32_t idx = places ? pl(n, names[i]) : tr(n, names[i]);
      for (uint32_t j = 0; j < s.flows[f].len; j++)
        found += s.flows[f].idx[j] == idx && s.flows[f].coef[j] == 1;
    }
    if (found == k)
      return true;
  }
  return false;
}

// The checks themselves catch wrong answers: a sum of two semiflows (not
// minimal), a vector that is no semiflow, a repeated one.
Test(semiflow_checks, reject_wrong_answers) {
  Net *n = net_parse("a*1 c*1 | t: a -> b | u: b -> a | v: c -> d | w: d -> c");
  // Places in order a, c, b, d.
  uint32_t ab[] = {0, 2}, abcd[] = {0, 1, 2, 3}, a[] = {0};
  int64_t ones[] = {1, 1, 1, 1};
  const char *why;
  Semiflow sum = {abcd, ones, 4}, not_flow = {a, ones, 1}, ok = {ab, ones, 2};
  cr_assert(semiflows_ok(n, (SemiflowSet){&ok, 1, NULL}, true, &why));
  cr_assert_not(semiflows_ok(n, (SemiflowSet){&sum, 1, NULL}, true, &why));
  cr_assert_str_eq(why, "support not minimal");
  cr_assert_not(semiflows_ok(n, (SemiflowSet){&not_flow, 1, NULL}, true, &why));
  cr_assert_str_eq(why, "y.C != 0");
  Semiflow twice[] = {ok, ok};
  cr_assert_not(semiflows_ok(n, (SemiflowSet){twice, 2, NULL}, true, &why));
}

//
// Semiflows of nets with a known structure
//

static char *ring(int n, int tokens) {
  Buf b = {0};
  buf_printf(&b, "p0*%d", tokens);
  for (int i = 0; i < n; i++)
    buf_printf(&b, " | t%d: p%d -> p%d", i, i, (i + 1) % n);
  return b.data;
}

// A ring of N places p_i -> t_i -> p_{i+1 mod N}. y.C = 0 reads
// y(p_{i+1}) = y(p_i) for every t_i: one P-semiflow, all places with 1,
// equal to the tokens. C.x = 0 reads x(t_{i-1}) = x(t_i) at every place:
// one T-semiflow, every transition once.
Test(semiflows, ring) {
  for (int size = 1; size <= 7; size++) {
    Net *n = net_parse(ring(size, 3));
    SemiflowSet p = petri_p_semiflows(n), t = petri_t_semiflows(n);
    check_semiflows(n, p, true);
    check_semiflows(n, t, false);
    cr_assert_eq(p.nflows, 1, "ring of %d", size);
    cr_assert_eq(t.nflows, 1, "ring of %d", size);
    cr_assert_eq(p.flows[0].len, (uint32_t)size);
    cr_assert_eq(t.flows[0].len, (uint32_t)size);
    int64_t bound[8];
    PetriUnbounded u;
    cr_assert(petri_bounds(n, bound, &u));
    for (int i = 0; i < size; i++)
      cr_assert_eq(bound[i], 3);
  }
}

static char *philosophers(int n) {
  Buf b = {0};
  for (int i = 0; i < n; i++)
    buf_printf(&b, "think%d*1 fork%d*1 eat%d ", i, i, i);
  for (int i = 0; i < n; i++)
    buf_printf(&b, "| take%d: think%d fork%d fork%d -> eat%d | release%d: eat%d -> think%d fork%d fork%d ",
               i, i, i, (i + 1) % n, i, i, i, i, i, (i + 1) % n);
  return b.data;
}

// N dining philosophers: think_i + fork_i + fork_{i+1} -> take_i -> eat_i
// and back by release_i. Both transitions of i give one equation
// y(eat_i) = y(think_i) + y(fork_i) + y(fork_{i+1}): the P-semiflows are
// parametrised freely by y(think_*), y(fork_*) >= 0, a cone whose extreme
// rays are the 2N unit choices: think_i + eat_i and fork_i + eat_i +
// eat_{i-1}, each = 1. C.x = 0 reads x(take_i) = x(release_i) at think_i
// (the fork equations follow): N T-semiflows take_i + release_i.
Test(semiflows, philosophers) {
  for (int size = 2; size <= 7; size++) {
    Net *n = net_parse(philosophers(size));
    SemiflowSet p = petri_p_semiflows(n), t = petri_t_semiflows(n);
    check_semiflows(n, p, true);
    check_semiflows(n, t, false);
    cr_assert_eq(p.nflows, 2 * (uint32_t)size, "%d philosophers: %u", size, p.nflows);
    cr_assert_eq(t.nflows, (uint32_t)size);
    for (int i = 0; i < size; i++) {
      const char *te[] = {format("think%d", i), format("eat%d", i)};
      const char *fe[] = {format("fork%d", i), format("eat%d", i),
                          format("eat%d", (i + size - 1) % size)};
      const char *tr_[] = {format("take%d", i), format("release%d", i)};
      cr_assert(has_flow(n, p, true, te, 2));
      cr_assert(has_flow(n, p, true, fe, 3));
      cr_assert(has_flow(n, t, false, tr_, 2));
    }
    PetriBounds b = petri_bounds_explained(n);
    for (uint32_t q = 0; q < n->nplaces; q++) {
      cr_assert_eq(b.kind[q], BOUND_SEMIFLOW);
      cr_assert_eq(b.bound[q], 1);
    }
  }
}

#define PRODUCER_CONSUMER                                                                          \
  "pi*1 ci*1 | produce: pi -> pb | put: pb free -> pi buf | get: ci buf -> cb free | "             \
  "consume: cb -> ci"

// Producer/consumer over a buffer of 4 places: y.C = 0 reads y(pb) = y(pi)
// (produce), y(buf) = y(free) (put, given the first), y(cb) = y(ci) (get,
// consume): three free parameters, three P-semiflows pi + pb = 1,
// buf + free = 4, ci + cb = 1. C.x = 0 reads x(produce) = x(put) = x(get)
// = x(consume): one T-semiflow.
Test(semiflows, producer_consumer) {
  Net *n = net_parse(PRODUCER_CONSUMER);
  n->places[pl(n, "free")].initial = 4;
  SemiflowSet p = petri_p_semiflows(n), t = petri_t_semiflows(n);
  check_semiflows(n, p, true);
  check_semiflows(n, t, false);
  cr_assert_eq(p.nflows, 3);
  cr_assert_eq(t.nflows, 1);
  cr_assert(has_flow(n, p, true, (const char *[]){"buf", "free"}, 2));
  int64_t bound[6];
  PetriUnbounded u;
  cr_assert(petri_bounds(n, bound, &u));
  cr_assert_eq(bound[pl(n, "buf")], 4);
  cr_assert_eq(bound[pl(n, "free")], 4);
  cr_assert_eq(bound[pl(n, "pb")], 1);
}

static char *choices(int k) {
  Buf b = {0};
  buf_printf(&b, "p0*1");
  for (int i = 0; i < k; i++)
    buf_printf(&b, " | a%d: p%d -> p%d | b%d: p%d -> p%d", i, i, i + 1, i, i, i + 1);
  buf_printf(&b, " | back: p%d -> p0", k);
  return b.data;
}

// k stages, each of two transitions a_i, b_i from p_i to p_{i+1}, then back
// from p_k to p_0. C.x = 0 makes x(a_i) + x(b_i) = x(back) at every stage;
// a minimal support holds back and exactly one of a_i, b_i per stage: 2^k
// T-semiflows. y.C = 0 makes all y(p_i) equal: one P-semiflow.
Test(semiflows, exponentially_many) {
  for (int k = 1; k <= 9; k++) {
    Net *n = net_parse(choices(k));
    SemiflowSet p = petri_p_semiflows(n), t = petri_t_semiflows(n);
    check_semiflows(n, p, true);
    check_semiflows(n, t, false);
    cr_assert_eq(p.nflows, 1);
    cr_assert_eq(t.nflows, 1u << k, "k = %d: %u", k, t.nflows);
  }
}

// Past the cap on the Farkas matrix: refused, with the reason, not a
// partial list (2^16 T-semiflows).
Test(semiflows, refused_past_the_cap) {
  Net *n = net_parse(choices(16));
  SemiflowSet t = petri_t_semiflows(n);
  cr_assert_not_null(t.refused);
  cr_assert(strstr(t.refused, "rows"), "%s", t.refused);
  cr_assert_eq(t.nflows, 0);
}

// Two places exchanging weights near 2^40: the first combination needs
// products near 2^80. Refused, not wrapped around.
Test(semiflows, refused_on_overflow) {
  Net *n = net_parse("a*1 | t: a*1099511627777 -> b*1099511627775 | "
                     "u: b*1099511627773 -> a*1099511627771");
  SemiflowSet p = petri_p_semiflows(n);
  cr_assert_not_null(p.refused);
  cr_assert(strstr(p.refused, "overflow"), "%s", p.refused);
  // Small weights of the same shape: y(a)*6 = y(b)*4 and y(b)*2 = y(a)*3
  // hold together for y = (2, 3).
  Net *m = net_parse("a*1 | t: a*6 -> b*4 | u: b*2 -> a*3");
  p = petri_p_semiflows(m);
  check_semiflows(m, p, true);
  cr_assert_eq(p.nflows, 1);
  cr_assert_eq(p.flows[0].coef[0], 2);
  cr_assert_eq(p.flows[0].coef[1], 3);
}

// Inhibitor arcs move no token: the semiflows are those of the net without
// them (here the ring of 3).
Test(semiflows, inhibitor_arcs_not_in_the_incidence_matrix) {
  Net *n = net_parse("p0*1 | t0: p0 !p2*2 -> p1 | t1: p1 !p0 -> p2 | t2: p2 -> p0");
  SemiflowSet p = petri_p_semiflows(n), t = petri_t_semiflows(n);
  check_semiflows(n, p, true);
  check_semiflows(n, t, false);
  cr_assert_eq(p.nflows, 1);
  cr_assert_eq(p.flows[0].len, 3);
  cr_assert_eq(t.nflows, 1);
}

//
// Bounds
//

// No P-semiflow here (t1 empties b, so y(b) = 0, then y(a) = 0 by t0 and
// y(c) = 0 by t2), so every bound comes from coverability. By hand: a
// starts with 3 and never grows; b gets at most the 3 tokens of a (t0 three
// times); t2 fires at most once (it takes 2 of a's 3 tokens) and puts 5 in c.
Test(bounds, exact_from_coverability) {
  Net *n = net_parse("a*3 | t0: a -> b | t1: b -> | t2: a*2 -> c*5");
  cr_assert_eq(petri_p_semiflows(n).nflows, 0);
  PetriBounds b = petri_bounds_explained(n);
  cr_assert_null(b.refused);
  cr_assert_not(b.unbounded);
  int64_t want[] = {3, 3, 5};
  for (int p = 0; p < 3; p++) {
    cr_assert_eq(b.kind[p], BOUND_COVERABILITY);
    cr_assert_eq(b.bound[p], want[p], "%s: %ld", n->places[p].name, (long)b.bound[p]);
  }
}

// The pumping witness: firing prefix from m0 reaches m, pump from m reaches
// m' >= m with more tokens in the place; replayed here, twice.
static void check_pump(const Net *n, PetriUnbounded u, const int64_t *from) {
  uint32_t np = n->nplaces;
  int64_t *m = xcalloc(np, sizeof *m), *m2 = xcalloc(np, sizeof *m);
  memcpy(m, from, np * sizeof *m);
  replay(n, u.prefix, m);
  cr_assert_gt(u.pump.len, 0);
  memcpy(m2, m, np * sizeof *m);
  replay(n, u.pump, m2);
  for (uint32_t p = 0; p < np; p++)
    cr_assert_geq(m2[p], m[p], "the pump loses tokens in %s", n->places[p].name);
  cr_assert_gt(m2[u.place], m[u.place], "the pump does not grow %s", n->places[u.place].name);
  replay(n, u.pump, m2);
}

// Producer/consumer with no bound on the buffer: produce then put adds a
// token to buf each round; the other places keep their P-semiflow bound 1.
Test(bounds, unbounded_buffer) {
  Net *n = net_parse("pi*1 ci*1 | produce: pi -> pb | put: pb -> pi buf | get: ci buf -> cb | "
                     "consume: cb -> ci");
  int64_t bound[5];
  PetriUnbounded u = {0};
  cr_assert_not(petri_bounds(n, bound, &u));
  cr_assert_eq(u.place, pl(n, "buf"));
  check_pump(n, u, initial(n));
  cr_assert_eq(bound[pl(n, "buf")], -1);
  cr_assert_eq(bound[pl(n, "pi")], 1);
  cr_assert_eq(bound[pl(n, "cb")], 1);
  PetriBounds b = petri_bounds_explained(n);
  cr_assert_eq(b.kind[pl(n, "buf")], BOUND_UNBOUNDED);
}

// The growth starts only after a prefix: s -> go -> a, then loop pumps b;
// c gets a token only when b has two (and keeps growing with it).
Test(bounds, unbounded_after_a_prefix) {
  Net *n = net_parse("s*1 | go: s -> a | loop: a -> a b | pair: b*2 -> c");
  int64_t bound[4];
  PetriUnbounded u = {0};
  cr_assert_not(petri_bounds(n, bound, &u));
  check_pump(n, u, initial(n));
  cr_assert_eq(u.prefix.len, 1);
  PetriBounds b = petri_bounds_explained(n);
  cr_assert_eq(b.kind[pl(n, "b")], BOUND_UNBOUNDED);
  cr_assert_eq(b.kind[pl(n, "c")], BOUND_UNBOUNDED);
  cr_assert_eq(b.bound[pl(n, "s")], 1);
  cr_assert_eq(b.bound[pl(n, "a")], 1);
}

// b grows by one while it holds fewer than 2 tokens: bounded by 2 only
// because of the inhibitor arc. Coverability is refused (undecidable with
// inhibitor arcs), so b has no proven bound; a keeps its P-semiflow bound.
Test(bounds, inhibitor_nets_refused) {
  Net *n = net_parse("a*1 | t: a !b*2 -> a b");
  PetriBounds b = petri_bounds_explained(n);
  cr_assert_not_null(b.refused);
  cr_assert(strstr(b.refused, "inhibitor"), "%s", b.refused);
  cr_assert_eq(b.kind[pl(n, "b")], BOUND_UNKNOWN);
  cr_assert_eq(b.bound[pl(n, "b")], -1);
  cr_assert_eq(b.kind[pl(n, "a")], BOUND_SEMIFLOW);
  cr_assert_eq(b.bound[pl(n, "a")], 1);
  int64_t bound[2];
  PetriUnbounded u;
  cr_assert(petri_bounds(n, bound, &u));
  cr_assert_eq(bound[pl(n, "b")], -1);
}

// A bounded net with too many markings for the tree (every split of 10^6
// tokens between a and b, then some consumed): the uncovered places are left
// unknown with the reason, never given a wrong bound.
Test(bounds, coverability_cap) {
  Net *n = net_parse("a*1000000 | t0: a -> b | t1: b -> ");
  PetriBounds b = petri_bounds_explained(n);
  cr_assert_not_null(b.refused);
  cr_assert(strstr(b.refused, "nodes"), "%s", b.refused);
  cr_assert_eq(b.bound[0], -1);
  cr_assert_eq(b.bound[1], -1);
  cr_assert_not(b.unbounded);
}

//
// Workflow nets
//

typedef struct {
  const char *net;
  WorkflowVerdict verdict;
  const char *dead; // for WF_DEAD_TRANSITION
} WorkflowCase;

// Checks the verdict of petri_workflow and replays its witness.
static void check_workflow(WorkflowCase c) {
  Net *n = net_parse(c.net);
  Workflow w = petri_workflow(n);
  cr_assert_eq(w.verdict, c.verdict, "%s: %s (%s)", c.net, petri_workflow_verdict_name(w.verdict),
               w.reason ? w.reason : "");
  if (w.verdict == WF_NOT_WORKFLOW || w.verdict == WF_REFUSED) {
    cr_assert_not_null(w.reason);
    return;
  }
  uint32_t np = n->nplaces;
  cr_assert_eq(n->places[w.source].name[0], 'i', "%s", c.net);
  cr_assert_eq(n->places[w.sink].name[0], 'o', "%s", c.net);
  int64_t *start = only(n, w.source), *final = only(n, w.sink), *m = only(n, w.source);
  uint32_t count;
  int64_t *all;
  switch (w.verdict) {
  case WF_UNBOUNDED:
    check_pump(n, w.unbounded, start);
    break;
  case WF_IMPROPER:
    replay(n, w.seq, m);
    cr_assert(!memcmp(m, w.marking, np * sizeof *m));
    cr_assert_geq(m[w.sink], 1);
    cr_assert(memcmp(m, final, np * sizeof *m), "the witness is the final marking");
    break;
  case WF_NO_COMPLETION:
    replay(n, w.seq, m);
    cr_assert(!memcmp(m, w.marking, np * sizeof *m));
    cr_assert_not(reaches(n, m, final), "%s: the witness can complete", c.net);
    break;
  case WF_DEAD_TRANSITION:
    cr_assert_str_eq(n->trans[w.dead].name, c.dead);
    all = reachable(n, start, &count);
    for (uint32_t i = 0; i < count; i++)
      cr_assert_not(can_fire(n, w.dead, all + (size_t)i * np));
    break;
  case WF_SOUND:
    // Independently: bounded (the naive search ends), proper completion,
    // option to complete, no dead transition.
    all = reachable(n, start, &count);
    cr_assert_eq(w.states, count);
    for (uint32_t i = 0; i < count; i++) {
      const int64_t *x = all + (size_t)i * np;
      cr_assert(reaches(n, x, final));
      cr_assert(x[w.sink] == 0 || !memcmp(x, final, np * sizeof *x));
    }
    for (uint32_t t = 0; t < n->ntrans; t++) {
      bool fires = false;
      for (uint32_t i = 0; i < count && !fires; i++)
        fires = can_fire(n, t, all + (size_t)i * np);
      cr_assert(fires, "%s never fires", n->trans[t].name);
    }
    break;
  default:
    cr_assert_fail("unexpected verdict");
  }
}

Test(workflow, sound) {
  WorkflowCase cases[] = {
      // a sequence
      {"i | t1: i -> p | t2: p -> o", WF_SOUND, NULL},
      // AND-split, AND-join
      {"i | t1: i -> a b | t2: a -> c | t3: b -> d | t4: c d -> o", WF_SOUND, NULL},
      // XOR-split, XOR-join
      {"i | t1: i -> p | t2: i -> p | t3: p -> o", WF_SOUND, NULL},
      // a loop that can always be left
      {"i | t1: i -> p | t2: p -> q | t3: q -> p | t4: q -> o", WF_SOUND, NULL},
      // a weight-2 arc matched by a weight-2 join
      {"i | t1: i -> p*2 | t2: p -> q | t3: q*2 -> o", WF_SOUND, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    check_workflow(cases[i]);
}

Test(workflow, unsound) {
  WorkflowCase cases[] = {
      // t2 puts a token in q on every round of the loop on p
      {"i | t1: i -> p | t2: p -> p q | t3: p -> o | t4: q -> o", WF_UNBOUNDED, NULL},
      // unbounded comes first even when completion is also improper
      {"i | t1: i -> a b | t2: a -> a c | t3: a -> o | t4: b -> o | t5: c -> o", WF_UNBOUNDED,
       NULL},
      // AND-split, XOR-join: o is marked while b or a still is
      {"i | t1: i -> a b | t2: a -> o | t3: b -> o", WF_IMPROPER, NULL},
      // two tokens in p, each completes: o gets two
      {"i | t1: i -> p*2 | t2: p -> o", WF_IMPROPER, NULL},
      // XOR-split, AND-join: a deadlock with a or b alone
      {"i | t1: i -> a | t2: i -> b | t3: a b -> o", WF_NO_COMPLETION, NULL},
      // a livelock between a and c: t4 also needs x, made only by t5
      {"i | t1: i -> a | t5: i -> x | t2: a -> c | t3: c -> a | t4: a x -> o", WF_NO_COMPLETION,
       NULL},
      // t3 needs two tokens in p, which never holds more than one
      {"i | t1: i -> p | t2: p -> o | t3: p*2 -> o", WF_DEAD_TRANSITION, "t3"},
      // t4 and then t5 are dead: the first is reported
      {"i | t1: i -> a | t2: a -> o | t4: a*2 -> b | t5: b -> o", WF_DEAD_TRANSITION, "t4"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    check_workflow(cases[i]);
}

Test(workflow, not_workflow_nets_and_refusals) {
  WorkflowCase cases[] = {
      // two source places
      {"i | t1: i j -> o", WF_NOT_WORKFLOW, NULL},
      // two sink places
      {"i | t1: i -> o o2", WF_NOT_WORKFLOW, NULL},
      // t0 is on no path from i (it has no input place)
      {"i | t1: i -> p | t0: -> p | t2: p -> o", WF_NOT_WORKFLOW, NULL},
      // q, r, t3 and t4 cannot reach o
      {"i | t1: i -> p q | t2: p -> o | t3: q -> r | t4: r -> q", WF_NOT_WORKFLOW, NULL},
      // an inhibitor arc
      {"i | t1: i !p -> p | t2: p -> o", WF_REFUSED, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    check_workflow(cases[i]);
}

// 18 parallel branches of two steps each: 2^18 + 2 markings, past the cap.
Test(workflow, refused_too_large) {
  Buf b = {0};
  buf_printf(&b, "i | split: i ->");
  for (int k = 0; k < 18; k++)
    buf_printf(&b, " a%d", k);
  for (int k = 0; k < 18; k++)
    buf_printf(&b, " | s%d: a%d -> b%d", k, k, k);
  buf_printf(&b, " | join:");
  for (int k = 0; k < 18; k++)
    buf_printf(&b, " b%d", k);
  buf_printf(&b, " -> o");
  Workflow w = petri_workflow(net_parse(b.data));
  cr_assert_eq(w.verdict, WF_REFUSED);
  cr_assert(strstr(w.reason, "too large"), "%s", w.reason);
  // With 8 branches, 2^8 + 2 markings, all explored: sound.
  b = (Buf){0};
  buf_printf(&b, "i | split: i -> a0 a1 a2 a3 a4 a5 a6 a7");
  for (int k = 0; k < 8; k++)
    buf_printf(&b, " | s%d: a%d -> b%d", k, k, k);
  buf_printf(&b, " | join: b0 b1 b2 b3 b4 b5 b6 b7 -> o");
  w = petri_workflow(net_parse(b.data));
  cr_assert_eq(w.verdict, WF_SOUND);
  cr_assert_eq(w.states, 258);
}

// Random nets (a fixed seed), 5 places and 5 transitions with weights 1 and
// 2: every answer passes semiflows_ok, and the list is complete as far as a
// brute force can tell: every semiflow with coefficients in 0..3, found by
// trying them all, has the support of a listed one within its own.
static uint64_t rng_state = 88172645463325252ull;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % n);
}

static bool covers_listed(SemiflowSet s, const int64_t *v) {
  for (uint32_t f = 0; f < s.nflows; f++) {
    bool within = true;
    for (uint32_t i = 0; i < s.flows[f].len && within; i++)
      within = v[s.flows[f].idx[i]] > 0;
    if (within)
      return true;
  }
  return false;
}

Test(semiflows, random_nets_against_brute_force) {
  enum { NP = 5, NT = 5 };
  for (int round = 0; round < 200; round++) {
    Buf b = {0};
    buf_printf(&b, "p0*1 p1 p2 p3 p4");
    for (int t = 0; t < NT; t++) {
      buf_printf(&b, " | t%d:", t);
      for (int side = 0; side < 2; side++) {
        if (side)
          buf_printf(&b, " ->");
        for (int p = 0; p < NP; p++)
          if (rnd(3) == 0)
            buf_printf(&b, " p%d*%u", p, 1 + rnd(2));
      }
    }
    Net *n = net_parse(b.data);
    for (int places = 0; places < 2; places++) {
      SemiflowSet s = places ? petri_p_semiflows(n) : petri_t_semiflows(n);
      check_semiflows(n, s, places);
      uint32_t len = places ? n->nplaces : n->ntrans, other = places ? n->ntrans : n->nplaces;
      int64_t v[NP > NT ? NP : NT];
      uint32_t total = 1;
      for (uint32_t i = 0; i < len; i++)
        total *= 4;
      for (uint32_t code = 1; code < total; code++) {
        for (uint32_t i = 0, c = code; i < len; i++, c /= 4)
          v[i] = c % 4;
        bool flow = true;
        for (uint32_t o = 0; o < other && flow; o++) {
          int64_t sum = 0;
          for (uint32_t i = 0; i < len; i++)
            sum += v[i] * (places ? incidence(n, i, o) : incidence(n, o, i));
          flow = sum == 0;
        }
        cr_assert(!flow || covers_listed(s, v), "round %d: %s: a semiflow is missing", round,
                  b.data);
      }
    }
  }
}

// Degenerate nets: an isolated place is a P-semiflow by itself (bound: its
// tokens), a transition without arcs a T-semiflow by itself; a net with no
// places or no transitions at all has nothing to say but must say it.
Test(degenerate, isolated_nodes_and_empty_nets) {
  Net *n = net_parse("a*2 | idle: ->");
  SemiflowSet p = petri_p_semiflows(n), t = petri_t_semiflows(n);
  check_semiflows(n, p, true);
  check_semiflows(n, t, false);
  cr_assert_eq(p.nflows, 1);
  cr_assert_eq(t.nflows, 1);
  int64_t bound[1];
  PetriUnbounded u;
  cr_assert(petri_bounds(n, bound, &u));
  cr_assert_eq(bound[0], 2);
  cr_assert_eq(petri_workflow(n).verdict, WF_NOT_WORKFLOW);
  Net *empty = xcalloc(1, sizeof *empty);
  empty->name = "empty";
  cr_assert_eq(petri_p_semiflows(empty).nflows, 0);
  cr_assert_eq(petri_t_semiflows(empty).nflows, 0);
  cr_assert(petri_bounds(empty, bound, &u));
  cr_assert_eq(petri_workflow(empty).verdict, WF_NOT_WORKFLOW);
  FILE *out = fopen("/dev/null", "w");
  petri_print_info(empty, out);
  petri_print_info(n, out);
  fclose(out);
  Net *no_trans = net_parse("a*1 b");
  PetriBounds b = petri_bounds_explained(no_trans);
  cr_assert_eq(b.bound[0], 1);
  cr_assert_eq(b.bound[1], 0);
}
