// SPDX-License-Identifier: MIT
// petri.c: the structural analyses of a place/transition net (petri.h).
//
// Semiflows: the Farkas algorithm (Martinez and Silva's variant) on the
// incidence matrix, in exact int64 arithmetic: every combination is checked
// with __builtin_*_overflow and rows are divided by the gcd of their
// entries, so an answer is either exact or refused, never rounded. After
// each eliminated column, rows whose support contains another row's support
// are dropped; what is left at the end is exactly the set of minimal-support
// semiflows (the extreme rays of the cone of semiflows).
//
// Bounds: a P-semiflow y with y.m0 = k proves m(p) <= k / y(p). Places no
// semiflow covers are decided by a Karp-Miller coverability tree, which
// gives the exact bound of every place (or proves it unbounded). Nodes with
// the label of an earlier node are not expanded, which keeps the set of
// labels a coverability set. Coverability needs monotonic firing, which
// inhibitor arcs break: there, uncovered places are left unknown.
//
// Workflow nets: an explicit breadth-first exploration from [source] with a
// state cap. A new marking that strictly covers one of its ancestors in the
// search tree proves the net unbounded (firing is monotonic); when the
// exploration ends without one, the net is bounded and the reachability
// graph is complete, so completion and dead transitions are read off it.
//
// Results live as long as the compiler (STYLE.md 6); the large temporary
// tables (Farkas rows, explored markings) are freed as soon as they are done.
#include <inttypes.h>

#include "mcgen.h"
#include "petri.h"

#define OMEGA INT64_MAX // a Karp-Miller place that grows without bound

// Each analysis stops (refused) past this many elementary steps (entries
// read, rows compared, arcs looked at): about a second, so that mcgen stays
// quick on nets with 10^5 arcs.
#define PETRI_MAX_WORK 300000000ull

// The arcs of one transition: what it needs, what it produces, what
// inhibits it and its net effect (nonzero entries only), each by place.
typedef struct {
  uint32_t place;
  int64_t weight;
} PlaceWeight;

typedef struct {
  PlaceWeight *in, *out, *inhib, *delta;
  uint32_t nin, nout, ninhib, ndelta;
} TransArcs;

static int by_place(const void *a, const void *b) {
  uint32_t x = ((const PlaceWeight *)a)->place, y = ((const PlaceWeight *)b)->place;
  return (x > y) - (x < y);
}

// NULL on overflow of a net effect (weights near INT64_MAX).
static TransArcs *trans_arcs(const Net *net) {
  TransArcs *ta = xcalloc(net->ntrans, sizeof *ta);
  for (uint32_t i = 0; i < net->narcs; i++) {
    const Arc *a = &net->arcs[i];
    TransArcs *t = &ta[a->trans];
    t->nin += a->kind == ARC_IN;
    t->nout += a->kind == ARC_OUT;
    t->ninhib += a->kind == ARC_INHIBITOR;
  }
  for (uint32_t t = 0; t < net->ntrans; t++) {
    ta[t].in = xcalloc(ta[t].nin, sizeof(PlaceWeight));
    ta[t].out = xcalloc(ta[t].nout, sizeof(PlaceWeight));
    ta[t].inhib = xcalloc(ta[t].ninhib, sizeof(PlaceWeight));
    ta[t].delta = xcalloc(ta[t].nin + ta[t].nout, sizeof(PlaceWeight));
    ta[t].nin = ta[t].nout = ta[t].ninhib = 0;
  }
  for (uint32_t i = 0; i < net->narcs; i++) {
    const Arc *a = &net->arcs[i];
    TransArcs *t = &ta[a->trans];
    PlaceWeight pw = {a->place, a->weight};
    if (a->kind == ARC_IN)
      t->in[t->nin++] = pw;
    else if (a->kind == ARC_OUT)
      t->out[t->nout++] = pw;
    else
      t->inhib[t->ninhib++] = pw;
  }
  for (uint32_t t = 0; t < net->ntrans; t++) {
    TransArcs *x = &ta[t];
    qsort(x->in, x->nin, sizeof(PlaceWeight), by_place);
    qsort(x->out, x->nout, sizeof(PlaceWeight), by_place);
    uint32_t i = 0, o = 0;
    while (i < x->nin || o < x->nout) {
      PlaceWeight d;
      if (o == x->nout || (i < x->nin && x->in[i].place < x->out[o].place)) {
        d = (PlaceWeight){x->in[i].place, -x->in[i].weight};
        i++;
      } else if (i == x->nin || x->out[o].place < x->in[i].place) {
        d = x->out[o++];
      } else {
        d.place = x->in[i].place;
        if (__builtin_sub_overflow(x->out[o].weight, x->in[i].weight, &d.weight))
          return NULL;
        i++, o++;
      }
      if (d.weight)
        x->delta[x->ndelta++] = d;
    }
  }
  return ta;
}

static bool has_inhibitor_arcs(const Net *net) {
  for (uint32_t i = 0; i < net->narcs; i++)
    if (net->arcs[i].kind == ARC_INHIBITOR)
      return true;
  return false;
}

// Whether t may fire at m (OMEGA counts as more than any weight).
static bool enabled(const TransArcs *t, const int64_t *m) {
  for (uint32_t i = 0; i < t->nin; i++)
    if (m[t->in[i].place] < t->in[i].weight)
      return false;
  for (uint32_t i = 0; i < t->ninhib; i++)
    if (m[t->inhib[i].place] >= t->inhib[i].weight)
      return false;
  return true;
}

// next = m after t (enabled at m); OMEGA stays OMEGA. False when a finite
// count would reach OMEGA.
static bool fire(const TransArcs *t, const int64_t *m, int64_t *next, uint32_t np) {
  memcpy(next, m, np * sizeof *m);
  for (uint32_t i = 0; i < t->ndelta; i++) {
    int64_t *v = &next[t->delta[i].place];
    if (*v == OMEGA)
      continue;
    if (__builtin_add_overflow(*v, t->delta[i].weight, v) || *v == OMEGA)
      return false;
  }
  return true;
}

static int64_t gcd64(int64_t a, int64_t b) {
  // Callers pass values > INT64_MIN, so the negations are defined.
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    int64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

//
// Semiflows: the Farkas algorithm
//

typedef struct {
  uint32_t col;
  int64_t val;
} Entry;

// A row of the Farkas matrix [A | Y]: `a`, what is left of the matrix to
// cancel, and `y`, the combination of the original rows it stands for.
typedef struct {
  Entry *a, *y;   // sorted by col, zeros left out; y > 0
  uint32_t na, ny;
  uint64_t sig;   // bit (col % 64) of every col of y: a fast subset filter
} FRow;

static void frow_free(FRow *r) {
  free(r->a);
  free(r->y);
}

static int64_t entry_at(const Entry *e, uint32_t n, uint32_t col) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (e[mid].col < col)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && e[lo].col == col ? e[lo].val : 0;
}

// cx*x + cy*y, zeros dropped; false on overflow.
static bool lin_comb(const Entry *x, uint32_t nx, int64_t cx, const Entry *y, uint32_t ny,
                     int64_t cy, Entry **out, uint32_t *nout) {
  Entry *r = malloc((nx + ny ? nx + ny : 1) * sizeof *r);
  if (!r)
    die("out of memory");
  uint32_t i = 0, j = 0, n = 0;
  bool ok = true;
  while (ok && (i < nx || j < ny)) {
    Entry e;
    int64_t u, v;
    if (j == ny || (i < nx && x[i].col < y[j].col)) {
      e.col = x[i].col;
      ok = !__builtin_mul_overflow(x[i++].val, cx, &e.val);
    } else if (i == nx || y[j].col < x[i].col) {
      e.col = y[j].col;
      ok = !__builtin_mul_overflow(y[j++].val, cy, &e.val);
    } else {
      e.col = x[i].col;
      ok = !__builtin_mul_overflow(x[i++].val, cx, &u) &&
           !__builtin_mul_overflow(y[j++].val, cy, &v) && !__builtin_add_overflow(u, v, &e.val);
    }
    ok = ok && e.val != INT64_MIN; // keeps every value negatable (gcd64)
    if (ok && e.val)
      r[n++] = e;
  }
  if (!ok) {
    free(r);
    return false;
  }
  *out = r;
  *nout = n;
  return true;
}

static void frow_normalise(FRow *r) {
  int64_t g = 0;
  for (uint32_t i = 0; i < r->na; i++)
    g = gcd64(g, r->a[i].val);
  for (uint32_t i = 0; i < r->ny; i++)
    g = gcd64(g, r->y[i].val);
  if (g > 1) {
    for (uint32_t i = 0; i < r->na; i++)
      r->a[i].val /= g;
    for (uint32_t i = 0; i < r->ny; i++)
      r->y[i].val /= g;
  }
  r->sig = 0;
  for (uint32_t i = 0; i < r->ny; i++)
    r->sig |= 1ull << (r->y[i].col % 64);
}

// Whether the support of y of `small` is contained in that of `big`.
static bool support_within(const FRow *small, const FRow *big) {
  if (small->ny > big->ny || (small->sig & ~big->sig))
    return false;
  uint32_t j = 0;
  for (uint32_t i = 0; i < small->ny; i++) {
    while (j < big->ny && big->y[j].col < small->y[i].col)
      j++;
    if (j == big->ny || big->y[j].col != small->y[i].col)
      return false;
  }
  return true;
}

static int by_support_size(const void *a, const void *b) {
  uint32_t x = ((const FRow *)a)->ny, y = ((const FRow *)b)->ny;
  return (x > y) - (x < y);
}

static SemiflowSet refuse_farkas(FRow *rows, uint32_t n, const char *why) {
  for (uint32_t i = 0; i < n; i++)
    frow_free(&rows[i]);
  free(rows);
  return (SemiflowSet){.refused = why};
}

// The minimal-support y >= 0 with y.A = 0, A given as `rows` (each with y
// the unit vector of its index). Takes ownership of rows.
static SemiflowSet farkas(FRow *rows, uint32_t n, uint32_t ncols) {
  uint64_t *pos = xcalloc(ncols, sizeof *pos), *neg = xcalloc(ncols, sizeof *neg);
  uint64_t work = 0; // entries read and rows compared, against PETRI_MAX_WORK
  for (;;) {
    work += ncols;
    for (uint32_t i = 0; i < n; i++)
      work += rows[i].na + 1;
    if (work > PETRI_MAX_WORK)
      return refuse_farkas(rows, n, "refused: the Farkas algorithm needs too many steps");
    memset(pos, 0, ncols * sizeof *pos);
    memset(neg, 0, ncols * sizeof *neg);
    for (uint32_t i = 0; i < n; i++)
      for (uint32_t k = 0; k < rows[i].na; k++)
        (rows[i].a[k].val > 0 ? pos : neg)[rows[i].a[k].col]++;
    // The column that adds the fewest rows goes first; a column of one sign
    // only removes rows.
    int64_t best_cost = INT64_MAX;
    uint32_t col = UINT32_MAX;
    for (uint32_t c = 0; c < ncols; c++) {
      if (!pos[c] && !neg[c])
        continue;
      int64_t cost = (int64_t)(pos[c] * neg[c]) - (int64_t)(pos[c] + neg[c]);
      if (cost < best_cost)
        best_cost = cost, col = c;
    }
    if (col == UINT32_MAX)
      break;
    uint64_t ncand = n - pos[col] - neg[col] + pos[col] * neg[col];
    if (ncand > PETRI_FARKAS_MAX_ROWS)
      return refuse_farkas(rows, n,
                           format("refused: the Farkas matrix would grow past %d rows",
                                  PETRI_FARKAS_MAX_ROWS));

    FRow *next = xcalloc(ncand, sizeof *next);
    uint32_t nkept = 0, nnew = 0;
    for (uint32_t i = 0; i < n; i++)
      if (!entry_at(rows[i].a, rows[i].na, col))
        next[nkept++] = rows[i];
    FRow *cand = next + nkept;
    bool overflow = false;
    for (uint32_t i = 0; i < n && !overflow; i++) {
      int64_t vp = entry_at(rows[i].a, rows[i].na, col);
      if (vp <= 0)
        continue;
      for (uint32_t j = 0; j < n && !overflow; j++) {
        int64_t vn = entry_at(rows[j].a, rows[j].na, col);
        if (vn >= 0)
          continue;
        int64_t g = gcd64(vp, vn);
        FRow r = {0};
        if (!lin_comb(rows[i].a, rows[i].na, -vn / g, rows[j].a, rows[j].na, vp / g, &r.a, &r.na) ||
            !lin_comb(rows[i].y, rows[i].ny, -vn / g, rows[j].y, rows[j].ny, vp / g, &r.y, &r.ny)) {
          free(r.a);
          overflow = true;
          break;
        }
        frow_normalise(&r);
        work += r.na + r.ny;
        cand[nnew++] = r;
      }
    }
    for (uint32_t i = 0; i < n; i++)
      if (entry_at(rows[i].a, rows[i].na, col))
        frow_free(&rows[i]);
    free(rows);
    if (overflow)
      return refuse_farkas(next, nkept + nnew,
                           "refused: overflow of 64-bit integers in the Farkas matrix");

    // Keep a new row only if no row kept so far has a support within its
    // own; by increasing support size, so that a row is compared with
    // every row that could make it non-minimal (equal supports: the first).
    qsort(cand, nnew, sizeof *cand, by_support_size);
    uint32_t m = nkept;
    for (uint32_t i = 0; i < nnew; i++) {
      bool minimal = true;
      for (uint32_t k = 0; k < m && minimal; k++)
        minimal = !support_within(&next[k], &cand[i]);
      work += m;
      if (minimal)
        next[m++] = cand[i];
      else
        frow_free(&cand[i]);
    }
    rows = next;
    n = m;
    if (work > PETRI_MAX_WORK)
      return refuse_farkas(rows, n, "refused: the Farkas algorithm needs too many steps");
  }
  SemiflowSet s = {.flows = xcalloc(n, sizeof(Semiflow)), .nflows = n};
  for (uint32_t i = 0; i < n; i++) {
    Semiflow *f = &s.flows[i];
    f->len = rows[i].ny;
    f->idx = xcalloc(f->len, sizeof *f->idx);
    f->coef = xcalloc(f->len, sizeof *f->coef);
    for (uint32_t k = 0; k < f->len; k++)
      f->idx[k] = rows[i].y[k].col, f->coef[k] = rows[i].y[k].val;
    frow_free(&rows[i]);
  }
  free(rows);
  return s;
}

static FRow unit_row(uint32_t index, Entry *a, uint32_t na) {
  FRow r = {.a = a, .na = na, .ny = 1};
  r.y = malloc(sizeof *r.y);
  if (!r.y)
    die("out of memory");
  r.y[0] = (Entry){index, 1};
  frow_normalise(&r);
  return r;
}

SemiflowSet petri_p_semiflows(const Net *net) {
  TransArcs *ta = trans_arcs(net);
  if (!ta)
    return (SemiflowSet){.refused = "refused: overflow of 64-bit integers in the incidence matrix"};
  // Row p of C: the effect of every transition on p, by transition.
  uint32_t *len = xcalloc(net->nplaces, sizeof *len);
  for (uint32_t t = 0; t < net->ntrans; t++)
    for (uint32_t i = 0; i < ta[t].ndelta; i++)
      len[ta[t].delta[i].place]++;
  FRow *rows = xcalloc(net->nplaces, sizeof *rows);
  for (uint32_t p = 0; p < net->nplaces; p++) {
    Entry *a = malloc((len[p] ? len[p] : 1) * sizeof *a);
    if (!a)
      die("out of memory");
    rows[p] = unit_row(p, a, 0);
  }
  for (uint32_t t = 0; t < net->ntrans; t++) // by t: each row comes out sorted
    for (uint32_t i = 0; i < ta[t].ndelta; i++) {
      FRow *r = &rows[ta[t].delta[i].place];
      r->a[r->na++] = (Entry){t, ta[t].delta[i].weight};
    }
  return farkas(rows, net->nplaces, net->ntrans);
}

SemiflowSet petri_t_semiflows(const Net *net) {
  TransArcs *ta = trans_arcs(net);
  if (!ta)
    return (SemiflowSet){.refused = "refused: overflow of 64-bit integers in the incidence matrix"};
  FRow *rows = xcalloc(net->ntrans, sizeof *rows);
  for (uint32_t t = 0; t < net->ntrans; t++) {
    Entry *a = malloc((ta[t].ndelta ? ta[t].ndelta : 1) * sizeof *a);
    if (!a)
      die("out of memory");
    for (uint32_t i = 0; i < ta[t].ndelta; i++)
      a[i] = (Entry){ta[t].delta[i].place, ta[t].delta[i].weight};
    rows[t] = unit_row(t, a, ta[t].ndelta);
  }
  return farkas(rows, net->ntrans, net->nplaces);
}

//
// Sets of markings, for the coverability tree and the workflow exploration
//

// Markings with the tree edge that found each: parent and transition.
typedef struct {
  uint32_t np;
  int64_t *marks;   // n * np
  int64_t *sum;     // total tokens of each (OMEGA if any place is)
  int64_t *minsum;  // the least sum on the tree path from the root to each
  uint32_t *parent; // the root is its own parent
  uint32_t *via;
  uint32_t n, cap, max;
  uint32_t *table;  // open addressing: index + 1, 0 for empty
  uint32_t tcap;    // a power of two
} Markings;

static uint64_t hash_marking(const int64_t *m, uint32_t np) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint32_t i = 0; i < np; i++) {
    h ^= (uint64_t)m[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
  }
  return h ^ (h >> 33);
}

static const int64_t *marking(const Markings *s, uint32_t i) {
  return s->marks + (size_t)i * s->np;
}

// The markings kept are limited by count and by total size (8 MB of
// counts per 2^20 cells).
#define PETRI_MAX_CELLS (1u << 23)

static Markings markings_new(uint32_t np, uint32_t max) {
  Markings s = {.np = np, .max = max};
  if (np && max > PETRI_MAX_CELLS / np)
    s.max = PETRI_MAX_CELLS / np;
  if (s.max < 1)
    s.max = 1;
  s.tcap = 1024;
  s.table = xcalloc(s.tcap, sizeof *s.table);
  return s;
}

static void markings_free(Markings *s) {
  free(s->marks);
  free(s->sum);
  free(s->minsum);
  free(s->parent);
  free(s->via);
  free(s->table);
}

// The index of m, or UINT32_MAX.
static uint32_t markings_find(const Markings *s, const int64_t *m) {
  uint32_t mask = s->tcap - 1;
  for (uint32_t h = hash_marking(m, s->np) & mask;; h = (h + 1) & mask) {
    uint32_t k = s->table[h];
    if (!k)
      return UINT32_MAX;
    if (!memcmp(marking(s, k - 1), m, s->np * sizeof *m))
      return k - 1;
  }
}

static void table_insert(Markings *s, uint32_t i) {
  uint32_t mask = s->tcap - 1;
  uint32_t h = hash_marking(marking(s, i), s->np) & mask;
  while (s->table[h])
    h = (h + 1) & mask;
  s->table[h] = i + 1;
}

// Adds m (not yet in s); false when s is full.
static bool markings_add(Markings *s, const int64_t *m, uint32_t parent, uint32_t via) {
  if (s->n == s->max)
    return false;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 1024;
    if (s->cap > s->max)
      s->cap = s->max;
    s->marks = xrealloc(s->marks, (size_t)s->cap * s->np * sizeof *s->marks);
    s->sum = xrealloc(s->sum, (size_t)s->cap * sizeof *s->sum);
    s->minsum = xrealloc(s->minsum, (size_t)s->cap * sizeof *s->minsum);
    s->parent = xrealloc(s->parent, (size_t)s->cap * sizeof *s->parent);
    s->via = xrealloc(s->via, (size_t)s->cap * sizeof *s->via);
  }
  uint32_t i = s->n++;
  memcpy(s->marks + (size_t)i * s->np, m, s->np * sizeof *m);
  int64_t sum = 0;
  for (uint32_t p = 0; p < s->np && sum != OMEGA; p++)
    if (m[p] == OMEGA || __builtin_add_overflow(sum, m[p], &sum) || sum == OMEGA)
      sum = OMEGA;
  s->sum[i] = sum;
  s->parent[i] = i ? parent : 0;
  s->minsum[i] = i && s->minsum[parent] < sum ? s->minsum[parent] : sum;
  s->via[i] = via;
  if (2 * (uint64_t)s->n > s->tcap) {
    free(s->table);
    s->tcap *= 2;
    s->table = xcalloc(s->tcap, sizeof *s->table);
    for (uint32_t k = 0; k < s->n; k++)
      table_insert(s, k);
  } else {
    table_insert(s, i);
  }
  return true;
}

// The transitions of the tree path from `from` (an ancestor) down to `to`.
static FiringSeq tree_path(const Markings *s, uint32_t from, uint32_t to) {
  uint32_t len = 0;
  for (uint32_t i = to; i != from; i = s->parent[i])
    len++;
  FiringSeq f = {.trans = xcalloc(len, sizeof(uint32_t)), .len = len};
  for (uint32_t i = to; i != from; i = s->parent[i])
    f.trans[--len] = s->via[i];
  return f;
}

// Whether m >= a with m != a. The sums filter most ancestors out: with
// finite counts, m > a needs a larger total (and below a node whose path
// has no smaller total than m, no ancestor can be covered: minsum).
static bool strictly_covers(const int64_t *m, int64_t msum, const int64_t *a, int64_t asum,
                            uint32_t np) {
  if (msum != OMEGA && asum != OMEGA && msum <= asum)
    return false;
  bool more = false;
  for (uint32_t p = 0; p < np; p++) {
    if (m[p] < a[p])
      return false;
    more |= m[p] > a[p];
  }
  return more;
}

static int64_t marking_sum(const int64_t *m, uint32_t np) {
  int64_t sum = 0;
  for (uint32_t p = 0; p < np; p++)
    if (m[p] == OMEGA || __builtin_add_overflow(sum, m[p], &sum) || sum == OMEGA)
      return OMEGA;
  return sum;
}

// The pumping witness of a concrete marking m, reached from node `node` by
// t, that strictly covers the tree ancestor `anc` of `node` (or node).
static PetriUnbounded pump_witness(const Markings *s, uint32_t anc, uint32_t node, uint32_t t,
                                   const int64_t *m) {
  PetriUnbounded u = {0};
  const int64_t *a = marking(s, anc);
  for (uint32_t p = 0; p < s->np; p++)
    if (m[p] > a[p]) {
      u.place = p;
      break;
    }
  u.prefix = tree_path(s, 0, anc);
  FiringSeq rest = tree_path(s, anc, node);
  u.pump.len = rest.len + 1;
  u.pump.trans = xcalloc(u.pump.len, sizeof(uint32_t));
  memcpy(u.pump.trans, rest.trans, rest.len * sizeof(uint32_t));
  u.pump.trans[rest.len] = t;
  return u;
}

//
// Bounds: semiflows, then the Karp-Miller tree
//

static void semiflow_bounds(const Net *net, const SemiflowSet *ps, PetriBounds *b) {
  for (uint32_t i = 0; i < ps->nflows; i++) {
    const Semiflow *f = &ps->flows[i];
    int64_t k = 0, v;
    bool ok = true;
    for (uint32_t j = 0; j < f->len && ok; j++)
      ok = !__builtin_mul_overflow(f->coef[j], net->places[f->idx[j]].initial, &v) &&
           !__builtin_add_overflow(k, v, &k);
    if (!ok)
      continue; // y.m0 beyond 64 bits: no bound from this one
    for (uint32_t j = 0; j < f->len; j++) {
      uint32_t p = f->idx[j];
      int64_t bound = k / f->coef[j];
      if (b->kind[p] != BOUND_SEMIFLOW || bound < b->bound[p])
        b->bound[p] = bound, b->kind[p] = BOUND_SEMIFLOW;
    }
  }
}

// Karp-Miller from m0: exact bounds or unbounded places into b; false (with
// b->refused) when the tree is abandoned.
static bool karp_miller(const Net *net, const TransArcs *ta, PetriBounds *b) {
  uint32_t np = net->nplaces;
  Markings s = markings_new(np, PETRI_KM_MAX_NODES);
  int64_t *m = xcalloc(np, sizeof *m), *concrete = xcalloc(np, sizeof *m);
  bool *omega = NULL; // per node: a place of its label is OMEGA
  for (uint32_t p = 0; p < np; p++)
    m[p] = net->places[p].initial;
  const char *why = NULL;
  if (marking_sum(m, np) == OMEGA)
    why = "refused: the initial marking overflows 64-bit token counts";
  else
    markings_add(&s, m, 0, 0);
  omega = xcalloc(s.max, sizeof *omega);
  uint64_t work = 0; // arcs looked at, against PETRI_MAX_WORK
  for (uint32_t i = 0; i < s.n && !why; i++) {
    work += net->narcs + net->ntrans;
    if (work > PETRI_MAX_WORK) {
      why = format("refused: the coverability tree needs too many steps (%u nodes so far)", s.n);
      break;
    }
    for (uint32_t t = 0; t < net->ntrans && !why; t++) {
      if (!enabled(&ta[t], marking(&s, i)))
        continue;
      if (!fire(&ta[t], marking(&s, i), m, np)) {
        why = "refused: token counts overflow 64 bits in the coverability tree";
        break;
      }
      memcpy(concrete, m, np * sizeof *m);
      int64_t csum = marking_sum(concrete, np), msum = csum;
      bool accelerated = false;
      // Accelerate: every place that grew since an ancestor it covers can
      // grow without bound. The first such growth on a path of finite
      // markings is the witness: concrete markings and real firings.
      for (uint32_t a = i; csum == OMEGA || csum > s.minsum[i]; a = s.parent[a]) {
        if (strictly_covers(m, msum, marking(&s, a), s.sum[a], np)) {
          const int64_t *am = marking(&s, a);
          for (uint32_t p = 0; p < np; p++)
            if (am[p] < m[p])
              m[p] = OMEGA;
          msum = OMEGA;
          accelerated = true;
          if (!b->unbounded && !omega[i] &&
              strictly_covers(concrete, csum, am, s.sum[a], np)) {
            b->unbounded = true;
            b->witness = pump_witness(&s, a, i, t, concrete);
          }
        }
        if (a == 0)
          break;
      }
      if (markings_find(&s, m) != UINT32_MAX)
        continue;
      if (!markings_add(&s, m, i, t)) {
        why = format("refused: the coverability tree has more than %u nodes", s.max);
        break;
      }
      omega[s.n - 1] = accelerated || omega[i];
    }
  }
  // Places seen at OMEGA are unbounded even in an abandoned tree.
  for (uint32_t p = 0; p < np; p++) {
    int64_t max = 0;
    for (uint32_t i = 0; i < s.n; i++)
      if (marking(&s, i)[p] > max)
        max = marking(&s, i)[p];
    if (max == OMEGA)
      b->bound[p] = -1, b->kind[p] = BOUND_UNBOUNDED;
    else if (!why)
      b->bound[p] = max, b->kind[p] = BOUND_COVERABILITY;
  }
  markings_free(&s);
  free(m);
  free(concrete);
  free(omega);
  b->refused = why;
  return !why;
}

PetriBounds petri_bounds_explained(const Net *net) {
  uint32_t np = net->nplaces;
  PetriBounds b = {.bound = xcalloc(np, sizeof(int64_t)), .kind = xcalloc(np, sizeof(BoundKind))};
  for (uint32_t p = 0; p < np; p++)
    b.bound[p] = -1, b.kind[p] = BOUND_UNKNOWN;
  SemiflowSet ps = petri_p_semiflows(net);
  semiflow_bounds(net, &ps, &b);
  bool covered = true;
  for (uint32_t p = 0; p < np; p++)
    covered &= b.kind[p] == BOUND_SEMIFLOW;
  if (covered)
    return b;
  TransArcs *ta = trans_arcs(net);
  if (!ta) {
    b.refused = "refused: overflow of 64-bit integers in the incidence matrix";
  } else if (has_inhibitor_arcs(net)) {
    b.refused = "refused: the net has inhibitor arcs, where coverability is undecidable; "
                "places no P-semiflow covers have no proven bound";
  } else {
    karp_miller(net, ta, &b);
  }
  if (b.refused && ps.refused)
    b.refused = format("%s (P-semiflows %s)", b.refused, ps.refused);
  return b;
}

bool petri_bounds(const Net *net, int64_t *bound, PetriUnbounded *u) {
  PetriBounds b = petri_bounds_explained(net);
  memcpy(bound, b.bound, net->nplaces * sizeof *bound);
  if (b.unbounded)
    *u = b.witness;
  return !b.unbounded;
}

//
// Workflow nets
//

const char *petri_workflow_verdict_name(WorkflowVerdict v) {
  static const char *const names[] = {
      [WF_NOT_WORKFLOW] = "not a workflow net",
      [WF_REFUSED] = "refused",
      [WF_SOUND] = "sound",
      [WF_UNBOUNDED] = "unsound: unbounded",
      [WF_IMPROPER] = "unsound: improper completion",
      [WF_NO_COMPLETION] = "unsound: no option to complete",
      [WF_DEAD_TRANSITION] = "unsound: dead transition",
  };
  return names[v];
}

// Nodes of the flow graph: places 0..np-1, then transitions. Marks in
// `seen` every node reachable from `start`, forward (backward = false) or
// backward along the arcs (inhibitor arcs are not flow arcs).
static void flow_reach(const Net *net, uint32_t start, bool backward, bool *seen) {
  uint32_t np = net->nplaces, n = np + net->ntrans;
  uint32_t *stack = xcalloc(n, sizeof *stack), top = 0;
  seen[start] = true;
  stack[top++] = start;
  while (top) {
    uint32_t v = stack[--top];
    for (uint32_t i = 0; i < net->narcs; i++) {
      const Arc *a = &net->arcs[i];
      if (a->kind == ARC_INHIBITOR)
        continue;
      uint32_t from = a->kind == ARC_IN ? a->place : np + a->trans;
      uint32_t to = a->kind == ARC_IN ? np + a->trans : a->place;
      if (backward) {
        uint32_t x = from;
        from = to, to = x;
      }
      if (from == v && !seen[to]) {
        seen[to] = true;
        stack[top++] = to;
      }
    }
  }
  free(stack);
}

static const char *node_name(const Net *net, uint32_t v) {
  return v < net->nplaces ? format("place %s", net->places[v].name)
                          : format("transition %s", net->trans[v - net->nplaces].name);
}

// The workflow structure: one source place, one sink place, every node on
// a path from the one to the other; else the reason.
static const char *workflow_structure(const Net *net, Workflow *w) {
  uint32_t np = net->nplaces, n = np + net->ntrans;
  bool *has_pre = xcalloc(np, sizeof *has_pre), *has_post = xcalloc(np, sizeof *has_post);
  for (uint32_t i = 0; i < net->narcs; i++) {
    if (net->arcs[i].kind == ARC_OUT)
      has_pre[net->arcs[i].place] = true;
    if (net->arcs[i].kind == ARC_IN)
      has_post[net->arcs[i].place] = true;
  }
  uint32_t nsrc = 0, nsink = 0;
  for (uint32_t p = 0; p < np; p++) {
    if (!has_pre[p] && nsrc++ == 0)
      w->source = p;
    if (!has_post[p] && nsink++ == 0)
      w->sink = p;
  }
  if (nsrc != 1)
    return format("%s places without an input transition (a workflow net has one, its source)",
                  nsrc ? format("%u", nsrc) : "no");
  if (nsink != 1)
    return format("%s places without an output transition (a workflow net has one, its sink)",
                  nsink ? format("%u", nsink) : "no");
  if (w->source == w->sink)
    return "the source place is also the sink place";
  bool *from_src = xcalloc(n, sizeof(bool)), *to_sink = xcalloc(n, sizeof(bool));
  flow_reach(net, w->source, false, from_src);
  flow_reach(net, w->sink, true, to_sink);
  for (uint32_t v = 0; v < n; v++) {
    if (!from_src[v])
      return format("%s cannot be reached from the source place %s", node_name(net, v),
                    net->places[w->source].name);
    if (!to_sink[v])
      return format("%s cannot reach the sink place %s", node_name(net, v),
                    net->places[w->sink].name);
  }
  return NULL;
}

Workflow petri_workflow(const Net *net) {
  Workflow w = {0};
  uint32_t np = net->nplaces;
  if ((w.reason = workflow_structure(net, &w))) {
    w.verdict = WF_NOT_WORKFLOW;
    return w;
  }
  TransArcs *ta = trans_arcs(net);
  if (has_inhibitor_arcs(net) || !ta) {
    w.verdict = WF_REFUSED;
    w.reason = ta ? "refused: soundness is decided for nets without inhibitor arcs"
                  : "refused: overflow of 64-bit integers in the incidence matrix";
    return w;
  }
  Markings s = markings_new(np, PETRI_WF_MAX_STATES);
  int64_t *m = xcalloc(np, sizeof *m);
  m[w.source] = 1;
  markings_add(&s, m, 0, 0);
  uint32_t *src = NULL, *dst = NULL, nedges = 0, edge_cap = 0;
  bool *fired = xcalloc(net->ntrans, sizeof *fired);
  uint64_t work = 0; // arcs looked at, against PETRI_MAX_WORK
  for (uint32_t i = 0; i < s.n && !w.verdict; i++) {
    work += net->narcs + net->ntrans;
    if (work > PETRI_MAX_WORK) {
      w.verdict = WF_REFUSED;
      w.reason = format("refused: too large (more than %u reachable markings explored "
                        "in the time allowed)", s.n);
      break;
    }
    for (uint32_t t = 0; t < net->ntrans && !w.verdict; t++) {
      if (!enabled(&ta[t], marking(&s, i)))
        continue;
      if (!fire(&ta[t], marking(&s, i), m, np)) {
        w.verdict = WF_REFUSED;
        w.reason = "refused: token counts overflow 64 bits";
        break;
      }
      fired[t] = true;
      uint32_t j = markings_find(&s, m);
      if (j == UINT32_MAX) {
        int64_t sum = marking_sum(m, np);
        for (uint32_t a = i; sum > s.minsum[i]; a = s.parent[a]) {
          if (strictly_covers(m, sum, marking(&s, a), s.sum[a], np)) {
            w.verdict = WF_UNBOUNDED;
            w.unbounded = pump_witness(&s, a, i, t, m);
            break;
          }
          if (a == 0)
            break;
        }
        if (w.verdict)
          break;
        if (!markings_add(&s, m, i, t)) {
          w.verdict = WF_REFUSED;
          w.reason = format("refused: too large (more than %u reachable markings)", s.max);
          break;
        }
        j = s.n - 1;
      }
      if (nedges == edge_cap) {
        edge_cap = edge_cap ? 2 * edge_cap : 1024;
        src = xrealloc(src, edge_cap * sizeof *src);
        dst = xrealloc(dst, edge_cap * sizeof *dst);
      }
      src[nedges] = i, dst[nedges++] = j;
    }
  }
  w.states = s.n;
  if (!w.verdict) {
    // Improper completion: the sink marked, and something else (or the
    // sink twice).
    for (uint32_t i = 0; i < s.n && !w.verdict; i++) {
      const int64_t *x = marking(&s, i);
      if (x[w.sink] >= 1 && s.sum[i] > 1) {
        w.verdict = WF_IMPROPER;
        w.seq = tree_path(&s, 0, i);
        w.marking = xcalloc(np, sizeof(int64_t));
        memcpy(w.marking, x, np * sizeof(int64_t));
      }
    }
  }
  if (!w.verdict) {
    // Option to complete: [sink] reachable from every marking, by a
    // backward search from it along the edges.
    memset(m, 0, np * sizeof *m);
    m[w.sink] = 1;
    uint32_t final = markings_find(&s, m);
    bool *reaches = xcalloc(s.n, sizeof *reaches);
    uint32_t *first = xcalloc(s.n + 1, sizeof *first), *back = xcalloc(nedges, sizeof *back);
    for (uint32_t e = 0; e < nedges; e++)
      first[dst[e] + 1]++;
    for (uint32_t i = 0; i < s.n; i++)
      first[i + 1] += first[i];
    uint32_t *fill = xcalloc(s.n, sizeof *fill);
    for (uint32_t e = 0; e < nedges; e++)
      back[first[dst[e]] + fill[dst[e]]++] = src[e];
    uint32_t *stack = xcalloc(s.n, sizeof *stack), top = 0;
    if (final != UINT32_MAX) {
      reaches[final] = true;
      stack[top++] = final;
    }
    while (top) {
      uint32_t v = stack[--top];
      for (uint32_t k = first[v]; k < first[v + 1]; k++)
        if (!reaches[back[k]]) {
          reaches[back[k]] = true;
          stack[top++] = back[k];
        }
    }
    // The witness: the first marking past the point of no return (its
    // parent could still complete), or else a deadlock, or else [source].
    uint32_t bad = UINT32_MAX;
    for (uint32_t i = 0; i < s.n && bad == UINT32_MAX; i++)
      if (!reaches[i] && reaches[s.parent[i]])
        bad = i;
    bool *has_succ = xcalloc(s.n, sizeof *has_succ);
    for (uint32_t e = 0; e < nedges; e++)
      has_succ[src[e]] = true;
    for (uint32_t i = 0; i < s.n && bad == UINT32_MAX; i++)
      if (!reaches[i] && !has_succ[i])
        bad = i;
    if (bad == UINT32_MAX && !reaches[0])
      bad = 0;
    if (bad != UINT32_MAX) {
      w.verdict = WF_NO_COMPLETION;
      w.seq = tree_path(&s, 0, bad);
      w.marking = xcalloc(np, sizeof(int64_t));
      memcpy(w.marking, marking(&s, bad), np * sizeof(int64_t));
    }
    free(has_succ);
    free(reaches), free(first), free(back), free(fill), free(stack);
  }
  for (uint32_t t = 0; t < net->ntrans && !w.verdict; t++)
    if (!fired[t]) {
      w.verdict = WF_DEAD_TRANSITION;
      w.dead = t;
    }
  if (!w.verdict)
    w.verdict = WF_SOUND;
  markings_free(&s);
  free(m), free(src), free(dst), free(fired);
  return w;
}

//
// mcgen --net-info
//

static void print_seq(const Net *net, FiringSeq f, FILE *out) {
  if (!f.len)
    fputs(" (nothing)", out);
  for (uint32_t i = 0; i < f.len; i++)
    fprintf(out, " %s", net->trans[f.trans[i]].name);
}

static void print_marking(const Net *net, const int64_t *m, FILE *out) {
  const char *sep = "";
  for (uint32_t p = 0; p < net->nplaces; p++)
    if (m[p]) {
      fprintf(out, "%s%s", sep, net->places[p].name);
      if (m[p] > 1)
        fprintf(out, "*%" PRId64, m[p]);
      sep = " + ";
    }
  if (!*sep)
    fputs("(empty)", out);
}

static void print_semiflows(const Net *net, const char *what, SemiflowSet s, bool places,
                            FILE *out) {
  if (s.refused) {
    fprintf(out, "%s: %s\n", what, s.refused);
    return;
  }
  fprintf(out, "%s: %u (minimal supports)\n", what, s.nflows);
  for (uint32_t i = 0; i < s.nflows; i++) {
    const Semiflow *f = &s.flows[i];
    fputs("  ", out);
    int64_t k = 0, v;
    bool k_ok = true;
    for (uint32_t j = 0; j < f->len; j++) {
      const char *name = places ? net->places[f->idx[j]].name : net->trans[f->idx[j]].name;
      if (j)
        fputs(" + ", out);
      if (f->coef[j] != 1)
        fprintf(out, "%" PRId64 "*", f->coef[j]);
      fputs(name, out);
      if (places)
        k_ok = k_ok && !__builtin_mul_overflow(f->coef[j], net->places[f->idx[j]].initial, &v) &&
               !__builtin_add_overflow(k, v, &k);
    }
    if (places && k_ok)
      fprintf(out, " = %" PRId64, k);
    fputc('\n', out);
  }
}

void petri_print_info(const Net *net, FILE *out) {
  fprintf(out, "net %s: %u places, %u transitions, %u arcs\n", net->name, net->nplaces,
          net->ntrans, net->narcs);
  print_semiflows(net, "P-semiflows", petri_p_semiflows(net), true, out);
  print_semiflows(net, "T-semiflows", petri_t_semiflows(net), false, out);
  PetriBounds b = petri_bounds_explained(net);
  fputs("bounds:\n", out);
  for (uint32_t p = 0; p < net->nplaces; p++) {
    fprintf(out, "  %s ", net->places[p].name);
    switch (b.kind[p]) {
    case BOUND_SEMIFLOW:
      fprintf(out, "<= %" PRId64 " (P-semiflow)\n", b.bound[p]);
      break;
    case BOUND_COVERABILITY:
      fprintf(out, "<= %" PRId64 " (coverability, exact)\n", b.bound[p]);
      break;
    case BOUND_UNBOUNDED:
      fputs("unbounded\n", out);
      break;
    case BOUND_UNKNOWN:
      fputs("no bound proven\n", out);
      break;
    }
  }
  if (b.refused)
    fprintf(out, "coverability: %s\n", b.refused);
  if (b.unbounded) {
    fprintf(out, "unbounded: place %s grows: from the initial marking fire",
            net->places[b.witness.place].name);
    print_seq(net, b.witness.prefix, out);
    fputs(", then repeat", out);
    print_seq(net, b.witness.pump, out);
    fputc('\n', out);
  }
  Workflow w = petri_workflow(net);
  fprintf(out, "workflow: %s", petri_workflow_verdict_name(w.verdict));
  switch (w.verdict) {
  case WF_NOT_WORKFLOW:
  case WF_REFUSED:
    fprintf(out, " (%s)\n", w.reason);
    break;
  case WF_SOUND:
    fprintf(out, " (%" PRIu64 " markings from [%s])\n", w.states, net->places[w.source].name);
    break;
  case WF_UNBOUNDED:
    fprintf(out, ": place %s grows: from [%s] fire", net->places[w.unbounded.place].name,
            net->places[w.source].name);
    print_seq(net, w.unbounded.prefix, out);
    fputs(", then repeat", out);
    print_seq(net, w.unbounded.pump, out);
    fputc('\n', out);
    break;
  case WF_IMPROPER:
  case WF_NO_COMPLETION:
    fprintf(out, ": from [%s] fire", net->places[w.source].name);
    print_seq(net, w.seq, out);
    fputs(" to reach ", out);
    print_marking(net, w.marking, out);
    fputs(w.verdict == WF_IMPROPER ? "\n" : ", from which the sink marking cannot be reached\n",
          out);
    break;
  case WF_DEAD_TRANSITION:
    fprintf(out, ": %s is enabled in no marking reachable from [%s]\n",
            net->trans[w.dead].name, net->places[w.source].name);
    break;
  }
}
