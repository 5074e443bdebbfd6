// SPDX-License-Identifier: MIT
// Unit tests of the liveness check (runtime/analysis/liveness.c) on state graphs
// written by hand: each expected verdict is worked out in the comment above
// its test from the semantics of docs/LANGUAGE.md (a state without successors
// repeats for ever; fair SCCs, strong fairness by refinement).
#include <criterion/criterion.h>

#include "analysis/analysis.h"

#include <stdlib.h>

// A graph under construction: edges {from, to, rule} given in order of
// `from`; P/Q bits of instance 0; constraints as lists of rules.
typedef struct Edge {
  uint32_t from, to, rule;
} Edge;

typedef struct Cons {
  bool strong;
  int nrules;
  uint32_t rules[4];
} Cons;

#define NRULES 8

static McrtLiveGraph make(uint64_t nstates, uint64_t ninitial, const Edge *e, size_t ne,
                          const char *p, const char *q, const Cons *c, uint32_t nc) {
  McrtLiveGraph g = {0};
  g.nstates = nstates, g.ninitial = ninitial, g.nedges = ne;
  g.start = calloc(nstates + 1, sizeof *g.start);
  g.targets = calloc(ne + 1, sizeof *g.targets);
  g.rule_bytes = 1;
  g.rules = calloc(ne + 8, 1);
  for (size_t i = 0; i < ne; i++) {
    g.targets[i] = e[i].to;
    g.rules[i] = (uint8_t)e[i].rule;
    g.start[e[i].from + 1]++;
  }
  for (uint64_t v = 0; v < nstates; v++)
    g.start[v + 1] += g.start[v];
  g.bits_bytes = 1;
  g.bits = calloc(nstates, 1);
  for (uint64_t v = 0; v < nstates; v++)
    g.bits[v] = (uint8_t)((p && p[v] == '1') | ((q && q[v] == '1') << 1));
  g.ncons = nc;
  g.strong = calloc(nc + 1, sizeof *g.strong);
  g.rc_start = calloc(NRULES + 1, sizeof *g.rc_start);
  g.rc_list = calloc(NRULES * (nc + 1), sizeof *g.rc_list);
  for (uint32_t r = 0; r < NRULES; r++) {
    g.rc_start[r + 1] = g.rc_start[r];
    for (uint32_t k = 0; k < nc; k++)
      for (int j = 0; j < c[k].nrules; j++)
        if (c[k].rules[j] == r)
          g.rc_list[g.rc_start[r + 1]++] = k;
  }
  for (uint32_t k = 0; k < nc; k++)
    g.strong[k] = c[k].strong;
  return g;
}

static void drop(McrtLiveGraph *g) {
  free(g->start), free(g->targets), free(g->rules), free(g->bits), free(g->strong);
  free(g->rc_start), free(g->rc_list);
}

// Checks that a lasso is a path of the graph: the stem from src to
// loop_state, the cycle from loop_state back to it.
static void check_lasso(const McrtLiveGraph *g, const McrtLasso *l) {
  uint64_t v = l->src;
  for (size_t i = 0; i < l->nstem; i++) {
    uint64_t e = l->stem[i];
    cr_assert(e >= g->start[v] && e < g->start[v + 1], "stem edge %zu does not leave %lu", i,
              (unsigned long)v);
    v = g->targets[e];
  }
  cr_assert_eq(v, l->loop_state);
  for (size_t i = 0; i < l->ncycle; i++) {
    uint64_t e = l->cycle[i];
    cr_assert(e >= g->start[v] && e < g->start[v + 1], "cycle edge %zu does not leave %lu", i,
              (unsigned long)v);
    v = g->targets[e];
  }
  cr_assert_eq(v, l->loop_state, "the cycle does not return");
  if (l->ncycle == 0 && !l->prefix_only)
    cr_assert_eq(g->start[v], g->start[v + 1], "an empty cycle needs a state without successor");
}

static McrtLasso find(const McrtLiveGraph *g, McrtTemporal form) {
  McrtLasso l;
  cr_assert(mcrt_live_find(g, 0, form, &l));
  if (l.violated)
    check_lasso(g, &l);
  return l;
}

// Whether the form is violated (the lasso checked, then dropped).
static bool violated(const McrtLiveGraph *g, McrtTemporal form) {
  McrtLasso l = find(g, form);
  bool v = l.violated;
  mcrt_lasso_free(&l);
  return v;
}

// 0 -> 1, and 1 has no successor: it repeats for ever. P holds in 1 only.
// The one behaviour is 0 1 1 1 ...: <> P, []<> P and <>[] P hold. With P
// nowhere, <> P fails: the stem 0 -> 1, then 1 repeating (no cycle step).
Test(liveness, state_without_successor_repeats) {
  Edge e[] = {{0, 1, 0}};
  McrtLiveGraph g = make(2, 1, e, 1, "01", NULL, NULL, 0);
  cr_assert(!violated(&g, MCRT_TEMP_EVENTUALLY));
  cr_assert(!violated(&g, MCRT_TEMP_ALWAYS_EVENTUALLY));
  cr_assert(!violated(&g, MCRT_TEMP_EVENTUALLY_ALWAYS));
  drop(&g);
  g = make(2, 1, e, 1, "00", NULL, NULL, 0);
  McrtLasso l = find(&g, MCRT_TEMP_EVENTUALLY);
  cr_assert(l.violated);
  cr_assert_eq(l.loop_state, 1);
  cr_assert_eq(l.nstem, 1);
  cr_assert_eq(l.ncycle, 0);
  mcrt_lasso_free(&l);
  drop(&g);
}

// 0 <-> 1 by rules 0 (0 -> 1) and 1 (1 -> 0); rule 2 leaves 0 for 2, where
// P holds, and 2 has a self-loop (rule 3). Rule 2 is enabled in 0 only.
//   weak 2:   the cycle 0 <-> 1 is fair (2 is disabled in 1): <> P fails.
//   strong 2: 2 is enabled infinitely often on that cycle and never taken:
//             unfair; without 0 the rest {1} is no cycle: <> P holds.
//   none:     <> P fails.
Test(liveness, weak_enabled_in_some_states_strong_infinitely_often) {
  Edge e[] = {{0, 1, 0}, {0, 2, 2}, {1, 0, 1}, {2, 2, 3}};
  Cons weak = {false, 1, {2}}, strong = {true, 1, {2}};
  McrtLiveGraph g = make(3, 1, e, 4, "001", NULL, &weak, 1);
  McrtLasso l = find(&g, MCRT_TEMP_EVENTUALLY);
  cr_assert(l.violated);
  cr_assert_eq(l.loop_state, 0);
  cr_assert_eq(l.ncycle, 2);
  mcrt_lasso_free(&l);
  drop(&g);
  g = make(3, 1, e, 4, "001", NULL, &strong, 1);
  cr_assert(!violated(&g, MCRT_TEMP_EVENTUALLY));
  drop(&g);
  g = make(3, 1, e, 4, "001", NULL, NULL, 0);
  cr_assert(violated(&g, MCRT_TEMP_EVENTUALLY));
  drop(&g);
}

// One state 0 with a self-loop by rule 0 (A(p=1)) and rule 1 (A(p=2))
// leading to 1 where P holds (1 loops by rule 2).
//   fair weak A per binding: {0} {1}: the loop by rule 0 leaves rule 1
//     enabled for ever, never taken: unfair; <> P holds.
//   fair weak (A) as a group {0, 1}: the loop takes rule 0: fair; fails.
//   no fairness: fails (the property holds only because of fairness).
Test(liveness, per_binding_against_group) {
  Edge e[] = {{0, 0, 0}, {0, 1, 1}, {1, 1, 2}};
  Cons per[] = {{false, 1, {0}}, {false, 1, {1}}};
  Cons group = {false, 2, {0, 1}};
  McrtLiveGraph g = make(2, 1, e, 3, "01", NULL, per, 2);
  cr_assert(!violated(&g, MCRT_TEMP_EVENTUALLY));
  drop(&g);
  g = make(2, 1, e, 3, "01", NULL, &group, 1);
  McrtLasso l = find(&g, MCRT_TEMP_EVENTUALLY);
  cr_assert(l.violated);
  cr_assert_eq(l.ncycle, 1);
  cr_assert_eq(l.cycle[0], 0); // the self-loop by rule 0
  mcrt_lasso_free(&l);
  drop(&g);
  g = make(2, 1, e, 3, "01", NULL, NULL, 0);
  cr_assert(violated(&g, MCRT_TEMP_EVENTUALLY));
  drop(&g);
}

// P ~> Q. 0 -> 1 -> 1 (self-loop). P holds in 0.
//   Q in 0 too: the P-state is already a Q-state: holds.
//   Q in 1: holds.  Q nowhere: fails, the loop at 1, stem from 0.
Test(liveness, leads_to) {
  Edge e[] = {{0, 1, 0}, {1, 1, 1}};
  McrtLiveGraph g = make(2, 1, e, 2, "10", "10", NULL, 0);
  cr_assert(!violated(&g, MCRT_TEMP_LEADSTO));
  drop(&g);
  g = make(2, 1, e, 2, "10", "01", NULL, 0);
  cr_assert(!violated(&g, MCRT_TEMP_LEADSTO));
  drop(&g);
  g = make(2, 1, e, 2, "10", "00", NULL, 0);
  McrtLasso l = find(&g, MCRT_TEMP_LEADSTO);
  cr_assert(l.violated);
  cr_assert_eq(l.src, 0);
  cr_assert_eq(l.loop_state, 1);
  cr_assert_eq(l.nstem, 1);
  cr_assert_eq(l.ncycle, 1);
  mcrt_lasso_free(&l);
  drop(&g);
}

// [] P: the first state (lowest id: BFS-nearest) where P fails, no cycle.
// []<> P and <>[] P on a two-state cycle 0 <-> 1 with P in 0 only:
// []<> P holds; <>[] P fails (the cycle visits 1 again and again).
Test(liveness, always_forms) {
  Edge e[] = {{0, 1, 0}, {1, 0, 1}};
  McrtLiveGraph g = make(2, 1, e, 2, "10", NULL, NULL, 0);
  McrtLasso l = find(&g, MCRT_TEMP_ALWAYS);
  cr_assert(l.violated && l.prefix_only);
  cr_assert_eq(l.src, 1);
  mcrt_lasso_free(&l);
  cr_assert(!violated(&g, MCRT_TEMP_ALWAYS_EVENTUALLY));
  l = find(&g, MCRT_TEMP_EVENTUALLY_ALWAYS);
  cr_assert(l.violated);
  cr_assert_eq(l.ncycle, 2);
  mcrt_lasso_free(&l);
  drop(&g);
}

// Strong fairness refined twice: 0 -> 1 -> 2 -> 0 (rules 0 1 2), rule 3
// (strong) enabled in 0, rule 4 (strong) in 1, both leading to 3 where P
// holds. SCC {0,1,2}: 3 and 4 enabled, never taken: remove 0 and 1: {2} is
// no cycle. <> P holds. With 2 -> 2 (rule 5) added, {2} is a fair loop.
Test(liveness, strong_refinement) {
  Edge e[] = {{0, 1, 0}, {0, 3, 3}, {1, 2, 1}, {1, 3, 4}, {2, 0, 2}, {3, 3, 6}};
  Cons c[] = {{true, 1, {3}}, {true, 1, {4}}};
  McrtLiveGraph g = make(4, 1, e, 6, "0001", NULL, c, 2);
  cr_assert(!violated(&g, MCRT_TEMP_EVENTUALLY));
  drop(&g);
  Edge e2[] = {{0, 1, 0}, {0, 3, 3}, {1, 2, 1}, {1, 3, 4}, {2, 0, 2}, {2, 2, 5}, {3, 3, 6}};
  g = make(4, 1, e2, 7, "0001", NULL, c, 2);
  McrtLasso l = find(&g, MCRT_TEMP_EVENTUALLY);
  cr_assert(l.violated);
  cr_assert_eq(l.loop_state, 2);
  cr_assert_eq(l.ncycle, 1);
  mcrt_lasso_free(&l);
  drop(&g);
}

// What the cycle must do: 0 -> 1 by rule 0 or 1 (weak, enabled in 0 only),
// 1 -> 0 by rule 2 (weak, enabled in 1 only), 1 -> 1 by rule 3 (strong).
// The SCC {0, 1} is fair; P nowhere, so <> P fails. Visiting both states
// meets the weak rules (each is disabled in one of them); the strong rule 3
// is enabled in 1, so the cycle must take it, and it returns by rule 2.
Test(liveness, cycle_meets_requirements) {
  Edge e[] = {{0, 1, 0}, {0, 1, 1}, {1, 0, 2}, {1, 1, 3}};
  Cons c[] = {{false, 1, {0}}, {false, 1, {1}}, {false, 1, {2}}, {true, 1, {3}}};
  McrtLiveGraph g = make(2, 1, e, 4, "00", NULL, c, 4);
  McrtLasso l = find(&g, MCRT_TEMP_EVENTUALLY);
  cr_assert(l.violated);
  bool took3 = false, took2 = false;
  for (size_t i = 0; i < l.ncycle; i++) {
    took3 |= g.rules[l.cycle[i]] == 3;
    took2 |= g.rules[l.cycle[i]] == 2;
  }
  cr_assert(took3 && took2);
  mcrt_lasso_free(&l);
  drop(&g);
}

// A ring of 10^7 states (v -> v+1 mod n), P nowhere: <> P fails with the
// whole ring as its cycle. Tarjan must not recurse on the C stack.
Test(liveness, deep_ring, .timeout = 120) {
  uint64_t n = 10000000;
  Edge *e = malloc(n * sizeof *e);
  for (uint64_t v = 0; v < n; v++)
    e[v] = (Edge){(uint32_t)v, (uint32_t)((v + 1) % n), 0};
  char *p = calloc(n + 1, 1);
  memset(p, '0', n);
  McrtLiveGraph g = make(n, 1, e, n, p, NULL, NULL, 0);
  free(e);
  free(p);
  McrtLasso l = find(&g, MCRT_TEMP_EVENTUALLY);
  cr_assert(l.violated);
  cr_assert_eq(l.loop_state, 0);
  cr_assert_eq(l.ncycle, n);
  mcrt_lasso_free(&l);
  drop(&g);
}
