// SPDX-License-Identifier: MIT
// net.c: what a checker of a place/transition net (McrtModel.net, from a
// .pnml file) records about its state space while the search runs (a
// store, like the edge table); netreport.c turns it into the answers.
//
// Every new marking comes through mcrt_net_state (search.c, at discovery):
// token maxima, places that ever change, whether it is a deadlock (no
// transition enabled), and whether a transition the net enables there would
// overflow a place's counter whose capacity is not a proven bound
// (compiler/front/pnml/pnml.c): the actions do not fire it, so the run is incomplete
// from there (bound net-capacity), though it goes on. Which transitions were
// ever enabled is the search's count of firings (ctx->fired), completed
// here only where counters block.
//
// The per-marking work is most of a net checker's time on nets of a few
// hundred places, so in markings where no transition can overflow a counter
// (every place is at most its threshold: always, when every capacity is a
// proven bound) it is done from the transition t that discovered the marking (the rule of its log entry; its
// parent, an earlier marking, was seen here before):
// - token maxima: only the places t adds tokens to can exceed what earlier
//   markings held, so only they are read;
// - the tokens of the marking: only when t adds more tokens than it takes
//   (else the parent, seen here before, held at least as many), then a sum
//   of popcounts of the packed words (bit j of every field weighs 2^j) when
//   that takes fewer steps than reading each place;
// - stable places: a place differs from the initial marking in some marking
//   seen iff a transition that changes it discovered a marking (one end of
//   that step differs from the initial marking; the log path to a marking
//   that differs goes through such a step), so each transition's places are
//   marked the first time it discovers one;
// - deadlock: not looked for at discovery. Every transition such a marking
//   enables is an action that fires there (no counter blocks it), so it is
//   a deadlock exactly when its expansion emits no successor: the search
//   says so (mcrt_net_no_successor), which costs nothing more, where a scan
//   for an enabled transition would read every transition of a deadlock.
// Every answer is the one of reading the whole marking each time, once the
// search is complete; a search stopped early has not expanded every marking
// it found, so its deadlocks are those among the markings expanded (all of
// them real, as the partial answer promises).
#include "store/store.h"

#include <stdlib.h>

// ---------------------------------------------------------------------------
// The fast path's tables (see the top of the file).

// Whether the popcount instruction can be used (chosen once, at start).
static bool have_popcnt(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

// The tokens of a packed marking as sum over masks of popcount(word & mask) << j.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt")))
#endif
static int64_t popcount_sum(const McrtNetRun *r, const uint8_t *state) {
  uint64_t words[r->nwords];
  memcpy(words, state, r->state_bytes);
  memset((uint8_t *)words + r->state_bytes, 0, r->nwords * 8 - r->state_bytes);
  int64_t sum = r->sum_lo;
  for (uint32_t k = 0; k < r->nmasks; k++) {
    const McrtNetMask *mk = &r->masks[k];
    sum += (int64_t)__builtin_popcountll(words[mk->word] & mk->mask) << mk->shift;
  }
  return sum;
}

static inline int64_t place_get(const McrtNetField *f, const uint8_t *state) {
  return (int64_t)mcrt_get(state, f->offset, f->width) + f->lo;
}

static int64_t marking_sum(const McrtNetRun *r, const uint8_t *state) {
  if (r->nmasks > 0)
    return popcount_sum(r, state);
  int64_t sum = 0;
  for (uint32_t p = 0; p < r->nfields; p++)
    sum += place_get(&r->fields[p], state);
  return sum;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// The high bits above_threshold tests first, one mask per word in use; when
// a threshold is below the counter's lo (every value is above it) there are
// none and every place is read.
static bool high_init(McrtNetRun *r) {
  uint64_t *m = calloc(r->nwords + 1, sizeof *m);
  if (!m)
    return false;
  r->high_exact = true;
  for (uint32_t k = 0; k < r->nwatch; k++) {
    const McrtNetField *f = &r->fields[r->watch[k]];
    int64_t th = r->threshold[r->watch[k]] - f->lo; // in counter units
    if (th < 0) {
      r->high_exact = false;
      break;
    }
    unsigned from = 63 - (unsigned)__builtin_clzll((uint64_t)th + 1);
    for (unsigned j = from; j < f->width; j++) {
      uint64_t bit = f->offset + j;
      m[bit / 64] |= UINT64_C(1) << (bit % 64);
    }
  }
  uint32_t n = 0;
  for (uint32_t w = 0; w < r->nwords; w++)
    n += m[w] != 0;
  r->high = calloc(n + 1, sizeof *r->high);
  if (!r->high) {
    free(m);
    return false;
  }
  for (uint32_t w = 0; r->high_exact && w < r->nwords; w++)
    if (m[w])
      r->high[r->nhigh++] = (McrtNetMask){w, 0, m[w]};
  free(m);
  r->fast = true;
  return true;
}

// Builds the fast path's tables when the actions are the transitions (rule t
// is transition t); else leaves it off.
static bool fast_init(McrtNetRun *r) {
  const McrtModel *mo = r->model;
  const McrtNet *n = mo->net;
  if (mo->nactions != n->ntrans || mo->nrules != n->ntrans || mo->nvars < n->nplaces)
    return true;
  for (uint32_t p = 0; p < n->nplaces; p++)
    if (mo->vars[p].type->width > 56)
      return true;
  size_t np = n->nplaces + 1, nt = n->ntrans + 1, na = n->narcs + 1;
  r->fields = calloc(np, sizeof *r->fields);
  r->gain_start = calloc(nt, sizeof *r->gain_start);
  r->gain = calloc(na, sizeof *r->gain);
  r->moved_start = calloc(nt, sizeof *r->moved_start);
  r->moved = calloc(na, sizeof *r->moved);
  r->used = calloc(nt, sizeof *r->used);
  r->adds = calloc(nt, sizeof *r->adds);
  r->watch = calloc(np, sizeof *r->watch);
  int64_t *effect = calloc(np, sizeof *effect);
  uint32_t *seen = calloc(np, sizeof *seen), *touched = calloc(np, sizeof *touched);
  if (!r->fields || !r->gain_start || !r->gain || !r->moved_start || !r->moved || !r->used ||
      !r->adds || !r->watch || !effect || !seen || !touched) {
    free(effect), free(seen), free(touched);
    return false;
  }
  r->nfields = n->nplaces;
  for (uint32_t p = 0; p < n->nplaces; p++) {
    const McrtVar *v = &mo->vars[p];
    r->fields[p] = (McrtNetField){v->offset, v->type->width, v->type->lo};
    if (r->threshold[p] != INT64_MAX)
      r->watch[r->nwatch++] = p;
  }
  uint32_t ngain = 0, nmoved = 0;
  for (uint32_t t = 0; t < n->ntrans; t++) {
    r->gain_start[t] = ngain, r->moved_start[t] = nmoved;
    for (uint64_t a = n->arc_start[t]; a < n->arc_start[t + 1]; a++) {
      const McrtNetArc *arc = &n->arcs[a];
      if (arc->kind == MCRT_ARC_OUT)
        effect[arc->place] += arc->weight;
      else if (arc->kind == MCRT_ARC_IN)
        effect[arc->place] -= arc->weight;
    }
    // The places of t in place order, as the whole-marking scan meets them
    // (which place holds the most tokens first is the lowest one).
    int64_t net_effect = 0;
    uint32_t ntouched = 0;
    for (uint64_t a = n->arc_start[t]; a < n->arc_start[t + 1]; a++)
      if (seen[n->arcs[a].place] != t + 1)
        seen[n->arcs[a].place] = t + 1, touched[ntouched++] = n->arcs[a].place;
    qsort(touched, ntouched, sizeof *touched, cmp_u32);
    for (uint32_t k = 0; k < ntouched; k++) {
      uint32_t p = touched[k];
      if (effect[p] > 0)
        r->gain[ngain++] = p;
      if (effect[p] != 0)
        r->moved[nmoved++] = p;
      net_effect += effect[p];
      effect[p] = 0;
    }
    r->adds[t] = net_effect > 0;
  }
  r->gain_start[n->ntrans] = ngain, r->moved_start[n->ntrans] = nmoved;
  free(effect), free(seen), free(touched);

  // The popcount sum: one mask per (word, bit j of a field) in use.
  r->state_bytes = mo->state_bytes;
  r->nwords = (uint32_t)((mo->state_bytes + 7) / 8);
  unsigned maxw = 0;
  for (uint32_t p = 0; p < n->nplaces; p++) {
    maxw = r->fields[p].width > maxw ? r->fields[p].width : maxw;
    r->sum_lo += r->fields[p].lo;
  }
  size_t cells = (size_t)r->nwords * maxw;
  uint64_t *m = cells ? calloc(cells, sizeof *m) : NULL;
  if (cells && !m)
    return false;
  for (uint32_t p = 0; p < n->nplaces; p++)
    for (unsigned j = 0; j < r->fields[p].width; j++) {
      uint64_t bit = r->fields[p].offset + j;
      m[(bit / 64) * maxw + j] |= UINT64_C(1) << (bit % 64);
    }
  uint32_t nmasks = 0;
  for (size_t c = 0; c < cells; c++)
    nmasks += m[c] != 0;
  // A popcount and its shift against a field's load, shift and mask.
  if (have_popcnt() && nmasks > 0 && nmasks < n->nplaces) {
    r->masks = calloc(nmasks, sizeof *r->masks);
    if (!r->masks) {
      free(m);
      return false;
    }
    for (size_t c = 0; c < cells; c++)
      if (m[c])
        r->masks[r->nmasks++] = (McrtNetMask){(uint32_t)(c / maxw), (unsigned)(c % maxw), m[c]};
  }
  free(m);
  return high_init(r);
}

McrtNetRun *mcrt_net_new(const McrtModel *model) {
  const McrtNet *n = model->net;
  McrtNetRun *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->model = model;
  size_t np = n->nplaces + 1, nt = n->ntrans + 1;
  r->m = calloc(np, sizeof *r->m);
  r->initial = calloc(np, sizeof *r->initial);
  r->max_place = calloc(np, sizeof *r->max_place);
  r->threshold = calloc(np, sizeof *r->threshold);
  r->changed = calloc(np, sizeof *r->changed);
  r->enabled = calloc(nt, sizeof *r->enabled);
  if (!r->m || !r->initial || !r->max_place || !r->threshold || !r->changed || !r->enabled)
    return mcrt_net_free(r), NULL;
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
  if (!fast_init(r))
    return mcrt_net_free(r), NULL;
  return r;
}

void mcrt_net_free(McrtNetRun *r) {
  if (!r)
    return;
  free(r->m);
  free(r->initial);
  free(r->max_place);
  free(r->threshold);
  free(r->changed);
  free(r->enabled);
  free(r->fields);
  free(r->gain_start), free(r->gain);
  free(r->moved_start), free(r->moved);
  free(r->used), free(r->adds), free(r->masks), free(r->watch), free(r->high);
  free(r);
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

// Whether a place holds more than its threshold (the fast path's tables).
// A counter above threshold th has a bit at or above floor(log2(th + 1)) set
// (th in counter units): when no word of the marking has one of those bits
// set, no place is above, which is the rule and takes a few word tests.
static bool above_threshold(const McrtNetRun *r, const uint8_t *state) {
  uint64_t high = 0;
  for (uint32_t k = 0; k < r->nhigh; k++) {
    uint64_t w; // the slack after a state makes the last word readable, as for mcrt_get
    memcpy(&w, state + (size_t)r->high[k].word * 8, sizeof w);
    high |= w & r->high[k].mask;
  }
  if (!high && r->high_exact)
    return false;
  for (uint32_t k = 0; k < r->nwatch; k++)
    if (place_get(&r->fields[r->watch[k]], state) > r->threshold[r->watch[k]])
      return true;
  return false;
}

static void found_deadlock(McrtNetRun *r, uint64_t id) {
  r->deadlocks++;
  if (id < r->deadlock) // markings near a capacity are counted at discovery
    r->deadlock = id;
}

// A marking discovered by transition t (fast path: see the top of the file).
// False, having done nothing, where a place is above its threshold.
static bool fast_state(McrtNetRun *r, const uint8_t *state, uint32_t t) {
  if (above_threshold(r, state))
    return false;
  for (uint32_t k = r->gain_start[t]; k < r->gain_start[t + 1]; k++) {
    uint32_t p = r->gain[k];
    int64_t v = place_get(&r->fields[p], state);
    if (v > r->max_place[p]) {
      r->max_place[p] = v;
      if (v > r->max_place[r->max_place_at])
        r->max_place_at = p;
    }
  }
  if (r->adds[t]) {
    int64_t sum = marking_sum(r, state);
    if (sum > r->max_sum)
      r->max_sum = sum;
  }
  if (!r->used[t]) {
    r->used[t] = true;
    for (uint32_t k = r->moved_start[t]; k < r->moved_start[t + 1]; k++)
      if (!r->changed[r->moved[k]])
        r->changed[r->moved[k]] = true, r->nchanged++;
  }
  return true; // a deadlock is the search's to tell (mcrt_net_no_successor)
}

void mcrt_net_no_successor(McrtNetRun *r, uint64_t id, const uint8_t *state) {
  if (r->fast && !above_threshold(r, state))
    found_deadlock(r, id);
}

bool mcrt_net_state(McrtNetRun *r, uint64_t id, const uint8_t *state, uint32_t trans) {
  const McrtModel *mo = r->model;
  const McrtNet *n = mo->net;
  if (r->fast && trans < n->ntrans && fast_state(r, state, trans))
    return false;
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
  bool any = false, cut = false;
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
        r->cut = cut = true, r->cut_place = p, r->cut_trans = t;
      }
    }
  } else if (r->fast) {
    return false; // the search tells a deadlock (mcrt_net_no_successor)
  } else if (n->ntrans > 0) {
    // The transition found enabled last time first: neighbouring markings
    // tend to enable the same ones.
    uint32_t t = r->hint;
    for (uint32_t k = 0; k < n->ntrans && !any; k++, t = t + 1 == n->ntrans ? 0 : t + 1)
      any = enabled_in(n, t, m);
    if (any)
      r->hint = t == 0 ? n->ntrans - 1 : t - 1;
  }
  if (!any)
    found_deadlock(r, id);
  return cut;
}

