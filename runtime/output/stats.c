// SPDX-License-Identifier: MIT
// stats.c: what the report says of a run besides its verdict and counts
// (docs/DESIGN.md, "The --report JSON schema"): every property with its
// status, the profile per action (context/profile.c's counts and
// samples), the spec's statements the search ran (coverage) and its
// course over time (context/timeline.c).
#include "output/output.h"

#include <stdlib.h>

// ---------------------------------------------------------------------------
// Properties and their status.

// Whether the safety search saw the whole graph: no bound stopped it, and
// no violation (but a liveness one, or a reachable never reached, which
// come after a whole search).
static bool safety_whole(const McrtCtx *ctx, const McrtViolation *v) {
  if (ctx->bound != MCRT_BOUND_NONE && ctx->bound_phase == MCRT_PHASE_SEARCH)
    return false;
  return !ctx->has_violation || v->kind == MCRT_VIOL_LIVENESS || v->kind == MCRT_VIOL_REACHABLE;
}

static void string_or_null(FILE *f, const char *s) {
  if (s)
    mcrt_print_json_string(f, s);
  else
    fputs("null", f);
}

static void property_json(FILE *f, const char **sep, const char *kind, const char *name,
                          const char *file, int line, const char *status) {
  fprintf(f, "%s{\"kind\": \"%s\", \"name\": ", *sep, kind);
  string_or_null(f, name);
  fputs(", \"file\": ", f);
  string_or_null(f, file);
  fprintf(f, ", \"line\": %d, \"status\": \"%s\"}", line, status);
  *sep = ", ";
}

// A safety property: violated by the violation shown, holds after a whole
// search, else no verdict.
static const char *safety_status(const McrtCtx *ctx, const McrtViolation *v, bool violated) {
  return violated ? "violated" : safety_whole(ctx, v) ? "holds" : "no-verdict";
}

static const char *liveness_status_of(const McrtCtx *ctx, const McrtViolation *v,
                                      const char *name) {
  if (ctx->has_violation && v->kind == MCRT_VIOL_LIVENESS && v->name &&
      !strncmp(v->name, name, strlen(name)) && (!v->name[strlen(name)] || v->name[strlen(name)] == '('))
    return "violated";
  if (!mcrt_liveness_done(ctx))
    return ctx->live ? "no-verdict" : "not-checked";
  return ctx->has_violation ? "no-verdict" : "holds";
}

static void print_properties_json(FILE *f, const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const McrtViolation *v = mcrt_shown_violation(ctx);
  bool any = ctx->has_violation;
  const char *sep = "";
  fputs(",\n \"property_status\": [", f);
  for (uint32_t i = 0; i < m->ninvariants; i++)
    property_json(f, &sep, "invariant", m->invariants[i].name, m->invariants[i].file,
                  m->invariants[i].line,
                  safety_status(ctx, v, any && v->kind == MCRT_VIOL_INVARIANT &&
                                            v->name && !strcmp(v->name, m->invariants[i].name)));
  for (uint32_t i = 0; i < m->nreachables; i++)
    property_json(f, &sep, "reachable", m->reachables[i].name, m->reachables[i].file,
                  m->reachables[i].line,
                  ctx->reached[i]          ? "reached"
                  : safety_whole(ctx, v) || (any && v->kind == MCRT_VIOL_REACHABLE)
                      ? "not-reached"
                      : "no-verdict");
  for (uint32_t i = 0; i < m->nproperties; i++)
    property_json(f, &sep, "property", m->properties[i].name, m->properties[i].file,
                  m->properties[i].line, liveness_status_of(ctx, v, m->properties[i].name));
  if (ctx->opt->deadlock)
    property_json(f, &sep, "deadlock-freedom", NULL, NULL, 0,
                  safety_status(ctx, v, any && v->kind == MCRT_VIOL_DEADLOCK));
  property_json(f, &sep, "no-runtime-error", NULL, NULL, 0,
                safety_status(ctx, v, any && (v->kind == MCRT_VIOL_ASSERT ||
                                              v->kind == MCRT_VIOL_RUNTIME_ERROR)));
  fputc(']', f);
}

// ---------------------------------------------------------------------------
// The profile.

static void print_count(FILE *f, const char *name, uint64_t v) {
  fprintf(f, ", \"%s\": ", name);
  if (v == UINT64_MAX)
    fputs("null", f);
  else
    fprintf(f, "%llu", (unsigned long long)v);
}

static void print_action_json(FILE *f, const McrtCtx *ctx, uint32_t a, const uint64_t *found,
                              double cpu) {
  const McrtRuleGroup *g = &ctx->model->actions[a];
  fputs(a ? ",\n   {\"name\": " : "\n   {\"name\": ", f);
  mcrt_print_json_string(f, g->name);
  fprintf(f, ", \"line\": %d", g->line);
  print_count(f, "fired", ctx->fired[a]);
  print_count(f, "new_states", found ? found[a] : UINT64_MAX);
  print_count(f, "tried", mcrt_profile_tried(ctx, a));
  print_count(f, "enabled", ctx->prof.enabled ? ctx->prof.enabled[a] : UINT64_MAX);
  double s = mcrt_profile_seconds(ctx, a);
  if (s >= 0 && cpu > 0)
    fprintf(f, ", \"cpu_s\": %.6f, \"cpu_share\": %.6f}", s, s / cpu);
  else
    fputs(", \"cpu_s\": null, \"cpu_share\": null}", f);
}

static void print_profile_json(FILE *f, const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const McrtProfile *p = &ctx->prof;
  double cpu = mcrt_profile_cpu_seconds(ctx);
  fprintf(f, ",\n \"profile\": {\"expansions\": %llu, \"timed_expansions\": %llu, \"cpu_s\": %.6f, "
             "\"actions\": [",
          (unsigned long long)p->expansions, (unsigned long long)p->timed, cpu);
  uint64_t *found = mcrt_profile_new_states(ctx);
  for (uint32_t a = 0; a < m->nactions; a++)
    print_action_json(f, ctx, a, found, cpu);
  free(found);
  fputs("]}", f);
}

// ---------------------------------------------------------------------------
// Coverage: the spec's lines that hold statements, run or not.

static int compare_lines(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// Line L is run when a statement on it ran: bit 0 of seen[L]; bit 1 when
// it holds a statement at all.
static void print_coverage_json(FILE *f, const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  const uint8_t *run = ctx->prof.covered;
  fputs(",\n \"coverage\": ", f);
  if (!m->ncover || !run) {
    fputs("null", f);
    return;
  }
  uint32_t *lines = malloc(m->ncover * sizeof *lines * 2);
  if (!lines)
    mcrt_die("out of memory");
  uint32_t nrun = 0;
  for (uint32_t k = 0; k < m->ncover; k++) {
    lines[2 * k] = m->cover_lines[k];
    lines[2 * k + 1] = run[k] != 0;
    nrun += run[k] != 0;
  }
  qsort(lines, m->ncover, 2 * sizeof *lines, compare_lines);
  fprintf(f, "{\"statements\": %u, \"statements_run\": %u, \"lines\": [", m->ncover, nrun);
  for (uint32_t k = 0; k < m->ncover;) {
    uint32_t line = lines[2 * k], any = 0;
    for (; k < m->ncover && lines[2 * k] == line; k++)
      any |= lines[2 * k + 1];
    fprintf(f, "%s[%u, %s]", line == lines[0] ? "" : ", ", line, any ? "true" : "false");
  }
  fputs("]}", f);
  free(lines);
}

// ---------------------------------------------------------------------------
// The search's course over time.

static void print_timeline_json(FILE *f, const McrtCtx *ctx) {
  const McrtTimeline *tl = ctx->timeline;
  fputs(",\n \"timeline\": ", f);
  if (!tl) {
    fputs("null", f);
    return;
  }
  fprintf(f, "{\"interval_s\": %.3f, \"columns\": [\"t\", \"states\", \"transitions\", "
             "\"frontier\", \"depth\", \"memory_bytes\"], \"samples\": [",
          tl->every);
  for (uint32_t i = 0; i < tl->n; i++) {
    const McrtSample *s = &tl->s[i];
    fprintf(f, "%s[%.3f, %llu, %llu, %llu, %llu, %llu]", i ? ", " : "", s->t,
            (unsigned long long)s->states, (unsigned long long)s->transitions,
            (unsigned long long)s->frontier, (unsigned long long)s->depth,
            (unsigned long long)s->memory);
  }
  fputs("]}", f);
}

void mcrt_stats_json(FILE *f, const McrtCtx *ctx) {
  print_properties_json(f, ctx);
  print_profile_json(f, ctx);
  print_coverage_json(f, ctx);
  print_timeline_json(f, ctx);
}
