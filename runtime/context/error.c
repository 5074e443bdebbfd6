// SPDX-License-Identifier: MIT
// error.c: the error slot generated code fills when an action fails (a
// run-time error or a failed assert: mcrt.h), and stopping a run at a
// bound. Apart from ctx.c so that every file of the context layer may
// call it (por.c asks whether a guard failed) without a circle of calls.
#include "context/context.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------
// The error slot (called by generated code).

// A message cut to fit its buffer (n bytes written of `want`) ends on a
// whole UTF-8 character: a sequence the cut split is dropped.
static void cut_at_char(char *msg, size_t n, int want) {
  if (want < 0 || (size_t)want < n || n < 2)
    return;
  size_t end = n - 1, lead = end;
  while (lead > 0 && end - lead < 4 && ((unsigned char)msg[lead - 1] & 0xc0) == 0x80)
    lead--;
  if (lead == 0 || ((unsigned char)msg[lead - 1] & 0xc0) != 0xc0)
    return; // ASCII before the continuation bytes, or no sequence at all
  unsigned char c = (unsigned char)msg[lead - 1];
  size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
  if (end - (lead - 1) < len)
    msg[lead - 1] = 0;
}

void mcrt_runtime_error(McrtCtx *ctx, const char *file, int line, int col, const char *fmt, ...) {
  if (ctx->err.set)
    return;
  va_list ap;
  va_start(ap, fmt);
  int want = vsnprintf(ctx->err.message, sizeof ctx->err.message, fmt, ap);
  va_end(ap);
  cut_at_char(ctx->err.message, sizeof ctx->err.message, want);
  ctx->err.set = true;
  ctx->err.is_assert = false;
  ctx->err.file = file, ctx->err.line = line, ctx->err.col = col;
}

void mcrt_assert_failed(McrtCtx *ctx, const char *file, int line, int col, const char *message) {
  if (ctx->err.set)
    return;
  int want = snprintf(ctx->err.message, sizeof ctx->err.message, "%s",
                      message ? message : "assertion failed");
  cut_at_char(ctx->err.message, sizeof ctx->err.message, want);
  ctx->err.set = true;
  ctx->err.is_assert = true;
  ctx->err.file = file, ctx->err.line = line, ctx->err.col = col;
}

bool mcrt_failed(const McrtCtx *ctx) { return ctx->err.set; }

void mcrt_failed_in_rule(McrtCtx *ctx, bool init, uint64_t rule) {
  if (!ctx->err.set || ctx->err.has_rule)
    return;
  ctx->err.has_rule = true;
  ctx->err.rule_init = init;
  ctx->err.rule = rule;
}

void mcrt_clear_error(McrtCtx *ctx) { memset(&ctx->err, 0, sizeof ctx->err); }

void mcrt_witness(McrtCtx *ctx, uint32_t index, const char *name, const McrtType *type,
                  uint64_t encoding) {
  if (index >= MCRT_MAX_BINDING)
    return;
  ctx->witness[index] = (McrtBinding){name, type, encoding};
  if (index >= ctx->nwitness)
    ctx->nwitness = index + 1;
}

// ---------------------------------------------------------------------------
// Stopping.

void mcrt_stop_at(McrtCtx *ctx, McrtBound b, McrtPhase phase) {
  if (ctx->bound == MCRT_BOUND_NONE) {
    ctx->bound = b;
    ctx->bound_phase = phase;
    ctx->bound_signal = b == MCRT_BOUND_INTERRUPTED ? mcrt_signal : 0;
  }
  ctx->stop = true;
}
