// SPDX-License-Identifier: MIT
// ctx.c: the search context (docs/DESIGN.md, "Runtime layers"): setting up
// and freeing the stores every engine shares, what --memory counts of them,
// and paths back through the trace log.
#include "context/context.h"

#include <stdlib.h>

#define MCRT_FP_INITIAL_CAPACITY (1u << 14)

// ---------------------------------------------------------------------------
// Memory.

size_t mcrt_accounted_bytes(const McrtCtx *ctx) {
  return mcrt_fpset_bytes(&ctx->set) + mcrt_log_bytes(&ctx->log) + mcrt_queue_bytes(&ctx->queue) +
         mcrt_live_bytes(ctx->live) + ctx->engine_bytes + ctx->por_bytes;
}

// What the stores may still take under --memory (the edge table asks it
// before it grows).
static size_t room_left(void *arg) {
  const McrtCtx *ctx = arg;
  size_t used = mcrt_accounted_bytes(ctx);
  return used >= ctx->opt->memory ? 0 : ctx->opt->memory - used;
}

// ---------------------------------------------------------------------------
// Context.

bool mcrt_ctx_init(McrtCtx *ctx, const McrtModel *model, const McrtOptions *opt) {
  memset(ctx, 0, sizeof *ctx);
  ctx->model = model;
  ctx->opt = opt;
  ctx->state_bytes = model->state_bytes;
  ctx->threads = 1;
  ctx->free_from = MCRT_UNLIMITED; // (threads.c sets it; MPI's threads keep the fixed order)
  ctx->fp_bits = opt->fingerprint_bits;
  ctx->cur = calloc(1, model->state_bytes + MCRT_SLACK);
  ctx->pend_stride = model->state_bytes + MCRT_SLACK;
  ctx->pend_states = calloc(MCRT_BATCH, ctx->pend_stride);
  if (!ctx->pend_states)
    return false;
  ctx->fired = calloc(model->nactions + 1, sizeof *ctx->fired);
  ctx->bound_fired = calloc(model->nactions + 1, sizeof *ctx->bound_fired);
  ctx->reached = calloc(model->nreachables + 1, sizeof *ctx->reached);
  ctx->timeline = calloc(1, sizeof *ctx->timeline);
  if (!ctx->cur || !ctx->fired || !ctx->bound_fired || !ctx->reached || !ctx->timeline ||
      !mcrt_profile_init(&ctx->prof, model))
    return false;
  uint64_t max_rule = model->nrules > model->ninit_rules ? model->nrules : model->ninit_rules;
  mcrt_log_init(&ctx->log, max_rule ? max_rule - 1 : 0);
  mcrt_queue_init(&ctx->queue, model->state_bytes);
  // A file that cannot be created stops the search (mcrt_disk_failure).
  if (opt->disk_dir && !(ctx->disk = mcrt_disk_open(opt->disk_dir, &ctx->log, &ctx->queue)))
    return false;
  if (opt->compact_set && ctx->fp_bits == 64
          ? !mcrt_fpset_init_compact(&ctx->set, MCRT_FP_INITIAL_CAPACITY)
          : !mcrt_fpset_init(&ctx->set, ctx->fp_bits, MCRT_FP_INITIAL_CAPACITY))
    return false;
  if (mcrt_liveness_wanted(model, opt) &&
      (!(ctx->live = mcrt_live_new(model, room_left, ctx)) || !mcrt_fpset_enable_ids(&ctx->set)))
    return false;
  if (model->net && !(ctx->net = mcrt_net_new(model)))
    return false;
  if (opt->symmetry == MCRT_SYM_ON && mcrt_sym_available(model)) {
    ctx->sym = mcrt_sym_new(model, opt->sym_method);
    ctx->canon = calloc(1, model->state_bytes + MCRT_SLACK);
    if (!ctx->canon)
      return false;
  }
  if (opt->por && !(ctx->por = mcrt_por_new(ctx)))
    return false;
  // The default drops a reduction the tables rule out (por.c's futility):
  // it would only keep the threads in fixed order and from the parallel
  // commit (threads.c), for the same graph. --por on keeps it, as asked.
  if (ctx->por && opt->por_mode == MCRT_POR_AUTO &&
      (ctx->por_futile = mcrt_por_stats(ctx).futile)) {
    mcrt_por_free(ctx->por);
    ctx->por = NULL;
    ctx->por_bytes = 0;
  }
  ctx->peak_bytes = mcrt_accounted_bytes(ctx);
  return true;
}

McrtViolation *mcrt_path_violation(McrtCtx *ctx, McrtViolationKind kind, uint64_t npath) {
  McrtViolation *v = &ctx->viol;
  char message[sizeof v->message];
  memcpy(message, v->message, sizeof message);
  memset(v, 0, sizeof *v);
  memcpy(v->message, message, sizeof message);
  ctx->has_violation = true;
  ctx->stop = true;
  v->kind = kind;
  v->state = npath ? 0 : MCRT_NO_STATE; // the trace is the path
  v->loop_start = -1;
  v->path = malloc((npath + 1) * sizeof *v->path);
  if (!v->path)
    mcrt_die("out of memory");
  v->npath = npath;
  return v;
}

void mcrt_ctx_free(McrtCtx *ctx) {
  mcrt_por_free(ctx->por);
  ctx->por = NULL;
  mcrt_live_free(ctx->live);
  ctx->live = NULL;
  mcrt_net_free(ctx->net);
  ctx->net = NULL;
  free(ctx->viol.path);
  ctx->viol.path = NULL;
  mcrt_fpset_free(&ctx->set);
  mcrt_log_free(&ctx->log);
  mcrt_queue_free(&ctx->queue);
  mcrt_disk_close(ctx->disk);
  ctx->disk = NULL;
  mcrt_checkpoint_free(ctx);
  free(ctx->cur);
  free(ctx->pend_states);
  free(ctx->fired);
  free(ctx->bound_fired);
  free(ctx->reached);
  free(ctx->timeline);
  ctx->timeline = NULL;
  mcrt_profile_free(&ctx->prof);
  mcrt_sym_free(ctx->sym);
  free(ctx->canon);
  ctx->sym = NULL, ctx->canon = NULL;
  ctx->cur = NULL, ctx->pend_states = NULL, ctx->fired = NULL, ctx->reached = NULL;
  ctx->bound_fired = NULL;
}

size_t mcrt_path_to(const McrtCtx *ctx, uint64_t id, uint64_t **out) {
  size_t n = 1;
  for (uint64_t i = id; mcrt_log_get(&ctx->log, i).parent != MCRT_LOG_INITIAL;
       i = mcrt_log_get(&ctx->log, i).parent)
    n++;
  uint64_t *path = malloc(n * sizeof *path);
  if (!path)
    mcrt_die("out of memory");
  size_t k = n;
  for (uint64_t i = id;; i = mcrt_log_get(&ctx->log, i).parent) {
    McrtLogRecord r = mcrt_log_get(&ctx->log, i);
    path[--k] = r.rule;
    if (r.parent == MCRT_LOG_INITIAL)
      break;
  }
  *out = path;
  return n;
}
