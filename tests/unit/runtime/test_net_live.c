// SPDX-License-Identifier: MIT
// Unit tests of a Petri net's liveness answer (L4, runtime/output/netreport.c) on
// reachability graphs written by hand: an edge's rule is the transition
// that fires. L4 holds when every transition labels an edge of every
// terminal strongly connected component; each expected answer is worked
// out in the comment above its test.
#include <criterion/criterion.h>

#include "output/output.h"

#include <stdlib.h>

typedef struct Edge {
  uint32_t from, to, trans;
} Edge;

// The graph of `ne` edges given in order of `from`.
static McrtLiveGraph make(uint64_t nstates, const Edge *e, size_t ne) {
  McrtLiveGraph g = {0};
  g.nstates = nstates, g.ninitial = 1, g.nedges = ne;
  g.start = calloc(nstates + 1, sizeof *g.start);
  g.targets = calloc(ne + 1, sizeof *g.targets);
  g.rule_bytes = 1;
  g.rules = calloc(ne + 8, 1);
  for (size_t i = 0; i < ne; i++) {
    g.targets[i] = e[i].to;
    g.rules[i] = (uint8_t)e[i].trans;
    g.start[e[i].from + 1]++;
  }
  for (uint64_t v = 0; v < nstates; v++)
    g.start[v + 1] += g.start[v];
  return g;
}

static void drop(McrtLiveGraph *g) {
  free(g->start), free(g->targets), free(g->rules);
}

// A ring 0 -t0-> 1 -t1-> 0: one terminal component, both transitions in it.
Test(net_live, ring_is_live) {
  Edge e[] = {{0, 1, 0}, {1, 0, 1}};
  McrtLiveGraph g = make(2, e, 2);
  uint32_t missing = 99;
  cr_assert_eq(mcrt_net_live(&g, 2, &missing), 1);
  drop(&g);
}

// 0 -t0-> 1, 1 -t1-> 2, 2 -t1-> 1: the terminal component {1, 2} never
// fires t0 again, though nothing is dead and nothing deadlocks.
Test(net_live, transition_missing_from_the_terminal_component) {
  Edge e[] = {{0, 1, 0}, {1, 2, 1}, {2, 1, 1}};
  McrtLiveGraph g = make(3, e, 3);
  uint32_t missing = 99;
  cr_assert_eq(mcrt_net_live(&g, 2, &missing), 0);
  cr_assert_eq(missing, 0);
  drop(&g);
}

// 0 -t0-> 1, then {1, 2} with t0: 2 -> 1 and t1: 1 -> 2. State 0's own
// component lacks t1, but it is not terminal: only {1, 2} counts, and it
// has both. Live.
Test(net_live, only_terminal_components_count) {
  Edge e[] = {{0, 1, 0}, {1, 2, 1}, {2, 1, 0}};
  McrtLiveGraph g = make(3, e, 3);
  uint32_t missing = 99;
  cr_assert_eq(mcrt_net_live(&g, 2, &missing), 1);
  drop(&g);
}

// 0 -t0-> 1 and 0 -t1-> 0; state 1 has no successor: a deadlock is a
// terminal component where nothing fires. Not live, t0 missing first.
Test(net_live, a_deadlock_is_not_live) {
  Edge e[] = {{0, 1, 0}, {0, 0, 1}};
  McrtLiveGraph g = make(2, e, 2);
  uint32_t missing = 99;
  cr_assert_eq(mcrt_net_live(&g, 2, &missing), 0);
  cr_assert_eq(missing, 0);
  drop(&g);
}

// Two terminal components reached from 0 (by t0 and t1): {1} loops on t0
// and t1, {2} loops on t0 only. The second lacks t1: not live.
Test(net_live, every_terminal_component_needs_every_transition) {
  Edge e[] = {{0, 1, 0}, {0, 2, 1}, {1, 1, 0}, {1, 1, 1}, {2, 2, 0}};
  McrtLiveGraph g = make(3, e, 5);
  uint32_t missing = 99;
  cr_assert_eq(mcrt_net_live(&g, 2, &missing), 0);
  cr_assert_eq(missing, 1);
  drop(&g);
}

// A chain of 200,000 states ending in a loop on both transitions: the
// iterative search does not recurse on the C stack. Live.
Test(net_live, long_chain) {
  enum { N = 200000 };
  Edge *e = calloc(N + 1, sizeof *e);
  for (uint32_t i = 0; i + 1 < N; i++)
    e[i] = (Edge){i, i + 1, i % 2};
  e[N - 1] = (Edge){N - 1, N - 1, 0};
  e[N] = (Edge){N - 1, N - 1, 1};
  McrtLiveGraph g = make(N, e, N + 1);
  uint32_t missing = 99;
  cr_assert_eq(mcrt_net_live(&g, 2, &missing), 1);
  drop(&g);
  free(e);
}
