// SPDX-License-Identifier: MIT
// netreport.c: the answers of a checker of a place/transition net, from
// what net.c recorded and the reachability graph edges.c recorded: the
// questions of the Model Checking Contest's StateSpace and "generic
// properties" categories. Edges are the search's transitions: one per
// (marking, enabled transition). Liveness (L4: from every reachable marking
// every transition can fire again) holds when every transition labels an
// edge of every terminal strongly connected component of the graph.
//
// Every answer is tagged:
//   exact    from the whole state space (or a witness, which is real);
//   partial  the search did not see every marking (a place's counter
//            blocked a transition, or a bound: --max-states, --memory,
//            Ctrl-C): counts and token maxima are lower bounds, a deadlock
//            found is real, dead transitions listed are a superset, a
//            yes/no that no witness settles stays unknown;
//   refused  not computed, with the reason (liveness without the graph).
#include "output/output.h"

#include <inttypes.h>
#include <stdlib.h>

// ---------------------------------------------------------------------------
// Liveness (L4) on the recorded graph.

static uint64_t edge_rule(const McrtLiveGraph *g, uint64_t e) {
  uint64_t v = 0;
  memcpy(&v, g->rules + e * g->rule_bytes, g->rule_bytes);
  return v;
}

// Tarjan's algorithm, iterative (a chain of 10^7 markings must not recurse
// on the C stack); for each terminal component (no edge leaves it), whether
// every transition labels one of its edges.
int mcrt_net_live(const McrtLiveGraph *g, uint32_t ntrans, uint32_t *not_live) {
  uint64_t n = g->nstates;
  uint32_t *idx = calloc(n + 1, sizeof *idx), *low = calloc(n + 1, sizeof *low);
  uint32_t *comp = calloc(n + 1, sizeof *comp), *stack = calloc(n + 1, sizeof *stack);
  uint32_t *fv = calloc(n + 1, sizeof *fv);
  uint64_t *fe = calloc(n + 1, sizeof *fe), *stamp = calloc(ntrans + 1, sizeof *stamp);
  bool ok = idx && low && comp && stack && fv && fe && stamp;
  int live = 1;
  uint32_t next = 1, ncomp = 0;
  uint64_t sp = 0;
  for (uint64_t root = 0; ok && root < n && live; root++) {
    if (idx[root])
      continue;
    uint64_t fp = 0;
    fv[fp] = (uint32_t)root, fe[fp] = g->start[root], fp++;
    idx[root] = low[root] = next++;
    stack[sp++] = (uint32_t)root;
    while (fp > 0 && live) {
      uint32_t v = fv[fp - 1];
      if (fe[fp - 1] < g->start[v + 1]) {
        uint32_t w = g->targets[fe[fp - 1]++];
        if (!idx[w]) {
          idx[w] = low[w] = next++;
          stack[sp++] = w;
          fv[fp] = w, fe[fp] = g->start[w], fp++;
        } else if (!comp[w] && idx[w] < low[v]) {
          low[v] = idx[w];
        }
        continue;
      }
      fp--;
      if (fp > 0 && low[v] < low[fv[fp - 1]])
        low[fv[fp - 1]] = low[v];
      if (low[v] != idx[v])
        continue;
      // v roots a component: stack[from .. sp).
      uint64_t from = sp;
      do
        from--;
      while (stack[from] != v);
      ncomp++;
      for (uint64_t i = from; i < sp; i++)
        comp[stack[i]] = ncomp;
      bool terminal = true;
      uint32_t seen = 0;
      for (uint64_t i = from; i < sp && terminal; i++) {
        uint32_t u = stack[i];
        for (uint64_t e = g->start[u]; e < g->start[u + 1]; e++) {
          if (comp[g->targets[e]] != ncomp) {
            terminal = false;
            break;
          }
          uint64_t t = edge_rule(g, e);
          if (t < ntrans && stamp[t] != ncomp)
            stamp[t] = ncomp, seen++;
        }
      }
      if (terminal && seen < ntrans) {
        live = 0;
        for (uint32_t t = 0; t < ntrans; t++)
          if (stamp[t] != ncomp) {
            *not_live = t;
            break;
          }
      }
      sp = from;
    }
  }
  if (!ok)
    live = -1;
  free(idx), free(low), free(comp), free(stack), free(fv), free(fe), free(stamp);
  return live;
}

// ---------------------------------------------------------------------------
// The answers.

typedef enum { EXACT, PARTIAL, REFUSED } Tag;
static const char *const tag_names[] = {"exact", "partial", "refused"};

typedef struct Answers {
  bool complete; // every marking seen
  const char *why_partial;
  int deadlock, one_safe, quasi_live, stable, live; // 1 TRUE, 0 FALSE, -1 unknown
  int bounded;
  uint32_t nenabled; // transitions seen enabled
  const char *live_refused;
} Answers;

// Whether transition t was enabled in some marking seen: it fired, or
// net.c saw it enabled where a counter blocked what the net allows.
static bool seen_enabled(const McrtCtx *ctx, uint32_t t) {
  return ctx->fired[t] > 0 || ctx->net->enabled[t];
}

static Answers answers(McrtCtx *ctx) {
  const McrtNet *n = ctx->model->net;
  McrtNetRun *r = ctx->net;
  Answers a = {0};
  a.complete = ctx->bound == MCRT_BOUND_NONE && !ctx->has_violation && !r->cut;
  a.why_partial = r->cut ? "a place's counter blocked a transition"
                  : ctx->bound != MCRT_BOUND_NONE ? "the search stopped at a bound"
                  : ctx->has_violation ? "the search stopped at an error"
                                       : NULL;
  a.deadlock = r->deadlocks ? 1 : a.complete ? 0 : -1;
  a.one_safe = r->max_place[r->max_place_at] > 1 ? 0 : a.complete ? 1 : -1;
  a.nenabled = 0;
  for (uint32_t t = 0; t < n->ntrans; t++)
    a.nenabled += seen_enabled(ctx, t);
  a.quasi_live = a.nenabled == n->ntrans ? 1 : a.complete ? 0 : -1;
  a.stable = r->nchanged == n->nplaces ? 0 : a.complete ? 1 : -1;
  // Bounded: a pumping sequence says no; a whole state space (finite) or
  // a proven bound for every place says yes.
  bool all_proven = true;
  for (uint32_t p = 0; p < n->nplaces; p++)
    all_proven &= n->proven[p];
  a.bounded = n->unbounded ? 0 : a.complete || all_proven ? 1 : -1;
  // Liveness: a deadlock or a dead transition settles it; otherwise the
  // terminal components of the whole graph do.
  if (n->ntrans > 0 && (r->deadlocks || a.quasi_live == 0)) {
    a.live = 0;
  } else if (n->ntrans == 0) {
    a.live = 1;
  } else if (!a.complete) {
    a.live = -1;
  } else if (r->live < 0) {
    const McrtLiveGraph *g = ctx->live && ctx->live->done ? &ctx->live->g : NULL;
    // Tarjan's arrays: five 4-byte and one 8-byte entry per state.
    size_t need = g ? (size_t)(g->nstates + 1) * 28 + (size_t)(n->ntrans + 1) * 8 : 0;
    if (!g)
      a.live_refused = "the reachability graph was not recorded (--liveness off)";
    else if (mcrt_accounted_bytes(ctx) + need > ctx->opt->memory)
      a.live_refused = "the --memory limit leaves no room for the strongly connected components";
    else if ((r->live = mcrt_net_live(g, n->ntrans, &r->not_live)) < 0)
      a.live_refused = "out of memory for the strongly connected components";
    a.live = r->live;
  } else {
    a.live = r->live;
  }
  return a;
}

static Tag count_tag(const Answers *a) { return a->complete ? EXACT : PARTIAL; }

// A yes/no answer's tag: decided (by the whole space or a witness) or not.
static Tag yn_tag(int v, const char *refused) {
  return refused ? REFUSED : v < 0 ? PARTIAL : EXACT;
}

static const char *yn(int v) { return v > 0 ? "TRUE" : v == 0 ? "FALSE" : "unknown"; }

// The firing sequence to the first deadlock, with the marking after each
// step (places that changed only).
static void print_deadlock_path(FILE *f, McrtCtx *ctx) {
  McrtNetRun *r = ctx->net;
  const McrtModel *m = ctx->model;
  uint64_t *path;
  size_t n = mcrt_path_to(ctx, r->deadlock, &path);
  uint8_t *a = calloc(1, m->state_bytes + MCRT_SLACK), *b = calloc(1, m->state_bytes + MCRT_SLACK);
  if (!a || !b) {
    free(a), free(b), free(path);
    return;
  }
  fputs("  firing sequence to it:\n", f);
  for (size_t i = 0; i < n; i++) {
    if (!mcrt_replay_step(ctx, i == 0, path[i], a, b)) {
      mcrt_clear_error(ctx);
      fputs("    (the sequence could not be replayed: this is a bug in mcgen)\n", f);
      break;
    }
    if (i == 0) {
      fputs("    initial marking:\n", f);
      mcrt_print_state(f, m, b, NULL, "      ");
    } else {
      fprintf(f, "    %zu. ", i);
      mcrt_print_rule(f, m, false, path[i]);
      fputc('\n', f);
      mcrt_print_state(f, m, b, a, "      ");
    }
    uint8_t *t = a;
    a = b, b = t;
  }
  free(a), free(b), free(path);
}

void mcrt_net_print(FILE *f, McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const McrtNet *n = m->net;
  McrtNetRun *r = ctx->net;
  Answers a = answers(ctx);
  Tag ct = count_tag(&a);
  fprintf(f, "net:           %s: %u places, %u transitions, %u arcs (%u inhibitor)\n", n->id,
          n->nplaces, n->ntrans, n->narcs, n->ninhibitor);
  if (!a.complete)
    fprintf(f, "net answers:   partial (%s): counts and token maxima are lower bounds, a "
               "deadlock found is real, dead transitions listed may fire after all\n",
            a.why_partial);
  if (r->cut)
    fprintf(f, "               transition %s was blocked: place %s would exceed its counter's "
               "capacity %" PRId64 "\n",
            m->actions[r->cut_trans].name, m->vars[r->cut_place].name,
            n->capacity[r->cut_place]);
  fprintf(f, "  states                  %" PRIu64 " (%s)\n", ctx->states, tag_names[ct]);
  fprintf(f, "  edges                   %" PRIu64 " (%s; one per marking and transition "
             "enabled in it)\n", ctx->transitions, tag_names[ct]);
  fprintf(f, "  max tokens in a place   %" PRId64 " (%s; place %s)\n",
          r->max_place[r->max_place_at], tag_names[ct],
          n->nplaces ? m->vars[r->max_place_at].name : "-");
  fprintf(f, "  max tokens in a marking %" PRId64 " (%s)\n", r->max_sum, tag_names[ct]);
  fprintf(f, "  deadlock                %s (%s", yn(a.deadlock), tag_names[yn_tag(a.deadlock, NULL)]);
  if (r->deadlocks)
    fprintf(f, "; %" PRIu64 " deadlock marking%s", r->deadlocks, r->deadlocks == 1 ? "" : "s");
  fputs(")\n", f);
  fprintf(f, "  bounded                 %s (%s", yn(a.bounded), tag_names[yn_tag(a.bounded, NULL)]);
  if (n->unbounded)
    fprintf(f, "; %s", n->unbounded);
  fputs(")\n", f);
  fprintf(f, "  one-safe                %s (%s)\n", yn(a.one_safe), tag_names[yn_tag(a.one_safe, NULL)]);
  fprintf(f, "  quasi-live              %s (%s", yn(a.quasi_live),
          tag_names[yn_tag(a.quasi_live, NULL)]);
  if (a.nenabled < n->ntrans) {
    fprintf(f, "; %s transitions: ", a.complete ? "dead" : "not seen enabled");
    uint32_t shown = 0;
    for (uint32_t t = 0; t < n->ntrans && shown < 20; t++)
      if (!seen_enabled(ctx, t))
        fprintf(f, "%s%s", shown++ ? ", " : "", m->actions[t].name);
    if (n->ntrans - a.nenabled > shown)
      fprintf(f, ", ... (%u in all)", n->ntrans - a.nenabled);
  }
  fputs(")\n", f);
  fprintf(f, "  stable place            %s (%s", yn(a.stable), tag_names[yn_tag(a.stable, NULL)]);
  if (a.stable > 0) {
    fputs("; ", f);
    uint32_t shown = 0;
    for (uint32_t p = 0; p < n->nplaces && shown < 20; p++)
      if (!r->changed[p])
        fprintf(f, "%s%s", shown++ ? ", " : "", m->vars[p].name);
    if (n->nplaces - r->nchanged > shown)
      fprintf(f, ", ... (%u in all)", n->nplaces - r->nchanged);
  }
  fputs(")\n", f);
  fprintf(f, "  live                    %s (%s", yn(a.live), tag_names[yn_tag(a.live, a.live_refused)]);
  if (a.live_refused)
    fprintf(f, ": %s", a.live_refused);
  else if (a.live == 0 && r->deadlocks)
    fputs("; a deadlock is reachable", f);
  else if (a.live == 0 && a.quasi_live == 0)
    fputs("; a transition is dead", f);
  else if (a.live == 0 && r->live == 0)
    fprintf(f, "; %s cannot fire again from some reachable marking",
            m->actions[r->not_live].name);
  fputs(")\n", f);
  if (r->deadlock != MCRT_NO_STATE && !ctx->opt->quiet) {
    fprintf(f, "deadlock:      the first one found\n");
    print_deadlock_path(f, ctx);
  }
}

void mcrt_net_print_mcc(FILE *f, McrtCtx *ctx) {
  Answers a = answers(ctx);
  McrtNetRun *r = ctx->net;
  const char *tech = "TECHNIQUES EXPLICIT";
  if (a.complete) {
    fprintf(f, "STATE_SPACE STATES %" PRIu64 " %s\n", ctx->states, tech);
    fprintf(f, "STATE_SPACE TRANSITIONS %" PRIu64 " %s\n", ctx->transitions, tech);
    fprintf(f, "STATE_SPACE MAX_TOKEN_IN_PLACE %" PRId64 " %s\n", r->max_place[r->max_place_at],
            tech);
    fprintf(f, "STATE_SPACE MAX_TOKEN_PER_MARKING %" PRId64 " %s\n", r->max_sum, tech);
  } else {
    fputs("STATE_SPACE CANNOT_COMPUTE\n", f);
  }
  static const char *const names[] = {"ReachabilityDeadlock", "OneSafe", "QuasiLiveness",
                                      "StableMarking", "Liveness"};
  int v[] = {a.deadlock, a.one_safe, a.quasi_live, a.stable, a.live};
  for (int i = 0; i < 5; i++) {
    if (v[i] < 0)
      fprintf(f, "FORMULA %s CANNOT_COMPUTE\n", names[i]);
    else
      fprintf(f, "FORMULA %s %s %s\n", names[i], v[i] ? "TRUE" : "FALSE", tech);
  }
}

static void json_yn(FILE *f, const char *key, int v, const char *refused) {
  fprintf(f, ", \"%s\": {\"value\": %s, \"tag\": \"%s\"", key,
          v > 0 ? "true" : v == 0 ? "false" : "null", tag_names[yn_tag(v, refused)]);
  if (refused) {
    fputs(", \"reason\": ", f);
    mcrt_print_json_string(f, refused);
  }
  fputc('}', f);
}

void mcrt_net_report_json(FILE *f, McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const McrtNet *n = m->net;
  McrtNetRun *r = ctx->net;
  Answers a = answers(ctx);
  const char *ct = tag_names[count_tag(&a)];
  fputs(",\n \"net\": {\"id\": ", f);
  mcrt_print_json_string(f, n->id);
  fprintf(f, ", \"places\": %u, \"transitions\": %u, \"arcs\": %u, \"inhibitor_arcs\": %u", n->nplaces,
          n->ntrans, n->narcs, n->ninhibitor);
  fprintf(f, ", \"complete\": %s, \"partial_reason\": ", a.complete ? "true" : "false");
  if (a.why_partial)
    mcrt_print_json_string(f, a.why_partial);
  else
    fputs("null", f);
  fprintf(f, ", \"states\": {\"value\": %" PRIu64 ", \"tag\": \"%s\"}", ctx->states, ct);
  fprintf(f, ", \"edges\": {\"value\": %" PRIu64 ", \"tag\": \"%s\"}", ctx->transitions, ct);
  fprintf(f, ", \"max_token_in_place\": {\"value\": %" PRId64 ", \"tag\": \"%s\"}",
          r->max_place[r->max_place_at], ct);
  fprintf(f, ", \"max_token_per_marking\": {\"value\": %" PRId64 ", \"tag\": \"%s\"}", r->max_sum,
          ct);
  json_yn(f, "deadlock", a.deadlock, NULL);
  fputs(", \"deadlock_sequence\": ", f);
  if (r->deadlock != MCRT_NO_STATE) {
    uint64_t *path;
    size_t np = mcrt_path_to(ctx, r->deadlock, &path);
    fputc('[', f);
    for (size_t i = 1; i < np; i++) {
      fputs(i > 1 ? ", " : "", f);
      mcrt_print_json_string(f, m->actions[path[i]].name);
    }
    fputc(']', f);
    free(path);
  } else {
    fputs("null", f);
  }
  json_yn(f, "bounded", a.bounded, NULL);
  if (n->unbounded) {
    fputs(", \"unbounded_witness\": ", f);
    mcrt_print_json_string(f, n->unbounded);
  }
  fputs(", \"place_bounds\": [", f);
  for (uint32_t p = 0; p < n->nplaces; p++) {
    // A proven bound, else the most tokens seen when every marking was.
    int64_t b = n->proven[p] ? n->capacity[p] : a.complete ? r->max_place[p] : -1;
    fprintf(f, "%s%" PRId64, p ? ", " : "", b);
  }
  fputc(']', f);
  json_yn(f, "one_safe", a.one_safe, NULL);
  json_yn(f, "quasi_live", a.quasi_live, NULL);
  fputs(", \"dead_transitions\": [", f);
  for (uint32_t t = 0, k = 0; t < n->ntrans; t++)
    if (!seen_enabled(ctx, t)) {
      fputs(k++ ? ", " : "", f);
      mcrt_print_json_string(f, m->actions[t].name);
    }
  fputc(']', f);
  json_yn(f, "stable_marking", a.stable, NULL);
  fputs(", \"stable_places\": [", f);
  for (uint32_t p = 0, k = 0; p < n->nplaces && a.stable >= 0; p++)
    if (!r->changed[p]) {
      fputs(k++ ? ", " : "", f);
      mcrt_print_json_string(f, m->vars[p].name);
    }
  fputc(']', f);
  json_yn(f, "live", a.live, a.live_refused);
  fputc('}', f);
}
