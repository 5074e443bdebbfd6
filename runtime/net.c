// net.c: what a checker of a place/transition net (McrtModel.net, from a
// .pnml file) records about its state space while the search runs (a
// store, like the edge table); netreport.c turns it into the answers.
//
// Every new marking comes through mcrt_net_state (search.c, at discovery):
// token maxima, places that ever change, whether it is a deadlock (no
// transition enabled), and whether a transition the net enables there would
// overflow a place's counter whose capacity is not a proven bound
// (compiler/pnml.c): the actions do not fire it, so the run is incomplete
// from there (bound net-capacity), though it goes on. Which transitions were
// ever enabled is the search's count of firings (ctx->fired), completed
// here only where counters block.
#include "internal.h"

#include <stdlib.h>

bool mcrt_net_init(McrtCtx *ctx) {
  const McrtNet *n = ctx->model->net;
  McrtNetRun *r = calloc(1, sizeof *r);
  if (!r)
    return false;
  ctx->net = r;
  size_t np = n->nplaces + 1, nt = n->ntrans + 1;
  r->m = calloc(np, sizeof *r->m);
  r->initial = calloc(np, sizeof *r->initial);
  r->max_place = calloc(np, sizeof *r->max_place);
  r->threshold = calloc(np, sizeof *r->threshold);
  r->changed = calloc(np, sizeof *r->changed);
  r->enabled = calloc(nt, sizeof *r->enabled);
  if (!r->m || !r->initial || !r->max_place || !r->threshold || !r->changed || !r->enabled)
    return false;
  r->deadlock = MCRT_NO_STATE;
  r->live = -1;
  for (uint32_t p = 0; p < n->nplaces; p++)
    r->threshold[p] = n->proven[p] ? INT64_MAX : n->capacity[p];
  // A transition that adds g > 0 tokens to p can overflow p's counter only
  // in a marking where p holds more than capacity - g.
  for (uint32_t t = 0; t < n->ntrans; t++) {
    for (uint64_t a = n->arc_start[t]; a < n->arc_start[t + 1]; a++) {
      const McrtNetArc *arc = &n->arcs[a];
      if (arc->kind != MCRT_ARC_OUT || n->proven[arc->place])
        continue;
      int64_t gain = arc->weight;
      for (uint64_t b = n->arc_start[t]; b < n->arc_start[t + 1]; b++)
        if (n->arcs[b].kind == MCRT_ARC_IN && n->arcs[b].place == arc->place)
          gain -= n->arcs[b].weight;
      int64_t th = n->capacity[arc->place] - gain;
      if (gain > 0 && th < r->threshold[arc->place])
        r->threshold[arc->place] = th;
    }
  }
  return true;
}

void mcrt_net_free(McrtCtx *ctx) {
  McrtNetRun *r = ctx->net;
  if (!r)
    return;
  free(r->m);
  free(r->initial);
  free(r->max_place);
  free(r->threshold);
  free(r->changed);
  free(r->enabled);
  free(r);
  ctx->net = NULL;
}

static bool enabled_in(const McrtNet *n, uint32_t t, const int64_t *m) {
  for (uint64_t a = n->arc_start[t]; a < n->arc_start[t + 1]; a++) {
    const McrtNetArc *arc = &n->arcs[a];
    if (arc->kind == MCRT_ARC_IN ? m[arc->place] < arc->weight
        : arc->kind == MCRT_ARC_INHIBITOR ? m[arc->place] >= arc->weight
                                          : false)
      return false;
  }
  return true;
}

// Whether firing t (enabled) in m would leave a counter's range.
static bool overflows(const McrtNet *n, uint32_t t, const int64_t *m, uint32_t *place) {
  for (uint64_t a = n->arc_start[t]; a < n->arc_start[t + 1]; a++) {
    const McrtNetArc *arc = &n->arcs[a];
    if (arc->kind != MCRT_ARC_OUT)
      continue;
    int64_t v = m[arc->place] + arc->weight;
    for (uint64_t b = n->arc_start[t]; b < n->arc_start[t + 1]; b++)
      if (n->arcs[b].kind == MCRT_ARC_IN && n->arcs[b].place == arc->place)
        v -= n->arcs[b].weight;
    if (v > n->capacity[arc->place]) {
      *place = arc->place;
      return true;
    }
  }
  return false;
}

void mcrt_net_state(McrtCtx *ctx, uint64_t id, const uint8_t *state) {
  const McrtModel *mo = ctx->model;
  const McrtNet *n = mo->net;
  McrtNetRun *r = ctx->net;
  int64_t *m = r->m, sum = 0;
  bool over = false;
  for (uint32_t p = 0; p < n->nplaces; p++) {
    const McrtVar *v = &mo->vars[p];
    m[p] = (int64_t)mcrt_get(state, v->offset, v->type->width) + v->type->lo;
    sum += m[p];
    if (m[p] > r->max_place[p]) {
      r->max_place[p] = m[p];
      if (m[p] > r->max_place[r->max_place_at])
        r->max_place_at = p;
    }
    over |= m[p] > r->threshold[p];
  }
  if (sum > r->max_sum)
    r->max_sum = sum;
  if (id == 0) {
    memcpy(r->initial, m, n->nplaces * sizeof *m);
  } else if (r->nchanged < n->nplaces) {
    for (uint32_t p = 0; p < n->nplaces; p++)
      if (!r->changed[p] && m[p] != r->initial[p])
        r->changed[p] = true, r->nchanged++;
  }
  // A deadlock: no transition enabled. Quasi-liveness needs no more here:
  // a transition the search fired (ctx->fired) was enabled. Only near a
  // counter's capacity, where the actions may not fire what the net
  // enables, is every transition looked at (and marked enabled here).
  bool any = false;
  if (over) {
    for (uint32_t t = 0; t < n->ntrans; t++) {
      if (!enabled_in(n, t, m))
        continue;
      any = true;
      r->enabled[t] = true;
      uint32_t p;
      if (!r->cut && overflows(n, t, m, &p)) {
        // The run is incomplete from here, but goes on: what it still finds
        // (deadlocks, enabled transitions) is real.
        r->cut = true, r->cut_place = p, r->cut_trans = t;
        if (ctx->bound == MCRT_BOUND_NONE)
          ctx->bound = MCRT_BOUND_NET_CAPACITY, ctx->bound_phase = MCRT_PHASE_SEARCH;
      }
    }
  } else if (n->ntrans > 0) {
    // The transition found enabled last time first: neighbouring markings
    // tend to enable the same ones.
    uint32_t t = r->hint;
    for (uint32_t k = 0; k < n->ntrans && !any; k++, t = t + 1 == n->ntrans ? 0 : t + 1)
      any = enabled_in(n, t, m);
    if (any)
      r->hint = t == 0 ? n->ntrans - 1 : t - 1;
  }
  if (!any) {
    if (r->deadlocks++ == 0)
      r->deadlock = id;
  }
}

