// SPDX-License-Identifier: MIT
// replay.c: running the rules of a trace again (the output layer: report.c
// prints what it replays), and, under symmetry reduction, turning the
// logged path between canonical states into a genuine run.
#include "context/context.h"

#include <stdlib.h>

static void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p)
    mcrt_die("out of memory");
  return p;
}

bool mcrt_replay_step(McrtCtx *ctx, bool init, uint64_t rule, const uint8_t *a, uint8_t *b) {
  const McrtModel *m = ctx->model;
  mcrt_clear_error(ctx);
  memset(b, 0, ctx->state_bytes + MCRT_SLACK);
  ctx->replaying = true;
  bool ok = init ? m->apply_init(ctx, rule, b) : m->apply_rule(ctx, rule, a, b);
  ctx->replaying = false;
  return ok && !mcrt_failed(ctx);
}

// ---------------------------------------------------------------------------
// Traces. The log records, for each canonical state, the rule that led from
// its canonical parent to a state whose canonical form it is. Replaying
// those rules from the canonical states would print states that jump
// between renamings. Instead: rebuild the chain of canonical states c_0..c_n,
// then walk from the real initial state s_0 (the init rule's own output) and
// at each step take the first rule enabled in s_i whose successor's
// canonical form is c_{i+1} (the logged rule first, so that renamings only
// appear where needed). One exists: s_i = h(c_i) for some h in G, and h maps
// the logged step out of c_i to a step out of s_i. Every printed step is then
// a real step of the spec from the state printed before it.

// Whether rule turns a into a state whose canonical form is want (the
// successor is left in b).
static bool leads_to(McrtCtx *ctx, uint64_t rule, const uint8_t *a, uint8_t *b, uint8_t *cb,
                     const uint8_t *want) {
  if (!mcrt_replay_step(ctx, false, rule, a, b))
    return false;
  mcrt_sym_canon(ctx->sym, b, cb);
  return memcmp(cb, want, ctx->state_bytes) == 0;
}

// Whether rule fails from a the way the search's failing step did (the
// same kind of failure at the same place in the spec).
static bool fails_alike(McrtCtx *ctx, uint64_t rule, const uint8_t *a, uint8_t *b,
                        const McrtViolation *want) {
  if (mcrt_replay_step(ctx, false, rule, a, b) || !mcrt_failed(ctx))
    return false;
  const McrtError *e = &ctx->err;
  return e->is_assert == (want->kind == MCRT_VIOL_ASSERT) && e->line == want->line &&
         e->col == want->col &&
         (e->file == want->file || (e->file && want->file && !strcmp(e->file, want->file)));
}

bool mcrt_sym_realize(McrtCtx *ctx, uint64_t *path, size_t n, bool has_step, uint64_t *step_rule) {
  const McrtModel *m = ctx->model;
  size_t bytes = ctx->state_bytes + MCRT_SLACK;
  uint8_t *canon = xmalloc(bytes), *cur = xmalloc(bytes), *next = xmalloc(bytes),
          *c2 = xmalloc(bytes), *cb = xmalloc(bytes), *real = xmalloc(bytes);
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    // c_i, from c_{i-1} and the logged rule.
    if (!mcrt_replay_step(ctx, i == 0, path[i], canon, next)) {
      ok = false;
      break;
    }
    mcrt_sym_canon(ctx->sym, next, c2);
    memcpy(canon, c2, ctx->state_bytes);
    if (i == 0) {
      memcpy(real, next, ctx->state_bytes);
      continue;
    }
    // s_i: the logged rule if it fits, else the first that does.
    uint64_t r = path[i];
    bool found = leads_to(ctx, r, real, cur, cb, canon);
    for (uint64_t q = 0; !found && q < m->nrules; q++)
      if (q != path[i] && leads_to(ctx, q, real, cur, cb, canon))
        found = true, r = q;
    if (!found) {
      ok = false;
      break;
    }
    path[i] = r;
    memcpy(real, cur, ctx->state_bytes);
  }
  if (ok && has_step && n > 0) {
    // The failing step: a rule that fails at the same place from s_n.
    const McrtViolation *want = &ctx->viol;
    bool found = fails_alike(ctx, *step_rule, real, cur, want);
    for (uint64_t q = 0; !found && q < m->nrules; q++)
      if (q != *step_rule && fails_alike(ctx, q, real, cur, want))
        found = true, *step_rule = q;
    ok = found;
  }
  mcrt_clear_error(ctx);
  free(canon), free(cur), free(next), free(c2), free(cb), free(real);
  return ok;
}
