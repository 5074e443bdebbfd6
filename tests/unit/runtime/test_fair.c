// SPDX-License-Identifier: MIT
// Unit tests of the parallel liveness engine (runtime/analysis/scc.c,
// fair.c) on random graphs, against references that share nothing with
// it: the components against Kosaraju's two passes written here, and the
// verdict and counterexample of every instance against the serial engine
// (liveness.c's Tarjan per instance, itself checked by hand in
// test_liveness.c), at 1, 2, 4 and 8 threads. The graphs come in shapes
// that stress different parts of the union-find: one giant component, a
// chain of components, a random sparse graph, and self-loops and states
// without successors everywhere.
#include <criterion/criterion.h>

#include "analysis/analysis.h"

#include <stdlib.h>

#define NRULES 6
#define MAX_INST 6

typedef struct Rng {
  uint64_t s;
} Rng;

static uint32_t rnd(Rng *r, uint32_t n) {
  r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)((r->s >> 33) % n);
}

enum { SHAPE_GIANT, SHAPE_CHAIN, SHAPE_SPARSE, SHAPES };

// A random graph of n states, in a shape; rules from 0 to NRULES - 1,
// property bits for MAX_INST instances, and up to 4 constraints.
static McrtLiveGraph random_graph(Rng *r, uint64_t n, int shape) {
  McrtLiveGraph g = {0};
  g.nstates = n, g.ninitial = 1 + rnd(r, 2);
  uint32_t maxdeg = 1 + rnd(r, 4);
  g.start = calloc(n + 1, sizeof *g.start);
  g.targets = malloc((n * maxdeg + 1) * sizeof *g.targets);
  g.rule_bytes = 1;
  g.rules = calloc(n * maxdeg + 8, 1);
  uint32_t block = 1 + rnd(r, 8); // chain: components of about this size
  for (uint64_t v = 0; v < n; v++) {
    uint32_t deg = rnd(r, 8) == 0 ? 0 : rnd(r, maxdeg + 1);
    for (uint32_t k = 0; k < deg; k++) {
      uint64_t w;
      if (shape == SHAPE_GIANT)
        w = rnd(r, 3) ? (v + 1) % n : rnd(r, (uint32_t)n);
      else if (shape == SHAPE_CHAIN) // within the block, or forwards
        w = rnd(r, 4) ? v / block * block + rnd(r, block) : v + 1 + rnd(r, 3);
      else
        w = rnd(r, (uint32_t)n);
      if (w >= n)
        w = n - 1;
      g.targets[g.nedges] = (uint32_t)w;
      g.rules[g.nedges] = (uint8_t)rnd(r, NRULES);
      g.nedges++;
    }
    g.start[v + 1] = g.nedges;
  }
  g.bits_bytes = (2 * MAX_INST + 7) / 8;
  g.bits = calloc(n, g.bits_bytes);
  uint32_t density = 4 + rnd(r, 5); // of 8: up to every state (many instances hold)
  for (uint64_t v = 0; v < n; v++)
    for (uint32_t b = 0; b < 2 * MAX_INST; b++)
      if (rnd(r, 8) < density)
        g.bits[v * g.bits_bytes + b / 8] |= (uint8_t)(1u << (b % 8));
  g.ncons = rnd(r, 5);
  g.strong = calloc(g.ncons + 1, sizeof *g.strong);
  g.rc_start = calloc(NRULES + 1, sizeof *g.rc_start);
  g.rc_list = calloc(NRULES * (g.ncons + 1), sizeof *g.rc_list);
  bool member[8][NRULES] = {{0}};
  for (uint32_t c = 0; c < g.ncons; c++) {
    g.strong[c] = rnd(r, 2);
    for (uint32_t k = 1 + rnd(r, 2); k > 0; k--)
      member[c][rnd(r, NRULES)] = true;
  }
  for (uint32_t rule = 0; rule < NRULES; rule++) {
    g.rc_start[rule + 1] = g.rc_start[rule];
    for (uint32_t c = 0; c < g.ncons; c++)
      if (member[c][rule])
        g.rc_list[g.rc_start[rule + 1]++] = c;
  }
  return g;
}

static void drop(McrtLiveGraph *g) {
  free(g->start), free(g->targets), free(g->rules), free(g->bits), free(g->strong);
  free(g->rc_start), free(g->rc_list);
}

// Kosaraju: comp[v] = the number of v's component, for states with part[v].
static void kosaraju(const McrtLiveGraph *g, const uint32_t *part, uint32_t *comp) {
  uint64_t n = g->nstates;
  uint32_t *order = malloc(n * 4), *stack = malloc((n + 1) * 4), *pos = malloc(n * 8);
  uint8_t *seen = calloc(n, 1);
  uint64_t no = 0;
  // Reverse CSR.
  uint64_t *rs = calloc(n + 1, 8);
  uint32_t *rt = malloc((g->nedges + 1) * 4);
  for (uint64_t e = 0; e < g->nedges; e++)
    rs[g->targets[e] + 1]++;
  for (uint64_t v = 0; v < n; v++)
    rs[v + 1] += rs[v];
  uint64_t *fill = calloc(n + 1, 8);
  for (uint64_t v = 0; v < n; v++)
    for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++)
      rt[rs[g->targets[e]] + fill[g->targets[e]]++] = (uint32_t)v;
  for (uint64_t root = 0; root < n; root++) {
    if (!part[root] || seen[root])
      continue;
    uint64_t sp = 0;
    stack[sp] = (uint32_t)root, pos[sp++] = g->start[root], seen[root] = 1;
    while (sp) {
      uint32_t v = stack[sp - 1];
      if (pos[sp - 1] < g->start[v + 1]) {
        uint32_t w = g->targets[pos[sp - 1]++];
        if (part[w] == part[v] && !seen[w])
          seen[w] = 1, stack[sp] = w, pos[sp++] = g->start[w];
      } else {
        order[no++] = v, sp--;
      }
    }
  }
  for (uint64_t v = 0; v < n; v++)
    comp[v] = UINT32_MAX;
  uint32_t c = 0;
  for (uint64_t i = no; i-- > 0;) {
    uint32_t root = order[i];
    if (comp[root] != UINT32_MAX)
      continue;
    uint64_t sp = 0;
    stack[sp++] = root, comp[root] = c;
    while (sp) {
      uint32_t v = stack[--sp];
      for (uint64_t e = rs[v]; e < rs[v + 1]; e++) {
        uint32_t u = rt[e];
        if (part[u] == part[v] && comp[u] == UINT32_MAX)
          comp[u] = c, stack[sp++] = u;
      }
    }
    c++;
  }
  free(order), free(stack), free(pos), free(seen), free(rs), free(rt), free(fill);
}

// Whether two labellings define the same partition of the states with part.
static void same_partition(uint64_t n, const uint32_t *part, const uint32_t *a, const uint32_t *b) {
  uint32_t *ab = malloc(n * 4), *ba = malloc(n * 4);
  for (uint64_t v = 0; v < n; v++)
    ab[v] = ba[v] = UINT32_MAX;
  for (uint64_t v = 0; v < n; v++) {
    if (!part[v])
      continue;
    cr_assert(a[v] < n && b[v] < n, "state %lu has no component", (unsigned long)v);
    if (ab[a[v]] == UINT32_MAX)
      ab[a[v]] = b[v];
    if (ba[b[v]] == UINT32_MAX)
      ba[b[v]] = a[v];
    cr_assert_eq(ab[a[v]], b[v], "state %lu: the components differ", (unsigned long)v);
    cr_assert_eq(ba[b[v]], a[v], "state %lu: the components differ", (unsigned long)v);
  }
  free(ab), free(ba);
}

// The components of random graphs, whole and in random parts, at 1 to 8
// threads, against Kosaraju's.
Test(fair, components_against_kosaraju, .timeout = 300) {
  Rng r = {42};
  uint32_t threads[] = {1, 2, 4, 8};
  for (int round = 0; round < 120; round++) {
    uint64_t n = 1 + rnd(&r, round < 100 ? 200 : 20000);
    McrtLiveGraph g = random_graph(&r, n, round % SHAPES);
    uint32_t *part = malloc(n * 4), *want = malloc(n * 4), *got = malloc(n * 4);
    bool parts = rnd(&r, 2);
    for (uint64_t v = 0; v < n; v++)
      part[v] = parts ? rnd(&r, 4) : 1;
    kosaraju(&g, part, want);
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
      McrtTeam team;
      cr_assert(mcrt_team_start(&team, threads[t]));
      cr_assert_eq(mcrt_scc_decompose(&g, part, got, &team), MCRT_SCC_OK);
      mcrt_team_stop(&team);
      same_partition(n, part, want, got);
    }
    free(part), free(want), free(got);
    drop(&g);
  }
}

// Whether two edge lists are equal (memcmp may not be given NULL, which an
// empty list is).
static bool same_edges(const uint64_t *a, const uint64_t *b, size_t n) {
  return n == 0 || !memcmp(a, b, n * sizeof *a);
}

static bool same_lasso(const McrtLasso *a, const McrtLasso *b) {
  if (a->violated != b->violated || a->prefix_only != b->prefix_only)
    return false;
  if (!a->violated)
    return true;
  return a->src == b->src && a->loop_state == b->loop_state && a->nstem == b->nstem &&
         a->ncycle == b->ncycle &&
         same_edges(a->stem, b->stem, a->nstem) && same_edges(a->cycle, b->cycle, a->ncycle);
}

// Every form on random graphs, with weak and strong constraints: the
// first violated instance and its lasso, edge for edge, are the serial
// engine's at 1 to 8 threads.
Test(fair, verdicts_and_lassos_against_serial, .timeout = 600) {
  Rng r = {7};
  uint32_t threads[] = {1, 2, 4, 8};
  McrtTemporal all[] = {MCRT_TEMP_ALWAYS, MCRT_TEMP_EVENTUALLY, MCRT_TEMP_LEADSTO,
                        MCRT_TEMP_ALWAYS_EVENTUALLY, MCRT_TEMP_EVENTUALLY_ALWAYS};
  int violations = 0, holds = 0;
  for (int round = 0; round < 400; round++) {
    uint64_t n = 1 + rnd(&r, round < 350 ? 60 : 5000);
    McrtLiveGraph g = random_graph(&r, n, round % SHAPES);
    uint32_t ninst = 1 + rnd(&r, MAX_INST);
    McrtTemporal forms[MAX_INST];
    for (uint32_t i = 0; i < ninst; i++)
      forms[i] = all[rnd(&r, 5)];
    // The serial engine: the first violated instance.
    McrtLasso want = {0};
    uint32_t first = ninst;
    for (uint32_t i = 0; i < ninst && first == ninst; i++) {
      cr_assert(mcrt_live_find(&g, i, forms[i], &want));
      if (want.violated)
        first = i;
      else
        mcrt_lasso_free(&want);
    }
    first == ninst ? holds++ : violations++;
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
      McrtTeam team;
      cr_assert(mcrt_team_start(&team, threads[t]));
      McrtLasso got;
      uint32_t which;
      uint64_t comps;
      cr_assert(mcrt_fair_check(&g, forms, ninst, &team, &which, &got, &comps));
      mcrt_team_stop(&team);
      cr_assert_eq(which, first, "round %d, %u threads: instance %u violated, serial says %u",
                   round, threads[t], which, first);
      cr_assert(same_lasso(&want, &got), "round %d, %u threads: another lasso", round,
                threads[t]);
      mcrt_lasso_free(&got);
    }
    mcrt_lasso_free(&want);
    drop(&g);
  }
  cr_assert(violations > 50 && holds > 50, "%d violations, %d holds: a poor mix", violations,
            holds);
}
