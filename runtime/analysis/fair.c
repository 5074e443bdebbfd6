// SPDX-License-Identifier: MIT
// fair.c: every property instance over one decomposition of the graph into
// its fair components, on every thread of a team (docs/DESIGN.md,
// "Liveness"; the forms and the semantics: liveness.c).
//
// A fair set is a maximal set of states that is strongly connected (or one
// state with a self-loop, or one state without successors) and fair: for
// every weak constraint some edge inside takes it or some state inside has
// it disabled, for every strong one some edge inside takes it or no state
// inside has it enabled. These sets are unique and disjoint, and they are
// what Emerson and Lei's refinement leaves, in whatever order it runs: the
// components of the graph are judged; an unfair one (a weak constraint
// enabled everywhere, taken nowhere inside) is dropped, one whose strong
// constraints are enabled but not taken inside loses the states where they
// are enabled and what is left is decomposed again, the rest are fair.
//
// Each instance's counterexample lies in a fair set of the part of the
// graph its form confines it to (liveness.c's table), and that part's fair
// sets lie inside the whole graph's: a strongly connected fair set of the
// part is strongly connected and fair in the whole graph (enabledness is
// the whole graph's, and every edge inside it is inside the whole graph's
// component), so the whole graph's refinement never removes it. Hence one
// decomposition serves every instance:
//   <>[] P    the whole graph's fair sets that hold a !P state;
//   []<> P    the fair sets of the !P states within the whole graph's;
//   <> P, ~>  the same within the allowed states, then of those the ones
//             the sources reach through allowed states (a fair set is
//             strongly connected: all its states are reached or none);
//   [] P      no decomposition: the first state where P fails.
// and an instance whose allowed states hold no fair set of the whole graph
// costs a scan of the states. The witness is the one liveness.c's serial
// engine picks (the set whose least state id is least; its entry the least
// id, or the first met by the sources' BFS for <> P and ~>), and lasso.c
// builds the same counterexample from it.
//
// Each round decomposes every part at once (scc.c, on the team), groups
// the states by component, and judges the components on the team, each
// thread taking the next component; a refinement gives the kept states a
// part of their own for the next round.
#include "analysis/analysis.h"

#include <stdatomic.h>
#include <stdlib.h>

// A thread's scratch for judging components (per constraint).
typedef struct Judge {
  uint32_t *en_count, *stamp, *touched;
  uint8_t *taken, *cut;
} Judge;

typedef struct Fair {
  const McrtLiveGraph *g;
  McrtTeam *team;
  uint64_t n;
  uint32_t *part;    // per state: its part in this round (0: out)
  uint32_t *comp;    // per state: its component's representative (scc.c)
  uint32_t *out;     // per state: the fair set a round left it in (0: none)
  uint32_t *whole;   // per state: its fair set of the whole graph (0: none)
  uint32_t *start;   // per state as a root: where its members start, then end
  uint32_t *members; // the round's states, by component, each in id order
  uint32_t *roots;   // the round's components, by root
  uint64_t nroots;
  uint32_t *bounds; // per component: the start of its members (nroots + 1)
  _Atomic uint32_t next_part, next_set;
  _Atomic uint64_t next_comp; // the next component a thread judges
  Judge *judges;
  uint64_t components;
  uint32_t nwhole; // the whole graph's fair sets are 1 .. nwhole
  bool have_whole;
} Fair;

// ---------------------------------------------------------------------------
// Judging a component.

enum { DROP, FAIR, REFINE };

static bool is_cycle(const McrtLiveGraph *g, const uint32_t *m, uint64_t n) {
  if (n > 1)
    return true;
  uint64_t v = m[0];
  if (g->start[v] == g->start[v + 1])
    return true; // no successor: it repeats
  for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++)
    if (g->targets[e] == v)
      return true;
  return false;
}

// What becomes of component m[0 .. n) (representative root): dropped, a
// fair set, or refined (the constraints to cut marked in J->cut; the caller
// clears them).
static int judge(const Fair *F, Judge *J, const uint32_t *m, uint64_t n, uint32_t root,
                 uint32_t *ntouched) {
  const McrtLiveGraph *g = F->g;
  *ntouched = 0;
  if (!is_cycle(g, m, n))
    return DROP;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t v = m[i];
    for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
      uint64_t r = mcrt_live_rule(g, e);
      if (g->rc_start[r] == g->rc_start[r + 1])
        continue;
      bool inside = F->comp[g->targets[e]] == root;
      for (uint64_t k = g->rc_start[r]; k < g->rc_start[r + 1]; k++) {
        uint32_t c = g->rc_list[k];
        if (J->stamp[c] != (uint32_t)v + 1) {
          J->stamp[c] = (uint32_t)v + 1;
          if (J->en_count[c]++ == 0)
            J->touched[(*ntouched)++] = c;
        }
        J->taken[c] |= inside;
      }
    }
  }
  bool unfair = false, refine = false;
  for (uint32_t i = 0; i < *ntouched; i++) {
    uint32_t c = J->touched[i];
    if (J->taken[c])
      continue;
    if (!g->strong[c])
      unfair |= J->en_count[c] == n;
    else
      J->cut[c] = 1, refine = true;
  }
  return unfair ? DROP : refine ? REFINE : FAIR;
}

// Whether state v has a constraint marked to cut enabled.
static bool cut_here(const McrtLiveGraph *g, const Judge *J, uint64_t v) {
  for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
    uint64_t r = mcrt_live_rule(g, e);
    for (uint64_t k = g->rc_start[r]; k < g->rc_start[r + 1]; k++)
      if (J->cut[g->rc_list[k]])
        return true;
  }
  return false;
}

// Judges component i and sets its states' part (and fair set) for what
// comes next.
static void settle(Fair *F, Judge *J, uint64_t i) {
  const uint32_t *m = F->members + F->bounds[i];
  uint64_t n = F->bounds[i + 1] - F->bounds[i];
  uint32_t ntouched;
  int verdict = judge(F, J, m, n, F->roots[i], &ntouched);
  if (verdict == FAIR) {
    uint32_t id = atomic_fetch_add(&F->next_set, 1);
    for (uint64_t k = 0; k < n; k++)
      F->out[m[k]] = id, F->part[m[k]] = 0;
  } else if (verdict == REFINE) {
    uint32_t id = atomic_fetch_add(&F->next_part, 1);
    if (id == UINT32_MAX)
      mcrt_die("liveness: more refinements than part numbers");
    for (uint64_t k = 0; k < n; k++)
      F->part[m[k]] = cut_here(F->g, J, m[k]) ? 0 : id;
  } else {
    for (uint64_t k = 0; k < n; k++)
      F->part[m[k]] = 0;
  }
  for (uint32_t k = 0; k < ntouched; k++) {
    uint32_t c = J->touched[k];
    J->en_count[c] = 0, J->stamp[c] = 0, J->taken[c] = 0, J->cut[c] = 0;
  }
}

static void settle_all(void *arg, uint32_t self) {
  Fair *F = arg;
  for (;;) {
    uint64_t i = atomic_fetch_add(&F->next_comp, 1);
    if (i >= F->nroots)
      return;
    settle(F, &F->judges[self], i);
  }
}

// ---------------------------------------------------------------------------
// The rounds.

// Groups the states of the parts by component: roots (in id order),
// bounds, members (each component's in id order). Returns how many states.
static uint64_t group(Fair *F) {
  uint64_t n = F->n, total = 0;
  memset(F->start, 0, n * sizeof *F->start);
  for (uint64_t v = 0; v < n; v++)
    if (F->part[v])
      F->start[F->comp[v]]++;
  F->nroots = 0;
  for (uint64_t v = 0; v < n; v++) {
    if (!F->part[v] || F->comp[v] != v)
      continue;
    uint32_t size = F->start[v];
    F->bounds[F->nroots] = (uint32_t)total;
    F->roots[F->nroots++] = (uint32_t)v;
    F->start[v] = (uint32_t)total;
    total += size;
  }
  F->bounds[F->nroots] = (uint32_t)total;
  for (uint64_t v = 0; v < n; v++)
    if (F->part[v])
      F->members[F->start[F->comp[v]]++] = (uint32_t)v;
  return total;
}

// Runs rounds until no part is left; F->out[v] is then v's fair set (those
// of the parts' states that are in none keep what out held: the caller
// clears it). False: out of memory or a signal.
static bool rounds(Fair *F) {
  for (;;) {
    int st = mcrt_scc_decompose(F->g, F->part, F->comp, F->team);
    if (st != MCRT_SCC_OK)
      return false;
    if (group(F) == 0)
      return true;
    F->components += F->nroots;
    atomic_store(&F->next_comp, 0);
    mcrt_team_run(F->team, settle_all, F);
    if (mcrt_signal)
      return false;
  }
}

// The whole graph's fair sets, in F->whole.
static bool whole_graph(Fair *F) {
  for (uint64_t v = 0; v < F->n; v++)
    F->part[v] = 1, F->out[v] = 0;
  atomic_store(&F->next_part, 2);
  atomic_store(&F->next_set, 1);
  if (!rounds(F))
    return false;
  uint32_t *t = F->whole;
  F->whole = F->out, F->out = t;
  F->nwhole = atomic_load(&F->next_set) - 1;
  F->have_whole = true;
  return true;
}

// The fair sets of instance inst's allowed states within the whole
// graph's, in F->out. Returns whether there are any.
static bool restricted(Fair *F, uint32_t inst, McrtTemporal form, bool *any) {
  const McrtLiveGraph *g = F->g;
  uint32_t most = 0;
  *any = false;
  for (uint64_t v = 0; v < F->n; v++) {
    uint32_t w = F->whole[v];
    F->part[v] = w && mcrt_live_allowed(g, inst, form, v) ? w : 0;
    F->out[v] = 0;
    most = w > most ? w : most;
    *any |= F->part[v] != 0;
  }
  if (!*any)
    return true;
  atomic_store(&F->next_part, most + 1);
  atomic_store(&F->next_set, 1);
  if (!rounds(F))
    return false;
  *any = atomic_load(&F->next_set) > 1;
  return true;
}

// ---------------------------------------------------------------------------
// Witnesses.

// The counterexample through fair set `id` of sets[], entered at entry.
static void lasso(const Fair *F, uint32_t inst, McrtTemporal form, const uint32_t *sets,
                  uint32_t id, uint64_t entry, const uint32_t *par, McrtLasso *out) {
  uint64_t n = F->n, k = 0;
  uint8_t *in = calloc(n + 1, 1);
  uint32_t *m = malloc((n + 1) * sizeof *m);
  if (!in || !m)
    mcrt_die("out of memory");
  for (uint64_t v = 0; v < n; v++)
    if (sets[v] == id)
      in[v] = 1, m[k++] = (uint32_t)v;
  mcrt_lasso_build(F->g, inst, form, m, k, in, entry, par, out);
  free(in), free(m);
}

// <>[] P: the whole graph's fair set with a !P state whose least state is
// least.
static void eventually_always(Fair *F, uint32_t inst, McrtLasso *out) {
  uint8_t *bad = calloc(F->nwhole + 1, 1);
  if (!bad)
    mcrt_die("out of memory");
  for (uint64_t v = 0; v < F->n; v++)
    if (F->whole[v] && !mcrt_live_pbit(F->g, v, inst, 0))
      bad[F->whole[v]] = 1;
  for (uint64_t v = 0; v < F->n; v++) {
    if (F->whole[v] && bad[F->whole[v]]) {
      lasso(F, inst, MCRT_TEMP_EVENTUALLY_ALWAYS, F->whole, F->whole[v], v, NULL, out);
      break;
    }
  }
  free(bad);
}

// <> P and ~>: of the fair sets in F->out, the one with the least state
// among those the sources reach; its entry is its state the BFS met first.
static void reached_witness(Fair *F, uint32_t inst, McrtTemporal form, McrtLasso *out) {
  uint64_t n = F->n;
  uint8_t *reached = malloc(n + 1);
  uint32_t *par = malloc((n + 1) * sizeof *par), *order = malloc((n + 1) * sizeof *order);
  if (!reached || !par || !order)
    mcrt_die("out of memory");
  uint64_t norder = mcrt_live_confine(F->g, inst, form, reached, par, order);
  uint32_t id = 0;
  for (uint64_t v = 0; v < n && !id; v++)
    if (F->out[v] && reached[v])
      id = F->out[v];
  for (uint64_t i = 0; i < norder && id; i++) {
    if (F->out[order[i]] == id) {
      lasso(F, inst, form, F->out, id, order[i], par, out);
      break;
    }
  }
  free(reached), free(par), free(order);
}

// Decides one instance; false: out of memory or a signal.
static bool decide(Fair *F, uint32_t inst, McrtTemporal form, McrtLasso *out) {
  memset(out, 0, sizeof *out);
  if (form == MCRT_TEMP_ALWAYS) {
    mcrt_live_always(F->g, inst, out);
    return true;
  }
  if (!F->have_whole && !whole_graph(F))
    return false;
  if (form == MCRT_TEMP_EVENTUALLY_ALWAYS) {
    eventually_always(F, inst, out);
    return true;
  }
  bool any;
  if (!restricted(F, inst, form, &any))
    return false;
  if (!any)
    return true;
  if (form == MCRT_TEMP_ALWAYS_EVENTUALLY) {
    for (uint64_t v = 0; v < F->n; v++) {
      if (F->out[v]) {
        lasso(F, inst, form, F->out, F->out[v], v, NULL, out);
        break;
      }
    }
    return true;
  }
  reached_witness(F, inst, form, out);
  return true;
}

// ---------------------------------------------------------------------------
// Set-up.

size_t mcrt_fair_bytes(uint64_t nstates) {
  // part, comp, out, whole, start, members, roots, bounds; and scc.c's
  // nodes during a decomposition, of which the members are not yet made.
  return (size_t)(nstates + 1) * (8 * 4) + mcrt_scc_bytes(nstates + 1);
}

static void fair_free(Fair *F) {
  free(F->part), free(F->comp), free(F->out), free(F->whole);
  free(F->start), free(F->members), free(F->roots), free(F->bounds);
  if (F->judges) {
    for (uint32_t t = 0; t < F->team->pool.n; t++) {
      Judge *J = &F->judges[t];
      free(J->en_count), free(J->stamp), free(J->touched), free(J->taken), free(J->cut);
    }
    free(F->judges);
  }
}

static bool fair_alloc(Fair *F, const McrtLiveGraph *g, McrtTeam *team) {
  memset(F, 0, sizeof *F);
  F->g = g, F->team = team, F->n = g->nstates;
  size_t n = g->nstates + 1, c = g->ncons + 1;
  F->part = malloc(n * 4), F->comp = malloc(n * 4), F->out = malloc(n * 4);
  F->whole = malloc(n * 4), F->start = malloc(n * 4), F->members = malloc(n * 4);
  F->roots = malloc(n * 4), F->bounds = malloc((n + 1) * 4);
  F->judges = calloc(team->pool.n, sizeof *F->judges);
  bool ok = F->part && F->comp && F->out && F->whole && F->start && F->members && F->roots &&
            F->bounds && F->judges;
  for (uint32_t t = 0; ok && t < team->pool.n; t++) {
    Judge *J = &F->judges[t];
    J->en_count = calloc(c, 4), J->stamp = calloc(c, 4), J->touched = calloc(c, 4);
    J->taken = calloc(c, 1), J->cut = calloc(c, 1);
    ok = J->en_count && J->stamp && J->touched && J->taken && J->cut;
  }
  return ok;
}

bool mcrt_fair_check(const McrtLiveGraph *g, const McrtTemporal *forms, uint32_t n,
                     McrtTeam *team, uint32_t *which, McrtLasso *out, uint64_t *components) {
  Fair F;
  bool ok = fair_alloc(&F, g, team);
  *which = n;
  memset(out, 0, sizeof *out);
  for (uint32_t i = 0; ok && i < n && *which == n; i++) {
    ok = !mcrt_signal && decide(&F, i, forms[i], out);
    if (ok && out->violated)
      *which = i;
  }
  *components = F.components;
  out->components = F.components;
  fair_free(&F);
  return ok;
}
