// SPDX-License-Identifier: MIT
// liveness.c: temporal properties under weak and strong fairness.
//
// Recording. A run that checks liveness (mcrt_liveness_wanted) records,
// while it searches, every out-edge of every expanded state as {target id,
// action rule}, and per state the bits of its property instances (P, and Q
// of `~>`). Successors of a state are emitted together and states are
// expanded in id order, so the edges arrive grouped by source in increasing
// order: a CSR table (start[v] .. start[v + 1] are v's edges) built as they
// come, 4-byte targets (ids < 2^32, the trace log's limit) and rules in as
// few bytes as the largest rule needs. Targets of states seen before need
// their ids: the fingerprint set then keeps a 4-byte id beside each slot.
// A safety-only run records none of this.
//
// ENABLED is not stored: a rule is enabled in a state exactly when the
// successor function emitted it there, so the state's edges are its enabled
// rules, and an edge "takes" the fairness constraints of its rule.
//
// Semantics (docs/LANGUAGE.md). A behaviour is an infinite path; a state without
// successors repeats forever (a stutter loop on which no action is enabled,
// hence fair); there is no other stuttering. A state that a `constraint`
// cuts is not expanded: it has no edges, and is treated exactly like a state
// without successors (its behaviours stop there and repeat it), the only
// reading under which the cut graph still has a behaviour through it.
//
// Each form is reduced to finding a fair strongly connected component:
//   not [] P      a reachable state where P fails. No cycle is needed: weak
//                 and strong fairness on actions over a finite graph are
//                 machine-closed. From any state, follow edges to a bottom
//                 SCC (one without edges leaving it); a path that goes round
//                 every edge of it forever takes every rule enabled there,
//                 and a bottom SCC without edges is a state without
//                 successors (nothing enabled). So every finite path extends
//                 to a fair behaviour, and the prefix alone is a
//                 counterexample.
//   not <> P      a fair SCC of the !P states, reachable from an initial
//                 state through !P states.
//   not P ~> Q    a fair SCC of the !Q states, reachable through !Q states
//                 from a reachable state where P && !Q.
//   not []<> P    a fair SCC of the !P states (every state is reachable).
//   not <>[] P    a fair SCC (of the whole graph) holding a !P state.
// A component is a cycle if it has two states or more, or a self-loop, or
// is one state without successors. It is fair (Emerson and Lei's
// refinement) when for every constraint c:
//   weak c:   some edge inside takes c, or c is disabled in some state
//             inside (else no path inside is fair: discard it);
//   strong c: some edge inside takes c, or c is enabled nowhere inside;
//             else a fair path inside must avoid the states where c is
//             enabled: remove them and look again at the SCCs of the rest.
// Enabledness is that of the whole graph (a state's every edge), "taken"
// only counts edges that stay inside the component.
//
// Two engines decide the instances over the table: the parallel one
// (fair.c, the default) decomposes the graph once into its fair
// components on the run's threads and confines each instance to them; the
// serial one, below (--liveness-engine serial), runs Tarjan's algorithm
// per instance on one thread, and is kept as the oracle the other is
// tested against. Both pick the same witness and build the same lasso
// (lasso.c: the stem, the cycle through the component).
//
// The serial engine: Tarjan's algorithm, iterative (an explicit stack of
// frames: a cycle of 10^7 states must not recurse on the C stack), roots in
// id order. Every component is judged (a violated property costs what a
// holding one does), and the witness is the fair one whose smallest state
// id is least: ids are BFS order, so it is the one nearest the initial
// states, which keeps the stem short, and the same on every run.
#include "analysis/analysis.h"

#include <stdlib.h>

// ---------------------------------------------------------------------------
// The check, on the table alone (the unit tests build tables by hand).

#define NONE32 UINT32_MAX

// What Tarjan keeps per state.
typedef struct SccNode {
  uint32_t tag;  // == the pass's tag: the state is in the graph of this pass
  uint32_t idx;  // DFS number in the current pass (0: not yet visited)
  uint32_t low;  // Tarjan's low link; the cycle's BFS parent afterwards
  uint32_t comp; // component number (0: not assigned; unique over passes)
} SccNode;

typedef struct Scc {
  const McrtLiveGraph *g;
  uint32_t inst;
  McrtTemporal form;
  SccNode *node;   // per state, together: one cache line per visit
  uint32_t *stack; // Tarjan's stack
  uint64_t sp;
  uint32_t *fv, *fpos; // DFS frames: state, next edge (offset from start)
  uint32_t next_comp, next_tag;
  // Per constraint, while a component is judged.
  uint32_t *en_count, *stamp, *touched;
  uint8_t *taken, *cut;
  // Refinements to do: lists of states, each with its own tag.
  uint32_t **work;
  uint64_t *work_len;
  uint32_t *work_tag;
  size_t nwork, work_cap, work_next;
  // The answer.
  uint32_t found; // component number, 0 if none
  uint32_t found_lo; // its smallest state id
  uint32_t *members;
  uint64_t nmembers;
  uint64_t polls;   // steps since the last look at mcrt_signal
  bool interrupted; // SIGINT/SIGTERM: the search gave up, no answer
} Scc;

// Whether a signal asked the run to stop; looked at every 2^16 steps.
static bool poll_signal(Scc *s) {
  if ((++s->polls & 0xffff) == 0 && mcrt_signal)
    s->interrupted = true;
  return s->interrupted;
}

static void *xalloc(size_t n, size_t size, bool *ok) {
  void *p = calloc(n ? n : 1, size);
  if (!p)
    *ok = false;
  return p;
}

static void scc_free(Scc *s) {
  free(s->node), free(s->stack);
  free(s->fv), free(s->fpos);
  free(s->en_count), free(s->stamp), free(s->touched), free(s->taken), free(s->cut);
  for (size_t i = 0; i < s->nwork; i++)
    free(s->work[i]);
  free(s->work), free(s->work_len), free(s->work_tag), free(s->members);
}

static bool scc_alloc(Scc *s, const McrtLiveGraph *g) {
  bool ok = true;
  uint64_t n = g->nstates + 1;
  memset(s, 0, sizeof *s);
  s->g = g;
  s->node = xalloc(n, sizeof *s->node, &ok), s->stack = xalloc(n, 4, &ok);
  s->fv = xalloc(n, 4, &ok), s->fpos = xalloc(n, 4, &ok);
  uint64_t c = g->ncons + 1;
  s->en_count = xalloc(c, 4, &ok), s->stamp = xalloc(c, 4, &ok), s->touched = xalloc(c, 4, &ok);
  s->taken = xalloc(c, 1, &ok), s->cut = xalloc(c, 1, &ok);
  return ok;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// Queues states list[0..n) (sorted here) as a refinement pass.
static void push_work(Scc *s, uint32_t *list, uint64_t n) {
  if (s->nwork == s->work_cap) {
    s->work_cap = s->work_cap ? 2 * s->work_cap : 16;
    s->work = realloc(s->work, s->work_cap * sizeof *s->work);
    s->work_len = realloc(s->work_len, s->work_cap * sizeof *s->work_len);
    s->work_tag = realloc(s->work_tag, s->work_cap * sizeof *s->work_tag);
    if (!s->work || !s->work_len || !s->work_tag)
      mcrt_die("out of memory");
  }
  qsort(list, n, sizeof *list, cmp_u32);
  uint32_t t = ++s->next_tag;
  for (uint64_t i = 0; i < n; i++)
    s->node[list[i]].tag = t;
  s->work[s->nwork] = list;
  s->work_len[s->nwork] = n;
  s->work_tag[s->nwork] = t;
  s->nwork++;
}

// Judges the component m[0..n) (number cid): a cycle? fair? refined?
// When it is a witness nearer the initial states than the one found so far
// (smaller least id), it becomes the answer. Returns whether it did.
static bool judge(Scc *s, const uint32_t *m, uint64_t n, uint32_t cid) {
  const McrtLiveGraph *g = s->g;
  if (n == 1) {
    uint64_t v = m[0];
    bool cycle = g->start[v] == g->start[v + 1]; // no successor: it repeats
    for (uint64_t e = g->start[v]; e < g->start[v + 1] && !cycle; e++)
      cycle = g->targets[e] == v;
    if (!cycle)
      return false;
  }
  uint32_t ntouched = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t v = m[i];
    for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
      uint64_t r = mcrt_live_rule(g, e);
      if (g->rc_start[r] == g->rc_start[r + 1])
        continue; // a rule without fairness: nothing to count (and no miss on its target)
      bool inside = s->node[g->targets[e]].comp == cid;
      for (uint64_t k = g->rc_start[r]; k < g->rc_start[r + 1]; k++) {
        uint32_t c = g->rc_list[k];
        if (s->stamp[c] != (uint32_t)v + 1) {
          s->stamp[c] = (uint32_t)v + 1;
          if (s->en_count[c]++ == 0)
            s->touched[ntouched++] = c;
        }
        s->taken[c] |= inside;
      }
    }
  }
  bool unfair = false, refine = false;
  for (uint32_t i = 0; i < ntouched; i++) {
    uint32_t c = s->touched[i];
    if (s->taken[c])
      continue;
    if (!g->strong[c])
      unfair |= s->en_count[c] == n;
    else
      s->cut[c] = 1, refine = true;
  }
  if (!unfair && refine) {
    uint32_t *list = malloc(n * sizeof *list);
    if (!list)
      mcrt_die("out of memory");
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t v = m[i];
      bool keep = true;
      for (uint64_t e = g->start[v]; e < g->start[v + 1] && keep; e++) {
        uint64_t r = mcrt_live_rule(g, e);
        for (uint64_t j = g->rc_start[r]; j < g->rc_start[r + 1]; j++)
          keep &= !s->cut[g->rc_list[j]];
      }
      if (keep)
        list[k++] = (uint32_t)v;
    }
    if (k)
      push_work(s, list, k);
    else
      free(list);
  }
  for (uint32_t i = 0; i < ntouched; i++) {
    uint32_t c = s->touched[i];
    s->en_count[c] = 0, s->stamp[c] = 0, s->taken[c] = 0, s->cut[c] = 0;
  }
  if (unfair || refine)
    return false;
  if (s->form == MCRT_TEMP_EVENTUALLY_ALWAYS) {
    bool bad = false;
    for (uint64_t i = 0; i < n && !bad; i++)
      bad = !mcrt_live_pbit(g, m[i], s->inst, 0);
    if (!bad)
      return false;
  }
  uint32_t lo = UINT32_MAX;
  for (uint64_t i = 0; i < n; i++)
    lo = m[i] < lo ? m[i] : lo;
  if (s->found && lo >= s->found_lo)
    return false;
  free(s->members);
  s->found_lo = lo;
  s->members = malloc(n * sizeof *s->members);
  if (!s->members)
    mcrt_die("out of memory");
  memcpy(s->members, m, n * sizeof *m);
  s->nmembers = n;
  s->found = cid;
  return true;
}

// Tarjan over the states of `order` (or 0..nstates-1 when NULL) whose tag
// is t, with edges between such states; iterative. Judges every component.
static void tarjan(Scc *s, const uint32_t *order, uint64_t norder, uint32_t t) {
  const McrtLiveGraph *g = s->g;
  uint32_t counter = 0;
  uint64_t nf = 0;
  if (order)
    for (uint64_t i = 0; i < norder; i++)
      s->node[order[i]].idx = 0, s->node[order[i]].comp = 0;
  for (uint64_t i = 0; i < norder; i++) {
    uint32_t root = order ? order[i] : (uint32_t)i;
    if (s->node[root].tag != t || s->node[root].idx)
      continue;
    s->node[root].idx = s->node[root].low = ++counter;
    s->stack[s->sp++] = root;
    s->fv[nf] = root, s->fpos[nf] = 0, nf++;
    while (nf) {
      if (poll_signal(s))
        return;
      uint32_t v = s->fv[nf - 1];
      uint64_t e = g->start[v] + s->fpos[nf - 1];
      if (e < g->start[v + 1]) {
        s->fpos[nf - 1]++;
        uint32_t w = g->targets[e];
        if (s->node[w].tag != t)
          continue;
        if (!s->node[w].idx) {
          s->node[w].idx = s->node[w].low = ++counter;
          s->stack[s->sp++] = w;
          s->fv[nf] = w, s->fpos[nf] = 0, nf++;
        } else if (!s->node[w].comp && s->node[w].idx < s->node[v].low) {
          s->node[v].low = s->node[w].idx; // w is on the stack
        }
        continue;
      }
      nf--;
      if (nf && s->node[v].low < s->node[s->fv[nf - 1]].low)
        s->node[s->fv[nf - 1]].low = s->node[v].low;
      if (s->node[v].low != s->node[v].idx)
        continue;
      uint64_t top = s->sp;
      while (s->stack[--s->sp] != v)
        ;
      uint32_t cid = ++s->next_comp;
      for (uint64_t k = s->sp; k < top; k++)
        s->node[s->stack[k]].comp = cid;
      judge(s, s->stack + s->sp, top - s->sp, cid);
    }
  }
}

// Sets tag 1 on the states the component may use: the allowed ones, and
// for <> P and ~> only those reachable from a source through allowed
// states (mcrt_live_confine, whose BFS parents in par are the stem and its
// order in queue; returns its length).
static uint64_t confine(Scc *s, uint32_t *par, uint32_t *queue) {
  const McrtLiveGraph *g = s->g;
  uint64_t n = g->nstates, reached = 0;
  bool bfs = s->form == MCRT_TEMP_EVENTUALLY || s->form == MCRT_TEMP_LEADSTO;
  if (bfs) {
    uint8_t *mark = malloc(n + 1);
    if (!mark)
      mcrt_die("out of memory");
    reached = mcrt_live_confine(g, s->inst, s->form, mark, par, queue);
    for (uint64_t v = 0; v < n; v++)
      s->node[v].tag = mark[v];
    free(mark);
  } else {
    for (uint64_t v = 0; v < n; v++)
      s->node[v].tag = mcrt_live_allowed(g, s->inst, s->form, v);
  }
  s->next_tag = 1;
  return reached;
}

bool mcrt_live_find(const McrtLiveGraph *g, uint32_t inst, McrtTemporal form, McrtLasso *out) {
  memset(out, 0, sizeof *out);
  if (form == MCRT_TEMP_ALWAYS) {
    mcrt_live_always(g, inst, out);
    return true;
  }
  Scc s;
  if (!scc_alloc(&s, g)) {
    scc_free(&s);
    return false;
  }
  s.inst = inst;
  s.form = form;
  // For <> P and ~>, the BFS that confines the search also gives the stem.
  bool bfs = form == MCRT_TEMP_EVENTUALLY || form == MCRT_TEMP_LEADSTO;
  uint32_t *bpar = NULL, *border = NULL;
  uint64_t nborder = 0;
  if (bfs) {
    bpar = malloc((g->nstates + 1) * sizeof *bpar);
    border = malloc((g->nstates + 1) * sizeof *border);
    if (!bpar || !border) {
      free(bpar), free(border), scc_free(&s);
      return false;
    }
  }
  nborder = confine(&s, bpar, border);
  tarjan(&s, NULL, g->nstates, 1);
  while (s.work_next < s.nwork && !s.interrupted) {
    size_t w = s.work_next++;
    tarjan(&s, s.work[w], s.work_len[w], s.work_tag[w]);
  }
  if (s.interrupted) {
    free(bpar), free(border), scc_free(&s);
    return false;
  }
  if (s.found) {
    // The loop starts at the component's state nearest the sources.
    uint64_t entry = UINT64_MAX;
    if (bfs) {
      for (uint64_t i = 0; i < nborder && entry == UINT64_MAX; i++)
        if (s.node[border[i]].comp == s.found)
          entry = border[i];
    } else {
      entry = s.found_lo;
    }
    uint8_t *in = calloc(g->nstates + 1, 1);
    if (!in)
      mcrt_die("out of memory");
    for (uint64_t i = 0; i < s.nmembers; i++)
      in[s.members[i]] = 1;
    mcrt_lasso_build(g, inst, form, s.members, s.nmembers, in, entry, bfs ? bpar : NULL, out);
    free(in);
  }
  out->components = s.next_comp;
  free(bpar), free(border);
  scc_free(&s);
  return true;
}

// ---------------------------------------------------------------------------
// The check of a run.

const char *mcrt_form_text(McrtTemporal f) {
  switch (f) {
  case MCRT_TEMP_ALWAYS: return "[] P: a reachable state where P does not hold";
  case MCRT_TEMP_EVENTUALLY: return "<> P: a fair behaviour on which P never holds";
  case MCRT_TEMP_LEADSTO: return "P ~> Q: a fair behaviour where P holds and Q never does, then or after";
  case MCRT_TEMP_ALWAYS_EVENTUALLY: return "[]<> P: a fair behaviour on which P stops holding for ever";
  case MCRT_TEMP_EVENTUALLY_ALWAYS: return "<>[] P: a fair behaviour on which P fails again and again";
  }
  return "?";
}

// Turns a lasso into the violation's trace of rules.
static void set_violation(McrtCtx *ctx, uint32_t i, const McrtLasso *l) {
  const McrtModel *m = ctx->model;
  const McrtLiveGraph *g = &ctx->live->g;
  const McrtPropInstance *in = &m->instances[i];
  const McrtPredicate *p = &m->properties[in->property];
  uint64_t *head = NULL;
  size_t nhead = mcrt_path_to(ctx, l->src, &head);
  size_t n = nhead + l->nstem + l->ncycle;
  uint64_t *path = realloc(head, n * sizeof *path);
  if (!path)
    mcrt_die("out of memory");
  size_t k = nhead;
  for (size_t j = 0; j < l->nstem; j++)
    path[k++] = mcrt_live_rule(g, l->stem[j]);
  for (size_t j = 0; j < l->ncycle; j++)
    path[k++] = mcrt_live_rule(g, l->cycle[j]);
  McrtViolation *v = &ctx->viol;
  memset(v, 0, sizeof *v);
  ctx->has_violation = true;
  v->kind = MCRT_VIOL_LIVENESS;
  v->name = in->name;
  v->file = p->file, v->line = p->line;
  v->state = l->loop_state;
  snprintf(v->message, sizeof v->message, "property '%s' does not hold: %s", in->name,
           mcrt_form_text(in->form));
  v->path = path;
  v->npath = n;
  v->loop_start = l->prefix_only ? -1 : (int64_t)(nhead + l->nstem - 1);
  v->stutter = !l->prefix_only && l->ncycle == 0;
}

// The check stopped before its end (memory or a signal), after a complete
// search: the report says the liveness check stopped, not the search.
static void stop_liveness(McrtCtx *ctx, double t0) {
  mcrt_stop_at(ctx, mcrt_signal ? MCRT_BOUND_INTERRUPTED : MCRT_BOUND_MEMORY,
               MCRT_PHASE_LIVENESS);
  ctx->live->time_s = mcrt_now() - t0;
  ctx->time_s += ctx->live->time_s;
}

// The serial engine: each instance in turn, Tarjan on one thread. Returns
// the first violated instance (m->ninstances: none) with its lasso in l;
// UINT32_MAX when it stopped without a verdict.
static uint32_t check_serial(McrtCtx *ctx, McrtLasso *l) {
  const McrtModel *m = ctx->model;
  for (uint32_t i = 0; i < m->ninstances; i++) {
    if (mcrt_signal || !mcrt_live_find(&ctx->live->g, i, m->instances[i].form, l))
      return UINT32_MAX;
    ctx->live->components += l->components;
    if (l->violated)
      return i;
  }
  return m->ninstances;
}

// The parallel engine: every instance over one decomposition (fair.c), on
// the run's threads (at most 64: scc.c gives each a bit).
static uint32_t check_parallel(McrtCtx *ctx, McrtLasso *l) {
  const McrtModel *m = ctx->model;
  McrtTemporal *forms = malloc((m->ninstances + 1) * sizeof *forms);
  McrtTeam team;
  uint64_t want = ctx->opt->threads ? ctx->opt->threads : 1;
  if (!forms || !mcrt_team_start(&team, want < 64 ? (uint32_t)want : 64))
    mcrt_die("out of memory");
  for (uint32_t i = 0; i < m->ninstances; i++)
    forms[i] = m->instances[i].form;
  uint32_t which;
  uint64_t components = 0;
  bool ok = mcrt_fair_check(&ctx->live->g, forms, m->ninstances, &team, &which, l, &components);
  mcrt_team_stop(&team);
  free(forms);
  ctx->live->components += components;
  return ok ? which : UINT32_MAX;
}

// What the check's own arrays take per state (beside the edge table),
// counted against --memory too.
static size_t check_bytes(const McrtCtx *ctx) {
  uint64_t n = ctx->states + 1;
  if (ctx->opt->live_engine == MCRT_LIVE_ENGINE_SERIAL)
    return (size_t)n * (sizeof(SccNode) + 4 * 5); // Tarjan's record, stack, frames; the BFS
  return mcrt_fair_bytes(n);
}

void mcrt_liveness_check(McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  double t0 = mcrt_now();
  ctx->live->search_s = ctx->time_s;
  mcrt_test_pause("liveness");
  if (mcrt_signal || !mcrt_live_finish(ctx->live, ctx->states, &ctx->log)) {
    stop_liveness(ctx, t0);
    return;
  }
  mcrt_live_dump(ctx->live);
  double t1 = mcrt_now();
  ctx->live->edges_s = t1 - t0;
  size_t bytes = check_bytes(ctx);
  if (m->ninstances && mcrt_accounted_bytes(ctx) + bytes > ctx->opt->memory) {
    mcrt_stop_at(ctx, MCRT_BOUND_MEMORY, MCRT_PHASE_LIVENESS);
    return;
  }
  if (mcrt_accounted_bytes(ctx) + bytes > ctx->peak_bytes)
    ctx->peak_bytes = mcrt_accounted_bytes(ctx) + bytes;
  McrtLasso l = {0};
  uint32_t which = ctx->opt->live_engine == MCRT_LIVE_ENGINE_SERIAL ? check_serial(ctx, &l)
                                                                    : check_parallel(ctx, &l);
  if (which == UINT32_MAX) {
    stop_liveness(ctx, t0);
    return;
  }
  if (which < m->ninstances)
    set_violation(ctx, which, &l);
  mcrt_lasso_free(&l);
  ctx->live->done = true;
  ctx->live->scc_s = mcrt_now() - t1;
  ctx->live->time_s = mcrt_now() - t0;
  ctx->time_s += ctx->live->time_s;
}

bool mcrt_liveness_done(const McrtCtx *ctx) { return ctx->live && ctx->live->done; }
double mcrt_liveness_time(const McrtCtx *ctx) { return ctx->live ? ctx->live->time_s : 0; }
