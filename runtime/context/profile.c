// SPDX-License-Identifier: MIT
// profile.c: where a search spends its work, per action (docs/DESIGN.md,
// "The profile"): how often each action's guard was evaluated and held,
// how many states it found first, the lines of the spec it ran, and its
// share of the CPU.
//
// Counting costs an increment per expansion (engine/search.c's
// mcrt_successors) and per successor (mcrt_emit_successor); each thread
// counts in its own context and the engine adds the workers' counts at the
// end (mcrt_profile_merge). The
// guards evaluated are not counted one by one: mc_successors evaluates
// every binding's guard once per expansion, so they are the expansions
// times the bindings (but for a parameter `x in EXPR`, whose bindings are
// the collection's elements in the state). The states an action found
// first are read off the trace log at the end, where each state records
// the rule that found it.
//
// Time is sampled (engine/search.c): one expansion in `period` is timed
// action by action, each measure weighted by the period; here the ticks
// become seconds, at the counter's rate over the search.
#include "context/context.h"

#include <stdlib.h>
#include <time.h>

// The CPU time of the process (every thread's).
static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

bool mcrt_profile_init(McrtProfile *p, const McrtModel *m) {
  *p = (McrtProfile){.countdown = 1, .period = 1};
  p->enabled = calloc(m->nactions + 1, sizeof *p->enabled);
  p->ticks = calloc(m->nactions + 1, sizeof *p->ticks);
  p->scratch = calloc(1, m->state_bytes + MCRT_SLACK);
  return p->enabled && p->ticks && p->scratch;
}

void mcrt_profile_free(McrtProfile *p) {
  free(p->enabled);
  free(p->ticks);
  free(p->scratch);
  free(p->covered);
  *p = (McrtProfile){0};
}

void mcrt_profile_merge(McrtCtx *ctx, McrtCtx *worker) {
  McrtProfile *p = &ctx->prof, *w = &worker->prof;
  p->expansions += w->expansions;
  p->timed += w->timed;
  for (uint32_t a = 0; a < ctx->model->nactions && w->enabled && w->ticks; a++) {
    p->enabled[a] += w->enabled[a];
    p->ticks[a] += w->ticks[a];
  }
  mcrt_profile_free(w);
}

void mcrt_profile_begin(McrtCtx *ctx) {
  ctx->prof.start_ticks = mcrt_ticks();
  ctx->prof.start_s = mcrt_now();
  ctx->prof.start_cpu = cpu_seconds();
}

void mcrt_profile_end(McrtCtx *ctx) {
  McrtProfile *p = &ctx->prof;
  p->end_ticks = mcrt_ticks();
  p->end_s = mcrt_now();
  p->end_cpu = cpu_seconds();
  const McrtModel *m = ctx->model;
  free(p->covered);
  p->covered = m->ncover ? malloc(m->ncover) : NULL;
  for (uint32_t k = 0; p->covered && k < m->ncover; k++)
    p->covered[k] = atomic_load_explicit(&m->covered[k], memory_order_relaxed);
}

uint64_t *mcrt_profile_new_states(const McrtCtx *ctx) {
  const McrtModel *m = ctx->model;
  if (ctx->log.count != ctx->states)
    return NULL;
  uint64_t *found = calloc(m->nactions + 1, sizeof *found);
  if (!found)
    return NULL;
  uint32_t a = 0;
  for (uint64_t id = 0; id < ctx->states; id++) {
    McrtLogRecord r = mcrt_log_get(&ctx->log, id);
    if (r.parent == MCRT_LOG_INITIAL)
      continue;
    // (the same action as the last record's, often: no search)
    const McrtRuleGroup *g = &m->actions[a];
    if (r.rule < g->first_rule || r.rule - g->first_rule >= g->nbindings)
      a = mcrt_find_group(m->actions, m->nactions, r.rule);
    if (a < m->nactions)
      found[a]++;
    else
      a = 0;
  }
  return found;
}

uint64_t mcrt_profile_tried(const McrtCtx *ctx, uint32_t action) {
  const McrtModel *m = ctx->model;
  if (m->action_steps && m->action_steps[action].per_state)
    return UINT64_MAX;
  return ctx->prof.expansions * m->actions[action].nbindings;
}

// Ticks per second: the counter's rate over the search.
static double tick_rate(const McrtProfile *p) {
  double s = p->end_s - p->start_s;
  return s > 0 && p->end_ticks > p->start_ticks ? (double)(p->end_ticks - p->start_ticks) / s : 0;
}

double mcrt_profile_seconds(const McrtCtx *ctx, uint32_t action) {
  const McrtProfile *p = &ctx->prof;
  double rate = tick_rate(p);
  return p->timed && rate > 0 ? (double)p->ticks[action] / rate : -1;
}

double mcrt_profile_cpu_seconds(const McrtCtx *ctx) {
  return ctx->prof.end_cpu - ctx->prof.start_cpu;
}
