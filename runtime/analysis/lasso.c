// SPDX-License-Identifier: MIT
// lasso.c: what both liveness engines share (liveness.c's serial check,
// fair.c's shared decomposition): a property instance's view of the states
// (its P and Q bits, the states a fair component is confined to and where
// it may be entered), and the counterexample once a fair component is
// known.
//
// The stem is the BFS parent path (shortest) from an initial state to the
// component (for <> P and ~>, a BFS inside the allowed states from the
// sources, after the log's path to the source: mcrt_live_confine). The
// cycle starts and ends at the component's entry and goes, by BFS inside
// the component, to the nearest state or edge that meets a requirement
// still open (a taken edge or disabled state for each weak constraint, a
// taken edge for each strong constraint enabled inside, a !P state for <>[]
// P), until none is left, then back.
#include "analysis/analysis.h"

#include <stdlib.h>

#define NONE32 UINT32_MAX

bool mcrt_live_allowed(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form, uint64_t v) {
  switch (form) {
  case MCRT_TEMP_EVENTUALLY:
  case MCRT_TEMP_ALWAYS_EVENTUALLY:
    return !mcrt_live_pbit(g, v, inst, 0);
  case MCRT_TEMP_LEADSTO:
    return !mcrt_live_pbit(g, v, inst, 1);
  default:
    return true;
  }
}

// Where the confined part may be entered: initial states for <> P, states
// where P && !Q for ~>; everywhere otherwise.
static bool is_source(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form, uint64_t v) {
  switch (form) {
  case MCRT_TEMP_EVENTUALLY:
    return v < g->ninitial;
  case MCRT_TEMP_LEADSTO:
    return mcrt_live_pbit(g, v, inst, 0);
  default:
    return true;
  }
}

void mcrt_live_always(const McrtLiveGraph *g, uint32_t inst, McrtLasso *out) {
  for (uint64_t v = 0; v < g->nstates; v++)
    if (!mcrt_live_pbit(g, v, inst, 0)) {
      out->violated = true;
      out->src = out->loop_state = v;
      out->prefix_only = true;
      return;
    }
}

uint64_t mcrt_live_confine(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form,
                           uint8_t *reached, uint32_t *par, uint32_t *queue) {
  uint64_t n = g->nstates, head = 0, tail = 0;
  for (uint64_t v = 0; v < n; v++) {
    reached[v] = 0;
    if (mcrt_live_allowed(g, inst, form, v) && is_source(g, inst, form, v))
      reached[v] = 1, par[v] = NONE32, queue[tail++] = (uint32_t)v;
  }
  while (head < tail) {
    uint32_t v = queue[head++];
    for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
      uint32_t w = g->targets[e];
      if (!reached[w] && mcrt_live_allowed(g, inst, form, w))
        reached[w] = 1, par[w] = v, queue[tail++] = w;
    }
  }
  return tail;
}

// ---------------------------------------------------------------------------
// The lasso.

typedef struct Path {
  uint64_t *e;
  size_t n, cap;
} Path;

static void path_push(Path *p, uint64_t e) {
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->e = realloc(p->e, p->cap * sizeof *p->e);
    if (!p->e)
      mcrt_die("out of memory");
  }
  p->e[p->n++] = e;
}

// The first edge u -> w.
static uint64_t edge_to(const McrtLiveGraph *g, uint64_t u, uint64_t w) {
  for (uint64_t e = g->start[u]; e < g->start[u + 1]; e++)
    if (g->targets[e] == w)
      return e;
  mcrt_die("liveness: no edge %llu -> %llu", (unsigned long long)u, (unsigned long long)w);
}

// The cycle being built, and what it still has to do.
typedef struct Cycle {
  const McrtLiveGraph *g;
  uint32_t inst;
  const uint8_t *in; // per state: 1 inside the component
  uint32_t *stamp, *parent, *queue; // the BFS's, per state
  uint8_t *pending;    // per constraint: 1 open
  uint32_t *weak;      // open weak constraints (compacted lazily)
  uint32_t nweak, weak_open, strong_open;
  bool not_p;          // <>[] P: visit a !P state
  uint32_t gen, *mark; // per constraint: enabled in the state being looked at
  uint32_t round;      // BFS visit stamps
} Cycle;

static void take_edge(Cycle *c, uint64_t e) {
  const McrtLiveGraph *g = c->g;
  uint64_t r = mcrt_live_rule(g, e);
  for (uint64_t k = g->rc_start[r]; k < g->rc_start[r + 1]; k++) {
    uint32_t k2 = g->rc_list[k];
    if (c->pending[k2]) {
      c->pending[k2] = 0;
      if (g->strong[k2])
        c->strong_open--;
      else
        c->weak_open--;
    }
  }
}

// Marks the constraints enabled in v (c->mark[k] == c->gen); returns how
// many open weak constraints are among them.
static uint32_t mark_enabled(Cycle *c, uint64_t v) {
  const McrtLiveGraph *g = c->g;
  uint32_t open = 0;
  c->gen++;
  for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
    uint64_t r = mcrt_live_rule(g, e);
    for (uint64_t k = g->rc_start[r]; k < g->rc_start[r + 1]; k++) {
      uint32_t k2 = g->rc_list[k];
      if (c->mark[k2] != c->gen) {
        c->mark[k2] = c->gen;
        open += c->pending[k2] && !g->strong[k2];
      }
    }
  }
  return open;
}

static void visit_state(Cycle *c, uint64_t v) {
  if (c->not_p && !mcrt_live_pbit(c->g, v, c->inst, 0))
    c->not_p = false;
  if (!c->weak_open || mark_enabled(c, v) == c->weak_open)
    return;
  uint32_t k = 0;
  for (uint32_t i = 0; i < c->nweak; i++) {
    uint32_t w = c->weak[i];
    if (!c->pending[w])
      continue;
    if (c->mark[w] != c->gen) { // disabled here: met
      c->pending[w] = 0;
      c->weak_open--;
    } else {
      c->weak[k++] = w;
    }
  }
  c->nweak = k;
}

// Whether reaching state v meets an open requirement.
static bool state_meets(Cycle *c, uint64_t v) {
  if (c->not_p && !mcrt_live_pbit(c->g, v, c->inst, 0))
    return true;
  return c->weak_open && mark_enabled(c, v) < c->weak_open;
}

// An edge of v inside the component that takes an open constraint, or
// UINT64_MAX.
static uint64_t edge_meets(Cycle *c, uint64_t v) {
  const McrtLiveGraph *g = c->g;
  if (!c->weak_open && !c->strong_open)
    return UINT64_MAX;
  for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
    if (!c->in[g->targets[e]])
      continue;
    uint64_t r = mcrt_live_rule(g, e);
    for (uint64_t k = g->rc_start[r]; k < g->rc_start[r + 1]; k++)
      if (c->pending[g->rc_list[k]])
        return e;
  }
  return UINT64_MAX;
}

// Appends edge e to the cycle and records what it meets.
static void cycle_step(Cycle *c, Path *cyc, uint64_t e) {
  path_push(cyc, e);
  take_edge(c, e);
  visit_state(c, c->g->targets[e]);
}

// BFS inside the component from `from`: with goal == UINT64_MAX to the
// nearest state (other than from) or edge that meets an open requirement,
// else back to the state goal by one step at least. Appends the path to the
// cycle; returns the state reached.
static uint64_t bfs_step(Cycle *c, Path *cyc, uint64_t from, uint64_t goal) {
  const McrtLiveGraph *g = c->g;
  uint32_t round = ++c->round;
  uint64_t head = 0, tail = 0, hit = UINT64_MAX, last = UINT64_MAX;
  c->queue[tail++] = (uint32_t)from;
  c->stamp[from] = round;
  while (head < tail && hit == UINT64_MAX) {
    uint32_t u = c->queue[head++];
    if (goal == UINT64_MAX) {
      if (u != from && state_meets(c, u)) {
        hit = u;
        break;
      }
      if ((last = edge_meets(c, u)) != UINT64_MAX) {
        hit = u;
        break;
      }
    }
    for (uint64_t e = g->start[u]; e < g->start[u + 1]; e++) {
      uint32_t w = g->targets[e];
      if (!c->in[w])
        continue;
      if (w == goal) {
        hit = u, last = e;
        break;
      }
      if (c->stamp[w] != round)
        c->stamp[w] = round, c->parent[w] = u, c->queue[tail++] = w;
    }
  }
  if (hit == UINT64_MAX)
    mcrt_die("liveness: the fair component does not meet its requirements");
  Path rev = {0};
  for (uint64_t v = hit; v != from; v = c->parent[v])
    path_push(&rev, edge_to(g, c->parent[v], v));
  for (size_t i = rev.n; i-- > 0;)
    cycle_step(c, cyc, rev.e[i]);
  free(rev.e);
  if (last == UINT64_MAX)
    return hit;
  cycle_step(c, cyc, last);
  return g->targets[last];
}

// Builds the cycle through the component from its state `entry`.
static void build_cycle(Cycle *c, McrtTemporal form, const uint32_t *members, uint64_t nmembers,
                        uint64_t entry, Path *cyc) {
  const McrtLiveGraph *g = c->g;
  if (nmembers == 1 && g->start[entry] == g->start[entry + 1])
    return; // a state without successors: it repeats, no cycle steps
  c->pending = calloc(g->ncons + 1, 1);
  c->weak = calloc(g->ncons + 1, sizeof *c->weak);
  c->mark = calloc(g->ncons + 1, sizeof *c->mark);
  if (!c->pending || !c->weak || !c->mark)
    mcrt_die("out of memory");
  // Strong constraints enabled inside must be taken; weak ones met.
  for (uint64_t i = 0; i < nmembers; i++) {
    uint64_t v = members[i];
    for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
      uint64_t r = mcrt_live_rule(g, e);
      for (uint64_t k = g->rc_start[r]; k < g->rc_start[r + 1]; k++) {
        uint32_t k2 = g->rc_list[k];
        if (g->strong[k2] && !c->pending[k2])
          c->pending[k2] = 1, c->strong_open++;
      }
    }
  }
  for (uint32_t k = 0; k < g->ncons; k++)
    if (!g->strong[k])
      c->pending[k] = 1, c->weak[c->nweak++] = k, c->weak_open++;
  c->not_p = form == MCRT_TEMP_EVENTUALLY_ALWAYS;
  visit_state(c, entry);
  uint64_t cur = entry;
  while (c->weak_open || c->strong_open || c->not_p)
    cur = bfs_step(c, cyc, cur, UINT64_MAX);
  if (cur != entry || cyc->n == 0)
    bfs_step(c, cyc, cur, entry);
  free(c->pending), free(c->weak), free(c->mark);
}

void mcrt_lasso_build(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form,
                      const uint32_t *members, uint64_t nmembers, const uint8_t *in,
                      uint64_t entry, const uint32_t *par, McrtLasso *out) {
  out->violated = true;
  out->loop_state = entry;
  Path stem = {0}, rev = {0};
  uint64_t v = entry;
  while (par && par[v] != NONE32) {
    path_push(&rev, edge_to(g, par[v], v));
    v = par[v];
  }
  out->src = v;
  for (size_t i = rev.n; i-- > 0;)
    path_push(&stem, rev.e[i]);
  free(rev.e);
  uint64_t n = g->nstates + 1;
  Cycle c = {.g = g, .inst = inst, .in = in};
  c.stamp = calloc(n, sizeof *c.stamp);
  c.parent = malloc(n * sizeof *c.parent);
  c.queue = malloc(n * sizeof *c.queue);
  if (!c.stamp || !c.parent || !c.queue)
    mcrt_die("out of memory");
  Path cyc = {0};
  build_cycle(&c, form, members, nmembers, entry, &cyc);
  free(c.stamp), free(c.parent), free(c.queue);
  out->stem = stem.e, out->nstem = stem.n;
  out->cycle = cyc.e, out->ncycle = cyc.n;
}

void mcrt_lasso_free(McrtLasso *l) {
  free(l->stem);
  free(l->cycle);
  memset(l, 0, sizeof *l);
}
