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
// or a test generator reads, not for the largest models.
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { ST_INITIAL = 1, ST_ACCEPTING = 2, ST_DEADLOCK = 4, ST_EXPANDED = 8, ST_ON_PATH = 16 };

typedef struct Edge {
  uint32_t from, to;
  uint64_t rule;
  bool on_path; // --dot: a step of the violation's path
} Edge;

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
} Graph;

static void *grow(void *p, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap)
    return p;
  uint64_t c = *cap ? *cap : 64;
  while (c < need)
    c *= 2;
  p = realloc(p, c * size);
  if (!p)
    mcrt_die("out of memory writing the graph");
  *cap = c;
  return p;
}

static uint64_t hash_state(const uint8_t *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ s[i]) * 1099511628211u;
  return h;
}

// The index of state s, added when new (*fresh then true); UINT64_MAX when
// the graph is full (--max-states).
static uint64_t intern(Graph *g, const uint8_t *s, bool *fresh) {
  if (2 * (g->n + 1) > g->tcap) {
    uint64_t tcap = g->tcap ? g->tcap * 2 : 1024;
    uint32_t *t = calloc(tcap, sizeof *t);
    if (!t)
      mcrt_die("out of memory writing the graph");
    for (uint64_t i = 0; i < g->n; i++) {
      uint64_t j = hash_state(g->states + i * g->sb, g->sb) & (tcap - 1);
      while (t[j])
        j = (j + 1) & (tcap - 1);
      t[j] = (uint32_t)(i + 1);
    }
    free(g->table);
    g->table = t, g->tcap = tcap;
  }
  uint64_t j = hash_state(s, g->sb) & (g->tcap - 1);
  while (g->table[j]) {
    uint64_t i = g->table[j] - 1;
    if (!memcmp(g->states + i * g->sb, s, g->sb)) {
      *fresh = false;
      return i;
    }
    j = (j + 1) & (g->tcap - 1);
  }
  if (g->n >= g->ctx->opt->max_states || g->n >= UINT32_MAX - 1)
    return UINT64_MAX;
  uint64_t cap = g->cap;
  g->states = grow(g->states, &cap, g->n + 1, g->sb);
  cap = g->cap;
  g->flags = grow(g->flags, &cap, g->n + 1, 1);
  cap = g->cap;
  g->depth = grow(g->depth, &cap, g->n + 1, sizeof *g->depth);
  g->init_rule = grow(g->init_rule, &g->cap, g->n + 1, sizeof *g->init_rule);
  memcpy(g->states + g->n * g->sb, s, g->sb);
  g->flags[g->n] = 0;
  g->table[j] = (uint32_t)(g->n + 1);
  *fresh = true;
  return g->n++;
}

static void add_edge(Graph *g, uint64_t from, uint64_t to, uint64_t rule) {
  g->edges = grow(g->edges, &g->ecap, g->nedges + 1, sizeof *g->edges);
  g->edges[g->nedges++] = (Edge){(uint32_t)from, (uint32_t)to, rule, false};
}

// The canonical form of s (itself without symmetry) in out.
static void canon(McrtCtx *ctx, const uint8_t *s, uint8_t *out) {
  if (ctx->sym)
    mcrt_sym_canon(ctx->sym, s, out);
  else
    memcpy(out, s, ctx->state_bytes);
}

// Explores the graph. False after a run-time error of the spec (message on err).
static bool explore(Graph *g, FILE *err) {
  McrtCtx *ctx = g->ctx;
  const McrtModel *m = ctx->model;
  size_t buf = ctx->state_bytes + MCRT_SLACK;
  uint8_t *next = calloc(1, buf), *c = calloc(1, buf), *cur = calloc(1, buf);
  if (!next || !c || !cur)
    mcrt_die("out of memory writing the graph");
  bool ok = true;
  for (uint64_t r = 0; r < m->ninit_rules; r++) {
    if (!mcrt_replay_step(ctx, true, r, NULL, next)) {
      if (mcrt_failed(ctx))
        goto failed;
      continue;
    }
    canon(ctx, next, c);
    bool fresh;
    uint64_t id = intern(g, c, &fresh);
    if (id == UINT64_MAX) {
      g->bound = "max-states";
      break;
    }
    if (fresh)
      g->depth[id] = 0, g->init_rule[id] = r;
    g->flags[id] |= ST_INITIAL;
  }
  for (uint64_t i = 0; i < g->n; i++) {
    memcpy(cur, g->states + i * g->sb, g->sb);
    if (m->is_accepting) {
      bool acc = m->is_accepting(ctx, cur);
      if (mcrt_failed(ctx))
        goto failed;
      if (acc)
        g->flags[i] |= ST_ACCEPTING;
    }
    if (m->has_constraint && !m->within_constraints(ctx, cur))
      continue;
    bool any = false;
    for (uint64_t r = 0; r < m->nrules; r++) {
      if (!mcrt_replay_step(ctx, false, r, cur, next)) {
        if (mcrt_failed(ctx))
          goto failed;
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
      if (id == UINT64_MAX) {
        g->bound = "max-states";
        continue;
      }
      if (fresh)
        g->depth[id] = g->depth[i] + 1;
      add_edge(g, i, id, r);
    }
    if (g->depth[i] < ctx->opt->max_depth)
      g->flags[i] |= ST_EXPANDED;
    if (!any && !(m->has_terminal && m->is_terminal(ctx, cur)))
      g->flags[i] |= ST_DEADLOCK;
  }
  goto done;
failed:
  fprintf(err, "error: a run-time error of the spec while exploring the graph for the export "
               "(the trace above, if any, shows it)\n");
  mcrt_clear_error(ctx);
  ok = false;
done:
  free(next), free(c), free(cur);
  return ok;
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

// Marks the steps of the violation's path (the rules from its initial
// state, followed through the graph).
static void mark_path(Graph *g) {
  McrtCtx *ctx = g->ctx;
  if (!ctx->has_violation)
    return;
  McrtViolation *v = &ctx->viol;
  uint64_t *path = v->path, n = v->npath;
  uint64_t *own = NULL;
  if (!path && v->state != MCRT_NO_STATE) {
    n = mcrt_path_to(ctx, v->state, &own);
    path = own;
  }
  if (!path || !n) {
    free(own);
    return;
  }
  uint64_t at = UINT64_MAX;
  for (uint64_t i = 0; i < g->n; i++)
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

static void write_dot(Graph *g, FILE *f) {
  McrtCtx *ctx = g->ctx;
  const McrtModel *m = ctx->model;
  mark_path(g);
  fputs("digraph ", f);
  dot_string(f, m->name);
  fputs(" {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
        "  edge [fontname=\"monospace\", fontsize=9];\n"
        "  init [shape=point];\n", f);
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

static void path_push(Path *p, uint64_t e) {
  p->edges = grow(p->edges, &p->cap, p->len + 1, sizeof *p->edges);
  p->edges[p->len++] = e;
}

// The path from an initial state to s along the BFS parents.
static Path path_to(Graph *g, const uint64_t *parent, uint64_t s) {
  Path p = {0};
  uint64_t n = 0;
  for (uint64_t t = s; parent[t] != UINT64_MAX; t = g->edges[parent[t]].from)
    n++;
  p.edges = malloc((n + 1) * sizeof *p.edges);
  if (!p.edges)
    mcrt_die("out of memory writing the tests");
  p.cap = n + 1, p.len = n;
  uint64_t t = s;
  for (uint64_t k = n; k-- > 0;) {
    p.edges[k] = parent[t];
    t = g->edges[parent[t]].from;
  }
  p.start = t;
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
// large to write can be refused with its true size.
typedef struct TestPlan {
  Path *paths;
  uint64_t npaths, steps; // steps: the states written, over all paths
  uint64_t ncovered, goals, nreached;
} TestPlan;

// Paths covering every transition (cover_accepting false) or every
// accepting state: each starts at an initial state by a shortest path to
// the first element not covered yet, goes on through uncovered transitions
// while there are some, then ends by a shortest path to an accepting state
// when one is reachable.
static TestPlan plan_tests(Graph *g, bool cover_accepting) {
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
  TestPlan plan = {0};
  uint64_t cap = 0, next_edge = 0, next_state = 0;
  for (uint64_t i = 0; i < g->n; i++)
    plan.goals += cover_accepting ? (g->flags[i] & ST_ACCEPTING) != 0 : 0;
  for (;;) {
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
      path_push(&p, next_edge);
      for (uint64_t k = 0; k < p.len; k++)
        covered[p.edges[k]] = true;
      // On through transitions not covered yet.
      for (;;) {
        uint64_t s = path_end(g, &p), e = out_first[s];
        while (e < g->nedges && g->edges[e].from == s && covered[e])
          e++;
        if (e >= g->nedges || g->edges[e].from != s)
          break;
        path_push(&p, e);
        covered[e] = true;
      }
    }
    // Then to an accepting state, if one is reachable and this is not one.
    for (uint64_t s = path_end(g, &p); !(g->flags[s] & ST_ACCEPTING) && to_acc[s] != UINT64_MAX;
         s = path_end(g, &p))
      path_push(&p, to_acc[s]);
    reached[p.start] = true;
    for (uint64_t k = 0; k < p.len; k++) {
      covered[p.edges[k]] = true;
      reached[g->edges[p.edges[k]].to] = true;
    }
    plan.paths = grow(plan.paths, &cap, plan.npaths + 1, sizeof *plan.paths);
    plan.paths[plan.npaths++] = p;
    plan.steps += p.len + 1;
  }
  for (uint64_t e = 0; e < g->nedges; e++)
    plan.ncovered += covered[e];
  for (uint64_t i = 0; i < g->n; i++)
    plan.nreached += reached[i] && (g->flags[i] & ST_ACCEPTING);
  free(parent), free(to_acc), free(covered), free(reached), free(out_first);
  return plan;
}

static void free_plan(TestPlan *plan) {
  for (uint64_t i = 0; i < plan->npaths; i++)
    free(plan->paths[i].edges);
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
// The entry point
//

static bool write_file(const char *path, FILE *err, Graph *g,
                       bool (*write)(Graph *g, FILE *f, const void *arg), const void *arg) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(err, "error: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  bool ok = write(g, f, arg);
  if (fclose(f) != 0) {
    fprintf(err, "error: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  if (!ok)
    fprintf(err, "error: a path of %s does not replay (an internal error)\n", path);
  return ok;
}

static bool graph_writer(Graph *g, FILE *f, const void *arg) {
  (void)arg;
  write_graph(g, f);
  return true;
}

static bool dot_writer(Graph *g, FILE *f, const void *arg) {
  (void)arg;
  write_dot(g, f);
  return true;
}

typedef struct TestsArg {
  const TestPlan *plan;
  bool cover_accepting;
} TestsArg;

static bool tests_writer(Graph *g, FILE *f, const void *arg) {
  const TestsArg *t = arg;
  return write_tests(g, f, t->plan, t->cover_accepting);
}

// --tests: refused, with the true size, when its paths would write more
// than --tests-max-steps states (each step writes a whole state).
static bool export_tests(Graph *g, FILE *err, const McrtOptions *opt) {
  TestPlan plan = plan_tests(g, opt->tests_cover_accepting);
  bool ok;
  if (plan.steps > opt->tests_max_steps) {
    fprintf(err,
            "error: --tests %s: the %" PRIu64 " paths covering the graph have %" PRIu64
            " steps, more than --tests-max-steps %" PRIu64 " allows (each step writes a "
            "whole state); nothing written\n",
            opt->tests_file, plan.npaths, plan.steps, opt->tests_max_steps);
    ok = false;
  } else {
    TestsArg arg = {&plan, opt->tests_cover_accepting};
    ok = write_file(opt->tests_file, err, g, tests_writer, &arg);
  }
  free_plan(&plan);
  return ok;
}

bool mcrt_export(McrtCtx *ctx, FILE *err) {
  const McrtOptions *opt = ctx->opt;
  if (!opt->graph_file && !opt->dot_file && !opt->tests_file)
    return true;
  Graph g = {.ctx = ctx, .sb = ctx->state_bytes};
  if (!explore(&g, err)) {
    free(g.states), free(g.flags), free(g.depth), free(g.init_rule), free(g.table), free(g.edges);
    return false;
  }
  // Each file on its own: one that fails does not keep the others back.
  bool ok = true;
  if (opt->graph_file)
    ok &= write_file(opt->graph_file, err, &g, graph_writer, NULL);
  if (opt->tests_file)
    ok &= export_tests(&g, err, opt);
  if (opt->dot_file && g.n > opt->dot_max_states) {
    fprintf(err,
            "error: --dot %s: the graph has %" PRIu64 "%s states, more than graphviz is "
            "asked to draw (--dot-max-states %" PRIu64 "); nothing written\n",
            opt->dot_file, g.n, g.bound ? " or more" : "", opt->dot_max_states);
    ok = false;
  } else if (opt->dot_file) {
    ok &= write_file(opt->dot_file, err, &g, dot_writer, NULL);
  }
  free(g.states), free(g.flags), free(g.depth), free(g.init_rule), free(g.table), free(g.edges);
  return ok;
}
