// SPDX-License-Identifier: MIT
// edges.c: the liveness edge table, a store the engines fill during the
// search (what is recorded and why: liveness.c); liveness.c checks the
// properties over it afterwards. It knows nothing of the search: its
// owner says how much memory it may still take (room) and how many states
// there are.
#include "store/store.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

// ---------------------------------------------------------------------------
// Recording.

static unsigned bytes_for(uint64_t max) {
  return max < (1u << 8) ? 1 : max < (1u << 16) ? 2 : max < (UINT64_C(1) << 24) ? 3 : 4;
}

// Expands the model's `fair` declarations into constraints and the map from
// each action rule to the constraints it belongs to (CSR, no duplicates).
static bool build_constraints(McrtLiveGraph *g, const McrtModel *m) {
  uint64_t nrules = m->nrules;
  uint32_t n = 0;
  for (uint32_t f = 0; f < m->nfairness; f++) {
    const McrtFairness *fa = &m->fairness[f];
    if (!fa->per_binding) {
      n++;
      continue;
    }
    for (uint32_t r = 0; r < fa->nranges; r++)
      n += (uint32_t)fa->ranges[r].count;
  }
  g->ncons = n;
  g->strong = calloc(n + 1, sizeof *g->strong);
  g->cons_fair = calloc(n + 1, sizeof *g->cons_fair);
  g->cons_rule = calloc(n + 1, sizeof *g->cons_rule);
  g->rc_start = calloc(nrules + 2, sizeof *g->rc_start);
  uint32_t *last = malloc((nrules + 1) * sizeof *last);
  if (!g->strong || !g->cons_fair || !g->cons_rule || !g->rc_start || !last)
    return free(last), false;
  // Two passes over (constraint, rule) pairs: count, then fill.
  uint64_t *fill = NULL;
  for (int pass = 0; pass < 2; pass++) {
    for (uint64_t r = 0; r <= nrules; r++)
      last[r] = UINT32_MAX;
    uint32_t c = 0;
    for (uint32_t f = 0; f < m->nfairness; f++) {
      const McrtFairness *fa = &m->fairness[f];
      for (uint32_t k = 0; k < fa->nranges; k++) {
        const McrtRuleRange *rg = &fa->ranges[k];
        for (uint64_t r = rg->first; r < rg->first + rg->count && r < nrules; r++) {
          uint32_t cc = fa->per_binding ? c++ : c;
          if (pass == 0) {
            g->strong[cc] = fa->strong;
            g->cons_fair[cc] = f;
            g->cons_rule[cc] = fa->per_binding ? r : UINT64_MAX;
          }
          if (last[r] == cc) // `(a | a)`: once
            continue;
          last[r] = cc;
          if (pass == 0)
            g->rc_start[r + 1]++;
          else
            g->rc_list[g->rc_start[r] + fill[r]++] = cc;
        }
      }
      if (!fa->per_binding)
        c++;
    }
    if (pass == 0) {
      for (uint64_t r = 0; r < nrules; r++)
        g->rc_start[r + 1] += g->rc_start[r];
      g->rc_list = calloc(g->rc_start[nrules] + 1, sizeof *g->rc_list);
      fill = calloc(nrules + 1, sizeof *fill);
      if (!g->rc_list || !fill)
        return free(last), free(fill), false;
    }
  }
  free(last);
  free(fill);
  return true;
}

McrtLive *mcrt_live_new(const McrtModel *m, size_t (*room)(void *), void *room_arg) {
  McrtLive *L = calloc(1, sizeof *L);
  if (!L)
    return NULL;
  L->room = room, L->room_arg = room_arg;
  McrtLiveGraph *g = &L->g;
  g->rule_bytes = bytes_for(m->nrules ? m->nrules - 1 : 0);
  g->bits_bytes = (2 * m->ninstances + 7) / 8;
  if (!build_constraints(g, m)) {
    mcrt_live_free(L);
    return NULL;
  }
  return L;
}

size_t mcrt_live_bytes(const McrtLive *L) { return L ? L->bytes : 0; }

// Bytes mapped for an array of n entries of `size` bytes (+ 8: rules are
// read 4 bytes at a time), whole pages.
static size_t map_bytes(uint64_t n, size_t size) {
  size_t b = (size_t)(n * size) + 8, page = 4096;
  return (b + page - 1) & ~(page - 1);
}

// Grows an array of *cap entries of `size` bytes to hold `need`, by half
// again, within --memory. The arrays are mapped and grown by mremap: no
// copy. False: the limit (or the system) said no.
static bool grow(McrtLive *L, void **p, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap)
    return true;
  uint64_t n = *cap ? *cap + *cap / 2 : 65536;
  if (n < need)
    n = need;
  size_t old = *cap ? map_bytes(*cap, size) : 0, bytes = map_bytes(n, size);
  if (bytes - old > L->room(L->room_arg))
    return false;
  void *q = *p ? mremap(*p, old, bytes, MREMAP_MAYMOVE)
               : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (q == MAP_FAILED)
    return false;
  *p = q;
  *cap = n;
  L->bytes += bytes - old;
  return true;
}

// The capacity grow() gives an array of cap entries that needs `need`.
static uint64_t next_cap(uint64_t cap, uint64_t need) {
  uint64_t n = cap ? cap + cap / 2 : 65536;
  return n < need ? need : n;
}

// The capacities the serial search reaches: its arrays grow one entry at a
// time (start: at each state with edges, by less than the half a growth
// adds, as a window's ids span less than that).
static uint64_t cap_stepwise(uint64_t cap, uint64_t need) {
  while (cap < need)
    cap = next_cap(cap, cap + 1);
  return cap;
}

static size_t grown_bytes(uint64_t cap, uint64_t n, size_t size) {
  return n == cap ? 0 : map_bytes(n, size) - (cap ? map_bytes(cap, size) : 0);
}

typedef struct Caps {
  uint64_t start, targets, rules, bits;
} Caps;

static Caps window_caps(const McrtLive *L, uint64_t states, uint64_t nnew, uint64_t last_from,
                        uint64_t nedges) {
  const McrtLiveGraph *g = &L->g;
  Caps c = {L->start_cap, L->targets_cap, L->rules_cap, L->bits_cap};
  if (g->bits_bytes && nnew)
    c.bits = cap_stepwise(c.bits, states + nnew);
  if (last_from != UINT64_MAX && last_from + 2 > c.start)
    c.start = next_cap(c.start, last_from + 2);
  c.targets = cap_stepwise(c.targets, g->nedges + nedges);
  c.rules = cap_stepwise(c.rules, g->nedges + nedges);
  return c;
}

size_t mcrt_live_reserve_bytes(const McrtLive *L, uint64_t states, uint64_t nnew,
                               uint64_t last_from, uint64_t nedges) {
  const McrtLiveGraph *g = &L->g;
  Caps c = window_caps(L, states, nnew, last_from, nedges);
  return grown_bytes(L->bits_cap, c.bits, g->bits_bytes) +
         grown_bytes(L->start_cap, c.start, sizeof *g->start) +
         grown_bytes(L->targets_cap, c.targets, sizeof *g->targets) +
         grown_bytes(L->rules_cap, c.rules, g->rule_bytes);
}

bool mcrt_live_reserve(McrtLive *L, uint64_t states, uint64_t nnew, uint64_t last_from,
                       uint64_t nedges) {
  McrtLiveGraph *g = &L->g;
  Caps c = window_caps(L, states, nnew, last_from, nedges);
  return grow(L, (void **)&g->bits, &L->bits_cap, c.bits, g->bits_bytes) &&
         grow(L, (void **)&g->start, &L->start_cap, c.start, sizeof *g->start) &&
         grow(L, (void **)&g->targets, &L->targets_cap, c.targets, sizeof *g->targets) &&
         grow(L, (void **)&g->rules, &L->rules_cap, c.rules, g->rule_bytes);
}

void mcrt_live_window(McrtLive *L, uint64_t states, uint64_t base, uint64_t nnew,
                      uint64_t last_from, uint64_t nedges) {
  McrtLiveGraph *g = &L->g;
  if (last_from != UINT64_MAX) {
    while (g->nstarted < base)
      g->start[g->nstarted++] = g->nedges;
    g->nstarted = last_from + 1;
  }
  g->nedges += nedges;
  if (nnew)
    g->nstates = states + nnew;
}

static void unmap(void *p, uint64_t cap, size_t size) {
  if (p)
    munmap(p, map_bytes(cap, size));
}

void mcrt_live_free(McrtLive *L) {
  if (!L)
    return;
  McrtLiveGraph *g = &L->g;
  unmap(g->targets, L->targets_cap, sizeof *g->targets);
  unmap(g->rules, L->rules_cap, g->rule_bytes);
  unmap(g->start, L->start_cap, sizeof *g->start);
  unmap(g->bits, L->bits_cap, g->bits_bytes);
  free(g->strong), free(g->cons_fair), free(g->cons_rule);
  free(g->rc_start), free(g->rc_list);
  free(L);
}

bool mcrt_live_state(McrtLive *L, uint64_t id, uint8_t **bits) {
  McrtLiveGraph *g = &L->g;
  unsigned bb = g->bits_bytes;
  g->nstates = id + 1;
  *bits = NULL;
  if (bb == 0)
    return true;
  if (!grow(L, (void **)&g->bits, &L->bits_cap, id + 1, bb))
    return false;
  *bits = g->bits + id * bb;
  memset(*bits, 0, bb);
  return true;
}

bool mcrt_live_edge(McrtLive *L, uint32_t from, uint32_t to, uint64_t rule) {
  McrtLiveGraph *g = &L->g;
  if (from + UINT64_C(2) > L->start_cap &&
      !grow(L, (void **)&g->start, &L->start_cap, from + UINT64_C(2), sizeof *g->start))
    return false;
  while (g->nstarted <= from)
    g->start[g->nstarted++] = g->nedges;
  uint64_t e = g->nedges;
  if (e + 1 > L->targets_cap &&
      !grow(L, (void **)&g->targets, &L->targets_cap, e + 1, sizeof *g->targets))
    return false;
  if (e + 1 > L->rules_cap && !grow(L, (void **)&g->rules, &L->rules_cap, e + 1, g->rule_bytes))
    return false;
  g->targets[e] = to;
  memcpy(g->rules + e * g->rule_bytes, &rule, g->rule_bytes); // little-endian
  g->nedges = e + 1;
  return true;
}

// Closes the CSR table: states after the last one with edges have none.
bool mcrt_live_finish(McrtLive *L, uint64_t states, const McrtLog *log) {
  McrtLiveGraph *g = &L->g;
  g->nstates = states;
  if (!grow(L, (void **)&g->start, &L->start_cap, g->nstates + 1, sizeof *g->start))
    return false;
  while (g->nstarted <= g->nstates)
    g->start[g->nstarted++] = g->nedges;
  uint64_t ninit = 0;
  while (ninit < states && mcrt_log_get(log, ninit).parent == MCRT_LOG_INITIAL)
    ninit++;
  g->ninitial = ninit;
  return true;
}

void mcrt_live_dump(const McrtLive *L) {
  const char *path = getenv("MCRT_TEST_EDGES");
  if (!path || !L)
    return;
  FILE *f = fopen(path, "w");
  if (!f)
    return;
  const McrtLiveGraph *g = &L->g;
  fprintf(f, "states %" PRIu64 " initial %" PRIu64 " edges %" PRIu64 "\n", g->nstates,
          g->ninitial, g->nedges);
  for (uint64_t v = 0; v < g->nstates; v++) {
    fprintf(f, "%" PRIu64 " bits ", v);
    for (unsigned b = 0; b < g->bits_bytes; b++)
      fprintf(f, "%02x", g->bits[v * g->bits_bytes + b]);
    fputc(':', f);
    for (uint64_t e = g->start[v]; e < g->start[v + 1]; e++) {
      uint64_t rule = 0;
      memcpy(&rule, g->rules + e * g->rule_bytes, g->rule_bytes);
      fprintf(f, " %" PRIu32 "/%" PRIu64, g->targets[e], rule);
    }
    fputc('\n', f);
  }
  fclose(f);
}
