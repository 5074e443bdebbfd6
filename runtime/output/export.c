// SPDX-License-Identifier: MIT
// export.c: the transition system written out, for tools and test
// generators: --graph FILE.json (states with their values, transitions with
// their actions and arguments), --dot FILE (graphviz, the violation's path
// highlighted), --tests FILE.json (paths from the initial states that cover
// every transition, or every accepting state).
//
// The graph is explored here, after the search, on its own: breadth-first
// from the initial states in init-rule order, every action rule tried in
// rule order, under the search's symmetry reduction and constraints and
// within --max-states and --max-depth. The search stops at the first
// violation; the export still shows the whole graph, so it is the same
// whatever the search found. State ids are the order of discovery, so every
// output is byte-identical from run to run. The full states are kept (the
// search keeps only fingerprints): the export is for graphs that a person
// or a test generator reads, not for the largest models. So the
// exploration keeps at most as many states as the exports' caps allow
// (--graph-max-states, --dot-max-states; every state for --tests), within
// what --memory leaves after the search's stores.
//
// An export never changes the verdict: one past its cap, cut short by
// --memory, a run-time error of the spec or a signal, or that fails to be
// written, is a warning, its outcome in ctx->exported (the summary's
// export: lines, the report's exports) and no file (outputs.c discards it).
// Past its cap, --dot draws the violation's path alone.
#include "output/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { ST_INITIAL = 1, ST_ACCEPTING = 2, ST_DEADLOCK = 4, ST_EXPANDED = 8, ST_ON_PATH = 16 };

typedef struct Edge {
  uint32_t from, to;
  uint64_t rule;
  bool on_path; // --dot: a step of the violation's path
} Edge;

// Why the exploration ended before the whole graph (within --max-states and
// --max-depth) was in memory.
typedef enum {
  CUT_NONE,
  CUT_LIMIT,     // more states than any export asked for may write
  CUT_MEMORY,    // the next array would pass what --memory leaves
  CUT_NO_MEMORY, // the system refused memory
  CUT_SIGNAL,    // SIGINT, SIGTERM or SIGHUP
  CUT_ERROR,     // a run-time error of the spec
} Cut;

typedef struct Graph {
  McrtCtx *ctx;
  size_t sb;           // state bytes
  uint8_t *states;     // n * sb
  uint8_t *flags;      // per state
  uint64_t *depth;     // per state
  uint64_t *init_rule; // per state: the init rule of an initial state
  uint64_t n, cap;
  uint32_t *table;     // open addressing: state index + 1, 0 empty
  uint64_t tcap;
  Edge *edges;
  uint64_t nedges, ecap;
  const char *bound;   // "max-states", "max-depth", or NULL
  uint64_t limit;      // the states kept at most (CUT_LIMIT past it)
  uint64_t bytes, budget; // held, and what --memory leaves the export
  Cut cut;
} Graph;

// Counts bytes more against the budget; false (CUT_MEMORY) past it.
static bool charge(Graph *g, uint64_t bytes) {
  if (bytes > g->budget - g->bytes) {
    g->cut = CUT_MEMORY;
    return false;
  }
  g->bytes += bytes;
  return true;
}

// p, or a copy of it, with room for need elements of size bytes (its
// capacity *cap doubled), charged against the budget; NULL (p still valid,
// g->cut says why) when there is none.
static void *grow(Graph *g, void *p, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap)
    return p;
  uint64_t c = *cap ? *cap : 64;
  while (c < need)
    c *= 2;
  if (!charge(g, (c - *cap) * size))
    return NULL;
  void *q = realloc(p, c * size);
  if (!q) {
    g->cut = CUT_NO_MEMORY;
    return NULL;
  }
  *cap = c;
  return q;
}

// Room for one more state in each per-state array.
static bool reserve_state(Graph *g) {
  uint64_t need = g->n + 1, cap = g->cap;
  void *p = grow(g, g->states, &cap, need, g->sb);
  if (!p)
    return false;
  g->states = p, cap = g->cap;
  if (!(p = grow(g, g->flags, &cap, need, 1)))
    return false;
  g->flags = p, cap = g->cap;
  if (!(p = grow(g, g->depth, &cap, need, sizeof *g->depth)))
    return false;
  g->depth = p;
  if (!(p = grow(g, g->init_rule, &g->cap, need, sizeof *g->init_rule)))
    return false;
  g->init_rule = p;
  return true;
}

static void free_graph(Graph *g) {
  free(g->states), free(g->flags), free(g->depth), free(g->init_rule), free(g->table);
  free(g->edges);
}

static uint64_t hash_state(const uint8_t *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ s[i]) * 1099511628211u;
  return h;
}

// The table at twice its size, every state entered again.
static bool grow_table(Graph *g) {
  uint64_t tcap = g->tcap ? g->tcap * 2 : 1024;
  if (!charge(g, tcap * sizeof *g->table))
    return false;
  uint32_t *t = calloc(tcap, sizeof *t);
  if (!t) {
    g->cut = CUT_NO_MEMORY;
    return false;
  }
  for (uint64_t i = 0; i < g->n; i++) {
    uint64_t j = hash_state(g->states + i * g->sb, g->sb) & (tcap - 1);
    while (t[j])
      j = (j + 1) & (tcap - 1);
    t[j] = (uint32_t)(i + 1);
  }
  free(g->table);
  g->bytes -= g->tcap * sizeof *g->table;
  g->table = t, g->tcap = tcap;
  return true;
}

#define FULL UINT64_MAX

// The index of state s, added when new (*fresh then true); FULL when it
// cannot be added: the graph is at --max-states (g->bound), or the
// exploration must end (g->cut says why).
static uint64_t intern(Graph *g, const uint8_t *s, bool *fresh) {
  if (2 * (g->n + 1) > g->tcap && !grow_table(g))
    return FULL;
  uint64_t j = hash_state(s, g->sb) & (g->tcap - 1);
  while (g->table[j]) {
    uint64_t i = g->table[j] - 1;
    if (!memcmp(g->states + i * g->sb, s, g->sb)) {
      *fresh = false;
      return i;
    }
    j = (j + 1) & (g->tcap - 1);
  }
  if (g->n >= g->ctx->opt->max_states || g->n >= UINT32_MAX - 1) {
    g->bound = "max-states";
    return FULL;
  }
  if (g->n >= g->limit) {
    g->cut = CUT_LIMIT;
    return FULL;
  }
  if (!reserve_state(g))
    return FULL;
  memcpy(g->states + g->n * g->sb, s, g->sb);
  g->flags[g->n] = 0;
  g->table[j] = (uint32_t)(g->n + 1);
  *fresh = true;
  return g->n++;
}

static bool add_edge(Graph *g, uint64_t from, uint64_t to, uint64_t rule) {
  Edge *e = grow(g, g->edges, &g->ecap, g->nedges + 1, sizeof *g->edges);
  if (!e)
    return false;
  g->edges = e;
  g->edges[g->nedges++] = (Edge){(uint32_t)from, (uint32_t)to, rule, false};
  return true;
}

// The canonical form of s (itself without symmetry) in out.
static void canon(McrtCtx *ctx, const uint8_t *s, uint8_t *out) {
  if (ctx->sym)
    mcrt_sym_canon(ctx->sym, s, out);
  else
    memcpy(out, s, ctx->state_bytes);
}

// Explores the graph, breadth-first, until it is whole or g->cut says why
// not (a run-time error of the spec, a signal, the state limit, memory).
static void explore(Graph *g) {
  McrtCtx *ctx = g->ctx;
  const McrtModel *m = ctx->model;
  size_t buf = ctx->state_bytes + MCRT_SLACK;
  uint8_t *next = calloc(1, buf), *c = calloc(1, buf), *cur = calloc(1, buf);
  if (!next || !c || !cur)
    mcrt_die("out of memory writing the graph");
  for (uint64_t r = 0; r < m->ninit_rules && !g->cut; r++) {
    if (!mcrt_replay_step(ctx, true, r, NULL, next)) {
      if (mcrt_failed(ctx))
        g->cut = CUT_ERROR;
      continue;
    }
    canon(ctx, next, c);
    bool fresh;
    uint64_t id = intern(g, c, &fresh);
    if (id == FULL)
      break;
    if (fresh)
      g->depth[id] = 0, g->init_rule[id] = r;
    g->flags[id] |= ST_INITIAL;
  }
  for (uint64_t i = 0; i < g->n && !g->cut; i++) {
    if (mcrt_signal) {
      g->cut = CUT_SIGNAL;
      break;
    }
    memcpy(cur, g->states + i * g->sb, g->sb);
    if (m->is_accepting) {
      bool acc = m->is_accepting(ctx, cur);
      if (mcrt_failed(ctx))
        g->cut = CUT_ERROR;
      if (acc)
        g->flags[i] |= ST_ACCEPTING;
    }
    if (g->cut || (m->has_constraint && !m->within_constraints(ctx, cur)))
      continue;
    bool any = false;
    for (uint64_t r = 0; r < m->nrules && !g->cut; r++) {
      if (!mcrt_replay_step(ctx, false, r, cur, next)) {
        if (mcrt_failed(ctx))
          g->cut = CUT_ERROR;
        continue;
      }
      any = true;
      if (g->depth[i] >= ctx->opt->max_depth) {
        g->bound = "max-depth";
        break;
      }
      canon(ctx, next, c);
      bool fresh;
      uint64_t id = intern(g, c, &fresh);
      if (id == FULL) // at --max-states, a state already in still gets its edge
        continue;
      if (fresh)
        g->depth[id] = g->depth[i] + 1;
      add_edge(g, i, id, r);
    }
    if (g->depth[i] < ctx->opt->max_depth)
      g->flags[i] |= ST_EXPANDED;
    if (!any && !(m->has_terminal && m->is_terminal(ctx, cur)))
      g->flags[i] |= ST_DEADLOCK;
  }
  mcrt_clear_error(ctx);
  free(next), free(c), free(cur);
}

//
// --graph: JSON, schema "mcgen-graph" version 1 (docs/DESIGN.md)
//

static void write_graph(Graph *g, FILE *f) {
  McrtCtx *ctx = g->ctx;
  const McrtModel *m = ctx->model;
  fputs("{\"schema\": \"mcgen-graph\", \"version\": 1,\n \"model\": ", f);
  mcrt_print_json_string(f, m->name);
  fputs(", \"scenario\": ", f);
  if (m->scenario)
    mcrt_print_json_string(f, m->scenario);
  else
    fputs("null", f);
  fprintf(f, ", \"symmetry\": %s,\n \"bound_hit\": ", ctx->sym ? "true" : "false");
  if (g->bound)
    mcrt_print_json_string(f, g->bound);
  else
    fputs("null", f);
  fprintf(f, ", \"nstates\": %" PRIu64 ", \"ntransitions\": %" PRIu64 ",\n \"states\": [\n",
          g->n, g->nedges);
  for (uint64_t i = 0; i < g->n; i++) {
    uint8_t fl = g->flags[i];
    fprintf(f, "  {\"id\": %" PRIu64 ", \"depth\": %" PRIu64 ", \"initial\": %s", i, g->depth[i],
            fl & ST_INITIAL ? "true" : "false");
    if (fl & ST_INITIAL) {
      fputs(", \"init\": {", f);
      mcrt_print_rule_json(f, m, true, g->init_rule[i]);
      fputc('}', f);
    }
    fprintf(f, ", \"accepting\": %s, \"deadlock\": %s, \"expanded\": %s,\n   \"values\": ",
            fl & ST_ACCEPTING ? "true" : "false", fl & ST_DEADLOCK ? "true" : "false",
            fl & ST_EXPANDED ? "true" : "false");
    mcrt_print_state_json(f, m, g->states + i * g->sb);
    fputs(i + 1 < g->n ? "},\n" : "}\n", f);
  }
  fputs(" ],\n \"transitions\": [\n", f);
  for (uint64_t i = 0; i < g->nedges; i++) {
    Edge *e = &g->edges[i];
    fprintf(f, "  {\"from\": %" PRIu32 ", \"to\": %" PRIu32 ", ", e->from, e->to);
    mcrt_print_rule_json(f, m, false, e->rule);
    fputs(i + 1 < g->nedges ? "},\n" : "}\n", f);
  }
  fputs(" ]\n}\n", f);
}

//
// --dot: graphviz, the violation's path in red
//

// The rules of the violation's path (its init rule, then its action
// rules), in *own when they had to be read back from the log (the caller
// frees it); 0 when there is no path.
static size_t violation_rules(McrtCtx *ctx, uint64_t **path, uint64_t **own) {
  const McrtViolation *v = &ctx->viol;
  *path = *own = NULL;
  if (!ctx->has_violation)
    return 0;
  if (v->path) { // a lasso
    *path = v->path;
    return v->npath;
  }
  if (v->state == MCRT_NO_STATE)
    return 0;
  size_t n = mcrt_path_to(ctx, v->state, own);
  *path = *own;
  return n;
}

// Marks the steps of the violation's path (the rules from its initial
// state, followed through the graph).
static void mark_path(Graph *g) {
  uint64_t *path, *own;
  uint64_t n = violation_rules(g->ctx, &path, &own);
  uint64_t at = UINT64_MAX;
  for (uint64_t i = 0; n && i < g->n; i++)
    if ((g->flags[i] & ST_INITIAL) && g->init_rule[i] == path[0])
      at = i;
  for (uint64_t k = 1; at != UINT64_MAX && k <= n; k++) {
    g->flags[at] |= ST_ON_PATH;
    if (k == n)
      break;
    uint64_t next = UINT64_MAX;
    for (uint64_t e = 0; e < g->nedges; e++)
      if (g->edges[e].from == at && g->edges[e].rule == path[k]) {
        g->edges[e].on_path = true;
        next = g->edges[e].to;
        break;
      }
    at = next;
  }
  free(own);
}

// The violation's path alone, as a graph (--dot past its cap): its states,
// replayed from its rules, and its steps. False when there is no path, or
// it has more states than g->limit or does not replay.
static bool explore_trace(Graph *g) {
  McrtCtx *ctx = g->ctx;
  uint64_t *path, *own;
  size_t n = violation_rules(ctx, &path, &own);
  size_t buf = ctx->state_bytes + MCRT_SLACK;
  uint8_t *cur = calloc(1, buf), *next = calloc(1, buf), *c = calloc(1, buf);
  if (!cur || !next || !c)
    mcrt_die("out of memory writing the graph");
  size_t k = 0;
  for (uint64_t at = FULL; k < n; k++) {
    if (!mcrt_replay_step(ctx, k == 0, path[k], k ? cur : NULL, next))
      break;
    canon(ctx, next, c);
    bool fresh;
    uint64_t id = intern(g, c, &fresh);
    if (id == FULL || (k && !add_edge(g, at, id, path[k])))
      break;
    if (fresh)
      g->depth[id] = k, g->init_rule[id] = k ? 0 : path[k];
    g->flags[id] |= k ? 0 : ST_INITIAL;
    if (k + 1 == n && ctx->viol.kind == MCRT_VIOL_DEADLOCK)
      g->flags[id] |= ST_DEADLOCK;
    memcpy(cur, c, ctx->state_bytes);
    at = id;
  }
  mcrt_clear_error(ctx);
  free(own), free(cur), free(next), free(c);
  return n && k == n;
}

static void dot_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    if (*s == '\n')
      fputs("\\l", f);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

// The graph for graphviz; title (NULL: none) is drawn above it.
static void write_dot(Graph *g, FILE *f, const char *title) {
  McrtCtx *ctx = g->ctx;
  const McrtModel *m = ctx->model;
  mark_path(g);
  fputs("digraph ", f);
  dot_string(f, m->name);
  fputs(" {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
        "  edge [fontname=\"monospace\", fontsize=9];\n"
        "  init [shape=point];\n", f);
  if (title) {
    fputs("  labelloc=t;\n  label=", f);
    dot_string(f, title);
    fputs(";\n", f);
  }
  char *text = NULL;
  size_t len = 0;
  for (uint64_t i = 0; i < g->n; i++) {
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
      mcrt_die("out of memory writing the graph");
    fprintf(mem, "%" PRIu64 "\n", i);
    mcrt_print_state(mem, m, g->states + i * g->sb, NULL, "");
    fclose(mem);
    uint8_t fl = g->flags[i];
    fprintf(f, "  s%" PRIu64 " [label=", i);
    dot_string(f, text);
    if (fl & ST_ACCEPTING)
      fputs(", peripheries=2", f);
    if (fl & ST_DEADLOCK)
      fputs(", style=filled, fillcolor=\"#f4cccc\"", f);
    if (fl & ST_ON_PATH)
      fputs(", color=red, penwidth=2", f);
    fputs("];\n", f);
    free(text);
    text = NULL;
    if (fl & ST_INITIAL)
      fprintf(f, "  init -> s%" PRIu64 ";\n", i);
  }
  for (uint64_t i = 0; i < g->nedges; i++) {
    Edge *e = &g->edges[i];
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
      mcrt_die("out of memory writing the graph");
    mcrt_print_rule(mem, m, false, e->rule);
    fclose(mem);
    fprintf(f, "  s%" PRIu32 " -> s%" PRIu32 " [label=", e->from, e->to);
    dot_string(f, text);
    if (e->on_path)
      fputs(", color=red, penwidth=2", f);
    fputs("];\n", f);
    free(text);
    text = NULL;
  }
  fputs("}\n", f);
}

//
// --tests: paths that cover the graph
//

// Breadth-first parents from the initial states (the edge into each state
// on a shortest path; UINT64_MAX for initial states) and, backwards, the
// first edge of a shortest path from each state to an accepting state.
static void shortest_paths(Graph *g, uint64_t *parent, uint64_t *to_acc) {
  uint64_t *queue = malloc((g->n + 1) * sizeof *queue);
  uint64_t *first = calloc(g->n + 1, sizeof *first), *count = calloc(g->n + 2, sizeof *count);
  uint64_t *in = malloc((g->nedges + 1) * sizeof *in);
  bool *seen = calloc(g->n + 1, 1);
  if (!queue || !first || !count || !in || !seen)
    mcrt_die("out of memory writing the tests");
  uint64_t head = 0, tail = 0;
  for (uint64_t i = 0; i < g->n; i++) {
    parent[i] = to_acc[i] = UINT64_MAX;
    if (g->flags[i] & ST_INITIAL)
      seen[i] = true, queue[tail++] = i;
  }
  // Edges are grouped by source, in order: scan them per state.
  uint64_t *out_first = calloc(g->n + 1, sizeof *out_first);
  if (!out_first)
    mcrt_die("out of memory writing the tests");
  for (uint64_t e = g->nedges; e-- > 0;)
    out_first[g->edges[e].from] = e;
  while (head < tail) {
    uint64_t s = queue[head++];
    for (uint64_t e = out_first[s]; e < g->nedges && g->edges[e].from == s; e++) {
      uint64_t t = g->edges[e].to;
      if (!seen[t])
        seen[t] = true, parent[t] = e, queue[tail++] = t;
    }
  }
  // Backwards from the accepting states: edges by target.
  for (uint64_t e = 0; e < g->nedges; e++)
    count[g->edges[e].to + 1]++;
  for (uint64_t i = 0; i < g->n; i++)
    count[i + 1] += count[i];
  memcpy(first, count, g->n * sizeof *first);
  for (uint64_t e = 0; e < g->nedges; e++)
    in[first[g->edges[e].to]++] = e;
  memset(seen, 0, g->n);
  head = tail = 0;
  for (uint64_t i = 0; i < g->n; i++)
    if (g->flags[i] & ST_ACCEPTING)
      seen[i] = true, queue[tail++] = i;
  while (head < tail) {
    uint64_t t = queue[head++];
    for (uint64_t k = count[t]; k < count[t + 1]; k++) {
      uint64_t e = in[k], s = g->edges[e].from;
      if (!seen[s])
        seen[s] = true, to_acc[s] = e, queue[tail++] = s;
    }
  }
  free(queue), free(first), free(count), free(in), free(seen), free(out_first);
}

typedef struct Path {
  uint64_t start;  // initial state
  uint64_t *edges; // edge indices
  uint64_t len, cap;
} Path;

// Appends edge e; without room (g->cut says why) the path is left as it is.
static void path_push(Graph *g, Path *p, uint64_t e) {
  uint64_t *edges = grow(g, p->edges, &p->cap, p->len + 1, sizeof *p->edges);
  if (edges)
    p->edges = edges, p->edges[p->len++] = e;
}

static void path_free(Graph *g, Path *p) {
  g->bytes -= p->cap * sizeof *p->edges;
  free(p->edges);
}

// The path from an initial state to s along the BFS parents.
static Path path_to(Graph *g, const uint64_t *parent, uint64_t s) {
  Path p = {0};
  uint64_t n = 0, t = s;
  for (; parent[t] != UINT64_MAX; t = g->edges[parent[t]].from)
    n++;
  p.start = t;
  if (!(p.edges = grow(g, NULL, &p.cap, n + 1, sizeof *p.edges)))
    return p;
  p.len = n;
  for (t = s; n-- > 0; t = g->edges[parent[t]].from)
    p.edges[n] = parent[t];
  return p;
}

static uint64_t path_end(Graph *g, const Path *p) {
  return p->len ? g->edges[p->edges[p->len - 1]].to : p->start;
}

// Replays the path as a run of the spec (under symmetry, the rules are
// first rewritten into a genuine run) and writes it with the states it
// goes through. False if it does not replay (an internal error).
static bool write_path(Graph *g, const Path *p, FILE *f, bool last) {
  McrtCtx *ctx = g->ctx;
  const McrtModel *m = ctx->model;
  uint64_t n = p->len + 1;
  uint64_t *rules = malloc(n * sizeof *rules);
  size_t buf = ctx->state_bytes + MCRT_SLACK;
  uint8_t *a = calloc(1, buf), *b = calloc(1, buf);
  if (!rules || !a || !b)
    mcrt_die("out of memory writing the tests");
  rules[0] = g->init_rule[p->start];
  for (uint64_t k = 0; k < p->len; k++)
    rules[k + 1] = g->edges[p->edges[k]].rule;
  bool ok = !ctx->sym || mcrt_sym_realize(ctx, rules, n, false, NULL);
  uint64_t end = path_end(g, p);
  fprintf(f, "  {\"length\": %" PRIu64 ", \"ends_accepting\": %s, \"steps\": [\n", p->len,
          g->flags[end] & ST_ACCEPTING ? "true" : "false");
  for (uint64_t k = 0; ok && k < n; k++) {
    ok = mcrt_replay_step(ctx, k == 0, rules[k], a, b);
    if (!ok)
      break;
    fprintf(f, "   {\"state\": %" PRIu64 ", ", k ? (uint64_t)g->edges[p->edges[k - 1]].to : p->start);
    mcrt_print_rule_json(f, m, k == 0, rules[k]);
    fputs(", \"values\": ", f);
    mcrt_print_state_json(f, m, b);
    fputs(k + 1 < n ? "},\n" : "}\n", f);
    uint8_t *t = a;
    a = b, b = t;
  }
  fputs(last ? "  ]}\n" : "  ]},\n", f);
  mcrt_clear_error(ctx);
  free(rules), free(a), free(b);
  return ok;
}

// The test paths, planned before anything is written so that a set too
// large to write can be refused with its true size. The paths are kept
// while their steps are within the cap, then only counted.
typedef struct TestPlan {
  Path *paths;
  uint64_t npaths, cap;
  uint64_t steps; // the states the paths write, over all paths (kept or not)
  uint64_t ncovered, goals, nreached;
} TestPlan;

// The plan's arrays, per state and per edge: charged before planning.
enum { PLAN_STATE_BYTES = 7 * sizeof(uint64_t) + 2, PLAN_EDGE_BYTES = sizeof(uint64_t) + 1 };

// Keeps path p in the plan while the steps are within max_steps.
static void plan_add(Graph *g, TestPlan *plan, Path *p, uint64_t max_steps) {
  plan->steps += p->len + 1;
  Path *paths = plan->steps > max_steps ? NULL
                : grow(g, plan->paths, &plan->cap, plan->npaths + 1, sizeof *plan->paths);
  if (paths)
    plan->paths = paths, plan->paths[plan->npaths++] = *p;
  else
    path_free(g, p);
}

// Paths covering every transition (cover_accepting false) or every
// accepting state: each starts at an initial state by a shortest path to
// the first element not covered yet, goes on through uncovered transitions
// while there are some, then ends by a shortest path to an accepting state
// when one is reachable. The plan is cut short when g->cut is set (memory).
static TestPlan plan_tests(Graph *g, bool cover_accepting, uint64_t max_steps) {
  TestPlan plan = {0};
  if (!charge(g, (g->n + 2) * PLAN_STATE_BYTES + (g->nedges + 1) * PLAN_EDGE_BYTES))
    return plan;
  uint64_t *parent = malloc((g->n + 1) * sizeof *parent);
  uint64_t *to_acc = malloc((g->n + 1) * sizeof *to_acc);
  bool *covered = calloc(g->nedges + 1, 1), *reached = calloc(g->n + 1, 1);
  uint64_t *out_first = malloc((g->n + 1) * sizeof *out_first);
  if (!parent || !to_acc || !covered || !reached || !out_first)
    mcrt_die("out of memory writing the tests");
  shortest_paths(g, parent, to_acc);
  for (uint64_t i = 0; i < g->n; i++)
    out_first[i] = g->nedges;
  for (uint64_t e = g->nedges; e-- > 0;)
    out_first[g->edges[e].from] = e;
  uint64_t next_edge = 0, next_state = 0;
  for (uint64_t i = 0; i < g->n; i++)
    plan.goals += cover_accepting ? (g->flags[i] & ST_ACCEPTING) != 0 : 0;
  while (!g->cut) {
    Path p;
    if (cover_accepting) {
      while (next_state < g->n && (reached[next_state] || !(g->flags[next_state] & ST_ACCEPTING)))
        next_state++;
      if (next_state == g->n)
        break;
      p = path_to(g, parent, next_state);
    } else {
      while (next_edge < g->nedges && covered[next_edge])
        next_edge++;
      if (next_edge == g->nedges)
        break;
      p = path_to(g, parent, g->edges[next_edge].from);
      path_push(g, &p, next_edge);
      for (uint64_t k = 0; k < p.len; k++)
        covered[p.edges[k]] = true;
      covered[next_edge] = true;
      // On through transitions not covered yet.
      while (!g->cut) {
        uint64_t s = path_end(g, &p), e = out_first[s];
        while (e < g->nedges && g->edges[e].from == s && covered[e])
          e++;
        if (e >= g->nedges || g->edges[e].from != s)
          break;
        path_push(g, &p, e);
        covered[e] = true;
      }
    }
    // Then to an accepting state, if one is reachable and this is not one.
    for (uint64_t s = path_end(g, &p);
         !g->cut && !(g->flags[s] & ST_ACCEPTING) && to_acc[s] != UINT64_MAX; s = path_end(g, &p))
      path_push(g, &p, to_acc[s]);
    reached[p.start] = true;
    for (uint64_t k = 0; k < p.len; k++) {
      covered[p.edges[k]] = true;
      reached[g->edges[p.edges[k]].to] = true;
    }
    plan_add(g, &plan, &p, max_steps);
  }
  for (uint64_t e = 0; e < g->nedges; e++)
    plan.ncovered += covered[e];
  for (uint64_t i = 0; i < g->n; i++)
    plan.nreached += reached[i] && (g->flags[i] & ST_ACCEPTING);
  free(parent), free(to_acc), free(covered), free(reached), free(out_first);
  return plan;
}

static void free_plan(Graph *g, TestPlan *plan) {
  for (uint64_t i = 0; i < plan->npaths; i++)
    path_free(g, &plan->paths[i]);
  free(plan->paths);
}

static bool write_tests(Graph *g, FILE *f, const TestPlan *plan, bool cover_accepting) {
  const McrtModel *m = g->ctx->model;
  fputs("{\"schema\": \"mcgen-tests\", \"version\": 1,\n \"model\": ", f);
  mcrt_print_json_string(f, m->name);
  fputs(", \"scenario\": ", f);
  if (m->scenario)
    mcrt_print_json_string(f, m->scenario);
  else
    fputs("null", f);
  fprintf(f, ", \"covers\": \"%s\", \"nstates\": %" PRIu64 ", \"ntransitions\": %" PRIu64
             ", \"transitions_covered\": %" PRIu64 ", \"accepting_states\": %" PRIu64
             ", \"accepting_covered\": %" PRIu64 ",\n \"paths\": [\n",
          cover_accepting ? "accepting" : "transitions", g->n, g->nedges, plan->ncovered,
          plan->goals, plan->nreached);
  bool ok = true;
  for (uint64_t i = 0; i < plan->npaths; i++)
    ok &= write_path(g, &plan->paths[i], f, i + 1 == plan->npaths);
  fputs(" ]\n}\n", f);
  return ok;
}

//
// The outcomes
//

// Records an export's outcome in ctx->exported, its note formatted from fmt;
// one not written whole is a warning on err too.
__attribute__((format(printf, 7, 8))) static void outcome(McrtCtx *ctx, FILE *err,
                                                          const char *option, const char *path,
                                                          bool written, bool trace_only,
                                                          const char *fmt, ...) {
  McrtExported *e = &ctx->exported[ctx->nexported++];
  *e = (McrtExported){.option = option, .path = path, .written = written,
                      .trace_only = trace_only};
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->note, sizeof e->note, fmt, ap);
  va_end(ap);
  if (!written)
    fprintf(err, "warning: %s %s not written: %s\n", option, path, e->note);
  else if (trace_only)
    fprintf(err, "warning: %s %s: the violation's path alone: %s\n", option, path, e->note);
}

// Whether the search counted the very graph the export explores: an
// exhaustive breadth-first search, unreduced (symmetry is the same in both).
static bool search_counted_graph(const McrtCtx *ctx) {
  bool whole = !ctx->has_violation || ctx->viol.kind == MCRT_VIOL_LIVENESS ||
               ctx->viol.kind == MCRT_VIOL_REACHABLE; // found after the whole search
  return whole && ctx->bound == MCRT_BOUND_NONE && !ctx->opt->por &&
         ctx->opt->search == MCRT_SEARCH_BFS;
}

// The graph's number of states, for a refusal: exact when the exploration
// or the search counted the whole graph, else how many at least.
static void print_size(char *buf, size_t len, const Graph *g) {
  const McrtCtx *ctx = g->ctx;
  if (!g->cut)
    snprintf(buf, len, "%" PRIu64 "%s states", g->n, g->bound ? " or more" : "");
  else if (search_counted_graph(ctx) && ctx->states > g->n)
    snprintf(buf, len, "%" PRIu64 " states", ctx->states);
  else
    snprintf(buf, len, "more than %" PRIu64 " states", g->n);
}

// Whether the graph has more than cap states.
static bool over(const Graph *g, uint64_t cap) {
  return g->n > cap || g->cut == CUT_LIMIT;
}

// Why the exploration did not finish (g->cut other than CUT_LIMIT), for a
// refusal.
static void print_cut(char *buf, size_t len, const Graph *g) {
  char bytes[64] = "";
  FILE *f = fmemopen(bytes, sizeof bytes - 1, "w");
  if (f) {
    mcrt_fprint_bytes(f, (double)g->budget);
    fclose(f);
  }
  switch (g->cut) {
  case CUT_MEMORY:
    snprintf(buf, len, "the export needs more memory than the %s --memory leaves it (%" PRIu64
                       " states copied)", bytes, g->n);
    break;
  case CUT_NO_MEMORY:
    snprintf(buf, len, "the system refused memory for the export's copy of the graph (%" PRIu64
                       " states copied)", g->n);
    break;
  case CUT_SIGNAL:
    snprintf(buf, len, "interrupted by %s while the export explored the graph",
             mcrt_signal_name(mcrt_signal));
    break;
  default: // CUT_ERROR
    snprintf(buf, len, "the spec fails at run time in the graph (in an action or a predicate; "
                       "the trace shows where when the search met it first)");
    break;
  }
}

// Closes an export written into f, its outcome recorded: written, or what
// was lost (a write error, a path that did not replay).
static void finish(Graph *g, FILE *f, FILE *err, const char *option, const char *path,
                   bool replayed, bool trace_only, const char *note) {
  if (!replayed) {
    mcrt_output_discard(f, path);
    outcome(g->ctx, err, option, path, false, false,
            "a path does not replay (an internal error of mcgen)");
  } else if (!mcrt_output_close(f, path)) {
    outcome(g->ctx, err, option, path, false, false, "a write failed: %s", strerror(errno));
  } else {
    outcome(g->ctx, err, option, path, true, trace_only, "%s", note);
  }
}

//
// The entry point
//

static void export_graph(Graph *g, FILE *f, FILE *err) {
  const McrtOptions *opt = g->ctx->opt;
  char why[256], size[64];
  print_size(size, sizeof size, g);
  if (over(g, opt->graph_max_states)) {
    mcrt_output_discard(f, opt->graph_file);
    outcome(g->ctx, err, "--graph", opt->graph_file, false, false,
            "the graph has %s, more than --graph-max-states %" PRIu64 " allows", size,
            opt->graph_max_states);
  } else if (g->cut) {
    mcrt_output_discard(f, opt->graph_file);
    print_cut(why, sizeof why, g);
    outcome(g->ctx, err, "--graph", opt->graph_file, false, false, "%s", why);
  } else {
    errno = 0;
    write_graph(g, f);
    snprintf(why, sizeof why, "%s, %" PRIu64 " transitions", size, g->nedges);
    finish(g, f, err, "--graph", opt->graph_file, true, false, why);
  }
}

// --tests: refused, with the true size, when its paths would write more
// than --tests-max-steps states (each step writes a whole state).
static void export_tests(Graph *g, FILE *f, FILE *err) {
  const McrtOptions *opt = g->ctx->opt;
  char why[256];
  TestPlan plan = {0};
  uint64_t held = g->bytes;
  bool whole = !g->cut;
  if (whole)
    plan = plan_tests(g, opt->tests_cover_accepting, opt->tests_max_steps);
  if (g->cut) {
    mcrt_output_discard(f, opt->tests_file);
    print_cut(why, sizeof why, g);
    outcome(g->ctx, err, "--tests", opt->tests_file, false, false, "%s", why);
  } else if (plan.steps > opt->tests_max_steps) {
    mcrt_output_discard(f, opt->tests_file);
    outcome(g->ctx, err, "--tests", opt->tests_file, false, false,
            "the paths covering the graph have %" PRIu64 " steps, more than --tests-max-steps "
            "%" PRIu64 " allows (each step writes a whole state)",
            plan.steps, opt->tests_max_steps);
  } else {
    errno = 0;
    bool replayed = write_tests(g, f, &plan, opt->tests_cover_accepting);
    snprintf(why, sizeof why, "%" PRIu64 " paths, %" PRIu64 " steps", plan.npaths, plan.steps);
    finish(g, f, err, "--tests", opt->tests_file, replayed, false, why);
  }
  free_plan(g, &plan);
  // The plan's memory is given back: the graph stays whole for --dot.
  if (whole)
    g->cut = CUT_NONE, g->bytes = held;
}

// --dot: the whole graph within --dot-max-states; past it (graphviz lays
// out a few hundred states at most), or when the graph could not be
// explored whole, the violation's path alone, or nothing when there is no
// violation with a path. Frees g's states first.
static void export_dot(Graph *g, FILE *f, FILE *err) {
  const McrtOptions *opt = g->ctx->opt;
  char why[320], size[64];
  print_size(size, sizeof size, g);
  if (!over(g, opt->dot_max_states) && !g->cut) {
    errno = 0;
    write_dot(g, f, NULL);
    snprintf(why, sizeof why, "%s, %" PRIu64 " transitions", size, g->nedges);
    finish(g, f, err, "--dot", opt->dot_file, true, false, why);
    return;
  }
  if (over(g, opt->dot_max_states))
    snprintf(why, sizeof why, "the graph has %s, more than graphviz is asked to draw "
                              "(--dot-max-states %" PRIu64 ")", size, opt->dot_max_states);
  else
    print_cut(why, sizeof why, g);
  bool path = g->cut != CUT_SIGNAL; // (a signal asks to stop)
  free_graph(g);
  *g = (Graph){.ctx = g->ctx, .sb = g->sb, .limit = opt->dot_max_states, .budget = g->budget};
  if (!path || !explore_trace(g)) {
    mcrt_output_discard(f, opt->dot_file);
    outcome(g->ctx, err, "--dot", opt->dot_file, false, false, "%s%s", why,
            !path || !g->ctx->has_violation ? ""
                                            : "; the violation has no path of at most "
                                              "--dot-max-states states to draw instead");
    return;
  }
  errno = 0;
  write_dot(g, f, why);
  finish(g, f, err, "--dot", opt->dot_file, true, true, why);
}

// The states the exploration keeps at most: --graph-max-states (or the
// --dot cap, if larger), so that a refusal gives the graph's true size up
// to there; every state for --tests, which needs the whole graph to plan
// its paths (--memory bounds them all).
static uint64_t state_limit(const McrtOptions *opt) {
  if (opt->tests_file)
    return UINT64_MAX;
  return opt->graph_max_states > opt->dot_max_states ? opt->graph_max_states
                                                     : opt->dot_max_states;
}

// What --memory leaves the export besides the search's stores, still held.
static uint64_t memory_left(const McrtCtx *ctx) {
  uint64_t memory = ctx->opt->memory, held = mcrt_accounted_bytes(ctx);
  if (memory == MCRT_UNLIMITED)
    return UINT64_MAX;
  return memory > held ? memory - held : 0;
}

void mcrt_export(McrtCtx *ctx, McrtOutputs *o, FILE *err) {
  const McrtOptions *opt = ctx->opt;
  ctx->nexported = 0;
  if (!o->graph && !o->dot && !o->tests)
    return;
  Graph g = {.ctx = ctx, .sb = ctx->state_bytes, .limit = state_limit(opt),
             .budget = memory_left(ctx)};
  mcrt_test_pause("export");
  explore(&g);
  // Each file on its own: one that fails does not keep the others back.
  if (o->graph)
    export_graph(&g, o->graph, err);
  if (o->tests)
    export_tests(&g, o->tests, err);
  if (o->dot)
    export_dot(&g, o->dot, err);
  free_graph(&g);
  o->graph = o->dot = o->tests = NULL;
}
